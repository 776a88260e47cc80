//! gem-ask's settings merged from their four sources, each value with the
//! one it came from: a flag, then the environment, then the config file,
//! then the built-in default (for the width, the terminal comes before the
//! default). [`resolve`] writes the merged values back into the parsed
//! flags, so the rest of the program reads one place; [`Settings::render`]
//! is `gem-ask --print-config`, with keys and other secrets redacted
//! ([`listing`]).

use std::path::PathBuf;

use super::args::Args;
use crate::config::{self, Config};
use crate::provider::ProviderKind;
use crate::term::{ColorChoice, Said, TermEnv};

mod listing;

use listing::{Line, tool_lines};

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Flag(&'static str),
    Env(String),
    Config,
    Terminal,
    Default,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Flag(flag) => f.write_str(flag),
            Source::Env(var) => write!(f, "environment {var}"),
            Source::Config => f.write_str("config"),
            Source::Terminal => f.write_str("terminal"),
            Source::Default => f.write_str("default"),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Setting<T> {
    pub value: T,
    pub source: Source,
}

/// The settings' word for who decided a terminal setting.
fn source(said: Said, flag: &'static str, var: &str) -> Source {
    match said {
        Said::Flag => Source::Flag(flag),
        Said::Env => Source::Env(var.into()),
        Said::Config => Source::Config,
        Said::Terminal => Source::Terminal,
        Said::Default => Source::Default,
    }
}

fn set<T>(value: T, source: Source) -> Setting<T> {
    Setting { value, source }
}

/// The merged settings of one run.
#[derive(Debug, Clone)]
pub struct Settings {
    pub config_path: Option<PathBuf>,
    pub config_found: bool,
    pub provider: Setting<ProviderKind>,
    pub model: Setting<String>,
    pub base_url: Setting<String>,
    /// The variable the key came from; the key itself is not kept here.
    pub api_key: Option<String>,
    pub color: Setting<ColorChoice>,
    pub width: Setting<usize>,
    /// `[tools]` and `[mcp.*]` as merged with their flags, already drawn.
    tools: Vec<Line>,
}

/// Why the settings cannot be merged; each names what to fix.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error(transparent)]
    Config(#[from] config::ConfigError),
    /// A provider without a default model, and no model given.
    #[error(
        "--provider {name} needs a model: give --model, set {vars}, or set model in the config's [{name}] table",
        name = .0.name(),
        vars = .0.wiring().model_vars.join(" or ")
    )]
    NoModel(ProviderKind),
}

/// Reads the config file (once) and merges; the error (a malformed file,
/// no model for a provider that has no default) names what to fix. The
/// config comes back too, for what the flags do not cover (its tables of
/// tools and MCP servers).
pub fn resolve(args: &mut Args) -> Result<(Settings, Config), SettingsError> {
    let path = config::path();
    let found = path.as_ref().is_some_and(|p| p.is_file());
    let cfg = match &path {
        Some(p) => config::load_from(p)?,
        None => Config::default(),
    };
    if let Some(w) = path
        .as_deref()
        .and_then(|p| config::exposure_warning(p, &cfg))
    {
        crate::term::diag(format!("gem-ask: warning: {w}"));
    }
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    let mut s = merge(args, &cfg, &env, &TermEnv::from_process())?;
    s.config_path = path;
    s.config_found = found;
    Ok((s, cfg))
}

