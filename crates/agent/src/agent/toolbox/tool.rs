//! The toolbox's vocabulary: a [`Tool`] (its declaration, where it
//! comes from, its consent level, its paragraph of the system prompt and
//! how it runs), the [`Registry`] of every known tool, what a tool gets
//! besides its arguments ([`Ctx`], kept in the entrance), a call as the model made it
//! ([`ToolCall`]) and what a dispatch hands back ([`Dispatched`]). The
//! module's entrance (`toolbox/mod.rs`) re-exports them and keeps the
//! [`Toolbox`](super::Toolbox) that runs a call.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::{Ctx, Failed, Level, Ran, Workspace};

/// Where a tool comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Part of gem-ask.
    Builtin,
    /// A tool of the MCP server configured under this name; `trusted` when
    /// its config says `trust = true`.
    Mcp { server: String, trusted: bool },
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Builtin => f.write_str("built-in"),
            Source::Mcp { server, .. } => write!(f, "mcp:{server}"),
        }
    }
}

/// The member of a tool's `functionResponse.response` that carries its
/// images (`[{mimeType, data}]`, base64) to the agent, which takes it out
/// and sends them as parts (`agent::media`); never sent as it is.
pub const MEDIA_KEY: &str = "gemline.media";

/// Whether a tool's file of type `mime` goes to the model as a part under
/// [`MEDIA_KEY`]: the images every provider's models read, and PDF (a
/// GIF, say, is described in text instead).
pub fn media_for_model(mime: &str) -> bool {
    matches!(
        mime,
        "image/png" | "image/jpeg" | "image/webp" | "application/pdf"
    )
}

type RunFn = dyn Fn(&Value, &Ctx<'_>) -> Ran + Send + Sync;
type PreviewFn = dyn Fn(&Value, &Ctx<'_>) -> String + Send + Sync;
type CheckFn = dyn Fn(&Value, &Ctx<'_>) -> Result<(), Failed> + Send + Sync;
type GuidanceFn = dyn Fn(&Workspace) -> String + Send + Sync;

/// A tool's paragraph of the system prompt and its place among the others.
#[derive(Clone)]
pub(super) struct Guidance {
    pub(super) place: u8,
    pub(super) text: Arc<GuidanceFn>,
}

/// One tool.
#[derive(Clone)]
pub struct Tool {
    /// The name declared to the model (unique, valid for Gemini).
    pub name: String,
    /// The `FunctionDeclaration`.
    pub declaration: Value,
    pub source: Source,
    /// Its level before config and flags.
    pub level: Level,
    /// Declared without being asked for, in a one-shot run (`--tools`
    /// and the config's `tools.enable` add the others).
    pub by_default: bool,
    pub(super) run: Arc<RunFn>,
    /// What the consent prompt says will happen; the arguments by default.
    pub(super) preview: Option<Arc<PreviewFn>>,
    /// Refuses a call before anyone is asked (a path outside the workspace).
    pub(super) check: Option<Arc<CheckFn>>,
    /// What the system prompt says of it when it is declared.
    pub(super) guidance: Option<Guidance>,
}

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.name)
            .field("source", &self.source)
            .field("level", &self.level)
            .finish_non_exhaustive()
    }
}

impl Tool {
    pub fn new(
        declaration: Value,
        source: Source,
        level: Level,
        run: impl Fn(&Value, &Ctx<'_>) -> Ran + Send + Sync + 'static,
    ) -> Tool {
        Tool {
            name: declaration["name"].as_str().unwrap_or_default().to_string(),
            declaration,
            source,
            level,
            by_default: true,
            run: Arc::new(run),
            preview: None,
            check: None,
            guidance: None,
        }
    }

    /// Declared only when asked for (`--tools`, `tools.enable`, agent modes).
    pub fn on_request(mut self) -> Tool {
        self.by_default = false;
        self
    }

    pub fn with_preview(
        mut self,
        preview: impl Fn(&Value, &Ctx<'_>) -> String + Send + Sync + 'static,
    ) -> Tool {
        self.preview = Some(Arc::new(preview));
        self
    }

    /// A call this check refuses is answered without a consent question.
    pub fn with_check(
        mut self,
        check: impl Fn(&Value, &Ctx<'_>) -> Result<(), Failed> + Send + Sync + 'static,
    ) -> Tool {
        self.check = Some(Arc::new(check));
        self
    }

    /// Its paragraph of the system prompt, said when it is declared. The
    /// paragraphs go by `place` (see [`builtin::place`]); one that several
    /// declared tools share is said once.
    pub fn with_guidance(
        mut self,
        place: u8,
        text: impl Fn(&Workspace) -> String + Send + Sync + 'static,
    ) -> Tool {
        self.guidance = Some(Guidance {
            place,
            text: Arc::new(text),
        });
        self
    }

    pub(super) fn preview(&self, args: &Value, ctx: &Ctx<'_>) -> String {
        match &self.preview {
            Some(p) => p(args, ctx),
            None => format!("{} {}", self.name, args),
        }
    }
}

/// Every known tool, in declaration order.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    tools: Vec<Tool>,
}

impl Registry {
    /// Registers a tool. A name already taken is made unique with a
    /// numbered suffix (MCP servers may repeat each other's names).
    pub fn add(&mut self, mut tool: Tool) {
        let name = self.unique_name(&tool.name);
        if name != tool.name {
            tool.declaration["name"] = name.clone().into();
            tool.name = name;
        }
        self.tools.push(tool);
    }

    fn unique_name(&self, name: &str) -> String {
        let taken = |n: &str| self.tools.iter().any(|t| t.name == n);
        if !taken(name) {
            return name.to_string();
        }
        (2..)
            .map(|i| {
                let suffix = format!("_{i}");
                let keep = name.floor_char_boundary(64 - suffix.len());
                format!("{}{suffix}", &name[..keep])
            })
            .find(|n| !taken(n))
            .expect("some suffix is free")
    }

    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|t| t.name == name)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Tool> {
        self.tools.iter()
    }
}

/// One call as the model made it.
#[derive(Debug, Clone, Copy)]
pub struct ToolCall<'a> {
    pub name: &'a str,
    /// The model's call id, echoed in the `functionResponse`.
    pub id: Option<&'a str>,
    pub args: &'a Value,
    /// The `tool_id` of the events (the call id, or one made up).
    pub tool_id: &'a str,
}

/// What [`Toolbox::dispatch`] hands back to the turn loop.
#[derive(Debug, Clone, PartialEq)]
pub struct Dispatched {
    /// `{"functionResponse": {id?, name, response}}`, a part of the next
    /// user content.
    pub part: Value,
    /// Set when the call opened a chapter.
    pub new_topic: Option<String>,
    /// Whether the tool ran and succeeded.
    pub ok: bool,
}
