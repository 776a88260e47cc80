//! gemline-core: what every program shares: `term` (exit codes,
//! diagnostics, inputs, the terminal), `events` (the event contract),
//! `spec` (the chart specs), `session`, `live` (input that keeps coming),
//! `topic` (chapters). No heavy dependency lives here: the three viz
//! programs and gem-ask all start from this crate. ARCHITECTURE.md says
//! which crate owns what.
//!
//! Layers, lowest first: `term` < `events` < `spec` < `session` < `live` <
//! `topic`. A module imports only modules before it (the compiler cannot
//! see an order inside a crate: tests/it/layers.rs checks it).

pub mod events;
pub mod live;
pub mod session;
pub mod spec;
pub mod term;
pub mod topic;
