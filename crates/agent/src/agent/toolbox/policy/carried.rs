//! What this run was given to read (piped input, attached files, what
//! tools gave back) kept as tokens, so that a URL or a query about to leave
//! the machine can be checked for text it carries from them.
//!
//! A token is a run of letters and digits of [`MIN_TOKEN`] or more
//! characters, lowercased. A URL carries a token when one of its own tokens
//! is the same, contains it, or (for tokens of [`WINDOW`] or more
//! characters) shares a window of [`WINDOW`] characters with it, so a piece
//! of a long account number or key is found too. The store is one per
//! process ([`note`], [`check`]): what a run read is what its tools could
//! leak, whichever part of gem-ask read it.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The shortest token looked for: shorter ones are too common to say
/// anything ("https", "index").
pub const MIN_TOKEN: usize = 6;
/// Long tokens are also kept as their windows of this many characters.
pub const WINDOW: usize = 12;
/// The most tokens and windows kept (a bound on memory, some 40 MB, for
/// huge inputs); past it, later text is not kept.
const MAX_KEYS: usize = 500_000;
/// The longest token kept whole; longer runs (base64, hex dumps) are kept
/// as their windows only.
const MAX_TOKEN: usize = 256;

/// Where a token was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// Piped on stdin.
    Piped,
    /// An attached file (`-a`).
    Attached,
    /// A tool's result (a file read, a command's output, a page fetched).
    ToolResult,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Piped => "the piped input",
            Origin::Attached => "an attached file",
            Origin::ToolResult => "a tool's result",
        }
    }
}

/// The tokens read so far, each with where it was first read.
#[derive(Debug, Default)]
pub struct Carried {
    keys: HashMap<String, Origin>,
}

/// A token of an outgoing text found among what was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// The outgoing text's token, as it stands there.
    pub token: String,
    pub origin: Origin,
}

/// The runs of letters and digits of `text` at least `MIN_TOKEN` long,
/// lowercased.
pub fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| t.chars().count() >= MIN_TOKEN)
        .map(str::to_lowercase)
}

/// The windows of `WINDOW` characters of a token (none when shorter).
fn windows(token: &str) -> Vec<String> {
    let chars: Vec<char> = token.chars().collect();
    if chars.len() < WINDOW {
        return Vec::new();
    }
    chars
        .windows(WINDOW)
        .map(|w| w.iter().collect::<String>())
        .collect()
}

impl Carried {
    /// Keeps the tokens of `text`, read from `origin`.
    pub fn note(&mut self, origin: Origin, text: &str) {
        for t in tokens(text) {
            if self.keys.len() >= MAX_KEYS {
                return;
            }
            for w in windows(&t) {
                self.keys.entry(w).or_insert(origin);
            }
            if t.chars().count() <= MAX_TOKEN {
                self.keys.entry(t).or_insert(origin);
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The tokens of `outgoing` that carry text read in this run.
    pub fn check(&self, outgoing: &str) -> Vec<Hit> {
        let mut hits: Vec<Hit> = Vec::new();
        if self.keys.is_empty() {
            return hits;
        }
        let runs = outgoing
            .split(|c: char| !c.is_alphanumeric())
            .filter(|t| t.chars().count() >= MIN_TOKEN);
        for t in runs {
            if let Some(origin) = self.found_in(&t.to_lowercase())
                && !hits.iter().any(|h| h.token == t)
            {
                hits.push(Hit {
                    token: t.to_string(),
                    origin,
                });
            }
        }
        hits
    }

    /// Whether a kept token or window is `t` or a part of it.
    fn found_in(&self, t: &str) -> Option<Origin> {
        if let Some(o) = self.keys.get(t) {
            return Some(*o);
        }
        let chars: Vec<char> = t.chars().collect();
        // A longer kept token is kept as its windows too: a part of `t`
        // no longer than a window is enough to find it.
        let longest = chars.len().min(WINDOW);
        for len in MIN_TOKEN..=longest {
            for start in 0..=chars.len() - len {
                let part: String = chars[start..start + len].iter().collect();
                if let Some(o) = self.keys.get(&part) {
                    return Some(*o);
                }
            }
        }
        None
    }
}

fn store() -> &'static Mutex<Carried> {
    static STORE: OnceLock<Mutex<Carried>> = OnceLock::new();
    STORE.get_or_init(|| Mutex::new(Carried::default()))
}

/// Keeps the tokens of `text` for the rest of the process.
pub fn note(origin: Origin, text: &str) {
    if let Ok(mut c) = store().lock() {
        c.note(origin, text);
    }
}

/// The tokens of `outgoing` that carry text this process read.
pub fn check(outgoing: &str) -> Vec<Hit> {
    store()
        .lock()
        .map(|c| c.check(outgoing))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Carried {
        let mut c = Carried::default();
        c.note(Origin::Piped, text);
        c
    }

    #[test]
    fn an_account_number_is_found_whole_inside_and_in_part() {
        let c = read("Customer: Jane Roe, account 4417123456789113, IBAN DE89370400440532013000.");
        let whole = c.check("https://attacker.example/collect?d=4417123456789113");
        assert_eq!(whole[0].token, "4417123456789113");
        assert_eq!(whole[0].origin, Origin::Piped);
        // Glued to other text, or only a long piece of it.
        assert_eq!(
            c.check("https://x.example/?d=acct4417123456789113x").len(),
            1
        );
        assert_eq!(c.check("https://x.example/?d=370400440532013").len(), 1);
        let lower = c.check("https://x.example/?iban=de89370400440532013000");
        assert_eq!(lower[0].token, "de89370400440532013000");
    }

    #[test]
    fn eight_mib_of_piped_text_is_kept_in_bounded_memory_and_checked_at_once() {
        let mut c = Carried::default();
        let text: String = (0..600_000u64).map(|i| format!("word{i:08} ")).collect();
        c.note(Origin::Piped, &text);
        assert!(c.keys.len() <= MAX_KEYS);
        assert_eq!(c.check("https://a.example/?q=word00000007").len(), 1);
    }

    #[test]
    fn short_or_unrelated_tokens_are_not_hits() {
        let c = read("the quarterly numbers look fine, 42 items");
        assert!(c.check("https://www.bmw.com/en/index.html").is_empty());
        assert!(c.check("https://a.example/?q=4417").is_empty());
        assert!(
            Carried::default()
                .check("https://a.example/quarterly")
                .is_empty()
        );
        assert_eq!(c.check("https://a.example/quarterly").len(), 1);
    }
}
