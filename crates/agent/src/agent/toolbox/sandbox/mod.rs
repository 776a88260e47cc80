//! The sandbox the shell tool's commands (and, with `--sandbox-mcp`, the
//! MCP servers) run in: on Linux, a Landlock ruleset applied in the child
//! between fork and exec ([`rules`] builds it before the fork; the child
//! only calls `landlock_restrict_self`, see [`restrict_in_child`]).
//!
//! What it enforces: writes only in the workspace roots and a private
//! temporary directory (`TMPDIR` points there); reads everywhere except
//! the home directory's secret places ([`SECRET_PLACES`], gem-ask's own
//! config and data directories) and the devices other than `/dev/null`,
//! `/dev/zero`, `/dev/full` and the random ones; no TCP `connect` or
//! `bind` unless `--allow-network` (Landlock ABI 4); no signals to, and no
//! abstract Unix sockets of, processes outside the sandbox (ABI 6). Landlock
//! also keeps a sandboxed process from tracing, or reading the memory and
//! `/proc/PID/environ` of, a process outside it (gem-ask's, which holds the
//! API key), unless it runs as root.
//!
//! `--sandbox auto` (the default) applies it where the kernel supports
//! Landlock and says once, as a warning, what it could not enforce;
//! `strict` refuses to run the command instead; `off` runs it as before.

#[cfg(target_os = "linux")]
mod rules;

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::Failed;

pub use crate::config::tools::SandboxMode;

/// What the run asks of the sandbox (flags and config, merged).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SandboxSetup {
    pub mode: SandboxMode,
    /// `--allow-network`: TCP connect and bind allowed.
    pub allow_network: bool,
    /// `--sandbox-mcp`: the MCP servers run in it too.
    pub mcp: bool,
    /// More places no sandboxed command may read (gem-ask's config and
    /// data directories, given by the front).
    pub private: Vec<PathBuf>,
}

/// The home directory's places that hold keys and tokens: no sandboxed
/// command reads them.
pub const SECRET_PLACES: &[&str] = &[
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".config/gcloud",
    ".config/gh",
    ".config/hub",
    ".kube",
    ".docker",
    ".netrc",
    ".git-credentials",
    ".npmrc",
    ".pypirc",
    ".pgpass",
    ".vault-token",
    ".password-store",
    ".local/share/keyrings",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".terraform.d",
];

/// What a child about to start gets from the sandbox.
#[derive(Debug, Default)]
pub struct Prepared {
    /// The ruleset to restrict the child with (kept open until it has
    /// started).
    pub ruleset: Option<OwnedFd>,
    /// `TMPDIR` for the child.
    pub tmpdir: Option<PathBuf>,
    /// Said once: what the sandbox could not do here.
    pub notice: Option<String>,
}

impl Prepared {
    pub fn ruleset_fd(&self) -> Option<RawFd> {
        self.ruleset.as_ref().map(AsRawFd::as_raw_fd)
    }
}

/// The sandbox of one run (by default: off).
#[derive(Debug)]
pub struct Sandbox {
    setup: SandboxSetup,
    /// The directories a command may write: the workspace roots.
    writable: Vec<PathBuf>,
    /// The kernel's Landlock ABI (0: none).
    abi: i32,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    tmp: Option<tempfile::TempDir>,
    /// The notice was given.
    told: bool,
}

/// The kernel's Landlock ABI version; 0 without Landlock.
pub fn kernel_abi() -> i32 {
    #[cfg(target_os = "linux")]
    {
        rules::kernel_abi()
    }
    #[cfg(not(target_os = "linux"))]
    {
        0
    }
}

/// Restricts the calling (just forked) process with the ruleset `fd`:
/// `no_new_privs`, then `landlock_restrict_self`. Async-signal-safe.
pub fn restrict_in_child(fd: RawFd) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        rules::restrict_in_child(fd)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = fd;
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }
}

impl Default for Sandbox {
    fn default() -> Sandbox {
        Sandbox::off()
    }
}

impl Sandbox {
    /// No sandbox.
    pub fn off() -> Sandbox {
        Sandbox::new(
            SandboxSetup {
                mode: SandboxMode::Off,
                ..SandboxSetup::default()
            },
            &[],
        )
    }

    pub fn new(setup: SandboxSetup, writable: &[PathBuf]) -> Sandbox {
        let abi = if setup.mode == SandboxMode::Off {
            0
        } else {
            kernel_abi()
        };
        Sandbox {
            setup,
            writable: writable.to_vec(),
            abi,
            state: Mutex::default(),
        }
    }

    /// As if the kernel's Landlock ABI were `abi`.
    #[cfg(test)]
    fn with_abi(setup: SandboxSetup, abi: i32) -> Sandbox {
        Sandbox {
            abi,
            ..Sandbox::new(setup, &[])
        }
    }

