//! The prompt's line editor: rustyline on the terminal (emacs keys,
//! Tab completes slash commands), with the input history kept across runs
//! in `$XDG_DATA_HOME/gemline/repl_history` (mode 0600; a line typed with
//! a leading space is not kept).
//!
//! rustyline runs in its "prefer the terminal" behaviour: it reads from
//! and draws on /dev/tty even when stdout is a pipe carrying the event
//! stream, so the prompt never lands in the data. With no terminal at all
//! it reads plain lines from stdin without echoing a prompt.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use rustyline::completion::Completer;
use rustyline::config::{Behavior, Config};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::FileHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};

use super::commands::HELP;

/// How many typed lines the history file keeps.
const HISTORY_LINES: usize = 1000;

/// What one read at the prompt gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    Line(String),
    /// Ctrl-C at the prompt: the line is dropped, the REPL goes on.
    Cancelled,
    /// Ctrl-D on an empty line, or the end of piped input.
    End,
    /// The caller's `stop` said so while the prompt waited (SIGTERM).
    Stopped,
}

/// `$XDG_DATA_HOME/gemline/repl_history` (or the platform's equivalent).
pub fn history_path() -> anyhow::Result<PathBuf> {
    use etcetera::BaseStrategy;
    let base = etcetera::choose_base_strategy()
        .map_err(|e| anyhow::anyhow!("cannot find the data directory: {e}"))?;
    Ok(base.data_dir().join("gemline").join("repl_history"))
}

/// Completes `/he` to `/help` and so on; prompts are left alone.
struct SlashHelper;

impl Completer for SlashHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let typed = &line[..pos];
        if !typed.starts_with('/') || typed.contains(char::is_whitespace) {
            return Ok((0, Vec::new()));
        }
        let found = HELP
            .iter()
            .map(|(c, _)| c.split_whitespace().next().unwrap_or(c))
            .filter(|c| c.starts_with(typed))
            .map(str::to_string)
            .collect();
        Ok((0, found))
    }
}

impl Hinter for SlashHelper {
    type Hint = String;
}

impl Highlighter for SlashHelper {
    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        _default: bool,
    ) -> Cow<'b, str> {
        Cow::Borrowed(prompt)
    }
}

impl Validator for SlashHelper {}
impl Helper for SlashHelper {}

/// The prompt's editor, on a thread of its own: rustyline blocks in its
/// read, and the session must still see SIGTERM while it waits (see
/// [`Editor::read`]).
pub struct Editor {
    to: mpsc::Sender<Request>,
    from: mpsc::Receiver<rustyline::Result<Input>>,
}

enum Request {
    Read(String),
    Clear,
}

impl Editor {
    /// Opens the editor and loads the history file; a history that cannot
    /// be read is a warning, not a reason to refuse to start.
    pub fn open(history: Option<PathBuf>) -> anyhow::Result<Editor> {
        let (to, requests) = mpsc::channel::<Request>();
        let (answers, from) = mpsc::channel();
        let (ready_tx, ready) = mpsc::channel();
        std::thread::Builder::new()
            .name("prompt".into())
            .spawn(move || {
                let mut ed = match LineEditor::open(history) {
                    Ok(ed) => {
                        let _ = ready_tx.send(Ok(()));
                        ed
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e.to_string()));
                        return;
                    }
                };
                for r in requests {
                    let answer = match r {
                        Request::Read(prompt) => ed.read(&prompt),
                        Request::Clear => ed.rl.clear_screen().map(|()| Input::End),
                    };
                    if answers.send(answer).is_err() {
                        break;
                    }
                }
            })?;
        ready
            .recv()
            .map_err(|_| anyhow::anyhow!("the prompt's editor did not start"))?
            .map_err(|e| anyhow::anyhow!("cannot open the prompt's editor: {e}"))?;
        Ok(Editor { to, from })
    }

    /// Shows `prompt` and reads one line. `stop` is asked ten times a
    /// second meanwhile; when it says so the wait ends with
    /// [`Input::Stopped`], the read left behind on its thread (the caller
    /// is about to exit and restores the terminal).
    pub fn read(&mut self, prompt: &str, stop: impl Fn() -> bool) -> anyhow::Result<Input> {
        self.ask(Request::Read(prompt.to_string()), stop)
    }

    /// Clears the terminal the editor draws on.
    pub fn clear_screen(&mut self) -> anyhow::Result<()> {
        self.ask(Request::Clear, || false).map(|_| ())
    }

    fn ask(&mut self, r: Request, stop: impl Fn() -> bool) -> anyhow::Result<Input> {
        let gone = || anyhow::anyhow!("the prompt's editor stopped");
        self.to.send(r).map_err(|_| gone())?;
        loop {
            match self
                .from
                .recv_timeout(std::time::Duration::from_millis(100))
            {
                Ok(answer) => {
                    return answer.map_err(|e| anyhow::anyhow!("cannot read the prompt: {e}"));
                }
                Err(mpsc::RecvTimeoutError::Timeout) if stop() => return Ok(Input::Stopped),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(gone()),
            }
        }
    }
}

