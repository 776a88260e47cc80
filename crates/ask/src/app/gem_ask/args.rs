//! gem-ask's command line (clap derive), kept in the library so tests and
//! the man page generator see the same definition as the binary. The flags,
//! once merged with the environment and the config ([`super::settings`]),
//! become the agent's [`Options`] ([`Args::into_options`]).

use std::collections::BTreeSet;
use std::path::PathBuf;

use clap::Parser;
use clap::parser::ValueSource;

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
const INFO: &str = "Information (print, then exit)";

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
    after_help = "Exit codes, environment, the config file, tools and consent, sessions, attachments, \
                  memory and examples: gem-ask --help, or man gem-ask.",
    after_long_help = HELP_TAIL,
    // A prompt may start with "help": no `help` subcommand.
    disable_help_subcommand = true,
)]
pub struct Args {
    /// The prompt; several words are joined with spaces.
    #[arg(value_name = "PROMPT")]
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

fn parse_param(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if is_variable_name(k) => Ok((k.to_string(), v.to_string())),
        _ => Err("KEY=VALUE, KEY made of letters, digits and _ (not starting with a digit)".into()),
    }
}

fn parse_temperature(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..=2.0).contains(&v) => Ok(v),
        _ => Err("a number from 0 to 2".into()),
    }
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 86_400.0 => Ok(v),
        _ => Err("a number of seconds above 0, at most 86400".into()),
    }
}

