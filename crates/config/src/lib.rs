//! gemline-config: the config file (`$XDG_CONFIG_HOME/gemline/config.toml`)
//! as a schema: its tables (`[tools]`, `[mcp.NAME]`, `[roles.NAME]`,
//! `[memory]`), reading it, and what counts as a secret in it. viz-render
//! reads the same file as gem-ask, so the schema sits below both fronts
//! and the agent takes its types from here.

pub mod config;

pub(crate) use gemline_core::term;
pub(crate) use gemline_provider::provider;
