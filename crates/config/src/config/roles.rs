//! `[roles.NAME]` tables of the config file: a role is a system prompt
//! with its model, temperature and tools, used with `gem-ask --role NAME`.
//! Its `system` and `prompt` are templates: `$name` (or `${name}`) is
//! filled from `-p name=value`, else from the role's `defaults`; `$input`
//! in `prompt` is what was typed. The front (`app::gem_ask::prompting`)
//! applies it; flags win over it.
//!
//! ```toml
//! [roles.translator]
//! system = "Translate what you are given into $lang. Reply with the translation only."
//! model = "gemini-3.1-pro-preview"
//! temperature = 0.2
//! thinking = "high"
//! tools = []
//! defaults = { lang = "French" }
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoleConfig {
    /// Added to gem-ask's system prompt (a template).
    pub system: Option<String>,
    /// The prompt sent, `$input` standing for the one typed (a template).
    pub prompt: Option<String>,
    /// As `--model`.
    pub model: Option<String>,
    /// As `--temperature`: 0 to 2.
    pub temperature: Option<f64>,
    /// As `--thinking`.
    pub thinking: Option<crate::provider::Thinking>,
    /// As `--tools`: the tools declared (an empty list declares none).
    pub tools: Option<Vec<String>>,
    /// Values of the templates' variables when `-p` gives none.
    #[serde(default)]
    pub defaults: BTreeMap<String, String>,
}

impl RoleConfig {
    /// What is wrong with it: the key and why.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        if let Some(t) = self.temperature
            && !(0.0..=2.0).contains(&t)
        {
            return Err(("temperature", format!("{t} is not between 0 and 2")));
        }
        if self.model.as_deref().is_some_and(|m| m.trim().is_empty()) {
            return Err(("model", "must not be empty".into()));
        }
        Ok(())
    }
}