/// rustyline with the history file, living on the editor's thread.
struct LineEditor {
    rl: rustyline::Editor<SlashHelper, FileHistory>,
    /// Where typed lines are appended; `None` when it cannot be kept.
    history: Option<PathBuf>,
}

impl LineEditor {
    fn open(history: Option<PathBuf>) -> anyhow::Result<LineEditor> {
        let config = Config::builder()
            .behavior(Behavior::PreferTerm)
            .max_history_size(HISTORY_LINES)?
            .history_ignore_dups(true)?
            .history_ignore_space(true)
            .auto_add_history(false)
            .build();
        let mut rl = rustyline::Editor::with_config(config)?;
        rl.set_helper(Some(SlashHelper));
        let history = history.and_then(|p| match prepare(&p, &mut rl) {
            Ok(()) => Some(p),
            Err(e) => {
                crate::term::diag(format!(
                    "gem-ask: warning: input history {}: {e} (not kept this time)",
                    p.display()
                ));
                None
            }
        });
        Ok(LineEditor { rl, history })
    }

    fn read(&mut self, prompt: &str) -> rustyline::Result<Input> {
        match self.rl.readline(prompt) {
            Ok(line) => {
                self.remember(&line);
                Ok(Input::Line(line))
            }
            Err(ReadlineError::Interrupted) => Ok(Input::Cancelled),
            Err(ReadlineError::Eof) => Ok(Input::End),
            Err(e) => Err(e),
        }
    }

    /// Adds a line to the history and appends it to the file right away,
    /// so a killed session keeps what was typed.
    fn remember(&mut self, line: &str) {
        if line.trim().is_empty() {
            return;
        }
        if self.rl.add_history_entry(line).unwrap_or(false)
            && let Some(p) = &self.history
            && let Err(e) = self.rl.append_history(p)
        {
            crate::term::diag(format!(
                "gem-ask: warning: cannot write the input history {}: {e}",
                p.display()
            ));
            self.history = None;
        }
    }
}

/// Creates the history's directory (0700) and reads what it holds.
fn prepare(
    path: &Path,
    rl: &mut rustyline::Editor<SlashHelper, FileHistory>,
) -> anyhow::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if let Some(dir) = path.parent() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    match rl.load_history(path) {
        Ok(()) => Ok(()),
        Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_completes_commands_only() {
        let h = SlashHelper;
        let hist = FileHistory::new();
        let ctx = Context::new(&hist);
        assert_eq!(
            h.complete("/he", 3, &ctx).unwrap(),
            (0, vec!["/help".to_string()])
        );
        let (_, all) = h.complete("/", 1, &ctx).unwrap();
        assert_eq!(all.len(), HELP.len());
        assert!(h.complete("hello /he", 9, &ctx).unwrap().1.is_empty());
        assert!(h.complete("/save x", 7, &ctx).unwrap().1.is_empty());
    }
}
