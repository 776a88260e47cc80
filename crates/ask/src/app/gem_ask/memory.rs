//! gem-ask's memory from the shell: `gem-ask memory add|search|list|show|
//! forget|relate|unrelate|graph|path|export|import|reindex`, each printing
//! JSON lines (the events of docs/events.md) on stdout, notes on stderr;
//! and a run's memory flags ([`MemoryFlags`]: `--memory`, `--no-memory`,
//! `--memory-budget`; their merge with the config's `[memory]` into the
//! engine's `MemoryOptions` is `super::memory_options`).
//!
//! A prompt that starts with the word "memory" is still a prompt:
//! `gem-ask memory leaks in rust` has no memory command in it, so it is
//! asked as it was typed.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::{Args as ClapArgs, Subcommand};

use crate::agent::exit;
use crate::memory::command::{self, Command, Out};
use crate::memory::{Filter, Handle, MemoryError, NewMemory, now_ms, parse_when};
use crate::term::{coded, diag};

/// gem-ask's subcommands.
#[derive(Debug, Clone, Subcommand)]
pub enum Sub {
    /// The long-term memory: add, search, list, show, forget, relate, graph, path, export, import
    /// (JSON lines on stdout). Memories live in $XDG_DATA_HOME/gemline/memory.sqlite3.
    Memory(MemoryArgs),
    /// Policy rules: `check TOOL ARGS` explains what they decide about a call (a JSON line).
    Policy(super::policy::PolicyArgs),
    /// The audit log of past sessions: list, search TEXT (prompts, answers, tool calls and
    /// results), show ID; filters --since, --tool, --model, --status, --cost-over (JSON lines).
    Log(super::log::LogArgs),
    /// Apply the prompt to each record of the input (JSON lines, CSV, TSV or lines): one JSON
    /// object a record on stdout, its fields and `answer`. gem-ask's flags (--model, --system,
    /// --schema, ...) go before `map`.
    Map(super::map::MapArgs),
}

#[derive(Debug, Clone, ClapArgs)]
#[command(args_conflicts_with_subcommands = true, disable_help_subcommand = true)]
pub struct MemoryArgs {
    #[command(subcommand)]
    pub action: Option<Action>,
    /// Words of a prompt that starts with "memory" (no memory command): asked as a prompt.
    #[arg(hide = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub words: Vec<String>,
}

/// The flags of a run's memory (flattened into [`super::Args`]).
#[derive(Debug, Clone, Default, ClapArgs)]
pub struct MemoryFlags {
    /// Keep a long-term memory across sessions: the model gets the remember, recall, forget and relate
    /// tools (writes ask for consent), and each turn carries the memories that best match the message
    /// (within --memory-budget) [default: the config's memory.enabled].
    #[arg(long, conflicts_with = "no_memory")]
    pub memory: bool,

    /// Memory off for this run, whatever the config says.
    #[arg(long)]
    pub no_memory: bool,

    /// Most tokens of memories one turn adds to the prompt; more are summarized by the model to fit
    /// [default: the config's memory.budget, else 1000].
    #[arg(long, value_name = "TOKENS")]
    pub memory_budget: Option<u64>,
}

/// Filters of search and list.
#[derive(Debug, Clone, ClapArgs)]
pub struct Which {
    /// Only memories with this tag (repeatable: all of them).
    #[arg(long = "tag", short = 't', value_name = "TAG")]
    pub tags: Vec<String>,
    /// Only memories updated since: an RFC 3339 time, a date (2026-03-01) or an age (90m, 12h, 7d, 2w).
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only memories updated before WHEN.
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,
    /// Most memories to print.
    #[arg(long, short = 'n', default_value_t = command::DEFAULT_LIMIT, value_name = "N")]
    pub limit: usize,
}

