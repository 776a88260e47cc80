//! Which session the REPL's conversation belongs to, and the commands that
//! change it: `/new` starts an empty one, `/save NAME` writes the
//! conversation so far to `NAME.jsonl` and goes on under that name, `/load
//! NAME` takes a saved one up; `/history` lists the turns. The files are
//! the one-shot mode's (`session`, in gemline-core), so `gem-ask --session NAME` and
//! `/load NAME` continue the same conversation.

use std::path::PathBuf;

use serde_json::Value;

use crate::agent::setup::SessionChoice;
use crate::session;

/// The session the next completed turn is appended to.
pub struct Current {
    pub id: String,
    /// `None` with `--no-history` until a `/save` names a file.
    pub write_to: Option<PathBuf>,
    no_history: bool,
}

/// Why appending a turn, `/save` or `/load` failed; the text is what the
/// user is told.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(
        "invalid session name {0:?}: use letters, digits, '.', '_' and '-' (at most 128, not starting with '.')"
    )]
    InvalidName(String),
    /// No sessions directory.
    #[error("{0}")]
    NoDir(anyhow::Error),
    #[error("a session named {0} exists already: /load {0}, or save under another name")]
    Exists(String),
    #[error("nothing to save yet: ask something first")]
    Empty,
    #[error("no session named {0}")]
    Missing(String),
    #[error("cannot write session {}: {source}", .path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read session {}: {source}", .path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A session read back for `/load`.
pub struct Loaded {
    pub history: session::History,
    /// Lines that could not be used, to be shown as warnings.
    pub warnings: Vec<String>,
}

impl Current {
    pub fn from_choice(s: &SessionChoice, no_history: bool) -> Current {
        Current {
            id: s.id.clone(),
            write_to: s.write_to.clone(),
            no_history,
        }
    }

    /// Appends a completed turn.
    pub fn save_turn<R: session::Record>(
        &self,
        model: &str,
        records: &[R],
    ) -> Result<(), SessionError> {
        let Some(path) = &self.write_to else {
            return Ok(());
        };
        session::append(path, model, records).map_err(|source| SessionError::Write {
            path: path.clone(),
            source,
        })
    }

    /// `/new`: a fresh id; nothing is written until a turn completes.
    pub fn start_new(&mut self) -> anyhow::Result<()> {
        self.id = session::new_id();
        self.write_to = if self.no_history {
            None
        } else {
            Some(path_of(&self.id)?)
        };
        Ok(())
    }

    /// `/save NAME`: writes `contents` (and the chapter) as a new session
    /// file and makes it the current one. A name already taken by another
    /// session is refused rather than overwritten.
    pub fn save_as(
        &mut self,
        name: &str,
        model: &str,
        contents: &[Value],
        topic: Option<&str>,
    ) -> Result<String, SessionError> {
        check_name(name)?;
        let path = path_of(name).map_err(SessionError::NoDir)?;
        if name == self.id && self.write_to.as_ref() == Some(&path) {
            return Ok(format!(
                "this session is {name} already; every completed turn is saved in it"
            ));
        }
        if path.exists() {
            return Err(SessionError::Exists(name.to_string()));
        }
        if contents.is_empty() {
            return Err(SessionError::Empty);
        }
        let written = match self.write_to.as_deref().filter(|p| p.is_file()) {
            // The file as it is: turn tokens and summaries stay in step
            // with the conversation.
            Some(from) => copy_new(from, &path),
            None => {
                let mut records: Vec<Value> =
                    contents.iter().map(session::content_record).collect();
                if let Some(t) = topic {
                    records.push(session::topic_record(t));
                }
                session::append(&path, model, &records)
            }
        };
        if let Err(source) = written {
            return Err(SessionError::Write { path, source });
        }
        self.id = name.to_string();
        self.write_to = Some(path);
        Ok(format!(
            "saved as {name} ({} turn(s)); later turns are saved there too. Resume with /load {name} or gem-ask --session {name}",
            turns(contents).len()
        ))
    }

    /// `/load NAME`: reads a saved session and makes it the current one.
    pub fn load(&mut self, name: &str) -> Result<Loaded, SessionError> {
        check_name(name)?;
        let path = path_of(name).map_err(SessionError::NoDir)?;
        if !path.exists() {
            return Err(SessionError::Missing(name.to_string()));
        }
        let h = match session::load(&path) {
            Ok(h) => h,
            Err(source) => return Err(SessionError::Read { path, source }),
        };
        let mut warnings: Vec<String> = h
            .skipped
            .iter()
            .map(|(line, why)| format!("session {name}, line {line}: {why} (line skipped)"))
            .collect();
        warnings.extend(h.notes.iter().map(|n| format!("session {name}, {n}")));
        self.id = name.to_string();
        self.write_to = if self.no_history { None } else { Some(path) };
        Ok(Loaded {
            history: h,
            warnings,
        })
    }

