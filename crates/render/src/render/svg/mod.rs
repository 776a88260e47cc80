//! `viz-render --format svg`: each chart as a self-contained SVG drawn
//! with plotters' SVG backend, following the terminal's layout rules:
//! title and subtitle above, axis titles with units, the terminal's ticks,
//! a legend for several series, the downsampling note and what a picture
//! leaves out in a footer. Bar charts and bars over categories are
//! horizontal rows with their values, line charts and the grammar's marks
//! share one pair of axes ([`plot`]), sectors are shares of a bar, tables
//! are tables ([`rows`]); the [`frame`] is common.
//!
//! Without `--output-dir` each SVG goes to stdout (one chart makes one
//! SVG file; several are several documents in a row, and a warning says
//! so); with it, each chart is a file `NN-title.svg` in that directory and
//! its path is written on stdout.

mod frame;
mod grid;
mod plot;
mod rows;

use std::io::Write;
use std::path::PathBuf;

use super::chart::dropped_points;
use super::grammar::{interaction_note, is_empty_spec, whole_chart};
use super::marks::{self, Body, Picture};
use super::text::clean_line;
use super::ui::{PlotCalls, ui_of_call};
use super::{chart_from_event, ui_warning};
use crate::events::Event;
use crate::spec::Chart;
use crate::spec::grammar::{ChartSpec, KIND_CHART, Limits, UiEnvelope};
use crate::term;
use frame::{DrawFailed, Frame};

/// A quick chart (bar, line, table, ...) as an SVG document.
pub fn chart_svg(chart: &Chart) -> Result<String, DrawFailed> {
    let nonblank = |s: &Option<String>| s.clone().filter(|t| !t.trim().is_empty());
    let mut f = Frame {
        title: nonblank(&chart.title),
        subtitle: nonblank(&chart.subtitle),
        ..Frame::default()
    };
    f.notes.extend(dropped_points(chart));
    f.notes.extend(marks::drawing_notes(chart, false));
    if chart.point_count() == 0 {
        return f.render(40, frame::no_data);
    }
    if let Some(facet) = &chart.facet {
        return facet_svg(chart, facet, f);
    }
    let kind = marks::chart(chart.chart_type);
    f.legend = kind.legend(chart);
    draw_body(f, kind.picture(chart))
}

/// Small multiples: each panel's picture drawn whole (titled by its
/// value), the pictures laid in a grid of `--facet-columns` (else up to
/// three) under the chart's title and notes, as nested `<svg>` elements.
fn facet_svg(chart: &Chart, facet: &crate::spec::Facet, f: Frame) -> Result<String, DrawFailed> {
    let docs = super::facet::pictures(chart)
        .into_iter()
        .map(|(name, body)| {
            let pf = Frame {
                title: Some(name),
                ..Frame::default()
            };
            draw_body(pf, body)
        })
        .collect::<Result<Vec<_>, _>>()?;
    grid(docs, facet.columns.unwrap_or(3), f)
}

/// Pictures drawn whole, laid in a grid of up to `cols` columns under
/// the frame's title and notes, as nested `<svg>` elements.
fn grid(docs: Vec<String>, cols: usize, f: Frame) -> Result<String, DrawFailed> {
    let cols = cols.clamp(1, docs.len().max(1));
    let sizes: Vec<(u32, u32)> = docs.iter().map(|d| svg_size(d)).collect();
    let cw = sizes.iter().map(|s| s.0).max().unwrap_or(frame::WIDTH);
    let ch = sizes.iter().map(|s| s.1).max().unwrap_or(0);
    let rows = docs.len().div_ceil(cols) as u32;
    let grid_w = cw * cols as u32;
    // The frame draws the title and notes over an empty body as wide as
    // the grid; the grid goes below its head.
    let head = f.render(20, |_| Ok(()))?;
    let (_, head_h) = svg_size(&head);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n",
        w = grid_w.max(frame::WIDTH),
        h = head_h + ch * rows
    );
    out.push_str(&nested(&head, 0, 0));
    for (i, d) in docs.iter().enumerate() {
        let (x, y) = ((i % cols) as u32 * cw, head_h + (i / cols) as u32 * ch);
        out.push_str(&nested(d, x, y));
    }
    out.push_str("</svg>\n");
    Ok(out)
}

