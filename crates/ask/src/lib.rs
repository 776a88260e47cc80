//! gemline-ask: gem-ask's front (flags, the merge of flags, environment and
//! config, `run`, exit codes) and its binary (src/bin/). `app` is
//! gemline-viz's `app` with `gem_ask` beside the other programs.

pub mod app {
    pub use gemline_viz::app::*;

    pub mod docs;
    pub mod gem_ask;
}

pub(crate) use gemline_agent::agent;
pub(crate) use gemline_config::config;
pub(crate) use gemline_core::term;
pub(crate) use gemline_memory::{log, memory};
pub(crate) use gemline_provider::provider;
pub(crate) use gemline_render::render;
