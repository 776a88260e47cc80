//! Secrets stay home. Two halves:
//!
//! - **What a child sees.** Every process a tool starts (a shell command,
//!   an MCP server, the consent prompt's pager) gets gem-ask's environment
//!   without the variables that hold secrets: the API keys, any variable
//!   whose name looks secret (`*_KEY`, `*_TOKEN`, `*_SECRET`, `*_PAT`,
//!   `*PASSWORD*`, `*PASSWD*`, `*SECRET*`, `*CREDENTIAL*`, `*API_KEY*`,
//!   `*ACCESS_KEY*`, `*PRIVATE_KEY*`), any variable holding an API key,
//!   and any holding a URL with a password in it. The config's
//!   `tools.pass_env` (names, `*` as a wildcard) puts back what the user
//!   wants a tool to have. Call [`scrub`] on a `std::process::Command` or
//!   [`scrub_tokio`] on a tokio one before spawning it; an MCP server's
//!   own `env` table is set after, so it wins.
//! - **What leaves in a tool's output.** A tool's result (the text the
//!   user sees, the response the model reads, the events it made) has
//!   every secret gem-ask knows replaced by `[REDACTED]` before it is
//!   shown, stored in the session or sent ([`redact_ran`]): the API keys,
//!   the values of the variables hidden from children, and the values of
//!   secret-named variables the config hands an MCP server.
//!   A tool's files for the model (images, PDFs) are bytes, never
//!   altered: one whose bytes hold a secret is withheld whole.
//!
//! The allow list and the config's secrets are process-wide (set once
//! when the toolbox is built), as the environment itself is.

use std::ffi::OsString;
use std::sync::RwLock;

use serde_json::Value;

use super::{Done, MEDIA_KEY, Ran};

pub use crate::config::secrets::{
    REDACTED, has_url_password, is_secret_name, looks_secret, redact_args,
};

/// Secrets shorter than this are not searched for in output: a
/// three-letter "password" would blank out half of every answer.
const MIN_SECRET_LEN: usize = 8;

/// The config's `tools.pass_env` and the secrets it gives MCP servers.
#[derive(Debug, Default)]
struct Policy {
    pass: Vec<String>,
    known: Vec<String>,
}

static POLICY: RwLock<Policy> = RwLock::new(Policy {
    pass: Vec::new(),
    known: Vec::new(),
});

/// Sets the variables children keep although their names look secret
/// (the config's `tools.pass_env`; `*` matches any run of characters).
pub fn pass_env(names: impl IntoIterator<Item = String>) {
    if let Ok(mut p) = POLICY.write() {
        p.pass = names.into_iter().collect();
    }
}

/// Adds secrets to look for in tool output (an MCP server's secret-named
/// `env` entries from the config).
pub fn also_known(values: impl IntoIterator<Item = String>) {
    if let Ok(mut p) = POLICY.write() {
        for v in values {
            if v.trim().len() >= MIN_SECRET_LEN && !p.known.contains(&v) {
                p.known.push(v);
            }
        }
    }
}

/// `*` matches any run of characters; everything else itself.
fn glob(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == name;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || !name[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

/// The API keys gem-ask may use, from every provider's variables.
fn api_keys() -> Vec<String> {
    crate::agent::keys::known_keys()
}

/// Whether a variable is hidden from children, given the API keys and
/// the allow list.
fn hidden(name: &str, value: &str, keys: &[String], pass: &[String]) -> bool {
    if pass.iter().any(|p| glob(p, name)) {
        return false;
    }
    is_secret_name(name)
        || has_url_password(value)
        || keys
            .iter()
            .any(|k| !k.is_empty() && value.contains(k.as_str()))
}

/// The names (and values) of the variables of `vars` a child must not get.
fn hidden_vars(
    vars: impl Iterator<Item = (OsString, OsString)>,
    keys: &[String],
    pass: &[String],
) -> Vec<(OsString, String)> {
    vars.filter_map(|(k, v)| {
        let (name, value) = (k.to_string_lossy(), v.to_string_lossy());
        hidden(&name, &value, keys, pass).then(|| (k.clone(), value.into_owned()))
    })
    .collect()
}

/// The process's variables a child must not get, with their values.
fn hidden_here() -> Vec<(OsString, String)> {
    let pass = POLICY.read().map(|p| p.pass.clone()).unwrap_or_default();
    hidden_vars(std::env::vars_os(), &api_keys(), &pass)
}

/// The names of gem-ask's variables a child must not get.
pub fn hidden_names() -> Vec<OsString> {
    hidden_here().into_iter().map(|(k, _)| k).collect()
}

/// Takes the secret variables out of what `cmd` will hand its process
/// (call before any `env` of the caller's own, which then wins).
pub fn scrub(cmd: &mut std::process::Command) -> &mut std::process::Command {
    for name in hidden_names() {
        cmd.env_remove(name);
    }
    cmd
}

/// [`scrub`] for a tokio command (MCP servers).
pub fn scrub_tokio(cmd: &mut tokio::process::Command) -> &mut tokio::process::Command {
    for name in hidden_names() {
        cmd.env_remove(name);
    }
    cmd
}

/// Every secret gem-ask knows, longest first (so a key that contains
/// another is blanked whole).
pub fn known() -> Vec<String> {
    let mut all = api_keys();
    all.extend(hidden_here().into_iter().map(|(_, v)| v.trim().to_string()));
    if let Ok(p) = POLICY.read() {
        all.extend(p.known.iter().cloned());
    }
    all.retain(|s| s.len() >= MIN_SECRET_LEN);
    all.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    all.dedup();
    all
}

/// Whether any string of a tool call's arguments (keys too) holds a
/// secret gem-ask knows: the check, before consent, of the tools whose
/// arguments leave or stay (the web tools, the memory's writes).
pub fn args_hold_known(args: &Value) -> bool {
    let secrets = known();
    let mut text = String::new();
    strings(args, &mut text);
    secrets.iter().any(|s| text.contains(s.as_str()))
}

/// Every string in `v` (keys too), one a line.
fn strings(v: &Value, out: &mut String) {
    match v {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            out.push_str(k);
            out.push('\n');
            strings(x, out);
        }),
        _ => {}
    }
}

