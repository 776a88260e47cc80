//! iTerm2's inline images: the file in one OSC 1337 escape
//! (`ESC ] 1337 ; File=inline=1;...:BASE64 BEL`), shown `width` cells
//! wide with its aspect ratio kept.

use base64::Engine;

use super::Cells;

/// The escape that shows the image `file` (any format the terminal
/// decodes: PNG, JPEG, GIF, ...) in `cells.cols` columns.
pub fn encode(file: &[u8], cells: Cells) -> Vec<u8> {
    let data = base64::engine::general_purpose::STANDARD.encode(file);
    let mut out = format!(
        "\x1b]1337;File=inline=1;size={};width={};preserveAspectRatio=1:",
        file.len(),
        cells.cols
    )
    .into_bytes();
    out.reserve(data.len() + 1);
    out.extend_from_slice(data.as_bytes());
    out.push(0x07);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_escape_names_the_size_and_width() {
        let out = encode(b"abc", Cells { cols: 7, rows: 1 });
        assert_eq!(
            out,
            b"\x1b]1337;File=inline=1;size=3;width=7;preserveAspectRatio=1:YWJj\x07"
        );
    }
}
