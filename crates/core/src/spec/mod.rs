//! The chart spec: the `visualization` event's body and the
//! `render_visualization` argument object, with their validation and
//! normalization (finite values, string labels, sorting, point limits).
//!
//! Pure: no I/O. Parsers feed points into a [`reduce::Reducer`], which keeps
//! memory bounded by the point limit whatever the input size, and the
//! renderers only ever see a normalized [`Chart`].

pub mod boxplot;
mod drawing;
pub mod grammar;
pub mod heatbins;
mod options;
pub mod order;
pub mod reduce;

pub use drawing::{Drawing, Fit, ScaleType, SparkRows, Stack, Trend, TrendMethod, trend_fits};
pub use heatbins::{BinAxis, HeatBins};
pub use options::{ArgOptions, OptionError, describe_value, enum_field, options_from_args};

use serde::{Deserialize, Serialize};

/// Default and hard cap of points per series (the render_visualization
/// design's volume rules).
pub const DEFAULT_MAX_POINTS: usize = 30;
pub const HARD_MAX_POINTS: usize = 200;

/// The kinds of quick chart. What each one draws in every output format
/// is its file in `render/marks/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ChartType {
    #[default]
    Bar,
    Line,
    Table,
    /// A scatter: points at (`x`, value), binned with a `count` when many.
    Point,
    /// A histogram: one bar per bin `x`..`x2`, its value the rows in it.
    Hist,
    /// A heatmap: a series per row category, a point per column category
    /// (its label), the cell's value (a count, or an aggregate).
    Heatmap,
    /// A box plot: a series per group, its points the five numbers and
    /// the outliers ([`boxplot`]).
    Box,
    /// Sparklines: one row per series (or `-s` group), its points in
    /// order drawn as a small line, with its last value, min and max.
    Spark,
}

impl ChartType {
    pub fn as_str(self) -> &'static str {
        match self {
            ChartType::Bar => "bar",
            ChartType::Line => "line",
            ChartType::Table => "table",
            ChartType::Point => "point",
            ChartType::Hist => "hist",
            ChartType::Heatmap => "heatmap",
            ChartType::Box => "box",
            ChartType::Spark => "spark",
        }
    }

    /// The kinds the render_visualization tool takes (`chartType`).
    pub fn parse(s: &str) -> Option<ChartType> {
        match s.trim().to_ascii_lowercase().as_str() {
            "bar" => Some(ChartType::Bar),
            "line" => Some(ChartType::Line),
            "table" => Some(ChartType::Table),
            "heatmap" => Some(ChartType::Heatmap),
            "box" => Some(ChartType::Box),
            "spark" => Some(ChartType::Spark),
            "point" | "scatter" => Some(ChartType::Point),
            _ => None,
        }
    }

    /// Takes several series (a line per series, points coloured by
    /// series, bars grouped or stacked).
    pub fn several_series(self) -> bool {
        matches!(
            self,
            ChartType::Line
                | ChartType::Point
                | ChartType::Bar
                | ChartType::Heatmap
                | ChartType::Box
                | ChartType::Spark
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Sort {
    #[default]
    None,
    Asc,
    Desc,
    /// By label: groups named by numbers in numeric order (household size
    /// 1, 2, 3, ...), others alphabetically; what the automatic choice
    /// takes for numeric groups.
    Label,
}

/// Which points survive when there are more than the limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reduction {
    /// bar/table default: the N largest by absolute value, in input order.
    Top,
    /// The first N in input order.
    First,
    /// The last N in input order ("the last 5 years").
    Last,
    /// line default: evenly spaced, first and last always kept.
    Even,
    /// Per bucket the smallest and largest value: spikes survive.
    Minmax,
    /// Largest-triangle-three-buckets over a min/max pre-pass.
    Lttb,
}

impl Reduction {
    pub fn as_str(self) -> &'static str {
        match self {
            Reduction::Top => "top",
            Reduction::First => "first",
            Reduction::Last => "last",
            Reduction::Even => "even",
            Reduction::Minmax => "minmax",
            Reduction::Lttb => "lttb",
        }
    }

    /// The footer's words: "showing 30 of 1,204 points, {describe}".
    pub fn describe(self) -> &'static str {
        match self {
            Reduction::Top => "top by value",
            Reduction::First => "the first in input order",
            Reduction::Last => "the last in input order",
            Reduction::Even => "evenly sampled",
            Reduction::Minmax => "first, last, min and max per bucket",
            Reduction::Lttb => "largest-triangle sampled",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FallbackMode {
    Unicode,
    Ascii,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub label: String,
    pub value: f64,
    /// Where the point sits on a chart's x scale ([`Chart::x_type`]): a
    /// number, or a date as seconds since 1970-01-01T00:00:00Z. Absent:
    /// the label is a category.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    /// Where a bin ends on the x scale (a histogram's bar spans `x`..`x2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x2: Option<f64>,
    /// How many rows the point stands for (a scatter binned onto a grid).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
}

impl Point {
    /// A point known by its label alone (a category).
    pub fn new(label: impl Into<String>, value: f64) -> Point {
        Point {
            label: label.into(),
            value,
            x: None,
            x2: None,
            count: None,
        }
    }
}

/// What a chart's x positions are when they are values, not categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum XType {
    /// Numbers, placed by value.
    Number,
    /// Dates and times, placed in time (seconds since the epoch, UTC).
    Date,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    pub name: String,
    pub points: Vec<Point>,
    /// Our extension (docs/events.md): the value of [`Chart::facet`]'s
    /// field this series belongs to; its panel of the small multiples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facet: Option<String>,
}

/// Whether the panels of small multiples share their axes' scales.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum FacetScales {
    /// One x and one y scale over every panel, drawn once where shared.
    #[default]
    Shared,
    /// Each panel scaled to its own data.
    Free,
}

