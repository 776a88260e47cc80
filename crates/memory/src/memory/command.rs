//! The memory commands a person gives, the same from the shell (`gem-ask
//! memory ...`, whose flags the program's front defines) and in the REPL
//! (`/memory ...`, read by [`parse`]): each is a [`Command`], and [`run`]
//! turns it into events (`memory` for a write, `memory_item`,
//! `memory_graph`, `memory_path`) handed to the caller one by one, with
//! notes for the user beside them.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::PathBuf;

use serde_json::json;

use super::event::{self, By};
use super::handle::{Handle, WRITE_WAIT};
use super::{BadWhen, Filter, MemoryError, NewMemory, now_ms, parse_when};
use crate::events::Event;

/// One memory command.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Add(NewMemory),
    Search {
        query: String,
        filter: Filter,
        limit: usize,
    },
    List {
        filter: Filter,
        limit: usize,
    },
    Show(String),
    Forget(String),
    Relate {
        from: String,
        to: String,
        kind: String,
    },
    Unrelate {
        from: String,
        to: String,
        kind: Option<String>,
    },
    Graph {
        around: Option<String>,
        depth: usize,
        mermaid: bool,
    },
    Path(String, String),
    /// To a file, or stdout (`None`, the shell only).
    Export(Option<PathBuf>),
    /// From a file, or stdin (`None`, the shell only).
    Import(Option<PathBuf>),
    Reindex,
}

/// The REPL's `/memory` usage, one command a line.
pub const USAGE: &[(&str, &str)] = &[
    ("add [--key K] [--tag T]... TEXT", "remember TEXT"),
    (
        "search [--tag T] [--since W] [--until W] [-n N] QUERY",
        "find memories",
    ),
    (
        "list [--tag T] [--since W] [--until W] [-n N]",
        "the latest memories",
    ),
    ("show KEY", "one memory and its relations"),
    ("forget KEY", "delete a memory"),
    ("relate FROM TO [RELATION]", "link two memories"),
    ("unrelate FROM TO [RELATION]", "unlink them"),
    ("graph [KEY] [--depth N] [--mermaid]", "the relations"),
    ("path FROM TO", "how two memories are linked"),
    ("export FILE", "every memory as JSON lines"),
    ("import FILE", "memories from JSON lines"),
    ("reindex", "embed the memories without vectors"),
];

/// The default number of memories `search` and `list` show.
pub const DEFAULT_LIMIT: usize = 10;

/// Why a `/memory` line was refused: its message is the usage to show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The usage of the command (after `/memory `).
    #[error("usage: /memory {0}")]
    Usage(String),
    #[error("{0} needs a value")]
    NeedsValue(String),
    #[error("{name} {value:?}: a whole number")]
    NotANumber { name: String, value: String },
    #[error("unknown option {0}")]
    UnknownOption(String),
    #[error(transparent)]
    When(#[from] BadWhen),
    /// The verb, cleaned for the terminal.
    #[error(
        "unknown memory command {0:?}: add, search, list, show, forget, relate, unrelate, graph, path, export, import, reindex"
    )]
    UnknownCommand(String),
}

/// Options and words of a command line.
#[derive(Default)]
struct Words {
    key: Option<String>,
    tags: Vec<String>,
    since: Option<String>,
    until: Option<String>,
    limit: Option<usize>,
    depth: Option<usize>,
    mermaid: bool,
    rest: Vec<String>,
}

fn read_words(words: &[String]) -> Result<Words, CommandError> {
    let mut w = Words::default();
    let mut it = words.iter();
    while let Some(word) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| CommandError::NeedsValue(name.to_string()))
        };
        let number = |name: &str, v: String| {
            v.parse::<usize>().map_err(|_| CommandError::NotANumber {
                name: name.to_string(),
                value: v,
            })
        };
        match word.as_str() {
            "--key" | "-k" => w.key = Some(value("--key")?),
            "--tag" | "-t" => w.tags.push(value("--tag")?),
            "--since" => w.since = Some(value("--since")?),
            "--until" => w.until = Some(value("--until")?),
            "--limit" | "-n" => w.limit = Some(number("--limit", value("--limit")?)?),
            "--depth" => w.depth = Some(number("--depth", value("--depth")?)?),
            "--mermaid" => w.mermaid = true,
            "--" => w.rest.extend(it.by_ref().cloned()),
            o if o.starts_with("--") => return Err(CommandError::UnknownOption(o.to_string())),
            _ => w.rest.push(word.clone()),
        }
    }
    Ok(w)
}

