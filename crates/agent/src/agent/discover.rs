//! Runs that ask the provider rather than the model, for scripts to check
//! before they send: `--list-models` (the models and their context sizes)
//! and `--count-tokens` (the tokens the one-shot request would take:
//! countTokens is given the very body the turn would send, history,
//! stdin, attachments, prompt, system prompt and tools included, the
//! attachments' parts built and wired as the turn builds them). On a
//! terminal (or `--output text`) they print text; into a pipe one JSON
//! object a line.

use std::io::{self, Write};

use serde_json::{Value, json};

use super::attach::wire::Wired;
use super::oneshot::{Prepared, user_content};
use super::outcome::{Failure, verdict};
use super::sink::EventSink;
use super::turn::TurnReport;
use super::{Options, OutputMode, exit, setup};
use crate::events::Event;
use crate::provider::models::{self, ModelInfo};
use crate::provider::{Client, GenError};
use crate::term::coded;

/// A failure as the error `app::main_with` prints, with its exit code.
fn fail(f: Failure) -> anyhow::Error {
    match verdict(f) {
        Ok(v) => {
            let (_, message) = v.error.unwrap_or(("", String::new()));
            coded(v.code, super::keys::redact_key(&message))
        }
        Err(e) => e.into(),
    }
}

fn as_text(args: &Options) -> bool {
    setup::output_mode(&args.output, args.command_help, args.schema.is_some()) == OutputMode::Text
}

/// `--list-models`.
pub fn list_models(args: &Options) -> anyhow::Result<u8> {
    setup::check_base_url(&args.connection)?;
    let client =
        setup::make_client(args.ask.provider, &args.ask.model, &args.connection).map_err(fail)?;
    let list =
        models::list(client.transport(), args.ask.provider).map_err(|e| fail(Failure::Gen(e)))?;
    let mut out = io::stdout().lock();
    if as_text(args) {
        out.write_all(models_table(&list).as_bytes())?;
    } else {
        for m in &list {
            writeln!(out, "{}", m.to_json())?;
        }
    }
    out.flush()?;
    Ok(exit::OK)
}

/// The models as aligned columns, control characters made visible.
fn models_table(list: &[ModelInfo]) -> String {
    let n = |v: Option<u64>| v.map(thousands).unwrap_or_else(|| "-".into());
    let mut rows = vec![vec![
        "MODEL".to_string(),
        "CONTEXT".into(),
        "OUTPUT".into(),
        "NAME".into(),
    ]];
    rows.extend(list.iter().map(|m| {
        vec![
            m.id.clone(),
            n(m.context),
            n(m.output),
            m.display_name.clone().unwrap_or_default(),
        ]
    }));
    let text = crate::render::table::columns(&rows);
    crate::render::text::clean_text(&text, false)
}

/// 1048576 as `1,048,576`.
fn thousands(v: u64) -> String {
    let digits = v.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Throws events away: a count sends nothing to the model.
struct Discard;

impl EventSink for Discard {
    fn emit(&mut self, _: &Event) -> io::Result<()> {
        Ok(())
    }
    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `--count-tokens`.
pub fn count_tokens(args: &Options) -> anyhow::Result<u8> {
    if !args.ask.provider.wire().supports().count_tokens {
        return Err(coded(
            exit::USAGE,
            format!(
                "--count-tokens needs --provider gemini: --provider {} has no countTokens",
                args.ask.provider.name()
            ),
        ));
    }
    let (client, body, wired, history) = counted_request(args)?;
    let count =
        models::count_tokens(&client, body, &wired.blobs).map_err(|e| fail(Failure::Gen(e)))?;
    print_count(args, &count, history)?;
    Ok(exit::OK)
}

/// The request a one-shot run would send, as `--count-tokens` counts it:
/// the client, the body with its attachments wired (their bytes in
/// `Wired::blobs`), and how many contents of history it holds.
fn counted_request(args: &Options) -> anyhow::Result<(Client, Value, Wired, usize)> {
    let prepared = Prepared::new(args)?;
    let mut binary = None;
    let Some(context) = setup::read_context(args, &mut binary)? else {
        return Err(fail(Failure::Gen(GenError::Interrupted)));
    };
    let attachments = setup::open_attachments(args, binary)?;
    let prompt = args.prompt.join(" ");
    let mut session = setup::resolve_session(&args.conversation)?;
    if let Some(m) = &session.load_error {
        return Err(fail(Failure::Session(m.clone())));
    }
    let mut agent = prepared.agent(args, &mut session);
    agent.sink = Box::new(Discard);
    // A count keeps nothing: no copy of an attachment in the store.
    agent.attach.store = None;
    let mut contents = std::mem::take(&mut agent.history);
    let history = contents.len();
    let asked = !(prompt.trim().is_empty() && context.trim().is_empty() && attachments.is_empty());
    if !asked && contents.is_empty() {
        return Err(coded(
            exit::USAGE,
            "nothing to count: give a prompt, pipe text on stdin, attach a file or name a session",
        ));
    }
    let client =
        setup::make_client(args.ask.provider, &args.ask.model, &args.connection).map_err(fail)?;
    let gen_failed = |e| fail(Failure::Gen(e));
    if asked {
        // Built as the turn builds it: the attachments' parts (a large
        // one uploaded) before the text.
        agent.attach.add(attachments);
        let user = user_content(&context, &prompt);
        // The memories the turn would carry (`--memory`) open its user
        // turn: found as the turn finds them.
        agent
            .recall(&client, &user, &mut TurnReport::default())
            .map_err(fail)?;
        let user = agent.attach.take_into(user, &client).map_err(gen_failed)?;
        contents.push(agent.with_turn_context(user));
    }
    let mut body = agent.request_body(&contents);
    let wired = agent.attach.wire(&mut body, &client).map_err(gen_failed)?;
    for w in &wired.warnings {
        crate::term::diag(format!("gem-ask: warning: {w}"));
    }
    Ok((client, body, wired, history))
}

/// The count: a line of text, or one JSON object.
fn print_count(args: &Options, count: &models::TokenCount, history: usize) -> io::Result<()> {
    let mut out = io::stdout().lock();
    if as_text(args) {
        let mut line = format!("{} tokens", thousands(count.total));
        if history > 0 {
            line.push_str(&format!(
                " ({history} content{} of history included)",
                if history == 1 { "" } else { "s" }
            ));
        }
        writeln!(out, "{line}")?;
    } else {
        let mut v = json!({
            "total_tokens": count.total,
            "model": args.ask.model,
            "history_contents": history,
        });
        if let Some(c) = count.cached {
            v["cached_tokens"] = c.into();
        }
        if !count.details.is_empty() {
            v["by_modality"] = Value::Object(
                count
                    .details
                    .iter()
                    .map(|(m, n)| (m.clone(), Value::from(*n)))
                    .collect(),
            );
        }
        writeln!(out, "{v}")?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_get_thousands_separators() {
        assert_eq!(thousands(1_048_576), "1,048,576");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(0), "0");
    }
}
