//! The consent prompt's rendering of a request (gem-ask's
//! `consent::shown`): whatever the text, the terminal size and the mark
//! style, the shown text is the request itself but for the documented
//! escapes (read back by `shown::restore`), a cut one exactly its first
//! bytes with the rest counted, no hidden character shown raw, and it
//! fits the rows given (`shown::check` asserts all of it).
#![no_main]

use gemline::agent::toolbox::consent::shown::{self, ASCII, Room, UNICODE};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [a, b, c, rest @ ..] = data else { return };
    let text = String::from_utf8_lossy(rest);
    let room = Room {
        cols: usize::from(*a) + 1,
        rows: usize::from(*b) % 64 + 1,
    };
    let marks = if c & 1 == 0 { UNICODE } else { ASCII };
    if let Err(e) = shown::check(&text, marks, room) {
        panic!("{e}");
    }
});
