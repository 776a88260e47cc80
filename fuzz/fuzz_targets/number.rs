//! The number reader: whatever the cell, a number read is finite, and the
//! column-level decimal decision never panics.
#![no_main]

use gemline::parse::number::{
    Decimal, column_decimal, decimal_evidence, parse_number, parse_number_as,
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
    for delim in [None, Some(b','), Some(b';')] {
        let _ = column_decimal(text.split('\n'), delim);
    }
});
