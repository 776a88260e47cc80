//! One MCP server as the config (`[mcp.NAME]`) or `--mcp` gives it: a
//! program spoken to over stdio (`command`, `args`, `env`), or a server
//! over HTTP (`url`: Streamable HTTP, falling back to the older HTTP+SSE
//! transport; `http_url`: Streamable HTTP only) with its `headers`, whose
//! values may name environment variables (`"Bearer $TOKEN"`). gemini-cli's
//! spellings (`httpUrl`, `includeTools`, `excludeTools`) are taken too;
//! gemini-cli's `url` is SSE only, which the fallback reaches.
//! [`ServerSpec::check`] says what is wrong with an entry, naming its key.

use std::collections::BTreeMap;
use std::time::Duration;

/// How to start one server (`[mcp.NAME]` or `--mcp`).
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSpec {
    #[serde(skip)]
    pub name: String,
    /// Its program, for a server over stdio.
    #[serde(default)]
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// A server over HTTP: Streamable HTTP, else HTTP+SSE.
    #[serde(default)]
    pub url: Option<String>,
    /// A server over Streamable HTTP only (gemini-cli's `httpUrl`).
    #[serde(default, alias = "httpUrl")]
    pub http_url: Option<String>,
    /// Sent with every request to a server over HTTP; `$NAME` and
    /// `${NAME}` in a value are taken from the environment.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// Seconds to connect and list its tools [default: the tool timeout].
    #[serde(default)]
    pub connect_timeout: Option<f64>,
    /// Seconds one call may take, when less than the tool timeout.
    #[serde(default)]
    pub call_timeout: Option<f64>,
    /// Its tools run without consent.
    #[serde(default)]
    pub trust: bool,
    /// Declare only these of its tools (the server's names).
    #[serde(default, alias = "includeTools")]
    pub include_tools: Option<Vec<String>>,
    /// Never declare these of its tools.
    #[serde(default, alias = "excludeTools")]
    pub exclude_tools: Vec<String>,
}

/// How a server is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach<'a> {
    /// Its program, over stdio.
    Stdio,
    /// Over HTTP at `url`; `fallback`: HTTP+SSE when the server does
    /// not speak Streamable HTTP.
    Http { url: &'a str, fallback: bool },
}

/// Most seconds a server's timeout may be.
const MAX_SECONDS: f64 = 86_400.0;

impl ServerSpec {
    /// A server over stdio: `command` with `args`.
    fn stdio(name: String, command: String, args: Vec<String>) -> ServerSpec {
        ServerSpec {
            name,
            command,
            args,
            env: BTreeMap::new(),
            url: None,
            http_url: None,
            headers: BTreeMap::new(),
            connect_timeout: None,
            call_timeout: None,
            trust: false,
            include_tools: None,
            exclude_tools: Vec::new(),
        }
    }

    /// `--mcp 'CMD ARGS'` (shell quoting), optionally `NAME=CMD ARGS`;
    /// without a name, the server is named after its program: the
    /// command's file name, or for a launcher (`npx`, `uvx`, `node`, ...)
    /// the package or script it starts. A lone `http://` or `https://`
    /// URL is a server over HTTP (as `url`), named after its host.
    pub fn from_command_line(line: &str) -> Result<ServerSpec, BadCommandLine> {
        let (name, rest) = match line.split_once('=') {
            Some((n, r))
                if !n.is_empty()
                    && n.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_-".contains(c)) =>
            {
                (Some(n.to_string()), r)
            }
            _ => (None, line),
        };
        let words = shlex::split(rest)
            .filter(|w| !w.is_empty())
            .ok_or_else(|| BadCommandLine {
                line: line.to_string(),
            })?;
        if let [url] = &words[..]
            && let Some(host) = http_host(url)
        {
            let mut spec = ServerSpec::stdio(name.unwrap_or(host), String::new(), Vec::new());
            spec.url = Some(url.clone());
            return Ok(spec);
        }
        let command = words[0].clone();
        let name = name.unwrap_or_else(|| default_name(&words));
        Ok(ServerSpec::stdio(name, command, words[1..].to_vec()))
    }

