//! Charts as mermaid `xychart-beta` blocks, which GitHub and GitLab draw
//! in Markdown: quick charts as their kind reads there (bar charts
//! horizontal, as the terminal draws them; line charts), and grammar
//! charts made only of marks it plots (lines, bars) over one x axis and
//! rules at a number on the value axis, as flat lines (each mark says
//! which it is in `marks/`).
//! What mermaid cannot draw faithfully is refused with a reason (the
//! report shows the data table instead): other marks, an inverted axis, a
//! line with a gap (a missing bar is a bar of zero), several values at one
//! x, too many points.
//!
//! xychart has no legend, so several series get a palette (set in the
//! block's front matter) and a legend line of matching coloured squares.

use std::collections::HashMap;

use serde_json::Value;

use super::table::titled;
use super::text::{inline, mermaid_number, mermaid_string};
use crate::render::SERIES_RGB;
use crate::render::marks::{self, Mermaid, Xy, groups};
use crate::spec::Chart;
use crate::spec::grammar::{Axis, ChartSpec, FieldType, Mark, Operand};

/// More x positions than this are unreadable as categories.
pub const MAX_CATEGORIES: usize = 200;

/// The square that stands for each of [`SERIES_RGB`] in the legend.
const SQUARES: [&str; 8] = ["🟦", "🟧", "🟩", "🟥", "🟪", "🟨", "🟫", "⬛"];

/// Why mermaid cannot draw a chart (the report shows its data instead).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NotDrawn {
    #[error("a table is not a chart")]
    Table,
    #[error("series {0:?} has several points at {1:?}")]
    SeveralPoints(String, String),
    #[error("series {0:?} has no point at {1:?}")]
    NoPoint(String, String),
    #[error("mermaid has no {0} mark")]
    Mark(&'static str),
    #[error("mermaid cannot invert an axis")]
    InvertedAxis,
    #[error("a mark without both x and y")]
    MarkWithoutXY,
    #[error("the values of {0:?} are not numbers")]
    NotNumbers(String),
    #[error("marks over different x fields")]
    DifferentX,
    #[error("series {0:?} has several values at {1:?}")]
    SeveralValues(String, String),
    #[error("series {0:?} has gaps")]
    Gaps(String),
    #[error("mermaid draws a rule only at a number on the value axis")]
    Rule,
    #[error("no data")]
    NoData,
    #[error("{0} x values, more than the {max} a mermaid chart shows", max = MAX_CATEGORIES)]
    TooMany(usize),
    #[error("series {0:?} has a negative value at {1:?}: mermaid stacks bars only from zero up")]
    Negative(String, String),
}

/// One xychart: categories along x, one plot per series.
#[derive(Debug, Clone, PartialEq)]
pub struct XyChart {
    /// Categories down the side, values across (bar charts).
    pub horizontal: bool,
    pub title: Option<String>,
    pub x_title: Option<String>,
    pub categories: Vec<String>,
    pub y_title: Option<String>,
    pub y_range: Option<(f64, f64)>,
    pub series: Vec<Plot>,
    /// The plots are running totals of stacked bars, the last series'
    /// first: coloured and listed in the legend in the series' order.
    pub stacked: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Plot {
    pub bar: bool,
    pub name: String,
    pub values: Vec<f64>,
}

impl XyChart {
    /// A quick chart as its kind reads in mermaid (a table is not drawn:
    /// [`NotDrawn::Table`]); `Err` says why mermaid cannot draw it.
    pub fn from_chart(chart: &Chart) -> Result<XyChart, NotDrawn> {
        let (categories, bars) = match marks::chart(chart.chart_type).mermaid(chart) {
            Mermaid::Xy { categories, bars } => (categories, bars),
            Mermaid::Stacked { categories, shares } => {
                return XyChart::stacked(chart, categories, shares);
            }
            Mermaid::Table => return Err(NotDrawn::Table),
            Mermaid::Refused(kind) => return Err(NotDrawn::Mark(kind)),
        };
        let mut series = Vec::new();
        for s in &chart.series {
            let mut at: HashMap<&str, f64> = HashMap::new();
            for p in &s.points {
                if at.insert(&p.label, p.value).is_some() && !bars {
                    return Err(NotDrawn::SeveralPoints(s.name.clone(), p.label.clone()));
                }
            }
            let values = if bars && chart.series.len() == 1 {
                s.points.iter().map(|p| p.value).collect()
            } else {
                aligned(&s.name, &categories, &at)?
            };
            series.push(Plot {
                bar: bars,
                name: s.name.clone(),
                values,
            });
        }
        let y_title = titled(chart.y_label.as_deref(), chart.unit.as_deref(), "");
        XyChart {
            horizontal: bars,
            title: chart.title.clone(),
            x_title: chart.x_label.clone(),
            categories,
            y_title: Some(y_title.trim().to_string()).filter(|t| !t.is_empty()),
            y_range: None,
            series,
            stacked: false,
        }
        .checked()
    }

