//! Dates as people write them, shared by the table builder and the
//! transforms: labels that are times and the order they run in
//! (`time.rs`: years, quarters, months, day-first or month-first numeric
//! dates decided per column, newest first), and labels read as moments on
//! a time axis (`instant.rs`), and years written as decimals on a line's
//! x (`decimal.rs`: R's `1971.25`). A leaf of `parse`: it needs only numbers.

pub(super) mod decimal;
pub(super) mod instant;
pub(super) mod time;

pub(crate) use decimal::place_on_time;
pub(crate) use instant::instant;
pub use time::DateOrder;
