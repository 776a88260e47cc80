complete -c viz-parse -l chart -d 'Chart kind [default: line for dates, years and ordered numbers, else bar]' -r -f -a "bar\t''
line\t''
table\t''
point\t'A scatter of -y over a number or date -x (binned when large)'
hist\t'A histogram of -y: rows counted in --bins bins'
heatmap\t'A heatmap: -x across, -s down, each cell its rows counted (or --aggregate of -y); a colour scale, or shades without colour. An axis of many numbers is binned (see --bins)'
box\t'A box plot of -y per -x group: quartiles, whiskers at 1.5 times the interquartile range, outliers'
spark\t'A sparkline per series (each -y, or each -s group), one row each with its last value, min and max'"
complete -c viz-parse -l format -d 'Input format, instead of detecting it' -r -f -a "csv\t'Comma-separated (or `;`/`|`, sniffed; see --delimiter)'
tsv\t'Tab-separated'
json\t'One JSON document: object map, array of records or pairs'
jsonl\t'JSON lines: one record per line'
markdown\t'A GFM Markdown table'
args\t'The render_visualization argument object'
events\t'A stream of events (JSON lines, each with a `type`)'"
complete -c viz-parse -s x -l label -d 'The label column (name or 1-based number); `@row`: the rows\' order (1, 2, ...), for a series stored a row a time step' -r
complete -c viz-parse -s y -l value -d 'A value column (name or 1-based number); repeat for several series (line, point, bar)' -r
complete -c viz-parse -s s -l series -d 'Long format: one series per distinct value of this column' -r
complete -c viz-parse -l aggregate -d 'Rows grouped by the label (-x) and the series (-s), one value per group of the -y column (count needs none); the axis says which (`mean(delay)`). Memory follows the groups, not the rows' -r -f -a "count\t'The rows of each group'
sum\t'The sum of the values'
mean\t'Their mean'
median\t'Their median (the mean of the two middle ones for an even count)'
min\t'The smallest'
max\t'The largest'
distinct\t'How many distinct values (a missing value is one of them)'"
complete -c viz-parse -l time-unit -d 'Group a date label (-x) by a unit of time, as Vega-Lite\'s timeUnit (UTC): year, yearmonth and yearmonthdate keep the calendar; quarter, month, week, day, hours and minutes fold it (all Januaries, all Mondays). Each group is the --aggregate (mean when none)' -r -f -a "year\t'The calendar year: 2024'
quarter\t'The quarter of the year, all years together: Q1..Q4'
month\t'The month of the year, all years together: Jan..Dec'
yearmonth\t'The month of the calendar: 2024-01'
yearmonthdate\t'The day of the calendar: 2024-01-05'
week\t'The week of the year (weeks start on Sunday; week 0 is the days before the first Sunday), all years together'
day\t'The day of the week, all weeks together: Sun..Sat'
hours\t'The hour of the day, all days together: 00..23'
minutes\t'The minute of the hour, all hours together: 00..59'"
complete -c viz-parse -l filter -d 'Keep only rows where EXPR holds: COLUMN=VALUE, !=, <, <=, >, >= (numbers compare as numbers, dates as dates, else text) or COLUMN~REGEX; repeat to AND several' -r
complete -c viz-parse -l bins -d 'With --chart hist: at most N bins, their edges on a step of 1, 2 or 5 times a power of ten, as Vega-Lite bins [default: 20; at most 200]. With --chart heatmap: at most N bins on each axis of numbers (-x, -s), which are then binned whatever their count of values; without it, an axis of numbers with more than 10 values across or 20 down is binned into at most that many (whole numbers stay categories up to 31 values: hours, days of a month)' -r
complete -c viz-parse -l max-groups -d 'Groups --aggregate and --time-unit keep at most, before the input is refused [default: 10000]' -r
complete -c viz-parse -l calculate -d 'A new column NAME computed from each row, as Vega-Lite\'s calculate: numbers, column names ("double quotes" around one with spaces), + - * /, parentheses, abs ceil exp floor log log10 round sqrt, min max pow; a division by zero or a missing cell gives no value (said once). Repeatable; -x/-y/-s/--filter name the new column like any other, and with no -y the last one is charted (with no -x either, by the x the automatic choice takes)' -r
complete -c viz-parse -l fold -d 'Wide columns made into rows, as Vega-Lite\'s fold: each row becomes one row per listed column (names, 1-based numbers or patterns such as \'sales_*\', comma-separated) holding the other columns, `key` (the column\'s name) and `value` (its cell): -s key draws one series per folded column' -r
complete -c viz-parse -l fold-as -d 'The names of --fold\'s two columns [default: key,value]' -r
complete -c viz-parse -l normalize -d 'With --chart heatmap: cells as shares of their row or column' -r -f -a "row\t'Each cell in percent of its row\'s total'
column\t'Each cell in percent of its column\'s total'"
complete -c viz-parse -l title -d 'Chart title' -r
complete -c viz-parse -l subtitle -d 'Chart subtitle' -r
complete -c viz-parse -l x-label -d 'X axis title [default: the label column\'s name]' -r
complete -c viz-parse -l y-label -d 'Y axis title [default: the value column\'s name]' -r
complete -c viz-parse -l unit -d 'Unit of the values, e.g. s or % [default: the unit the numbers are written with]' -r
complete -c viz-parse -l sort -d 'Order of bar and table points (a line keeps input order)' -r -f -a "none\t''
asc\t''
desc\t''"
complete -c viz-parse -l stack -d 'With several series of bars (-s, or several -y): stack them end to end instead of side by side; `--stack normalize` stacks each bar to 100% of its label\'s total' -r -f -a "zero\t'Stacked from zero: each bar as long as its series\' sum'
normalize\t'Stacked to 100%: each bar the series\' shares of its label\'s total'"
complete -c viz-parse -l scale -d 'The value axis\' scale (y; across, for bars): log (ticks at powers of ten) or sqrt. A value a scale cannot place is an error naming how many and the first (exit 65)' -r -f -a "linear\t''
log\t'Powers of ten equally apart, ticks at them; values must be above 0'
sqrt\t'The square root: small values spread, large ones drawn closer; values must be 0 or more'"
complete -c viz-parse -l x-scale -d 'The x axis\' scale, for x values that are numbers (a scatter, a line over numbers)' -r -f -a "linear\t''
log\t'Powers of ten equally apart, ticks at them; values must be above 0'
sqrt\t'The square root: small values spread, large ones drawn closer; values must be 0 or more'"
complete -c viz-parse -l trend -d 'A trend through a scatter (--chart point) or a line over numbers or dates, one per series, drawn over the points; its fit is in the footer and the chart event' -r -f -a "linear\t'Least squares: slope, intercept and r² in the footer'
loess\t'Local regression over the nearest 30% of the points (Vega-Lite\'s default bandwidth)'"
complete -c viz-parse -l max-points -d 'Points kept per series, 2 to 200 [default: 30 for bars and tables, 200 for a line, every computed point of an aggregated line; more is capped]' -r
complete -c viz-parse -l keep -d 'Which points a bar or table keeps when there are too many' -r -f -a "top\t'The largest by absolute value (bar and table default)'
first\t'The first N in input order'
last\t'The last N in input order, as for the last 5 years'"
complete -c viz-parse -l downsample -d 'How a line is thinned when there are too many points [default: minmax]' -r -f -a "even\t'Evenly spaced points, first and last kept (peaks between samples are lost)'
minmax\t'First, last, smallest and largest point of each bucket (default): peaks and seasons survive'
lttb\t'Largest-triangle-three-buckets: shape and peaks survive'"
complete -c viz-parse -s d -l delimiter -d 'Field delimiter of CSV input, instead of sniffing it' -r
complete -c viz-parse -l decimal -d 'The decimal mark of the numbers, `.` or `,`, instead of deciding it per column [default: what the column\'s numbers show (1.234,56 is a decimal comma); when none does, commas before three digits group thousands (1,200); a point before three digits (1.234) is `,`\'s grouping in `;`-separated files, else `.`]' -r -f -a ".\t''
\,\t''"
complete -c viz-parse -l dates -d 'How dates with the day and month as numbers (05/01/2024) are read [default: as the column\'s dates show (13/01/2024 is day-first); when every one could be either, day-first, with a note when it changes the line]' -r -f -a "dmy\t'Day first: 05/01/2024 is 5 January 2024'
mdy\t'Month first: 05/01/2024 is May 1, 2024'"
complete -c viz-parse -s j -l threads -d 'Threads that read the rows of a large CSV, TSV or JSON-lines input (1: the calling thread alone; at most 8) [default: one a core, at most 8]. The chart, the warnings and their order are the same whatever the number. A large CSV, TSV or JSON-lines file named on the command line is read through memory maps, which assumes, as ripgrep does, that no other program truncates it while it is read' -r
complete -c viz-parse -l mark -d 'With --grammar: how the -y column just before is drawn [default: line over numbers or dates, bar over categories]' -r -f -a "line\t''
area\t''
point\t''
bar\t''"
complete -c viz-parse -l rule -d 'With --grammar: a reference line, AXIS=VALUE[:LABEL]: `x=5:5K`, `y=150:threshold`, `x=2026-03-01:race`' -r
complete -c viz-parse -l band -d 'With --grammar: a shaded band, AXIS=FROM..TO[:LABEL]: `x=2..3:lap 3`' -r
complete -c viz-parse -l extract -d 'With --follow: pull numbers out of free-form lines; each capture group is a series named by the group\'s name (`time=(?P<ms>[0-9.]+)`); lines it does not match are skipped' -r
complete -c viz-parse -l interval -d 'With --follow: the least time between two updates (250ms, 1s)' -r
complete -c viz-parse -l window -d 'With --follow: points kept per series, the last N [default: what fits the width: COLUMNS, or the terminal on stderr]' -r
complete -c viz-parse -l x -d 'With --follow: what x is: `sample` (the row number) or `time` (the wall clock, HH:MM:SS; the points of a second are averaged)' -r -f -a "sample\t'The row number'
time\t'The wall clock'"
complete -c viz-parse -l columns -d 'With --follow: names of the columns, comma-separated, for rows without a header line' -r
complete -c viz-parse -l id -d 'With --follow: the live chart\'s id [default: the input\'s file name without extension; `stdin`]' -r
complete -c viz-parse -l facet -d 'Small multiples: the chart drawn once per value of this column (at most 24), in a grid of panels laid out to the width, each titled by its value; one Vega-Lite `facet`, one Markdown section a panel' -r
complete -c viz-parse -l facet-columns -d 'With --facet: panels a row [default: as many as fit the width]' -r
complete -c viz-parse -l facet-scales -d 'With --facet: whether the panels share one x and one y scale (their titles said once for the grid; a log axis too), or each is scaled to its own data. Bar and histogram panels share one value scale (stacked bars keep their own), as in Vega-Lite' -r -f -a "shared\t'One x and one y scale over every panel'
free\t'Each panel scaled to its own data'"
complete -c viz-parse -l generate -d 'Print this program\'s completions for a shell (completions bash|zsh|fish|powershell) or its man page (man), then exit' -r -f -a "completions\t''
man\t''
bash\t''
zsh\t''
fish\t''
powershell\t''"
complete -c viz-parse -l header -d 'The first row is a header'
complete -c viz-parse -l no-header -d 'The first row is data'
complete -c viz-parse -l strict -d 'Treat skipped rows and malformed event lines as errors (exit 65)'
complete -c viz-parse -l grammar -d 'Write a layered `ui` chart (the plot grammar) instead of a `visualization`: -x is the x column, each -y a mark of its own (several -y share the axes), -s one series per value of a column. Columns are typed date (ISO 8601), number or string; a unit in a header, `pace (s/km)`, is the field\'s unit. At most 5,000 rows'
complete -c viz-parse -l follow -d 'Read an endless input line by line and write a live chart: a `visualization` event with the input\'s `id` and `"live": true` at most every --interval, when something changed, and a last one at the end of input or at Ctrl-C. Lines may be plain numbers (several per line, named by a header line of words), CSV/TSV rows (header from the first line, or --columns), `key=value` tokens, `label: value` lines or JSON objects; -y NAME keeps only some series'
complete -c viz-parse -l rate -d 'With --follow: plot the per-second change of a growing counter (between the times its lines were read; a counter that goes down was reset), in UNIT/s'
complete -c viz-parse -l spark -d 'With --chart table: a sparkline per row beside its values'
complete -c viz-parse -s h -l help -d 'Print help (see more with \'--help\')'
complete -c viz-parse -s V -l version -d 'Print version'