/// `text` with every secret gem-ask knows replaced by [`REDACTED`];
/// `None` when it holds none (what a memory is saved as, and what a
/// turn's memories carry into the prompt).
pub fn redact_known(text: &str) -> Option<String> {
    let secrets = known();
    redact_with(text, &secrets)
}

/// Shortest end of a cut text taken for the beginning of a secret.
const MIN_CUT_TAIL: usize = 4;

/// For a text just cut short (an output cap, a shortened command line,
/// before the cut's note is added): when it ends with the beginning of a
/// known secret (4 bytes or more) whose rest was cut off, that end is
/// [`REDACTED`] too. Whole secrets are left to [`redact_ran`], which
/// cannot recognise a secret's first half.
pub fn cut_tail(text: &mut String) {
    cut_tail_with(text, &known());
}

/// [`cut_tail`] with these secrets.
pub fn cut_tail_with(text: &mut String, secrets: &[String]) {
    let longest = secrets
        .iter()
        .filter_map(|s| {
            (MIN_CUT_TAIL..s.len())
                .rev()
                .find(|&n| s.is_char_boundary(n) && text.ends_with(&s[..n]))
        })
        .max();
    if let Some(n) = longest {
        text.truncate(text.len() - n);
        text.push_str(REDACTED);
    }
}

/// `text` with each of `secrets` replaced by [`REDACTED`]; `None` when
/// none occurs (the common case allocates nothing).
pub fn redact_with(text: &str, secrets: &[String]) -> Option<String> {
    if !secrets.iter().any(|s| text.contains(s.as_str())) {
        return None;
    }
    Some(
        secrets
            .iter()
            .fold(text.to_string(), |t, s| t.replace(s.as_str(), REDACTED)),
    )
}

