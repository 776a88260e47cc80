//! Plans as chapters: the step an agent is working on names the chapter.
//! Codex's `todo_list` items and Claude Code's `TodoWrite` list are the
//! whole plan each time; Claude Code's `TaskUpdate` moves one task. Each
//! says which step is under way, and a chapter opens when that step is a
//! new one (the same step said again opens nothing, as a topic naming the
//! open chapter opens nothing). A plan whose steps are all done opens
//! nothing: the work goes on in the last chapter until another plan step
//! begins. docs/events.md says why.

use serde_json::json;

use super::event;
use crate::events::Event;
use crate::events::topic::normalize_title;

/// The chapter a plan opened last.
#[derive(Debug, Clone, Default)]
pub(crate) struct Chapters {
    open: Option<String>,
}

impl Chapters {
    /// The step `title` is under way (`summary` under it): its `topic`
    /// event, or `None` when it is the open chapter or has no title.
    pub(crate) fn begin(&mut self, title: &str, summary: Option<String>) -> Option<Event> {
        let title = normalize_title(title);
        if title.is_empty() || self.open.as_deref() == Some(title.as_str()) {
            return None;
        }
        self.open = Some(title.clone());
        Some(event("topic", json!({"title": title, "summary": summary})))
    }

    /// A whole plan, each step's text and whether it is the one under way:
    /// the chapter of the first such step, "step N of M" under it.
    pub(crate) fn plan<'a>(
        &mut self,
        steps: impl Iterator<Item = (&'a str, bool)>,
    ) -> Option<Event> {
        let mut total = 0;
        let mut current = None;
        for (text, under_way) in steps {
            total += 1;
            if under_way && current.is_none() {
                current = Some((total, text));
            }
        }
        let (n, text) = current?;
        self.begin(text, Some(format!("step {n} of {total}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_opens_its_chapter_once() {
        let mut c = Chapters::default();
        let steps = [("Read", false), ("Chart", true), ("Write", false)];
        let t = c.plan(steps.iter().copied()).unwrap();
        assert_eq!(t.str_field("title"), Some("Chart"));
        assert_eq!(t.str_field("summary"), Some("step 2 of 3"));
        assert!(c.plan(steps.iter().copied()).is_none());
        assert!(c.plan([("Read", false)].into_iter()).is_none());
        assert!(c.begin("  \n", None).is_none());
        assert!(c.begin("Write", None).is_some());
    }
}
