//! gem-ask's front: its flags ([`args`]; the attachment and media flags in
//! [`media`]), their merge with the environment and the config file
//! ([`settings`]), the role, templates, system prompt, context files and
//! schema ([`prompting`]), `--print-config`, the `gem-ask memory ...`
//! commands ([`memory`]), the audit log `gem-ask log ...` ([`log`]), and `run`, which hands the resolved
//! [`crate::agent::Options`] to the agent engine.

pub mod args;
#[cfg(test)]
mod help_examples;
mod help_tail;
pub mod log;
pub mod map;
pub mod media;
pub mod memory;
pub mod policy;
pub mod prompting;
pub mod settings;

use std::io::{self, Write};

pub use args::{Args, Given};
pub use settings::{Settings, Source};

use crate::agent::{exit, signals};
use crate::term::coded;

/// Runs gem-ask; the value is the exit code.
pub fn run(mut args: Args) -> anyhow::Result<u8> {
    signals::install();
    // The one reading of the environment the engine sees.
    crate::agent::environ::install(
        crate::agent::environ::Environ::new(
            std::env::vars_os(),
            crate::term::TermEnv::from_process(),
        )
        .with_sessions_dir(gemline_core::session::sessions_dir()),
    );
    let mut map_args = None;
    match args.command.take() {
        Some(memory::Sub::Map(m)) => map_args = Some(m),
        Some(memory::Sub::Memory(m)) => match m.action {
            Some(action) => return run_memory(&args, action),
            None if m.words.is_empty() => {
                return Err(coded(
                    exit::USAGE,
                    "gem-ask memory needs a command: add, search, list, show, forget, relate, unrelate, \
                     graph, path, export, import or reindex (gem-ask memory --help)",
                ));
            }
            // `gem-ask memory leaks in rust`: a prompt after all.
            None => {
                args.prompt = std::iter::once("memory".to_string())
                    .chain(m.words)
                    .chain(std::mem::take(&mut args.prompt))
                    .collect();
            }
        },
        Some(memory::Sub::Log(l)) => match l.action {
            Some(action) => return log::run(action),
            None => {
                args.prompt = std::iter::once("log".to_string())
                    .chain(l.words)
                    .chain(std::mem::take(&mut args.prompt))
                    .collect();
            }
        },
        Some(memory::Sub::Policy(p)) => match p.action {
            Some(action) => return policy::run(action),
            None => {
                args.prompt = std::iter::once("policy".to_string())
                    .chain(p.words)
                    .chain(std::mem::take(&mut args.prompt))
                    .collect();
            }
        },
        None => {}
    }
    let (mut settings, config) =
        settings::resolve(&mut args).map_err(|e| coded(exit::USAGE, e.to_string()))?;
    let prompting = prompting::resolve(&mut args, &config, &prompting::Places::of_process())
        .map_err(|e| coded(e.code(), e.to_string()))?;
    if prompting.model_from_role {
        settings.model = settings::Setting {
            value: args.model.clone(),
            source: Source::Flag("--role"),
        };
    }
    // A flag's or a role's thinking came first; the config's is the default.
    let thinking_from = match (args.thinking, config.thinking) {
        (Some(_), _) if prompting.thinking_from_role => "role",
        (Some(_), _) => "--thinking",
        (None, Some(_)) => "config",
        (None, None) => "",
    };
    args.thinking = args.thinking.or(config.thinking);
    let mut prompting = prompting;
    prompting.thinking_row = args.thinking.map(|t| (t.name(), thinking_from));
    if args.print_config {
        let mut out = io::stdout().lock();
        out.write_all(settings.render().as_bytes())?;
        out.write_all(prompting.render(args.temperature).as_bytes())?;
        out.flush()?;
        return Ok(exit::OK);
    }
    // GEMINI_MODEL="" is "not set", not a model called "".
    if args.model.trim().is_empty() {
        args.model = crate::provider::DEFAULT_MODEL.to_string();
    }
    let memory = memory_options(&args, &config, false);
    let policy_files = std::mem::take(&mut args.policy);
    let model = args.model.clone();
    let mut options = args.into_options(config.tools_file());
    from_environment(&mut options);
    let caps = config.budget;
    let b = &mut options.budget;
    b.max_requests = b.max_requests.or(caps.max_requests);
    b.max_tokens = b.max_tokens.or(caps.max_tokens);
    b.max_cost = b.max_cost.or(caps.max_cost);
    options.budget.price = price_of(&model, &config, options.budget.max_cost.is_some())?;
    options.budget.overrides = std::sync::Arc::new(config.prices.clone());
    options.tools.config_dir = settings
        .config_path
        .as_ref()
        .and_then(|p| Some(p.parent()?.to_path_buf()));
    let config_dir = crate::config::path().and_then(|p| Some(p.parent()?.to_path_buf()));
    options.tools.policy = policy::load(&policy_files, config_dir.as_deref())?;
    options.ask.system = prompting.system;
    options.schema = prompting.schema.map(std::sync::Arc::new);
    options.memory = memory;
    match map_args {
        Some(m) => map::run(m, &options),
        None => crate::agent::run(options),
    }
}

