//! Which image protocol a terminal speaks, read from the environment it
//! sets (no query is written to the terminal: an answer that never comes
//! would hang the program or leak into the input), and the size of its
//! character cells in pixels (`TIOCGWINSZ`).
//!
//! Under tmux or screen nothing is detected: they pass images on only
//! when configured to, and an image they swallow leaves a hole; give
//! `--graphics` there by hand.

use super::Protocol;

/// The protocol the terminal described by `var` (an environment lookup)
/// is known to draw, if any.
pub fn detect(var: impl Fn(&str) -> Option<String>) -> Option<Protocol> {
    let get = |k: &str| var(k).filter(|v| !v.is_empty());
    let term = get("TERM").unwrap_or_default();
    let program = get("TERM_PROGRAM").unwrap_or_default();
    if term == "dumb"
        || get("TMUX").is_some()
        || get("STY").is_some()
        || term.starts_with("screen")
        || term.starts_with("tmux")
    {
        return None;
    }
    if get("KITTY_WINDOW_ID").is_some()
        || term == "xterm-kitty"
        || term == "xterm-ghostty"
        || program == "ghostty"
    {
        return Some(Protocol::Kitty);
    }
    if program == "iTerm.app"
        || get("LC_TERMINAL").as_deref() == Some("iTerm2")
        || program == "WezTerm"
        || get("WEZTERM_EXECUTABLE").is_some()
    {
        return Some(Protocol::Iterm);
    }
    if term.starts_with("foot")
        || term.starts_with("mlterm")
        || get("MLTERM").is_some()
        || term.contains("sixel")
        || term.starts_with("contour")
    {
        return Some(Protocol::Sixel);
    }
    None
}

/// A character cell's size in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellSize {
    pub width: u32,
    pub height: u32,
}

impl Default for CellSize {
    /// What most terminals use at their default font size, when the
    /// terminal does not say.
    fn default() -> Self {
        CellSize {
            width: 8,
            height: 16,
        }
    }
}

/// The cell size of the terminal on `fd` (its pixel size over its
/// columns and rows), or the default when it does not report pixels.
pub fn cell_size(fd: std::os::fd::RawFd) -> CellSize {
    // SAFETY: TIOCGWINSZ fills a winsize; a failed call leaves it zeroed.
    let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::ioctl(fd, libc::TIOCGWINSZ, &mut ws) } == 0;
    from_winsize(ok.then_some(ws)).unwrap_or_default()
}

fn from_winsize(ws: Option<libc::winsize>) -> Option<CellSize> {
    let ws = ws?;
    if ws.ws_col == 0 || ws.ws_row == 0 || ws.ws_xpixel == 0 || ws.ws_ypixel == 0 {
        return None;
    }
    let width = u32::from(ws.ws_xpixel) / u32::from(ws.ws_col);
    let height = u32::from(ws.ws_ypixel) / u32::from(ws.ws_row);
    // A cell of 2 x 4 pixels or smaller is no font.
    (width >= 3 && height >= 5).then_some(CellSize { width, height })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
    }

    #[test]
    fn terminals_are_told_apart_by_their_environment() {
        let kitty = env(&[("TERM", "xterm-kitty"), ("KITTY_WINDOW_ID", "1")]);
        assert_eq!(detect(kitty), Some(Protocol::Kitty));
        let iterm = env(&[("TERM", "xterm-256color"), ("TERM_PROGRAM", "iTerm.app")]);
        assert_eq!(detect(iterm), Some(Protocol::Iterm));
        assert_eq!(detect(env(&[("TERM", "foot")])), Some(Protocol::Sixel));
        assert_eq!(detect(env(&[("TERM", "xterm-256color")])), None);
        assert_eq!(detect(env(&[])), None);
        // tmux hides the terminal under it.
        let tmux = env(&[("TERM", "tmux-256color"), ("KITTY_WINDOW_ID", "1")]);
        assert_eq!(detect(tmux), None);
        let dumb = env(&[("TERM", "dumb"), ("TERM_PROGRAM", "iTerm.app")]);
        assert_eq!(detect(dumb), None);
    }

    #[test]
    fn cell_size_comes_from_the_pixel_size() {
        let ws = |col, row, x, y| libc::winsize {
            ws_col: col,
            ws_row: row,
            ws_xpixel: x,
            ws_ypixel: y,
        };
        assert_eq!(
            from_winsize(Some(ws(80, 24, 800, 480))),
            Some(CellSize {
                width: 10,
                height: 20
            })
        );
        assert_eq!(from_winsize(Some(ws(80, 24, 0, 0))), None);
        assert_eq!(from_winsize(None), None);
    }
}
