//! gemline-render: events in, drawn output out (viz-render's engine):
//! terminal charts and Markdown, SVG, PNG, Vega-Lite, CI logs. Below it
//! gemline-core only: `--chart-tables` gets its table reader from the
//! front (`RenderOptions::chart_tables`).

pub mod render;

pub(crate) use gemline_core::{events, live, spec, term};
