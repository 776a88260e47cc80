//! Sixel: the image as a DCS escape (`ESC P q ... ESC \`) of palette
//! colours and six-pixel-high bands. An image of at most 256 colours
//! keeps them exactly; more (anti-aliased text and lines) are reduced to
//! 256 with NeuQuant (`color_quant`). Each band writes, per colour used
//! in it, one run-length-encoded row of sixels, `$` back to the band's
//! start between colours and `-` to the next band.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::Raster;

/// Most colours a sixel palette holds in common terminals.
const COLOURS: usize = 256;

/// The palette and each pixel's index in it.
fn quantize(r: &Raster) -> (Vec<[u8; 3]>, Vec<u8>) {
    let opaque = |p: &[u8]| -> [u8; 3] {
        // Over white, as the picture stands on the page.
        let a = u16::from(p[3]);
        let mix = |c: u8| ((u16::from(c) * a + 255 * (255 - a)) / 255) as u8;
        [mix(p[0]), mix(p[1]), mix(p[2])]
    };
    let mut exact: HashMap<[u8; 3], u8> = HashMap::new();
    let mut palette = Vec::new();
    let mut indices = Vec::with_capacity((r.width * r.height) as usize);
    for p in r.rgba.chunks_exact(4) {
        let c = opaque(p);
        let next = palette.len();
        let i = *exact.entry(c).or_insert_with(|| {
            palette.push(c);
            next.min(255) as u8
        });
        if palette.len() > COLOURS {
            break;
        }
        indices.push(i);
    }
    if palette.len() <= COLOURS {
        return (palette, indices);
    }
    let flat: Vec<u8> = r
        .rgba
        .chunks_exact(4)
        .flat_map(|p| {
            let [r, g, b] = opaque(p);
            [r, g, b, 255]
        })
        .collect();
    let nq = color_quant::NeuQuant::new(10, COLOURS, &flat);
    let palette = nq
        .color_map_rgb()
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    let mut seen: HashMap<[u8; 4], u8> = HashMap::new();
    let indices = flat
        .chunks_exact(4)
        .map(|p| {
            let key = [p[0], p[1], p[2], p[3]];
            *seen
                .entry(key)
                .or_insert_with(|| nq.index_of(p).min(255) as u8)
        })
        .collect();
    (palette, indices)
}

/// The DCS escape that draws `r` at the cursor, 1:1 pixels.
pub fn encode(r: &Raster) -> Vec<u8> {
    let (palette, indices) = quantize(r);
    let (w, h) = (r.width as usize, r.height as usize);
    let mut s = String::with_capacity(w * h / 3 + 4096);
    // P2 = 1: pixels of no colour keep the background (there are none).
    let _ = write!(s, "\x1bP0;1;0q\"1;1;{w};{h}");
    for (i, [r, g, b]) in palette.iter().enumerate() {
        let pct = |c: u8| (u32::from(c) * 100 + 127) / 255;
        let _ = write!(s, "#{i};2;{};{};{}", pct(*r), pct(*g), pct(*b));
    }
    let mut bits = vec![0u8; w];
    for top in (0..h).step_by(6) {
        let rows = (h - top).min(6);
        let mut used = [false; COLOURS];
        for y in top..top + rows {
            for &i in &indices[y * w..(y + 1) * w] {
                used[i as usize] = true;
            }
        }
        let mut first = true;
        for (colour, _) in used.iter().enumerate().filter(|(_, u)| **u) {
            bits.fill(0);
            for dy in 0..rows {
                let row = &indices[(top + dy) * w..(top + dy + 1) * w];
                for (x, &i) in row.iter().enumerate() {
                    if usize::from(i) == colour {
                        bits[x] |= 1 << dy;
                    }
                }
            }
            if !first {
                s.push('$');
            }
            first = false;
            let _ = write!(s, "#{colour}");
            push_runs(&mut s, &bits);
        }
        s.push('-');
    }
    s.push_str("\x1b\\");
    s.into_bytes()
}

/// One colour's row of sixels, runs of four or more as `!N`; trailing
/// empty sixels left out.
fn push_runs(s: &mut String, bits: &[u8]) {
    let end = bits.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    let mut x = 0;
    while x < end {
        let b = bits[x];
        let run = bits[x..end].iter().take_while(|&&c| c == b).count();
        let ch = char::from(0x3f + b);
        if run >= 4 {
            let _ = write!(s, "!{run}{ch}");
        } else {
            for _ in 0..run {
                s.push(ch);
            }
        }
        x += run;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_colours_in_one_band() {
        // 5 x 2: the left 2 columns red, the rest white.
        let mut rgba = Vec::new();
        for _ in 0..2 {
            for x in 0..5 {
                rgba.extend_from_slice(if x < 2 {
                    &[255, 0, 0, 255]
                } else {
                    &[255, 255, 255, 255]
                });
            }
        }
        let r = Raster {
            width: 5,
            height: 2,
            rgba,
        };
        let out = String::from_utf8(encode(&r)).unwrap();
        assert_eq!(
            out,
            "\x1bP0;1;0q\"1;1;5;2#0;2;100;0;0#1;2;100;100;100#0BB$#1??BBB-\x1b\\"
        );
    }

    #[test]
    fn runs_are_counted() {
        let mut s = String::new();
        push_runs(&mut s, &[1, 1, 1, 1, 1, 2, 0, 0]);
        assert_eq!(s, "!5@A");
    }

    #[test]
    fn many_colours_are_reduced_to_a_palette() {
        let (w, h) = (64u32, 64u32);
        let rgba = (0..w * h)
            .flat_map(|i| [(i % 256) as u8, (i / 16) as u8, 128, 255])
            .collect();
        let r = Raster {
            width: w,
            height: h,
            rgba,
        };
        let (palette, indices) = quantize(&r);
        assert!(palette.len() <= COLOURS);
        assert_eq!(indices.len(), (w * h) as usize);
    }
}
