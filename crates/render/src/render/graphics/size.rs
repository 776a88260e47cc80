//! An image's size in pixels, read from its header: PNG, JPEG, GIF and
//! WebP (the images models answer with and terminals show). Nothing is
//! decoded; a header that does not make sense is no size.

/// Width and height of the image in `bytes`, when its header says.
pub fn image_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let be32 = |i: usize| Some(u32::from_be_bytes(bytes.get(i..i + 4)?.try_into().ok()?));
    let le16 = |i: usize| {
        Some(u32::from(u16::from_le_bytes(
            bytes.get(i..i + 2)?.try_into().ok()?,
        )))
    };
    let size = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.get(12..16) == Some(b"IHDR") {
        (be32(16)?, be32(20)?)
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        (le16(6)?, le16(8)?)
    } else if bytes.starts_with(&[0xff, 0xd8]) {
        jpeg_size(bytes)?
    } else if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        webp_size(bytes)?
    } else {
        return None;
    };
    (size.0 > 0 && size.1 > 0).then_some(size)
}

/// The first start-of-frame marker's size.
fn jpeg_size(b: &[u8]) -> Option<(u32, u32)> {
    let mut i = 2;
    while i + 9 < b.len() {
        if b[i] != 0xff {
            return None;
        }
        let marker = b[i + 1];
        if marker == 0xff {
            i += 1;
            continue;
        }
        let len = usize::from(u16::from_be_bytes([b[i + 2], b[i + 3]]));
        // SOF0-SOF15 but DHT (C4), JPG (C8) and DAC (CC).
        if (0xc0..=0xcf).contains(&marker) && !matches!(marker, 0xc4 | 0xc8 | 0xcc) {
            let h = u32::from(u16::from_be_bytes([b[i + 5], b[i + 6]]));
            let w = u32::from(u16::from_be_bytes([b[i + 7], b[i + 8]]));
            return Some((w, h));
        }
        i += 2 + len;
    }
    None
}

fn webp_size(b: &[u8]) -> Option<(u32, u32)> {
    let le24 = |i: usize| -> Option<u32> {
        let s = b.get(i..i + 3)?;
        Some(u32::from(s[0]) | u32::from(s[1]) << 8 | u32::from(s[2]) << 16)
    };
    match b.get(12..16)? {
        b"VP8X" => Some((le24(24)? + 1, le24(27)? + 1)),
        b"VP8 " => {
            let w = u32::from(u16::from_le_bytes(b.get(26..28)?.try_into().ok()?)) & 0x3fff;
            let h = u32::from(u16::from_le_bytes(b.get(28..30)?.try_into().ok()?)) & 0x3fff;
            Some((w, h))
        }
        b"VP8L" => {
            let v = u32::from_le_bytes(b.get(21..25)?.try_into().ok()?);
            Some(((v & 0x3fff) + 1, ((v >> 14) & 0x3fff) + 1))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // Headers come from files and tools: no bytes make a reader panic.
        #[test]
        fn no_header_panics(prefix in prop::sample::select(vec![
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(), b"GIF89a".to_vec(), vec![0xff, 0xd8],
            b"RIFF\0\0\0\0WEBPVP8X".to_vec(), b"RIFF\0\0\0\0WEBPVP8L".to_vec(), vec![]]),
            rest in prop::collection::vec(any::<u8>(), 0..64)) {
            let bytes = [prefix, rest].concat();
            let _ = image_size(&bytes);
            let _ = super::super::Raster::from_png(&bytes);
        }
    }

    #[test]
    fn sizes_of_each_format() {
        let png = super::super::Raster {
            width: 3,
            height: 2,
            rgba: vec![255; 24],
        }
        .png();
        assert_eq!(image_size(&png), Some((3, 2)));
        assert_eq!(image_size(b"GIF89a\x05\x00\x07\x00rest"), Some((5, 7)));
        // SOI, an APP0 of 4 bytes, SOF0 of 300 x 200.
        let jpeg = [
            0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00,
            0xc8, 0x01, 0x2c, 0x03, 0, 0, 0,
        ];
        assert_eq!(image_size(&jpeg), Some((300, 200)));
        let mut webp = b"RIFF\0\0\0\0WEBPVP8X\x0a\0\0\0\0\0\0\0".to_vec();
        webp.extend_from_slice(&[0x63, 0, 0, 0x31, 0, 0]);
        assert_eq!(image_size(&webp), Some((100, 50)));
        assert_eq!(image_size(b"%PDF-1.7"), None);
        assert_eq!(image_size(b"\x89PNG\r\n\x1a\n"), None);
    }
}
