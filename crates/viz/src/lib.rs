//! gemline-viz: the fronts of viz-parse, viz-render and topic-tag (flags,
//! the merge of flags, environment and config, `run`, exit codes) and
//! their binaries (src/bin/). It depends on the viz engines and the config
//! schema only, so these three programs neither build nor link the agent's
//! runtime (tokio, rmcp, landlock, jsonschema) or the memory's SQLite.

pub mod app;

pub(crate) use gemline_config::config;
pub(crate) use gemline_core::{live, spec, term, topic};
pub(crate) use gemline_parse::parse;
pub(crate) use gemline_render::render;