/// An SVG document's `width` and `height` (its root element's).
fn svg_size(doc: &str) -> (u32, u32) {
    let root = doc.find("<svg").map_or("", |i| &doc[i..]);
    let root = &root[..root.find('>').unwrap_or(root.len())];
    let attr = |name: &str| {
        let key = format!(" {name}=\"");
        root.find(&key)
            .map(|i| &root[i + key.len()..])
            .and_then(|r| r.split('"').next())
            .and_then(|v| v.trim_end_matches("px").parse::<f64>().ok())
            .map_or(0, |v| v.round() as u32)
    };
    (attr("width"), attr("height"))
}

/// A document's root `<svg>` placed at (x, y) inside another.
fn nested(doc: &str, x: u32, y: u32) -> String {
    let root = doc.find("<svg").map_or(doc, |i| &doc[i..]);
    format!("<svg x=\"{x}\" y=\"{y}\"{}\n", &root[4..])
}

/// A validated grammar chart as an SVG document.
pub fn spec_svg(title: Option<&str>, spec: &ChartSpec) -> Result<String, DrawFailed> {
    let mut f = Frame {
        title: title.filter(|t| !t.trim().is_empty()).map(str::to_string),
        ..Frame::default()
    };
    f.notes.extend(interaction_note(spec, "in SVG"));
    if is_empty_spec(spec) {
        return f.render(40, frame::no_data);
    }
    let picture = match whole_chart(spec) {
        Some(w) => w.picture(spec),
        None => Picture {
            body: Body::Plot(marks::layered_plot(spec, false)),
            legend: Vec::new(),
            notes: Vec::new(),
        },
    };
    f.notes.extend(picture.notes);
    if !picture.legend.is_empty() {
        f.legend = picture.legend;
    }
    draw_body(f, picture.body)
}

/// The frame around a chart's body, the body drawn by its layout.
fn draw_body(mut f: Frame, body: Body) -> Result<String, DrawFailed> {
    match body {
        Body::Plot(p) => {
            f.legend = p.legend.iter().map(|i| i.name.clone()).collect();
            f.render(plot::HEIGHT, |a| plot::draw(&p, a))
        }
        Body::Bars {
            rows,
            value_title,
            category,
            unit,
            scale,
            extent,
        } => {
            let titles = (value_title.as_deref(), category.as_deref());
            f.render(rows::bars_height(rows.len()), |a| {
                rows::bars(&rows, titles, (unit.as_deref(), scale, &extent), a)
            })
        }
        Body::Stacked {
            rows,
            value_title,
            category,
            unit,
        } => {
            let titles = (value_title.as_deref(), category.as_deref());
            f.render(rows::bars_height(rows.len()), |a| {
                rows::stacked(&rows, titles, unit.as_deref(), a)
            })
        }
        Body::Shares { parts, unit } => f.render(rows::shares_height(parts.len()), |a| {
            rows::shares(&parts, unit.as_deref(), a)
        }),
        Body::Table { header, rows } => f.render(rows::table_height(rows.len()), |a| {
            rows::table((&header.0, &header.1), &rows, a)
        }),
        Body::Grid {
            columns,
            rows,
            cells,
            scale,
            titles,
        } => f.render(grid::grid_height(rows.len()), |a| {
            let titles = (titles.0.as_deref(), titles.1.as_deref());
            grid::grid(&columns, &rows, &cells, &scale, titles, a)
        }),
        Body::Boxes {
            groups,
            value_title,
            category,
            unit,
        } => f.render(grid::boxes_height(groups.len()), |a| {
            let titles = (value_title.as_deref(), category.as_deref());
            grid::boxes(&groups, titles, unit.as_deref(), a)
        }),
        Body::Panels(panels) => {
            let docs = panels
                .into_iter()
                .map(|(title, body)| {
                    let pf = Frame {
                        title,
                        ..Frame::default()
                    };
                    draw_body(pf, body)
                })
                .collect::<Result<Vec<_>, _>>()?;
            grid(docs, 2, f)
        }
        Body::NoData => f.render(40, frame::no_data),
    }
}

/// `--format svg` (and `png`) over a stream: each chart in the order of
/// sources (as the terminal draws them) to stdout or a file of `dir`; a
/// chart that cannot be drawn is a warning naming the line (with
/// `strict`, exit 65).
pub(super) struct SvgWriter {
    limits: Limits,
    strict: bool,
    dir: Option<PathBuf>,
    plot_calls: PlotCalls,
    written: usize,
    /// `--format png`: the SVG rasterised at its own size.
    png: bool,
}

