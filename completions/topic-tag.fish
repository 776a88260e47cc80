complete -c topic-tag -s i -l input -d 'Read events from FILE instead of stdin (repeatable, `-` is stdin); files are one stream' -r -F
complete -c topic-tag -s s -l split -d 'With --wrap: a line matching REGEX opens a chapter' -r
complete -c topic-tag -s e -l error -d 'With --wrap: a line matching REGEX becomes an `error` event (severity `error`, the line as `message`) instead of a message, so --summary counts it; e.g. \'(?i)\\b(error|failed)\\b\'. A line matching --split opens a chapter whatever this says' -r
complete -c topic-tag -l summary -d 'At the end, emit one `topic_summary` event' -r -f -a "event\t'One `topic_summary` event on stdout'
table\t'The `topic_summary` event, and a table of the chapters on stderr'"
complete -c topic-tag -l hold-ms -d 'How long a held run of calls waits for more, in ms' -r
complete -c topic-tag -l session -d 'The session for --current (default: $GEMINI_SESSION_ID; an empty value counts as none)' -r
complete -c topic-tag -l generate -d 'Print this program\'s completions for a shell (completions bash|zsh|fish|powershell) or its man page (man), then exit' -r -f -a "completions\t''
man\t''
bash\t''
zsh\t''
fish\t''
powershell\t''"
complete -c topic-tag -s w -l wrap -d 'Treat the input as plain text lines: each becomes a `message` event'
complete -c topic-tag -l strict -d 'A line that is not a JSON object (or a topic without a title) is an error (exit 65) instead of a warning'
complete -c topic-tag -l current -d 'Print the active topic of a gem-ask session and exit'
complete -c topic-tag -s h -l help -d 'Print help (see more with \'--help\')'
complete -c topic-tag -s V -l version -d 'Print version'
