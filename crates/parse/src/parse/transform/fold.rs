//! `--fold COLUMNS`: wide columns made into rows, as Vega-Lite's `fold`.
//! Each row becomes one row per folded column, holding the columns not
//! folded, the folded column's name (`key`) and its cell (`value`);
//! `--fold-as K,V` names those two. COLUMNS are names or 1-based
//! numbers separated by commas, each of which may be a pattern (`*` any
//! run of characters, `?` one: `sales_*`).

/// A `--fold` or `--fold-as` that cannot be read: a usage error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{flag} {text:?}: {why}")]
pub struct FoldError {
    pub flag: &'static str,
    pub text: String,
    pub why: String,
}

/// One `--fold`, its columns still as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fold {
    pub columns: Vec<String>,
    /// The names of the folded column's name and of its cell.
    pub key: String,
    pub value: String,
}

impl Fold {
    /// Reads `--fold` and `--fold-as`.
    pub fn parse(columns: &str, names_as: Option<&str>) -> Result<Fold, FoldError> {
        let list: Vec<String> = columns
            .split(',')
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty())
            .collect();
        if list.is_empty() {
            return Err(FoldError {
                flag: "--fold",
                text: columns.into(),
                why: "no column; write COLUMN,COLUMN,... or a pattern such as 'sales_*'".into(),
            });
        }
        let (key, value) = match names_as {
            None => ("key".to_string(), "value".to_string()),
            Some(t) => match t.split_once(',') {
                Some((k, v))
                    if !k.trim().is_empty() && !v.trim().is_empty() && k.trim() != v.trim() =>
                {
                    (k.trim().to_string(), v.trim().to_string())
                }
                _ => {
                    return Err(FoldError {
                        flag: "--fold-as",
                        text: t.into(),
                        why: "write two different names, KEY,VALUE (e.g. year,sales)".into(),
                    });
                }
            },
        };
        Ok(Fold {
            columns: list,
            key,
            value,
        })
    }
}

/// Whether `name` matches `pattern` (`*` any run, `?` one character).
pub fn glob(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    // The classic two-pointer match with one star to fall back on.
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < n.len() {
        if i < p.len() && (p[i] == '?' || p[i] == n[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// Whether a `--fold` item is a pattern.
pub fn is_pattern(item: &str) -> bool {
    item.contains(['*', '?'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        assert!(glob("sales_*", "sales_2020"));
        assert!(glob("*", ""));
        assert!(glob("y??", "y20"));
        assert!(!glob("sales_*", "price"));
        assert!(glob("*a*b", "xaxxb"));
        assert!(!glob("*a*b", "xaxxbc"));
    }

    #[test]
    fn flags() {
        let f = Fold::parse("a, b,,c", Some("year,sales")).unwrap();
        assert_eq!(f.columns, ["a", "b", "c"]);
        assert_eq!((f.key.as_str(), f.value.as_str()), ("year", "sales"));
        assert!(Fold::parse(" , ", None).is_err());
        assert!(Fold::parse("a", Some("k")).is_err());
        assert!(Fold::parse("a", Some("k,k")).is_err());
    }
}
