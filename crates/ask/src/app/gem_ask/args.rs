//! gem-ask's command line (clap derive), kept in the library so tests and
//! the man page generator see the same definition as the binary. The flags,
//! once merged with the environment and the config ([`super::settings`]),
//! become the agent's [`Options`] ([`Args::into_options`]).

use std::collections::BTreeSet;
use std::path::PathBuf;

use clap::Parser;
use clap::parser::ValueSource;

pub use super::help_tail::HELP_TAIL;
use crate::agent::toolbox::config::ToolsFile;
use crate::agent::toolbox::sandbox::SandboxMode;
use crate::agent::{Options, OutputMode};
use crate::provider::ProviderKind;
use crate::term::ColorChoice;
use crate::term::Toggle;

/// The headings of `--help`, by concern: what to ask, the conversation,
/// the tools, the output, the connection to the server, and what is
/// printed instead of an answer.
const ASK: &str = "What to ask";
const CONVERSATION: &str = "Conversation";
const TOOLS: &str = "Tools";
const OUTPUT: &str = "Output";
const CONNECTION: &str = "Connection";
const INFO: &str = "Print, then exit";

/// Ask Gemini from the shell; answers, tool calls and charts as a stream.
#[derive(Debug, Clone, Parser)]
#[command(
    name = "gem-ask",
    version,
    about = "Ask Gemini from the shell; answers, tool calls and charts as an event stream",
    long_about = "Ask Gemini from the shell. The answer streams as it is generated. The model can draw charts \
                  (render_visualization), draw layered charts of the plot grammar (plot) and open chapters \
                  (create_new_topic); with --tools it can also read, search and write files and run commands, \
                  and --mcp or the config add any MCP server's tools. Into a pipe, or with --output \
                  jsonl, gem-ask writes the JSON-lines event stream that viz-render draws and topic-tag \
                  organizes; on a terminal it prints the answer.\n\n\
                  Text piped on stdin is sent as context before the prompt: \
                  cat results.csv | gem-ask \"chart the slowest 5\". At most 8 MiB of it: more is refused \
                  (exit 65) rather than cut, since a model answering about half a file does not say so; \
                  trim it first (tail -c 8M). Binary data piped on stdin (an image, a PDF, ...) is attached \
                  instead, as -a attaches files: cat scan.png | gem-ask \"what is this\". A model that answers \
                  with images (--modalities text,image) or speech (--voice) has them written to files \
                  (--output-dir) and announced by media events.",
    after_help = "Exit codes, environment, config, consent, sessions, examples: gem-ask --help, man gem-ask.",
    after_long_help = HELP_TAIL,
    // A prompt may start with "help": no `help` subcommand.
    disable_help_subcommand = true,
    // -h and -V under "Print, then exit" (the fields `help` and `version`)
    // rather than under a heading of their own.
    disable_help_flag = true,
    disable_version_flag = true,
)]
pub struct Args {
    /// The prompt; several words are joined with spaces.
    #[arg(value_name = "PROMPT", hide_short_help = true)]
    pub prompt: Vec<String>,

    /// Who answers: Gemini's API, or any OpenAI-compatible server (Ollama, llama.cpp, vLLM, Gemini's /v1beta/openai/) [default: the config's provider, else gemini].
    #[arg(help_heading = ASK, long, value_enum, default_value_t = ProviderKind::Gemini, hide_default_value = true)]
    pub provider: ProviderKind,

    /// Model name [default: GEMINI_MODEL or OPENAI_MODEL, else the config's, else gemini-3.5-flash for gemini]. A model the API no longer serves is exit 9, naming the replacement when the API does; --list-models lists those a key can use.
    #[arg(help_heading = ASK, short, long, default_value = crate::provider::DEFAULT_MODEL, hide_default_value = true)]
    pub model: String,

    /// API base URL [default: GEMINI_BASE_URL, GOOGLE_GEMINI_BASE_URL or OPENAI_BASE_URL, else the config's, else https://generativelanguage.googleapis.com or https://api.openai.com/v1].
    #[arg(help_heading = ASK, long, value_name = "URL")]
    pub base_url: Option<String>,

