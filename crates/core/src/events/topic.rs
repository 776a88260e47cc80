//! The chapter vocabulary every filter shares: the `create_new_topic` tool
//! name, how titles compare ([`normalize_title`]) and [`TopicCalls`], the
//! little state that hides a topic call's `tool_result` and a topic
//! repeating the open chapter. It lives with the events, not in
//! `crate::topic`, so `viz-render` can use it without linking the session
//! store that topic-tag's `--current` reads.

use std::collections::VecDeque;

/// The tool whose calls open chapters.
pub const CREATE_NEW_TOPIC: &str = "create_new_topic";

/// Results of `create_new_topic` calls still to drop. A call whose result
/// never comes must not make memory grow, so the oldest ids go.
pub const MAX_PENDING_RESULTS: usize = 256;

/// A chapter title as gem-ask makes it from a `create_new_topic` call:
/// runs of whitespace (line breaks included) become one space, the ends
/// are trimmed. Two titles that normalize alike are the same chapter.
pub fn normalize_title(title: &str) -> String {
    title.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Tracks the `create_new_topic` calls of a stream (their results carry
/// nothing the `topic` event does not) and the open chapter (a topic
/// naming it again opens nothing). Bounded: at most
/// [`MAX_PENDING_RESULTS`] ids are remembered.
#[derive(Debug, Clone, Default)]
pub struct TopicCalls {
    pending: VecDeque<String>,
    current: Option<String>,
}

impl TopicCalls {
    pub fn new() -> TopicCalls {
        TopicCalls::default()
    }

    /// A `create_new_topic` call with this `tool_id`: its result is to be
    /// dropped when it comes.
    pub fn call(&mut self, tool_id: &str) {
        if self.pending.len() == MAX_PENDING_RESULTS {
            self.pending.pop_front();
        }
        self.pending.push_back(tool_id.to_string());
    }

    /// Whether a `tool_result` with this `tool_id` answers a remembered
    /// topic call (and is to be dropped); the id is forgotten then.
    pub fn take_result(&mut self, tool_id: &str) -> bool {
        match self.pending.iter().position(|d| d == tool_id) {
            Some(i) => {
                self.pending.remove(i);
                true
            }
            None => false,
        }
    }

    /// A topic titled `title` arrives: true when it opens a new chapter,
    /// false when it names the open one again (titles compared as
    /// [`normalize_title`] leaves them).
    pub fn open(&mut self, title: &str) -> bool {
        if !self.would_open(title) {
            return false;
        }
        self.current = Some(normalize_title(title));
        true
    }

    /// Whether [`TopicCalls::open`] would open a chapter for this title.
    pub fn would_open(&self, title: &str) -> bool {
        self.current.as_deref() != Some(normalize_title(title).as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_normalize_like_gem_ask() {
        assert_eq!(
            normalize_title("  Charting\n BMW\tdata "),
            "Charting BMW data"
        );
        assert_eq!(normalize_title(" \n"), "");
    }

    #[test]
    fn results_of_topic_calls_are_dropped_once() {
        let mut t = TopicCalls::new();
        t.call("a");
        assert!(!t.take_result("b"));
        assert!(t.take_result("a"));
        assert!(!t.take_result("a"));
    }

    #[test]
    fn pending_ids_are_bounded() {
        let mut t = TopicCalls::new();
        for i in 0..MAX_PENDING_RESULTS + 1 {
            t.call(&i.to_string());
        }
        assert_eq!(t.pending.len(), MAX_PENDING_RESULTS);
        assert!(!t.take_result("0"));
        assert!(t.take_result(&MAX_PENDING_RESULTS.to_string()));
    }

    #[test]
    fn a_topic_repeating_the_open_chapter_opens_nothing() {
        let mut t = TopicCalls::new();
        assert!(t.open("Charting"));
        assert!(!t.open(" Charting\n"));
        assert!(t.open("Other"));
        assert!(t.open("Charting"));
    }
}