/// Exit codes, environment, sessions and examples: the man page's tail.
pub const HELP_TAIL: &str = concat!(
    "Exit codes:\n",
    "  0    success\n",
    "  1    other failure (in a chat turn the model kept calling tools past --max-tool-rounds, a session file could not be written, ...)\n",
    "  2    usage error (bad flags, no prompt, an unknown tool name, a malformed config file, an invalid --schema, an unknown --role, a template variable without a value)\n",
    "  3    no API key: set GEMINI_API_KEY or GOOGLE_API_KEY (or use --replay); an OpenAI-compatible server needs none\n",
    "  4    API error: a non-retryable status (400, 401, 403, a 404 not about the model), retries exhausted, connection failed, the stream ended early, an upload to the Files API failed, or a --replay file ran out\n",
    "  5    blocked by the safety filters (promptFeedback.blockReason, or finishReason SAFETY and the like)\n",
    "  6    task mode: --max-iterations iterations without task_complete (however many tool calls they made)\n",
    "  7    task mode: --task-timeout passed (also in the middle of a turn)\n",
    "  8    task mode: stopped for the user: the model asked for input (need_input), or --auto-continue off\n",
    "  9    the model is not served (retired, or no model of that name): the message names it, the replacement when the API names one, and --list-models\n",
    "  65   stdin is larger than 8 MiB; an attachment too large, or of a type the model does not take; --schema: the answer did not match the schema, also after one retry (the problems and the answer on stderr)\n",
    "  66   a --replay or --record file, an attachment, a --system-file or a --schema @FILE cannot be opened\n",
    "  130  interrupted by SIGINT (a second SIGINT kills a run stuck on a session lock or a full stdout)\n",
    "  143  terminated by SIGTERM\n\n",
    "The event stream always ends with one `result` event; its error.type is one of missing_api_key, api_error, \
     connection_error, stream_interrupted, replay_error, upload_error, attachment_error, blocked, model_not_found, max_tool_rounds, session_error, setup_error, \
     interrupted, schema_mismatch, and in task mode max_iterations, task_timeout, needs_input. A usage error (exit 2) is reported on stderr before any stream starts. With --output text \
     a failure is drawn as an error line instead of being repeated on stderr. A closed stdout (`| head`) ends \
     the run quietly with 0.\n\n",
    "Environment:\n",
    "  GEMINI_API_KEY, GOOGLE_API_KEY  the API key (first set wins), sent only in the x-goog-api-key header\n",
    "  GEMINI_BASE_URL, GOOGLE_GEMINI_BASE_URL  API base URL when --base-url is not given\n",
    "  GEMINI_MODEL        model when --model is not given\n",
    "  OPENAI_API_KEY      --provider openai: the key, sent as Authorization: Bearer (optional: local servers need none)\n",
    "  OPENAI_BASE_URL     --provider openai: the server's base URL, e.g. http://localhost:11434/v1 (Ollama)\n",
    "  OPENAI_MODEL        --provider openai: model when --model is not given\n",
    "  GEMINI_SESSION_ID   session to continue when --session is not given\n",
    "  XDG_DATA_HOME       sessions live in $XDG_DATA_HOME/gemline/sessions/ID.jsonl, memories in $XDG_DATA_HOME/gemline/memory.sqlite3\n",
    "  XDG_CONFIG_HOME     the config is $XDG_CONFIG_HOME/gemline/config.toml (defaults: provider, models, base URLs, colour, width, tools, MCP servers; see --print-config)\n",
    "  GEMLINE_TTY         the terminal consent questions go to (default /dev/tty)\n",
    "  GEMLINE_RETRY_BASE_MS  first backoff step in milliseconds (default 1000)\n\n",
    "Providers: --provider gemini (the default) talks to Gemini's API; --provider openai to any \
     OpenAI-compatible /chat/completions server (Ollama, llama.cpp's server, vLLM, Gemini's own \
     https://generativelanguage.googleapis.com/v1beta/openai), at OPENAI_BASE_URL with OPENAI_API_KEY when it \
     needs one. Tools, events, sessions and retries are the same through both.\n\n",
    "The config file holds defaults; flags and the environment win over it, and --print-config shows what a run \
     would use and where each value came from. A malformed file is an error naming its line and key. The \
     provider settings, e.g.:\n",
    "  provider = \"openai\"                        # as --provider\n",
    "  color = \"never\"                           # as --color\n",
    "  width = 100                                # as --width\n",
    "  [gemini]\n",
    "  model = \"gemini-3.1-pro-preview\"\n",
    "  [openai]\n",
    "  base_url = \"http://localhost:11434/v1\"\n",
    "  model = \"qwen2.5-coder:7b\"\n\n",
    "Tools and consent: every tool has a level: auto (runs without asking: charts, chapters, signal, read_file, \
     list_directory, search_files), standard (asks y / n / a, a meaning always for this conversation, until \
     /new or /load: write_file, run_shell_command, every MCP tool) or strict (asks y / n every time). The \
     question is asked on the terminal (/dev/tty), never on stdin or stdout; what was typed before it \
     appeared is discarded. It shows the whole request: hidden characters as marks (⟨CR⟩, ⟨U+200B⟩), runs of \
     spaces and blank lines counted (⟨6000 spaces⟩), a request taller than the terminal cut with what is \
     left, v to page through all of it ($PAGER, less -R or a built-in pager). With no terminal a tool that \
     needs consent is refused and the model is told, unless --allow-tool NAME or --yes allows it. The file and command tools work only \
     inside the working directory and --include-dir directories (symlinks and .. are followed before the \
     check, and the open itself cannot leave them); they open only regular files, never a FIFO or a device. \
     read_file sends an image (PNG, JPEG, WebP) or a PDF of up to 7 MiB to the model whole, as a part. \
     A shell command runs in a process group of its own: what it leaves in the background is killed when it \
     ends, and the group is killed at --tool-timeout, Ctrl-C or --task-timeout; an MCP call is cancelled on \
     the same events. A one-shot run declares the chart, chapter and signal tools and the configured MCP servers' tools; name \
     the others with --tools or the config's tools.enable. Each tool_result says how it was allowed \
     (consent: trusted, allowed, yes, always, denied, no_terminal). Tools' processes (commands, MCP servers) \
     get no API key and no variable whose name looks secret (*_KEY, *_TOKEN, *_SECRET, *PASSWORD*, ...) \
     unless the config's tools.pass_env names it; every key gem-ask knows is [REDACTED] in what a tool \
     returns (an image or PDF for the model is never altered: one whose bytes hold a key is withheld). The \
     config, e.g.:\n",
    "  [tools]\n",
    "  enable = [\"read_file\", \"search_files\"]     # declared in every run\n",
    "  allow = [\"write_file\"]                     # never asked\n",
    "  timeout = 60                               # as --tool-timeout\n",
    "  sandbox = \"auto\"                           # as --sandbox\n",
    "  allow_network = false                      # as --allow-network\n",
    "  pass_env = [\"GITHUB_TOKEN\"]               # tools keep it though it looks secret\n",
    "  [tools.levels]\n",
    "  run_shell_command = \"strict\"\n",
    "  [mcp.time]                                 # an MCP server over stdio\n",
    "  command = \"mcp-server-time\"\n",
    "  args = [\"--local-timezone\", \"UTC\"]\n",
    "  env = { TZ = \"UTC\" }\n",
    "  trust = true                               # its tools run without asking\n",
    "  exclude_tools = [\"convert_time\"]           # or include_tools = [...]: only those\n",
    "  [mcp.docs]                                 # an MCP server over HTTP\n",
    "  url = \"https://mcp.example.com/mcp\"        # Streamable HTTP, else HTTP+SSE; http_url: no fallback\n",
    "  headers = { Authorization = \"Bearer $DOCS_TOKEN\" }   # $NAME from the environment\n",
    "  connect_timeout = 10                       # seconds [default: --tool-timeout]\n",
    "  call_timeout = 60                          # seconds, when less than --tool-timeout\n\n",
    "Sandbox (Linux, Landlock): with --sandbox auto (the default) shell commands, and MCP servers with \
     --sandbox-mcp, may write only in the working directory, the --include-dir directories and a private \
     TMPDIR; may read everything else except the home directory's secret places (~/.ssh, ~/.gnupg, ~/.aws, \
     ~/.kube, ~/.docker, ~/.netrc, ~/.git-credentials, ...), gem-ask's config and data directories and the \
     devices other than /dev/null and the random ones; and may not connect or bind TCP ports unless \
     --allow-network. Where the kernel cannot enforce part of it, auto says so once; --sandbox strict \
     refuses to run the command instead; --sandbox off runs commands unconfined.\n\n",
    "MCP tools are named SERVER__TOOL; their servers' stderr is discarded unless --debug. A server that fails \
     to start (or to answer within --tool-timeout), or stops, is reported once as an error event and the run \
     goes on without it. Their schemas are sent as JSON Schema reduced to what the APIs take ($ref inlined, \
     other keywords dropped with a warning), descriptions cut at 2 KiB, and at most 128 tools go in a \
     request (a warning names those left out; choose with include_tools or exclude_tools). An answer over \
     16 MiB is a too_large error.\n\n",
    "An MCP server over HTTP (url, http_url; gemini-cli's httpUrl, includeTools and excludeTools are read \
     too) gets its headers with every request, their $NAME or ${NAME} from the environment; their values are \
     never shown (--print-config names them only). Redirects are followed on the same origin only; one to \
     another host is refused. A server that is down, answers with a web page, redirects elsewhere, asks for \
     OAuth (not supported: give a token in headers) or does not answer within connect_timeout is reported \
     once, naming it, and the run goes on without it.\n\n",
    "Task mode (-t TASK): the model works on the task on its own, in rounds (iterations): a short plan, tool \
     calls, a look at the results. A round is one turn of at most --max-tool-rounds rounds of tool calls; \
     one that reaches it ends there (the further calls are not run) and the task goes on, so --max-iterations \
     (exit 6) bounds every task. A round that ends without the model calling signal with kind task_complete \
     is followed by a \"Continue.\" message that restates the task. The file and command tools are declared, \
     and consent still applies: with no terminal, a tool that needs consent is refused unless --allow-tool or \
     --yes says otherwise. Each completed round is stored in the session as it ends, so a stopped task can be \
     resumed with --continue -t TASK. Progress signals show as signal events in the stream and, when stderr \
     is a terminal, as progress lines there. The result event's stats carry iterations.\n\n",
    "Answers as data (--schema, --schema-multi): the schema is sent as the answer's constraint \
     (responseJsonSchema; response_format to an OpenAI-compatible server), a list as {\"items\": [...]}, and the \
     answer is checked against it. Into a pipe stdout is the records alone, one JSON value a line (| jq, | viz-parse); \
     with --output jsonl each is a `record` event; on a terminal they are a table. An answer that does not match is \
     sent back once with the problems; a second miss is exit 65, the problems and the answer on stderr. Tools are \
     declared only when --tools names them.\n\n",
    "System prompts, roles and templates: --system and --system-file add to gem-ask's system prompt (its own \
     guidance stays); so do GEMLINE.md context files: the config directory's, then each from the repository root \
     (or home) down to the working directory (--no-context-files: none). --role NAME uses a [roles.NAME] table of \
     the config; flags win over it. $name in a template takes -p name=VALUE, else the role's defaults ($$ is $); \
     a role's system and prompt are templates, and with -p so are --system and the prompt ($input in a role's \
     prompt is what was typed). A role, e.g.:\n",
    "  [roles.reviewer]\n",
    "  system = \"You review $lang code: bugs first, then style.\"\n",
    "  prompt = \"Review this: $input\"\n",
    "  model = \"gemini-3.1-pro-preview\"\n",
    "  temperature = 0.2\n",
    "  tools = [\"read_file\"]\n",
    "  defaults = { lang = \"Python\" }\n\n",
    "Web: with Gemini the model can call web_search (a request of its own with Google Search) and web_fetch (one \
     with urlContext: Google's servers read the pages). Their sources are `source` events, drawn as numbered \
     citations under the answer; so are those of an answer the model grounded itself. A failed search is an error \
     the model reads and a warning for you. Not declared with --provider openai (--list-tools says why).\n\n",
    "History: each stored turn carries its tokens (from usageMetadata). When a session's history has passed \
     --max-history-tokens (the last request's prompt tokens plus its answer), the next turn first asks the model \
     for a summary of the oldest turns (one extra request, counted in the result's stats), so that the turns kept \
     fit in half the limit; the last turn is always kept. The summary replaces them in every later request, in \
     every mode; the session file keeps the original turns, marked as covered by the summary record. A summary \
     that fails is a warning event and the history is sent whole.\n\n",
    "Attachments: -a FILE (repeatable), -a - (stdin) and -a https://URL send files with the prompt; binary \
     data piped on stdin is attached too. The type is read from the bytes (PNG, JPEG, WebP, HEIC, PDF, WAV, MP3, \
     FLAC, OGG, AAC, AIFF, MP4, MOV, WebM, text; GIF for the openai provider). Up to 19 MB of base64 goes inline \
     in a request, streamed from the file; larger files (to 2 GiB) are uploaded once through the Files API (a \
     progress bar on stderr when it is a terminal) and referred to by URI. The session keeps a reference (name, \
     type, size, SHA-256, file URI), not the bytes: a follow-up turn sends the files again by URI while the upload \
     lives, else from a private copy in $XDG_DATA_HOME/gemline/attachments. The openai provider sends images as \
     image_url data URLs and text files as text, and nothing else. Exit 66: a file cannot be read; 65: too large \
     or a type the model does not take; 4: an upload failed (the prompt is not sent).\n\n",
    "Images and speech: --modalities text,image asks an image model for pictures, --voice NAME a TTS model for \
     speech (responseModalities, speechConfig; such requests declare no tools, and speech gets no system \
     prompt). Each image or sound is written to --output-dir as gem-ask-image-N.EXT or gem-ask-audio-N.wav (raw \
     PCM given its WAV header), never overwriting, and announced by a media event (path, mime_type, size, \
     width and height or duration_ms). On a terminal that shows images (--graphics: kitty, iTerm2, sixel) the \
     image is drawn inline, else one line names the file. Images and PDFs an MCP tool returns reach the model \
     as parts of its function response and are shown the same way.\n\n",
    "Sessions: every run has a session id, shown in the `init` event. Without --session, GEMINI_SESSION_ID or \
     --continue a run starts a new session; a follow-up is `gem-ask --continue \"...\"` or \
     `gem-ask --session ID \"...\"`. Each completed turn (prompt, tool calls and results, answer) is appended \
     to the session file; a failed or interrupted turn is not stored.\n\n",
    "Interactive mode (-i): questions at a prompt (line editing, Tab completes slash commands, Up recalls \
     earlier lines; the input history is $XDG_DATA_HOME/gemline/repl_history, not kept with --no-history or \
     for a line typed with a leading space), one conversation across turns, answers and charts drawn inline. \
     The prompt, the status line (mode, model, chapter, who has the turn) and what slash commands print go to \
     the terminal, never to stdout: into a pipe, stdout carries only the event stream, each turn ending with \
     its own `result`. Slash commands: /help, /quit, /new, /history, /clear, /save NAME, /load NAME, \
     /model NAME, /tools, /interrupt, /attach FILE, /memory ... (// starts a prompt with a slash). After an answer that does not ask for \
     input (the signal tool's need_input) the model continues on its own with \"Continue.\", up to \
     --max-consecutive-turns in a row; a line typed meanwhile, or Ctrl-C, stops that. Ctrl-C stops the \
     answer being written (the turn ends as interrupted and is not stored) and the session goes on; Ctrl-D \
     or /quit leaves with 0; SIGTERM ends it with 143. With a terminal, piped stdin goes with the first \
     question; with no terminal at all, the questions are read from stdin. With -t TASK as well (mode \
     chat+task) the model first outlines a plan and waits; each line typed then guides the next round, and \
     between them the model goes on by itself until it signals task_complete or need_input, or \
     --max-iterations or --task-timeout stops the task; then the session goes on as a chat, and /quit still \
     leaves with 0.\n\n",
    "Memory (--memory, or memory.enabled in the config): a long-term memory kept across sessions in \
     $XDG_DATA_HOME/gemline/memory.sqlite3 (SQLite, mode 0600). The model gets the remember, recall, forget and \
     relate tools (remember, forget and relate are standard tools: they ask first), and every write is a memory \
     event in the stream. Before each question, the memories that best match it (keywords by BM25 and meaning by \
     embedding vectors, fused by reciprocal rank, the more recent first on a tie; at most 8) go into the request \
     within --memory-budget tokens, condensed by the model when they do not fit; a memory event (recalled), \
     --verbose on stderr and the REPL's status line say which. Embeddings come from memory.embedding_model \
     (Gemini's batchEmbedContents, or an OpenAI-compatible /embeddings with memory.embedding_provider = \"openai\" \
     and memory.embedding_base_url; E5 models get query: and passage: prefixes); without it, keywords only. A \
     damaged, locked or full store, or a failed embedding, is a warning and the turn goes on. From the shell: \
     gem-ask memory add|search|list|show|forget|relate|unrelate|graph|path|export|import|reindex prints JSON \
     lines (gem-ask memory --help); in -i, /memory. The memory config, e.g.:\n",
    "  [memory]\n",
    "  enabled = true                             # as --memory\n",
    "  budget = 1000                              # as --memory-budget\n",
    "  embedding_model = \"gemini-embedding-001\"\n\n",
    "Examples:\n",
    "  gem-ask \"Fastest 3 BMW models, compare 0-60 in a chart\" | viz-render\n",
    "  gem-ask --continue \"BMW models per year for the last 5 years\" | viz-render\n",
    "  gem-ask --replay testdata/demo/bmw.replay \"Fastest 3 BMW models, compare 0-60 in a chart\" | viz-render\n",
    "  gem-ask -c \"find files over 100 MB\"\n",
    "  gem-ask --tools read_file,search_files \"where is the config file parsed?\"\n",
    "  gem-ask --mcp mcp-server-time --list-tools\n",
    "  gem-ask -t \"make the tests in tests/ pass\" --tools read_file,search_files,write_file --max-iterations 20\n",
    "  OPENAI_BASE_URL=http://localhost:11434/v1 gem-ask --provider openai -m qwen2.5-coder:7b \"hello\"\n",
    "  gem-ask -a invoice.pdf \"what is the total?\"\n",
    "  gem-ask -m gemini-3.1-flash-tts-preview --voice Kore \"Say cheerfully: have a wonderful day!\"\n",
    "  gem-ask --print-config\n",
    "  gem-ask --schema-multi 'model, zero_to_sixty float: seconds' \"fastest 5 BMWs\" | viz-parse --chart bar | viz-render\n",
    "  gem-ask --role reviewer -p lang=Rust < src/main.rs\n",
    "  gem-ask --list-models\n",
    "  git diff | gem-ask --count-tokens \"review this\"\n",
    "  gem-ask --memory \"remember that I deploy from build-7\"\n",
    "  gem-ask memory search --tag infra \"deploy host\"\n",
    "  gem-ask -i --continue",
);

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