    /// Print help (see more with '--help').
    #[arg(help_heading = INFO, short = 'h', long, action = clap::ArgAction::Help, global = true,
          long_help = "Print help: -h a line a flag, --help the whole text")]
    help: Option<bool>,

    /// Print version.
    #[arg(help_heading = INFO, short = 'V', long, action = clap::ArgAction::Version)]
    version: Option<bool>,

    /// Print the settings merged from flags, environment, config file and defaults, each with its source (keys redacted), then exit.
    #[arg(help_heading = INFO, long)]
    pub print_config: bool,

    /// Output format.
    #[arg(help_heading = OUTPUT, long, value_enum, default_value_t = OutputMode::Auto)]
    pub output: OutputMode,

    /// Continue this session [default: GEMINI_SESSION_ID].
    #[arg(help_heading = CONVERSATION, long, value_name = "ID")]
    pub session: Option<String>,

    /// Continue the most recently used session.
    #[arg(help_heading = CONVERSATION, long = "continue", conflicts_with = "session")]
    pub continue_last: bool,

    /// Start a new session, ignoring GEMINI_SESSION_ID.
    #[arg(help_heading = CONVERSATION, long, conflicts_with_all = ["session", "continue_last"])]
    pub new_chat: bool,

    /// Store nothing: the turn is not written to the session file.
    #[arg(help_heading = CONVERSATION, long)]
    pub no_history: bool,

    /// Do not read stdin, even when it is not a terminal.
    #[arg(help_heading = ASK, long)]
    pub no_stdin: bool,

    /// Ask for a shell command for the prompt and print it alone, also into a pipe (the event stream only with --output jsonl).
    #[arg(help_heading = ASK, short = 'c', long)]
    pub command_help: bool,

    /// Show the model's thought summaries (`thought` events).
    #[arg(help_heading = OUTPUT, long)]
    pub thoughts: bool,

    /// How much the model thinks before it answers: thinkingLevel on Gemini 3 and later, the nearest thinkingBudget on Gemini 2.5, reasoning_effort on an OpenAI-compatible server; what a model cannot take (off on a model that always thinks) is said once and the nearest it takes is sent [default: the role's, else the config's thinking, else the model's own].
    #[arg(help_heading = ASK, long, value_enum, value_name = "LEVEL")]
    pub thinking: Option<crate::provider::Thinking>,

    /// Declare no tools.
    #[arg(help_heading = TOOLS, long, conflicts_with_all = ["tools", "exclude_tools"])]
    pub no_tools: bool,

    /// Declare only these tools (see --list-tools; the file and command tools are declared only when named here or in the config).
    #[arg(help_heading = TOOLS, long, value_delimiter = ',', value_name = "NAMES")]
    pub tools: Vec<String>,

    /// Do not declare these tools.
    #[arg(help_heading = TOOLS, long, value_delimiter = ',', value_name = "NAMES")]
    pub exclude_tools: Vec<String>,

    /// Run this tool without asking for consent (repeatable).
    #[arg(help_heading = TOOLS, long, value_name = "NAME")]
    pub allow_tool: Vec<String>,

    /// Run every tool without asking for consent.
    #[arg(help_heading = TOOLS, long)]
    pub yes: bool,

    /// Stop before the request that would pass N requests in this run (exit 11, result error max_requests) [default: the config's budget.max_requests].
    #[arg(help_heading = TOOLS, long, value_name = "N")]
    pub max_requests: Option<u64>,

    /// Stop before the request that would pass N tokens in this run, as the API counts them (exit 11,
    /// result error max_tokens) [default: the config's budget.max_tokens].
    #[arg(help_heading = TOOLS, long, value_name = "N")]
    pub max_tokens: Option<u64>,

    /// Stop before the request that would pass USD dollars in this run, at the model's price (the dated
    /// table, or the config's [prices.MODEL]; a model with no price is exit 2) (exit 11, result error
    /// max_cost) [default: the config's budget.max_cost].
    #[arg(help_heading = TOOLS, long, value_name = "USD", value_parser = dollars)]
    pub max_cost: Option<f64>,

    /// Policy rules in gemini-cli's TOML form (repeatable), besides the config dir's policies/*.toml.
    #[arg(help_heading = TOOLS, long, value_name = "FILE")]
    pub policy: Vec<PathBuf>,

    /// Seconds one tool call may take [default: the config's tools.timeout, else 30].
    #[arg(help_heading = TOOLS, long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub tool_timeout: Option<f64>,

    /// Let the file and command tools use this directory too (repeatable).
    #[arg(help_heading = TOOLS, long, value_name = "DIR")]
    pub include_dir: Vec<PathBuf>,

    /// Start this MCP server over stdio: 'CMD ARGS' or 'NAME=CMD ARGS'; or reach one over HTTP: 'URL' or
    /// 'NAME=URL' (Streamable HTTP, else HTTP+SSE) (repeatable).
    #[arg(help_heading = TOOLS, long, value_name = "COMMAND")]
    pub mcp: Vec<String>,

    /// Run shell commands in a sandbox (Landlock, Linux): writes only in the working directory, the --include-dir
    /// directories and a private TMPDIR; no reading of ~/.ssh, ~/.gnupg, ~/.aws and the like; no TCP unless
    /// --allow-network. auto: where the kernel supports it, said once where it does not; strict: refuse to run
    /// commands without it [default: the config's tools.sandbox, else auto].
    #[arg(help_heading = TOOLS, long, value_enum, value_name = "MODE")]
    pub sandbox: Option<SandboxMode>,

    /// Let sandboxed commands (and MCP servers) connect and bind TCP ports.
    #[arg(help_heading = TOOLS, long)]
    pub allow_network: bool,

    /// Run the MCP servers in the sandbox too.
    #[arg(help_heading = TOOLS, long)]
    pub sandbox_mcp: bool,

    /// Print every tool with its source, consent level and whether it is declared, then exit.
    #[arg(help_heading = INFO, long)]
    pub list_tools: bool,

    /// Most rounds of tool calls in one turn. A chat turn that needs more fails (exit 1); in task mode it
    /// ends that iteration (the further calls are not run) and the task goes on with the next.
    #[arg(help_heading = TOOLS, long, default_value_t = 10, value_name = "N")]
    pub max_tool_rounds: u32,

    /// Task mode: work towards TASK on its own, in iterations of plan, tool calls (at most --max-tool-rounds
    /// rounds each) and observation, until the model signals task_complete (exit 0), --max-iterations
    /// (exit 6) or --task-timeout (exit 7). The file and command tools are declared (consent still applies);
    /// stdin is context.
    #[arg(help_heading = CONVERSATION, short = 't', long, value_name = "TASK", conflicts_with_all = ["prompt", "command_help", "list_tools"])]
    pub task: Option<String>,

    /// Task mode: most iterations before the task stops unfinished (exit 6). An iteration is one turn of the
    /// model: its plan, at most --max-tool-rounds rounds of tool calls, and what it makes of them; a model
    /// that never stops calling tools ends here too.
    #[arg(help_heading = CONVERSATION, long, default_value_t = 10, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_iterations: u32,

    /// Task mode: most seconds the whole task may take, requests and tools included (exit 7) [default: no limit].
    #[arg(help_heading = CONVERSATION, long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub task_timeout: Option<f64>,

    /// After a turn that did not complete the task (-t) or ask for input (-i), go on with a "Continue."
    /// turn; off: task mode stops after each such turn (exit 8), to be resumed with --continue, and -i
    /// waits for you.
    #[arg(help_heading = CONVERSATION, long, value_enum, default_value_t = Toggle::On, value_name = "WHEN")]
    pub auto_continue: Toggle,

    /// Whether the model reports progress (signal kind progress: a signal event, and a progress line on
    /// stderr when it is a terminal).
    #[arg(help_heading = CONVERSATION, long, value_enum, default_value_t = Toggle::On, value_name = "WHEN")]
    pub progress_reporting: Toggle,

    /// When the session's history passes this many tokens (from usageMetadata), the oldest turns are
    /// summarized by the model into one (0: never).
    #[arg(help_heading = CONVERSATION, long, default_value_t = 100_000, value_name = "TOKENS")]
    pub max_history_tokens: u64,

    /// Retries after a 429, 500, 502, 503, 504 or connection failure.
    #[arg(help_heading = CONNECTION, long, default_value_t = 5, value_name = "N")]
    pub retries: u32,

    /// Most seconds spent waiting between retries of one request.
    #[arg(help_heading = CONNECTION, long, default_value_t = 120, value_name = "SECONDS")]
    pub max_wait: u64,

    /// Seconds to establish a connection.
    #[arg(help_heading = CONNECTION, long, default_value_t = 30, value_name = "SECONDS")]
    pub connect_timeout: u64,

    /// Seconds of silence allowed while reading (no limit on a stream's total time).
    #[arg(help_heading = CONNECTION, long, default_value_t = 300, value_name = "SECONDS")]
    pub read_timeout: u64,

    /// Save every raw API exchange to FILE (JSON lines; the key is never written).
    #[arg(help_heading = CONNECTION, long, value_name = "FILE")]
    pub record: Option<PathBuf>,

    /// Answer from a --record FILE instead of the network (no key needed); an answer recorded for a
    /// different prompt, model or tool set comes with a warning event.
    #[arg(help_heading = CONNECTION, long, value_name = "FILE", conflicts_with = "record")]
    pub replay: Option<PathBuf>,

    /// Describe each request on stderr (the key is shown as [REDACTED]).
    #[arg(help_heading = CONNECTION, long)]
    pub debug: bool,

    /// Text output only: when to colour [default: auto, which needs a terminal, no NO_COLOR and TERM not dumb].
    #[arg(help_heading = OUTPUT, long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,

    /// Text output only: width in columns [default: COLUMNS, else the terminal, else 80].
    #[arg(help_heading = OUTPUT, long, value_name = "COLS", value_parser = clap::value_parser!(u16).range(1..))]
    pub width: Option<u16>,

    /// Text output only: draw with ASCII characters only.
    #[arg(help_heading = OUTPUT, long, conflicts_with = "unicode")]
    pub ascii: bool,

    /// Draw with Unicode.
    ///
    /// Text output only: draw with Unicode even when the locale or TERM says otherwise.
    #[arg(help_heading = OUTPUT, long)]
    pub unicode: bool,

    /// Text output only: one line per tool call and tool result.
    #[arg(help_heading = OUTPUT, long)]
    pub show_tools: bool,

    /// The answer as data: one record matching SCHEMA, a JSON Schema (inline, or @FILE) or the concise form
    /// 'model, secs float: 0-60 mph, year int' (types str, int, float, bool; a description after ':').
    /// Into a pipe it is a plain JSON line; with --output jsonl a `record` event; on a terminal a table.
    /// Tools are declared only when --tools names them. An answer that does not match is sent back once
    /// with the problems, then refused (exit 65).
    #[arg(help_heading = ASK, long, value_name = "SCHEMA", conflicts_with_all = ["schema_multi", "command_help", "task", "interactive"])]
    pub schema: Option<String>,

    /// As --schema, for a list of records (asked for as {"items": [...]}): one JSON line or `record` event
    /// each, so `gem-ask --schema-multi 'model, secs float' "fastest 5 BMWs" | viz-parse | viz-render` charts them.
    #[arg(help_heading = ASK, long, value_name = "SCHEMA", conflicts_with_all = ["command_help", "task", "interactive"])]
    pub schema_multi: Option<String>,

    /// Add TEXT to the system prompt (gem-ask's own guidance for charts and chapters stays).
    #[arg(help_heading = ASK, long, value_name = "TEXT")]
    pub system: Option<String>,

    /// As --system, the text read from FILE.
    #[arg(help_heading = ASK, long, value_name = "FILE")]
    pub system_file: Option<PathBuf>,

    /// Use the config's [roles.NAME]: its system prompt and prompt template, model, temperature and tools
    /// (flags win).
    #[arg(help_heading = ASK, long, value_name = "NAME")]
    pub role: Option<String>,

    /// Fill $KEY in the templates: a role's system and prompt, and, once -p is given, --system and the
    /// prompt itself ($$ is a $) (repeatable).
    #[arg(help_heading = ASK, short = 'p', long = "param", value_name = "KEY=VALUE", value_parser = parse_param)]
    pub params: Vec<(String, String)>,

    /// Sampling temperature, 0 to 2 [default: the role's, else the model's own].
    #[arg(help_heading = ASK, long, value_name = "T", value_parser = parse_temperature)]
    pub temperature: Option<f64>,

    /// Read no GEMLINE.md context files (they are read from the config directory, and from the working
    /// directory and its parents up to the repository root or home).
    #[arg(help_heading = ASK, long)]
    pub no_context_files: bool,

    /// Print the models the provider offers (Gemini's models list, an OpenAI-compatible /models), with
    /// their context sizes where given, then exit. Into a pipe: one JSON object a line.
    #[arg(help_heading = INFO, long, conflicts_with_all = ["task", "interactive", "list_tools", "count_tokens"])]
    pub list_models: bool,

    /// Print how many tokens the request would take (countTokens: the session's history, stdin, the prompt,
    /// the system prompt and tools), then exit without asking. Gemini only. Into a pipe: a JSON object.
    /// Before `map`: each record's request counted (a line of its fields and `tokens`), the total
    /// and its input cost on stderr.
    #[arg(help_heading = INFO, long, conflicts_with_all = ["task", "interactive", "list_tools"])]
    pub count_tokens: bool,

    /// Ask at a prompt, one conversation across turns.
    ///
    /// Interactive session: a prompt with line editing and input history, the conversation carried
    /// across turns, answers and charts drawn inline, slash commands (/help lists them). Stdin, when
    /// piped, is context for the first question.
    #[arg(help_heading = CONVERSATION, short = 'i', long, conflicts_with_all = ["command_help", "list_tools"])]
    pub interactive: bool,

    /// With -i: most turns in a row the model takes on its own.
    ///
    /// With -i: most turns the model takes on its own in a row before it waits for you.
    #[arg(help_heading = CONVERSATION, long, default_value_t = 5, value_name = "N")]
    pub max_consecutive_turns: u32,

    #[command(flatten, next_help_heading = OUTPUT)]
    pub text: crate::app::viz_render::args::MarkdownArgs,

    #[command(flatten, next_help_heading = ASK)]
    pub media: super::media::MediaArgs,

    #[command(flatten, next_help_heading = CONVERSATION)]
    pub mem: super::memory::MemoryFlags,

    /// Say on stderr which memories each turn used, and each turn's input tokens with the share the API served from its cache.
    #[arg(help_heading = OUTPUT, long)]
    pub verbose: bool,

    #[command(subcommand)]
    pub command: Option<super::memory::Sub>,

    /// Which of the flags above were typed, so the config fills only the
    /// others (set by the binary from clap's matches).
    #[arg(skip)]
    pub given: Given,
}

