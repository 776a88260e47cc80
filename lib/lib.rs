//! gemline: the library behind `gem-ask`, `viz-parse`, `viz-render` and
//! `topic-tag`. The binaries only parse flags and call in here, so every
//! behaviour a user sees is testable as a function and shared between the
//! programs (the terminal view of `gem-ask` is the `viz-render` code).
//!
//! Dependencies point down the list: `events` and `spec` know nothing of the
//! others; `parse` and `render` know `spec`; `gemini` and `agent`-level code
//! emit events into a sink and never know whether a terminal receives them.

pub mod agent;
pub mod app;
pub mod config;
pub mod events;

pub mod live;
pub mod parse;
pub mod provider;
pub mod render;
pub mod session;
pub mod spec;
pub mod term;
pub mod topic;
