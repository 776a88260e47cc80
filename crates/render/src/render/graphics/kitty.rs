//! The kitty graphics protocol: a PNG sent in APC escapes
//! (`ESC _ G key=value,...;BASE64 ESC \`), in pieces of 4096 base64 bytes
//! as the protocol asks, shown at once (`a=T`), scaled to its columns
//! (`c=`), with the terminal's replies turned off (`q=2`: an `OK` would
//! otherwise land in our input).

use base64::Engine;

use super::Cells;

/// Base64 bytes a piece carries at most.
const PIECE: usize = 4096;

/// The escapes that show `png` in `cells.cols` columns.
pub fn encode(png: &[u8], cells: Cells) -> Vec<u8> {
    let data = base64::engine::general_purpose::STANDARD.encode(png);
    let mut out = Vec::with_capacity(data.len() + data.len() / PIECE * 16 + 64);
    let pieces: Vec<&[u8]> = data.as_bytes().chunks(PIECE).collect();
    let last = pieces.len().saturating_sub(1);
    for (i, piece) in pieces.iter().enumerate() {
        let more = u8::from(i < last);
        if i == 0 {
            out.extend_from_slice(
                format!("\x1b_Ga=T,f=100,q=2,c={},m={more};", cells.cols).as_bytes(),
            );
        } else {
            out.extend_from_slice(format!("\x1b_Gm={more};").as_bytes());
        }
        out.extend_from_slice(piece);
        out.extend_from_slice(b"\x1b\\");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_image_goes_in_pieces_the_last_marked() {
        let out = encode(&[7u8; 5000], Cells { cols: 10, rows: 2 });
        let text = String::from_utf8(out).unwrap();
        let pieces: Vec<&str> = text.split("\x1b\\").filter(|p| !p.is_empty()).collect();
        assert_eq!(pieces.len(), 2, "{} base64 bytes", 5000 / 3 * 4);
        assert!(pieces[0].starts_with("\x1b_Ga=T,f=100,q=2,c=10,m=1;"));
        assert!(pieces[1].starts_with("\x1b_Gm=0;"));
    }
}
