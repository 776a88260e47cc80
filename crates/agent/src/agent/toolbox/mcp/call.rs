//! One call of an MCP tool, from the request to the model's answer. The
//! call is sent with a request handle, and the wait ends at whichever
//! comes first: the server's answer; a message from the server too large
//! to be read (counted by [`pipe::Watch`] on its way to rmcp, which drops
//! it, so the answer would never come: `too_large` at once); or a reason
//! to stop ([`Ctx::stopped`]: `--tool-timeout`, Ctrl-C, SIGTERM,
//! `--task-timeout`), on which the server is sent `notifications/cancelled`
//! with the request's id before gem-ask goes on (`timeout` or
//! `interrupted`). A connection that fails marks the server dead.

use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, ClientRequest, ServerResult,
};
use rmcp::service::{Peer, PeerRequestOptions, RoleClient};
use serde_json::Value;

use super::{Inner, State, fault, from_result, pipe};
use crate::agent::toolbox::{Ctx, Failed, Stop, ToolResult};

/// Runs `remote` on the server at `idx` of `inner` (called `server`):
/// the model's answer, or why there is none.
pub(super) fn run(
    inner: &Inner,
    idx: usize,
    server: &str,
    remote: &str,
    args: &Value,
    ctx: &Ctx<'_>,
) -> ToolResult {
    let (peer, watch, limit) = {
        let servers = inner.servers.lock().expect("not poisoned");
        let watch = servers[idx].watch.clone().unwrap_or_default();
        match &servers[idx].state {
            State::Running(c) => (c.peer().clone(), watch, servers[idx].call_timeout),
            State::Failed(why) | State::Dead { why, .. } => {
                return Err(Failed::new("server_unavailable", why.clone()));
            }
        }
    };
    let mut params = CallToolRequestParams::new(remote.to_string());
    match args {
        Value::Object(m) => params = params.with_arguments(m.clone()),
        Value::Null => {}
        other => {
            return Err(Failed::new(
                "invalid_arguments",
                format!("{remote}: the arguments must be an object, not {other}"),
            ));
        }
    }
    // The server's own `call_timeout`, where it is the nearer deadline.
    let limited = limit.filter(|l| *l < ctx.timeout);
    let own = match limited {
        Some(l) => Ctx {
            timeout: l,
            deadline: ctx.deadline.min(std::time::Instant::now() + l),
            ..*ctx
        },
        None => Ctx { ..*ctx },
    };
    let answer = match inner.rt.block_on(wait_for(&peer, params, &watch, &own)) {
        Waited::Answered(Err(e)) if fault::too_large(&e) => return Err(too_large(remote, server)),
        Waited::Answered(a) => a,
        Waited::Stopped(Stop::Timeout) if limited.is_some() => {
            let f = cancelled(&own, remote, Stop::Timeout);
            return Err(Failed {
                message: f
                    .message
                    .replace("(--tool-timeout)", &format!("(mcp.{server} call_timeout)")),
                ..f
            });
        }
        Waited::Stopped(why) => return Err(cancelled(ctx, remote, why)),
        Waited::TooLarge => return Err(too_large(remote, server)),
    };
    match answer {
        Ok(result) => from_result(&serde_json::to_value(&result).unwrap_or_default()),
        Err(rmcp::ServiceError::McpError(e)) => Err(Failed::new(
            "tool_failed",
            format!("{remote} (MCP server {server}): {}", e.message),
        )),
        Err(e) => {
            let why = format!(
                "MCP server {server} stopped ({}); its tools are no longer available",
                fault::said(&e)
            );
            let mut servers = inner.servers.lock().expect("not poisoned");
            if matches!(servers[idx].state, State::Running(_)) {
                servers[idx].state = State::Dead {
                    why: why.clone(),
                    reported: false,
                };
            }
            Err(Failed::new("server_unavailable", why))
        }
    }
}

/// The answer of a call whose answer was past the MCP message limit.
fn too_large(remote: &str, server: &str) -> Failed {
    Failed::new(
        "too_large",
        format!(
            "{remote} (MCP server {server}) answered with a message over the {} MiB an MCP \
             message may have; it was dropped (ask for less: a smaller range, a page)",
            pipe::MAX_MESSAGE / (1024 * 1024)
        ),
    )
}

/// How often a waiting call asks whether it must stop.
const POLL: Duration = Duration::from_millis(50);
/// Most time spent telling a server that a call is cancelled.
const CANCEL_WAIT: Duration = Duration::from_secs(1);

/// How a call's wait ended.
enum Waited {
    /// The server answered (or the connection failed).
    Answered(Result<CallToolResult, rmcp::ServiceError>),
    /// Timeout, Ctrl-C, SIGTERM or the task's deadline; the server was
    /// told to cancel the call.
    Stopped(Stop),
    /// The server's answer was past the MCP message limit (rmcp dropped
    /// it, so it would never come).
    TooLarge,
}

/// Sends the call and waits for whichever comes first: its answer, a
/// message too large from the server ([`pipe::Watch`]), or a reason to
/// stop ([`Ctx::stopped`], asked every [`POLL`]), on which the server is
/// sent `notifications/cancelled` with the request's id.
async fn wait_for(
    peer: &Peer<RoleClient>,
    params: CallToolRequestParams,
    watch: &pipe::Watch,
    ctx: &Ctx<'_>,
) -> Waited {
    // Counted before the request leaves: an answer too large cannot pass
    // unseen between the two.
    let seen = watch.count();
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
    let mut handle = match peer
        .send_request_with_option(request, PeerRequestOptions::no_options())
        .await
    {
        Ok(h) => h,
        Err(e) => return Waited::Answered(Err(e)),
    };
    let too_large = watch.past(seen);
    tokio::pin!(too_large);
    loop {
        tokio::select! {
            answer = &mut handle.rx => {
                return Waited::Answered(match answer {
                    Ok(Ok(ServerResult::CallToolResult(r))) => Ok(r),
                    Ok(Ok(_)) => Err(rmcp::ServiceError::UnexpectedResponse),
                    Ok(Err(e)) => Err(e),
                    Err(_) => Err(rmcp::ServiceError::TransportClosed),
                });
            }
            () = &mut too_large => return Waited::TooLarge,
            () = tokio::time::sleep(POLL) => {
                if let Some(why) = ctx.stopped() {
                    // Awaited: the server has it before gem-ask goes on
                    // (and perhaps exits).
                    let reason = format!("stopped {}", why.said(ctx.timeout));
                    let _ = tokio::time::timeout(CANCEL_WAIT, handle.cancel(Some(reason))).await;
                    return Waited::Stopped(why);
                }
            }
        }
    }
}

/// The answer of a call stopped before the server answered (it was sent
/// `notifications/cancelled`).
fn cancelled(ctx: &Ctx<'_>, remote: &str, why: Stop) -> Failed {
    let f = ctx.stop_failure(remote, why);
    Failed {
        message: format!(
            "{}; the server was told to cancel it (notifications/cancelled)",
            f.message
        ),
        ..f
    }
}
