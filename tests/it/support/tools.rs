//! Helpers of the tool and MCP tests: model replies that call tools (the
//! recorded gemini-3.1-pro parallel-call stream with its calls replaced),
//! a real pseudo-terminal standing in for /dev/tty (`GEMLINE_TTY`), gem-ask
//! started in a working directory of its own, and the MCP servers
//! installed by `.ci/setup-mcp.sh`.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::FromRawFd;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{self, FakeGemini, Reply, fixture};

pub const MODEL: &str = "gemini-3.1-pro-preview";

/// The tools a one-shot Gemini run declares by default, in their order.
pub const DEFAULT_TOOLS: [&str; 6] = [
    "render_visualization",
    "create_new_topic",
    "plot",
    "signal",
    "web_search",
    "web_fetch",
];

/// The recorded stream of three parallel calls (3.1 pro: one call per
/// event, each with an id), carrying `calls` instead: the first keeps the
/// recorded thought signature, each call gets the id `call-N`.
pub fn calls_reply(calls: &[Value]) -> Reply {
    let events = support::split_events(&fixture(
        "11-parallel-functionCall-stream-gemini-3.1-pro-preview.response.sse",
    ));
    let parse = |e: &str| -> Value {
        serde_json::from_str(e.trim().strip_prefix("data: ").unwrap()).unwrap()
    };
    let mut out = String::new();
    for (i, c) in calls.iter().enumerate() {
        let mut v = parse(&events[i.min(1)]);
        let fc = &mut v["candidates"][0]["content"]["parts"][0]["functionCall"];
        fc["name"] = c["name"].clone();
        fc["args"] = c["args"].clone();
        fc["id"] = format!("call-{}", i + 1).into();
        out.push_str(&format!("data: {v}\r\n\r\n"));
    }
    out.push_str(events.last().unwrap());
    Reply::sse(&out)
}

/// The recorded text answer that follows tool results.
pub fn answer_reply() -> Reply {
    Reply::sse(&fixture(
        "25-text-stream-after-tools-gemini-3.1-pro-preview.response.sse",
    ))
}

pub fn call(name: &str, args: Value) -> Value {
    json!({"name": name, "args": args})
}

