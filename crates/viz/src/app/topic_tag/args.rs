//! The command line of `topic-tag`, kept in the library so the man page and
//! shell completions are generated from the same definition the binary uses.

use std::path::PathBuf;

use clap::Parser;

use crate::topic::SummaryMode;

#[derive(Debug, Clone, Parser)]
#[command(
    name = "topic-tag",
    version,
    about = "Split an event stream into chapters: make topic events, order them, stamp every event",
    long_about = "\
Split a JSON-lines event stream (gem-ask, or gemini-cli with
--output-format stream-json) into chapters.

With TITLE, print one `topic` event (with a timestamp) and exit.

On a stream (stdin, or the files given with --input):
  * a `tool_use` of `create_new_topic` (gem-ask) or `update_topic`
    (gemini-cli 0.61) becomes a `topic` event titled by its
    `parameters.title` (whitespace runs made one space, as gem-ask does),
    with the call's `summary` and `strategic_intent` when it has them: the
    call is replaced, and its `tool_result` (same `tool_id`) dropped,
    since the chapter header says it all. An `update_topic` call without
    a title only restates its intent: it stays an ordinary call;
  * within a run of calls (consecutive `tool_use` and `topic` events with
    no other event between them; blank and bad lines do not end a run)
    the topics are moved ahead of the calls, in their own order; the
    calls keep theirs. A run is held until the next other event, the end
    of the input, or the input going quiet for --hold-ms (a run of more
    than 1024 events is let go in parts, so memory stays flat);
  * every event after the first topic is stamped with `topic` (the active
    chapter's title), overwriting any `topic` it had; events before the
    first topic are not stamped;
  * a topic with the same title as the active one (whitespace aside) is
    dropped;
  * a `topic_summary` (from an earlier topic-tag --summary) passes
    unstamped and is not counted;
  * everything else passes through untouched and in order: unknown types
    and fields are kept, field order and values byte for byte (the stamp
    is added as the last field).

Streams of OpenAI Codex (`codex exec --json`) and Claude Code (`claude -p
--output-format stream-json --verbose`) are written as these events, each
plan step that gets under way a `topic` (docs/events.md).

With --wrap the input is plain text (a build log): every line becomes a
`message` event (role `assistant`, the time it was read as `timestamp`),
lines matching --split open a new chapter instead, and lines matching
--error become `error` events (so --summary counts a failed build).

Output is flushed per event when stdout is a terminal (where DEL and C1
control characters are also written as \\u escapes), and otherwise
whenever the input has nothing more ready, so a live stream shows each
event at once and a file goes at bulk speed.

Lines that are not JSON objects are reported on stderr with their file
and line number and skipped; with --strict the first one ends the
program with exit 65.",
    after_help = "\
Exit status:
  0   success (also when stdout is closed early, as by `| head`)
  1   failure (an I/O error)
  2   usage error (bad flags, bad --split or --error regex, no session id for --current)
  65  a bad input line under --strict
  66  an input file or the session file cannot be opened

Examples:
  topic-tag Build
  { topic-tag Build; make 2>&1 | topic-tag --wrap; } | viz-render
  make 2>&1 | topic-tag --wrap --split '^==> ' --error '(?i)\\b(error|failed)\\b' --summary=table > build.jsonl
  gemini -p 'plan and fix the bug' --output-format stream-json | viz-parse | topic-tag | viz-render
  topic-tag --input run.jsonl --summary | tail -1 | jq .chapters
  claude -p 'fix the bug' --output-format stream-json --verbose | topic-tag --summary=table
  topic-tag --current --session 2b9f0c1e"
)]
pub struct Args {
    /// Print one `topic` event with this title and exit (several words are joined by spaces).
    #[arg(value_name = "TITLE", conflicts_with_all = ["input", "wrap", "summary", "current", "strict"])]
    pub title: Vec<String>,

    /// Read events from FILE instead of stdin (repeatable, `-` is stdin); files are one stream.
    #[arg(short, long = "input", value_name = "FILE")]
    pub input: Vec<PathBuf>,

    /// Treat the input as plain text lines: each becomes a `message` event.
    #[arg(short, long)]
    pub wrap: bool,

    /// With --wrap: a line matching REGEX opens a chapter.
    ///
    /// With --wrap: a line matching REGEX opens a chapter instead of becoming a message. The title
    /// is the first capture group when the regex has one, else the line without the matched text
    /// (whitespace runs made one space). A match that leaves nothing titles the chapter with the
    /// whole line, unless that has no letter or digit either (a bare `==> `): then the line opens
    /// no chapter and is a message.
    #[arg(short, long, value_name = "REGEX", requires = "wrap")]
    pub split: Option<String>,

    /// With --wrap: a line matching REGEX becomes an `error` event (severity `error`, the line
    /// as `message`) instead of a message, so --summary counts it; e.g. '(?i)\b(error|failed)\b'.
    /// A line matching --split opens a chapter whatever this says.
    #[arg(short, long, value_name = "REGEX", requires = "wrap")]
    pub error: Option<String>,

    /// At the end, emit one `topic_summary` event.
    ///
    /// At the end, emit one `topic_summary` event listing the chapters with their counts of
    /// events, tool calls and errors and their duration; `table` also prints it on stderr.
    #[arg(long, value_name = "FORMAT", num_args = 0..=1, require_equals = true,
          default_missing_value = "event")]
    pub summary: Option<SummaryMode>,

    /// A line that is not a JSON object (or a topic without a title) is an error (exit 65)
    /// instead of a warning.
    #[arg(long)]
    pub strict: bool,

    /// How long a held run of calls waits for more, in ms.
    ///
    /// How long a held run of calls waits for more calls when the input goes quiet, in ms.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub hold_ms: u64,

    /// Print the active topic of a gem-ask session and exit.
    ///
    /// Print the active topic of a gem-ask session as an `[Active Topic: ...]` line and exit;
    /// nothing is printed when the session has no topic yet.
    #[arg(long, conflicts_with_all = ["input", "wrap", "summary"])]
    pub current: bool,

    /// The session for --current (default: $GEMINI_SESSION_ID; an empty value counts as none).
    #[arg(long, value_name = "ID", env = "GEMINI_SESSION_ID")]
    pub session: Option<String>,
}