impl Words {
    fn filter(&self) -> Result<Filter, CommandError> {
        let now = now_ms();
        let when = |v: &Option<String>| v.as_deref().map(|t| parse_when(t, now)).transpose();
        Ok(Filter {
            tags: self.tags.clone(),
            since: when(&self.since)?,
            until: when(&self.until)?,
        })
    }

    /// Exactly `n` words (then `optional` more at most).
    fn args(&self, n: usize, optional: usize, usage: &str) -> Result<&[String], CommandError> {
        if self.rest.len() < n || self.rest.len() > n + optional {
            return Err(CommandError::Usage(usage.to_string()));
        }
        Ok(&self.rest)
    }
}

/// Reads a `/memory` line's words (after `/memory`); the error is the
/// usage to show.
pub fn parse(words: &[String]) -> Result<Command, CommandError> {
    let Some((verb, rest)) = words.split_first() else {
        return Err(CommandError::Usage("add|search|list|show|forget|relate|unrelate|graph|path|export|import|reindex (/help memory)".into()));
    };
    let w = read_words(rest)?;
    let usage = |v: &str| {
        USAGE
            .iter()
            .find(|(u, _)| u.split(' ').next() == Some(v))
            .map_or(v.to_string(), |(u, _)| u.to_string())
    };
    let u = usage(verb);
    Ok(match verb.as_str() {
        "add" => {
            if w.rest.is_empty() {
                return Err(CommandError::Usage(u));
            }
            Command::Add(NewMemory {
                key: w.key.clone(),
                content: w.rest.join(" "),
                tags: w.tags.clone(),
                ..NewMemory::default()
            })
        }
        "search" => Command::Search {
            query: w.args(1, usize::MAX - 1, &u)?.join(" "),
            filter: w.filter()?,
            limit: w.limit.unwrap_or(DEFAULT_LIMIT),
        },
        "list" => Command::List {
            filter: w.filter()?,
            limit: w.limit.unwrap_or(DEFAULT_LIMIT),
        },
        "show" => Command::Show(w.args(1, 0, &u)?[0].clone()),
        "forget" => Command::Forget(w.args(1, 0, &u)?[0].clone()),
        "relate" | "unrelate" => {
            let a = w.args(2, 1, &u)?;
            let kind = a.get(2).cloned();
            if verb == "relate" {
                Command::Relate {
                    from: a[0].clone(),
                    to: a[1].clone(),
                    kind: kind.unwrap_or_default(),
                }
            } else {
                Command::Unrelate {
                    from: a[0].clone(),
                    to: a[1].clone(),
                    kind,
                }
            }
        }
        "graph" => Command::Graph {
            around: w.args(0, 1, &u)?.first().cloned(),
            depth: w.depth.unwrap_or(2),
            mermaid: w.mermaid,
        },
        "path" => {
            let a = w.args(2, 0, &u)?;
            Command::Path(a[0].clone(), a[1].clone())
        }
        "export" => Command::Export(Some(PathBuf::from(&w.args(1, 0, &u)?[0]))),
        "import" => Command::Import(Some(PathBuf::from(&w.args(1, 0, &u)?[0]))),
        "reindex" => {
            w.args(0, 0, &u)?;
            Command::Reindex
        }
        other => {
            return Err(CommandError::UnknownCommand(crate::term::sanitize_line(
                other,
            )));
        }
    })
}

/// What [`run`] hands the caller.
pub enum Out {
    /// An event: a write (`memory`) or something asked for.
    Event(Event),
    /// A graph (a `memory_graph` event's JSON) asked for as a mermaid
    /// flowchart: the caller draws it (`render::memory::mermaid_block`).
    Mermaid(serde_json::Value),
    /// Something the user should be told (a note, a skipped line).
    Note(String),
}

