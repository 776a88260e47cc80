//! Charts of the plot grammar (`ui` events of kind `chart`, version 1):
//! a validated [`ChartSpec`] drawn in the terminal. Marks on axes go
//! through the layered plot (one canvas, axes and legend with the line
//! chart); a mark may lay the whole chart out its own way (bars over
//! categories and sectors are drawn as rows): each mark's meaning is its
//! file in `marks/`. The footer says what a terminal leaves out
//! (`interaction`, marks it cannot place).

use super::chart::header;
use super::marks::{self, WholeChart};
use super::wrap::note;
use super::{RenderOptions, fit, plot};
use crate::spec::grammar::ChartSpec;

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
        match whole_chart(spec) {
            Some(w) => w.terminal(spec, opts, &mut lines, &mut notes),
            None => {
                let p = marks::layered_plot(spec, !opts.unicode);
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

/// The layout a mark asks for the whole chart (the first that does), in
/// the terminal and SVG; `None`: every mark on one pair of axes.
pub(crate) fn whole_chart(spec: &ChartSpec) -> Option<&'static dyn WholeChart> {
    spec.marks
        .iter()
        .find_map(|m| marks::of(m.kind).whole_chart(spec))
}

/// Whether a spec has nothing to draw: no rows, and only marks that need them.
pub(crate) fn is_empty_spec(spec: &ChartSpec) -> bool {
    spec.dataset.rows.is_empty() && spec.marks.iter().all(|m| marks::of(m.kind).needs_rows())
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
