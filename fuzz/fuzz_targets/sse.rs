//! The SSE reader: events come out the same whatever the chunking of the
//! input; no event's data is over the limit; no field holds a line end.
#![no_main]

use std::io::BufReader;

use gemline::provider::sse::{SseEvent, SseReader};
use libfuzzer_sys::fuzz_target;

const LIMIT: usize = 256;

fn read_all(input: impl std::io::BufRead) -> (Vec<SseEvent>, bool) {
    let mut r = SseReader::with_limit(input, LIMIT);
    let mut events = Vec::new();
    loop {
        match r.next_event() {
            Ok(Some(e)) => events.push(e),
            Ok(None) => return (events, true),
            Err(_) => return (events, false),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let [chunk, rest @ ..] = data else { return };
    let whole = read_all(rest);
    let chunked = read_all(BufReader::with_capacity(usize::from(*chunk % 7) + 1, rest));
    assert_eq!(
        whole, chunked,
        "the events depend on how the input was chunked"
    );
    for e in &whole.0 {
        assert!(
            e.data.len() <= LIMIT,
            "data of {} bytes passed the limit",
            e.data.len()
        );
        assert!(!e.data.is_empty(), "an empty event was dispatched");
        assert!(
            !e.data.contains('\r'),
            "a line end inside data: {:?}",
            e.data
        );
        assert!(
            !e.event.contains(['\r', '\n']),
            "a line end in the event type"
        );
        if let Some(id) = &e.id {
            assert!(!id.contains(['\r', '\n', '\0']), "a bad id {id:?}");
        }
    }
});
