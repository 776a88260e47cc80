//! Pictures in the terminal: charts rasterised from the SVG that
//! `--format svg` writes ([`raster`]), and images (a model's, an MCP
//! tool's) drawn inline with one of three protocols: the kitty graphics
//! protocol ([`kitty`]), iTerm2's inline images ([`iterm`]) or sixel
//! ([`sixel`]). Which one a terminal speaks is detected from its
//! environment ([`detect`]); `--graphics auto|kitty|iterm|sixel|off`
//! chooses by hand.
//!
//! Nothing here writes unless the caller was given a [`Target`], and the
//! programs' fronts give one only when stdout is a terminal: no image
//! bytes and no escape sequence ever reach a pipe, a file or a CI log.

pub mod detect;
pub mod iterm;
pub mod kitty;
pub mod raster;
pub mod sixel;
mod size;

pub use detect::{CellSize, cell_size, detect};
pub use raster::{Raster, RasterError};
pub use size::image_size;

/// `--graphics`: how to draw pictures in the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Graphics {
    /// The protocol the terminal is detected to speak (kitty, iTerm2,
    /// sixel), else none; never into a pipe or a file.
    #[default]
    Auto,
    /// The kitty graphics protocol (kitty, Ghostty, WezTerm, Konsole).
    Kitty,
    /// iTerm2's inline images (iTerm2, WezTerm, VS Code).
    Iterm,
    /// Sixel (xterm -ti vt340, foot, mlterm, Windows Terminal, contour).
    Sixel,
    /// No pictures: charts as text, images as a line with their path.
    Off,
}

/// A size for people: `1.2 GB`, `12.3 MB`, `812 KB`, `37 bytes`.
pub fn human_bytes(n: u64) -> String {
    match n {
        n if n >= 1_000_000_000 => format!("{:.1} GB", n as f64 / 1e9),
        n if n >= 1_000_000 => format!("{:.1} MB", n as f64 / 1e6),
        n if n >= 1_000 => format!("{} KB", n / 1000),
        n => format!("{n} bytes"),
    }
}

/// A protocol a terminal draws images with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Kitty,
    Iterm,
    Sixel,
}

impl Protocol {
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Kitty => "kitty",
            Protocol::Iterm => "iterm",
            Protocol::Sixel => "sixel",
        }
    }
}

/// Where pictures go: the protocol and the size of a character cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    pub protocol: Protocol,
    pub cell: CellSize,
}

impl Graphics {
    /// The target for a terminal: `None` when stdout is no terminal,
    /// when `off`, or when `auto` finds no protocol.
    pub fn resolve(
        self,
        stdout_is_tty: bool,
        var: impl Fn(&str) -> Option<String>,
        cell: CellSize,
    ) -> Option<Target> {
        if !stdout_is_tty {
            return None;
        }
        let protocol = match self {
            Graphics::Off => return None,
            Graphics::Auto => detect(var)?,
            Graphics::Kitty => Protocol::Kitty,
            Graphics::Iterm => Protocol::Iterm,
            Graphics::Sixel => Protocol::Sixel,
        };
        Some(Target { protocol, cell })
    }
}

/// A picture's place on the screen, in cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cells {
    pub cols: u32,
    pub rows: u32,
}

impl Target {
    /// The cells `width` x `height` pixels take when shown at most
    /// `max_cols` wide and `max_rows` high (and no wider than the pixels
    /// make), keeping the aspect ratio; at least one cell each way.
    pub fn cells(&self, width: u32, height: u32, max_cols: u32, max_rows: u32) -> Cells {
        let cw = u64::from(self.cell.width.max(1));
        let ch = u64::from(self.cell.height.max(1));
        let (w, h) = (u64::from(width.max(1)), u64::from(height.max(1)));
        let mut cols = w.div_ceil(cw).clamp(1, u64::from(max_cols.max(1)));
        let rows_of = |cols: u64| (h * cols * cw).div_ceil(w).div_ceil(ch).max(1);
        let max_rows = u64::from(max_rows.max(1));
        if rows_of(cols) > max_rows {
            // As wide as fits max_rows rows.
            cols = (max_rows * ch * w / (h * cw)).max(1);
        }
        Cells {
            cols: u32::try_from(cols).unwrap_or(u32::MAX),
            rows: u32::try_from(rows_of(cols).min(max_rows)).unwrap_or(u32::MAX),
        }
    }

    /// The escape sequences that draw a PNG image (`png`, of `width` x
    /// `height` pixels, decoded already in `raster` when the protocol
    /// needs pixels) in `cells`, the cursor left at the start of the line
    /// under it.
    pub fn draw(&self, png: &[u8], raster: Option<&Raster>, cells: Cells) -> Option<Vec<u8>> {
        let mut out = match self.protocol {
            Protocol::Kitty => kitty::encode(png, cells),
            Protocol::Iterm => iterm::encode(png, cells),
            Protocol::Sixel => {
                let r = raster?;
                let w = cells.cols * self.cell.width;
                let scaled;
                let r = if r.width > w {
                    scaled = r.scaled_to_width(w)?;
                    &scaled
                } else {
                    r
                };
                sixel::encode(r)
            }
        };
        out.push(b'\n');
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_drawn_into_a_pipe_whatever_is_asked() {
        let all = |_: &str| Some("xterm-kitty".to_string());
        let cell = CellSize::default();
        for g in [
            Graphics::Auto,
            Graphics::Kitty,
            Graphics::Iterm,
            Graphics::Sixel,
        ] {
            assert_eq!(g.resolve(false, all, cell), None);
        }
        assert_eq!(Graphics::Off.resolve(true, all, cell), None);
        assert_eq!(
            Graphics::Auto.resolve(true, |_| None, cell),
            None,
            "an unknown terminal gets no pictures"
        );
        assert_eq!(
            Graphics::Sixel.resolve(true, |_| None, cell),
            Some(Target {
                protocol: Protocol::Sixel,
                cell
            })
        );
    }

    #[test]
    fn cells_keep_the_aspect_ratio_within_the_width() {
        let t = Target {
            protocol: Protocol::Kitty,
            cell: CellSize {
                width: 10,
                height: 20,
            },
        };
        assert_eq!(t.cells(800, 400, 80, 99), Cells { cols: 80, rows: 20 });
        assert_eq!(t.cells(800, 400, 40, 99), Cells { cols: 40, rows: 10 });
        assert_eq!(t.cells(95, 10, 80, 99), Cells { cols: 10, rows: 1 });
        assert_eq!(t.cells(0, 0, 0, 0), Cells { cols: 1, rows: 1 });
        // A square image on a screen of 24 rows: 24 rows of 20 px are 48
        // columns of 10 px.
        assert_eq!(t.cells(1024, 1024, 80, 24), Cells { cols: 48, rows: 24 });
    }
}