    /// How it is reached.
    pub fn reach(&self) -> Reach<'_> {
        match (&self.url, &self.http_url) {
            (Some(url), _) => Reach::Http {
                url,
                fallback: true,
            },
            (None, Some(url)) => Reach::Http {
                url,
                fallback: false,
            },
            (None, None) => Reach::Stdio,
        }
    }

    /// What messages call it beside its name: its command, or its URL
    /// without credentials or query ([`shown_url`]).
    pub fn shown(&self) -> String {
        match self.reach() {
            Reach::Stdio => self.command.clone(),
            Reach::Http { url, .. } => shown_url(url),
        }
    }

    /// Its connect timeout, else `default`.
    pub fn connect_within(&self, default: Duration) -> Duration {
        self.connect_timeout
            .map_or(default, Duration::from_secs_f64)
    }

    /// What is wrong with the entry: the key and why.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        let given = [
            !self.command.trim().is_empty(),
            self.url.is_some(),
            self.http_url.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            return Err((
                "command",
                "give one of command (a program over stdio), url or http_url (a server over \
                 HTTP)"
                    .into(),
            ));
        }
        for (key, t) in [
            ("connect_timeout", self.connect_timeout),
            ("call_timeout", self.call_timeout),
        ] {
            if t.is_some_and(|t| !(t > 0.0 && t <= MAX_SECONDS)) {
                return Err((key, "must be seconds, more than 0 and at most 86400".into()));
            }
        }
        match self.reach() {
            Reach::Stdio if !self.headers.is_empty() => Err((
                "headers",
                "are sent to a server over HTTP (url or http_url), not to a command".into(),
            )),
            Reach::Stdio => Ok(()),
            Reach::Http { fallback, .. } => {
                self.check_http(if fallback { "url" } else { "http_url" })
            }
        }
    }

    fn check_http(&self, key: &'static str) -> Result<(), (&'static str, String)> {
        if !self.args.is_empty() || !self.env.is_empty() {
            let k = if self.args.is_empty() { "env" } else { "args" };
            return Err((
                k,
                format!("is for a command; a server at a {key} takes headers"),
            ));
        }
        let url = self
            .url
            .as_deref()
            .or(self.http_url.as_deref())
            .unwrap_or_default();
        if http_host(url).is_none() {
            return Err((key, "must be an http:// or https:// URL with a host".into()));
        }
        for name in self.headers.keys() {
            if http::header::HeaderName::from_bytes(name.as_bytes()).is_err() {
                return Err(("headers", format!("{name:?} is not an HTTP header name")));
            }
        }
        Ok(())
    }
}

/// The host of an `http://` or `https://` URL, if `url` is one.
fn http_host(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok()?;
    if !matches!(u.scheme(), "http" | "https") {
        return None;
    }
    u.host_str().map(str::to_string)
}

/// A URL as messages show it: without a user or password and with its
/// query (which may carry a key) shown as `?…`.
pub fn shown_url(url: &str) -> String {
    let Ok(mut u) = url::Url::parse(url) else {
        return url.to_string();
    };
    let had_query = u.query().is_some();
    let _ = u.set_username("");
    let _ = u.set_password(None);
    u.set_query(None);
    u.set_fragment(None);
    let mut s = u.to_string();
    if had_query {
        s.push_str("?…");
    }
    s
}

/// An `--mcp` line that is no command (empty, or its quoting unclosed).
#[derive(Debug, thiserror::Error)]
#[error("--mcp {line:?}: give a command and its arguments, e.g. --mcp 'mcp-server-time', or a URL")]
pub struct BadCommandLine {
    pub line: String,
}

