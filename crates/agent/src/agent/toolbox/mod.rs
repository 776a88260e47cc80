//! The tool registry and the one way a call is run, whatever the mode.
//!
//! Every tool the model can call — gem-ask's own (the chart, plot and
//! chapter tools, the file and command tools, `signal`; one file each in
//! [`builtin`], registered in [`builtin::tools`]) and each tool of each MCP
//! server (made by [`mcp`]) — is a [`Tool`]: its declaration, where it
//! comes from, its consent [`Level`], its paragraph of the system prompt
//! and how it runs.
//! [`Toolbox::dispatch`] is the single path a call takes: it checks the tool
//! is declared, asks for consent (`consent`), runs it against a deadline
//! (`--tool-timeout`), and turns the outcome into events for the user
//! (`tool_use` ... `tool_result`) and the model's `functionResponse`, with
//! every secret gem-ask knows blanked out of what the tool gave back
//! ([`secrets`]; children never get them in their environment either). A
//! refusal, a failure or a timeout is an error result the model reads; the
//! turn loop goes on. The tool names other modules need are named here
//! (re-exported from [`builtin`]).

pub mod beneath;
pub mod builtin;
/// The `[tools]` table of the config file, as the agent takes it.
pub use crate::config::tools as config;
pub use crate::config::tools::Level;
pub mod consent;
pub mod listing;
pub mod mcp;
pub mod model;
pub mod policy;
pub mod process;
pub mod result;
pub mod sandbox;
pub mod secrets;
pub mod setup;
pub mod stop;
mod tool;
pub mod workspace;

use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use crate::events::Event;
pub use builtin::{CREATE_NEW_TOPIC, MEMORY_TOOLS, PLOT, RENDER_VISUALIZATION};
pub use builtin::{NEED_INPUT, PROGRESS, SIGNAL, Signal, SignalHook, TASK_COMPLETE};
pub use consent::{Consent, Decision};
pub use listing::{ServerInfo, ToolInfo, ToolList, format_tool_list};
pub use result::{Done, Failed, Ran, ResultExt, ToolResult};
pub use setup::ToolSetup;
pub use stop::Stop;
pub use tool::{Dispatched, MEDIA_KEY, Registry, Source, Tool, ToolCall, media_for_model};
pub use workspace::Workspace;

/// What a tool gets besides its arguments.
pub struct Ctx<'a> {
    pub workspace: &'a Workspace,
    /// The tool stops (and says so) when it passes this.
    pub deadline: Instant,
    pub timeout: Duration,
    /// The call's `tool_id` (a `plot` chart's `ui` event is named after it).
    pub tool_id: &'a str,
    /// `--task-timeout`'s instant, which stops a tool too ([`stop`]).
    pub task_deadline: Option<Instant>,
    /// The model, for the tools that ask it themselves (the web tools).
    pub model: Option<&'a model::ModelAccess>,
    /// The run's memory, when it is on.
    pub memory: Option<&'a crate::memory::Handle>,
}

impl Registry {
    /// gem-ask's own tools ([`builtin::tools`]), `signal` with its
    /// `progress` kind or without.
    pub fn builtin(progress_reporting: bool) -> Registry {
        let mut r = Registry::default();
        for t in builtin::tools(progress_reporting) {
            r.add(t);
        }
        r
    }
}

/// The declared tools of a run with everything needed to call them.
pub struct Toolbox {
    registry: Registry,
    /// Names declared to the model, in registry order.
    declared: Vec<String>,
    consent: Consent,
    workspace: Workspace,
    timeout: Duration,
    mcp: mcp::Hub,
    /// Each MCP server's name and status, for the listing.
    servers: Vec<(String, String)>,
    /// `--task-timeout`'s instant while a task's turn runs: it stops a
    /// running tool too. Set by the turn loop ([`Toolbox::set_task_deadline`]).
    task_deadline: Option<std::time::Instant>,
    /// Tools this run cannot declare, and why (the listing says it).
    withheld: Vec<(String, String)>,
    /// The model of the turn, for the web tools ([`Toolbox::begin_turn`]).
    model: Option<Arc<model::ModelAccess>>,
    /// The run's memory, when it is on (the memory tools' store).
    memory: Option<Arc<crate::memory::Handle>>,
    /// The policy rules (`--policy`, the config's `policies/*.toml`).
    rules: policy::Rules,
}

impl Toolbox {
    /// A toolbox with only the chart and chapter tools declared (and no
    /// way to ask for consent): what tests and `-c` need.
    pub fn charts_only(declared: &[&str]) -> Toolbox {
        Toolbox {
            registry: Registry::builtin(true),
            declared: declared.iter().map(|s| s.to_string()).collect(),
            consent: Consent::no_terminal(),
            workspace: Workspace::current().unwrap_or_default(),
            timeout: setup::DEFAULT_TIMEOUT,
            mcp: mcp::Hub::default(),
            servers: Vec::new(),
            task_deadline: None,
            withheld: Vec::new(),
            model: None,
            memory: None,
            rules: policy::Rules::default(),
        }
    }