/// Runs a command on the store; every result goes to `out` as it comes.
/// `stdout` is where export writes without a file (and import reads
/// stdin): the shell's, never the REPL's.
pub fn run(
    h: &Handle,
    cmd: &Command,
    stdout: &mut dyn Write,
    out: &mut dyn FnMut(Out),
) -> Result<(), MemoryError> {
    match cmd {
        Command::Add(new) => {
            let r = h.remember(new.clone())?;
            r.notes.into_iter().for_each(|n| out(Out::Note(n)));
            out(Out::Event(event::written(&r.memory, r.created, By::User)));
        }
        Command::Search {
            query,
            filter,
            limit,
        } => {
            let found = h.search(query, filter, *limit, WRITE_WAIT)?;
            found.notes.into_iter().for_each(|n| out(Out::Note(n)));
            found
                .hits
                .iter()
                .for_each(|x| out(Out::Event(event::hit(x))));
        }
        Command::List { filter, limit } => {
            for m in h.list(filter, *limit)? {
                out(Out::Event(event::item(&m)));
            }
        }
        Command::Show(key) => {
            let (m, edges) = h.get(key)?;
            out(Out::Event(event::shown(&m, &edges)));
        }
        Command::Forget(key) => out(Out::Event(event::forgot(&h.forget(key)?, By::User))),
        Command::Relate { from, to, kind } => out(Out::Event(event::related(
            &h.relate(from, to, kind)?,
            By::User,
        ))),
        Command::Unrelate { from, to, kind } => {
            let n = h.unrelate(from, to, kind.as_deref())?;
            out(Out::Event(event::unrelated(from, to, n, By::User)));
        }
        Command::Graph {
            around,
            depth,
            mermaid,
        } => {
            let g = h.graph(around.as_deref(), *depth)?;
            if *mermaid {
                out(Out::Mermaid(g.to_json()));
            } else {
                out(Out::Event(event::graph(&g)));
            }
        }
        Command::Path(a, b) => {
            let steps = h.path_between(a, b)?;
            out(Out::Event(event::path(a, b, steps.as_deref())));
        }
        Command::Export(to) => export(h, to.as_ref(), stdout, out)?,
        Command::Import(from) => import(h, from.as_ref(), out)?,
        Command::Reindex => {
            let n = h.reindex()?;
            out(Out::Event(event::counted(
                "reindexed",
                json!({"embedded": n, "model": h.model()}),
            )));
        }
    }
    Ok(())
}

fn io_err(path: &std::path::Path, e: std::io::Error) -> MemoryError {
    MemoryError::Io {
        path: path.to_path_buf(),
        why: e.to_string(),
    }
}

fn export(
    h: &Handle,
    to: Option<&PathBuf>,
    stdout: &mut dyn Write,
    out: &mut dyn FnMut(Out),
) -> Result<(), MemoryError> {
    match to {
        None => {
            h.export(stdout)?;
        }
        Some(p) => {
            let f = File::create(p).map_err(|e| io_err(p, e))?;
            let mut w = BufWriter::new(f);
            let n = h.export(&mut w)?;
            w.flush().map_err(|e| io_err(p, e))?;
            out(Out::Note(format!(
                "exported {n} memories to {}",
                p.display()
            )));
        }
    }
    Ok(())
}

fn import(h: &Handle, from: Option<&PathBuf>, out: &mut dyn FnMut(Out)) -> Result<(), MemoryError> {
    let report = match from {
        Some(p) => {
            let f = File::open(p).map_err(|e| io_err(p, e))?;
            h.import(&mut BufReader::new(f))?
        }
        None => h.import(&mut std::io::stdin().lock())?,
    };
    let name = from.map_or("stdin".to_string(), |p| p.display().to_string());
    for (line, why) in &report.skipped {
        out(Out::Note(format!(
            "{name}, line {line}: {why} (line skipped)"
        )));
    }
    out(Out::Event(event::counted(
        "imported",
        json!({"added": report.added, "updated": report.updated, "relations": report.relations,
               "vectors": report.vectors, "skipped": report.skipped.len()}),
    )));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        shlex::split(s).unwrap()
    }

    #[test]
    fn lines_become_commands() {
        assert_eq!(
            parse(&words("add --tag infra -k host The deploy host is build-7")),
            Ok(Command::Add(NewMemory {
                key: Some("host".into()),
                content: "The deploy host is build-7".into(),
                tags: vec!["infra".into()],
                ..NewMemory::default()
            }))
        );
        assert_eq!(
            parse(&words("relate api db depends_on")),
            Ok(Command::Relate {
                from: "api".into(),
                to: "db".into(),
                kind: "depends_on".into()
            })
        );
        assert_eq!(
            parse(&words("graph --mermaid")),
            Ok(Command::Graph {
                around: None,
                depth: 2,
                mermaid: true
            })
        );
        assert!(matches!(
            parse(&words("search -n 3 deploy host")),
            Ok(Command::Search { limit: 3, .. })
        ));
        let said = |w: &str| parse(&words(w)).unwrap_err().to_string();
        assert_eq!(said("show"), "usage: /memory show KEY");
        assert_eq!(said("path a"), "usage: /memory path FROM TO");
        assert!(said("list --since yesterday").contains("an age"));
        assert!(said("frob").starts_with("unknown memory command"));
        assert!(said("search --frob x").contains("unknown option --frob"));
        assert!(
            parse(&[])
                .unwrap_err()
                .to_string()
                .starts_with("usage: /memory add|")
        );
    }
}
