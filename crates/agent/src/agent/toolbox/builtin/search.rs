//! `search_files`: a regular expression over the text files under a
//! directory of the workspace. The walk goes from the directory's open
//! descriptor to each child with `openat(O_NOFOLLOW)`
//! ([`Dir`](crate::agent::toolbox::beneath::Dir)), never by name from the
//! top, so a directory swapped for a symlink while it runs leads nowhere
//! outside; symlinks are not followed, and only regular files are opened.
//!
//! As a person searching would, it skips hidden entries and what the
//! `.gitignore` and `.ignore` files of the directories walked (and of
//! their parents inside the workspace) exclude, read through the same
//! descriptors and matched with the `ignore` crate's gitignore rules.
//! Not read: `.git/info/exclude`, the global excludes file, and ignore
//! files above the workspace root.

use std::ffi::OsStr;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use serde_json::Value;

use super::args::{bad_args, required, str_arg};
use crate::agent::toolbox::beneath::Dir;
use crate::agent::toolbox::{Ctx, Done, Stop, ToolResult, secrets};
use crate::term::regular::FileKind;

/// Most matching lines `search_files` returns.
pub const MAX_MATCHES: usize = 200;
/// Files larger than this are not searched.
const MAX_SEARCH_FILE: u64 = 4 << 20;
/// Directories deeper than this below the search's start are not walked
/// (each level holds a descriptor open).
const MAX_DEPTH: usize = 128;
/// The ignore files read in each directory walked.
const IGNORE_FILES: [&str; 2] = [".gitignore", ".ignore"];

pub fn search_files(args: &Value, ctx: &Ctx<'_>) -> ToolResult {
    let pattern = required("search_files", args, "pattern")?;
    let re = regex::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .build()
        .map_err(|e| bad_args(format!("search_files: pattern: {e}")))?;
    let path = str_arg(args, "path").unwrap_or(".");
    let mut walk = Walk {
        re,
        ctx,
        hits: Vec::new(),
        full: false,
        large: 0,
        special: 0,
        deep: 0,
        stopped: None,
    };
    // A file is searched alone. (Which of the two it is may change
    // meanwhile; either open stays beneath the workspace.)
    let is_dir = ctx.workspace.resolve(path).is_ok_and(|real| real.is_dir());
    if is_dir {
        let (dir, real) = ctx.workspace.open_dir(path)?;
        let mut rules = parent_rules(ctx, &real);
        walk.dir(&dir, &real, &mut rules, 0);
    } else {
        let (file, real) = ctx.workspace.open_file(path)?;
        walk.file(file, &ctx.workspace.shown(&real));
    }
    if let Some(why) = walk.stopped {
        return Err(ctx.stop_failure("search_files", why));
    }
    let notes = walk.notes();
    let mut lines = walk.hits;
    if lines.is_empty() {
        lines.push(format!("no match for {pattern:?} under {path}"));
    }
    lines.extend(notes);
    Ok(Done::text(lines.join("\n")))
}

struct Walk<'a> {
    re: regex::Regex,
    ctx: &'a Ctx<'a>,
    hits: Vec<String>,
    /// [`MAX_MATCHES`] reached.
    full: bool,
    /// Files skipped for their size.
    large: usize,
    /// Entries skipped for not being regular files or directories.
    special: usize,
    /// Directories not walked, too deep.
    deep: usize,
    stopped: Option<Stop>,
}