    /// The instant `--task-timeout` passes (or none): a running tool
    /// stops there too.
    pub fn set_task_deadline(&mut self, deadline: Option<Instant>) {
        self.task_deadline = deadline;
    }

    /// The run's memory, when it is on.
    pub fn memory(&self) -> Option<&Arc<crate::memory::Handle>> {
        self.memory.as_ref()
    }

    /// The names declared to the model.
    pub fn declared(&self) -> Vec<&str> {
        self.declared.iter().map(String::as_str).collect()
    }

    /// The system prompt's lines for the declared tools: each one's
    /// paragraph, by place, a shared one once.
    pub fn guidance(&self) -> String {
        let mut paragraphs: Vec<(u8, String)> = self
            .declared
            .iter()
            .filter_map(|n| self.registry.get(n)?.guidance.as_ref())
            .map(|g| (g.place, (g.text)(&self.workspace)))
            .collect();
        paragraphs.sort_by_key(|(place, _)| *place);
        paragraphs.dedup();
        paragraphs.into_iter().map(|(_, text)| text).collect()
    }

    /// The `functionDeclarations` of the request.
    pub fn declarations(&self) -> Vec<Value> {
        self.declared
            .iter()
            .filter_map(|n| self.registry.get(n))
            .map(|t| t.declaration.clone())
            .collect()
    }

    /// Every known tool with its source, level and whether it is
    /// declared, and every MCP server's status (`gem-ask --list-tools`,
    /// `/tools`; [`format_tool_list`] draws it).
    pub fn list(&self) -> ToolList {
        listing::list(self)
    }

    /// A new conversation starts (`/new`, `/load`): `a` (always) answers
    /// given in the last one no longer hold.
    pub fn new_conversation(&mut self) {
        self.consent.forget_always();
    }

    /// Runs one call of the model: `tool_use`, consent, the tool, any
    /// events it makes, `tool_result`, each handed to `emit` as it
    /// happens (a consent prompt comes after the `tool_use` is shown).
    /// Errors are only those of `emit` (the output is gone).
    pub fn dispatch(
        &mut self,
        call: &ToolCall<'_>,
        emit: &mut dyn FnMut(Event) -> io::Result<()>,
    ) -> io::Result<Dispatched> {
        let mut use_event = Event::tool_use(call.name, call.tool_id, call.args.clone());
        if let Some(tool) = self.registry.get(call.name)
            && let Some(rule) = policy::rule_for(
                &self.consent,
                &self.rules,
                tool,
                call.args,
                &self.workspace.cwd,
            )
        {
            use_event.set("policy", rule);
        }
        emit(use_event)?;
        let (ran, decision) = self.consent_and_run(call, emit)?;
        let mut result_event = ran.result.result_event(call.tool_id);
        // An auto tool involves no decision; every other call says who
        // allowed it, and which policy rule when one decided.
        if let Some(j) = decision.filter(|j| j.decision != Decision::Auto) {
            result_event.set("consent", j.decision.as_str());
            if let Some(rule) = &j.rule {
                result_event.set("policy", rule.as_str());
            }
        }
        for e in ran.events {
            emit(e)?;
        }
        emit(result_event)?;
        let mut fr = Map::new();
        if let Some(id) = call.id {
            fr.insert("id".into(), id.into());
        }
        fr.insert("name".into(), call.name.into());
        fr.insert("response".into(), ran.result.response());
        Ok(Dispatched {
            part: json!({ "functionResponse": fr }),
            new_topic: ran.new_topic,
            ok: ran.result.is_ok(),
        })
    }

