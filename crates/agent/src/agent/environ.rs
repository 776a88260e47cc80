//! The environment as gem-ask's front read it, once, at the start of a
//! run ([`Environ`]), installed for the engine with [`install`]: the
//! engine reads no environment variable itself. The terminal's variables
//! are a [`TermEnv`]; the variables the engine names (`GEMINI_SESSION_ID`,
//! `GEMLINE_RETRY_BASE_MS`, `GEMLINE_TTY`, `PAGER`, `HOME`) are fields, and
//! so is the sessions directory the front found; the rest are kept as read, for what is looked up by a name only known at
//! run time (a provider's key variables, an MCP header's `$NAME`, the
//! variables that say which pictures a terminal draws).
//!
//! One place reads the process's environment beside this: what a child
//! process must not inherit (`toolbox::secrets`, where the child's
//! environment is built), since the child gets the process's variables.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use crate::term::TermEnv;

/// The environment variable that replaces /dev/tty (tests use a pty).
pub const TTY_ENV: &str = "GEMLINE_TTY";

/// Why the front found no sessions directory, in the words it used.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct NoSessionsDir(pub String);

/// The variables the engine consults, as the front read them.
#[derive(Debug, Clone)]
pub struct Environ {
    /// `NO_COLOR`, `TERM`, `COLUMNS`, the locale, and the terminal.
    pub term: TermEnv,
    /// `GEMINI_SESSION_ID` (not blank): the session a run belongs to
    /// when no flag says.
    pub session_id: Option<String>,
    /// `GEMLINE_RETRY_BASE_MS`: the first wait between retries (1 s).
    pub retry_base: Duration,
    /// `GEMLINE_TTY` (not empty): where consent is asked, else /dev/tty.
    pub tty: Option<PathBuf>,
    /// `PAGER`, as written.
    pub pager: Option<String>,
    /// `HOME`.
    pub home: Option<PathBuf>,
    /// Where sessions are kept (`session::sessions_dir`, resolved by the
    /// front with [`Environ::with_sessions_dir`]), or why there is none.
    pub sessions_dir: Result<PathBuf, NoSessionsDir>,
    vars: HashMap<OsString, OsString>,
}

impl Default for Environ {
    fn default() -> Environ {
        Environ {
            term: TermEnv::default(),
            session_id: None,
            retry_base: Duration::default(),
            tty: None,
            pager: None,
            home: None,
            sessions_dir: Err(NoSessionsDir(
                "cannot find the data directory: not given by the front".into(),
            )),
            vars: HashMap::new(),
        }
    }
}

impl Environ {
    /// The environment of `vars` with the terminal `term` (the front
    /// passes `std::env::vars_os()` and `TermEnv::from_process()`).
    pub fn new(vars: impl IntoIterator<Item = (OsString, OsString)>, term: TermEnv) -> Environ {
        let mut e = Environ {
            term,
            vars: vars.into_iter().collect(),
            ..Environ::default()
        };
        e.session_id = e.var("GEMINI_SESSION_ID").filter(|s| !s.trim().is_empty());
        e.retry_base = Duration::from_millis(
            e.var("GEMLINE_RETRY_BASE_MS")
                .and_then(|v| v.trim().parse::<u64>().ok())
                .unwrap_or(1000),
        );
        e.tty = e
            .vars
            .get(std::ffi::OsStr::new(TTY_ENV))
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
        e.pager = e.var("PAGER");
        e.home = e.vars.get(std::ffi::OsStr::new("HOME")).map(PathBuf::from);
        e
    }

    /// This environment with the sessions directory the front resolved.
    pub fn with_sessions_dir(mut self, dir: anyhow::Result<PathBuf>) -> Environ {
        self.sessions_dir = dir.map_err(|e| NoSessionsDir(format!("{e:#}")));
        self
    }

    /// The variable `name`, when it is set and Unicode.
    pub fn var(&self, name: &str) -> Option<String> {
        self.vars
            .get(std::ffi::OsStr::new(name))
            .and_then(|v| v.to_str())
            .map(str::to_string)
    }
}

static INSTALLED: OnceLock<Environ> = OnceLock::new();

/// Hands the engine the environment the front read; the first call wins.
pub fn install(env: Environ) {
    let _ = INSTALLED.set(env);
}

/// The environment the front installed; an empty one (1 s retries, no
/// variables) when none was, as in the engine's own tests.
pub fn get() -> &'static Environ {
    INSTALLED.get_or_init(|| Environ::new([], TermEnv::default()))
}
