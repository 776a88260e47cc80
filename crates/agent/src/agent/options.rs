//! What one gem-ask run is asked to do, resolved: the flags merged with the
//! environment and the config file by the program's front
//! (`app::gem_ask`), as plain values grouped by concern. The agent reads
//! nothing else: no flag parser, no config file, no environment variable
//! (the front's one reading of the environment is `agent::environ`).
//! [`Options::tool_setup`] hands the toolbox the part that concerns it.

use std::path::PathBuf;
use std::time::Duration;

use crate::agent::toolbox::ToolSetup;
use crate::agent::toolbox::config::ToolsFile;
use crate::agent::toolbox::sandbox::SandboxMode;
use crate::provider::ProviderKind;
use crate::term::ColorChoice;

/// `--output`: who the run's stdout is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum OutputMode {
    /// Text on a terminal, the event stream into a pipe or file.
    #[default]
    Auto,
    /// Drawn for a person.
    Text,
    /// JSON lines (docs/events.md).
    Jsonl,
    /// `--schema` into a pipe: the records alone, as plain JSON lines
    /// (what `auto` becomes there; not a value of the flag).
    #[value(skip)]
    Records,
}

/// Where a run's requests go and how they are waited for: `--base-url`,
/// `--retries`, `--max-wait`, `--connect-timeout`, `--read-timeout`,
/// `--record`, `--replay`, and the first wait between retries
/// (`GEMLINE_RETRY_BASE_MS`, 1 s).
#[derive(Debug, Clone)]
pub struct Connection {
    pub base_url: Option<String>,
    pub retries: u32,
    pub max_wait: u64,
    pub connect_timeout: u64,
    pub read_timeout: u64,
    pub record: Option<PathBuf>,
    pub replay: Option<PathBuf>,
    pub retry_base: Duration,
}

/// The conversation a run belongs to: `--session`, `--continue`,
/// `--new-chat`, `--no-history`, and `GEMINI_SESSION_ID` (the session when
/// no flag names one).
#[derive(Debug, Clone, Default)]
pub struct Conversation {
    pub session: Option<String>,
    pub continue_last: bool,
    pub new_chat: bool,
    pub no_history: bool,
    /// `GEMINI_SESSION_ID`, not blank.
    pub session_from_env: Option<String>,
}

/// Who stdout is for and how the terminal view draws: `--output`,
/// `--color`, `--width`, `--ascii`, `--unicode`, `--show-tools`,
/// `--thoughts`, and the Markdown flags.
#[derive(Debug, Clone)]
pub struct Output {
    pub mode: OutputMode,
    pub color: ColorChoice,
    pub width: Option<u16>,
    pub ascii: bool,
    pub unicode: bool,
    pub show_tools: bool,
    pub thoughts: bool,
    pub text: crate::render::MarkdownOptions,
}

/// The tools a run declares and how they run: `--no-tools`, `--tools`,
/// `--exclude-tools`, `--allow-tool`, `--yes`, `--tool-timeout`,
/// `--include-dir`, `--mcp`, the sandbox flags, `--list-tools`,
/// `--max-tool-rounds`, and the config's `[tools]` and `[mcp.*]` tables.
#[derive(Debug, Clone, Default)]
pub struct Tools {
    pub no_tools: bool,
    /// `--tools`: only these.
    pub only: Vec<String>,
    pub exclude: Vec<String>,
    pub allow: Vec<String>,
    pub yes: bool,
    pub timeout: Option<f64>,
    pub include_dir: Vec<PathBuf>,
    pub mcp: Vec<String>,
    /// `--sandbox`; the config's when `None`.
    pub sandbox: Option<SandboxMode>,
    pub allow_network: bool,
    pub sandbox_mcp: bool,
    /// gem-ask's config directory (from the front): no sandboxed command
    /// reads it.
    pub config_dir: Option<PathBuf>,
    pub list: bool,
    pub max_rounds: u32,
    /// The config file's `[tools]` and `[mcp.*]` tables (read once, by the
    /// front).
    pub file: ToolsFile,
    /// The policy rules (`--policy`, the config dir's `policies/*.toml`),
    /// read by the front.
    pub policy: Vec<crate::config::policy::RuleSpec>,
}

