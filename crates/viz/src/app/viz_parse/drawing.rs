//! viz-parse's drawing flags (`--stack`, `--scale`, `--x-scale`,
//! `--trend`) resolved into the engine's [`spec::Drawing`], and the
//! combinations they cannot take.

use super::OptionsError;
use super::args::{ChartArg, ScaleArg, StackArg, TrendArg, VizParseArgs};
use crate::parse::ParseOptions;
use crate::spec::{self, ChartType, ScaleType, SparkRows, Stack, TrendMethod};

/// `--stack` without `--chart` asks for bars.
pub(super) fn default_chart(opts: &mut ParseOptions) {
    if opts.chart.is_none() && opts.drawing.stack.is_some() {
        opts.chart = Some(ChartType::Bar);
    }
}

/// The drawing the flags ask for; a usage error where it cannot apply.
pub(super) fn drawing(args: &VizParseArgs) -> Result<spec::Drawing, OptionsError> {
    let scale = |s: ScaleArg| match s {
        ScaleArg::Linear => ScaleType::Linear,
        ScaleArg::Log => ScaleType::Log,
        ScaleArg::Sqrt => ScaleType::Sqrt,
    };
    let d = spec::Drawing {
        stack: args.stack.map(|s| match s {
            StackArg::Zero => Stack::Zero,
            StackArg::Normalize => Stack::Normalize,
        }),
        y_scale: args.scale.map(scale),
        x_scale: args.x_scale.map(scale),
        trend: args.trend.map(|t| match t {
            TrendArg::Linear => TrendMethod::Linear,
            TrendArg::Loess => TrendMethod::Loess,
        }),
        // A long table's series are its rows; a wide one's rows are.
        spark: args.spark.then_some(if args.series.is_some() {
            SparkRows::Series
        } else {
            SparkRows::Rows
        }),
    };
    if d == spec::Drawing::default() {
        return Ok(d);
    }
    let no = |m: &str| Err(OptionsError::Combination(m.to_string()));
    if args.grammar || args.follow {
        return no(
            "--stack, --scale, --x-scale and --trend draw a chart of viz-parse's own (not --grammar or --follow)",
        );
    }
    let chart = args.chart;
    if d.spark.is_some() && chart != Some(ChartArg::Table) {
        return no("--spark adds a column of sparklines to --chart table");
    }
    if d.stack.is_some() && chart.is_some_and(|c| c != ChartArg::Bar) {
        return no("--stack goes with --chart bar (several series: -s COLUMN or several -y)");
    }
    if d.trend.is_some() && chart.is_some_and(|c| !matches!(c, ChartArg::Point | ChartArg::Line)) {
        return no("--trend goes over --chart point or --chart line");
    }
    if d.stack.is_some() && d.y_scale.is_some_and(|s| s != ScaleType::Linear) {
        return no("stacked bars add lengths end to end: leave out --scale or --stack");
    }
    Ok(d)
}
