//! A file's type from its first bytes (magic numbers), not its name:
//! PNG, JPEG, WebP, HEIC/HEIF, GIF, PDF, WAV, MP3, FLAC, OGG, AAC, AIFF,
//! MP4, MOV, WebM, and text (UTF-8 without NULs or stray control
//! characters: prose and code). Names are the MIME types Gemini's
//! documentation uses (`audio/mp3`, `video/mov`).

/// How many leading bytes [`sniff`] needs.
pub const SNIFF_LEN: usize = 4096;

pub const OCTET_STREAM: &str = "application/octet-stream";

/// The MIME type of content beginning with `head`; `application/octet-stream`
/// for what is none of the known kinds.
pub fn sniff(head: &[u8]) -> &'static str {
    let at = |i: usize, magic: &[u8]| head.get(i..i + magic.len()) == Some(magic);
    if at(0, b"\x89PNG\r\n\x1a\n") {
        return "image/png";
    }
    if at(0, &[0xff, 0xd8, 0xff]) {
        return "image/jpeg";
    }
    if at(0, b"GIF87a") || at(0, b"GIF89a") {
        return "image/gif";
    }
    if at(0, b"RIFF") && at(8, b"WEBP") {
        return "image/webp";
    }
    if at(0, b"RIFF") && at(8, b"WAVE") {
        return "audio/wav";
    }
    if at(0, b"FORM") && (at(8, b"AIFF") || at(8, b"AIFC")) {
        return "audio/aiff";
    }
    if at(0, b"%PDF-") {
        return "application/pdf";
    }
    if at(0, b"fLaC") {
        return "audio/flac";
    }
    if at(0, b"OggS") {
        return "audio/ogg";
    }
    if at(0, b"ID3") {
        return "audio/mp3";
    }
    if at(4, b"ftyp") {
        return iso_brand(head.get(8..12).unwrap_or_default());
    }
    if at(0, &[0x1a, 0x45, 0xdf, 0xa3]) {
        let window = &head[..head.len().min(64)];
        return if window.windows(4).any(|w| w == b"webm") {
            "video/webm"
        } else {
            "video/x-matroska"
        };
    }
    if let [0xff, b, ..] = head {
        // An MPEG audio frame: layer bits 00 are AAC's ADTS, else MP3.
        if b & 0xf6 == 0xf0 {
            return "audio/aac";
        }
        if b & 0xe0 == 0xe0 && b & 0x06 != 0 {
            return "audio/mp3";
        }
    }
    if is_text(head) {
        return "text/plain";
    }
    OCTET_STREAM
}

/// The ISO base media file's major brand: HEIC/HEIF images, QuickTime,
/// M4A audio, and MP4 video for the rest.
fn iso_brand(brand: &[u8]) -> &'static str {
    match brand {
        b"heic" | b"heix" | b"hevc" | b"hevx" | b"heim" | b"heis" => "image/heic",
        b"mif1" | b"msf1" => "image/heif",
        b"qt  " => "video/mov",
        b"M4A " | b"M4B " => "audio/aac",
        b"avif" | b"avis" => "image/avif",
        b"3gp4" | b"3gp5" | b"3gp6" | b"3g2a" => "video/3gpp",
        _ => "video/mp4",
    }
}

/// UTF-8 (a character cut at the end of the window allowed), no NUL, and
/// control characters no more than tabs, newlines, carriage returns, form
/// feeds and ESC (coloured logs are text).
pub fn is_text(head: &[u8]) -> bool {
    let valid = match std::str::from_utf8(head) {
        Ok(_) => head.len(),
        Err(e) if e.error_len().is_none() => e.valid_up_to(),
        Err(_) => return false,
    };
    head[..valid]
        .iter()
        .all(|&b| b >= 0x20 || matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // Whatever a file starts with, sniffing answers.
        #[test]
        fn no_bytes_make_sniffing_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            let mime = sniff(&bytes);
            prop_assert!(!mime.is_empty());
        }
    }

    #[test]
    fn magic_numbers_name_their_types() {
        let cases: &[(&[u8], &str)] = &[
            (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "image/png"),
            (&[0xff, 0xd8, 0xff, 0xe0], "image/jpeg"),
            (b"GIF89a\x01\x00", "image/gif"),
            (b"RIFF\x10\0\0\0WEBPVP8 ", "image/webp"),
            (b"RIFF\x24\0\0\0WAVEfmt ", "audio/wav"),
            (b"%PDF-1.7\n", "application/pdf"),
            (b"fLaC\0\0\0\x22", "audio/flac"),
            (b"OggS\0\x02", "audio/ogg"),
            (b"ID3\x04\0", "audio/mp3"),
            (&[0xff, 0xfb, 0x90, 0x64], "audio/mp3"),
            (&[0xff, 0xf1, 0x50, 0x80], "audio/aac"),
            (b"\0\0\0\x18ftypheic\0\0\0\0", "image/heic"),
            (b"\0\0\0\x20ftypisom\0\0\x02\0", "video/mp4"),
            (b"\0\0\0\x14ftypqt  \0\0\0\0", "video/mov"),
            (
                b"\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\x82\x84webm",
                "video/webm",
            ),
            (b"FORM\0\0\0\x10AIFFCOMM", "audio/aiff"),
            (b"fn main() {\n\tprintln!(\"hi\");\n}\n", "text/plain"),
            ("d\u{e9}j\u{e0} vu \x1b[1m".as_bytes(), "text/plain"),
            (b"\x7fELF\x02\x01\x01\0", OCTET_STREAM),
            (b"text with a \0 NUL", OCTET_STREAM),
        ];
        for (head, want) in cases {
            assert_eq!(sniff(head), *want, "{head:?}");
        }
        // A multi-byte character cut by the window is still text.
        let cut = "é".repeat(3).into_bytes();
        assert!(is_text(&cut[..5]));
        assert!(!is_text(b"\xff\xfe bad"));
    }
}
