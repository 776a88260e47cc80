//! Memories in a turn's prompt: the best ones for the user's message,
//! within a budget of tokens (`--memory-budget`). [`fit`] takes them in
//! rank order while they fit; when some do not, the caller has the model
//! summarize them all ([`summary_request`]) and sends the summary
//! instead ([`summary_block`]). The block says what the memories are
//! (saved facts, perhaps outdated) so the model weighs them as such.

use super::{Memory, rfc3339, tokens};

/// The most memories a turn considers.
pub const PER_TURN: usize = 8;

/// The default `--memory-budget`.
pub const DEFAULT_BUDGET: u64 = 1000;

const HEADER: &str = "Memories saved in earlier sessions that may bear on this message \
(facts the user or you chose to keep; they may be outdated; the user can see which were used):\n";

/// One memory's line in the block.
pub fn line(m: &Memory) -> String {
    let date = rfc3339(m.updated);
    let mut s = format!("- {}", m.key);
    if !m.tags.is_empty() {
        s.push_str(&format!(" [{}]", m.tags.join(", ")));
    }
    s.push_str(&format!(
        " ({}): {}\n",
        &date[..10],
        m.content.replace('\n', " ")
    ));
    s
}

/// How many of `memories` (in rank order) fit in `budget` tokens with the
/// block's header.
pub fn fit(memories: &[&Memory], budget: u64) -> usize {
    let mut used = tokens(HEADER);
    let mut n = 0;
    for m in memories {
        used += tokens(&line(m));
        if used > budget {
            break;
        }
        n += 1;
    }
    n
}

/// The block for these memories, at the head of the user's turn.
pub fn block(memories: &[&Memory]) -> String {
    let mut s = String::from(HEADER);
    for m in memories {
        s.push_str(&line(m));
    }
    s
}

/// The block for the model's summary of the memories.
pub fn summary_block(summary: &str) -> String {
    format!("{HEADER}(summarized to fit)\n{}\n", summary.trim())
}

/// The system instruction of the summary request.
pub const SUMMARY_SYSTEM: &str = "You condense saved notes for another assistant. Keep every fact that may \
help answer the user's message, with the note's key in brackets; drop what cannot help. Plain text, no preamble.";

/// The summary request's text: the message, the memories, the budget.
pub fn summary_request(message: &str, memories: &[&Memory], budget: u64) -> String {
    let mut s = format!(
        "The user's message:\n{}\n\nThe saved notes:\n",
        message.trim()
    );
    for m in memories {
        s.push_str(&line(m));
    }
    s.push_str(&format!(
        "\nCondense the notes into at most {} words, keeping what bears on the message.",
        budget.saturating_mul(3) / 4
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(key: &str, content: &str) -> Memory {
        Memory {
            id: 1,
            key: key.into(),
            content: content.into(),
            tags: vec!["infra".into()],
            created: 0,
            updated: 1_772_323_200_000,
            session: None,
            confidence: 1.0,
        }
    }

    #[test]
    fn memories_fit_in_rank_order_until_the_budget() {
        let a = m(
            "deploy-host",
            "The deploy host is build-7.\nIt runs Debian.",
        );
        let b = m("db-port", &"x".repeat(400));
        assert_eq!(
            line(&a),
            "- deploy-host [infra] (2026-03-01): The deploy host is build-7. It runs Debian.\n"
        );
        assert_eq!(fit(&[&a, &b], 1000), 2);
        assert_eq!(fit(&[&a, &b], 60), 1);
        assert_eq!(fit(&[&a, &b], 10), 0);
        assert!(block(&[&a]).ends_with(&line(&a)));
        assert!(summary_request("where?", &[&a], 100).contains("at most 75 words"));
    }
}