impl SvgWriter {
    pub(super) fn new(limits: Limits, strict: bool, dir: Option<PathBuf>) -> SvgWriter {
        SvgWriter {
            limits,
            strict,
            dir,
            plot_calls: PlotCalls::default(),
            written: 0,
            png: false,
        }
    }

    /// `--format png`: the same charts as PNG files.
    pub(super) fn png(mut self) -> SvgWriter {
        self.png = true;
        self
    }

    pub(super) fn event(
        &mut self,
        e: &Event,
        (name, line): (&str, usize),
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        match self.plot_calls.chart_of(e) {
            Some(chart) => self.write(&chart, &format!("{name}: line {line}"), out),
            None => Ok(()),
        }
    }

    pub(super) fn finish(&mut self, out: &mut dyn Write) -> anyhow::Result<()> {
        for call in self.plot_calls.rest() {
            self.write(&ui_of_call(call), "end of input", out)?;
        }
        Ok(())
    }

    fn write(&mut self, e: &Event, at: &str, out: &mut dyn Write) -> anyhow::Result<()> {
        let (drawn, title) = if e.kind() == "ui" {
            let ui = UiEnvelope::read(&e.0);
            match ui.validate(&self.limits) {
                Ok(valid) => (
                    spec_svg(ui.title, &valid.spec),
                    ui.title.map(str::to_string),
                ),
                Err(why) => {
                    let refused = ui.kind == Some(KIND_CHART);
                    return self.refuse(refused, &format!("{at}: {}", ui_warning(&ui, &why)));
                }
            }
        } else {
            match chart_from_event(e) {
                Ok(chart) => (chart_svg(&chart), chart.title.clone()),
                Err(err) => {
                    return self.refuse(true, &format!("{at}: invalid chart, not drawn: {err}"));
                }
            }
        };
        let svg = drawn?;
        let svg = if self.png {
            super::graphics::Raster::from_svg(&svg, frame::WIDTH)
                .map_err(|err| anyhow::anyhow!("{at}: {err}"))?
                .png()
        } else {
            svg.into_bytes()
        };
        let (ext, kind) = if self.png {
            ("png", "PNG images")
        } else {
            ("svg", "SVG documents")
        };
        self.written += 1;
        match &self.dir {
            Some(dir) => {
                let name = file_name(self.written, title.as_deref());
                let path = dir.join(name.replace(".svg", &format!(".{ext}")));
                std::fs::write(&path, &svg)
                    .map_err(|err| anyhow::anyhow!("{}: {err}", path.display()))?;
                writeln!(out, "{}", path.display())?;
            }
            None => {
                if self.written == 2 {
                    term::diag(format!(
                        "viz-render: warning: several charts on stdout are several {kind} \
                         in a row; --output-dir DIR writes one file each"
                    ));
                }
                out.write_all(&svg)?;
                if !self.png && !svg.ends_with(b"\n") {
                    out.write_all(b"\n")?;
                }
            }
        }
        out.flush()?;
        Ok(())
    }

    fn refuse(&self, refused: bool, msg: &str) -> anyhow::Result<()> {
        if self.strict && refused {
            return Err(term::data_error(msg.to_string()));
        }
        term::diag(format!("viz-render: warning: {}", clean_line(msg, false)));
        Ok(())
    }
}

/// `03-bmw-0-60-times.svg`: the chart's number, then its title in
/// lower-case ASCII words (`chart` without one).
pub fn file_name(n: usize, title: Option<&str>) -> String {
    let mut slug = String::new();
    for c in title.unwrap_or("").chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
        if slug.len() >= 40 {
            break;
        }
    }
    let slug = slug.trim_end_matches('-');
    let slug = if slug.is_empty() { "chart" } else { slug };
    format!("{n:02}-{slug}.svg")
}

#[cfg(test)]
mod tests {
    use super::file_name;

    #[test]
    fn file_names_are_numbered_ascii_words() {
        assert_eq!(
            file_name(3, Some("BMW 0-60 times (s)")),
            "03-bmw-0-60-times-s.svg"
        );
        assert_eq!(file_name(12, Some("日本 / ../..")), "12-chart.svg");
        assert_eq!(file_name(1, None), "01-chart.svg");
    }
}