    pub fn setup(&self) -> &SandboxSetup {
        &self.setup
    }

    /// Whether commands run in it (asked for, and the kernel has Landlock).
    pub fn active(&self) -> bool {
        self.setup.mode != SandboxMode::Off && self.abi >= 1
    }

    /// Whether TCP is closed to the commands.
    pub fn network_closed(&self) -> bool {
        self.active() && self.abi >= 4 && !self.setup.allow_network
    }

    /// The places no command may read: the home directory's secret places
    /// and the front's, those that exist, canonical.
    fn secrets(&self) -> Vec<PathBuf> {
        let home = crate::agent::environ::get().home.clone();
        let mut all: Vec<PathBuf> = home
            .iter()
            .flat_map(|h| SECRET_PLACES.iter().map(move |p| h.join(p)))
            .chain(self.setup.private.iter().cloned())
            .filter_map(|p| p.canonicalize().ok())
            .collect();
        all.sort();
        all.dedup();
        all
    }

    /// What Landlock cannot do here and what follows, in words; `None`
    /// when it does all that is asked.
    fn shortfall(&self) -> Option<(String, &'static str)> {
        if self.abi < 1 {
            return Some((
                "this kernel has no Landlock".into(),
                "commands run without a sandbox",
            ));
        }
        if self.abi < 4 && !self.setup.allow_network {
            return Some((
                format!(
                    "this kernel's Landlock (ABI {}) cannot confine the network (ABI 4 can)",
                    self.abi
                ),
                "commands may use TCP",
            ));
        }
        None
    }

    /// For a child about to start: its ruleset, its `TMPDIR` and any
    /// notice; a refusal under `--sandbox strict` when the kernel cannot
    /// hold it.
    pub fn prepare(&self) -> Result<Prepared, Failed> {
        if self.setup.mode == SandboxMode::Off {
            return Ok(Prepared::default());
        }
        let short = self.shortfall();
        if let (Some((why, _)), SandboxMode::Strict) = (&short, self.setup.mode) {
            return Err(Failed::new(
                "sandbox_unavailable",
                format!(
                    "the command was not run: {why}, and --sandbox strict runs commands only in the sandbox"
                ),
            ));
        }
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let secrets = self.secrets();
        let mut notices = Vec::new();
        if let Some((why, so)) = &short {
            notices.push(format!(
                "{why}: {so} (--sandbox strict refuses to run them)"
            ));
        }
        for s in &secrets {
            if self.writable.iter().any(|w| s.starts_with(w)) {
                notices.push(format!(
                    "{} is inside the workspace: the sandbox cannot keep commands from reading it",
                    s.display()
                ));
            }
        }
        let notice = (!state.told && !notices.is_empty())
            .then(|| format!("sandbox: {}", notices.join("; ")));
        state.told = true;
        if self.abi < 1 {
            return Ok(Prepared {
                notice,
                ..Prepared::default()
            });
        }
        let tmpdir = match &state.tmp {
            Some(t) => t.path().to_path_buf(),
            None => {
                let t = tempfile::Builder::new()
                    .prefix("gem-ask-sandbox-")
                    .tempdir()
                    .map_err(|e| {
                        unavailable(format!("cannot make its temporary directory: {e}"))
                    })?;
                let p = t.path().to_path_buf();
                state.tmp = Some(t);
                p
            }
        };
        let ruleset = self.build(&secrets, &tmpdir)?;
        Ok(Prepared {
            ruleset: Some(ruleset),
            tmpdir: Some(tmpdir),
            notice,
        })
    }

    #[cfg(target_os = "linux")]
    fn build(&self, secrets: &[PathBuf], tmpdir: &Path) -> Result<OwnedFd, Failed> {
        let mut writable = self.writable.clone();
        writable.push(tmpdir.to_path_buf());
        rules::ruleset(&rules::Spec {
            writable,
            secrets: secrets.to_vec(),
            allow_network: self.setup.allow_network,
        })
        .map_err(|e| unavailable(e.to_string()))
    }

    #[cfg(not(target_os = "linux"))]
    fn build(&self, _: &[PathBuf], _: &Path) -> Result<OwnedFd, Failed> {
        Err(unavailable("Landlock is Linux's".into()))
    }
}

