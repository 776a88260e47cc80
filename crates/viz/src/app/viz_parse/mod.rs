//! viz-parse's front: its flags ([`args`]), the checks on them that are
//! usage errors, and the [`RunOptions`] they resolve to, which the parse
//! engine ([`crate::parse::run`]) runs.

pub mod args;
mod drawing;

use clap::ArgMatches;

use crate::parse::number::Decimal;
use crate::parse::transform::{
    AggregateOp, Calculate, CalculateError, DEFAULT_BINS, Filter, FilterError, Fold, FoldError,
    TransformOptions,
};
use crate::parse::{
    FollowOptions, GrammarOptions, ParseOptions, Reference, ReferenceError, RunOptions,
};
use crate::spec::grammar::MarkKind;
use crate::spec::{self, ChartType, Reduction, Sort};
use crate::term;

pub use args::VizParseArgs as Args;
use args::{
    ChartArg, DownsampleArg, FacetScalesArg, KeepArg, MarkArg, SortArg, VizParseArgs, XAxis,
};

/// Runs viz-parse; the value is the exit code. `matches` places each
/// `--mark` beside the `-y` it follows.
pub fn run(args: Args, matches: &ArgMatches) -> anyhow::Result<u8> {
    one_malloc_arena();
    let marks = args.pair_marks(matches)?;
    let parse =
        options(&args, &marks).map_err(|e| term::coded(term::exit::USAGE, e.to_string()))?;
    if let Some(n) = parse.max_points
        && n > spec::HARD_MAX_POINTS
    {
        term::diag(format!(
            "viz-parse: warning: --max-points {n} is above the cap; using {}",
            spec::HARD_MAX_POINTS
        ));
    }
    crate::parse::run(RunOptions {
        inputs: args.inputs,
        parse,
    })
}

/// One malloc arena for all of viz-parse's threads. glibc gives each
/// thread that allocates an arena of its own, and memory freed in one is
/// kept there: the runs of a large input are filled on the reading
/// threads and handed back to this one, so each arena kept its own copy
/// of the buffers in flight (0.2-0.5 MiB resident a thread on a 1M-row
/// file). The reading threads allocate only when a run outgrows its
/// buffers, so they hardly ever wait on the shared arena's lock.
fn one_malloc_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt sets a malloc parameter, under malloc's own lock;
    // no memory is touched.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Flags that cannot be run: a usage error.
