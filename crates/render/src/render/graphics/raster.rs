//! Pixels: an SVG (ours, from `render::svg`) rasterised with resvg at a
//! width in pixels, PNG written and read, an image scaled down.
//!
//! Text is drawn with the DejaVu Sans subset compiled into the binary
//! (`assets/fonts`), so a chart's pixels are the same on every machine;
//! the system's fonts are loaded only when a text has a character the
//! subset lacks (CJK, say), through usvg's fallback hook.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia;
use resvg::usvg::{self, fontdb};

const SANS: &[u8] = include_bytes!("../../../../../assets/fonts/DejaVuSans-subset.ttf");
const SANS_BOLD: &[u8] = include_bytes!("../../../../../assets/fonts/DejaVuSans-Bold-subset.ttf");

/// Pixels, row by row, RGBA with 8 bits a channel (opaque: our SVGs have
/// a white background).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Raster {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

#[derive(Debug, thiserror::Error)]
pub enum RasterError {
    #[error("the SVG cannot be read: {0}")]
    Svg(String),
    #[error("a picture of {0} x {1} pixels cannot be made")]
    Size(u32, u32),
    #[error("the PNG cannot be read: {0}")]
    Png(String),
}

/// The bundled fonts, parsed once.
fn fonts() -> Arc<fontdb::Database> {
    static DB: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = fontdb::Database::new();
        db.load_font_data(SANS.to_vec());
        db.load_font_data(SANS_BOLD.to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

/// usvg's fallback, with the system's fonts loaded the first time the
/// bundled ones lack a character.
fn resolver() -> usvg::FontResolver<'static> {
    let fallback = usvg::FontResolver::default_fallback_selector();
    usvg::FontResolver {
        select_font: usvg::FontResolver::default_font_selector(),
        select_fallback: Box::new(move |c, used, db| {
            if let Some(id) = fallback(c, used, db) {
                return Some(id);
            }
            let bundled = fonts();
            if db.len() > bundled.len() {
                return None;
            }
            Arc::make_mut(db).load_system_fonts();
            fallback(c, used, db)
        }),
    }
}

impl Raster {
    /// `svg` drawn `width` pixels wide, its height in proportion.
    pub fn from_svg(svg: &str, width: u32) -> Result<Raster, RasterError> {
        let opts = usvg::Options {
            fontdb: fonts(),
            font_resolver: resolver(),
            ..usvg::Options::default()
        };
        let tree = usvg::Tree::from_str(svg, &opts).map_err(|e| RasterError::Svg(e.to_string()))?;
        let size = tree.size();
        let scale = width as f32 / size.width().max(1.0);
        let height = (size.height() * scale).round().max(1.0) as u32;
        let mut pixmap =
            tiny_skia::Pixmap::new(width, height).ok_or(RasterError::Size(width, height))?;
        pixmap.fill(tiny_skia::Color::WHITE);
        resvg::render(
            &tree,
            tiny_skia::Transform::from_scale(scale, scale),
            &mut pixmap.as_mut(),
        );
        Ok(Raster {
            width,
            height,
            rgba: pixmap.take_demultiplied(),
        })
    }

    /// The pixels as a PNG (fast compression: a chart is drawn on every
    /// run, and a terminal decodes it right away).
    pub fn png(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.rgba.len() / 8);
        let mut enc = png::Encoder::new(&mut out, self.width, self.height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let written = enc
            .write_header()
            .and_then(|mut w| w.write_image_data(&self.rgba));
        debug_assert!(written.is_ok(), "{written:?}");
        out
    }

    /// A PNG's pixels, as RGBA (grey, palette and 16-bit images
    /// expanded).
    pub fn from_png(bytes: &[u8]) -> Result<Raster, RasterError> {
        let bad = |e: png::DecodingError| RasterError::Png(e.to_string());
        let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
        dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = dec.read_info().map_err(bad)?;
        let (width, height) = {
            let info = reader.info();
            (info.width, info.height)
        };
        // The header's size is the image's word: refuse what would not
        // fit in memory before allocating it.
        if u64::from(width) * u64::from(height) > 1 << 28 {
            return Err(RasterError::Size(width, height));
        }
        let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
        let frame = reader.next_frame(&mut buf).map_err(bad)?;
        buf.truncate(frame.buffer_size());
        let rgba = match frame.color_type {
            png::ColorType::Rgba => buf,
            png::ColorType::Rgb => buf
                .chunks_exact(3)
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect(),
            png::ColorType::GrayscaleAlpha => buf
                .chunks_exact(2)
                .flat_map(|p| [p[0], p[0], p[0], p[1]])
                .collect(),
            png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
            png::ColorType::Indexed => return Err(RasterError::Png("palette not expanded".into())),
        };
        Ok(Raster {
            width,
            height,
            rgba,
        })
    }

    /// The image scaled to `width` pixels (its height in proportion),
    /// filtered bicubically; transparent pixels over white.
    pub fn scaled_to_width(&self, width: u32) -> Option<Raster> {
        let scale = width as f32 / self.width.max(1) as f32;
        let height = ((self.height as f32 * scale).round() as u32).max(1);
        let mut src = tiny_skia::Pixmap::new(self.width, self.height)?;
        for (d, s) in src.pixels_mut().iter_mut().zip(self.rgba.chunks_exact(4)) {
            *d = tiny_skia::ColorU8::from_rgba(s[0], s[1], s[2], s[3]).premultiply();
        }
        let mut dst = tiny_skia::Pixmap::new(width.max(1), height)?;
        dst.fill(tiny_skia::Color::WHITE);
        let paint = tiny_skia::PixmapPaint {
            quality: tiny_skia::FilterQuality::Bicubic,
            ..tiny_skia::PixmapPaint::default()
        };
        dst.draw_pixmap(
            0,
            0,
            src.as_ref(),
            &paint,
            tiny_skia::Transform::from_scale(scale, scale),
            None,
        );
        Some(Raster {
            width: width.max(1),
            height,
            rgba: dst.take_demultiplied(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SVG: &str = r##"<svg width="100" height="50" viewBox="0 0 100 50" xmlns="http://www.w3.org/2000/svg">
<rect x="0" y="0" width="100" height="50" fill="#FFFFFF"/>
<rect x="0" y="0" width="50" height="50" fill="#2563EB"/>
<text x="60" y="30" font-family="sans-serif" font-size="14" fill="#000000">Ab</text>
</svg>"##;

    #[test]
    fn an_svg_is_drawn_at_the_width_asked_with_the_bundled_font() {
        let r = Raster::from_svg(SVG, 200).unwrap();
        assert_eq!((r.width, r.height), (200, 100));
        let px = |x: u32, y: u32| {
            let i = ((y * r.width + x) * 4) as usize;
            [r.rgba[i], r.rgba[i + 1], r.rgba[i + 2], r.rgba[i + 3]]
        };
        assert_eq!(px(10, 10), [0x25, 0x63, 0xeb, 255]);
        assert_eq!(px(190, 90), [255, 255, 255, 255]);
        // The text is drawn: dark pixels right of the blue square.
        let dark = (120..200)
            .flat_map(|x| (0..100).map(move |y| (x, y)))
            .filter(|&(x, y)| px(x, y)[0] < 100)
            .count();
        assert!(dark > 50, "{dark} dark pixels");
    }

    #[test]
    fn png_round_trips_and_scales() {
        let r = Raster::from_svg(SVG, 100).unwrap();
        let back = Raster::from_png(&r.png()).unwrap();
        assert_eq!(back, r);
        let half = r.scaled_to_width(50).unwrap();
        assert_eq!((half.width, half.height), (50, 25));
        assert_eq!(&half.rgba[..4], &[0x25, 0x63, 0xeb, 255]);
        assert!(Raster::from_png(b"not a png").is_err());
    }
}
