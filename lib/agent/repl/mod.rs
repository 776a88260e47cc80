//! `gem-ask -i`: the interactive session (placeholder while the loop is written).

pub mod commands;
pub mod editor;
pub mod status;
pub mod term;