/// Small multiples: the chart drawn once per value of a field (issue 36),
/// each series saying its panel in [`Series::facet`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Facet {
    /// The column the panels are the values of (their common title).
    pub field: String,
    /// Panels a row; absent: as many as fit the width.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub columns: Option<usize>,
    #[serde(default)]
    pub scales: FacetScales,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Meta {
    pub truncated: bool,
    /// Points before reduction, summed over the series.
    pub original_point_count: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback_mode: Option<FallbackMode>,
    /// Our extension (docs/events.md): how points were dropped, so the
    /// renderer's footer can say so. Absent when nothing was dropped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduction: Option<Reduction>,
    /// Our extension (docs/events.md): a scatter binned onto a grid has
    /// cells this wide and high (in x and value units), each point the
    /// mean of a cell's rows: a renderer may fill the cell around it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell: Option<[f64; 2]>,
}

/// A normalized chart: what a `visualization` event carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Chart {
    pub chart_type: ChartType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x_label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y_label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// Our extension (docs/events.md): the points' `x` are values on this
    /// scale, so the chart is drawn to scale and in x order. Absent: the
    /// labels are categories in the order given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x_type: Option<XType>,
    pub series: Vec<Series>,
    #[serde(default)]
    pub meta: Meta,
    /// Our extension (docs/events.md): what viz-parse computed the points
    /// with, as Vega-Lite transforms whose output rows are the points
    /// (`label`, `value`, and `series`, `label_end` where they apply).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transform: Option<Vec<serde_json::Value>>,
    /// Our extension: the input rows the `transform` starts from, when
    /// they were few and every point they make is in the chart, so a
    /// Vega-Lite export computes the same points itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Vec<serde_json::Map<String, serde_json::Value>>>,
    /// Our extension (docs/events.md): several series of bars stacked
    /// (`zero`) or stacked to 100% (`normalize`); absent: side by side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<Stack>,
    /// Our extension: the value axis' scale (`log`, `sqrt`); absent: linear.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y_scale: Option<ScaleType>,
    /// Our extension: the x axis' scale, for x values that are numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x_scale: Option<ScaleType>,
    /// Our extension: a trend fitted through a scatter or a line, and
    /// its fit per series.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trend: Option<Trend>,
    /// Our extension (docs/events.md): what the series are, the column
    /// they come from (a heatmap's rows, a box plot's groups), for the
    /// axis or legend that names them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series_label: Option<String>,
    /// Our extension (docs/events.md): small multiples, one panel per
    /// value of a field; the series say their panel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facet: Option<Facet>,
    /// Our extension (docs/events.md): a heatmap's numeric axes binned,
    /// each a run of equal bins; absent: both axes are categories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bins: Option<HeatBins>,
    /// Our extension (docs/events.md): a table whose rows are series
    /// (a label, then a value per column: periods) gets a column of
    /// sparklines, each row's values across the columns in order.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub spark: bool,
}

