//! Per-tool counts for the chart tools, reported in `result.stats.tools`
//! so a user or an eval can compute invocation, validation-failure and
//! fallback rates from a run's own output. Kept local: nothing leaves the
//! machine.

use serde_json::{Map, Value, json};

use super::toolbox::{PLOT, RENDER_VISUALIZATION};
use crate::events::Event;

/// The tools counted, in report order.
const COUNTED: [&str; 2] = [RENDER_VISUALIZATION, PLOT];

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Counts {
    calls: u64,
    failed: u64,
    fallbacks: u64,
}

/// `calls`; `failed`: calls whose arguments failed validation (the model
/// was told why); `fallbacks`: a render_visualization chart read from
/// `inputText` (no `series`), or a plot whose `fallbackText` was shown
/// because its spec failed.
#[derive(Debug, Default)]
pub struct ToolStats([Counts; 2]);

impl ToolStats {
    /// One call of `name`, with the events it produced.
    pub fn record(&mut self, name: &str, args: &Value, events: &[Event]) {
        let Some(i) = COUNTED.iter().position(|t| *t == name) else {
            return;
        };
        let failed = events
            .iter()
            .any(|e| e.kind() == "tool_result" && e.str_field("status") == Some("error"));
        let fallback = if name == PLOT {
            failed && events.iter().any(|e| e.kind() == "ui")
        } else {
            !failed && args.get("series").is_none() && args.get("inputText").is_some()
        };
        let c = &mut self.0[i];
        c.calls += 1;
        c.failed += u64::from(failed);
        c.fallbacks += u64::from(fallback);
    }

    /// `{"render_visualization": {"calls", "failed", "fallbacks"}, "plot": {...}}`.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        for (name, c) in COUNTED.iter().zip(&self.0) {
            m.insert(
                (*name).into(),
                json!({"calls": c.calls, "failed": c.failed, "fallbacks": c.fallbacks}),
            );
        }
        Value::Object(m)
    }
}
