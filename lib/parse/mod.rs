//! Input parsers: CSV, TSV, JSON, JSON lines, Markdown tables and the
//! render_visualization argument object, turned into chart specs.
