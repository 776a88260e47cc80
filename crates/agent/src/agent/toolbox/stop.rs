//! What stops a running tool before it is done: its own deadline
//! (`--tool-timeout`), SIGINT or SIGTERM (Ctrl-C), and the task's
//! deadline (`--task-timeout`, which applies in the middle of a turn).
//! A tool that can take long asks [`Ctx::stopped`] as it goes (the shell
//! tool between polls of its command, `read_file` between chunks, the
//! search between files, an MCP call while it waits for its answer),
//! stops what it started, and answers with [`Ctx::stop_failure`]. The
//! turn loop then sees the signal or the deadline and ends the turn, so a
//! `result` event always comes.

use std::time::{Duration, Instant};

use super::{Ctx, Failed, Workspace};
use crate::agent::signals;

/// Why a running tool was stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Its own `--tool-timeout`.
    Timeout,
    /// SIGINT or SIGTERM arrived.
    Signal(i32),
    /// `--task-timeout` passed.
    TaskTimeout,
}

impl Stop {
    /// How the result says it: "after 3 s (--tool-timeout)", "by SIGINT",
    /// "at --task-timeout".
    pub fn said(self, timeout: Duration) -> String {
        match self {
            Stop::Timeout => format!("after {} s (--tool-timeout)", timeout.as_secs_f64()),
            Stop::Signal(s) => format!("by {}", signals::name(s)),
            Stop::TaskTimeout => "at --task-timeout".into(),
        }
    }
}

impl<'a> Ctx<'a> {
    /// A context for a call starting now, with no task deadline.
    pub fn new(workspace: &'a Workspace, timeout: Duration, tool_id: &'a str) -> Ctx<'a> {
        Ctx {
            workspace,
            deadline: Instant::now() + timeout,
            timeout,
            tool_id,
            task_deadline: None,
            model: None,
            memory: None,
        }
    }

    /// Whether the tool must stop now, and why. A signal comes first: the
    /// user asked.
    pub fn stopped(&self) -> Option<Stop> {
        if let Some(s) = signals::received() {
            return Some(Stop::Signal(s));
        }
        let now = Instant::now();
        if self.task_deadline.is_some_and(|d| now >= d) {
            return Some(Stop::TaskTimeout);
        }
        (now >= self.deadline).then_some(Stop::Timeout)
    }

    /// The answer of tool `name` stopped for `why`: `timeout` for its own
    /// deadline, `interrupted` otherwise.
    pub fn stop_failure(&self, name: &str, why: Stop) -> Failed {
        match why {
            Stop::Timeout => Failed::timed_out(name, self.timeout),
            other => Failed::new(
                "interrupted",
                format!("{name} was stopped {}", other.said(self.timeout)),
            ),
        }
    }
}
