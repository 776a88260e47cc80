//! `--thinking`: one word for how much a model thinks before it answers,
//! and what each model takes for it. Gemini 3 and later take
//! `thinkingConfig.thinkingLevel` (Pro models: no `MINIMAL`; Gemini 3 Pro
//! no `MEDIUM`); Gemini 2.5 takes a token budget, `thinkingBudget`, in a
//! range of its own (2.5 Pro 128 to 32768, never off; 2.5 Flash 0 to 24576;
//! 2.5 Flash-Lite 0 or 512 to 24576). An OpenAI-compatible server takes
//! `reasoning_effort` (`none` for off), read from the same Gemini-shaped
//! request by its wire format. What a model cannot take is said, with
//! what is sent instead (the nearest it takes), never sent as asked; a
//! model gem-ask does not know gets nothing. Thought summaries
//! (`includeThoughts`, `--thoughts`) are apart and stay as they are.

use serde_json::{Map, Value, json};

use super::ProviderKind;

/// How much the model thinks (`--thinking`, a config's or role's
/// `thinking`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Deserialize, serde::Serialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Thinking {
    Off,
    Minimal,
    Low,
    Medium,
    High,
}

impl Thinking {
    pub fn name(self) -> &'static str {
        match self {
            Thinking::Off => "off",
            Thinking::Minimal => "minimal",
            Thinking::Low => "low",
            Thinking::Medium => "medium",
            Thinking::High => "high",
        }
    }

    /// Gemini's `ThinkingLevel` enum value.
    fn level(self) -> &'static str {
        match self {
            Thinking::Off | Thinking::Minimal => "MINIMAL",
            Thinking::Low => "LOW",
            Thinking::Medium => "MEDIUM",
            Thinking::High => "HIGH",
        }
    }
}

