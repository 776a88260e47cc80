//! The number reader: whatever the cell, a number read is finite, and the
//! column-level decimal decision never panics.
#![no_main]

use gemline::parse::number::{
    Decimal, MarkHint, decide_decimal, decimal_evidence, doubt_note, parse_number, parse_number_as,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for cell in text.split('\n') {
        for n in [
            parse_number(cell),
            parse_number_as(cell, Decimal::Point),
            parse_number_as(cell, Decimal::Comma),
        ]
        .into_iter()
        .flatten()
        {
            assert!(n.value.is_finite(), "{cell:?} read as {}", n.value);
        }
        let _ = decimal_evidence(cell);
    }
    for hint in [MarkHint::None, MarkHint::Point, MarkHint::Comma] {
        let choice = decide_decimal(text.split('\n'), hint);
        let _ = doubt_note("x", &choice);
    }
});
