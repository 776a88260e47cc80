//! gemline-memory: what the user and the model keep across sessions, in
//! SQLite (the only crate that builds rusqlite).

pub mod memory;

pub(crate) use gemline_core::{events, term};
pub(crate) use gemline_provider::provider;