#[derive(Debug, thiserror::Error)]
pub enum OptionsError {
    #[error("--delimiter {0:?}: use one ASCII character such as , ; | or a tab")]
    Delimiter(char),
    #[error(
        "--max-points {0}: a chart keeps 2 to {max} points a series (more is capped at {max})",
        max = spec::HARD_MAX_POINTS
    )]
    MaxPoints(usize),
    #[error("--extract: {0}")]
    Extract(regex::Error),
    /// A `--rule` or `--band`.
    #[error(transparent)]
    Reference(#[from] ReferenceError),
    /// A `--filter`.
    #[error(transparent)]
    Filter(#[from] FilterError),
    /// A `--calculate`.
    #[error(transparent)]
    Calculate(#[from] CalculateError),
    /// A `--fold` or `--fold-as`.
    #[error(transparent)]
    Fold(#[from] FoldError),
    /// Flags that do not go together.
    #[error("{0}")]
    Combination(String),
}

/// The parser options the flags ask for; `marks` is the `--mark` of each
/// `-y` ([`VizParseArgs::pair_marks`]).
pub fn options(
    args: &VizParseArgs,
    marks: &[Option<MarkArg>],
) -> Result<ParseOptions, OptionsError> {
    let delimiter = match args.delimiter {
        None => None,
        Some('t') => Some(b'\t'),
        Some(c) if c.is_ascii() && c != '"' && c != '\n' && c != '\r' => Some(c as u8),
        Some(c) => {
            return Err(OptionsError::Delimiter(c));
        }
    };
    if let Some(n) = args.max_points
        && n < 2
    {
        return Err(OptionsError::MaxPoints(n));
    }
    let mut opts = ParseOptions {
        format: args.format,
        chart: args.chart.map(|c| match c {
            ChartArg::Bar => ChartType::Bar,
            ChartArg::Line => ChartType::Line,
            ChartArg::Table => ChartType::Table,
            ChartArg::Point => ChartType::Point,
            ChartArg::Hist => ChartType::Hist,
            ChartArg::Heatmap => ChartType::Heatmap,
            ChartArg::Box => ChartType::Box,
            ChartArg::Spark => ChartType::Spark,
        }),
        title: args.title.clone(),
        subtitle: args.subtitle.clone(),
        x_label: args.x_label.clone(),
        y_label: args.y_label.clone(),
        unit: args.unit.clone(),
        sort: args.sort.map(|s| match s {
            SortArg::None => Sort::None,
            SortArg::Asc => Sort::Asc,
            SortArg::Desc => Sort::Desc,
        }),
        max_points: args.max_points,
        keep: args.keep.map(|k| match k {
            KeepArg::Top => Reduction::Top,
            KeepArg::First => Reduction::First,
            KeepArg::Last => Reduction::Last,
        }),
        downsample: args.downsample.map(|d| match d {
            DownsampleArg::Even => Reduction::Even,
            DownsampleArg::Minmax => Reduction::Minmax,
            DownsampleArg::Lttb => Reduction::Lttb,
        }),
        label: args.label.clone(),
        values: args.values.clone(),
        series: args.series.clone(),
        header: if args.header {
            Some(true)
        } else if args.no_header {
            Some(false)
        } else {
            None
        },
        delimiter,
        decimal: match args.decimal.as_deref() {
            Some(",") => Some(Decimal::Comma),
            Some(_) => Some(Decimal::Point),
            None => None,
        },
        dates: args.dates,
        strict: args.strict,
        threads: args.threads.map(usize::from),
        grammar: grammar_options(args, marks)?,
        follow: follow_options(args)?,
        transform: transform_options(args)?,
        drawing: drawing::drawing(args)?,
        facet: args.facet.as_ref().map(|field| crate::parse::FacetOptions {
            field: field.clone(),
            columns: args.facet_columns.map(usize::from),
            scales: match args.facet_scales {
                FacetScalesArg::Shared => crate::spec::FacetScales::Shared,
                FacetScalesArg::Free => crate::spec::FacetScales::Free,
            },
        }),
    };
    drawing::default_chart(&mut opts);
    Ok(opts)
}

fn transform_options(args: &VizParseArgs) -> Result<TransformOptions, OptionsError> {
    let filters = args
        .filter
        .iter()
        .map(|f| Filter::parse(f))
        .collect::<Result<Vec<_>, _>>()?;
    let hist = args.chart == Some(ChartArg::Hist);
    let heatmap = args.chart == Some(ChartArg::Heatmap);
    if args.bins.is_some() && !hist && !heatmap {
        return Err(OptionsError::Combination(
            "--bins goes with --chart hist or --chart heatmap".into(),
        ));
    }
    if hist && (args.aggregate.is_some() || args.time_unit.is_some()) {
        return Err(OptionsError::Combination(
            "--chart hist counts the rows in each bin; leave out --aggregate and --time-unit"
                .into(),
        ));
    }
    if args.chart == Some(ChartArg::Point) && (args.aggregate.is_some() || args.time_unit.is_some())
    {
        return Err(OptionsError::Combination(
            "--chart point draws every row; leave out --aggregate and --time-unit (or chart them \
             as a line)"
                .into(),
        ));
    }
    let calculate = args
        .calculate
        .iter()
        .map(|c| Calculate::parse(c))
        .collect::<Result<Vec<_>, _>>()?;
    let fold = match &args.fold {
        Some(f) => Some(Fold::parse(f, args.fold_as.as_deref())?),
        None => None,
    };
    let derived = !calculate.is_empty() || fold.is_some();
    if derived && (args.grammar || args.follow) {
        return Err(OptionsError::Combination(
            "--calculate and --fold go with a chart of a table, not --grammar or --follow".into(),
        ));
    }
    if args.normalize.is_some() && !heatmap {
        return Err(OptionsError::Combination(
            "--normalize goes with --chart heatmap".into(),
        ));
    }
    if args.chart == Some(ChartArg::Box) && (args.aggregate.is_some() || args.time_unit.is_some()) {
        return Err(OptionsError::Combination(
            "--chart box draws every -y value of each group; leave out --aggregate and \
             --time-unit"
                .into(),
        ));
    }
    // A heatmap without -y counts its cells' rows.
    let counts = heatmap && args.values.is_empty() && args.aggregate.is_none();
    Ok(TransformOptions {
        calculate,
        fold,
        row: false,
        filters,
        aggregate: args.aggregate.or(counts.then_some(AggregateOp::Count)),
        normalize: args.normalize,
        time_unit: args.time_unit,
        bins: match hist {
            true => Some(args.bins.map_or(DEFAULT_BINS, usize::from)),
            // A heatmap's numeric axes: each its own default without it.
            false => args.bins.map(usize::from),
        },
        max_groups: args.max_groups.map(|n| n as usize),
    })
}

fn follow_options(args: &VizParseArgs) -> Result<Option<FollowOptions>, OptionsError> {
    if !args.follow {
        return Ok(None);
    }
    if let Some(re) = &args.extract {
        regex::Regex::new(re).map_err(OptionsError::Extract)?;
    }
    Ok(Some(FollowOptions {
        interval: args.interval,
        window: args.window.map(|w| w as usize),
        rate: args.rate,
        clock: args.x_axis == XAxis::Time,
        extract: args.extract.clone(),
        columns: args.columns.iter().map(|c| c.trim().to_string()).collect(),
        id: args.id.clone(),
    }))
}

fn grammar_options(
    args: &VizParseArgs,
    marks: &[Option<MarkArg>],
) -> Result<Option<GrammarOptions>, OptionsError> {
    if !args.grammar {
        return Ok(None);
    }
    let refs = args
        .rule
        .iter()
        .map(|r| Reference::parse(r, false))
        .chain(args.band.iter().map(|b| Reference::parse(b, true)))
        .collect::<Result<Vec<_>, _>>()?;
    let marks = (0..args.values.len())
        .map(|i| {
            marks.get(i).copied().flatten().map(|m| match m {
                MarkArg::Line => MarkKind::Line,
                MarkArg::Area => MarkKind::Area,
                MarkArg::Point => MarkKind::Point,
                MarkArg::Bar => MarkKind::Bar,
            })
        })
        .collect();
    Ok(Some(GrammarOptions { marks, refs }))
}
