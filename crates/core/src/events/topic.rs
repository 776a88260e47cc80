//! The chapter vocabulary every filter shares: the tools whose calls open
//! chapters (gem-ask's `create_new_topic`, gemini-cli's `update_topic`)
//! and what such a call says ([`TopicArgs`]), how titles compare
//! ([`normalize_title`]) and [`TopicCalls`], the little state that hides a
//! topic call's `tool_result` and a topic repeating the open chapter. It
//! lives with the events, not in `crate::topic`, so `viz-render` can use
//! it without linking the session store that topic-tag's `--current`
//! reads.

use std::collections::VecDeque;

use serde_json::{Value, json};

use super::Event;

/// gem-ask's tool whose calls open chapters (gemini-cli's older name).
pub const CREATE_NEW_TOPIC: &str = "create_new_topic";

/// gemini-cli's topic tool (0.61 and later): `title` and `summary` when a
/// chapter starts, `strategic_intent` always. A call without a title only
/// restates the intent within the open chapter.
pub const UPDATE_TOPIC: &str = "update_topic";

/// Whether calls of this tool open chapters.
pub fn is_topic_tool(name: &str) -> bool {
    name == CREATE_NEW_TOPIC || name == UPDATE_TOPIC
}

/// What a topic tool call says: the chapter's title (as
/// [`normalize_title`] leaves it), and the optional `summary` and
/// `strategic_intent`, trimmed (`None` when absent, blank or not a
/// string).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TopicArgs {
    pub title: String,
    pub summary: Option<String>,
    pub strategic_intent: Option<String>,
}

impl TopicArgs {
    /// The chapter a call of `tool_name` with these `parameters` opens:
    /// `None` when the tool is not a topic tool or the call has no title
    /// (a non-empty string once normalized).
    pub fn of_call(tool_name: &str, parameters: Option<&Value>) -> Option<TopicArgs> {
        if !is_topic_tool(tool_name) {
            return None;
        }
        let text = |key: &str| {
            parameters
                .and_then(|p| p.get(key))
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        let title = normalize_title(&text("title")?);
        Some(TopicArgs {
            title,
            summary: text("summary"),
            strategic_intent: text("strategic_intent"),
        })
    }

    /// The chapter a `tool_use` event opens, when it is a titled call of a
    /// topic tool.
    pub fn of_event(e: &Event) -> Option<TopicArgs> {
        if e.kind() != "tool_use" {
            return None;
        }
        TopicArgs::of_call(e.str_field("tool_name")?, e.get("parameters"))
    }

    /// The `topic` event for this chapter (`summary` and
    /// `strategic_intent` only when present).
    pub fn to_event(&self) -> Event {
        Event::typed(
            "topic",
            json!({
                "title": self.title,
                "summary": self.summary,
                "strategic_intent": self.strategic_intent,
            }),
        )
    }
}

/// Results of topic calls still to drop. A call whose result
/// never comes must not make memory grow, so the oldest ids go.
pub const MAX_PENDING_RESULTS: usize = 256;

/// A chapter title as gem-ask makes it from a topic call:
/// runs of whitespace (line breaks included) become one space, the ends
/// are trimmed. Two titles that normalize alike are the same chapter.
pub fn normalize_title(title: &str) -> String {
    title.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Tracks the topic calls of a stream (their results carry
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

    /// A topic call with this `tool_id`: its result is to be
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
    fn titled_calls_of_either_tool_are_chapters() {
        let p =
            json!({"title": " Ranking\n cars ", "summary": "  Sorting.  ", "strategic_intent": 3});
        let t = TopicArgs::of_call(UPDATE_TOPIC, Some(&p)).unwrap();
        assert_eq!(t.title, "Ranking cars");
        assert_eq!(t.summary.as_deref(), Some("Sorting."));
        assert_eq!(t.strategic_intent, None);
        assert_eq!(
            t.to_event().to_line(),
            r#"{"type":"topic","title":"Ranking cars","summary":"Sorting."}"#
        );
        let c = TopicArgs::of_call(CREATE_NEW_TOPIC, Some(&json!({"title": "A"}))).unwrap();
        assert_eq!(c.to_event().to_line(), r#"{"type":"topic","title":"A"}"#);
        // An intent alone opens nothing; other tools never do.
        let intent = json!({"strategic_intent": "Keep going."});
        assert_eq!(TopicArgs::of_call(UPDATE_TOPIC, Some(&intent)), None);
        assert_eq!(
            TopicArgs::of_call(UPDATE_TOPIC, Some(&json!({"title": " \n"}))),
            None
        );
        assert_eq!(
            TopicArgs::of_call("read_file", Some(&json!({"title": "A"}))),
            None
        );
        assert_eq!(TopicArgs::of_call(UPDATE_TOPIC, None), None);
    }

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
