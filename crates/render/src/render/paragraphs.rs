//! Where streamed text breaks into paragraphs, the one rule every drawing
//! of text follows (the terminal and CI logs through `stream`, Markdown
//! reports through `gfm`): deltas of one kind (`message`, `thought`) join
//! into one paragraph, and a tool call or its result between two pieces
//! of text ends the paragraph. The text a model writes before its calls
//! and the text it writes after their results are two answers (gemini-cli
//! streams both as deltas of one message), so they never run together as
//! "...the figures first.Here are the quickest three:", whether the
//! calls are drawn or hidden.

use crate::events::Event;

/// Where the text of one kind stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Text {
    /// None since the start or the user's last message.
    #[default]
    None,
    /// Some was seen, and nothing broke it since.
    Open,
    /// A tool call or result came after it.
    Broken,
}

/// The state the rule needs, for each kind of text (`message` and
/// `thought` run side by side: a model thinks again after its calls,
/// and a viewer may hide the thoughts).
#[derive(Debug, Clone, Copy, Default)]
pub struct Paragraphs {
    message: Text,
    thought: Text,
}

impl Paragraphs {
    /// Takes every event in stream order, drawn or not; true for text
    /// that starts a new paragraph because a tool call or its result
    /// came after the text of its kind before it. (Whether other text
    /// joins the open paragraph stays each drawing's own: deltas of the
    /// kind being drawn join.)
    pub fn see(&mut self, e: &Event) -> bool {
        let state = match e.kind() {
            "message" if e.str_field("role") == Some("user") => {
                // The user's turn: what the model says next starts afresh.
                *self = Paragraphs::default();
                return false;
            }
            "message" => &mut self.message,
            "thought" => &mut self.thought,
            "tool_use" | "tool_result" => {
                for t in [&mut self.message, &mut self.thought] {
                    if *t == Text::Open {
                        *t = Text::Broken;
                    }
                }
                return false;
            }
            _ => return false,
        };
        let after_call = *state == Text::Broken;
        *state = Text::Open;
        after_call
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(line: &str) -> Event {
        Event::from_line(line, 1).unwrap().unwrap()
    }

    const DELTA: &str = r#"{"type":"message","role":"assistant","content":"a","delta":true}"#;
    const CALL: &str = r#"{"type":"tool_use","tool_name":"read_file","tool_id":"1"}"#;
    const RESULT: &str = r#"{"type":"tool_result","tool_id":"1","status":"success"}"#;

    fn seen(lines: &[&str]) -> Vec<bool> {
        let mut p = Paragraphs::default();
        lines.iter().map(|l| p.see(&event(l))).collect()
    }

    #[test]
    fn a_call_between_deltas_ends_the_paragraph() {
        assert_eq!(
            seen(&[DELTA, DELTA, CALL, RESULT, DELTA, DELTA]),
            [false, false, false, false, true, false]
        );
    }

    #[test]
    fn only_calls_that_come_after_text_of_the_kind() {
        let thought = r#"{"type":"thought","content":"t","delta":true}"#;
        let user = r#"{"type":"message","role":"user","content":"q"}"#;
        let other = r#"{"type":"x-custom"}"#;
        // No text before the call: the answer simply starts.
        assert_eq!(seen(&[CALL, DELTA]), [false, false]);
        // An event no format draws between deltas breaks nothing.
        assert_eq!(seen(&[DELTA, other, DELTA]), [false, false, false]);
        // A thought (shown or not) after the calls: each kind breaks.
        assert_eq!(
            seen(&[thought, DELTA, CALL, thought, DELTA]),
            [false, false, false, true, true]
        );
        // The user's next question: a fresh start.
        assert_eq!(seen(&[DELTA, CALL, user, DELTA]), [false; 4]);
    }
}