    /// Stacked bars: per category the running total through each series,
    /// drawn longest first so each series shows as its own segment; the
    /// value axis from 0 (to 100 for shares). A missing bar is zero.
    fn stacked(chart: &Chart, categories: Vec<String>, shares: bool) -> Result<XyChart, NotDrawn> {
        let mut totals: Vec<Vec<f64>> = Vec::new();
        let mut running = vec![0.0; categories.len()];
        for s in &chart.series {
            let mut at: HashMap<&str, f64> = HashMap::new();
            for p in &s.points {
                if p.value < 0.0 {
                    return Err(NotDrawn::Negative(s.name.clone(), p.label.clone()));
                }
                *at.entry(p.label.as_str()).or_default() += p.value;
            }
            for (r, c) in running.iter_mut().zip(&categories) {
                *r += at.get(c.as_str()).copied().unwrap_or(0.0);
            }
            totals.push(running.clone());
        }
        if shares {
            for t in &mut totals {
                for (v, whole) in t.iter_mut().zip(&running) {
                    *v = if *whole > 0.0 {
                        // Percent to two decimals: what a reader can see.
                        (10_000.0 * *v / whole).round() / 100.0
                    } else {
                        0.0
                    };
                }
            }
        }
        let top = if shares {
            100.0
        } else {
            running.iter().copied().fold(0.0, f64::max)
        };
        let series = chart
            .series
            .iter()
            .zip(totals)
            .rev()
            .map(|(s, values)| Plot {
                bar: true,
                name: s.name.clone(),
                values,
            })
            .collect();
        let y_title = if shares {
            "% of total".to_string()
        } else {
            titled(chart.y_label.as_deref(), chart.unit.as_deref(), "")
        };
        XyChart {
            horizontal: true,
            title: chart.title.clone(),
            x_title: chart.x_label.clone(),
            categories,
            y_title: Some(y_title.trim().to_string()).filter(|t| !t.is_empty()),
            y_range: Some((0.0, if top > 0.0 { top } else { 1.0 })),
            series,
            stacked: true,
        }
        .checked()
    }

    /// A grammar chart of marks mermaid plots (lines, bars) over one x
    /// axis, and rules (bars over categories on y: horizontal); `Err`
    /// says why mermaid cannot draw it.
    pub fn from_spec(title: Option<&str>, spec: &ChartSpec) -> Result<XyChart, NotDrawn> {
        if let Some(m) = spec
            .marks
            .iter()
            .find(|m| marks::of(m.kind).mermaid() == Xy::Refused)
        {
            return Err(NotDrawn::Mark(m.kind.as_str()));
        }
        let (rules, plotted): (Vec<&Mark>, Vec<&Mark>) = spec
            .marks
            .iter()
            .partition(|m| marks::of(m.kind).mermaid() == Xy::Rule);
        let horizontal = plotted
            .iter()
            .all(|m| marks::of(m.kind).mermaid() == Xy::Plot { bar: true })
            && spec.axis_type(false) == FieldType::String;
        if axis(spec, true).is_some_and(|a| a.invert) || axis(spec, false).is_some_and(|a| a.invert)
        {
            return Err(NotDrawn::InvertedAxis);
        }
        let columns = Columns::of(spec, &plotted, horizontal)?;
        let mut series = columns.series()?;
        for r in rules {
            series.push(rule_plot(r, horizontal, columns.categories.len())?);
        }
        let (x_axis, y_axis) = if horizontal {
            (false, true)
        } else {
            (true, false)
        };
        let y_range =
            axis(spec, y_axis)
                .and_then(|a| a.domain.as_ref())
                .and_then(|(lo, hi)| match (lo, hi) {
                    (Operand::Number(a), Operand::Number(b)) => Some((a.min(*b), a.max(*b))),
                    _ => None,
                });
        XyChart {
            horizontal,
            title: title.map(str::to_string),
            x_title: axis_title(spec, columns.cat_field, x_axis, false),
            y_title: axis_title(spec, columns.val_field, y_axis, columns.summed),
            categories: columns.categories,
            y_range,
            series,
            stacked: false,
        }
        .checked()
    }