/// What a Gemini model takes.
#[derive(Debug, PartialEq)]
enum Takes {
    /// A token budget from `min` to `max`, and 0 when `off` is allowed.
    Budget {
        min: u32,
        max: u32,
        off: bool,
    },
    /// These levels (never off).
    Levels(&'static [Thinking]),
    Unknown,
}

use Thinking::*;

fn takes(model: &str) -> Takes {
    let m = model.trim_start_matches("models/").to_ascii_lowercase();
    if m.starts_with("gemini-2.5-pro") {
        return Takes::Budget {
            min: 128,
            max: 32768,
            off: false,
        };
    }
    if m.starts_with("gemini-2.5-flash-lite") {
        return Takes::Budget {
            min: 512,
            max: 24576,
            off: true,
        };
    }
    if m.starts_with("gemini-2.5-flash") {
        return Takes::Budget {
            min: 1,
            max: 24576,
            off: true,
        };
    }
    // gemini-3-..., gemini-3.5-..., and the -latest aliases, which name
    // Gemini 3 models now.
    let major = m
        .strip_prefix("gemini-")
        .and_then(|r| r.split(['-', '.']).next())
        .and_then(|d| d.parse::<u32>().ok());
    let alias = m.starts_with("gemini-") && m.ends_with("-latest");
    if !(alias || major.is_some_and(|n| n >= 3)) {
        return Takes::Unknown;
    }
    let pro = m.split('-').any(|w| w == "pro");
    match (pro, major == Some(3) && m.starts_with("gemini-3-")) {
        (true, true) => Takes::Levels(&[Low, High]),
        (true, false) => Takes::Levels(&[Low, Medium, High]),
        (false, _) => Takes::Levels(&[Minimal, Low, Medium, High]),
    }
}

/// A budget for a level, in the model's range.
fn budget(t: Thinking, min: u32, max: u32) -> u32 {
    let want = match t {
        Off => 0,
        Minimal => 512,
        Low => 2048,
        Medium => 8192,
        High => max,
    };
    want.clamp(min, max)
}

/// The `thinkingConfig` members for `t` on `model`, and a note when the
/// model does not take `t` as asked (what is sent instead).
pub fn config(
    t: Thinking,
    model: &str,
    kind: ProviderKind,
) -> (Option<Map<String, Value>>, Option<String>) {
    let one = |k: &str, v: Value| {
        let mut m = Map::new();
        m.insert(k.into(), v);
        Some(m)
    };
    if kind == ProviderKind::Openai {
        return match t {
            Off => (one("thinkingBudget", 0.into()), None),
            t => (one("thinkingLevel", t.level().into()), None),
        };
    }
    let asked = t.name();
    match takes(model) {
        Takes::Unknown => (
            None,
            Some(format!(
                "--thinking {asked}: gem-ask does not know which thinking settings {model} takes; none sent"
            )),
        ),
        Takes::Budget { min, max, off } => {
            let b = if t == Off && off {
                0
            } else {
                budget(t, min.max(1), max)
            };
            let note = (t == Off && !off).then(|| {
                format!("--thinking off: {model} cannot turn thinking off; its least budget ({b} tokens) is sent")
            });
            (one("thinkingBudget", b.into()), note)
        }
        Takes::Levels(levels) => {
            let nearest = nearest(t, levels);
            let note = (nearest != t).then(|| {
                let why = if t == Off {
                    "cannot turn thinking off".to_string()
                } else {
                    format!("takes no {asked} level")
                };
                format!(
                    "--thinking {asked}: {model} {why}; {} is sent",
                    nearest.name()
                )
            });
            (one("thinkingLevel", nearest.level().into()), note)
        }
    }
}

/// The level of `levels` nearest `t` (off counts as below minimal); the
/// higher one on a tie.
fn nearest(t: Thinking, levels: &[Thinking]) -> Thinking {
    let rank = |x: Thinking| x as i32;
    *levels
        .iter()
        .min_by_key(|&&l| ((rank(l) - rank(t)).abs(), -rank(l)))
        .unwrap_or(&t)
}

/// Puts `t` into a Gemini-shaped request for `model`, beside what its
/// `thinkingConfig` holds (`includeThoughts`); the note, if any.
pub fn apply(body: &mut Value, t: Thinking, model: &str, kind: ProviderKind) -> Option<String> {
    let (members, note) = config(t, model, kind);
    if let (Some(members), Some(b)) = (members, body.as_object_mut()) {
        let g = b.entry("generationConfig").or_insert_with(|| json!({}));
        if let Some(g) = g.as_object_mut() {
            let c = g.entry("thinkingConfig").or_insert_with(|| json!({}));
            if let Some(c) = c.as_object_mut() {
                c.extend(members);
            }
        }
    }
    note
}

/// An OpenAI-compatible server's `reasoning_effort` for a Gemini-shaped
/// `thinkingConfig`.
pub fn reasoning_effort(thinking_config: &Value) -> Option<&'static str> {
    if thinking_config
        .get("thinkingBudget")
        .and_then(Value::as_u64)
        == Some(0)
    {
        return Some("none");
    }
    match thinking_config
        .get("thinkingLevel")
        .and_then(Value::as_str)?
    {
        "MINIMAL" => Some("minimal"),
        "LOW" => Some("low"),
        "MEDIUM" => Some("medium"),
        "HIGH" => Some("high"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(t: Thinking, model: &str) -> (Value, bool) {
        let (m, note) = config(t, model, ProviderKind::Gemini);
        (m.map(Value::Object).unwrap_or(Value::Null), note.is_some())
    }

    #[test]
    fn each_model_gets_what_it_takes() {
        assert_eq!(
            sent(Low, "gemini-3.5-flash"),
            (json!({"thinkingLevel": "LOW"}), false)
        );
        assert_eq!(
            sent(Minimal, "models/gemini-flash-latest"),
            (json!({"thinkingLevel": "MINIMAL"}), false)
        );
        assert_eq!(
            sent(Off, "gemini-3.8-flash"),
            (json!({"thinkingLevel": "MINIMAL"}), true)
        );
        assert_eq!(
            sent(Minimal, "gemini-3.1-pro-preview"),
            (json!({"thinkingLevel": "LOW"}), true)
        );
        assert_eq!(
            sent(Medium, "gemini-3.1-pro-preview"),
            (json!({"thinkingLevel": "MEDIUM"}), false)
        );
        assert_eq!(
            sent(Medium, "gemini-3-pro-preview"),
            (json!({"thinkingLevel": "HIGH"}), true)
        );
        assert_eq!(
            sent(Off, "gemini-2.5-flash"),
            (json!({"thinkingBudget": 0}), false)
        );
        assert_eq!(
            sent(High, "gemini-2.5-flash"),
            (json!({"thinkingBudget": 24576}), false)
        );
        assert_eq!(
            sent(Minimal, "gemini-2.5-flash-lite"),
            (json!({"thinkingBudget": 512}), false)
        );
        assert_eq!(
            sent(Off, "gemini-2.5-pro"),
            (json!({"thinkingBudget": 128}), true)
        );
        assert_eq!(
            sent(High, "gemini-2.5-pro"),
            (json!({"thinkingBudget": 32768}), false)
        );
        assert_eq!(sent(Low, "gemma-4-31b-it"), (Value::Null, true));
    }

    #[test]
    fn openai_servers_get_reasoning_effort() {
        for (t, effort) in [(Off, "none"), (Minimal, "minimal"), (Medium, "medium")] {
            let (m, note) = config(t, "qwen3", ProviderKind::Openai);
            assert_eq!(note, None);
            assert_eq!(reasoning_effort(&Value::Object(m.unwrap())), Some(effort));
        }
    }

    #[test]
    fn thought_summaries_stay_beside_the_level() {
        let mut body = json!({"generationConfig": {"thinkingConfig": {"includeThoughts": true}}});
        apply(&mut body, High, "gemini-3.5-flash", ProviderKind::Gemini);
        assert_eq!(
            body["generationConfig"]["thinkingConfig"],
            json!({"includeThoughts": true, "thinkingLevel": "HIGH"})
        );
    }
}
