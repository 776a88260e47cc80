//! gemline-memory: what the user and the model keep across sessions, in
//! SQLite (the only crate that builds rusqlite): the long-term memory
//! (`memory`) and the audit log's index of the session files (`log`).

pub mod log;
pub mod memory;

pub(crate) use gemline_core::{events, session, term};
pub(crate) use gemline_provider::provider;