/// Redacts every string (and object key) in a JSON value in place.
pub fn redact_json(v: &mut Value, secrets: &[String]) {
    match v {
        Value::String(s) => {
            if let Some(r) = redact_with(s, secrets) {
                *s = r;
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| redact_json(x, secrets)),
        Value::Object(m) => {
            let keyed = m.keys().any(|k| redact_with(k, secrets).is_some());
            if keyed {
                let old = std::mem::take(m);
                for (k, x) in old {
                    m.insert(redact_with(&k, secrets).unwrap_or(k), x);
                }
            }
            m.values_mut().for_each(|x| redact_json(x, secrets));
        }
        _ => {}
    }
}

/// A tool's result and events with every known secret redacted.
pub fn redact_ran(ran: &mut Ran) {
    let secrets = known();
    if secrets.is_empty() {
        return;
    }
    redact_ran_with(ran, &secrets);
}

/// [`redact_ran`] with these secrets.
fn redact_ran_with(ran: &mut Ran, secrets: &[String]) {
    match &mut ran.result {
        Ok(d) => redact_done(d, secrets),
        Err(f) => {
            if let Some(r) = redact_with(&f.message, secrets) {
                f.message = r;
            }
        }
    }
    for e in &mut ran.events {
        for v in e.0.values_mut() {
            redact_json(v, secrets);
        }
    }
}

/// A successful result redacted. Its files for the model ([`MEDIA_KEY`])
/// are bytes, not text: a run of their base64 replaced would corrupt
/// them, and a secret in them is in the bytes, not in their base64. So
/// each is decoded and looked into: one whose bytes hold a secret is
/// withheld whole (the answer says so), the others pass untouched.
fn redact_done(d: &mut Done, secrets: &[String]) {
    let media = d.response.as_object_mut().and_then(|r| r.remove(MEDIA_KEY));
    if let Some(r) = redact_with(&d.output, secrets) {
        d.output = r;
    }
    redact_json(&mut d.response, secrets);
    let Some(Value::Array(mut list)) = media else {
        return;
    };
    let before = list.len();
    list.retain_mut(|m| media_kept(m, secrets));
    let withheld = before - list.len();
    if withheld > 0 {
        let note = format!(
            "\n[{withheld} of the tool's files (images, PDFs) withheld from the model: their bytes \
             hold a secret]"
        );
        d.output.push_str(&note);
        if let Some(Value::String(o)) = d.response.get_mut("output") {
            o.push_str(&note);
        }
    }
    if let (false, Some(r)) = (list.is_empty(), d.response.as_object_mut()) {
        r.insert(MEDIA_KEY.into(), Value::Array(list));
    }
}

/// Whether one of a tool's files may go to the model (its members other
/// than `data` redacted): not when its bytes hold a known secret.
fn media_kept(m: &mut Value, secrets: &[String]) -> bool {
    use base64::Engine;
    let bytes = m
        .get("data")
        .and_then(Value::as_str)
        .and_then(|d| base64::engine::general_purpose::STANDARD.decode(d).ok());
    let Some(bytes) = bytes else {
        // Not base64, so never sent as a file (the agent skips it): text.
        redact_json(m, secrets);
        return true;
    };
    if secrets
        .iter()
        .any(|s| memchr::memmem::find(&bytes, s.as_bytes()).is_some())
    {
        return false;
    }
    if let Some(o) = m.as_object_mut() {
        o.iter_mut()
            .filter(|(k, _)| *k != "data")
            .for_each(|(_, v)| redact_json(v, secrets));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::toolbox::Failed;
    use serde_json::json;

    #[test]
    fn secret_names_are_recognised_and_ordinary_ones_are_not() {
        for n in [
            "GEMINI_API_KEY",
            "OPENAI_API_KEY",
            "GITHUB_TOKEN",
            "GH_TOKEN",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_ACCESS_KEY_ID",
            "AWS_SESSION_TOKEN",
            "PGPASSWORD",
            "MYSQL_PWD",
            "GOOGLE_APPLICATION_CREDENTIALS",
            "client_secret",
            "--password",
            "--api-key",
            "token",
        ] {
            assert!(is_secret_name(n), "{n}");
        }
        for n in [
            "PATH",
            "HOME",
            "TERM",
            "LANG",
            "KEYTIMEOUT",
            "SSH_AUTH_SOCK",
            "EDITOR",
            "PAGER",
            "--port",
            "TOKENIZERS_PARALLELISM",
        ] {
            assert!(!is_secret_name(n), "{n}");
        }
    }

    #[test]
    fn credentials_in_arguments_are_redacted_and_the_rest_kept() {
        let words: Vec<String> = [
            "--password=hunter2",
            "--port=8080",
            "--token",
            "abc",
            "GITHUB_TOKEN=ghp_x",
            "postgres://app:pw@db:5432/x",
            "ghp_0123456789abcdefABCDEF",
            "x4Kq9Zt2LmN8vB7cR1sD",
            "--verbose",
            "/usr/lib/very/long/path/to/something",
            "Europe/Paris",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            redact_args(&words),
            [
                "--password=[REDACTED]",
                "--port=8080",
                "--token",
                "[REDACTED]",
                "GITHUB_TOKEN=[REDACTED]",
                "postgres://app:[REDACTED]@db:5432/x",
                "[REDACTED]",
                "[REDACTED]",
                "--verbose",
                "/usr/lib/very/long/path/to/something",
                "Europe/Paris",
            ]
        );
        assert!(looks_secret("GITHUB_TOKEN=ghp_abc") && !looks_secret("UTC"));
        assert!(!looks_secret("mcp-server-filesystem"));
    }

    #[test]
    fn the_allow_list_and_values_decide_too() {
        let keys = vec!["sk-live-123456789".to_string()];
        let pass = vec!["GITHUB_*".to_string(), "NPM_TOKEN".to_string()];
        assert!(!hidden("GITHUB_TOKEN", "ghp_x", &keys, &pass));
        assert!(!hidden("NPM_TOKEN", "x", &keys, &pass));
        assert!(hidden("GH_TOKEN", "x", &keys, &pass));
        assert!(hidden("MY_COPY", "sk-live-123456789", &keys, &pass));
        assert!(hidden(
            "DATABASE_URL",
            "postgres://app:hunter2@db/x",
            &keys,
            &pass
        ));
        assert!(!hidden("DATABASE_URL", "postgres://app@db/x", &keys, &pass));
        assert!(!hidden("HOME", "/home/me", &keys, &pass));
        assert!(glob("A*B*C", "AxxBxxC") && !glob("A*B*C", "AxxC") && glob("*", ""));
    }

    #[test]
    fn results_and_events_are_redacted() {
        let secrets = vec![
            "longer-secret-value".to_string(),
            "secret-value".to_string(),
        ];
        assert_eq!(redact_with("no secrets here", &secrets), None);
        assert_eq!(
            redact_with("a longer-secret-value and secret-value", &secrets).unwrap(),
            "a [REDACTED] and [REDACTED]"
        );
        let mut v = json!({"stdout": "KEY=secret-value\n", "secret-value": [1, "secret-value"]});
        redact_json(&mut v, &secrets);
        assert_eq!(
            v,
            json!({"stdout": "KEY=[REDACTED]\n", "[REDACTED]": [1, "[REDACTED]"]})
        );
        let mut ran = Ran::failed(Failed::new("tool_failed", "x"));
        redact_ran(&mut ran);
        let mut ran = Ran::done(Done::text("plain"));
        redact_ran(&mut ran);
        assert_eq!(ran.result.unwrap().output, "plain");
    }

    #[test]
    fn a_tools_files_are_withheld_for_a_secret_in_their_bytes_never_altered() {
        use base64::Engine;
        let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
        // A secret that is the base64 of other bytes: the file's base64
        // holds it, its bytes do not; it passes byte for byte.
        let secrets = vec!["QUJDREVGR0hJSktM".to_string()];
        let innocent = b64(b"ABCDEFGHIJKL");
        assert!(innocent.contains(&secrets[0]));
        let leaky = b64(b"\x89PNG\r\n\x1a\nkey=QUJDREVGR0hJSktM;");
        let mut ran = Ran::done(Done {
            output: "two images; QUJDREVGR0hJSktM".into(),
            response: json!({"output": "two images; QUJDREVGR0hJSktM", MEDIA_KEY: [
                {"mimeType": "image/png", "data": innocent, "path": "/w/QUJDREVGR0hJSktM.png"},
                {"mimeType": "image/png", "data": leaky},
            ]}),
        });
        redact_ran_with(&mut ran, &secrets);
        let d = ran.result.unwrap();
        let note = "[1 of the tool's files (images, PDFs) withheld from the model: their bytes \
                    hold a secret]";
        assert_eq!(d.output, format!("two images; [REDACTED]\n{note}"));
        assert_eq!(d.response["output"], d.output.as_str());
        assert_eq!(
            d.response[MEDIA_KEY],
            json!([{"mimeType": "image/png", "data": innocent, "path": "/w/[REDACTED].png"}])
        );
        // All withheld: no files member left.
        let mut ran = Ran::done(Done {
            output: String::new(),
            response: json!({"output": "", MEDIA_KEY: [{"mimeType": "image/png", "data": leaky}]}),
        });
        redact_ran_with(&mut ran, &secrets);
        assert!(ran.result.unwrap().response.get(MEDIA_KEY).is_none());
    }

    #[test]
    fn a_scrubbed_command_runs_without_the_secret_variables() {
        let vars = [
            ("GH_TOKEN", "ghp_abc"),
            ("PATH", "/bin"),
            ("COPY", "key-12345678"),
        ]
        .map(|(k, v)| (OsString::from(k), OsString::from(v)));
        let keys = vec!["key-12345678".to_string()];
        let names: Vec<OsString> = hidden_vars(vars.into_iter(), &keys, &[])
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(names, ["GH_TOKEN", "COPY"]);
        // What the process has that looks secret is gone from a child's.
        let mut cmd = std::process::Command::new("env");
        let out = String::from_utf8(scrub(&mut cmd).output().unwrap().stdout).unwrap();
        for line in out.lines() {
            let name = line.split('=').next().unwrap_or_default();
            assert!(!is_secret_name(name), "{line}");
        }
    }

    #[test]
    fn a_secret_cut_in_half_is_redacted_at_the_end_only() {
        let secrets = vec![
            "sk-proj-0123456789abcdef".to_string(),
            "ghp_zyxw9876".into(),
        ];
        let cut = |t: &str| {
            let mut t = t.to_string();
            cut_tail_with(&mut t, &secrets);
            t
        };
        assert_eq!(
            cut("curl -H 'Bearer sk-proj-01234"),
            "curl -H 'Bearer [REDACTED]"
        );
        assert_eq!(cut("token ghp_"), "token [REDACTED]");
        // Too short to tell, not at the end, or a whole secret: left.
        assert_eq!(cut("my sk-"), "my sk-");
        assert_eq!(cut("sk-proj-0 and more"), "sk-proj-0 and more");
        assert_eq!(cut("ghp_zyxw9876"), "ghp_zyxw9876");
        assert_eq!(cut(""), "");
    }
}
