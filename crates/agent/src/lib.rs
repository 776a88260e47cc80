//! gemline-agent: gem-ask's engine: turns, the toolbox (consent, the
//! sandbox, MCP servers), sessions' history, the REPL. The only crate that
//! builds tokio, rmcp, landlock and jsonschema.

pub mod agent;

pub(crate) use gemline_config::config;
pub(crate) use gemline_core::{events, session, spec, term, topic};
pub(crate) use gemline_memory::memory;
pub(crate) use gemline_parse::parse;
pub(crate) use gemline_provider::provider;
pub(crate) use gemline_render::render;
