#!/usr/bin/env bash
# Writes what the four programs print for every file in testdata/ into one
# folder, so that two builds can be compared byte for byte:
#
#   tests/outputs.sh BIN_DIR OUT_DIR        e.g. target/debug /tmp/after
#   diff -r /tmp/before /tmp/after          nothing: the same bytes
#
# For each file it records stdout, stderr and the exit code of: viz-parse
# (auto, bar, line, table, grammar; alone and piped into viz-render),
# viz-render (text at 40 and 80 columns, colour, ASCII, Markdown, Vega-Lite,
# SVG, GitHub), topic-tag (summary, a title, wrapped text), and gem-ask replaying each
# .replay file (events and text) in a fresh session folder. Times, the
# temporary paths and the checkout's own path are the only things it rewrites before writing.
set -uo pipefail
bin=$(cd "${1:?BIN_DIR}" && pwd)
out=${2:?OUT_DIR}
cd "$(dirname "$0")/.."
repo=$PWD
rm -rf "$out" && mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export NO_COLOR= TERM=xterm-256color LANG=C.UTF-8 COLUMNS=80 CI= GITHUB_ACTIONS= GITLAB_CI=
unset GEMINI_API_KEY GOOGLE_API_KEY OPENAI_API_KEY GEMINI_SESSION_ID

# One case: NAME, stdin file (or -), then the command line.
case_() {
    local name=$1 input=$2
    shift 2
    local dir="$out/$name"
    mkdir -p "$(dirname "$dir")"
    if [[ $input == - ]]; then input=/dev/null; fi
    (cd "$scratch" && timeout 20 "$@" <"$input" >"$dir.out" 2>"$dir.err")
    echo $? >"$dir.code"
    # Times and temporary folders differ between any two runs.
    sed -i -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z/<time>/g' \
        -e 's/"(duration_ms|elapsed_ms|ms)":[0-9]+/"\1":<n>/g' \
        -e "s#$scratch#<scratch>#g" -e "s#$repo#<repo>#g" "$dir.out" "$dir.err"
}

# viz-parse into viz-render; each writes its own stderr file, since two
# writers of one file (one truncating, one appending) overwrite each other.
pipe_() {
    local name=$1 file=$2
    shift 2
    mkdir -p "$(dirname "$out/$name")"
    (cd "$scratch" && timeout 20 "$bin/viz-parse" "$@" "$OLDPWD/$file" 2>"$out/$name.err" |
        "$bin/viz-render" --width 72 --color never >"$out/$name.out" 2>"$out/$name.render.err")
    echo "${PIPESTATUS[*]}" >"$out/$name.code"
    sed -i -e "s#$repo#<repo>#g" "$out/$name.out" "$out/$name.err" "$out/$name.render.err"
}

while IFS= read -r f; do
    key=${f#testdata/}
    key=${key//\//__}
    abs="$PWD/$f"
    for chart in auto bar line table; do
        case_ "parse/$key.$chart" - "$bin/viz-parse" --chart "$chart" "$abs"
    done
    case_ "parse/$key.grammar" - "$bin/viz-parse" --grammar "$abs"
    pipe_ "pipe/$key" "$f"
    case_ "render/$key.80" "$abs" "$bin/viz-render" --width 80 --color never
    case_ "render/$key.40c" "$abs" "$bin/viz-render" --width 40 --color always
    case_ "render/$key.ascii" "$abs" "$bin/viz-render" --width 60 --ascii --color never
    case_ "render/$key.md" "$abs" "$bin/viz-render" --format markdown
    case_ "render/$key.vl" "$abs" "$bin/viz-render" --format vega-lite
    case_ "render/$key.gh" "$abs" "$bin/viz-render" --format github --width 80
    mkdir -p "$scratch/svg" && rm -f "$scratch"/svg/*
    case_ "render/$key.svg" "$abs" "$bin/viz-render" --format svg --output-dir "$scratch/svg"
    cat "$scratch"/svg/* >"$out/render/$key.svg.files" 2>/dev/null
    case_ "topic/$key.summary" "$abs" "$bin/topic-tag" --summary=table
    case_ "topic/$key.title" "$abs" "$bin/topic-tag" -i - Build
    case_ "topic/$key.wrap" "$abs" "$bin/topic-tag" --wrap --split '^==> ' --error '(?i)error' --summary
done < <(find testdata -type f | LC_ALL=C sort)

# gem-ask replays, each in a session folder of its own.
for f in $(find testdata -name '*.replay' | LC_ALL=C sort); do
    key=${f#testdata/}
    key=${key//\//__}
    for mode in jsonl text; do
        rm -rf "$scratch/xdg" && mkdir -p "$scratch/xdg"
        XDG_DATA_HOME="$scratch/xdg" XDG_CONFIG_HOME="$scratch/xdg" GEMINI_SESSION_ID=same \
            case_ "ask/$key.$mode" - "$bin/gem-ask" --replay "$PWD/$f" --output "$mode" \
            --color never --width 80 "Fastest 3 BMW models, compare 0-60 in a chart"
    done
done
echo "outputs of $(find "$out" -name '*.code' | wc -l) cases in $out"