/// The functionResponses of a request body's last content.
pub fn responses(body: &Value) -> Vec<Value> {
    body["contents"].as_array().unwrap().last().unwrap()["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["functionResponse"].clone())
        .collect()
}

/// The names declared in a request body.
pub fn declared(body: &Value) -> Vec<String> {
    body["tools"][0]["functionDeclarations"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| d["name"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// A scratch home (XDG data and config) and a working directory in it.
pub struct Scene {
    pub home: PathBuf,
    pub work: PathBuf,
}

impl Scene {
    pub fn new(name: &str) -> Scene {
        let home = support::temp_dir(name);
        let work = home.join("work");
        std::fs::create_dir_all(&work).unwrap();
        Scene { home, work }
    }

    /// Writes `$XDG_CONFIG_HOME/gemline/config.toml`.
    pub fn config(&self, toml: &str) {
        let d = self.home.join("gemline");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("config.toml"), toml).unwrap();
    }

    /// gem-ask against `server`, in the working directory, with no
    /// terminal unless `tty` is given: it runs in a session of its own
    /// (no controlling terminal, so /dev/tty cannot open).
    pub fn gem_ask(&self, server: &FakeGemini, tty: Option<&Pty>) -> Command {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin!("gem-ask"));
        for k in support::GEMINI_ENV {
            cmd.env_remove(k);
        }
        cmd.env("GEMINI_API_KEY", support::KEY)
            .env("GEMINI_BASE_URL", &server.url)
            .env("XDG_DATA_HOME", &self.home)
            .env("XDG_CONFIG_HOME", &self.home)
            .env("GEMLINE_RETRY_BASE_MS", "1")
            .env_remove("GEMLINE_TTY")
            .current_dir(&self.work)
            .args(["-m", MODEL, "--output", "jsonl"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        match tty {
            Some(p) => {
                cmd.env("GEMLINE_TTY", &p.path);
            }
            None => {
                use std::os::unix::process::CommandExt;
                // SAFETY: setsid is async-signal-safe.
                unsafe {
                    cmd.pre_exec(|| {
                        libc::setsid();
                        Ok(())
                    });
                }
            }
        }
        cmd
    }
}

/// Waits for a child at most 60 s (then kills it: a test must not hang),
/// reading its output meanwhile (a full pipe would stop it).
pub fn finish(mut child: Child) -> Output {
    fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    }
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let until = Instant::now() + Duration::from_secs(60);
    let mut status = child.try_wait().unwrap();
    while status.is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "gem-ask did not finish within 60 s; it wrote:\n{}\nand on stderr:\n{}",
                String::from_utf8_lossy(&out.join().unwrap()),
                String::from_utf8_lossy(&err.join().unwrap())
            );
        }
        std::thread::sleep(Duration::from_millis(20));
        status = child.try_wait().unwrap();
    }
    Output {
        status: status.unwrap(),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// The events of a run that must have succeeded.
pub fn succeeded(out: &Output) -> Vec<Value> {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    support::events(&out.stdout)
}

impl Scene {
    /// Starts gem-ask with `args` (see [`Scene::gem_ask`]).
    pub fn spawn(&self, server: &FakeGemini, tty: Option<&Pty>, args: &[&str]) -> Child {
        self.gem_ask(server, tty).args(args).spawn().unwrap()
    }

    /// Runs gem-ask without a terminal; it must succeed.
    pub fn run(&self, server: &FakeGemini, args: &[&str]) -> Vec<Value> {
        succeeded(&finish(self.spawn(server, None, args)))
    }
}

/// A pseudo-terminal: gem-ask opens its slave as its terminal, the test
/// reads what it was asked and types answers on the master.
pub struct Pty {
    pub path: PathBuf,
    master: File,
    _slave: File,
    seen: Arc<Mutex<Vec<u8>>>,
}

impl Pty {
    pub fn open() -> Pty {
        let (mut m, mut s) = (0, 0);
        // SAFETY: openpty fills two descriptors we then own.
        let rc = unsafe {
            libc::openpty(
                &mut m,
                &mut s,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
        // Close-on-exec, as std's own descriptors are: the programs other
        // tests of this process start must not hold this terminal open.
        for fd in [m, s] {
            // SAFETY: a descriptor openpty just gave us.
            assert_eq!(
                unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) },
                0
            );
        }
        let (master, slave) = unsafe { (File::from_raw_fd(m), File::from_raw_fd(s)) };
        let path = std::fs::read_link(format!("/proc/self/fd/{s}")).unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let mut reader = master.try_clone().unwrap();
        let sink = seen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 1024];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Pty {
            path,
            master,
            _slave: slave,
            seen,
        }
    }

    /// Everything written to the terminal so far (with the echo of what
    /// was typed).
    pub fn transcript(&self) -> String {
        String::from_utf8_lossy(&self.seen.lock().unwrap()).into_owned()
    }

    /// Waits until `needle` has appeared `count` times.
    pub fn wait_for(&self, needle: &str, count: usize) {
        let until = Instant::now() + Duration::from_secs(20);
        while self.transcript().matches(needle).count() < count {
            assert!(
                Instant::now() < until,
                "no {needle:?} (x{count}) on the terminal; it shows:\n{}",
                self.transcript()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    pub fn type_line(&mut self, line: &str) {
        self.master
            .write_all(format!("{line}\n").as_bytes())
            .unwrap();
    }
}

/// An MCP server installed by `.ci/setup-mcp.sh`, by its path under
/// target/mcp. Missing: a failure under CI=true, else the setup script is
/// tried once and, failing that, the test is skipped with a loud note.
pub fn mcp_server(rel: &str) -> Option<PathBuf> {
    static SETUP: std::sync::Once = std::sync::Once::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("target/mcp").join(rel);
    if path.exists() {
        return Some(path);
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    assert!(
        !ci,
        "{} is missing: .ci/run must run .ci/setup-mcp.sh before the tests",
        path.display()
    );
    SETUP.call_once(|| {
        let _ = Command::new(root.join(".ci/setup-mcp.sh"))
            .stdout(Stdio::null())
            .status();
    });
    if path.exists() {
        return Some(path);
    }
    let _ = writeln!(
        std::io::stderr().lock(),
        "SKIPPED: {} is not installed and .ci/setup-mcp.sh could not install it",
        path.display()
    );
    None
}

/// A Python for the stand-in MCP servers of testdata/mcp/ (`what`): the
/// venv `.ci/setup-mcp.sh` makes, else python3 or python on PATH. None
/// there: a failure under CI=true (the setup needs python3), else the
/// test is skipped with a loud note.
pub fn python(what: &str) -> Option<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let venv = root
        .join("target/mcp/venv/bin/python")
        .display()
        .to_string();
    let found = [venv.as_str(), "python3", "python"].into_iter().find(|p| {
        Command::new(p)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if found.is_none() {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        assert!(!ci, "CI: python3 is missing (.ci/setup-mcp.sh needs it)");
        let _ = writeln!(
            std::io::stderr().lock(),
            "SKIPPED: no python3 for {what}: NOT tested"
        );
    }
    found.map(str::to_string)
}

pub const TIME: &str = "venv/bin/mcp-server-time";
pub const EVERYTHING: &str = "node/node_modules/.bin/mcp-server-everything";
