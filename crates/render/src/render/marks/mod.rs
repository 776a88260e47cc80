//! Chart marks, a file each: what one mark means in every output format.
//! Two vocabularies share the folder: the marks of the plot grammar
//! (`ui` charts: [`GrammarMark`], one per [`MarkKind`]) and the kinds of
//! the quick `visualization` chart ([`ChartKind`], one per [`ChartType`]).
//! A file may hold both (`line.rs`: the line chart and the line mark).
//!
//! What each format asks of a mark:
//! - the terminal and SVG draw the same pictures: a grammar mark adds its
//!   layers to the shared axes ([`Layers`]), or lays out the whole chart
//!   its own way ([`WholeChart`]: sectors, bars over categories); a quick
//!   chart draws itself in the terminal and says what SVG draws ([`Body`]);
//! - Vega-Lite: a grammar mark writes its layers ([`VegaLayers`]), a
//!   quick chart its spec body;
//! - Markdown: what a mermaid `xychart` can make of it ([`Xy`], [`Mermaid`]).
//!
//! The formats' own code (`grammar/`, `chart.rs`, `svg/`, `vegalite/`,
//! `gfm/`) reaches a mark only through [`of`] and [`chart`], the one place
//! marks are registered. Adding a mark is a file here and a line there;
//! a grammar mark also takes its name and its checks in
//! `spec::grammar::MARKS`, a quick chart its `ChartType` (the spec layer
//! sits below this one and validates without drawing).

mod area;
mod bar;
mod bars;
mod boxplot;
mod heatmap;
mod hist;
mod layers;
mod line;
mod panels;
mod point;
mod rectangle;
mod rule;
mod sector;
mod spark;
mod table;
mod trend;
mod vega;

use serde_json::Value;

use super::RenderOptions;
use super::bar::Row;
use super::plot::Plot;
use crate::spec::boxplot::BoxStats;
use crate::spec::grammar::{ChartSpec, Mark, MarkKind};
use crate::spec::{Chart, ChartType};

pub(crate) use boxplot::value_scale as box_scale;
pub(crate) use heatmap::Grid as HeatGrid;
pub(crate) use layers::{Layers, build as layered_plot, groups};
pub(crate) use panels::charts as own_charts;
pub(crate) use table::spark_column;
pub(crate) use trend::{notes as drawing_notes, vega_lite as drawing_vega_lite};
pub(crate) use vega::{VegaLayers, iso_utc, nonblank, titled};

/// The grammar mark of a kind: the one registry of them.
pub(crate) fn of(kind: MarkKind) -> &'static dyn GrammarMark {
    match kind {
        MarkKind::Line => &line::Line,
        MarkKind::Area => &area::Area,
        MarkKind::Point => &point::Point,
        MarkKind::Bar => &bar::Bar,
        MarkKind::Rectangle => &rectangle::Rectangle,
        MarkKind::Rule => &rule::Rule,
        MarkKind::Sector => &sector::Sector,
        MarkKind::Rect => &heatmap::Rect,
        MarkKind::Boxplot => &boxplot::BoxMark,
    }
}

/// Bars of a quick bar chart or histogram in the terminal on a value
/// scale that reaches `extent` too: small multiples' shared scale.
pub(crate) fn bars_within(
    chart: &Chart,
    extent: &[f64],
    opts: &RenderOptions,
    lines: &mut Vec<String>,
) {
    if chart.series.len() > 1 && chart.chart_type == ChartType::Bar {
        return bars::terminal_within(chart, extent, opts, lines);
    }
    super::bar::render_within(chart, extent, opts, lines);
}

/// The quick chart of a type: the one registry of them.
pub(crate) fn chart(kind: ChartType) -> &'static dyn ChartKind {
    match kind {
        ChartType::Bar => &bar::Bar,
        ChartType::Line => &line::Line,
        ChartType::Table => &table::Table,
        ChartType::Point => &point::Point,
        ChartType::Hist => &hist::Hist,
        ChartType::Heatmap => &heatmap::Heatmap,
        ChartType::Box => &boxplot::BoxPlot,
        ChartType::Spark => &spark::Spark,
    }
}

/// What a mark of the plot grammar means in each format.
pub(crate) trait GrammarMark: Sync {
    /// Draws nothing without rows (a rule or a band at constants does).
    fn needs_rows(&self) -> bool {
        true
    }

    /// Draws data: in Vega-Lite each such mark gets a legend entry when
    /// several share a chart.
    fn draws_data(&self) -> bool {
        true
    }

    /// Sits on the x and y axes (a sector does not).
    fn on_axes(&self) -> bool {
        true
    }

    /// Drawn behind the other marks (a shaded band).
    fn behind(&self) -> bool {
        false
    }

    /// A layout of the whole chart this mark asks for when it is on it,
    /// instead of every mark on shared axes.
    fn whole_chart(&self, _spec: &ChartSpec) -> Option<&'static dyn WholeChart> {
        None
    }

    /// A chart of its own (`Takes::own_chart`: a heatmap, a box plot):
    /// the quick chart it equals, drawn by that chart's kind in the
    /// terminal, SVG and Markdown (`panels.rs`).
    fn chart_of(&self, _spec: &ChartSpec, _m: &Mark) -> Option<Chart> {
        None
    }

    /// Terminal and SVG: its layers on the shared axes.
    fn layers(&self, b: &mut Layers, m: &Mark);

    /// Vega-Lite: its layers, in drawing order.
    fn vega_lite(&self, p: &mut VegaLayers, m: &Mark, out: &mut Vec<Value>);

    /// Vega-Lite: a number x axis (`x`) or y axis must start at zero for
    /// this mark: its length along it is its value.
    fn vega_zero(&self, _spec: &ChartSpec, _m: &Mark, _x: bool) -> bool {
        false
    }

    /// Mermaid: what an xychart can make of it.
    fn mermaid(&self) -> Xy {
        Xy::Refused
    }
}