fn unavailable(why: String) -> Failed {
    Failed::new(
        "sandbox_unavailable",
        format!("the sandbox could not be set up: {why}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::toolbox::process::{self, PreExec};
    use crate::agent::toolbox::{Ctx, Workspace};
    use std::process::Command;
    use std::time::Duration;

    /// Runs `script` with bash in `ws`'s sandbox: its exit code and
    /// stderr.
    fn jailed(ws: &Workspace, script: &str) -> (i32, String) {
        let p = ws.sandbox().prepare().unwrap();
        let mut cmd = Command::new("bash");
        cmd.arg("-c").arg(script).current_dir(&ws.cwd);
        process::child_env(&mut cmd, p.tmpdir.as_deref());
        let pre = PreExec {
            new_session: true,
            cwd: None,
            landlock: p.ruleset_fd(),
        };
        let ctx = Ctx::new(ws, Duration::from_secs(60), "t");
        let o = process::run(cmd, pre, &ctx, 4096).unwrap();
        (
            o.status.unwrap().code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stderr.kept).into_owned(),
        )
    }

    fn mode(mode: SandboxMode, allow_network: bool) -> SandboxSetup {
        SandboxSetup {
            mode,
            allow_network,
            ..SandboxSetup::default()
        }
    }

    #[test]
    fn auto_says_once_what_the_kernel_cannot_do_and_strict_refuses() {
        let none = Sandbox::with_abi(mode(SandboxMode::Auto, false), 0);
        let p = none.prepare().unwrap();
        assert!(p.ruleset.is_none() && p.tmpdir.is_none());
        assert_eq!(
            p.notice.as_deref(),
            Some(
                "sandbox: this kernel has no Landlock: commands run without a sandbox \
                 (--sandbox strict refuses to run them)"
            )
        );
        assert!(none.prepare().unwrap().notice.is_none());
        assert!(!none.active());
        let e = Sandbox::with_abi(mode(SandboxMode::Strict, false), 0)
            .prepare()
            .unwrap_err();
        assert_eq!(e.kind, "sandbox_unavailable");
        assert_eq!(
            e.message,
            "the command was not run: this kernel has no Landlock, and --sandbox strict runs \
             commands only in the sandbox"
        );
        let old = Sandbox::with_abi(mode(SandboxMode::Strict, false), 3);
        assert!(
            old.prepare()
                .unwrap_err()
                .message
                .contains("cannot confine the network")
        );
        assert!(!old.network_closed());
        let old_open = Sandbox::with_abi(mode(SandboxMode::Strict, true), 3);
        if kernel_abi() >= 1 {
            assert!(old_open.prepare().unwrap().ruleset.is_some());
        }
        let off = Sandbox::with_abi(mode(SandboxMode::Off, false), 7);
        let p = off.prepare().unwrap();
        assert!(p.ruleset.is_none() && p.notice.is_none());
    }

    #[test]
    fn writes_stay_inside_secrets_stay_unread_and_tcp_is_closed() {
        if kernel_abi() < 4 {
            crate::term::diag(format!(
                "SKIPPED: this kernel's Landlock ABI is {}",
                kernel_abi()
            ));
            return;
        }
        let d = std::env::temp_dir().join(format!("gemline-sandbox-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        for sub in ["work", "outside", "private"] {
            std::fs::create_dir_all(d.join(sub)).unwrap();
        }
        std::fs::write(d.join("outside/readable"), "r").unwrap();
        std::fs::write(d.join("private/key"), "k").unwrap();
        let ws = Workspace::new(&d.join("work"), &[])
            .unwrap()
            .with_sandbox(SandboxSetup {
                mode: SandboxMode::Strict,
                private: vec![d.join("private")],
                ..SandboxSetup::default()
            });
        let out = d.join("outside").display().to_string();
        let key = d.join("private/key").display().to_string();
        assert_eq!(
            jailed(&ws, "echo ok > in.txt && cat in.txt >/dev/null").0,
            0
        );
        assert_eq!(jailed(&ws, &format!("cat {out}/readable")).0, 0);
        assert_eq!(jailed(&ws, "touch \"$TMPDIR/t\" && echo hi >&2").0, 0);
        let (code, err) = jailed(&ws, &format!("echo x > {out}/new"));
        assert_ne!(code, 0);
        assert!(err.contains("Permission denied"), "{err}");
        assert!(!d.join("outside/new").exists());
        let (code, err) = jailed(&ws, &format!("cat {key}"));
        assert_ne!(code, 0, "{err}");
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let (code, err) = jailed(&ws, &format!("exec 3<>/dev/tcp/127.0.0.1/{port}"));
        assert_ne!(code, 0, "{err}");
        let open = Workspace::new(&d.join("work"), &[])
            .unwrap()
            .with_sandbox(SandboxSetup {
                mode: SandboxMode::Strict,
                allow_network: true,
                ..SandboxSetup::default()
            });
        let (code, err) = jailed(&open, &format!("exec 3<>/dev/tcp/127.0.0.1/{port}"));
        assert_eq!(code, 0, "{err}");
    }
}
