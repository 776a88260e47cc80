//! gemline: the library behind `gem-ask`, `viz-parse`, `viz-render` and
//! `topic-tag`, as one module tree. The code lives in the workspace's
//! crates (crates/NAME, ARCHITECTURE.md says which owns what); this crate
//! only re-exports their modules under the names they always had, for the
//! integration tests (tests/it), the benches and the fuzz targets.
//!
//! Layers, lowest first, each a crate that depends only on those before
//! it (so the compiler keeps the order): gemline-core (`term` < `events` <
//! `spec` < `session` < `live` < `topic`) < gemline-parse (`parse`) <
//! gemline-render (`render`) < gemline-provider (`provider`) <
//! gemline-config (`config`) < gemline-memory (`memory`, `log`) < gemline-agent
//! (`agent`) < gemline-viz (`app`: viz-parse, viz-render, topic-tag) <
//! gemline-ask (`app::gem_ask`).

pub use gemline_agent::agent;
pub use gemline_config::config;
pub use gemline_core::{events, live, session, spec, term, topic};
pub use gemline_memory::{log, memory};
pub use gemline_parse::parse;
pub use gemline_provider::provider;
pub use gemline_render::render;

/// The programs' fronts: gemline-ask's `app` (gemline-viz's, with
/// `gem_ask`), and `generate` with the list of programs and their files.
pub mod app {
    pub use gemline_ask::app::*;

    /// `--generate`, the four programs and every generated file.
    pub mod generate {
        pub use gemline_ask::app::docs::{files, programs};
        pub use gemline_viz::app::generate::*;
    }
}