    fn consent_and_run(
        &mut self,
        call: &ToolCall<'_>,
        emit: &mut dyn FnMut(Event) -> io::Result<()>,
    ) -> io::Result<(Ran, Option<policy::Judged>)> {
        let tool = match self.registry.get(call.name) {
            Some(t) if self.declared.iter().any(|d| d == call.name) => t.clone(),
            _ => {
                return Ok((
                    Ran::failed(Failed::unknown_tool(call.name, &self.declared)),
                    None,
                ));
            }
        };
        let started = Instant::now();
        let ctx = Ctx {
            workspace: &self.workspace,
            deadline: started + self.timeout,
            timeout: self.timeout,
            tool_id: call.tool_id,
            task_deadline: self.task_deadline,
            model: self.model.as_deref(),
            memory: self.memory.as_deref(),
        };
        if let Source::Mcp { server, .. } = &tool.source
            && let Some(why) = self.mcp.unavailable(server)
        {
            return Ok((Ran::failed(Failed::new("server_unavailable", why)), None));
        }
        if let Some(Err(f)) = tool.check.as_ref().map(|c| c(call.args, &ctx)) {
            return Ok((Ran::failed(f), None));
        }
        let what = tool.preview(call.args, &ctx);
        let judged = policy::decide(
            &mut self.consent,
            &self.rules,
            &tool,
            call.args,
            &what,
            &self.workspace.cwd,
        );
        let decision = judged.decision;
        if !decision.granted() {
            return Ok((Ran::failed(judged.refusal(&tool.name)), Some(judged)));
        }
        // The time spent answering the prompt is not the tool's.
        let ctx = Ctx {
            deadline: Instant::now() + self.timeout,
            ..ctx
        };
        let mut ran = (tool.run)(call.args, &ctx);
        // Whatever the tool read or printed, no key the user keeps goes on.
        secrets::redact_ran(&mut ran);
        // What it read is what a later call could carry out.
        policy::note_result(&ran);
        if let Source::Mcp { server, .. } = &tool.source
            && let Some(msg) = self.mcp.take_death_report(server)
        {
            emit(Event::error("error", &msg))?;
        }
        Ok((ran, Some(judged)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_made_unique_within_64_bytes() {
        let mut r = Registry::default();
        let long = "x".repeat(64);
        for _ in 0..3 {
            r.add(Tool::new(
                json!({"name": long}),
                Source::Builtin,
                Level::Auto,
                |_, _| Ran::done(Done::text("")),
            ));
        }
        let names: Vec<&str> = r.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names[0], long);
        assert_eq!(names[1], format!("{}_2", "x".repeat(62)));
        assert_eq!(names[2], format!("{}_3", "x".repeat(62)));
        assert_eq!(r.get(names[2]).unwrap().declaration["name"], names[2]);
    }

    #[test]
    fn a_builtin_signal_runs_through_dispatch() {
        let mut tb = Toolbox::charts_only(&[SIGNAL]);
        assert_eq!(tb.declarations()[0]["name"], "signal");
        let mut kinds = Vec::new();
        let d = tb
            .dispatch(
                &ToolCall {
                    name: "signal",
                    id: None,
                    args: &json!({"kind": "progress", "message": "half way"}),
                    tool_id: "s1",
                },
                &mut |e| {
                    kinds.push(e.kind().to_string());
                    Ok(())
                },
            )
            .unwrap();
        assert!(d.ok);
        assert_eq!(kinds, ["tool_use", "signal", "tool_result"]);
    }

    #[test]
    fn guidance_keeps_the_prompt_order_and_says_a_shared_paragraph_once() {
        let tb = Toolbox::charts_only(&[
            "render_visualization",
            "create_new_topic",
            "plot",
            "read_file",
            "write_file",
            "run_shell_command",
            "signal",
        ]);
        let g = tb.guidance();
        let at = |s: &str| g.find(s).unwrap_or_else(|| panic!("{s}: {g}"));
        assert!(at("call render_visualization") < at("call plot"));
        assert!(at("call plot") < at("Use create_new_topic"));
        assert!(at("Use create_new_topic") < at("Use signal"));
        assert!(at("Use signal") < at("The file and command tools"));
        assert_eq!(g.matches("The file and command tools").count(), 1);
        assert!(Toolbox::charts_only(&[]).guidance().is_empty());
    }

    #[test]
    fn an_undeclared_tool_is_an_error_answer() {
        let mut tb = Toolbox::charts_only(&["create_new_topic"]);
        let mut events = Vec::new();
        let d = tb
            .dispatch(
                &ToolCall {
                    name: "render_visualization",
                    id: Some("c1"),
                    args: &json!({}),
                    tool_id: "c1",
                },
                &mut |e| {
                    events.push(e);
                    Ok(())
                },
            )
            .unwrap();
        assert!(!d.ok);
        assert_eq!(d.part["functionResponse"]["id"], "c1");
        assert!(
            d.part["functionResponse"]["response"]["error"]
                .as_str()
                .unwrap()
                .starts_with(
                    "unknown tool \"render_visualization\"; available tools: create_new_topic"
                )
        );
        let kinds: Vec<&str> = events.iter().map(Event::kind).collect();
        assert_eq!(kinds, ["tool_use", "tool_result"]);
        assert!(events[1].get("consent").is_none());
    }

    #[test]
    fn an_auto_tool_runs_without_asking_and_says_so() {
        let mut tb = Toolbox::charts_only(&["create_new_topic"]);
        let mut events = Vec::new();
        let d = tb
            .dispatch(
                &ToolCall {
                    name: "create_new_topic",
                    id: None,
                    args: &json!({"title": "Research"}),
                    tool_id: "t1",
                },
                &mut |e| {
                    events.push(e);
                    Ok(())
                },
            )
            .unwrap();
        assert_eq!(d.new_topic.as_deref(), Some("Research"));
        assert!(d.part["functionResponse"].get("id").is_none());
        let kinds: Vec<&str> = events.iter().map(Event::kind).collect();
        assert_eq!(kinds, ["tool_use", "topic", "tool_result"]);
        assert!(events[2].get("consent").is_none());
    }
}