    /// The current session as its file holds it now (after `/save`, so
    /// the agent's token accounts match the file's).
    pub fn reload(&self) -> Option<session::History> {
        session::load(self.write_to.as_deref()?).ok()
    }
}

/// Copies a session file to a name that must not exist yet, private.
fn copy_new(from: &std::path::Path, to: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut src = session::open_for_reading(from)?.ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::NotFound, "the session file went away")
    })?;
    let mut dst = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(to)?;
    std::io::copy(&mut src, &mut dst)?;
    dst.sync_data()
}

fn check_name(name: &str) -> Result<(), SessionError> {
    if session::valid_id(name) {
        Ok(())
    } else {
        Err(SessionError::InvalidName(name.to_string()))
    }
}

fn path_of(id: &str) -> anyhow::Result<PathBuf> {
    Ok(crate::agent::environ::get()
        .sessions_dir
        .clone()?
        .join(format!("{id}.jsonl")))
}

/// One exchange of the conversation, for `/history`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnSummary {
    pub prompt: String,
    pub answer: String,
    pub tool_calls: usize,
}

/// The turns of a conversation: each starts at a user Content with text
/// (a Content of functionResponses belongs to the turn before it).
pub fn turns(contents: &[Value]) -> Vec<TurnSummary> {
    let mut out: Vec<TurnSummary> = Vec::new();
    for c in contents {
        let parts = c.get("parts").and_then(Value::as_array);
        let text: String = parts
            .into_iter()
            .flatten()
            .filter(|p| p.get("thought").and_then(Value::as_bool) != Some(true))
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            // gem-ask's own context for the turn (memories, the chapter).
            .filter(|t| !t.starts_with(crate::agent::turn::TURN_CONTEXT))
            .collect();
        let calls = parts
            .into_iter()
            .flatten()
            .filter(|p| p.get("functionCall").is_some())
            .count();
        match c.get("role").and_then(Value::as_str) {
            Some("user") if !text.trim().is_empty() => out.push(TurnSummary {
                prompt: text,
                answer: String::new(),
                tool_calls: 0,
            }),
            Some("model") => {
                if let Some(t) = out.last_mut() {
                    t.answer.push_str(&text);
                    t.tool_calls += calls;
                }
            }
            _ => {}
        }
    }
    out
}

/// `/history`'s text: one numbered prompt a line with the start of its
/// answer under it, each cut to `cols`.
pub fn history_text(contents: &[Value], cols: usize, ascii: bool) -> String {
    use crate::render::text::clean_line;
    use crate::render::wrap::truncate;
    let ts = turns(contents);
    if ts.is_empty() {
        return "no turns yet in this session".into();
    }
    let mut s = String::new();
    for (i, t) in ts.iter().enumerate() {
        let first = |x: &str| clean_line(x.trim().lines().next().unwrap_or(""), ascii);
        let head = format!("{:>3}. > {}", i + 1, first(&t.prompt));
        s.push_str(&truncate(&head, cols, ascii));
        s.push('\n');
        let mut answer = first(&t.answer);
        if t.tool_calls > 0 {
            answer = format!("[{} tool call(s)] {answer}", t.tool_calls);
        }
        s.push_str(&truncate(&format!("     {answer}"), cols, ascii));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn turns_group_tool_rounds_with_their_prompt() {
        let contents = vec![
            json!({"role":"user","parts":[{"text":"chart BMW 0-60"}]}),
            json!({"role":"model","parts":[{"functionCall":{"name":"render_visualization","args":{}}}]}),
            json!({"role":"user","parts":[{"functionResponse":{"name":"render_visualization","response":{}}}]}),
            json!({"role":"model","parts":[{"text":"Here it is.\nMore."}]}),
            json!({"role":"user","parts":[{"text":"Continue."}]}),
            json!({"role":"model","parts":[{"text":"x","thought":true},{"text":"Done."}]}),
        ];
        let ts = turns(&contents);
        assert_eq!(ts.len(), 2);
        assert_eq!(ts[0].tool_calls, 1);
        assert_eq!(ts[0].answer, "Here it is.\nMore.");
        assert_eq!(ts[1].answer, "Done.");
        let text = history_text(&contents, 40, false);
        assert_eq!(
            text,
            "  1. > chart BMW 0-60\n     [1 tool call(s)] Here it is.\n  2. > Continue.\n     Done.\n"
        );
    }
}
