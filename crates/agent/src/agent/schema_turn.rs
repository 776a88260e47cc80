//! A user turn whose answer must match the schema (`--schema`, [`super::schema`]). The answer is checked
//! ([`Schema::check`]); one that does not match is sent back once with
//! its problems (a request with the schema as a constraint and no tools);
//! a second miss ends the run with exit 65, the problems and the raw answer
//! on stderr. The records of a good answer are `record` events, written
//! together.

use serde_json::{Map, Value};

use super::schema::{RECORD, Schema};
use crate::agent::outcome::Failure;
use crate::agent::turn::{Agent, TurnReport, stamp};
use crate::events::Event;
use crate::provider::Client;
use crate::provider::request;

/// The `record` event of one record.
pub fn record_event(record: Value) -> Event {
    let mut m = Map::new();
    m.insert("type".into(), RECORD.into());
    m.insert("record".into(), record);
    Event(m)
}

/// Runs `user` as a turn whose answer is data; its records are emitted.
/// The report covers both requests when the answer was retried.
pub fn turn(
    agent: &mut Agent,
    client: &Client,
    user: Value,
    schema: &Schema,
) -> Result<TurnReport, Failure> {
    let mut report = agent.turn(client, user)?;
    let answer = report.answer.take().unwrap_or_default();
    let records = match schema.check(&answer) {
        Ok(r) => r,
        Err(first) => {
            agent.emit(stamp(Event::error(
                "warning",
                &format!(
                    "the answer does not match the schema ({}); asking once more",
                    count(first.problems.len())
                ),
            )))?;
            agent.opts.schema_retry = true;
            let retried = agent.turn(client, request::user_text(&[&schema.retry_prompt(&first)]));
            agent.opts.schema_retry = false;
            let mut second = retried?;
            let answer = second.answer.take().unwrap_or_default();
            merge(&mut report, second);
            match schema.check(&answer) {
                Ok(r) => r,
                Err(m) => {
                    crate::term::diag(format!(
                        "gem-ask: the answer that does not match the schema:\n{answer}"
                    ));
                    return Err(Failure::Schema(format!(
                        "the answer does not match the schema, also after one retry:\n{m}"
                    )));
                }
            }
        }
    };
    let events: Vec<Event> = records.into_iter().map(record_event).collect();
    agent.sink.emit_all(&events)?;
    Ok(report)
}

fn count(n: usize) -> String {
    if n == 1 {
        "1 problem".into()
    } else {
        format!("{n} problems")
    }
}

/// The retry's report folded into the first's.
fn merge(into: &mut TurnReport, mut more: TurnReport) {
    into.signals.append(&mut more.signals);
    into.usage.add(more.usage);
    into.requests += more.requests;
    into.tool_calls += more.tool_calls;
    into.context_tokens = more.context_tokens;
    into.records.append(&mut more.records);
}