#[derive(Debug, Clone, Subcommand)]
pub enum Action {
    /// Remember TEXT (stdin when no TEXT is given), or replace the memory with the same key.
    Add {
        /// A short unique name [default: made from the text].
        #[arg(long, short = 'k')]
        key: Option<String>,
        /// A tag (repeatable).
        #[arg(long = "tag", short = 't', value_name = "TAG")]
        tags: Vec<String>,
        /// How sure the fact is, 0 to 1 [default: 1].
        #[arg(long)]
        confidence: Option<f64>,
        #[arg(value_name = "TEXT")]
        text: Vec<String>,
    },
    /// The memories that best match QUERY: keywords (BM25) and meaning (the embedding model's vectors)
    /// fused by reciprocal rank; each with its score and ranks.
    Search {
        #[command(flatten)]
        which: Which,
        #[arg(value_name = "QUERY", required = true)]
        query: Vec<String>,
    },
    /// The most recently updated memories.
    List {
        #[command(flatten)]
        which: Which,
    },
    /// One memory with its relations.
    Show { key: String },
    /// Delete a memory and its relations.
    Forget { key: String },
    /// Relate two memories: FROM TO [RELATION], e.g. api db depends_on [default: related_to].
    Relate {
        from: String,
        to: String,
        relation: Option<String>,
    },
    /// Remove the relations between two memories (of one kind, or all).
    Unrelate {
        from: String,
        to: String,
        relation: Option<String>,
    },
    /// The relations as a graph: a memory_graph event, or a mermaid flowchart with --mermaid.
    Graph {
        /// Only what is within --depth steps of this memory.
        key: Option<String>,
        #[arg(long, default_value_t = 2, value_name = "N")]
        depth: usize,
        /// Print a mermaid flowchart (a fenced block for Markdown) instead of JSON.
        #[arg(long)]
        mermaid: bool,
    },
    /// The shortest chain of relations between two memories.
    Path { from: String, to: String },
    /// Every memory, with relations and vectors, as JSON lines (to FILE or stdout).
    Export {
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Memories from JSON lines as export writes them (FILE, or stdin); updates by key.
    Import { file: Option<PathBuf> },
    /// Embed the memories that have no vector of the configured embedding model.
    Reindex,
}

/// The filter of search and list, or a usage error naming the flag.
fn filter(w: &Which) -> anyhow::Result<Filter> {
    let now = now_ms();
    let when = |flag: &str, v: &Option<String>| {
        v.as_deref()
            .map(|t| parse_when(t, now))
            .transpose()
            .map_err(|e| coded(exit::USAGE, format!("--{flag} {e}")))
    };
    Ok(Filter {
        tags: w.tags.clone(),
        since: when("since", &w.since)?,
        until: when("until", &w.until)?,
    })
}

/// The engine's command for the shell's.
fn command_of(a: Action) -> anyhow::Result<Command> {
    Ok(match a {
        Action::Add {
            key,
            tags,
            confidence,
            text,
        } => {
            let mut content = text.join(" ");
            if content.trim().is_empty() {
                content = io::read_to_string(io::stdin())?;
            }
            Command::Add(NewMemory {
                key,
                content,
                tags,
                confidence,
                ..NewMemory::default()
            })
        }
        Action::Search { which, query } => Command::Search {
            query: query.join(" "),
            filter: filter(&which)?,
            limit: which.limit,
        },
        Action::List { which } => Command::List {
            filter: filter(&which)?,
            limit: which.limit,
        },
        Action::Show { key } => Command::Show(key),
        Action::Forget { key } => Command::Forget(key),
        Action::Relate { from, to, relation } => Command::Relate {
            from,
            to,
            kind: relation.unwrap_or_default(),
        },
        Action::Unrelate { from, to, relation } => Command::Unrelate {
            from,
            to,
            kind: relation,
        },
        Action::Graph {
            key,
            depth,
            mermaid,
        } => Command::Graph {
            around: key,
            depth,
            mermaid,
        },
        Action::Path { from, to } => Command::Path(from, to),
        Action::Export { output } => Command::Export(output),
        Action::Import { file } => Command::Import(file.filter(|f| f.as_os_str() != "-")),
        Action::Reindex => Command::Reindex,
    })
}

/// Runs one memory command; the exit code. A memory that is not there
/// is 1, what the store refuses (a bad key, tag or time) 65, a store that
/// cannot be used (damaged, locked, full) 1; the message says which.
pub fn run(action: Action, handle: &Handle) -> anyhow::Result<u8> {
    let cmd = command_of(action)?;
    let stdout = io::stdout();
    let mut raw = stdout.lock();
    let mut failed_write: Option<io::Error> = None;
    let mut lines: Vec<String> = Vec::new();
    let done = command::run(handle, &cmd, &mut raw, &mut |o| match o {
        Out::Event(e) => lines.push(e.to_line()),
        Out::Mermaid(g) => lines.push(crate::render::memory::mermaid_block(&g)),
        Out::Note(n) => diag(format!("gem-ask: note: {n}")),
    });
    for l in lines {
        if let Err(e) = writeln!(raw, "{l}").and_then(|()| raw.flush()) {
            failed_write = Some(e);
            break;
        }
    }
    if let Some(e) = failed_write {
        return Err(e.into());
    }
    match done {
        Ok(()) => Ok(exit::OK),
        Err(e @ MemoryError::Invalid(_)) => Err(coded(exit::DATA, e.to_string())),
        Err(e) => Err(coded(exit::FAILURE, e.to_string())),
    }
}