/// Why a spec was refused. The message is written for whoever sent it: a
/// person at a shell or a model that will retry with a fixed call.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SpecError {
    #[error(
        "a {chart} chart takes one series, got {count} ({names}); use --chart line or bar for several series, or pick one value column"
    )]
    TooManySeries {
        chart: &'static str,
        count: usize,
        names: String,
    },
    #[error("no data points with a finite numeric value{context}")]
    NoPoints { context: String },
    #[error("{0}")]
    Invalid(String),
}

impl Chart {
    /// The chart as rows of a table: one per label, in first-seen order,
    /// with each series' value there. A label a series repeats is a row
    /// per time it comes (its second point goes to the label's second
    /// row), so no point is lost.
    pub fn table_rows(&self) -> Vec<(&str, Vec<Option<f64>>)> {
        use std::collections::HashMap;
        let ns = self.series.len();
        // A label's rows, in order; each series' next free one.
        let mut at: HashMap<&str, (Vec<usize>, Vec<usize>)> = HashMap::new();
        let mut rows: Vec<(&str, Vec<Option<f64>>)> = Vec::new();
        for (si, s) in self.series.iter().enumerate() {
            for p in &s.points {
                let (label_rows, used) = at
                    .entry(p.label.as_str())
                    .or_insert_with(|| (Vec::new(), vec![0; ns]));
                let k = used[si];
                used[si] += 1;
                let r = match label_rows.get(k) {
                    Some(&r) => r,
                    None => {
                        rows.push((p.label.as_str(), vec![None; ns]));
                        label_rows.push(rows.len() - 1);
                        rows.len() - 1
                    }
                };
                rows[r].1[si] = Some(p.value);
            }
        }
        rows
    }

