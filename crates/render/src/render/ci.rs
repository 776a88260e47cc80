//! `viz-render --format github|gitlab`: the terminal drawing for a CI
//! log. Each chapter is a collapsible section (GitHub's `::group::` /
//! `::endgroup::` workflow commands; GitLab's `section_start` /
//! `section_end` markers) and, on GitHub, each `error` event is an
//! `::error::` or `::warning::` annotation (with `file` and `line` when the
//! event has them) instead of an error line.
//!
//! Nothing from the events can act as a command of its own. The drawing
//! is passed on whole lines at a time (a log is read by lines): on GitHub
//! a line the runner would take for a workflow command (`::` after
//! leading blanks, or `##[` anywhere, ANSI styling aside) is fenced by
//! `::stop-commands::TOKEN` ... `::TOKEN::`, GitHub's own way to print
//! untrusted text, with a token the line does not hold; data inside our
//! own commands (group titles, annotation messages and properties) is
//! percent-escaped as the runner unescapes it. GitLab's markers need a
//! carriage return and an ESC, which the drawing never lets through from
//! data (control characters are shown as `^M`, `^[`), and a stray
//! carriage return is made visible here too.

use std::io::{self, Write};
use std::time::{SystemTime, UNIX_EPOCH};

use super::text::{clean_line, clean_text, strip_ansi};
use super::{RenderOptions, Renderer};
use crate::events::Event;

/// Which CI's log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    GitHub,
    GitLab,
}

/// The terminal drawing, wrapped for a CI log.
pub struct CiLog {
    platform: Platform,
    renderer: Renderer,
    /// What the renderer drew that is not yet a whole line.
    drawn: Vec<u8>,
    /// The open section: its name (GitLab needs it to close it).
    section: Option<String>,
    /// Stop-commands tokens handed out, to make each new.
    tokens: u64,
}

impl CiLog {
    pub fn new(platform: Platform, opts: RenderOptions) -> CiLog {
        CiLog {
            platform,
            // A log is read back whole: each block once, nothing redrawn.
            renderer: Renderer::new(RenderOptions {
                in_place: false,
                ..opts
            }),
            drawn: Vec::new(),
            section: None,
            tokens: 0,
        }
    }

    pub fn renderer(&self) -> &Renderer {
        &self.renderer
    }

    /// Draws one event: a chapter (a `topic`, a titled topic call) opens a
    /// section first; on GitHub an
    /// `error` event is an annotation (still counted with `--chapters`).
    pub fn event(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        let chapters_only = self.renderer.options().chapters_only;
        if !chapters_only && let Some(title) = self.renderer.opens_chapter(e) {
            self.renderer.end_text(&mut self.drawn)?;
            self.pass_lines(out, false)?;
            self.close_section(out)?;
            self.open_section(&title, out)?;
        }
        let annotate = self.platform == Platform::GitHub && e.kind() == "error";
        if annotate {
            self.renderer.end_text(&mut self.drawn)?;
            self.pass_lines(out, false)?;
            out.write_all(annotation(e).as_bytes())?;
        }
        if !annotate || chapters_only {
            self.renderer.event(e, &mut self.drawn)?;
        }
        self.pass_lines(out, false)?;
        out.flush()
    }

