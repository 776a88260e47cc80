//! The terminal a program writes to, captured once ([`TermEnv`]): colour,
//! width and Unicode decided from flags and the environment in the
//! documented order (`--color`, NO_COLOR, TERM=dumb; `--width`, COLUMNS,
//! the terminal, 80; `--ascii`/`--unicode`, the locale).

use std::io::{self, IsTerminal};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

/// `on` or `off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Toggle {
    On,
    Off,
}

/// Who decided a terminal setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Said {
    Flag,
    /// `NO_COLOR` or `COLUMNS`.
    Env,
    Config,
    Terminal,
    Default,
}

/// The environment a terminal decision reads, captured once so the rules
/// are testable without touching the process environment.
#[derive(Debug, Clone, Default)]
pub struct TermEnv {
    pub no_color: bool,
    pub term: Option<String>,
    pub columns: Option<String>,
    pub lc_all: Option<String>,
    pub lc_ctype: Option<String>,
    pub lang: Option<String>,
    pub stdout_is_tty: bool,
    pub terminal_width: Option<usize>,
}

impl TermEnv {
    pub fn from_process() -> TermEnv {
        let var = |k: &str| std::env::var(k).ok();
        TermEnv {
            // NO_COLOR: any non-empty value disables colour (no-color.org).
            no_color: var("NO_COLOR").is_some_and(|v| !v.is_empty()),
            term: var("TERM"),
            columns: var("COLUMNS"),
            lc_all: var("LC_ALL"),
            lc_ctype: var("LC_CTYPE"),
            lang: var("LANG"),
            stdout_is_tty: io::stdout().is_terminal(),
            terminal_width: terminal_size::terminal_size().map(|(w, _)| w.0 as usize),
        }
    }

    /// [`TermEnv::from_process`] for a program whose stdout is the pipe to
    /// another (`viz-parse --follow | viz-render --live`): the terminal is
    /// the one on stderr.
    pub fn from_process_via_stderr() -> TermEnv {
        TermEnv {
            terminal_width: terminal_size::terminal_size_of(io::stderr())
                .map(|(w, _)| w.0 as usize),
            ..TermEnv::from_process()
        }
    }

    fn term_is_dumb(&self) -> bool {
        self.term.as_deref() == Some("dumb")
    }

    /// `--color`: always and never are final; auto needs a terminal that
    /// is not dumb and no NO_COLOR.
    pub fn color(&self, choice: ColorChoice) -> bool {
        match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => self.stdout_is_tty && !self.no_color && !self.term_is_dumb(),
        }
    }

    /// `--width`, then `COLUMNS`, then the terminal, then 80.
    pub fn width(&self, flag: Option<usize>) -> usize {
        self.width_from(flag, None).0
    }

    /// `COLUMNS`, when it is a width.
    pub fn columns_width(&self) -> Option<usize> {
        self.columns
            .as_deref()
            .and_then(|c| c.trim().parse().ok())
            .filter(|&w| w > 0)
    }

    /// The width and who said it, the config heard too: the flag, then
    /// `COLUMNS`, then the config, then the terminal, then 80. Every
    /// program decides its width here.
    pub fn width_from(&self, flag: Option<usize>, config: Option<usize>) -> (usize, Said) {
        if let Some(w) = flag {
            (w, Said::Flag)
        } else if let Some(w) = self.columns_width() {
            (w, Said::Env)
        } else if let Some(w) = config {
            (w, Said::Config)
        } else if let Some(w) = self.terminal_width.filter(|&w| w > 0) {
            (w, Said::Terminal)
        } else {
            (80, Said::Default)
        }
    }

    /// The colour choice and who said it, the config heard too: a flag
    /// that was given, then NO_COLOR (never), then the config, then auto.
    /// Every program decides its colour here; [`TermEnv::color`] then
    /// applies the choice to the terminal.
    pub fn color_from(
        &self,
        flag: Option<ColorChoice>,
        config: Option<ColorChoice>,
    ) -> (ColorChoice, Said) {
        match (flag, config) {
            (Some(c), _) => (c, Said::Flag),
            _ if self.no_color => (ColorChoice::Never, Said::Env),
            (None, Some(c)) => (c, Said::Config),
            (None, None) => (ColorChoice::Auto, Said::Default),
        }
    }

    /// The locale is UTF-8 when the first set of LC_ALL, LC_CTYPE, LANG
    /// names it (POSIX precedence); unset everywhere counts as UTF-8, as
    /// every current terminal is.
    pub fn locale_is_utf8(&self) -> bool {
        let first = [&self.lc_all, &self.lc_ctype, &self.lang]
            .into_iter()
            .flatten()
            .find(|v| !v.is_empty());
        match first {
            None => true,
            Some(v) => {
                let v = v.to_ascii_lowercase();
                v.contains("utf-8") || v.contains("utf8")
            }
        }
    }

    /// Unicode unless ASCII is asked for, the locale is not UTF-8, or the
    /// terminal is dumb; `--unicode` overrides the environment.
    pub fn unicode(&self, ascii_flag: bool, unicode_flag: bool) -> bool {
        if ascii_flag {
            return false;
        }
        if unicode_flag {
            return true;
        }
        self.locale_is_utf8() && !self.term_is_dumb()
    }
}