impl Walk<'_> {
    fn done(&mut self) -> bool {
        if self.stopped.is_none() {
            self.stopped = self.ctx.stopped();
        }
        self.full || self.stopped.is_some()
    }

    /// Walks `dir` (whose canonical path is `path`) depth first, entries
    /// by name.
    fn dir(&mut self, dir: &Dir, path: &Path, rules: &mut Vec<Gitignore>, depth: usize) {
        let Ok(mut entries) = dir.entries() else {
            return;
        };
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        let pushed = own_rules(dir, path).map(|r| rules.push(r)).is_some();
        for e in entries {
            if self.done() {
                break;
            }
            if e.name.as_encoded_bytes().starts_with(b".") {
                continue;
            }
            let full = path.join(&e.name);
            let is_dir = e.kind == FileKind::Directory;
            if ignored(rules, &full, is_dir) {
                continue;
            }
            match e.kind {
                FileKind::Directory if depth >= MAX_DEPTH => self.deep += 1,
                FileKind::Directory => {
                    if let Ok(child) = dir.child_dir(&e.name) {
                        self.dir(&child, &full, rules, depth + 1);
                    }
                }
                FileKind::Regular if e.len > MAX_SEARCH_FILE => self.large += 1,
                FileKind::Regular => {
                    if let Ok(f) = dir.child_file(&e.name) {
                        let shown = self.ctx.workspace.shown(&full);
                        self.file(f, &shown);
                    }
                }
                // Not followed, as the tool says.
                FileKind::Symlink => {}
                _ => self.special += 1,
            }
        }
        if pushed {
            rules.pop();
        }
    }

    /// Adds a file's matching lines (none for a binary file).
    fn file(&mut self, f: File, shown: &str) {
        let mut bytes = Vec::new();
        if f.take(MAX_SEARCH_FILE + 1).read_to_end(&mut bytes).is_err() {
            return;
        }
        if bytes.len() as u64 > MAX_SEARCH_FILE {
            self.large += 1;
            return;
        }
        if bytes.iter().take(8192).any(|&b| b == 0) {
            return;
        }
        let text = String::from_utf8_lossy(&bytes);
        for (i, line) in text.lines().enumerate() {
            if self.re.is_match(line) {
                if self.hits.len() == MAX_MATCHES {
                    self.full = true;
                    return;
                }
                let mut shown_line: String = line.chars().take(300).collect();
                if shown_line.len() < line.len() {
                    secrets::cut_tail(&mut shown_line);
                }
                self.hits.push(format!("{shown}:{}: {shown_line}", i + 1));
            }
        }
    }

    /// What the answer adds about what was left out.
    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.full {
            notes.push(format!("[search_files: stopped at {MAX_MATCHES} matches]"));
        }
        let mut skipped = Vec::new();
        if self.large > 0 {
            skipped.push(format!(
                "{} files over {} MiB",
                self.large,
                MAX_SEARCH_FILE >> 20
            ));
        }
        if self.special > 0 {
            skipped.push(format!(
                "{} entries that are not regular files (FIFOs, sockets, devices)",
                self.special
            ));
        }
        if self.deep > 0 {
            skipped.push(format!(
                "{} directories more than {MAX_DEPTH} levels down",
                self.deep
            ));
        }
        if !skipped.is_empty() {
            notes.push(format!("[search_files: skipped {}]", skipped.join(", ")));
        }
        notes
    }
}

/// Whether the innermost rule that speaks of `path` ignores it.
fn ignored(rules: &[Gitignore], path: &Path, is_dir: bool) -> bool {
    for r in rules.iter().rev() {
        match r.matched(path, is_dir) {
            Match::Ignore(_) => return true,
            Match::Whitelist(_) => return false,
            Match::None => {}
        }
    }
    false
}

/// The rules of `dir`'s own ignore files, if it has any.
fn own_rules(dir: &Dir, path: &Path) -> Option<Gitignore> {
    let mut b = GitignoreBuilder::new(path);
    let mut any = false;
    // .ignore is read last: its rules win, as with ripgrep.
    for name in IGNORE_FILES {
        let Ok(f) = dir.child_file(OsStr::new(name)) else {
            continue;
        };
        let mut text = String::new();
        if f.take(1 << 20).read_to_string(&mut text).is_err() {
            continue;
        }
        for line in text.lines() {
            any |= b.add_line(None, line).is_ok();
        }
    }
    any.then(|| b.build().ok()).flatten()
}

/// The rules of the directories between the workspace root holding
/// `start` and `start` itself (not included: the walk reads its own).
fn parent_rules(ctx: &Ctx<'_>, start: &Path) -> Vec<Gitignore> {
    let Some(root) = ctx
        .workspace
        .roots
        .iter()
        .filter(|r| start.starts_with(r))
        .max_by_key(|r| r.as_os_str().len())
    else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = start
        .ancestors()
        .skip(1)
        .take_while(|a| a.starts_with(root))
        .map(Path::to_path_buf)
        .collect();
    dirs.reverse();
    dirs.iter()
        .filter_map(|d| {
            let (dir, real) = ctx.workspace.open_dir(&d.to_string_lossy()).ok()?;
            own_rules(&dir, &real)
        })
        .collect()
}
