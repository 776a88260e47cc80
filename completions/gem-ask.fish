# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_gem_ask_global_optspecs
    string join \n provider= m/model= base-url= h/help V/version print-config output= session= continue new-chat no-history no-stdin c/command-help thoughts thinking= no-tools tools= exclude-tools= allow-tool= yes max-requests= max-tokens= max-cost= policy= tool-timeout= include-dir= mcp= sandbox= allow-network sandbox-mcp list-tools max-tool-rounds= t/task= max-iterations= task-timeout= auto-continue= progress-reporting= max-history-tokens= retries= max-wait= connect-timeout= read-timeout= record= replay= debug color= width= ascii unicode show-tools schema= schema-multi= system= system-file= role= p/param= temperature= no-context-files list-models count-tokens i/interactive max-consecutive-turns= markdown= hyperlinks= chart-tables a/attach= output-dir= voice= modalities= graphics= memory no-memory memory-budget= verbose generate=
end

function __fish_gem_ask_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_gem_ask_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_gem_ask_using_subcommand
    set -l cmd (__fish_gem_ask_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c gem-ask -n "__fish_gem_ask_needs_command" -l provider -d 'Who answers: Gemini\'s API, or any OpenAI-compatible server (Ollama, llama.cpp, vLLM, Gemini\'s /v1beta/openai/) [default: the config\'s provider, else gemini]' -r -f -a "gemini\t'Google\'s Gemini API (generativelanguage.googleapis.com)'
openai\t'Any OpenAI-compatible /chat/completions server'"
complete -c gem-ask -n "__fish_gem_ask_needs_command" -s m -l model -d 'Model name [default: GEMINI_MODEL or OPENAI_MODEL, else the config\'s, else gemini-3.5-flash for gemini]. A model the API no longer serves is exit 9, naming the replacement when the API does; --list-models lists those a key can use' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l base-url -d 'API base URL [default: GEMINI_BASE_URL, GOOGLE_GEMINI_BASE_URL or OPENAI_BASE_URL, else the config\'s, else https://generativelanguage.googleapis.com or https://api.openai.com/v1]' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l output -d 'Output format' -r -f -a "auto\t'Text on a terminal, the event stream into a pipe or file'
text\t'Drawn for a person'
jsonl\t'JSON lines (docs/events.md)'"
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l session -d 'Continue this session [default: GEMINI_SESSION_ID]' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l thinking -d 'How much the model thinks before it answers: thinkingLevel on Gemini 3 and later, the nearest thinkingBudget on Gemini 2.5, reasoning_effort on an OpenAI-compatible server; what a model cannot take (off on a model that always thinks) is said once and the nearest it takes is sent [default: the role\'s, else the config\'s thinking, else the model\'s own]' -r -f -a "off\t''
minimal\t''
low\t''
medium\t''
high\t''"
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l tools -d 'Declare only these tools (see --list-tools; the file and command tools are declared only when named here or in the config)' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l exclude-tools -d 'Do not declare these tools' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l allow-tool -d 'Run this tool without asking for consent (repeatable)' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l max-requests -d 'Stop before the request that would pass N requests in this run (exit 11, result error max_requests) [default: the config\'s budget.max_requests]' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l max-tokens -d 'Stop before the request that would pass N tokens in this run, as the API counts them (exit 11, result error max_tokens) [default: the config\'s budget.max_tokens]' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l max-cost -d 'Stop before the request that would pass USD dollars in this run, at the model\'s price (the dated table, or the config\'s [prices.MODEL]; a model with no price is exit 2) (exit 11, result error max_cost) [default: the config\'s budget.max_cost]' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l policy -d 'Policy rules in gemini-cli\'s TOML form (repeatable), besides the config dir\'s policies/*.toml' -r -F
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l tool-timeout -d 'Seconds one tool call may take [default: the config\'s tools.timeout, else 30]' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l include-dir -d 'Let the file and command tools use this directory too (repeatable)' -r -F
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l mcp -d 'Start this MCP server over stdio: \'CMD ARGS\' or \'NAME=CMD ARGS\'; or reach one over HTTP: \'URL\' or \'NAME=URL\' (Streamable HTTP, else HTTP+SSE) (repeatable)' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l sandbox -d 'Run shell commands in a sandbox (Landlock, Linux): writes only in the working directory, the --include-dir directories and a private TMPDIR; no reading of ~/.ssh, ~/.gnupg, ~/.aws and the like; no TCP unless --allow-network. auto: where the kernel supports it, said once where it does not; strict: refuse to run commands without it [default: the config\'s tools.sandbox, else auto]' -r -f -a "off\t'No sandbox'
auto\t'The sandbox where the kernel supports it; said once otherwise'
strict\t'Refuse to run a command the sandbox cannot hold'"
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l max-tool-rounds -d 'Most rounds of tool calls in one turn. A chat turn that needs more fails (exit 1); in task mode it ends that iteration (the further calls are not run) and the task goes on with the next' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -s t -l task -d 'Task mode: work towards TASK on its own, in iterations of plan, tool calls (at most --max-tool-rounds rounds each) and observation, until the model signals task_complete (exit 0), --max-iterations (exit 6) or --task-timeout (exit 7). The file and command tools are declared (consent still applies); stdin is context' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l max-iterations -d 'Task mode: most iterations before the task stops unfinished (exit 6). An iteration is one turn of the model: its plan, at most --max-tool-rounds rounds of tool calls, and what it makes of them; a model that never stops calling tools ends here too' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l task-timeout -d 'Task mode: most seconds the whole task may take, requests and tools included (exit 7) [default: no limit]' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l auto-continue -d 'After a turn that did not complete the task (-t) or ask for input (-i), go on with a "Continue." turn; off: task mode stops after each such turn (exit 8), to be resumed with --continue, and -i waits for you' -r -f -a "on\t''
off\t''"
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l progress-reporting -d 'Whether the model reports progress (signal kind progress: a signal event, and a progress line on stderr when it is a terminal)' -r -f -a "on\t''
off\t''"
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l max-history-tokens -d 'When the session\'s history passes this many tokens (from usageMetadata), the oldest turns are summarized by the model into one (0: never)' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l retries -d 'Retries after a 429, 500, 502, 503, 504 or connection failure' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l max-wait -d 'Most seconds spent waiting between retries of one request' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l connect-timeout -d 'Seconds to establish a connection' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l read-timeout -d 'Seconds of silence allowed while reading (no limit on a stream\'s total time)' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l record -d 'Save every raw API exchange to FILE (JSON lines; the key is never written)' -r -F
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l replay -d 'Answer from a --record FILE instead of the network (no key needed); an answer recorded for a different prompt, model or tool set comes with a warning event' -r -F
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l color -d 'Text output only: when to colour [default: auto, which needs a terminal, no NO_COLOR and TERM not dumb]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l width -d 'Text output only: width in columns [default: COLUMNS, else the terminal, else 80]' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l schema -d 'The answer as data: one record matching SCHEMA, a JSON Schema (inline, or @FILE) or the concise form \'model, secs float: 0-60 mph, year int\' (types str, int, float, bool; a description after \':\'). Into a pipe it is a plain JSON line; with --output jsonl a `record` event; on a terminal a table. Tools are declared only when --tools names them. An answer that does not match is sent back once with the problems, then refused (exit 65)' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l schema-multi -d 'As --schema, for a list of records (asked for as {"items": [...]}): one JSON line or `record` event each, so `gem-ask --schema-multi \'model, secs float\' "fastest 5 BMWs" | viz-parse | viz-render` charts them' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l system -d 'Add TEXT to the system prompt (gem-ask\'s own guidance for charts and chapters stays)' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l system-file -d 'As --system, the text read from FILE' -r -F
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l role -d 'Use the config\'s [roles.NAME]: its system prompt and prompt template, model, temperature and tools (flags win)' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -s p -l param -d 'Fill $KEY in the templates: a role\'s system and prompt, and, once -p is given, --system and the prompt itself ($$ is a $) (repeatable)' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l temperature -d 'Sampling temperature, 0 to 2 [default: the role\'s, else the model\'s own]' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l max-consecutive-turns -d 'With -i: most turns in a row the model takes on its own' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l markdown -d 'Draw assistant text as Markdown (headings, lists, code with syntax highlighting, tables fitted to the width, the HTML models write: <br>, <b>, <i>, <code>, <sub>, <sup>, <kbd>, <details>; other HTML as written) as it streams, and shown thoughts as dim Markdown; off: the text as it comes, word-wrapped. Each block is parsed whole: on a terminal the block being written is drawn at once and redrawn in place as it grows; in a pipe or a file each block is written once, complete. With colour off, marks are written out (*strong*, _emphasis_, `code`) and headings underlined. Code is highlighted up to 16 KiB of it per answer (some 400 lines); code past that is drawn in the plain code style, so an answer that is mostly code still draws at once. TeX math ($…$, $$…$$, \\(…\\), \\[…\\]) is drawn as Unicode (Greek letters, operators, scripts, stacked fractions, matrices; in ASCII mode as ASCII); a reference link is resolved wherever its definition stands (the block that uses one waits for it, up to 16 KiB of text); footnotes are superscript numbers, their notes drawn after the answer' -r -f -a "on\t''
off\t''"
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l hyperlinks -d 'Links as OSC 8 hyperlinks (auto: when colour is on and the terminal is known to support them: iTerm2, WezTerm, kitty, foot, VTE, Windows Terminal, VS Code, Ghostty)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c gem-ask -n "__fish_gem_ask_needs_command" -s a -l attach -d 'Attach a file to the prompt (repeatable): an image, PDF, audio, video or text file, its type read from its bytes; `-` attaches stdin; an https:// URL is passed for the API to fetch. Small files go inline, larger ones through the Files API (a progress bar on a terminal). A missing file is exit 66, one too large or of a type the model does not take exit 65' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l output-dir -d 'Where images and audio the model (or a tool) makes are written, as gem-ask-image-N.png, gem-ask-audio-N.wav (never overwriting) [default: the working directory]' -r -F
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l voice -d 'Ask for speech in this prebuilt voice (Kore, Puck, Charon, ...; a TTS model, e.g. gemini-3.1-flash-tts-preview): the answer is written as a WAV file' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l modalities -d 'What the model answers with (responseModalities), e.g. text,image for an image model [default: the model\'s own]' -r -f -a "text\t''
image\t''
audio\t''"
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l graphics -d 'Text output only: draw images inline on a terminal that shows them (kitty, iTerm2, sixel; auto detects which), else one line with the path; never into a pipe' -r -f -a "auto\t'The protocol the terminal is detected to speak (kitty, iTerm2, sixel), else none; never into a pipe or a file'
kitty\t'The kitty graphics protocol (kitty, Ghostty, WezTerm, Konsole)'
iterm\t'iTerm2\'s inline images (iTerm2, WezTerm, VS Code)'
sixel\t'Sixel (xterm -ti vt340, foot, mlterm, Windows Terminal, contour)'
off\t'No pictures: charts as text, images as a line with their path'"
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l memory-budget -d 'Most tokens of memories one turn adds to the prompt; more are summarized by the model to fit [default: the config\'s memory.budget, else 1000]' -r
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l generate -d 'Print this program\'s completions for a shell (completions bash|zsh|fish|powershell) or its man page (man), then exit' -r -f -a "completions\t''
man\t''
bash\t''
zsh\t''
fish\t''
powershell\t''"
complete -c gem-ask -n "__fish_gem_ask_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -s V -l version -d 'Print version'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l print-config -d 'Print the settings merged from flags, environment, config file and defaults, each with its source (keys redacted), then exit'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l continue -d 'Continue the most recently used session'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l new-chat -d 'Start a new session, ignoring GEMINI_SESSION_ID'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l no-history -d 'Store nothing: the turn is not written to the session file'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l no-stdin -d 'Do not read stdin, even when it is not a terminal'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -s c -l command-help -d 'Ask for a shell command for the prompt and print it alone, also into a pipe (the event stream only with --output jsonl)'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l thoughts -d 'Show the model\'s thought summaries (`thought` events)'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l no-tools -d 'Declare no tools'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l yes -d 'Run every tool without asking for consent'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l allow-network -d 'Let sandboxed commands (and MCP servers) connect and bind TCP ports'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l sandbox-mcp -d 'Run the MCP servers in the sandbox too'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l list-tools -d 'Print every tool with its source, consent level and whether it is declared, then exit'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l debug -d 'Describe each request on stderr (the key is shown as [REDACTED])'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l ascii -d 'Text output only: draw with ASCII characters only'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l unicode -d 'Draw with Unicode'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l show-tools -d 'Text output only: one line per tool call and tool result'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l no-context-files -d 'Read no GEMLINE.md context files (they are read from the config directory, and from the working directory and its parents up to the repository root or home)'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l list-models -d 'Print the models the provider offers (Gemini\'s models list, an OpenAI-compatible /models), with their context sizes where given, then exit. Into a pipe: one JSON object a line'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l count-tokens -d 'Print how many tokens the request would take (countTokens: the session\'s history, stdin, the prompt, the system prompt and tools), then exit without asking. Gemini only. Into a pipe: a JSON object. Before `map`: each record\'s request counted (a line of its fields and `tokens`), the total and its input cost on stderr'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -s i -l interactive -d 'Ask at a prompt, one conversation across turns'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l chart-tables -d 'Draw a Markdown table of numbers as a bar chart too'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l memory -d 'Keep a long-term memory across sessions: the model gets the remember, recall, forget and relate tools (writes ask for consent), and each turn carries the memories that best match the message (within --memory-budget) [default: the config\'s memory.enabled]'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l no-memory -d 'Memory off for this run, whatever the config says'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -l verbose -d 'Say on stderr which memories each turn used, and each turn\'s input tokens with the share the API served from its cache'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -a "memory" -d 'The long-term memory: add, search, list, show, forget, relate, graph, path, export, import (JSON lines on stdout). Memories live in $XDG_DATA_HOME/gemline/memory.sqlite3'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -a "policy" -d 'Policy rules: `check TOOL ARGS` explains what they decide about a call (a JSON line)'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -a "log" -d 'The audit log of past sessions: list, search TEXT (prompts, answers, tool calls and results), show ID; filters --since, --tool, --model, --status, --cost-over (JSON lines)'
complete -c gem-ask -n "__fish_gem_ask_needs_command" -a "map" -d 'Apply the prompt to each record of the input (JSON lines, CSV, TSV or lines): one JSON object a record on stdout, its fields and `answer`. gem-ask\'s flags (--model, --system, --schema, ...) go before `map`'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and not __fish_seen_subcommand_from add search list show forget relate unrelate graph path export import reindex" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and not __fish_seen_subcommand_from add search list show forget relate unrelate graph path export import reindex" -a "add" -d 'Remember TEXT (stdin when no TEXT is given), or replace the memory with the same key'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and not __fish_seen_subcommand_from add search list show forget relate unrelate graph path export import reindex" -a "search" -d 'The memories that best match QUERY: keywords (BM25) and meaning (the embedding model\'s vectors) fused by reciprocal rank; each with its score and ranks'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and not __fish_seen_subcommand_from add search list show forget relate unrelate graph path export import reindex" -a "list" -d 'The most recently updated memories'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and not __fish_seen_subcommand_from add search list show forget relate unrelate graph path export import reindex" -a "show" -d 'One memory with its relations'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and not __fish_seen_subcommand_from add search list show forget relate unrelate graph path export import reindex" -a "forget" -d 'Delete a memory and its relations'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and not __fish_seen_subcommand_from add search list show forget relate unrelate graph path export import reindex" -a "relate" -d 'Relate two memories: FROM TO [RELATION], e.g. api db depends_on [default: related_to]'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and not __fish_seen_subcommand_from add search list show forget relate unrelate graph path export import reindex" -a "unrelate" -d 'Remove the relations between two memories (of one kind, or all)'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and not __fish_seen_subcommand_from add search list show forget relate unrelate graph path export import reindex" -a "graph" -d 'The relations as a graph: a memory_graph event, or a mermaid flowchart with --mermaid'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and not __fish_seen_subcommand_from add search list show forget relate unrelate graph path export import reindex" -a "path" -d 'The shortest chain of relations between two memories'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and not __fish_seen_subcommand_from add search list show forget relate unrelate graph path export import reindex" -a "export" -d 'Every memory, with relations and vectors, as JSON lines (to FILE or stdout)'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and not __fish_seen_subcommand_from add search list show forget relate unrelate graph path export import reindex" -a "import" -d 'Memories from JSON lines as export writes them (FILE, or stdin); updates by key'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and not __fish_seen_subcommand_from add search list show forget relate unrelate graph path export import reindex" -a "reindex" -d 'Embed the memories that have no vector of the configured embedding model'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from add" -s k -l key -d 'A short unique name [default: made from the text]' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from add" -s t -l tag -d 'A tag (repeatable)' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from add" -l confidence -d 'How sure the fact is, 0 to 1 [default: 1]' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from search" -s t -l tag -d 'Only memories with this tag (repeatable: all of them)' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from search" -l since -d 'Only memories updated since: an RFC 3339 time, a date (2026-03-01) or an age (90m, 12h, 7d, 2w)' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from search" -l until -d 'Only memories updated before WHEN' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from search" -s n -l limit -d 'Most memories to print' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from list" -s t -l tag -d 'Only memories with this tag (repeatable: all of them)' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from list" -l since -d 'Only memories updated since: an RFC 3339 time, a date (2026-03-01) or an age (90m, 12h, 7d, 2w)' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from list" -l until -d 'Only memories updated before WHEN' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from list" -s n -l limit -d 'Most memories to print' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from forget" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from relate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from unrelate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from graph" -l depth -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from graph" -l mermaid -d 'Print a mermaid flowchart (a fenced block for Markdown) instead of JSON'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from graph" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from path" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from export" -s o -l output -r -F
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand memory; and __fish_seen_subcommand_from reindex" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand policy; and not __fish_seen_subcommand_from check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand policy; and not __fish_seen_subcommand_from check" -a "check" -d 'Explain what the rules decide about one call, without running anything: a JSON line with the verdict, the deciding rule (FILE:LINE), why, and a shell command\'s simple commands'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand policy; and __fish_seen_subcommand_from check" -l policy -d 'More policy rules besides the config dir\'s policies/*.toml (repeatable)' -r -F
complete -c gem-ask -n "__fish_gem_ask_using_subcommand policy; and __fish_seen_subcommand_from check" -l interactive -d 'Judge as on a terminal (rules with interactive = true); headless by default'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand policy; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and not __fish_seen_subcommand_from list search show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and not __fish_seen_subcommand_from list search show" -a "list" -d 'The sessions, most recently written first: a `record` event each (session, created, updated, model, turns, tool_calls, tokens, cost_usd, status, tools, topic, prompt)'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and not __fish_seen_subcommand_from list search show" -a "search" -d 'Full-text search over prompts, answers, tool calls and their results: a `record` event a text found (session, time, kind, tool, status, model, text), best match first'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and not __fish_seen_subcommand_from list search show" -a "show" -d 'One session replayed as the events of a run (init, message, tool_use, tool_result, result), for viz-render'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and __fish_seen_subcommand_from list" -l since -d 'Only what was written since: a date (2026-11-20), a moment (RFC 3339) or a time back (30m, 12h, 7d, 2w)' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and __fish_seen_subcommand_from list" -l tool -d 'Only sessions that called this tool (search: only its calls and results)' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and __fish_seen_subcommand_from list" -l model -d 'Only sessions with this model (the one asked for, or a served version)' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and __fish_seen_subcommand_from list" -l status -d 'Only sessions and map runs whose status is this: success, error (a tool call failed or was denied, a map record failed, or the last run stopped on an error), budget (the last run stopped by --max-requests, --max-tokens or --max-cost), interrupted (by a signal) or incomplete (a turn not completely written)' -r -f -a "success\t''
error\t''
budget\t''
interrupted\t''
incomplete\t''"
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and __fish_seen_subcommand_from list" -l cost-over -d 'Only sessions that cost more than this many US dollars (a session of unknown cost never)' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and __fish_seen_subcommand_from list" -l limit -d 'At most this many lines' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and __fish_seen_subcommand_from search" -l since -d 'Only what was written since: a date (2026-11-20), a moment (RFC 3339) or a time back (30m, 12h, 7d, 2w)' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and __fish_seen_subcommand_from search" -l tool -d 'Only sessions that called this tool (search: only its calls and results)' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and __fish_seen_subcommand_from search" -l model -d 'Only sessions with this model (the one asked for, or a served version)' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and __fish_seen_subcommand_from search" -l status -d 'Only sessions and map runs whose status is this: success, error (a tool call failed or was denied, a map record failed, or the last run stopped on an error), budget (the last run stopped by --max-requests, --max-tokens or --max-cost), interrupted (by a signal) or incomplete (a turn not completely written)' -r -f -a "success\t''
error\t''
budget\t''
interrupted\t''
incomplete\t''"
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and __fish_seen_subcommand_from search" -l cost-over -d 'Only sessions that cost more than this many US dollars (a session of unknown cost never)' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and __fish_seen_subcommand_from search" -l limit -d 'At most this many lines' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and __fish_seen_subcommand_from search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand log; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand map" -l format -d 'The inputs\' format [default: by the file name (.jsonl, .ndjson, .csv, .tsv), else sniffed as viz-parse sniffs: JSON lines, a table with a header row split at `,` `;` `|` or tab, else plain lines]' -r -f -a "auto\t'By the file\'s name, else its first line'
jsonl\t''
csv\t''
tsv\t''
lines\t'One record a line, its text in the field `line`'"
complete -c gem-ask -n "__fish_gem_ask_using_subcommand map" -s j -l jobs -d 'Requests in flight at most (halved while the server answers 429/503, then grown back one at a time)' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand map" -l rate -d 'Start at most N requests a minute (spaced evenly), whatever -j allows' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand map" -s o -l output -d 'Append the lines to FILE (each whole and flushed) instead of stdout; a rerun of the same command skips the records already answered there (by their `_key`, the hash of the request) and sends only the missing ones' -r -F
complete -c gem-ask -n "__fish_gem_ask_using_subcommand map" -l attach -d 'Collect the batch job NAME (batches/ID, from --detach) with the same options: wait for it, then write its answers (resumable with --output, like any run)' -r
complete -c gem-ask -n "__fish_gem_ask_using_subcommand map" -l unordered -d 'Write each record\'s line as it finishes, not in input order'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand map" -l cache -d 'Keep each answer by its request\'s key in $XDG_DATA_HOME/gemline/map-cache.sqlite3 and answer a byte-identical request (same model) from there without sending it'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand map" -l dry-run -d 'Print each record\'s request body (`request`, with its `_key`) instead of sending it'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand map" -l batch -d 'Send the requests as one job of Gemini\'s Batch API (half the price, answered within a day): inline when small, else as a JSONL file through the Files API; the job is polled until it ends and its answers written as the online run writes them. An OpenAI-compatible provider has no batch API: the run goes online'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand map" -l detach -d 'With --batch: create the job, print its name on stdout and exit; collect it later with --attach NAME and the same options'
complete -c gem-ask -n "__fish_gem_ask_using_subcommand map" -s h -l help -d 'Print help (see more with \'--help\')'
