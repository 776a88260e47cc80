//! Keeping a conversation's history under `--max-history-tokens`, the same
//! way in every mode. Each completed turn's tokens come from the API's
//! `usageMetadata` and are stored in the session (`turn` records, see
//! [`crate::session`]). Before a turn, when the history has passed the
//! limit, its oldest turns are summarized by the model (one extra request,
//! the turns sent as a transcript) into one turn, a user Content holding
//! the summary and the model's acknowledgement. The summary is stored as a
//! `summary` record naming how many content records it covers; those stay
//! in the file, and the session reader leaves them out of requests.
//!
//! [`Ledger`] is what the agent knows of its history's tokens; the pure
//! parts (where to cut, the transcript) are here, the request is made by
//! `Agent::compact` in [`super::turn`].

use serde_json::{Value, json};

use crate::session::History;

/// The history's token accounts, kept beside `Agent::history`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ledger {
    /// Content records of the session file the summary at the head of
    /// the history covers (0 without a summary).
    pub offset: usize,
    /// Leading contents of the history that are the summary turn.
    pub summary_len: usize,
    /// Turns with recorded tokens: (index in the history where the turn
    /// ends, its tokens).
    pub turns: Vec<(usize, u64)>,
    /// The history's tokens after its last turn, when recorded.
    pub context_tokens: Option<u64>,
    /// The history length these accounts describe; a history replaced
    /// without them is estimated instead.
    pub len: usize,
}

impl Ledger {
    /// The accounts of a session as loaded.
    pub fn from_history(h: &History) -> Ledger {
        Ledger {
            offset: h.summarized,
            summary_len: h.summary_len,
            turns: h.turn_tokens.clone(),
            context_tokens: h.context_tokens,
            len: h.contents.len(),
        }
    }

    /// Records a completed turn: the history is now `len` long and holds
    /// `context` tokens. Returns the turn's own tokens (what the history
    /// grew by; the first turn also carries the system prompt's).
    pub fn turn_done(&mut self, len: usize, context: u64) -> u64 {
        let before = if self.len == 0 {
            0
        } else {
            self.context_tokens.unwrap_or(0)
        };
        let tokens = context.saturating_sub(before);
        self.turns.push((len, tokens));
        self.context_tokens = Some(context);
        self.len = len;
        tokens
    }

    /// After a summary replaced `history[..cut]`: the accounts of the new
    /// history (the summary, of `summary_tokens`, then `history[cut..]`).
    /// Returns the number of content records the summary covers.
    pub fn summarized(&mut self, history: &[Value], cut: usize, summary_tokens: u64) -> usize {
        let sizes = turn_sizes(history, self);
        let covers = self.offset + cut.saturating_sub(self.summary_len);
        let kept: u64 = sizes
            .iter()
            .filter(|t| t.start >= cut)
            .map(|t| t.tokens)
            .sum();
        let shift = |end: usize| end - cut + 2;
        self.turns = self
            .turns
            .iter()
            .filter(|(end, _)| *end > cut)
            .map(|&(end, t)| (shift(end), t))
            .collect();
        self.offset = covers;
        self.summary_len = 2;
        self.context_tokens = Some(summary_tokens.saturating_add(kept));
        self.len = history.len() - cut + 2;
        covers
    }

    fn describes(&self, history: &[Value]) -> bool {
        self.len == history.len()
    }
}

/// A rough token count for content whose usage was not recorded: four
/// bytes of JSON a token.
pub fn estimate(contents: &[Value]) -> u64 {
    contents
        .iter()
        .map(|c| c.to_string().len() as u64 / 4)
        .sum()
}