    /// Refuses what mermaid would draw badly: nothing, or too much.
    fn checked(self) -> Result<XyChart, NotDrawn> {
        if self.categories.is_empty() || self.series.is_empty() {
            return Err(NotDrawn::NoData);
        }
        if self.categories.len() > MAX_CATEGORIES {
            return Err(NotDrawn::TooMany(self.categories.len()));
        }
        Ok(self)
    }

    /// The fenced block, and a legend line after it for several series.
    pub fn write(&self, out: &mut String) {
        out.push_str("```mermaid\n");
        let several = self.series.len() > 1;
        let n = self.series.len();
        // A plot's colour: its series' (stacked plots come last series first).
        let colour_of = |i: usize| if self.stacked { n - 1 - i } else { i };
        if several {
            let colours: Vec<String> = (0..n)
                .map(|i| {
                    let (r, g, b) = SERIES_RGB[colour_of(i) % SERIES_RGB.len()];
                    format!("#{r:02x}{g:02x}{b:02x}")
                })
                .collect();
            out.push_str("---\nconfig:\n  themeVariables:\n    xyChart:\n");
            out.push_str(&format!(
                "      plotColorPalette: \"{}\"\n---\n",
                colours.join(", ")
            ));
        }
        out.push_str("xychart-beta");
        if self.horizontal {
            out.push_str(" horizontal");
        }
        out.push('\n');
        if let Some(t) = self.title.as_deref().filter(|t| !t.trim().is_empty()) {
            out.push_str(&format!("    title {}\n", mermaid_string(t)));
        }
        let cats: Vec<String> = self.categories.iter().map(|c| mermaid_string(c)).collect();
        out.push_str("    x-axis ");
        if let Some(t) = self.x_title.as_deref().filter(|t| !t.trim().is_empty()) {
            out.push_str(&mermaid_string(t));
            out.push(' ');
        }
        out.push_str(&format!("[{}]\n", cats.join(", ")));
        let y_title = self.y_title.as_deref().filter(|t| !t.trim().is_empty());
        if y_title.is_some() || self.y_range.is_some() {
            out.push_str("    y-axis");
            if let Some(t) = y_title {
                out.push(' ');
                out.push_str(&mermaid_string(t));
            }
            if let Some((lo, hi)) = self.y_range {
                out.push_str(&format!(
                    " {} --> {}",
                    mermaid_number(lo),
                    mermaid_number(hi)
                ));
            }
            out.push('\n');
        }
        for s in &self.series {
            let values: Vec<String> = s.values.iter().map(|v| mermaid_number(*v)).collect();
            out.push_str(&format!(
                "    {} {} [{}]\n",
                if s.bar { "bar" } else { "line" },
                mermaid_string(&s.name),
                values.join(", ")
            ));
        }
        out.push_str("```\n");
        if several {
            let mut items: Vec<String> = self
                .series
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let c = colour_of(i);
                    format!("{} {}", SQUARES[c % SQUARES.len()], inline(&s.name))
                })
                .collect();
            if self.stacked {
                items.reverse();
            }
            out.push_str(&format!("\n{}\n", items.join(" · ")));
        }
    }
}

/// The spec's x axis (`x`) or y axis.
fn axis(spec: &ChartSpec, x: bool) -> Option<&Axis> {
    if x {
        spec.axes.x.as_ref()
    } else {
        spec.axes.y.as_ref()
    }
}

/// An axis' title: its own label, else the field's label with its unit.
/// `summed`: the values are sums of a category's (`sum(amount)`).
fn axis_title(spec: &ChartSpec, field: Option<&str>, x: bool, summed: bool) -> Option<String> {
    axis(spec, x).and_then(|a| a.label.clone()).or_else(|| {
        field.map(|f| {
            let label = spec.field_label(f);
            let label = if summed {
                format!("sum({label})")
            } else {
                label.to_string()
            };
            titled(
                Some(&label),
                spec.field(f).and_then(|d| d.unit.as_deref()),
                f,
            )
        })
    })
}

