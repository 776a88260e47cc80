//! Charts of the plot grammar (`ui` events of kind `chart`, version 1):
//! a validated [`ChartSpec`] drawn in the terminal. Marks on axes go
//! through the layered plot (one canvas, axes and legend with the line
//! chart); bars over categories and sectors are drawn as rows. The footer
//! says what a terminal leaves out (`interaction`, marks it cannot place).

mod rows;
mod xy;

pub(crate) use rows::{category_chart, shares_of};
pub(crate) use xy::{build as xy_plot, groups};

use super::chart::{header, note};
use super::{RenderOptions, fit, plot};
use crate::spec::grammar::{ChartSpec, FieldType, MarkKind};

/// Draws a validated spec as lines (no newlines): the title, the chart,
/// its legend and footer notes. Never wider than `opts.width`; never
/// panics, whatever the spec holds.
pub fn render_spec(title: Option<&str>, spec: &ChartSpec, opts: &RenderOptions) -> Vec<String> {
    let mut lines = Vec::new();
    let mut notes = Vec::new();
    header(title, None, opts, &mut lines);
    if is_empty_spec(spec) {
        lines.push(super::text::paint(
            "(no data)",
            super::text::Style::Dim,
            opts.color,
        ));
    } else {
        match layout(spec) {
            Layout::Sectors => rows::sectors(spec, opts, &mut lines, &mut notes),
            Layout::CategoryBars { on_x } => {
                rows::category_bars(spec, on_x, opts, &mut lines, &mut notes)
            }
            Layout::Plot => {
                let p = xy::build(spec, !opts.unicode);
                plot::render(&p, opts, &mut lines);
            }
        }
    }
    notes.extend(interaction_note(spec, "in the terminal"));
    for n in notes {
        note(&n, opts, &mut lines);
    }
    let w = opts.width.max(1);
    lines.into_iter().map(|l| fit(l, w, opts)).collect()
}

/// How a spec is laid out, in every format that draws it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Sectors: shares of a total.
    Sectors,
    /// Bars over categories, drawn as rows (`on_x`: the categories are
    /// the bars' `x`).
    CategoryBars { on_x: bool },
    /// Every mark on one pair of axes.
    Plot,
}

pub(crate) fn layout(spec: &ChartSpec) -> Layout {
    let has = |k: MarkKind| spec.marks.iter().any(|m| m.kind == k);
    if has(MarkKind::Sector) {
        Layout::Sectors
    } else if has(MarkKind::Bar) && spec.axis_type(true) == FieldType::String {
        Layout::CategoryBars { on_x: true }
    } else if has(MarkKind::Bar) && spec.axis_type(false) == FieldType::String {
        Layout::CategoryBars { on_x: false }
    } else {
        Layout::Plot
    }
}

/// Whether a spec has nothing to draw: no rows, and only marks that need them.
pub(crate) fn is_empty_spec(spec: &ChartSpec) -> bool {
    spec.dataset.rows.is_empty()
        && spec.marks.iter().all(|m| {
            matches!(
                m.kind,
                MarkKind::Line
                    | MarkKind::Area
                    | MarkKind::Point
                    | MarkKind::Bar
                    | MarkKind::Sector
            )
        })
}

/// What a static picture (`medium`: "in the terminal") leaves out of a
/// spec: its `interaction`.
pub(crate) fn interaction_note(spec: &ChartSpec, medium: &str) -> Option<String> {
    let i = spec.interaction.as_ref().filter(|i| !is_empty(i))?;
    let what = match i {
        serde_json::Value::Object(m) => m.keys().map(String::as_str).collect::<Vec<_>>().join(", "),
        _ => String::new(),
    };
    let what = if what.is_empty() {
        String::new()
    } else {
        format!(" ({what})")
    };
    Some(format!("interaction{what} is not drawn {medium}"))
}

fn is_empty(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Null => true,
        serde_json::Value::Object(m) => m.is_empty(),
        serde_json::Value::Array(a) => a.is_empty(),
        _ => false,
    }
}