/// Whether a content opens a turn: the user's words, not tool results.
fn opens_turn(c: &Value) -> bool {
    c.get("role").and_then(Value::as_str) == Some("user")
        && !c
            .get("parts")
            .and_then(Value::as_array)
            .is_some_and(|p| p.iter().any(|p| p.get("functionResponse").is_some()))
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct TurnSize {
    start: usize,
    end: usize,
    tokens: u64,
}

/// The turns after the summary, with their recorded or estimated tokens.
fn turn_sizes(history: &[Value], ledger: &Ledger) -> Vec<TurnSize> {
    let from = ledger.summary_len.min(history.len());
    let starts: Vec<usize> = (from..history.len())
        .filter(|&i| opens_turn(&history[i]))
        .collect();
    let recorded = ledger.describes(history);
    starts
        .iter()
        .enumerate()
        .map(|(k, &start)| {
            let end = starts.get(k + 1).copied().unwrap_or(history.len());
            let tokens = ledger
                .turns
                .iter()
                .find(|(e, _)| recorded && *e == end)
                .map(|&(_, t)| t)
                .unwrap_or_else(|| estimate(&history[start..end]));
            TurnSize { start, end, tokens }
        })
        .collect()
}

/// Where to cut the history so the turns kept fit in half the limit: the
/// index of the first kept content, or `None` when the history is within
/// `max` tokens (0: no limit) or has no older turn to summarize. The last
/// turn is always kept.
pub fn cut_point(history: &[Value], ledger: &Ledger, max: u64) -> Option<usize> {
    if max == 0 {
        return None;
    }
    let total = match ledger.context_tokens {
        Some(t) if ledger.describes(history) => t,
        _ => estimate(history),
    };
    if total <= max {
        return None;
    }
    let sizes = turn_sizes(history, ledger);
    // Cutting at the first turn would summarize nothing but a summary.
    let candidates = sizes.get(1..)?;
    let tail = |start: usize| -> u64 {
        sizes
            .iter()
            .filter(|t| t.start >= start)
            .map(|t| t.tokens)
            .sum()
    };
    candidates
        .iter()
        .find(|t| tail(t.start) <= max / 2)
        .or(candidates.last())
        .map(|t| t.start)
}

/// The most characters of one part the transcript carries.
const PART_CHARS: usize = 4000;

/// The turns to summarize as plain text: what each side said, the tools
/// called and what they returned (thoughts and signatures left out, so the
/// request holds no function parts).
pub fn transcript(contents: &[Value]) -> String {
    let mut out = String::new();
    for c in contents {
        let who = match c.get("role").and_then(Value::as_str) {
            Some("model") => "Assistant",
            _ => "User",
        };
        for p in c
            .get("parts")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if p.get("thought").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            let line = if let Some(t) = p.get("text").and_then(Value::as_str) {
                format!("{who}: {t}")
            } else if let Some(f) = p.get("functionCall") {
                format!("Assistant called {} with {}", f["name"], f["args"])
            } else if let Some(f) = p.get("functionResponse") {
                format!("Tool {} returned {}", f["name"], f["response"])
            } else if let Some(a) = p.get("attachment") {
                let s = |k: &str| a.get(k).and_then(Value::as_str).unwrap_or("?");
                format!("{who} attached {} ({})", s("name"), s("mimeType"))
            } else if let Some(f) = p.get("fileData") {
                let uri = f.get("fileUri").and_then(Value::as_str).unwrap_or("?");
                format!("{who} attached {uri}")
            } else {
                continue;
            };
            out.push_str(&clip(&line, PART_CHARS));
            out.push('\n');
        }
    }
    out
}

fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{} [...]", &s[..i]),
        None => s.to_string(),
    }
}

/// The system prompt of the summary request.
pub const SUMMARY_SYSTEM: &str = "You condense conversations between a user and an assistant \
working in a terminal. Write a faithful summary for the assistant to continue from: the user's \
goals and requests, decisions and answers given, facts and numbers found, files and commands \
used with their outcomes, and what is still open. Plain text, no preamble.";

/// The user message asking for the summary of `transcript`.
pub fn summary_request(transcript: &str) -> String {
    format!(
        "Summarize this earlier part of our conversation; it will replace it in your history.\n\n\
         <conversation>\n{transcript}</conversation>"
    )
}

