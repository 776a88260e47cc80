"""Judges the charts benches/corpus.sh made: reads each file with pandas
and each chart event, and applies an analyst's rules (see corpus.sh's
header). Prints a row per file and the counts."""
import json, os, re, sys
import pandas as pd

out, root = sys.argv[1], sys.argv[2]
ID_NAMES = re.compile(r"(^|_|\b)(id|ids|rownames|index|unnamed.*|obs|case|row)$", re.I)
CODE_WORDS = {"seed", "dept", "department", "sex", "gender", "race", "treatment", "trt", "block",
              "subject", "batch", "litter", "region", "group", "class", "type", "status"}
WEIGHT = {"freq", "frequency", "n", "count", "counts", "number", "nobs"}


def field(title):
    """The column a title names: `mean(x)` -> x, `year(date)` -> date."""
    if title is None:
        return None
    m = re.fullmatch(r"\w+\((.*)\)", title)
    return m.group(1) if m else title


def identifier(df, c):
    s = df[c].dropna()
    if not pd.api.types.is_numeric_dtype(s):
        return False  # names of rows label them
    if "year" in str(c).lower() or s.between(1600, 2100).all():
        return False  # years are time
    if ID_NAMES.search(str(c)) or str(c).lower().endswith("id"):
        return True
    if pd.api.types.is_integer_dtype(s) and len(s) >= 20 and s.is_unique:
        d = s.diff().dropna()
        return bool((d == 1).all())
    return False


def code(df, c):
    s = df[c].dropna()
    if not pd.api.types.is_numeric_dtype(s) or len(s) < 4:
        return False
    whole = bool((s == s.round()).all())
    words = set(re.split(r"[^a-z0-9]+", str(c).lower()))
    return whole and (s.nunique() <= 2 or (words & CODE_WORDS and s.nunique() * 2 <= len(s)))


def weight(df, c):
    s = df[c].dropna()
    if str(c).lower() not in WEIGHT or not pd.api.types.is_numeric_dtype(s):
        return False
    others = [o for o in df.columns if o != c and o != "rownames"]
    num = [o for o in others if pd.api.types.is_float_dtype(df[o]) and df[o].nunique() > 12]
    return bool((s >= 0).all() and (s == s.round()).all() and not num and not df[others].duplicated().any())


def judge(df, ev, code_rc):
    if ev is None:
        has = any(pd.api.types.is_numeric_dtype(df[c]) for c in df.columns) or any(
            df[c].nunique() * 2 <= len(df) for c in df.columns)
        return ("G", "refused a table with something to chart") if has else ("S", "refused: nothing to chart")
    kind, x, y = ev.get("chartType"), ev.get("xLabel"), ev.get("yLabel")
    xf, yf = field(x), field(y)
    for role, col in (("x", xf), ("y", yf)):
        if col in df.columns and identifier(df, col) and not (role == "x" and kind == "line" and has_order(df, yf)):
            return "G", f"identifier {col!r} as {role}"
    # The mean of a 0/1 column is a share (a rate), not a code averaged;
    # its histogram is two bars that a person would not draw.
    flag = yf in df.columns and set(df[yf].dropna().unique()) <= {0, 1} and df[yf].nunique() == 2
    if flag and kind == "bar" and y.startswith("mean("):
        return "S", f"share of {yf!r} by {x}"
    if xf in df.columns and kind == "hist" and df[xf].nunique() == 2:
        return "P", f"histogram of a two-valued {xf!r}"
    if yf in df.columns and y != "count" and code(df, yf):
        return "G", f"code {yf!r} as the value"
    if xf in df.columns and kind in ("line", "point") and code(df, xf):
        return "G", f"code {xf!r} as a {kind}'s x"
    if yf in df.columns and weight(df, yf) and y.startswith("mean("):
        return "G", f"weight {yf!r} averaged"
    pts = [p for s in ev.get("series", [])[:1] for p in s.get("points", [])]
    if kind == "bar" and len(pts) > 2 and xf in df.columns:
        labels = [p.get("label") for p in pts]
        vals = [p.get("value") for p in pts]
        try:
            nums = [float(l) for l in labels]
            if nums != sorted(nums):
                return "P", "numeric groups out of order"
        except (TypeError, ValueError):
            ordinal = all(re.match(r"^[<>=+\-$ ]*\d", str(l)) for l in labels)
            if not ordinal and vals != sorted(vals, reverse=True) and ev.get("meta", {}).get("reduction") is None:
                return "P", "bars not largest first"
    meta = ev.get("meta", {})
    if kind == "line" and meta.get("truncated") and meta.get("reduction") in (None, "even"):
        return "P", f"line thinned to {len(pts)} of {meta.get('originalPointCount')} (peaks lost)"
    return "S", ""


def has_order(df, value):
    """A value that follows the row order (lag-1 autocorrelation >= 0.5)."""
    if value not in df.columns or not pd.api.types.is_numeric_dtype(df[value]):
        return False
    s = df[value].dropna()
    return len(s) >= 20 and s.autocorr() >= 0.5


counts = {"S": 0, "P": 0, "G": 0}
for b in sorted(f for f in os.listdir(root) if not f.startswith(".")):
    try:
        df = pd.read_csv(os.path.join(root, b), encoding_errors="replace", low_memory=False)
    except Exception as e:
        print(f"{b:45} unreadable by pandas: {e}")
        continue
    ev = None
    for line in open(os.path.join(out, b + ".json"), errors="replace"):
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if e.get("type") == "visualization":
            ev = e
            break
    rc = open(os.path.join(out, b + ".code")).read().strip()
    v, why = judge(df, ev, rc)
    counts[v] += 1
    chart = "refused" if ev is None else f"{ev.get('chartType')} {ev.get('xLabel')} | {ev.get('yLabel')}"
    print(f"{b[:45]:45} {chart[:55]:55} {v} {why}")
total = sum(counts.values())
print(f"{total} files: {counts['S']} sensible ({100 * counts['S'] // max(total, 1)}%), "
      f"{counts['P']} partly, {counts['G']} wrong")
