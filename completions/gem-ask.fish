complete -c gem-ask -l provider -d 'Who answers: Gemini\'s API, or any OpenAI-compatible server (Ollama, llama.cpp, vLLM, Gemini\'s /v1beta/openai/) [default: the config\'s provider, else gemini]' -r -f -a "gemini\t'Google\'s Gemini API (generativelanguage.googleapis.com)'
openai\t'Any OpenAI-compatible /chat/completions server'"
complete -c gem-ask -s m -l model -d 'Model name [default: GEMINI_MODEL or OPENAI_MODEL, else the config\'s, else gemini-2.5-flash for gemini]' -r
complete -c gem-ask -l base-url -d 'API base URL [default: GEMINI_BASE_URL, GOOGLE_GEMINI_BASE_URL or OPENAI_BASE_URL, else the config\'s, else https://generativelanguage.googleapis.com or https://api.openai.com/v1]' -r
complete -c gem-ask -l output -d 'Output format' -r -f -a "auto\t'Text on a terminal, the event stream into a pipe or file'
text\t'Drawn for a person'
jsonl\t'JSON lines (docs/events.md)'"
complete -c gem-ask -l session -d 'Continue this session [default: GEMINI_SESSION_ID]' -r
complete -c gem-ask -l tools -d 'Declare only these tools (see --list-tools; the file and command tools are declared only when named here or in the config)' -r
complete -c gem-ask -l exclude-tools -d 'Do not declare these tools' -r
complete -c gem-ask -l allow-tool -d 'Run this tool without asking for consent (repeatable)' -r
complete -c gem-ask -l tool-timeout -d 'Seconds one tool call may take [default: the config\'s tools.timeout, else 30]' -r
complete -c gem-ask -l include-dir -d 'Let the file and command tools use this directory too (repeatable)' -r -F
complete -c gem-ask -l mcp -d 'Start this MCP server over stdio: \'CMD ARGS\' or \'NAME=CMD ARGS\' (repeatable)' -r
complete -c gem-ask -l max-tool-rounds -d 'Most rounds of tool calls in one turn' -r
complete -c gem-ask -s t -l task -d 'Task mode: work towards TASK on its own, in rounds of plan, tool calls and observation, until the model signals task_complete (exit 0), --max-iterations (exit 6) or --task-timeout (exit 7). The file and command tools are declared (consent still applies); stdin is context' -r
complete -c gem-ask -l max-iterations -d 'Task mode: most turns (iterations) before the task stops unfinished (exit 6)' -r
complete -c gem-ask -l task-timeout -d 'Task mode: most seconds the whole task may take, requests and tools included (exit 7) [default: no limit]' -r
complete -c gem-ask -l auto-continue -d 'After a turn that did not complete the task (-t) or ask for input (-i), go on with a "Continue." turn; off: task mode stops after each such turn (exit 8), to be resumed with --continue, and -i waits for you' -r -f -a "on\t''
off\t''"
complete -c gem-ask -l progress-reporting -d 'Whether the model reports progress (signal kind progress: a signal event, and a progress line on stderr when it is a terminal)' -r -f -a "on\t''
off\t''"
complete -c gem-ask -l max-history-tokens -d 'When the session\'s history passes this many tokens (from usageMetadata), the oldest turns are summarized by the model into one (0: never)' -r
complete -c gem-ask -l retries -d 'Retries after a 429, 500, 502, 503, 504 or connection failure' -r
complete -c gem-ask -l max-wait -d 'Most seconds spent waiting between retries of one request' -r
complete -c gem-ask -l connect-timeout -d 'Seconds to establish a connection' -r
complete -c gem-ask -l read-timeout -d 'Seconds of silence allowed while reading (no limit on a stream\'s total time)' -r
complete -c gem-ask -l record -d 'Save every raw API exchange to FILE (JSON lines; the key is never written)' -r -F
complete -c gem-ask -l replay -d 'Answer from a --record FILE instead of the network (no key needed); an answer recorded for a different prompt, model or tool set comes with a warning event' -r -F
complete -c gem-ask -l color -d 'Text output only: when to colour [default: auto, which needs a terminal, no NO_COLOR and TERM not dumb]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c gem-ask -l width -d 'Text output only: width in columns [default: COLUMNS, else the terminal, else 80]' -r
complete -c gem-ask -l max-consecutive-turns -d 'With -i: most turns the model takes on its own in a row before it waits for you' -r
complete -c gem-ask -l markdown -d 'Draw assistant text as Markdown (headings, lists, code with syntax highlighting, tables fitted to the width, the HTML models write: <br>, <b>, <i>, <code>, <sub>, <sup>, <kbd>, <details>; other HTML as written) as it streams, and shown thoughts as dim Markdown; off: the text as it comes, word-wrapped. Each block is parsed whole: on a terminal the block being written is drawn at once and redrawn in place as it grows; in a pipe or a file each block is written once, complete. With colour off, marks are written out (*strong*, _emphasis_, `code`) and headings underlined. Code is highlighted up to 16 KiB of it per answer (some 400 lines); code past that is drawn in the plain code style, so an answer that is mostly code still draws at once' -r -f -a "on\t''
off\t''"
complete -c gem-ask -l hyperlinks -d 'Links as OSC 8 hyperlinks (auto: when colour is on and the terminal is known to support them: iTerm2, WezTerm, kitty, foot, VTE, Windows Terminal, VS Code, Ghostty)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c gem-ask -l generate -d 'Print this program\'s completions for a shell (completions bash|zsh|fish|powershell) or its man page (man), then exit' -r -f -a "completions\t''
man\t''
bash\t''
zsh\t''
fish\t''
powershell\t''"
complete -c gem-ask -l print-config -d 'Print the settings merged from flags, environment, config file and defaults, each with its source (keys redacted), then exit'
complete -c gem-ask -l continue -d 'Continue the most recently used session'
complete -c gem-ask -l new-chat -d 'Start a new session, ignoring GEMINI_SESSION_ID'
complete -c gem-ask -l no-history -d 'Store nothing: the turn is not written to the session file'
complete -c gem-ask -l no-stdin -d 'Do not read stdin, even when it is not a terminal'
complete -c gem-ask -s c -l command-help -d 'Ask for a shell command for the prompt and print it alone, also into a pipe (the event stream only with --output jsonl)'
complete -c gem-ask -l thoughts -d 'Show the model\'s thought summaries (`thought` events)'
complete -c gem-ask -l no-tools -d 'Declare no tools'
complete -c gem-ask -l yes -d 'Run every tool without asking for consent'
complete -c gem-ask -l list-tools -d 'Print every tool with its source, consent level and whether it is declared, then exit'
complete -c gem-ask -l debug -d 'Describe each request on stderr (the key is shown as [REDACTED])'
complete -c gem-ask -l ascii -d 'Text output only: draw with ASCII characters only'
complete -c gem-ask -l unicode -d 'Text output only: draw with Unicode even when the locale or TERM says otherwise'
complete -c gem-ask -l show-tools -d 'Text output only: one line per tool call and tool result'
complete -c gem-ask -s i -l interactive -d 'Interactive session: a prompt with line editing and input history, the conversation carried across turns, answers and charts drawn inline, slash commands (/help lists them). Stdin, when piped, is context for the first question'
complete -c gem-ask -l chart-tables -d 'A Markdown table in an answer whose other columns hold numbers is also drawn as a bar chart under it'
complete -c gem-ask -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -s V -l version -d 'Print version'