/// [`resolve`] with the config, environment and terminal given.
pub fn merge(
    args: &mut Args,
    cfg: &Config,
    env: &dyn Fn(&str) -> Option<String>,
    term: &TermEnv,
) -> Result<Settings, SettingsError> {
    let given = args.given.clone();
    let first_env = |vars: &[&str]| {
        vars.iter()
            .find_map(|v| env(v).map(|x| (v.to_string(), x.trim().to_string())))
    };
    let provider = if given.has("provider") {
        set(args.provider, Source::Flag("--provider"))
    } else if let Some(p) = cfg.provider {
        set(p, Source::Config)
    } else {
        set(ProviderKind::default(), Source::Default)
    };
    let kind = provider.value;
    let wiring = kind.wiring();
    let table = cfg.provider(kind);

    let model = if given.has("model") {
        set(args.model.clone(), Source::Flag("--model"))
    } else if let Some((var, v)) = first_env(wiring.model_vars) {
        set(v, Source::Env(var))
    } else if let Some(m) = &table.model {
        set(m.clone(), Source::Config)
    } else if let Some(m) = wiring.default_model {
        set(m.to_string(), Source::Default)
    } else {
        return Err(SettingsError::NoModel(kind));
    };
    let base_url = match (
        &args.base_url,
        first_env(wiring.base_url_vars),
        &table.base_url,
    ) {
        (Some(b), _, _) if given.has("base_url") => set(b.clone(), Source::Flag("--base-url")),
        (_, Some((var, v)), _) => set(v, Source::Env(var)),
        (_, None, Some(b)) => set(b.clone(), Source::Config),
        _ => set(wiring.default_base_url.to_string(), Source::Default),
    };
    let api_key = first_env(wiring.key_vars).map(|(var, _)| var);

    // NO_COLOR and COLUMNS are the environment's say; the terminal's own
    // rules (TermEnv) apply them, so the flag is left as it is for them.
    let (c, said) = term.color_from(given.has("color").then_some(args.color), cfg.color);
    if said == Said::Config {
        args.color = c;
    }
    let color = set(c, source(said, "--color", "NO_COLOR"));
    let flag = args.width.filter(|_| given.has("width")).map(usize::from);
    let (w, said) = term.width_from(flag, cfg.width.map(usize::from));
    if said == Said::Config {
        args.width = cfg.width;
    }
    let width = set(w, source(said, "--width", "COLUMNS"));

    args.provider = kind;
    args.model = model.value.clone();
    args.base_url = Some(base_url.value.clone());
    Ok(Settings {
        config_path: None,
        config_found: false,
        tools: tool_lines(args, cfg),
        provider,
        model,
        base_url,
        api_key,
        color,
        width,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn args(argv: &[&str], given: &[&str]) -> Args {
        let mut a =
            Args::try_parse_from(std::iter::once("gem-ask").chain(argv.iter().copied())).unwrap();
        a.given = super::super::Given::of(given);
        a
    }

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    fn cfg(text: &str) -> Config {
        crate::config::parse(text).unwrap()
    }

    #[test]
    fn flags_beat_environment_beats_config_beats_default() {
        let c = cfg("[gemini]\nmodel = \"cfg-model\"\nbase_url = \"http://cfg:1\"\n");
        let term = TermEnv::default();
        let mut a = args(&[], &[]);
        let s = merge(&mut a, &c, &env(&[]), &term).unwrap();
        assert_eq!(
            (s.model.value.as_str(), &s.model.source),
            ("cfg-model", &Source::Config)
        );
        assert_eq!(a.base_url.as_deref(), Some("http://cfg:1"));

        let e = env(&[
            ("GEMINI_MODEL", "env-model"),
            ("GOOGLE_GEMINI_BASE_URL", "http://env:2"),
        ]);
        let mut a = args(&[], &[]);
        let s = merge(&mut a, &c, &e, &term).unwrap();
        assert_eq!(s.model.source, Source::Env("GEMINI_MODEL".into()));
        assert_eq!(
            (a.model.as_str(), a.base_url.as_deref()),
            ("env-model", Some("http://env:2"))
        );

        let mut a = args(
            &["--model", "flag", "--base-url", "http://flag:3"],
            &["model", "base_url"],
        );
        let s = merge(&mut a, &c, &e, &term).unwrap();
        assert_eq!(s.model.source, Source::Flag("--model"));
        assert_eq!(
            (a.model.as_str(), a.base_url.as_deref()),
            ("flag", Some("http://flag:3"))
        );

        let mut a = args(&[], &[]);
        let s = merge(&mut a, &Config::default(), &env(&[]), &term).unwrap();
        assert_eq!(s.model.value, crate::provider::DEFAULT_MODEL);
        assert_eq!(s.base_url.source, Source::Default);
    }

    #[test]
    fn each_provider_reads_its_own_table_and_variables() {
        let c = cfg("provider = \"openai\"\n[gemini]\nmodel = \"g\"\n[openai]\nmodel = \"qwen\"\n");
        let e = env(&[
            ("GEMINI_MODEL", "gm"),
            ("OPENAI_BASE_URL", "http://127.0.0.1:11434/v1"),
            ("OPENAI_API_KEY", "sk-x"),
        ]);
        let mut a = args(&[], &[]);
        let s = merge(&mut a, &c, &e, &TermEnv::default()).unwrap();
        assert_eq!(
            (a.provider, a.model.as_str()),
            (ProviderKind::Openai, "qwen")
        );
        assert_eq!(s.base_url.source, Source::Env("OPENAI_BASE_URL".into()));
        assert_eq!(s.api_key.as_deref(), Some("OPENAI_API_KEY"));
        // The flag switches back, and Gemini's settings come with it.
        let mut a = args(&["--provider", "gemini"], &["provider"]);
        merge(&mut a, &c, &e, &TermEnv::default()).unwrap();
        assert_eq!((a.provider, a.model.as_str()), (ProviderKind::Gemini, "gm"));
        // An OpenAI-compatible server has no default model.
        let mut a = args(&["--provider", "openai"], &["provider"]);
        let err = merge(&mut a, &Config::default(), &env(&[]), &TermEnv::default())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("needs a model") && err.contains("[openai]"),
            "{err}"
        );
    }

    #[test]
    fn colour_and_width_follow_flags_environment_config_terminal() {
        let c = cfg("color = \"always\"\nwidth = 100\n");
        let tty = TermEnv {
            stdout_is_tty: true,
            terminal_width: Some(120),
            ..TermEnv::default()
        };
        let mut a = args(&[], &[]);
        let s = merge(&mut a, &c, &env(&[]), &tty).unwrap();
        assert_eq!((a.color, a.width), (ColorChoice::Always, Some(100)));
        assert_eq!((s.width.value, &s.width.source), (100, &Source::Config));

        let no_color = TermEnv {
            no_color: true,
            columns: Some("70".into()),
            ..tty.clone()
        };
        let mut a = args(&[], &[]);
        let s = merge(&mut a, &c, &env(&[]), &no_color).unwrap();
        assert_eq!((a.color, a.width), (ColorChoice::Auto, None));
        assert_eq!(s.color.source, Source::Env("NO_COLOR".into()));
        assert_eq!(
            (s.width.value, &s.width.source),
            (70, &Source::Env("COLUMNS".into()))
        );

        let mut a = args(&["--color", "never", "--width", "50"], &["color", "width"]);
        let s = merge(&mut a, &c, &env(&[]), &no_color).unwrap();
        assert_eq!((a.color, a.width), (ColorChoice::Never, Some(50)));
        assert_eq!(s.width.source, Source::Flag("--width"));

        let mut a = args(&[], &[]);
        let s = merge(&mut a, &Config::default(), &env(&[]), &tty).unwrap();
        assert_eq!((s.width.value, &s.width.source), (120, &Source::Terminal));
    }

    #[test]
    fn the_listing_is_toml_with_secrets_redacted() {
        let c = cfg(
            "[openai]\nmodel = \"m\"\nbase_url = \"http://user:pw@127.0.0.1:8/v1\"\n\
             [tools]\nallow = [\"write_file\"]\n[tools.levels]\nrun_shell_command = \"strict\"\n\
             [mcp.gh]\ncommand = \"gh-mcp\"\nenv = { GITHUB_TOKEN = \"ghp_secret\" }\n",
        );
        let e = env(&[("OPENAI_API_KEY", "sk-secret-key")]);
        let mut a = args(
            &[
                "--provider",
                "openai",
                "--allow-tool",
                "run_shell_command",
                "--mcp",
                "srv --token abcdefghijklmnopqrstuvwxyz0123",
            ],
            &["provider", "allow_tool", "mcp"],
        );
        let text = merge(&mut a, &c, &e, &TermEnv::default()).unwrap().render();
        for secret in [
            "sk-secret-key",
            "ghp_secret",
            "pw",
            "abcdefghijklmnopqrstuvwxyz0123",
        ] {
            assert!(!text.contains(secret), "{secret} in\n{text}");
        }
        let parsed: toml::Table = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(parsed["provider"].as_str(), Some("openai"));
        assert_eq!(parsed["base_url"].as_str(), Some("http://127.0.0.1:8/v1"));
        assert_eq!(parsed["api_key"].as_str(), Some("[REDACTED]"));
        assert_eq!(
            parsed["tools"]["levels"]["run_shell_command"].as_str(),
            Some("strict")
        );
        assert_eq!(
            parsed["mcp"]["gh"]["env"]["GITHUB_TOKEN"].as_str(),
            Some("[REDACTED]")
        );
        for l in [
            "provider = \"openai\"",
            "# --provider",
            "api_key = \"[REDACTED]\"",
            "# environment OPENAI_API_KEY",
            "# config, --allow-tool",
        ] {
            assert!(text.contains(l), "{l} in\n{text}");
        }
    }

    #[test]
    fn the_sandbox_settings_say_where_they_came_from() {
        let c = cfg("[tools]\nallow_network = true\n");
        let mut a = args(&["--sandbox", "strict"], &["sandbox"]);
        let text = merge(&mut a, &c, &env(&[]), &TermEnv::default())
            .unwrap()
            .render();
        let parsed: toml::Table = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(parsed["tools"]["sandbox"].as_str(), Some("strict"));
        assert_eq!(parsed["tools"]["allow_network"].as_bool(), Some(true));
        assert_eq!(parsed["tools"]["sandbox_mcp"].as_bool(), Some(false));
        for l in ["# --sandbox", "allow_network = true", "# config"] {
            assert!(text.contains(l), "{l} in\n{text}");
        }
        let mut plain = args(&[], &[]);
        let text = merge(&mut plain, &cfg(""), &env(&[]), &TermEnv::default())
            .unwrap()
            .render();
        assert!(text.contains("sandbox = \"auto\""), "{text}");
    }
}
