//! `v` at the consent prompt: the whole request in a pager on the
//! terminal. `$PAGER` (split as a shell would), else `less -R`; when
//! neither can be started (a minimal container has no pager), a built-in
//! one shows a screenful at a time and waits for Enter (`q` stops). The
//! pager is a child like any other: it gets no secret of the user's.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use crate::agent::toolbox::secrets;
use crate::render::text::visible_width;

/// Shows `text` (already made safe: marks for every hidden character)
/// on the terminal `tty`, `cols` wide and `rows` high.
pub(super) fn page(text: &str, tty: &File, cols: usize, rows: usize) {
    let mut pagers: Vec<Vec<String>> = Vec::new();
    if let Some(p) = crate::agent::environ::get()
        .pager
        .as_deref()
        .and_then(shlex::split)
        .filter(|w| !w.is_empty())
    {
        pagers.push(p);
    }
    pagers.push(vec!["less".into(), "-R".into()]);
    for argv in pagers {
        if run(&argv, text, tty) {
            return;
        }
    }
    built_in(text, tty, cols, rows);
}

/// Runs one pager with `text` on its stdin; false when it cannot start.
fn run(argv: &[String], text: &str, tty: &File) -> bool {
    let (Ok(out), Ok(err)) = (tty.try_clone(), tty.try_clone()) else {
        return false;
    };
    let mut cmd = Command::new(&argv[0]);
    secrets::scrub(&mut cmd)
        .args(&argv[1..])
        .stdin(Stdio::piped())
        .stdout(out)
        .stderr(err);
    let Ok(mut child) = cmd.spawn() else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A pager quit early closes the pipe: that is no error.
        let _ = stdin.write_all(text.as_bytes());
        let _ = stdin.write_all(b"\n");
    }
    let _ = child.wait();
    true
}

/// A screenful at a time, Enter for the next, `q` to stop.
fn built_in(text: &str, tty: &File, cols: usize, rows: usize) {
    let Ok(mut out) = tty.try_clone() else {
        return;
    };
    let mut input = BufReader::new(tty);
    let page = rows.saturating_sub(1).max(1);
    let mut used = 0;
    for line in text.split('\n') {
        let need = visible_width(line).div_ceil(cols.max(1)).max(1);
        if used > 0 && used + need > page {
            let _ = write!(
                out,
                "-- more: Enter for the next page, q and Enter to stop --"
            );
            let _ = out.flush();
            let mut answer = String::new();
            match input.read_line(&mut answer) {
                Ok(n) if n > 0 && !answer.trim().eq_ignore_ascii_case("q") => used = 0,
                _ => return,
            }
        }
        let _ = writeln!(out, "{line}");
        used += need;
    }
    let _ = writeln!(out, "-- end --");
}
