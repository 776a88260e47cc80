//! Charts and images as pictures (`--graphics`): a chart's SVG (the one
//! `--format svg` writes) rasterised at the width in columns times the
//! cell width, and image files (a `media` event's) shown at most the
//! width wide and a screen high, drawn with the terminal's protocol. Only
//! when the options carry a [`Target`], which the fronts give a terminal
//! only; a picture that cannot be made falls back to the text drawing.

use std::io::{self, Write};

use super::super::graphics::{Raster, Target};
use super::super::svg::{chart_svg, spec_svg};
use super::super::text::{Style, clean_line, paint};
use super::super::wrap::truncate;
use super::Renderer;
use crate::events::Event;
use crate::spec::Chart;
use crate::spec::grammar::ChartSpec;

/// The most rows an image takes (a chart takes what its SVG needs).
pub const IMAGE_ROWS: u32 = 24;

impl Renderer {
    /// Draws a chart as a picture; false when there is no target or the
    /// picture could not be made (the caller draws text).
    pub(super) fn chart_picture(&mut self, chart: &Chart, out: &mut dyn Write) -> io::Result<bool> {
        let Some(target) = self.opts.graphics else {
            return Ok(false);
        };
        match chart_svg(chart) {
            Ok(svg) => self.svg_picture(&svg, target, out),
            Err(_) => Ok(false),
        }
    }

    /// A valid grammar chart as a picture (see [`Self::chart_picture`]).
    pub(super) fn spec_picture(
        &mut self,
        title: Option<&str>,
        spec: &ChartSpec,
        out: &mut dyn Write,
    ) -> io::Result<bool> {
        let Some(target) = self.opts.graphics else {
            return Ok(false);
        };
        match spec_svg(title, spec) {
            Ok(svg) => self.svg_picture(&svg, target, out),
            Err(_) => Ok(false),
        }
    }

    fn svg_picture(&mut self, svg: &str, target: Target, out: &mut dyn Write) -> io::Result<bool> {
        let cols = u32::try_from(self.opts.width.max(1)).unwrap_or(u32::MAX);
        let Ok(raster) = Raster::from_svg(svg, cols.saturating_mul(target.cell.width)) else {
            return Ok(false);
        };
        let cells = target.cells(raster.width, raster.height, cols, u32::MAX);
        let png = raster.png();
        let Some(bytes) = target.draw(&png, Some(&raster), cells) else {
            return Ok(false);
        };
        self.start_block(out)?;
        self.raw(out, &bytes)?;
        self.gap_pending = true;
        Ok(true)
    }

    /// An image file (PNG for kitty and sixel; what iTerm2 decodes for
    /// it) as a picture; false when it cannot be shown so.
    fn image_picture(&mut self, file: &[u8], mime: &str, out: &mut dyn Write) -> io::Result<bool> {
        let Some(target) = self.opts.graphics else {
            return Ok(false);
        };
        let png = mime == "image/png";
        let raster = if png {
            Raster::from_png(file).ok()
        } else {
            None
        };
        let (w, h) = match (&raster, super::super::graphics::image_size(file)) {
            (Some(r), _) => (r.width, r.height),
            (None, Some(size)) => size,
            (None, None) => return Ok(false),
        };
        if !png && target.protocol != super::super::graphics::Protocol::Iterm {
            return Ok(false);
        }
        let cols = u32::try_from(self.opts.width.max(1)).unwrap_or(u32::MAX);
        let cells = target.cells(w, h, cols, IMAGE_ROWS);
        let Some(bytes) = target.draw(file, raster.as_ref(), cells) else {
            return Ok(false);
        };
        self.start_item(out)?;
        self.raw(out, &bytes)?;
        Ok(true)
    }

    /// A `media` event: an image drawn where the terminal shows images,
    /// else (and for audio, PDFs, ...) one dim line naming the file, its
    /// size and its dimensions or duration.
    pub(super) fn media(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        let path = e.str_field("path").unwrap_or("");
        let mime = e.str_field("mime_type").unwrap_or("");
        if mime.starts_with("image/")
            && self.opts.graphics.is_some()
            && let Some(bytes) = read_capped(path)
            && self.image_picture(&bytes, mime, out)?
        {
            return Ok(());
        }
        let num = |k: &str| e.get(k).and_then(serde_json::Value::as_u64);
        let mut about = Vec::new();
        if let (Some(w), Some(h)) = (num("width"), num("height")) {
            about.push(format!("{w}x{h}"));
        }
        if let Some(ms) = num("duration_ms") {
            about.push(format!("{:.1} s", ms as f64 / 1000.0));
        }
        if let Some(n) = num("size") {
            about.push(super::super::graphics::human_bytes(n));
        }
        let kind = mime
            .split('/')
            .next()
            .filter(|k| !k.is_empty())
            .unwrap_or("file");
        let ascii = !self.opts.unicode;
        let line = if about.is_empty() {
            format!("{kind}: {path}")
        } else {
            format!("{kind}: {path} ({})", about.join(", "))
        };
        let line = truncate(&clean_line(&line, ascii), self.opts.width.max(1), ascii);
        self.start_item(out)?;
        let l = paint(&line, Style::Dim, self.opts.color);
        self.lines(out, &[l])
    }

    /// Escape sequences of a picture, written as they are (they end with
    /// a newline).
    fn raw(&mut self, out: &mut dyn Write, bytes: &[u8]) -> io::Result<()> {
        out.write_all(bytes)?;
        self.at_line_start = true;
        self.wrote_any = true;
        Ok(())
    }
}

/// The most bytes of an image file read to draw it.
const MAX_IMAGE: u64 = 64 << 20;

/// An image file's bytes, if it is a regular file of at most
/// [`MAX_IMAGE`] bytes.
fn read_capped(path: &str) -> Option<Vec<u8>> {
    use std::io::Read;
    let f = std::fs::File::open(path).ok()?;
    let meta = f.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_IMAGE {
        return None;
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    f.take(MAX_IMAGE).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}