/// A grammar chart laid out by one mark's rule (shares of a whole, bars
/// over categories as rows) in the terminal and SVG.
pub(crate) trait WholeChart: Sync {
    /// Draws the chart's body; what cannot be placed goes to `notes`.
    fn terminal(
        &self,
        spec: &ChartSpec,
        opts: &RenderOptions,
        lines: &mut Vec<String>,
        notes: &mut Vec<String>,
    );

    /// What SVG draws.
    fn picture(&self, spec: &ChartSpec) -> Picture;
}

/// What a kind of quick chart (`visualization` events) means in each format.
pub(crate) trait ChartKind: Sync {
    /// Draws the chart's body in the terminal (it has points).
    fn terminal(&self, chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>);

    /// What SVG draws.
    fn picture(&self, chart: &Chart) -> Body;

    /// The Vega-Lite spec's body: data, mark, encoding (the title is
    /// the exporter's).
    fn vega_lite(&self, chart: &Chart) -> Value;

    /// What a mermaid xychart makes of it.
    fn mermaid(&self, chart: &Chart) -> Mermaid;

    /// SVG: the legend's names, when its body does not carry them (a
    /// plot's legend is its own).
    fn legend(&self, chart: &Chart) -> Vec<String> {
        if chart.series.len() > 1 {
            chart.series.iter().map(|s| s.name.clone()).collect()
        } else {
            Vec::new()
        }
    }

    /// Markdown of its own, when mermaid has no such chart and its data
    /// table would not say it (sparklines); `None`: mermaid or the data.
    fn markdown(&self, _chart: &Chart) -> Option<String> {
        None
    }

    /// The plot it draws on a pair of axes, when it draws one: small
    /// multiples with shared scales give every panel the same axes.
    fn plot(&self, _chart: &Chart, _ascii: bool) -> Option<Plot> {
        None
    }
}

/// What SVG draws of a chart, and what it says beside it.
pub(crate) struct Picture {
    pub body: Body,
    /// Series names for the legend (none for one series).
    pub legend: Vec<String>,
    pub notes: Vec<String>,
}

/// The body of an SVG chart, by layout.
pub(crate) enum Body {
    /// Marks on a pair of axes.
    Plot(Plot),
    /// Horizontal bars, one row each, with their values: the value
    /// axis' title, the categories' title, the unit, and the value
    /// scale when not linear (bars from its floor), and values the scale
    /// reaches besides the rows' (small multiples' shared scale).
    Bars {
        rows: Vec<Row>,
        value_title: Option<String>,
        category: Option<String>,
        unit: Option<String>,
        scale: Option<crate::spec::ScaleType>,
        extent: Vec<f64>,
    },
    /// Bars of several series end to end, one row per label, each with
    /// its total: the value axis' title, the categories' title, the unit.
    Stacked {
        rows: Vec<super::bar::StackRow>,
        value_title: Option<String>,
        category: Option<String>,
        unit: Option<String>,
    },
    /// Shares of a whole: (category, positive amount) in order.
    Shares {
        parts: Vec<(String, f64)>,
        unit: Option<String>,
    },
    /// Two columns of text: the labels' and the values' headers.
    Table {
        header: (String, String),
        rows: Vec<(String, f64)>,
    },
    /// A grid of coloured cells: the columns' and rows' names, each
    /// row's cells (the value as written, its colour; none: empty), the
    /// colour scale (its title, its ends' values, its colours from the
    /// smallest up) and the titles across and down.
    Grid {
        columns: Vec<String>,
        rows: Vec<String>,
        cells: Vec<Vec<GridCell>>,
        scale: ColourScale,
        titles: (Option<String>, Option<String>),
    },
    /// A box per group, a row each on one value axis: the value axis'
    /// title, the groups' title, the unit.
    Boxes {
        groups: Vec<(String, BoxStats)>,
        value_title: Option<String>,
        category: Option<String>,
        unit: Option<String>,
    },
    /// Charts of their own side by side, each with its title (a grammar
    /// chart's `rect` and `boxplot` marks).
    Panels(Vec<(Option<String>, Body)>),
    /// Nothing to draw.
    NoData,
}

/// A colour as red, green, blue.
pub(crate) type Rgb = (u8, u8, u8);

/// A cell of a [`Body::Grid`]: its value as written and its colour; none
/// for an empty cell.
pub(crate) type GridCell = Option<(String, Rgb)>;

/// A colour scale: its title, the values at its ends as written, its
/// colours from the smallest value up.
pub(crate) struct ColourScale {
    pub title: Option<String>,
    pub lo: String,
    pub hi: String,
    pub colours: Vec<Rgb>,
}

/// What a mermaid xychart makes of a grammar mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Xy {
    /// One plot per series over the x categories: bars or a line.
    Plot { bar: bool },
    /// A flat line at a constant on the value axis.
    Rule,
    /// Nothing it can draw faithfully.
    Refused,
}

/// What a mermaid xychart makes of a quick chart.
pub(crate) enum Mermaid {
    /// Plots over these categories: horizontal bars (`bars`; one series'
    /// values in its own order), else lines over the categories.
    Xy { categories: Vec<String>, bars: bool },
    /// Bars stacked end to end over these categories (to 100% when
    /// `shares`): each series' running total overlaid, the longest first,
    /// as xychart draws the bars of several plots on top of each other.
    Stacked {
        categories: Vec<String>,
        shares: bool,
    },
    /// Shown as its data: a table needs no reason.
    Table,
    /// Shown as its data, because mermaid has no such chart (its name).
    Refused(&'static str),
}
