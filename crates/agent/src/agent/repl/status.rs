//! The REPL's status line: mode, model, active chapter, the memories the
//! last turn used (`--memory`), the share of the session's input tokens
//! the API served from its cache (once there is one), what the session has
//! cost (when its price is known) and whether the model is working on its
//! own or waiting for the user, each state in its
//! own colour. It is drawn on the terminal (never into stdout's stream),
//! one line before each prompt and before each turn the model takes on its
//! own, fitted to the width; the chapter is model text, so it is cleaned
//! of control characters first.

use crate::render::text::{Line, Style, clean_line, width};
use crate::render::wrap::truncate;

/// What the session is doing: `-i` alone chats, `-i -t` works on a task
/// with the user in the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Chat,
    Task,
    ChatTask,
}

impl Mode {
    pub fn label(self) -> &'static str {
        match self {
            Mode::Chat => "chat",
            Mode::Task => "task",
            Mode::ChatTask => "chat+task",
        }
    }

    fn style(self) -> Style {
        match self {
            Mode::Chat => Style::Fg(36),
            Mode::Task => Style::Fg(35),
            Mode::ChatTask => Style::Fg(34),
        }
    }
}

/// Who has the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// The prompt is up: the model waits for the user.
    Waiting,
    /// The model goes on without new input: turn `n` of at most `max`.
    Continuing { n: u32, max: u32 },
}

impl State {
    fn text(self) -> String {
        match self {
            State::Waiting => "waiting for you".into(),
            State::Continuing { n, max } => {
                format!("continuing on its own ({n}/{max}; type a line or /interrupt to stop)")
            }
        }
    }

    fn style(self) -> Style {
        match self {
            State::Waiting => Style::Fg(32),
            State::Continuing { .. } => Style::Fg(33),
        }
    }
}

/// Everything the line shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub mode: Mode,
    pub model: String,
    pub chapter: Option<String>,
    /// The memories the last turn carried (`--memory`).
    pub memory: Vec<String>,
    /// The session's input tokens served from the cache, in percent
    /// (`None` until some were).
    pub cached: Option<u64>,
    /// What the session has cost (`agent::price`); `None` when its
    /// price is unknown.
    pub cost: Option<String>,
    pub state: State,
}

impl Status {
    /// The line, at most `cols` columns wide (the model and chapter give
    /// way first), coloured when `color`.
    pub fn line(&self, cols: usize, color: bool, unicode: bool) -> String {
        let ascii = !unicode;
        let sep = if unicode { " │ " } else { " | " };
        let mode = self.mode.label();
        let state = self.state.text();
        let fixed = width(mode) + width(&state) + 2 * width(sep);
        let mut middle = clean_line(&self.model, ascii);
        if let Some(c) = &self.chapter {
            middle.push_str(sep);
            middle.push_str(&clean_line(c, ascii));
        }
        if !self.memory.is_empty() {
            middle.push_str(sep);
            middle.push_str(&clean_line(
                &format!("memory: {}", self.memory.join(", ")),
                ascii,
            ));
        }
        if let Some(p) = self.cached {
            middle.push_str(sep);
            middle.push_str(&format!("cached {p}%"));
        }
        if let Some(c) = &self.cost {
            middle.push_str(sep);
            middle.push_str(c);
        }
        let room = cols.saturating_sub(fixed);
        let mut line = Line::new();
        line.push(mode, self.mode.style(), color);
        if room >= 4 {
            line.plain(sep)
                .push(&truncate(&middle, room, ascii), Style::Dim, color);
        }
        line.plain(sep).push(&state, self.state.style(), color);
        let text = line.finish();
        if line_width(&text) > cols {
            // Too narrow even for mode and state: plain and cut.
            return truncate(&crate::render::text::strip_ansi(&text), cols.max(1), ascii);
        }
        text
    }
}

/// The status line's cost: dollars to four places; `None` for a model
/// with no price (`--verbose` and `result.stats` say that, and a line
/// saying so after every turn of most sessions would only crowd it).
pub fn cost_label(cost_usd: Option<f64>) -> Option<String> {
    cost_usd.map(|c| format!("${c:.4}"))
}

fn line_width(s: &str) -> usize {
    width(&crate::render::text::strip_ansi(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::text::strip_ansi;

    fn status(state: State) -> Status {
        Status {
            mode: Mode::Chat,
            model: "gemini-3.5-flash".into(),
            chapter: Some("BMW\x1b[2J acceleration".into()),
            memory: Vec::new(),
            cached: None,
            cost: None,
            state,
        }
    }

    #[test]
    fn shows_the_cost_when_the_price_is_known() {
        let mut s = status(State::Waiting);
        s.cost = cost_label(Some(0.0123456));
        assert!(s.line(200, false, true).contains("│ $0.0123 │"));
        s.cost = cost_label(None);
        assert!(!s.line(200, false, true).contains('$'));
    }

    #[test]
    fn shows_mode_model_chapter_and_state() {
        let s = status(State::Waiting).line(100, false, true);
        assert_eq!(
            s,
            "chat │ gemini-3.5-flash │ BMW^[[2J acceleration │ waiting for you"
        );
        let s = status(State::Continuing { n: 2, max: 5 }).line(200, false, false);
        assert!(s.contains(" | continuing on its own (2/5;"), "{s}");
        let mut with = status(State::Waiting);
        with.memory = vec!["deploy-host".into(), "db-port".into()];
        assert!(
            with.line(200, false, true)
                .ends_with("acceleration │ memory: deploy-host, db-port │ waiting for you")
        );
        with.cached = Some(87);
        assert!(
            with.line(200, false, true)
                .ends_with("db-port │ cached 87% │ waiting for you")
        );
    }

    #[test]
    fn each_state_has_its_own_colour() {
        let colours: Vec<String> = [State::Waiting, State::Continuing { n: 1, max: 5 }]
            .into_iter()
            .map(|st| {
                let line = status(st).line(200, true, true);
                let text = st.text();
                let at = line.find(&text).unwrap();
                line[..at].rsplit("\x1b[").next().unwrap().to_string()
            })
            .collect();
        assert_eq!(colours, ["32m", "33m"]);
        assert!(
            !status(State::Waiting)
                .line(200, false, true)
                .contains('\x1b')
        );
    }

    #[test]
    fn never_wider_than_the_terminal() {
        for cols in 1..120 {
            for st in [State::Waiting, State::Continuing { n: 5, max: 5 }] {
                let line = status(st).line(cols, true, true);
                assert!(width(&strip_ansi(&line)) <= cols, "{cols}: {line}");
            }
        }
    }
}