/// What a run asks, and of whom: `--provider`, `--model`, `--thinking`,
/// `--temperature` (a role's or the config's when no flag says), and what
/// the user's system prompt adds to gem-ask's (`--system`,
/// `--system-file`, a role's, the context files), resolved by the front.
#[derive(Debug, Clone)]
pub struct Ask {
    pub provider: ProviderKind,
    pub model: String,
    pub thinking: Option<crate::provider::Thinking>,
    pub temperature: Option<f64>,
    pub system: String,
}

/// One run's resolved options, by concern where one is grouped ([`Ask`],
/// [`Connection`], [`Conversation`], [`Output`], [`Tools`]); each other
/// field is the flag of the same name (see `gem-ask --help`) after the
/// merge.
#[derive(Debug, Clone)]
pub struct Options {
    pub prompt: Vec<String>,
    pub ask: Ask,
    pub connection: Connection,
    pub output: Output,
    pub conversation: Conversation,
    pub no_stdin: bool,
    pub command_help: bool,
    pub tools: Tools,
    pub task: Option<String>,
    pub max_iterations: u32,
    pub task_timeout: Option<f64>,
    /// `--auto-continue on`.
    pub auto_continue: bool,
    /// `--progress-reporting on`.
    pub progress_reporting: bool,
    pub max_history_tokens: u64,
    pub debug: bool,
    pub interactive: bool,
    pub max_consecutive_turns: u32,
    /// Files in, images and speech out (`-a`, `--output-dir`, `--voice`,
    /// `--modalities`, `--graphics`).
    pub media: crate::agent::media::MediaOptions,
    /// `--schema` / `--schema-multi`, parsed.
    pub schema: Option<std::sync::Arc<crate::agent::schema::Schema>>,
    pub list_models: bool,
    pub count_tokens: bool,
    /// `--memory` (or the config's `memory.enabled`): the memory store's
    /// settings; `None` when memory is off.
    pub memory: Option<crate::memory::MemoryOptions>,
    /// `--verbose`: say on stderr which memories each turn used.
    pub verbose: bool,
    /// `--max-requests`, `--max-tokens`, `--max-cost` and the price (`super::budget`).
    pub budget: super::budget::Budget,
}

impl Options {
    /// What the run asks of its tools, for [`ToolSetup::build`].
    pub fn tool_setup(&self) -> ToolSetup {
        ToolSetup {
            // An answer as data declares only the tools asked for by name.
            no_tools: self.tools.no_tools
                || self.command_help
                || (self.schema.is_some() && self.tools.only.is_empty()),
            only: self.tools.only.clone(),
            exclude: self.tools.exclude.clone(),
            allow: self.tools.allow.clone(),
            yes: self.tools.yes,
            timeout: self.tools.timeout.map(Duration::from_secs_f64),
            include_dirs: self.tools.include_dir.clone(),
            mcp: self.tools.mcp.clone(),
            agent: self.task.is_some(),
            task: self.task.is_some(),
            no_progress: !self.progress_reporting,
            debug: self.debug,
            workdir: None,
            sandbox: self.tools.sandbox,
            allow_network: self.tools.allow_network,
            sandbox_mcp: self.tools.sandbox_mcp,
            private: self
                .tools
                .config_dir
                .iter()
                .cloned()
                .chain(
                    crate::agent::environ::get()
                        .sessions_dir
                        .clone()
                        .ok()
                        .and_then(|d| Some(d.parent()?.to_path_buf())),
                )
                .collect(),
            file: self.tools.file.clone(),
            policy: self.tools.policy.clone(),
            look: crate::agent::toolbox::consent::Look::resolve(
                self.output.color,
                self.output.ascii,
                self.output.unicode,
            ),
            no_gemini_tools: (!self.ask.provider.wire().supports().builtin_tools).then(|| {
                format!(
                    "they use Gemini's own googleSearch and urlContext tools, which --provider {} does not have",
                    self.ask.provider.name()
                )
            }),
            memory: None,
        }
    }
}