/// Whether the terminal is one known to draw OSC 8 hyperlinks (others
/// may show the escape's text, so the default asks for a known one).
pub fn hyperlinks_known(var: impl Fn(&str) -> Option<String>) -> bool {
    let program = var("TERM_PROGRAM").unwrap_or_default();
    let term = var("TERM").unwrap_or_default();
    matches!(
        program.as_str(),
        "iTerm.app" | "WezTerm" | "vscode" | "ghostty" | "Hyper" | "Tabby"
    ) || var("VTE_VERSION")
        .and_then(|v| v.parse::<u32>().ok())
        .is_some_and(|v| v >= 5000)
        || var("WT_SESSION").is_some()
        || var("KITTY_WINDOW_ID").is_some()
        || term.contains("kitty")
        || term.starts_with("foot")
        || term.contains("wezterm")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_precedence() {
        let mut env = TermEnv {
            columns: Some("100".into()),
            terminal_width: Some(120),
            ..Default::default()
        };
        assert_eq!(env.width(Some(40)), 40);
        assert_eq!(env.width(None), 100);
        env.columns = Some("junk".into());
        assert_eq!(env.width(None), 120);
        env.terminal_width = None;
        assert_eq!(env.width(None), 80);
    }

    #[test]
    fn color_rules() {
        let tty = TermEnv {
            stdout_is_tty: true,
            ..Default::default()
        };
        assert!(tty.color(ColorChoice::Auto));
        assert!(
            !TermEnv {
                no_color: true,
                ..tty.clone()
            }
            .color(ColorChoice::Auto)
        );
        assert!(
            !TermEnv {
                term: Some("dumb".into()),
                ..tty.clone()
            }
            .color(ColorChoice::Auto)
        );
        assert!(!TermEnv::default().color(ColorChoice::Auto));
        assert!(TermEnv::default().color(ColorChoice::Always));
        assert!(!tty.color(ColorChoice::Never));
    }

    #[test]
    fn locale_rules() {
        let c = |all: Option<&str>, lang: Option<&str>| TermEnv {
            lc_all: all.map(Into::into),
            lang: lang.map(Into::into),
            ..Default::default()
        };
        assert!(c(None, None).unicode(false, false));
        assert!(c(None, Some("en_US.UTF-8")).unicode(false, false));
        assert!(!c(Some("C"), Some("en_US.UTF-8")).unicode(false, false));
        assert!(c(Some("C"), None).unicode(false, true));
        assert!(!c(None, None).unicode(true, true));
        assert!(
            !TermEnv {
                term: Some("dumb".into()),
                ..Default::default()
            }
            .unicode(false, false)
        );
    }
}
