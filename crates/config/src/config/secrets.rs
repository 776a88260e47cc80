//! What counts as a secret: a variable's or key's name (`*_TOKEN`,
//! `*PASSWORD*`, ...), a value by itself (a known token prefix, a URL with
//! a password, a long word of letters and digits), and command-line words
//! with the secret ones blanked. The config warns of the secrets it holds
//! and hides them in its errors; the agent's tools scrub them from what
//! children see and from their output (`agent::toolbox::secrets`).

/// What replaces a secret in tool output.
pub const REDACTED: &str = "[REDACTED]";

/// Whether a variable's (or a config key's, or a flag's) name says it
/// holds a secret.
pub fn is_secret_name(name: &str) -> bool {
    let n = name
        .trim_start_matches('-')
        .to_ascii_uppercase()
        .replace('-', "_");
    const ENDS: &[&str] = &["_KEY", "_TOKEN", "_SECRET", "_PAT", "_PASS", "_PWD"];
    const HAS: &[&str] = &[
        "PASSWORD",
        "PASSWD",
        "SECRET",
        "CREDENTIAL",
        "API_KEY",
        "APIKEY",
        "ACCESS_KEY",
        "PRIVATE_KEY",
        "AUTH_TOKEN",
    ];
    const IS: &[&str] = &["TOKEN", "KEY", "SECRET", "PASSWORD", "PASS", "PAT"];
    IS.contains(&n.as_str())
        || ENDS.iter().any(|e| n.ends_with(e))
        || HAS.iter().any(|h| n.contains(h))
}

/// Whether a value carries a password in a URL (`scheme://user:pw@host`).
pub fn has_url_password(value: &str) -> bool {
    value.split("://").skip(1).any(|rest| {
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        authority
            .rsplit_once('@')
            .is_some_and(|(user, _)| user.split_once(':').is_some_and(|(_, pw)| !pw.is_empty()))
    })
}

/// Whether a value looks like a credential by itself: a known token
/// prefix (`ghp_`, `sk-`, `xoxb-`, `AIza`, `glpat-`, `AKIA`, ...), a URL
/// with a password, `NAME=value` with a secret name, or one long word of
/// letters and digits mixed (20 or more, no spaces).
pub fn looks_secret(value: &str) -> bool {
    let v = value.trim();
    const PREFIXES: &[&str] = &[
        "ghp_",
        "gho_",
        "ghu_",
        "ghs_",
        "ghr_",
        "github_pat_",
        "glpat-",
        "sk-",
        "sk_live_",
        "sk_test_",
        "rk_live_",
        "xoxa-",
        "xoxb-",
        "xoxp-",
        "xoxs-",
        "AIza",
        "AKIA",
        "ASIA",
        "ya29.",
        "npm_",
        "pypi-",
        "hf_",
        "SG.",
        "eyJ",
    ];
    if PREFIXES
        .iter()
        .any(|p| v.starts_with(p) && v.len() >= p.len() + 8)
    {
        return true;
    }
    if has_url_password(v) {
        return true;
    }
    if let Some((name, rest)) = v.split_once('=')
        && !rest.is_empty()
        && is_secret_name(name.trim_start_matches('-'))
    {
        return true;
    }
    let word = !v.is_empty() && !v.contains(char::is_whitespace);
    let letters = v.chars().filter(|c| c.is_ascii_alphabetic()).count();
    let digits = v.chars().filter(|c| c.is_ascii_digit()).count();
    let odd = v
        .chars()
        .filter(|c| !c.is_ascii_alphanumeric() && !"-_.+/=".contains(*c))
        .count();
    word && v.len() >= 20 && letters > 0 && digits > 0 && odd == 0 && !v.contains('/')
}

/// Command-line words as they may be shown: the value of a secret-named
/// flag (`--token X`, `--password=X`, `-p X` not counted), a secret
/// `NAME=value`, a URL's password and any word that looks like a
/// credential become `[REDACTED]`; the rest is as it was.
pub fn redact_args(words: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(words.len());
    let mut hide_next = false;
    for w in words {
        if std::mem::take(&mut hide_next) && !w.starts_with('-') {
            out.push(REDACTED.to_string());
            continue;
        }
        if let Some((name, value)) = w.split_once('=') {
            if is_secret_name(name) || looks_secret(value) {
                out.push(format!("{name}={REDACTED}"));
                continue;
            }
        } else if w.starts_with('-') && is_secret_name(w) {
            hide_next = true;
        }
        out.push(if looks_secret(w) {
            redact_url_password(w).unwrap_or_else(|| REDACTED.to_string())
        } else {
            w.clone()
        });
    }
    out
}

/// `scheme://user:[REDACTED]@host/...` of a URL with a password.
fn redact_url_password(w: &str) -> Option<String> {
    let (scheme, rest) = w.split_once("://")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (user, host) = rest[..end].rsplit_once('@')?;
    let (name, _) = user.split_once(':')?;
    Some(format!(
        "{scheme}://{name}:{REDACTED}@{host}{}",
        &rest[end..]
    ))
}
