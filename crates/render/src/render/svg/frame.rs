//! The frame every SVG chart shares, following the terminal's layout: the
//! bold title and the subtitle above, the body, then the legend (a swatch
//! in the series' colour and its name) and the footer notes (downsampling,
//! what a picture leaves out) below. Fonts are sans-serif at sizes that
//! read at 100%; the width is fixed, the height follows the content.

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::super::SERIES_RGB;
use super::super::text::clean_line;

/// Width of every chart, in pixels.
pub const WIDTH: u32 = 800;
pub const FONT: &str = "sans-serif";
/// Tick labels and table cells.
pub const SMALL: u32 = 13;
/// Axis titles, legend, notes.
pub const MEDIUM: u32 = 14;
const TITLE: u32 = 20;
const SUBTITLE: u32 = 15;
const PAD: i32 = 16;
const LEGEND_ROW: u32 = 24;
const NOTE_ROW: u32 = 20;

pub type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// A chart on an [`Area`]: two [`Ticked`] axes.
pub type Cartesian<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<Ticked, Ticked>>;

/// A series' colour.
pub fn colour(i: usize) -> RGBColor {
    let (r, g, b) = SERIES_RGB[i % SERIES_RGB.len()];
    RGBColor(r, g, b)
}

pub const INK: RGBColor = RGBColor(0x1f, 0x29, 0x37);
pub const MUTED: RGBColor = RGBColor(0x4b, 0x55, 0x63);

/// A chart that could not be drawn: plotters' error, as text.
#[derive(Debug, thiserror::Error)]
#[error("drawing failed: {0}")]
pub struct DrawFailed(String);

/// A drawing failed: plotters' error as the error.
pub fn failed(e: impl std::fmt::Debug) -> DrawFailed {
    DrawFailed(format!("{e:?}"))
}

/// Text width estimated from its characters at `size` pixels (an SVG
/// cannot be measured before it is shown; this errs wide).
pub fn text_width(s: &str, size: u32) -> i32 {
    (s.chars().count() as f64 * f64::from(size) * 0.6).ceil() as i32
}

/// What surrounds a chart's body.
#[derive(Debug, Default)]
pub struct Frame {
    pub title: Option<String>,
    pub subtitle: Option<String>,
    /// Series names, coloured by position; none for one series.
    pub legend: Vec<String>,
    pub notes: Vec<String>,
}

impl Frame {
    fn header_height(&self) -> u32 {
        let mut h = PAD as u32;
        if self.title.is_some() {
            h += TITLE + 10;
        }
        if self.subtitle.is_some() {
            h += SUBTITLE + 8;
        }
        h
    }

    /// Legend items flow in rows across the width.
    fn legend_rows(&self) -> Vec<Vec<(usize, String)>> {
        let mut rows: Vec<Vec<(usize, String)>> = Vec::new();
        let mut used = 0;
        for (i, name) in self.legend.iter().enumerate() {
            let name = clean_line(name, false);
            let w = 22 + text_width(&name, MEDIUM) + 18;
            if rows.is_empty() || used + w > WIDTH as i32 - 2 * PAD {
                rows.push(Vec::new());
                used = 0;
            }
            used += w;
            if let Some(r) = rows.last_mut() {
                r.push((i, name));
            }
        }
        rows
    }

    /// The whole SVG: the frame around a body `body_height` pixels high
    /// that `body` draws.
    pub fn render(
        &self,
        body_height: u32,
        body: impl FnOnce(&Area) -> Result<(), DrawFailed>,
    ) -> Result<String, DrawFailed> {
        let legend = self.legend_rows();
        let footer =
            legend.len() as u32 * LEGEND_ROW + self.notes.len() as u32 * NOTE_ROW + PAD as u32;
        let header = self.header_height();
        let height = header + body_height + footer;
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
            root.fill(&WHITE).map_err(failed)?;
            self.header(&root)?;
            let (_, rest) = root.split_vertically(header);
            let (main, bottom) = rest.split_vertically(body_height);
            body(&main)?;
            draw_legend(&bottom, &legend)?;
            let mut y = legend.len() as i32 * LEGEND_ROW as i32 + 4;
            for n in &self.notes {
                let style = (FONT, MEDIUM, FontStyle::Italic).into_font().color(&MUTED);
                bottom
                    .draw(&Text::new(clean_line(n, false), (PAD, y), style))
                    .map_err(failed)?;
                y += NOTE_ROW as i32;
            }
            root.present().map_err(failed)?;
        }
        Ok(svg)
    }

    fn header(&self, root: &Area) -> Result<(), DrawFailed> {
        let mut y = PAD;
        if let Some(t) = &self.title {
            let style = (FONT, TITLE, FontStyle::Bold).into_font().color(&INK);
            root.draw(&Text::new(clean_line(t, false), (PAD, y), style))
                .map_err(failed)?;
            y += TITLE as i32 + 10;
        }
        if let Some(t) = &self.subtitle {
            let style = (FONT, SUBTITLE).into_font().color(&MUTED);
            root.draw(&Text::new(clean_line(t, false), (PAD, y), style))
                .map_err(failed)?;
        }
        Ok(())
    }
}

fn draw_legend(area: &Area, rows: &[Vec<(usize, String)>]) -> Result<(), DrawFailed> {
    let text = (FONT, MEDIUM)
        .into_font()
        .color(&INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (r, row) in rows.iter().enumerate() {
        let y = r as i32 * LEGEND_ROW as i32 + LEGEND_ROW as i32 / 2;
        let mut x = PAD;
        for (i, name) in row {
            area.draw(&Rectangle::new(
                [(x, y - 6), (x + 12, y + 6)],
                colour(*i).filled(),
            ))
            .map_err(failed)?;
            area.draw(&Text::new(name.clone(), (x + 18, y), text.clone()))
                .map_err(failed)?;
            x += 22 + text_width(name, MEDIUM) + 18;
        }
    }
    Ok(())
}

/// `(no data)` in the body.
pub fn no_data(area: &Area) -> Result<(), DrawFailed> {
    let style = (FONT, MEDIUM, FontStyle::Italic).into_font().color(&MUTED);
    area.draw(&Text::new("(no data)", (PAD, 10), style))
        .map_err(failed)
}

pub const LEFT: i32 = PAD;

/// A linear axis from `lo` to `hi` (either way round) whose ticks are
/// exactly `keys`: plotters draws the mesh and the labels, the terminal's
/// scale says where they go.
#[derive(Debug, Clone)]
pub struct Ticked {
    pub lo: f64,
    pub hi: f64,
    pub keys: Vec<f64>,
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let span = self.hi - self.lo;
        let f = if span == 0.0 {
            0.5
        } else {
            (v - self.lo) / span
        };
        // Values near f64::MAX make spans infinite or offsets past i32:
        // keep the pixel finite and inside what plotters can add to.
        let px = f64::from(limit.0) + f * f64::from(limit.1 - limit.0);
        if px.is_finite() {
            px.round().clamp(-1e9, 1e9) as i32
        } else {
            limit.0
        }
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.max_num_points() == 0 {
            return Vec::new();
        }
        self.keys.clone()
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}
