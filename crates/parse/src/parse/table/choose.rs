//! Which columns a table's chart takes: as `-x`/`-y`/`-s` name them, or,
//! with none of them, the chart a person would make of it (`auto`), else
//! a label from the sample and the first column of amounts. What each
//! column holds is `columns`'s; the plan built on the choice is `table`'s.

use crate::spec::ChartType;

use super::super::rows::{Loc, Names, OwnedRow, Warner};
use super::super::transform::AggregateOp;
use super::super::{ParseError, ParseOptions, examples_error};
use super::{Stat, auto, columns, doubts, resolve, roles, stats};

/// The columns [`super::plan`] chose: every column's name (made up where the
/// input has none), and which label, values and series.
pub(super) struct Columns {
    pub(super) list: Vec<String>,
    pub(super) width: usize,
    pub(super) label: Option<usize>,
    pub(super) values: Vec<usize>,
    pub(super) series: Option<usize>,
    /// An aggregate the automatic choice asks for.
    pub(super) aggregate: Option<AggregateOp>,
    /// The chart kind the automatic choice asks for.
    pub(super) chart: Option<ChartType>,
    /// A time unit the automatic choice asks for.
    pub(super) time_unit: Option<crate::parse::transform::TimeUnit>,
    /// The bars' order the automatic choice asks for.
    pub(super) sort: Option<crate::spec::Sort>,
}

/// The label, value and series columns: as `-x`/`-y`/`-s` say; with none
/// of them, the chart a person would make of the table ([`auto`], said
/// once); else the label chosen from the sample (dates or years first,
/// said when another could be) and the first column of amounts (no
/// identifier, year or code) as the value.
pub(super) fn choose_columns(
    names: &Names,
    sample: &[(OwnedRow, Loc)],
    what: &str,
    opts: &ParseOptions,
    warn: &mut Warner,
) -> Result<Columns, ParseError> {
    let width = sample
        .iter()
        .map(|(r, _)| r.len())
        .max()
        .unwrap_or(0)
        .max(names.list.len());
    let mut list = names.list.clone();
    for i in list.len()..width {
        list.push(format!("column {}", i + 1));
    }
    let st = stats(sample, width);
    let mut profile = columns::profile(&list, sample);
    roles::assign(&list, sample, &mut profile);
    let calc = calculated(&list, opts);
    let choice = if auto::applies(opts, names.real) {
        auto::choose(&list, sample, &profile, what, calc)?
    } else {
        None
    };
    if let Some(choice) = choice {
        let mut choice = auto::score::review(&list, &profile, choice);
        if let (Some(c), Some(note)) = (calc, choice.note.as_mut())
            && choice.values.contains(&c)
        {
            note.push_str(&format!(
                "; {:?} is the column --calculate made, so it is the value",
                list[c]
            ));
        }
        return Ok(chosen_columns(choice, list, &st, sample, opts, warn));
    }

    let (explicit_label, mut values, series) = flagged_columns(&list, opts)?;
    // Dates or years make the x a person reads first; a column mostly
    // empty labels nothing.
    let ordered = auto::ordered_x(&profile, values.first().copied())
        .filter(|x| Some(*x) != series && !values.contains(x) && !values.is_empty());
    let label = match explicit_label {
        Some(l) => Some(l),
        None => ordered.or_else(|| {
            let sparse: Vec<usize> = (0..width).filter(|&i| profile[i].sparse).collect();
            let mut taken = values.clone();
            taken.extend(&sparse);
            doubts::choose_label(&list, &st, series, &taken)
        }),
    };
    // A count needs no values: it counts rows.
    let counting = opts.transform.aggregate == Some(AggregateOp::Count);
    if values.is_empty() && !counting {
        let v = auto::first_value(&profile, &[series, label])
            .into_iter()
            .chain((0..width).filter(|i| Some(*i) != series && Some(*i) != label))
            .find(|&i| st[i].numeric())
            .ok_or_else(|| no_amounts(&list, what, sample.len()))?;
        values.push(v);
    }
    // A histogram's bins need no labels: nothing to say about them.
    if explicit_label.is_none()
        && opts.chart != Some(ChartType::Hist)
        && let Some(l) = label
        && let Some(note) = doubts::label_note(&list, &st, sample, l, series, &values)
    {
        warn.note(note);
    }
    Ok(Columns {
        list,
        width,
        label,
        values,
        series,
        aggregate: None,
        chart: None,
        time_unit: None,
        sort: None,
    })
}

/// The column the last `--calculate` made (none after a fold, which
/// charts its own value): a user who computed it wants it drawn, so the
/// automatic choice takes it as the value.
fn calculated(list: &[String], opts: &ParseOptions) -> Option<usize> {
    if opts.transform.fold.is_some() {
        return None;
    }
    let c = opts.transform.calculate.last()?;
    list.iter().position(|n| *n == c.name)
}

/// The label, value and series columns the flags name.
type Flagged = (Option<usize>, Vec<usize>, Option<usize>);

/// The columns `-x`, `-y` and `-s` name: the label, the values, the
/// series; a series beside several values is a usage error.
fn flagged_columns(list: &[String], opts: &ParseOptions) -> Result<Flagged, ParseError> {
    let series = opts
        .series
        .as_deref()
        .map(|r| resolve(list, r, "--series"))
        .transpose()?;
    let label = opts
        .label
        .as_deref()
        .map(|r| resolve(list, r, "--label"))
        .transpose()?;
    let values = opts
        .values
        .iter()
        .map(|r| resolve(list, r, "--value"))
        .collect::<Result<Vec<_>, _>>()?;
    if series.is_some() && values.len() > 1 {
        return Err(ParseError::Usage(
            "--series takes one --value column (the series come from the --series column)".into(),
        ));
    }
    Ok((label, values, series))
}

/// The columns the automatic choice made, its note said (and the label's
/// doubt, for a plain chart of one value).
fn chosen_columns(
    choice: auto::Choice,
    list: Vec<String>,
    st: &[Stat],
    sample: &[(OwnedRow, Loc)],
    opts: &ParseOptions,
    warn: &mut Warner,
) -> Columns {
    let plain_label = choice.note.is_none() && choice.values.len() == 1;
    if plain_label
        && opts.chart != Some(ChartType::Hist)
        && let Some(l) = choice.label
        && let Some(note) = doubts::label_note(&list, st, sample, l, choice.series, &choice.values)
    {
        warn.note(note);
    }
    if let Some(note) = choice.note {
        warn.note(note);
    }
    Columns {
        width: list.len(),
        list,
        label: choice.label,
        values: choice.values,
        series: choice.series,
        aggregate: choice.aggregate,
        chart: choice.chart,
        time_unit: choice.time_unit,
        sort: choice.sort,
    }
}

/// No column of numbers in the sample of `rows` rows: the columns named.
fn no_amounts(list: &[String], what: &str, rows: usize) -> ParseError {
    let width = list.len();
    let seen = if width == 0 {
        format!("{what} with no columns")
    } else {
        format!(
            "{what} with {width} column{} ({}) but no column of numbers in the first {rows} rows",
            if width == 1 { "" } else { "s" },
            list.join(", "),
        )
    };
    examples_error(seen)
}
