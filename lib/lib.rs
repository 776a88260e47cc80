//! gemline: the library behind `gem-ask`, `viz-parse`, `viz-render` and
//! `topic-tag`. The binaries only parse flags and call in here, so every
//! behaviour a user sees is testable as a function and shared between the
//! programs (the terminal view of `gem-ask` is the `viz-render` code).
//!
//! Layers, lowest first: `term` < `events` < `spec` < `session` < `live` <
//! `topic` < `parse` < `render` < `provider` < `memory` < `agent` < `config` <
//! `app`.
//! A module imports only modules before it (tests/it/layers.rs checks every
//! import, and that no two sibling modules import each other). `term` is
//! what every program shares at its edges (exit codes, diagnostics,
//! inputs, the terminal); `events` and `spec` are the event contract and
//! the chart specs; the engines (`session` to `agent`) take plain resolved
//! options (`memory` is the store of what the user and the model keep
//! across sessions); `config` is the config file's schema; `app` holds each
//! program's front (flags, the merge of flags, environment and config,
//! `run`, exit codes). ARCHITECTURE.md says which module owns what.

pub mod agent;
pub mod app;
pub mod config;
pub mod events;
pub mod live;
pub mod memory;
pub mod parse;
pub mod provider;
pub mod render;
pub mod session;
pub mod spec;
pub mod term;
pub mod topic;