/// The flags given on the command line (clap argument ids), as opposed to
/// defaults and clap's own environment fallbacks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Given(BTreeSet<String>);

impl Given {
    pub fn from_matches(m: &clap::ArgMatches) -> Given {
        Given(
            m.ids()
                .filter(|id| m.value_source(id.as_str()) == Some(ValueSource::CommandLine))
                .map(|id| id.as_str().to_string())
                .collect(),
        )
    }

    /// As if these flags (argument ids) had been typed.
    pub fn of(ids: &[&str]) -> Given {
        Given(ids.iter().map(|s| s.to_string()).collect())
    }

    pub fn has(&self, id: &str) -> bool {
        self.0.contains(id)
    }
}

impl Args {
    /// The agent's options: these flags, already merged with the
    /// environment and the config file, and the config's tool tables.
    pub fn into_options(self, tools_file: ToolsFile) -> Options {
        Options {
            prompt: self.prompt,
            ask: crate::agent::options::Ask {
                provider: self.provider,
                model: self.model,
                thinking: self.thinking,
                temperature: self.temperature,
                // Resolved by the front (`super::prompting`).
                system: String::new(),
            },
            connection: crate::agent::options::Connection {
                base_url: self.base_url,
                retries: self.retries,
                max_wait: self.max_wait,
                connect_timeout: self.connect_timeout,
                read_timeout: self.read_timeout,
                record: self.record,
                replay: self.replay,
                // The environment's, set by the front (`super::run`).
                retry_base: std::time::Duration::from_secs(1),
            },
            output: crate::agent::options::Output {
                mode: self.output,
                color: self.color,
                width: self.width,
                ascii: self.ascii,
                unicode: self.unicode,
                show_tools: self.show_tools,
                thoughts: self.thoughts,
                text: self.text.options(),
            },
            conversation: crate::agent::options::Conversation {
                session: self.session,
                continue_last: self.continue_last,
                new_chat: self.new_chat,
                no_history: self.no_history,
                session_from_env: None,
            },
            no_stdin: self.no_stdin,
            command_help: self.command_help,
            tools: crate::agent::options::Tools {
                no_tools: self.no_tools,
                only: self.tools,
                exclude: self.exclude_tools,
                allow: self.allow_tool,
                yes: self.yes,
                timeout: self.tool_timeout,
                include_dir: self.include_dir,
                mcp: self.mcp,
                sandbox: self.sandbox,
                allow_network: self.allow_network,
                sandbox_mcp: self.sandbox_mcp,
                config_dir: None,
                list: self.list_tools,
                max_rounds: self.max_tool_rounds,
                file: tools_file,
                // Read by the front (`super::policy`).
                policy: Vec::new(),
            },
            task: self.task,
            max_iterations: self.max_iterations,
            task_timeout: self.task_timeout,
            auto_continue: self.auto_continue == Toggle::On,
            progress_reporting: self.progress_reporting == Toggle::On,
            max_history_tokens: self.max_history_tokens,
            debug: self.debug,
            interactive: self.interactive,
            max_consecutive_turns: self.max_consecutive_turns,
            media: self.media.options(),
            schema: None,
            list_models: self.list_models,
            count_tokens: self.count_tokens,
            memory: None,
            verbose: self.verbose,
            budget: crate::agent::budget::Budget {
                max_requests: self.max_requests,
                max_tokens: self.max_tokens,
                max_cost: self.max_cost,
                ..Default::default()
            },
        }
    }
}

