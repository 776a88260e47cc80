//! gem-ask's long help after the flags (`--help` and the man page): exit
//! codes, environment, sessions, config and examples. Prose, kept apart from
//! the flags' definitions in `args.rs`.

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
    "  10   gem-ask map: at least one record failed after its retries (its line carries `error`); the others were answered\n",
    "  11   a budget stopped the run before the request that would pass it: --max-requests, --max-tokens or --max-cost (result error.type max_requests, max_tokens or max_cost)\n",
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
     (consent: trusted, allowed, yes, always, denied, no_terminal, carries_input, policy_allowed, \
     policy_denied; policy: the deciding rule's FILE:LINE). Policy rules (--policy FILE, the config dir's \
     policies/*.toml, and the config's [policy] as [[policy.rule]]) are gemini-cli's TOML [[rule]] tables (toolName, mcpName, commandPrefix, commandRegex, \
     argsPattern, decision allow / deny / ask_user, priority 0-999, interactive, modes, allowRedirection, \
     denyMessage; and gemline's own host = \"*.github.com\", every URL's host, and pathGlob = \"src/**\", a file tool's \
     path beneath the workspace): the highest priority wins, deny on a tie; ask_user asks even past --allow-tool and is \
     refused headless. A shell command is parsed (bash grammar) and allowed only when every command in it \
     is; substitutions, eval, bash -c, env/sudo/xargs, subshells and redirections outside the workspace \
     are asked about. A policy file with a mistake is exit 2 naming the file, line and key. Tools' processes (commands, MCP servers) \
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
     the model reads and a warning for you. Not declared with --provider openai (--list-tools says why). \
     Both send what the model chose to the web, so they ask (standard), showing what leaves: each URL whole \
     with its query decoded, and marked, the text it carries from what this run read (stdin, attached files, \
     tool results; runs of 6 or more letters and digits); so does an MCP tool given a URL. Headless they are \
     refused unless --allow-tool NAME or --yes allows them, and a call carrying such text is refused even \
     then (consent: carries_input). What comes back goes to the model marked as untrusted content.\n\n",
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
     to the session file; a failed or interrupted turn is not stored. `gem-ask log list`, `log search TEXT` \
     and `log show ID` find past sessions again (--since 7d, --tool, --model, --status, --cost-over; JSON \
     lines for viz-render, secrets [REDACTED]) through an SQLite index beside the session files \
     (log-index.sqlite3), rebuilt from them when missing, stale or damaged.\n\n",
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