/// What a server started by `words` is called when no name is given.
fn default_name(words: &[String]) -> String {
    const LAUNCHERS: &[&str] = &[
        "npx", "uvx", "pipx", "bunx", "node", "python", "python3", "deno", "bun", "uv",
    ];
    let file = |w: &str| {
        std::path::Path::new(w)
            .file_name()
            .map_or_else(|| w.to_string(), |f| f.to_string_lossy().into_owned())
    };
    let program = file(&words[0]);
    if !LAUNCHERS.contains(&program.as_str()) {
        return program;
    }
    // The first argument that is not an option (nor uv's `run`): a
    // package (`@scope/name@1.2` -> `name`) or a script (`dist/x.js` -> `x`).
    let target = words[1..]
        .iter()
        .find(|w| !w.starts_with('-') && *w != "run")
        .map(|w| {
            let w = w.rsplit('/').next().unwrap_or(w);
            let w = w.split('@').find(|p| !p.is_empty()).unwrap_or(w);
            std::path::Path::new(w)
                .file_stem()
                .map_or_else(|| w.to_string(), |s| s.to_string_lossy().into_owned())
        });
    target.unwrap_or(program)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(toml: &str) -> ServerSpec {
        toml::from_str(toml).unwrap()
    }

    #[test]
    fn urls_and_gemini_cli_spellings_are_read_and_checked() {
        let s = spec(
            "url = \"https://mcp.example.com/mcp?key=abc\"\nheaders = { Authorization = \"Bearer $T\" }\n",
        );
        assert_eq!(
            s.reach(),
            Reach::Http {
                url: "https://mcp.example.com/mcp?key=abc",
                fallback: true
            }
        );
        assert_eq!(s.shown(), "https://mcp.example.com/mcp?…");
        assert!(s.check().is_ok());
        let s = spec("httpUrl = \"http://127.0.0.1:9/mcp\"\nincludeTools = [\"a\"]\n");
        assert!(matches!(
            s.reach(),
            Reach::Http {
                fallback: false,
                ..
            }
        ));
        assert_eq!(s.include_tools.as_deref(), Some(&["a".to_string()][..]));
        let key = |t: &str| spec(t).check().unwrap_err().0;
        assert_eq!(key("url = \"ftp://x/\"\n"), "url");
        assert_eq!(key("url = \"http://x/\"\ncommand = \"y\"\n"), "command");
        assert_eq!(key(""), "command");
        assert_eq!(key("command = \"y\"\nheaders = { A = \"b\" }\n"), "headers");
        assert_eq!(key("url = \"http://x/\"\nenv = { A = \"b\" }\n"), "env");
        assert_eq!(
            key("url = \"http://x/\"\nheaders = { \"a b\" = \"c\" }\n"),
            "headers"
        );
        assert_eq!(
            key("url = \"http://x/\"\ncall_timeout = 0\n"),
            "call_timeout"
        );
        assert_eq!(
            shown_url("http://me:secret@host:8080/sse"),
            "http://host:8080/sse"
        );
    }

    #[test]
    fn command_lines_name_their_server() {
        let s =
            ServerSpec::from_command_line("time=mcp-server-time --local-timezone 'Europe/Paris'")
                .unwrap();
        assert_eq!(s.name, "time");
        assert_eq!(s.args, ["--local-timezone", "Europe/Paris"]);
        let named = |line: &str| ServerSpec::from_command_line(line).unwrap().name;
        assert_eq!(named("/opt/bin/mcp-server-time"), "mcp-server-time");
        assert_eq!(
            named("npx -y @modelcontextprotocol/server-everything@2026.8.31"),
            "server-everything"
        );
        assert_eq!(
            named("uvx mcp-server-time --local-timezone UTC"),
            "mcp-server-time"
        );
        assert_eq!(named("python3 -m mcp_server_time"), "mcp_server_time");
        assert_eq!(named("node build/weather.js"), "weather");
        assert_eq!(named("npx"), "npx");
        assert!(ServerSpec::from_command_line("  ").is_err());
        assert!(ServerSpec::from_command_line("'unclosed").is_err());
        let remote = ServerSpec::from_command_line("https://mcp.example.com/mcp?a=b").unwrap();
        assert_eq!(remote.name, "mcp.example.com");
        assert_eq!(
            remote.url.as_deref(),
            Some("https://mcp.example.com/mcp?a=b")
        );
        assert!(remote.command.is_empty());
        let named = ServerSpec::from_command_line("docs=http://127.0.0.1:3001/mcp").unwrap();
        assert_eq!((named.name.as_str(), named.check()), ("docs", Ok(())));
    }
}