/// The line and bar marks' values by category: the categories in
/// first-seen order, and per mark and group a plot (bar or not, its name,
/// its values by category index).
struct Columns<'s> {
    categories: Vec<String>,
    /// Bars whose category repeats are summed.
    summed: bool,
    plots: Vec<(bool, String, HashMap<usize, f64>)>,
    cat_field: Option<&'s str>,
    val_field: Option<&'s str>,
}

impl<'s> Columns<'s> {
    /// Reads every mark's rows; `Err` for a mark mermaid cannot place.
    fn of(spec: &'s ChartSpec, marks: &[&'s Mark], horizontal: bool) -> Result<Self, NotDrawn> {
        let rows = spec.dataset.rows.len();
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut out = Columns {
            categories: Vec::new(),
            summed: false,
            plots: Vec::new(),
            cat_field: None,
            val_field: None,
        };
        for m in marks {
            let (c, v) = if horizontal {
                (&m.y, &m.x)
            } else {
                (&m.x, &m.y)
            };
            let (Some(c), Some(v)) = (c.as_deref(), v.as_deref()) else {
                return Err(NotDrawn::MarkWithoutXY);
            };
            if spec.field_type(v) != Some(FieldType::Number) {
                return Err(NotDrawn::NotNumbers(v.to_string()));
            }
            out.cat_field = out.cat_field.or(Some(c));
            out.val_field = out.val_field.or(Some(v));
            if out.cat_field != Some(c) {
                return Err(NotDrawn::DifferentX);
            }
            for (name, idx) in groups(spec, m, rows) {
                let mut at = HashMap::new();
                for i in idx {
                    let row = &spec.dataset.rows[i];
                    let (Some(cat), Some(val)) = (
                        row.get(c).and_then(cell_text),
                        row.get(v).and_then(Value::as_f64),
                    ) else {
                        continue;
                    };
                    let k = *index.entry(cat.clone()).or_insert_with(|| {
                        out.categories.push(cat.clone());
                        out.categories.len() - 1
                    });
                    let bar = marks::of(m.kind).mermaid() == Xy::Plot { bar: true };
                    match at.get_mut(&k) {
                        // Several values of one category: bars are their
                        // sums, as in the terminal; a line cannot say which.
                        Some(sum) if bar => {
                            *sum += val;
                            out.summed = true;
                        }
                        Some(_) => return Err(NotDrawn::SeveralValues(name, cat)),
                        None => {
                            at.insert(k, val);
                        }
                    }
                }
                let bar = marks::of(m.kind).mermaid() == Xy::Plot { bar: true };
                out.plots.push((bar, name, at));
            }
        }
        Ok(out)
    }

    /// A series per plot with a value at every category: a missing bar
    /// reads as a bar of zero; a line cannot skip.
    fn series(&self) -> Result<Vec<Plot>, NotDrawn> {
        let mut series = Vec::new();
        for (bar, name, at) in &self.plots {
            let values = (0..self.categories.len())
                .map(|k| at.get(&k).copied().or(bar.then_some(0.0)))
                .collect::<Option<Vec<f64>>>()
                .ok_or_else(|| NotDrawn::Gaps(name.clone()))?;
            series.push(Plot {
                bar: *bar,
                name: name.clone(),
                values,
            });
        }
        Ok(series)
    }
}

/// A rule at a constant on the value axis, as a flat line named by its
/// label: the one kind of rule an xychart can show.
fn rule_plot(r: &Mark, horizontal: bool, n: usize) -> Result<Plot, NotDrawn> {
    let (value, across) = if horizontal {
        (&r.x_value, &r.y_value)
    } else {
        (&r.y_value, &r.x_value)
    };
    match (value, across, &r.x, &r.y) {
        (Some(Operand::Number(v)), None, None, None) => Ok(Plot {
            bar: false,
            name: r.label.clone().unwrap_or_else(|| "rule".into()),
            values: vec![*v; n],
        }),
        _ => Err(NotDrawn::Rule),
    }
}

/// A series' values at every category, in order; `Err` for a gap.
fn aligned(
    name: &str,
    categories: &[String],
    at: &HashMap<&str, f64>,
) -> Result<Vec<f64>, NotDrawn> {
    categories
        .iter()
        .map(|c| {
            at.get(c.as_str())
                .copied()
                .ok_or_else(|| NotDrawn::NoPoint(name.to_string(), c.clone()))
        })
        .collect()
}

/// A category cell as written: text as it is, numbers in their JSON form.
fn cell_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}