    /// The panels of small multiples: one chart per [`Series::facet`]
    /// value, in first-seen order, each without facet or title (a chart
    /// without a facet is its one panel, named by nothing).
    pub fn panels(&self) -> Vec<(String, Chart)> {
        let mut out: Vec<(String, Chart)> = Vec::new();
        if self.facet.is_none() {
            return vec![(String::new(), self.clone())];
        }
        let blank = Chart {
            title: None,
            subtitle: None,
            facet: None,
            series: Vec::new(),
            transform: None,
            source: None,
            ..self.clone()
        };
        for s in &self.series {
            let key = s.facet.clone().unwrap_or_default();
            let i = match out.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    out.push((key, blank.clone()));
                    out.len() - 1
                }
            };
            let mut s = s.clone();
            s.facet = None;
            out[i].1.series.push(s);
        }
        for (_, c) in &mut out {
            c.meta.original_point_count = c.point_count();
            c.meta.truncated = false;
        }
        out
    }

    /// Total points over all series.
    pub fn point_count(&self) -> usize {
        self.series.iter().map(|s| s.points.len()).sum()
    }

    /// The event form: `{"type":"visualization", ...chart}`.
    pub fn to_event(&self) -> crate::events::Event {
        let mut map = serde_json::Map::new();
        map.insert("type".into(), "visualization".into());
        if let serde_json::Value::Object(body) =
            serde_json::to_value(self).expect("a chart always serializes")
        {
            map.extend(body);
        }
        crate::events::Event(map)
    }

    /// Reads a chart from an event or a bare spec object. Unknown fields are
    /// ignored; structure errors name the field.
    pub fn from_value(v: &serde_json::Value) -> Result<Chart, SpecError> {
        Chart::deserialize(v).map_err(|e| SpecError::Invalid(format!("not a chart: {e}")))
    }

    /// [`Chart::from_value`] on an object, read in place.
    pub fn from_map(m: &serde_json::Map<String, serde_json::Value>) -> Result<Chart, SpecError> {
        Chart::deserialize(m).map_err(|e| SpecError::Invalid(format!("not a chart: {e}")))
    }

    /// The chart turned: a series per label, a point per series (named
    /// by it), in the order first met; the label and series titles
    /// swapped. A long table read with `-s` turned has a row per series.
    pub fn turned(&self) -> Chart {
        let mut columns: Vec<Series> = Vec::new();
        for s in &self.series {
            for p in &s.points {
                let at = match columns.iter().position(|c| c.name == p.label) {
                    Some(i) => i,
                    None => {
                        columns.push(Series {
                            name: p.label.clone(),
                            points: Vec::new(),
                            facet: None,
                        });
                        columns.len() - 1
                    }
                };
                columns[at].points.push(Point::new(s.name.clone(), p.value));
            }
        }
        Chart {
            x_label: self.series_label.clone(),
            series_label: self.x_label.clone(),
            series: columns,
            ..self.clone()
        }
    }

    /// Whether it may hold several series: its kind does, or it is a
    /// table with a sparkline column (a series per column).
    pub fn takes_several_series(&self) -> bool {
        self.chart_type.several_series() || (self.spark && self.chart_type == ChartType::Table)
    }

    /// Checks the invariants renderers rely on: finite values, and one
    /// series for bar and table.
    pub fn validate(&self) -> Result<(), SpecError> {
        if self.facet.is_some() {
            for (_, panel) in self.panels() {
                if !panel.chart_type.several_series() && panel.series.len() > 1 {
                    return panel.validate();
                }
            }
        } else if !self.takes_several_series() && self.series.len() > 1 {
            return Err(SpecError::TooManySeries {
                chart: self.chart_type.as_str(),
                count: self.series.len(),
                names: self
                    .series
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        if self.point_count() == 0 {
            return Err(SpecError::NoPoints {
                context: String::new(),
            });
        }
        drawing::check(self)?;
        for s in &self.series {
            if let Some(p) = s.points.iter().find(|p| !p.value.is_finite()) {
                return Err(SpecError::Invalid(format!(
                    "series {:?}, label {:?}: value is not a finite number",
                    s.name, p.label
                )));
            }
        }
        Ok(())
    }
}

/// What the caller asked of normalization; the chart's own fields say the rest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NormalizeOptions {
    /// Clamped to 2..=[`reduce::EXACT_WINDOW`]: callers hold what a person
    /// or a model asks to [`HARD_MAX_POINTS`]; a computed series (grouped,
    /// by time unit) may keep every point the reducer holds exactly.
    pub max_points: usize,
    /// Applies to bar and table; a line keeps input order.
    pub sort: Sort,
    /// `None`: top by value for bar and table; for a line each bucket's
    /// first, last, min and max (peaks kept, no aliasing of seasons).
    pub reduction: Option<Reduction>,
}

impl Default for NormalizeOptions {
    fn default() -> Self {
        NormalizeOptions {
            max_points: DEFAULT_MAX_POINTS,
            sort: Sort::None,
            reduction: None,
        }
    }
}

impl NormalizeOptions {
    pub fn limit(&self) -> usize {
        self.max_points.clamp(2, reduce::EXACT_WINDOW)
    }

    pub fn method_for(&self, chart: ChartType) -> Reduction {
        self.reduction.unwrap_or(match chart {
            ChartType::Line | ChartType::Spark => Reduction::Minmax,
            ChartType::Bar | ChartType::Table => Reduction::Top,
            // Bins and points come in their order, already bounded.
            ChartType::Point | ChartType::Hist => Reduction::First,
            ChartType::Heatmap | ChartType::Box => Reduction::First,
        })
    }
}

/// A chart's series after validation and reduction, with what was dropped
/// on the way (for warnings and the tool's summary to the model).
#[derive(Debug, Clone, PartialEq)]
pub struct Normalized {
    pub chart: Chart,
    /// One entry per point dropped for a non-finite value: (series, label).
    pub non_finite: Vec<(String, String)>,
    /// What reading text data took where it allowed another, and what it
    /// skipped: the notes viz-parse prints on stderr (text input only).
    pub notes: Vec<String>,
}

/// Normalizes a chart whose series may hold any number of points, including
/// non-finite ones: drops those, enforces one series for bar and table,
/// reduces to the point limit, sorts, and fills `meta`.
pub fn normalize(mut chart: Chart, opts: &NormalizeOptions) -> Result<Normalized, SpecError> {
    let mut non_finite = Vec::new();
    for s in &mut chart.series {
        s.points.retain(|p| {
            let ok = p.value.is_finite();
            if !ok {
                non_finite.push((s.name.clone(), p.label.clone()));
            }
            ok
        });
    }
    chart.series.retain(|s| !s.points.is_empty());
    let series = std::mem::take(&mut chart.series);
    let mut reducers = Vec::with_capacity(series.len());
    for s in series {
        let mut r = reduce::Reducer::new(opts.limit(), opts.method_for(chart.chart_type));
        for p in s.points {
            r.push(p);
        }
        reducers.push((s.name, r));
    }
    finish(chart, reducers, opts).map(|chart| Normalized {
        chart,
        non_finite,
        notes: Vec::new(),
    })
}

/// Completes a chart from per-series reducers that were fed while reading
/// (the streaming path of `viz-parse`). `chart.series` is replaced.
pub fn finish(
    mut chart: Chart,
    reducers: Vec<(String, reduce::Reducer)>,
    opts: &NormalizeOptions,
) -> Result<Chart, SpecError> {
    let non_empty: Vec<_> = reducers.into_iter().filter(|(_, r)| r.seen() > 0).collect();
    if !chart.takes_several_series() && non_empty.len() > 1 {
        return Err(SpecError::TooManySeries {
            chart: chart.chart_type.as_str(),
            count: non_empty.len(),
            names: non_empty
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    let mut original = 0;
    let mut truncated = false;
    let mut method = None;
    chart.series = non_empty
        .into_iter()
        .map(|(name, r)| {
            original += r.seen();
            method = Some(r.method());
            let (points, t) = r.finish();
            truncated |= t;
            Series {
                name,
                points,
                facet: None,
            }
        })
        .collect();
    if chart.series.is_empty() {
        return Err(SpecError::NoPoints {
            context: String::new(),
        });
    }
    // A line or a scatter keeps its order; bars of several series keep
    // theirs unless sorted by label, which keeps their labels together.
    let sorted = !matches!(chart.chart_type, ChartType::Line | ChartType::Point)
        && (chart.series.len() == 1 || opts.sort == Sort::Label);
    if sorted {
        for s in &mut chart.series {
            match opts.sort {
                Sort::None => {}
                Sort::Asc => s.points.sort_by(|a, b| a.value.total_cmp(&b.value)),
                Sort::Desc => s.points.sort_by(|a, b| b.value.total_cmp(&a.value)),
                Sort::Label => {
                    let cal = order::calendar(s.points.iter().map(|p| p.label.as_str()));
                    s.points
                        .sort_by(|a, b| order::label_order(&a.label, &b.label, cal));
                }
            }
        }
    }
    chart.meta = Meta {
        truncated,
        original_point_count: original,
        fallback_mode: chart.meta.fallback_mode,
        reduction: if truncated { method } else { None },
        cell: chart.meta.cell,
    };
    Ok(chart)
}

#[cfg(test)]
mod tests;