/// A name `-p` can set (and a template can use).
pub fn is_variable_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

// String errors: clap's value parsers print the message as it is.
fn parse_param(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if is_variable_name(k) => Ok((k.to_string(), v.to_string())),
        _ => Err("KEY=VALUE, KEY made of letters, digits and _ (not starting with a digit)".into()),
    }
}

// String error: clap prints it as the message.
fn parse_temperature(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..=2.0).contains(&v) => Ok(v),
        _ => Err("a number from 0 to 2".into()),
    }
}

// String error: clap prints it as the message.
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 86_400.0 => Ok(v),
        _ => Err("a number of seconds above 0, at most 86400".into()),
    }
}

/// `--max-cost`: an amount of US dollars, not negative.
fn dollars(s: &str) -> Result<f64, String> {
    match s.trim().trim_start_matches('$').parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("{s:?} is not an amount of dollars (such as 0.50)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_man_page_carries_exit_codes_and_environment() {
        Args::command().debug_assert();
        let mut page = Vec::new();
        clap_mangen::Man::new(Args::command())
            .render(&mut page)
            .unwrap();
        let page = String::from_utf8(page).unwrap();
        for needle in [
            "130",
            "GEMINI_API_KEY",
            "GEMINI_SESSION_ID",
            "\\-\\-max\\-tool\\-rounds",
        ] {
            assert!(page.contains(needle), "{needle}");
        }
    }
}
