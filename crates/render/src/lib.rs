//! gemline-render: events in, drawn output out (viz-render's engine):
//! terminal charts and Markdown, SVG, PNG, Vega-Lite, CI logs. Below it
//! gemline-core and gemline-parse (a Markdown table is parsed as a table).

pub mod render;

pub(crate) use gemline_core::{events, live, spec, term};
pub(crate) use gemline_parse::parse;