    /// The end of input: the last line and the open section closed.
    pub fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.renderer.finish(&mut self.drawn)?;
        self.pass_lines(out, true)?;
        self.close_section(out)?;
        out.flush()
    }

    /// Writes the whole lines drawn so far (with `all`, the rest too),
    /// each made safe for the log.
    fn pass_lines(&mut self, out: &mut dyn Write, all: bool) -> io::Result<()> {
        let end = if all {
            self.drawn.len()
        } else {
            match self.drawn.iter().rposition(|&b| b == b'\n') {
                Some(i) => i + 1,
                None => return Ok(()),
            }
        };
        let text: Vec<u8> = self.drawn.drain(..end).collect();
        let text = String::from_utf8_lossy(&text);
        for line in text.lines() {
            let safe = self.safe_line(line);
            out.write_all(safe.as_bytes())?;
        }
        Ok(())
    }

    /// One drawn line as the log gets it, newline included.
    fn safe_line(&mut self, line: &str) -> String {
        match self.platform {
            Platform::GitLab => format!("{}\n", line.replace('\r', "^M")),
            Platform::GitHub if is_github_command(line) => {
                let token = self.token(line);
                format!("::stop-commands::{token}\n{line}\n::{token}::\n")
            }
            Platform::GitHub => format!("{line}\n"),
        }
    }

    /// A stop-commands token the line does not hold.
    fn token(&mut self, line: &str) -> String {
        loop {
            self.tokens += 1;
            let t = format!("gemline-{:016x}", fnv1a(line, self.tokens));
            if !line.contains(&t) {
                return t;
            }
        }
    }

    fn open_section(&mut self, title: &str, out: &mut dyn Write) -> io::Result<()> {
        let n = self.renderer.chapters() + 1;
        let t = clean_line(title.trim(), !self.renderer.options().unicode);
        let dot = if self.renderer.options().unicode {
            "·"
        } else {
            "."
        };
        let header = if t.is_empty() {
            n.to_string()
        } else {
            format!("{n} {dot} {t}")
        };
        let name = format!("gemline_chapter_{n}");
        let line = match self.platform {
            Platform::GitHub => format!("::group::{}\n", escape_data(&header)),
            Platform::GitLab => format!(
                "\x1b[0Ksection_start:{}:{name}[collapsed=true]\r\x1b[0K{}\n",
                now(),
                header.replace('\r', "^M")
            ),
        };
        out.write_all(line.as_bytes())?;
        self.section = Some(name);
        Ok(())
    }

    fn close_section(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let Some(name) = self.section.take() else {
            return Ok(());
        };
        let line = match self.platform {
            Platform::GitHub => "::endgroup::\n".to_string(),
            Platform::GitLab => format!("\x1b[0Ksection_end:{}:{name}\r\x1b[0K\n", now()),
        };
        out.write_all(line.as_bytes())
    }
}

/// Whether GitHub's runner would read this line as a workflow command:
/// `::` first after blanks (the current form), or `##[` anywhere (the
/// old form, still read). Styling aside: colour codes do not hide it.
pub fn is_github_command(line: &str) -> bool {
    let plain = strip_ansi(line);
    plain.trim_start().starts_with("::") || plain.contains("##[")
}

/// `::error file=F,line=L::MESSAGE` (or `::warning`) for an `error` event.
fn annotation(e: &Event) -> String {
    let kind = if e.str_field("severity") == Some("warning") {
        "warning"
    } else {
        "error"
    };
    let mut props = Vec::new();
    if let Some(f) = e.str_field("file").filter(|f| !f.trim().is_empty()) {
        props.push(format!("file={}", escape_property(&clean_line(f, false))));
        if let Some(l) = e
            .get("line")
            .and_then(serde_json::Value::as_u64)
            .filter(|l| *l > 0)
        {
            props.push(format!("line={l}"));
        }
    }
    let props = if props.is_empty() {
        String::new()
    } else {
        format!(" {}", props.join(","))
    };
    let msg = e
        .str_field("message")
        .filter(|m| !m.trim().is_empty())
        .unwrap_or("(no message)");
    let msg = clean_text(msg.trim_end(), false);
    format!("::{kind}{props}::{}\n", escape_data(&msg))
}

/// Command data as GitHub's runner unescapes it.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A command property as GitHub's runner unescapes it.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Seconds since the epoch, for GitLab's section markers.
fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// FNV-1a of the line and a counter: tokens differ per line and per use.
fn fnv1a(s: &str, n: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes().chain(n.to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_commands_are_spotted_as_the_runner_reads_them() {
        assert!(is_github_command("::set-env name=X::1"));
        assert!(is_github_command("   ::error::x"));
        assert!(is_github_command("\x1b[1m::add-mask::x\x1b[0m"));
        assert!(is_github_command("text ##[set-env name=X;]1"));
        assert!(!is_github_command("error: ::set-env name=X::1"));
        assert!(!is_github_command("a : b"));
    }

    #[test]
    fn command_data_and_properties_are_escaped() {
        assert_eq!(escape_data("50%\r\nx"), "50%25%0D%0Ax");
        assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
        let e = Event(
            serde_json::from_str(
                r#"{"type":"error","severity":"warning","message":"a\n::set-env name=X::1","file":"src/a,b.rs","line":7}"#,
            )
            .unwrap(),
        );
        assert_eq!(
            annotation(&e),
            "::warning file=src/a%2Cb.rs,line=7::a%0A::set-env name=X::1\n"
        );
    }
}