/// What the environment (read once, at the start) says of the options'
/// concerns: the session (`GEMINI_SESSION_ID`) and the first wait between
/// retries (`GEMLINE_RETRY_BASE_MS`).
fn from_environment(options: &mut crate::agent::Options) {
    let env = crate::agent::environ::get();
    options.conversation.session_from_env = env.session_id.clone();
    options.connection.retry_base = env.retry_base;
}

/// The model's price (`agent::price`): the config's `[prices.MODEL]`,
/// else the dated table. `--max-cost` without one is a usage error, since
/// a cap on a cost nobody knows would be a guess.
fn price_of(
    model: &str,
    config: &crate::config::Config,
    capped: bool,
) -> anyhow::Result<Option<crate::agent::price::Price>> {
    if config
        .budget
        .max_cost
        .is_some_and(|c| !c.is_finite() || c < 0.0)
    {
        return Err(coded(
            exit::USAGE,
            "config [budget] max_cost: an amount of dollars, not negative",
        ));
    }
    if let Some((name, _)) = config.prices.iter().find(|(_, r)| !r.is_valid()) {
        return Err(coded(
            exit::USAGE,
            format!(
                "config [prices.{name}]: each price is a number of dollars per million tokens, not negative"
            ),
        ));
    }
    let price = crate::agent::price::lookup(model, &config.prices);
    if capped && price.is_none() {
        return Err(coded(
            exit::USAGE,
            format!(
                "--max-cost: the price of {model} is unknown (the table, of {}, lacks it); \
                 give it in the config as [prices.\"{model}\"] input, cached_input, output",
                crate::agent::price::TABLE_DATE
            ),
        ));
    }
    Ok(price)
}

/// `gem-ask memory ...`: the config read for the embedding model, the
/// store used whatever `--memory` says.
fn run_memory(args: &Args, action: memory::Action) -> anyhow::Result<u8> {
    let cfg = crate::config::load().map_err(|e| coded(exit::USAGE, e.to_string()))?;
    let opts = memory_options(args, &cfg, true).expect("always on");
    let mut options = args.clone().into_options(cfg.tools_file());
    from_environment(&mut options);
    let handle =
        crate::agent::setup::make_memory(Some(&opts), &options.connection).expect("memory is on");
    memory::run(action, &handle)
}

/// The memory options of a run: `--memory`/`--no-memory` or the config's
/// `memory.enabled` decide whether memory is on (`None` when off, unless
/// `always`: the memory commands use the store whatever they say).
pub fn memory_options(
    args: &Args,
    cfg: &crate::config::Config,
    always: bool,
) -> Option<crate::memory::MemoryOptions> {
    let m = &cfg.memory;
    let on = args.mem.memory || (m.enabled && !args.mem.no_memory);
    if !on && !always {
        return None;
    }
    let chat = if args.given.has("provider") {
        args.provider
    } else {
        cfg.provider.unwrap_or(args.provider)
    };
    let embedding = m.embedding_model.as_ref().map(|model| {
        let provider = m.embedding_provider.unwrap_or(chat);
        let wiring = provider.wiring();
        let env = wiring.base_url_vars.iter().find_map(|v| {
            std::env::var(v)
                .ok()
                .map(|x| x.trim().to_string())
                .filter(|x| !x.is_empty())
        });
        let base_url = m
            .embedding_base_url
            .clone()
            .or_else(|| args.base_url.clone().filter(|_| provider == chat))
            .or(env)
            .or_else(|| cfg.provider(provider).base_url.clone())
            .unwrap_or_else(|| wiring.default_base_url.to_string());
        crate::memory::handle::EmbeddingOptions {
            provider,
            model: model.trim().to_string(),
            base_url,
        }
    });
    Some(crate::memory::MemoryOptions {
        path: None,
        budget: args
            .mem
            .memory_budget
            .or(m.budget)
            .unwrap_or(crate::memory::context::DEFAULT_BUDGET),
        embedding,
    })
}
