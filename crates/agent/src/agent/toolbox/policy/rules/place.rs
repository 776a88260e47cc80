//! Where a call goes, for a rule's `host` and `pathGlob` (gemline's keys
//! beyond gemini-cli's form, read by `config::policy`): the hosts of the
//! URLs in its arguments, as the `url` crate parses them (the WHATWG
//! rules a fetcher follows: userinfo is not the host, a Unicode name is
//! its IDNA ASCII form, so a look-alike never reads as the name it
//! imitates), and a file tool's path beneath the workspace with its
//! symlinks resolved. A rule with either key matches only when every URL,
//! or the path, is one it names: a call it cannot read is not matched, so
//! an `allow` never covers it.

use std::path::{Component, Path, PathBuf};

use regex::Regex;
use serde_json::Value;

/// `*` as any run of characters but `/` and `**` as any run at all; `?`
/// one character; the rest literal.
pub fn path_glob(pattern: &str) -> Regex {
    let mut re = String::from("^");
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
                if chars.peek() == Some(&'/') {
                    chars.next();
                    re.push_str("(?:.*/)?");
                } else {
                    re.push_str(".*");
                }
            }
            '*' => re.push_str("[^/]*"),
            '?' => re.push_str("[^/]"),
            c => re.push_str(&regex::escape(&c.to_string())),
        }
    }
    re.push('$');
    Regex::new(&re).expect("an escaped glob compiles")
}

/// The hosts of every URL among `args`' strings (those with `://`);
/// `None` when there is none or one cannot be parsed or has no host.
pub fn hosts(args: &Value) -> Option<Vec<String>> {
    let mut all = Vec::new();
    super::super::strings(args, &mut all);
    let urls: Vec<&String> = all.iter().filter(|s| s.contains("://")).collect();
    if urls.is_empty() {
        return None;
    }
    urls.iter()
        .map(|u| {
            let parsed = url::Url::parse(u.trim()).ok()?;
            parsed
                .host_str()
                .map(|h| h.trim_end_matches('.').to_string())
        })
        .collect()
}

/// The argument names a file tool's path goes by.
const PATH_KEYS: &[&str] = &["path", "file_path", "absolute_path", "dir_path"];

/// A file tool's path beneath `workspace`, relative to it with `/`
/// between names, its symlinks resolved; `None` without a path, with a
/// `..`, or when it leaves the workspace.
pub fn beneath(args: &Value, workspace: &Path) -> Option<String> {
    let p = PATH_KEYS
        .iter()
        .find_map(|k| args.get(*k).and_then(Value::as_str))?;
    let p = Path::new(p);
    if p.components().any(|c| c == Component::ParentDir) {
        return None;
    }
    let root = workspace.canonicalize().ok()?;
    let joined = if p.is_absolute() {
        p.to_path_buf()
    } else {
        root.join(p)
    };
    let real = resolved(&joined)?;
    let rel = real.strip_prefix(&root).ok()?;
    let names: Vec<&str> = rel
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect::<Option<_>>()?;
    Some(names.join("/"))
}

/// `path` with the symlinks of its longest existing part resolved (the
/// rest, not there yet, as written); `None` when a part that exists
/// cannot be resolved (a dangling or looping link).
fn resolved(path: &Path) -> Option<PathBuf> {
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    while std::fs::symlink_metadata(&existing).is_err() {
        rest.push(existing.file_name()?.to_os_string());
        existing = existing.parent()?.to_path_buf();
    }
    let mut real = existing.canonicalize().ok()?;
    real.extend(rest.iter().rev());
    Some(real)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_host_is_what_a_fetcher_would_reach() {
        let h = |u: &str| hosts(&json!({"urls": [u]}));
        assert_eq!(
            h("https://API.GitHub.com/x"),
            Some(vec!["api.github.com".into()])
        );
        // Userinfo is not the host.
        assert_eq!(
            h("https://api.github.com@evil.example/x"),
            Some(vec!["evil.example".into()])
        );
        assert_eq!(
            h("https://api.github.com:pw@evil.example/"),
            Some(vec!["evil.example".into()])
        );
        // A Cyrillic look-alike is its xn-- name.
        let lookalike = h("https://api.gіthub.com/").unwrap();
        assert!(lookalike[0].starts_with("api.xn--"), "{lookalike:?}");
        assert_eq!(h("not a url"), None);
        assert_eq!(h("https://"), None);
        assert_eq!(hosts(&json!({"q": "x"})), None);
    }

    #[test]
    fn a_path_glob_names_paths_beneath_the_workspace() {
        let g = path_glob("src/**/*.rs");
        assert!(g.is_match("src/a.rs") && g.is_match("src/x/y/a.rs"));
        assert!(!g.is_match("src/a.rsx") && !g.is_match("srcx/a.rs"));
        assert!(!path_glob("docs/*").is_match("docs/a/b"));

        let ws = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        std::fs::create_dir(ws.path().join("src")).unwrap();
        std::os::unix::fs::symlink(out.path(), ws.path().join("src/link")).unwrap();
        let at = |p: &str| beneath(&json!({"path": p}), ws.path());
        assert_eq!(at("src/new.rs").as_deref(), Some("src/new.rs"));
        assert_eq!(at("./src/a/b.rs").as_deref(), Some("src/a/b.rs"));
        let abs = ws.path().join("src/x.rs");
        assert_eq!(at(abs.to_str().unwrap()).as_deref(), Some("src/x.rs"));
        // `..`, a symlink out, a path outside: none.
        assert_eq!(at("src/../src/a.rs"), None);
        assert_eq!(at("src/link/a.rs"), None);
        assert_eq!(at("/etc/passwd"), None);
        assert_eq!(beneath(&json!({"command": "ls"}), ws.path()), None);
    }
}
