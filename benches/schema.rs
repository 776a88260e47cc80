//! What `--schema-multi` adds to a turn (issue 25, target under 20 ms for
//! 10,000 records): the answer of 10,000 records (model, zero_to_sixty,
//! year; about 640 KB of JSON) read, validated against its schema, and
//! printed, both as plain JSON lines (stdout into a pipe) and as `record`
//! events (`--output jsonl`), into memory. Prints the median and 90th
//! percentile of each over the runs, and, beside them, `jq -c '.items[]'`
//! splitting the same answer into lines (a whole process, no validation:
//! the peer a shell user would reach for), timed in the same run. Times
//! are the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), so a loaded
//! machine's waits for a core do not count; jq's is its process's CPU time
//! (user + system, from `wait4`).
//!
//!   cargo bench --bench schema [-- RUNS]

use std::io::Write;
use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

use gemline::agent::EventSink;
use gemline::agent::JsonlSink;
use gemline::agent::schema::{RecordSink, Schema};
use gemline::agent::schema_turn::record_event;
use serde_json::json;

mod support;
use support::{ms, stats};

const RECORDS: usize = 10_000;
const TARGET: Duration = Duration::from_millis(20);

fn answer() -> String {
    let items: Vec<_> = (0..RECORDS)
        .map(|i| {
            json!({"model": format!("BMW M{} Competition xDrive {i}", i % 9),
                   "zero_to_sixty": 2.5 + (i % 37) as f64 / 10.0,
                   "year": 1990 + (i % 36) as i64})
        })
        .collect();
    json!({ "items": items }).to_string()
}

fn main() -> ExitCode {
    let runs: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(51);
    let text = answer();
    let schema = Schema::parse("model, zero_to_sixty float: seconds, year int", true)
        .expect("the bench's schema parses");
    let (mut check, mut plain, mut events, mut jq) = (vec![], vec![], vec![], vec![]);
    let mut sizes = (0, 0);
    for i in 0..runs + 3 {
        let t0 = cpu_now();
        let records = match schema.check(&text) {
            Ok(r) => r,
            Err(m) => {
                gemline::term::diag(format!("schema bench: the answer does not match: {m}"));
                return ExitCode::FAILURE;
            }
        };
        let t1 = cpu_now();
        let batch: Vec<_> = records.into_iter().map(record_event).collect();
        let mut sink = RecordSink::new(Vec::with_capacity(text.len()));
        sink.emit_all(&batch).expect("into memory");
        let t2 = cpu_now();
        let mut buf = Vec::with_capacity(text.len() * 2);
        JsonlSink::new(&mut buf)
            .emit_all(&batch)
            .expect("into memory");
        let t3 = cpu_now();
        sizes = (text.len(), buf.len());
        let jq_time = time_jq(&text);
        if i >= 3 {
            check.push(t1 - t0);
            plain.push(t2 - t0);
            events.push((t3 - t2) + (t1 - t0));
            if let Some(t) = jq_time {
                jq.push(t);
            }
        }
        drop(sink);
    }
    let (c50, c90) = stats(check);
    let (p50, p90) = stats(plain);
    let (e50, e90) = stats(events);
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "schema: {RECORDS} records, answer {} KB, events {} KB, {runs} runs (median / p90, ms)",
        sizes.0 / 1000,
        sizes.1 / 1000
    );
    let _ = writeln!(out, "  read + validate            {c50:7.2} / {c90:7.2}");
    let _ = writeln!(
        out,
        "  + JSON lines (pipe)        {p50:7.2} / {p90:7.2}   target {} ms: {}",
        TARGET.as_millis(),
        if p50 < ms(TARGET) { "met" } else { "MISSED" }
    );
    let _ = writeln!(
        out,
        "  + record events (jsonl)    {e50:7.2} / {e90:7.2}   target {} ms: {}",
        TARGET.as_millis(),
        if e50 < ms(TARGET) { "met" } else { "MISSED" }
    );
    if jq.is_empty() {
        let _ = writeln!(out, "  jq -c '.items[]'           (jq not installed)");
    } else {
        let (j50, j90) = stats(jq);
        let _ = writeln!(
            out,
            "  jq -c '.items[]' (process) {j50:7.2} / {j90:7.2}   gem-ask's JSON lines take {:.2}x jq's time",
            p50 / j50
        );
    }
    ExitCode::SUCCESS
}

/// This thread's CPU time so far.
fn cpu_now() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which ts is.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// `jq -c '.items[]'` on the answer, output discarded: its CPU time (user
/// and system); `None` without jq.
fn time_jq(text: &str) -> Option<Duration> {
    let mut child = Command::new("jq")
        .args(["-c", ".items[]"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(text.as_bytes()).ok()?;
    let mut status = 0;
    // SAFETY: an empty rusage for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, filling status and usage.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    (pid > 0 && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0)
        .then(|| tv(usage.ru_utime) + tv(usage.ru_stime))
}