/// The summary turn that replaces the summarized ones.
pub fn summary_turn(summary: &str) -> [Value; 2] {
    [
        json!({"role": "user", "parts": [{"text": format!(
            "Summary of our earlier conversation (the original turns were condensed to keep the history short):\n\n{}",
            summary.trim()
        )}]}),
        json!({"role": "model", "parts": [{"text": "Understood. I will continue from this summary."}]}),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(t: &str) -> Value {
        json!({"role": "user", "parts": [{"text": t}]})
    }
    fn model(t: &str) -> Value {
        json!({"role": "model", "parts": [{"text": t}]})
    }

    /// Three turns of 100 tokens each, the second with a tool round.
    fn three_turns() -> (Vec<Value>, Ledger) {
        let h = vec![
            user("a"),
            model("b"),
            user("c"),
            json!({"role": "model", "parts": [{"functionCall": {"name": "plot", "args": {}}}]}),
            json!({"role": "user", "parts": [{"functionResponse": {"name": "plot", "response": {"output": "ok"}}}]}),
            model("d"),
            user("e"),
            model("f"),
        ];
        let mut l = Ledger::default();
        l.turn_done(2, 100);
        l.turn_done(6, 200);
        l.turn_done(8, 300);
        (h, l)
    }

    #[test]
    fn under_the_limit_nothing_is_cut() {
        let (h, l) = three_turns();
        assert_eq!(cut_point(&h, &l, 300), None);
        assert_eq!(cut_point(&h, &l, 0), None);
    }

    #[test]
    fn the_oldest_turns_go_until_the_rest_fits_in_half() {
        let (h, l) = three_turns();
        // 300 > 250: keep what fits in 125 tokens, the last turn.
        assert_eq!(cut_point(&h, &l, 250), Some(6));
        // 300 > 299: 149 also fits one turn only.
        assert_eq!(cut_point(&h, &l, 299), Some(6));
        // A tool round never starts a kept part.
        assert_eq!(cut_point(&h, &l, 290), Some(6));
        // Room for two turns in half the limit: only the first goes.
        let (h, mut l) = three_turns();
        l.context_tokens = Some(1000);
        assert_eq!(cut_point(&h, &l, 400), Some(2));
    }

    #[test]
    fn one_turn_alone_is_never_summarized() {
        let h = vec![user("a"), model("b")];
        let mut l = Ledger::default();
        l.turn_done(2, 5000);
        assert_eq!(cut_point(&h, &l, 10), None);
    }

    #[test]
    fn a_history_without_accounts_is_estimated() {
        let big = "x".repeat(4000);
        let h = vec![user(&big), model(&big), user("q"), model("r")];
        let l = Ledger::default();
        assert_eq!(cut_point(&h, &l, 1000), Some(2));
    }

    #[test]
    fn accounts_follow_a_summary() {
        let (h, mut l) = three_turns();
        let covers = l.summarized(&h, 6, 40);
        assert_eq!(covers, 6);
        assert_eq!(l.summary_len, 2);
        assert_eq!(l.turns, [(4, 100)]);
        assert_eq!(l.context_tokens, Some(140));
        assert_eq!(l.len, 4);
        // A second summary counts from the file's start.
        let h2 = [
            summary_turn("s").to_vec(),
            h[6..].to_vec(),
            vec![user("g"), model("h")],
        ]
        .concat();
        l.turn_done(6, 240);
        assert_eq!(l.summarized(&h2, 4, 30), 8);
    }

    #[test]
    fn the_transcript_has_text_and_tools_but_no_thoughts() {
        let (h, _) = three_turns();
        let mut with_thought = h.clone();
        with_thought[1] =
            json!({"role": "model", "parts": [{"text": "hidden", "thought": true}, {"text": "b"}]});
        let t = transcript(&with_thought[..6]);
        assert_eq!(
            t,
            "User: a\nAssistant: b\nUser: c\nAssistant called \"plot\" with {}\n\
             Tool \"plot\" returned {\"output\":\"ok\"}\nAssistant: d\n"
        );
        assert!(clip(&"é".repeat(5000), 4000).ends_with(" [...]"));
    }
}
