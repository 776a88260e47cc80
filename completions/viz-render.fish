complete -c viz-render -l width -d 'Width in columns (default: COLUMNS, the terminal, or 80)' -r
complete -c viz-render -l height -d 'Cap on a line chart\'s plot rows' -r
complete -c viz-render -l color -d 'Colour and bold/dim' -r -f -a "auto\t''
always\t''
never\t''"
complete -c viz-render -l markdown -d 'Draw assistant text as Markdown (headings, lists, code with syntax highlighting, tables fitted to the width, the HTML models write: <br>, <b>, <i>, <code>, <sub>, <sup>, <kbd>, <details>; other HTML as written) as it streams, and shown thoughts as dim Markdown; off: the text as it comes, word-wrapped. Each block is parsed whole: on a terminal the block being written is drawn at once and redrawn in place as it grows; in a pipe or a file each block is written once, complete. With colour off, marks are written out (*strong*, _emphasis_, `code`) and headings underlined. Code is highlighted up to 16 KiB of it per answer (some 400 lines); code past that is drawn in the plain code style, so an answer that is mostly code still draws at once. TeX math ($…$, $$…$$, \\(…\\), \\[…\\]) is drawn as Unicode (Greek letters, operators, scripts, stacked fractions, matrices; in ASCII mode as ASCII); a reference link is resolved wherever its definition stands (the block that uses one waits for it, up to 16 KiB of text); footnotes are superscript numbers, their notes drawn after the answer' -r -f -a "on\t''
off\t''"
complete -c viz-render -l hyperlinks -d 'Links as OSC 8 hyperlinks (auto: when colour is on and the terminal is known to support them: iTerm2, WezTerm, kitty, foot, VTE, Windows Terminal, VS Code, Ghostty)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c viz-render -l format -d 'What to write: `terminal` draws; `github` and `gitlab` draw for a CI log (chapters as collapsible sections; on GitHub error events as annotations); `auto` is one of those two when GITHUB_ACTIONS or GITLAB_CI is `true` and stdout is not a terminal, else `terminal`; `svg` writes one self-contained SVG per chart; `png` one PNG per chart (that SVG rasterised at its size); `markdown` writes GitHub-flavoured Markdown (charts as mermaid xychart blocks, data in collapsed tables); `json` re-emits the events, charts with meta.fallbackMode set (as --json); `vega-lite` writes one Vega-Lite v5 spec per chart, one compact JSON document per line' -r -f -a "auto\t'`github` or `gitlab` when GITHUB_ACTIONS or GITLAB_CI is `true` and stdout is not a terminal; else `terminal`'
terminal\t'Draw charts, text and chapters in the terminal'
github\t'The terminal drawing for a GitHub Actions log: chapters as ::group:: sections, error events as ::error::/::warning:: annotations'
gitlab\t'The terminal drawing for a GitLab CI log: chapters as collapsible sections'
markdown\t'GitHub-flavoured Markdown for a CI job summary or a pull-request comment: charts as mermaid, tables as GFM tables'
svg\t'One self-contained SVG per chart (with --output-dir, one file each)'
png\t'One PNG per chart, the SVG rasterised at its size (with --output-dir, one file each)'
json\t'Re-emit the events, charts normalized with meta.fallbackMode'
vega-lite\t'One Vega-Lite v5 spec per chart (JSON lines); other events write nothing'"
complete -c viz-render -l output-dir -d 'With --format svg or png: write each chart to its own file in DIR (created if missing), `NN-title.svg` or `.png`, and its path on stdout' -r -F
complete -c viz-render -l graphics -d 'Draw charts as pictures on a terminal that shows images: `auto` detects the kitty graphics protocol (kitty, Ghostty), iTerm2\'s inline images (iTerm2, WezTerm) or sixel (foot, mlterm) from the environment (none under tmux or screen); `kitty`, `iterm`, `sixel` choose; `off` draws text. Never into a pipe, a file or a CI log, nor with --live: there charts stay text' -r -f -a "auto\t'The protocol the terminal is detected to speak (kitty, iTerm2, sixel), else none; never into a pipe or a file'
kitty\t'The kitty graphics protocol (kitty, Ghostty, WezTerm, Konsole)'
iterm\t'iTerm2\'s inline images (iTerm2, WezTerm, VS Code)'
sixel\t'Sixel (xterm -ti vt340, foot, mlterm, Windows Terminal, contour)'
off\t'No pictures: charts as text, images as a line with their path'"
complete -c viz-render -l fps -d 'With --live: redraws per second at most' -r
complete -c viz-render -l max-spec-bytes -d 'Largest `ui` chart spec drawn, in bytes of compact JSON; a larger one shows its fallbackText (rule payload-size)' -r
complete -c viz-render -l max-rows -d 'Most `dataset.rows` of a `ui` chart spec drawn; more shows its fallbackText (rule row-count)' -r
complete -c viz-render -l generate -d 'Print this program\'s completions for a shell (completions bash|zsh|fish|powershell) or its man page (man), then exit' -r -f -a "completions\t''
man\t''
bash\t''
zsh\t''
fish\t''
powershell\t''"
complete -c viz-render -l ascii -d 'Draw with ASCII only'
complete -c viz-render -l unicode -d 'Draw with Unicode whatever the locale says'
complete -c viz-render -l chart-tables -d 'Draw a Markdown table of numbers as a bar chart too'
complete -c viz-render -l json -d 'Same as --format json'
complete -c viz-render -l show-tools -d 'One dim line for each tool call and tool result (titled topic calls excepted: their chapter header says it). A failed tool result is shown either way, as `warning: TOOL failed: REASON` (the first line of its message, wrapped at the width)'
complete -c viz-render -l show-thoughts -d 'Model thoughts (`thought` events, gem-ask --thoughts) as dim text'
complete -c viz-render -l chapters -d 'Only chapter headers, each with its counts of events, tool calls and errors'
complete -c viz-render -l strict -d 'A line that is not an event, or an invalid chart, is an error (exit 65)'
complete -c viz-render -l live -d 'Draw live charts (`"live": true` events, viz-parse --follow) in place on a terminal, redrawn as updates come; elsewhere each is drawn once, at the end of input or at Ctrl-C'
complete -c viz-render -s v -l verbose -d 'Notes on stderr: ignored event types, session, token stats (with the cached share and, from gemini-cli, each model\'s tokens)'
complete -c viz-render -s h -l help -d 'Print help (see more with \'--help\')'
complete -c viz-render -s V -l version -d 'Print version'
