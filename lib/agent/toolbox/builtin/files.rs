//! The file tools: `read_file`, `list_directory` and `search_files` (a
//! regex over files), all `auto` since they only read inside the
//! workspace, and `write_file` (`standard`). Every path goes through
//! [`Workspace::resolve`]; answers are capped so one call cannot flood the
//! model's context. Declarations use the OpenAPI subset, like the chart
//! tools.

use std::fs;
use std::io::Read;
use std::path::Path;
use std::time::Instant;

use serde_json::{Value, json};

use super::place;
use crate::agent::toolbox::{Ctx, Done, Failed, Level, Ran, Source, Tool, ToolResult, Workspace};

/// Most bytes of a file `read_file` returns.
pub const MAX_READ: usize = 256 * 1024;
/// Most entries `list_directory` returns.
pub const MAX_ENTRIES: usize = 1000;
/// Most matching lines `search_files` returns.
pub const MAX_MATCHES: usize = 200;
/// Files larger than this are not searched.
const MAX_SEARCH_FILE: u64 = 4 << 20;

/// The four file tools.
pub fn tools() -> Vec<Tool> {
    vec![
        Tool::new(read_decl(), Source::Builtin, Level::Auto, |a, c| {
            read_file(a, c).into()
        })
        .on_request()
        .with_guidance(place::WORKSPACE, guidance),
        Tool::new(list_decl(), Source::Builtin, Level::Auto, |a, c| {
            list_directory(a, c).into()
        })
        .on_request()
        .with_guidance(place::WORKSPACE, guidance),
        Tool::new(search_decl(), Source::Builtin, Level::Auto, |a, c| {
            search_files(a, c).into()
        })
        .on_request()
        .with_guidance(place::WORKSPACE, guidance),
        Tool::new(write_decl(), Source::Builtin, Level::Standard, |a, c| {
            Ran::from(write_file(a, c))
        })
        .on_request()
        .with_guidance(place::WORKSPACE, guidance)
        .with_check(|a, c| inside(a, "path", None, c))
        .with_preview(|a, c| {
            let path = str_arg(a, "path").unwrap_or("?");
            let bytes = str_arg(a, "content").map_or(0, str::len);
            let at = c
                .workspace
                .resolve(path)
                .map_or_else(|e| e, |p| p.display().to_string());
            format!("write {bytes} bytes to {at}")
        }),
    ]
}

/// The system prompt's paragraph of the file and command tools (said
/// once, however many of them are declared).
pub(super) fn guidance(workspace: &Workspace) -> String {
    format!(
        "The file and command tools work only inside {} (the first is the working directory); \
         paths are relative to the working directory. Calls that change something may be refused \
         by the user: then do not retry them, say what you would have done.\n",
        workspace.describe()
    )
}

fn read_decl() -> Value {
    json!({
        "name": "read_file",
        "description": format!("Reads a text file inside the working directory (or an included directory). \
            Returns at most {} KiB; use offset and limit (lines) for long files.", MAX_READ / 1024),
        "parameters": {"type": "OBJECT", "properties": {
            "path": {"type": "STRING", "description": "File path, relative to the working directory."},
            "offset": {"type": "INTEGER", "description": "First line to return, counting from 1."},
            "limit": {"type": "INTEGER", "description": "Most lines to return."}
        }, "required": ["path"]}
    })
}

fn list_decl() -> Value {
    json!({
        "name": "list_directory",
        "description": "Lists a directory inside the working directory: one entry per line, directories \
            ending in /, files with their size in bytes.",
        "parameters": {"type": "OBJECT", "properties": {
            "path": {"type": "STRING", "description": "Directory path, relative to the working directory (default .)."}
        }}
    })
}

fn search_decl() -> Value {
    json!({
        "name": "search_files",
        "description": format!("Searches the text files under a directory for a regular expression (Rust regex \
            syntax). Returns matching lines as path:line: text, at most {MAX_MATCHES}. Symlinks are not followed; \
            hidden files and what .gitignore excludes are skipped."),
        "parameters": {"type": "OBJECT", "properties": {
            "pattern": {"type": "STRING", "description": "Regular expression, e.g. fn main or (?i)todo."},
            "path": {"type": "STRING", "description": "Directory or file to search (default .)."}
        }, "required": ["pattern"]}
    })
}

fn write_decl() -> Value {
    json!({
        "name": "write_file",
        "description": "Writes a text file inside the working directory, creating it (and its parent \
            directories) or replacing its content. The user is asked first.",
        "parameters": {"type": "OBJECT", "properties": {
            "path": {"type": "STRING", "description": "File path, relative to the working directory."},
            "content": {"type": "STRING", "description": "The whole new content of the file."}
        }, "required": ["path", "content"]}
    })
}

/// The call's path argument `key` (or `default` when it is optional) lies
/// inside the workspace.
pub(super) fn inside(
    args: &Value,
    key: &str,
    default: Option<&str>,
    ctx: &Ctx<'_>,
) -> Result<(), Failed> {
    match str_arg(args, key).or(default) {
        Some(p) => ctx.workspace.resolve(p).map(drop).map_err(refused),
        // A missing argument is the tool's own error to give.
        None => Ok(()),
    }
}

pub(super) fn str_arg<'a>(args: &'a Value, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str)
}

fn bad_args(message: String) -> Failed {
    Failed::new("invalid_arguments", message)
}

fn io_failed(path: &str, e: std::io::Error) -> Failed {
    Failed::new("tool_failed", format!("{path}: {e}"))
}

fn required<'a>(tool: &str, args: &'a Value, key: &str) -> Result<&'a str, Failed> {
    str_arg(args, key).ok_or_else(|| bad_args(format!("{tool}: {key} is required (a string)")))
}

fn refused(message: String) -> Failed {
    Failed::new("path_refused", message)
}

fn read_file(args: &Value, ctx: &Ctx<'_>) -> ToolResult {
    let path = required("read_file", args, "path")?;
    let real = ctx.workspace.resolve(path).map_err(refused)?;
    let mut bytes = Vec::new();
    fs::File::open(&real)
        .and_then(|f| f.take(MAX_READ as u64 + 1).read_to_end(&mut bytes))
        .map_err(|e| io_failed(path, e))?;
    if bytes.contains(&0) {
        return Err(Failed::new(
            "tool_failed",
            format!("{path} is a binary file; read_file returns text only"),
        ));
    }
    let cut = bytes.len() > MAX_READ;
    bytes.truncate(MAX_READ);
    let text = String::from_utf8_lossy(&bytes);
    let offset = args
        .get("offset")
        .and_then(Value::as_u64)
        .unwrap_or(1)
        .max(1) as usize;
    let limit = args
        .get("limit")
        .and_then(Value::as_u64)
        .map(|n| n as usize);
    let lines: Vec<&str> = text.lines().collect();
    let total = lines.len();
    let first = (offset - 1).min(total);
    let last = limit.map_or(total, |n| (first + n).min(total));
    let mut out = lines[first..last].join("\n");
    if cut && last == total {
        out.push_str(&format!(
            "\n[read_file: the file is longer than {} KiB; only its start was read]",
            MAX_READ / 1024
        ));
    } else if first > 0 || last < total {
        out.push_str(&format!(
            "\n[read_file: lines {}-{last} of {total}]",
            first + 1
        ));
    }
    Ok(Done::text(out))
}

fn list_directory(args: &Value, ctx: &Ctx<'_>) -> ToolResult {
    let path = str_arg(args, "path").unwrap_or(".");
    let real = ctx.workspace.resolve(path).map_err(refused)?;
    let mut entries: Vec<(String, String)> = fs::read_dir(&real)
        .map_err(|e| io_failed(path, e))?
        .filter_map(Result::ok)
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let line = match e.file_type() {
                Ok(t) if t.is_dir() => format!("{name}/"),
                Ok(t) if t.is_symlink() => format!("{name}@"),
                _ => format!(
                    "{name}\t{}",
                    e.metadata().map(|m| m.len()).unwrap_or_default()
                ),
            };
            (name, line)
        })
        .collect();
    entries.sort();
    let n = entries.len();
    let mut out: Vec<String> = entries.into_iter().take(MAX_ENTRIES).map(|e| e.1).collect();
    if n > MAX_ENTRIES {
        out.push(format!(
            "[list_directory: {MAX_ENTRIES} of {n} entries shown]"
        ));
    }
    if out.is_empty() {
        out.push("(empty directory)".into());
    }
    Ok(Done::text(out.join("\n")))
}

fn search_files(args: &Value, ctx: &Ctx<'_>) -> ToolResult {
    let pattern = required("search_files", args, "pattern")?;
    let re = regex::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .build()
        .map_err(|e| bad_args(format!("search_files: pattern: {e}")))?;
    let path = str_arg(args, "path").unwrap_or(".");
    let real = ctx.workspace.resolve(path).map_err(refused)?;
    let mut hits = Vec::new();
    let mut more = false;
    // Hidden files and what .gitignore excludes (build output, vendored
    // code) are skipped, as a person searching would.
    let walk = ignore::WalkBuilder::new(&real)
        .follow_links(false)
        .require_git(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .build();
    for entry in walk.filter_map(Result::ok) {
        if Instant::now() > ctx.deadline {
            return Err(Failed::timed_out("search_files", ctx.timeout));
        }
        let is_file = entry.file_type().is_some_and(|t| t.is_file());
        if !is_file || entry.metadata().map_or(true, |m| m.len() > MAX_SEARCH_FILE) {
            continue;
        }
        let shown = ctx.workspace.shown(entry.path());
        if search_one(entry.path(), &shown, &re, &mut hits) {
            more = true;
            break;
        }
    }
    if hits.is_empty() {
        return Ok(Done::text(format!("no match for {pattern:?} under {path}")));
    }
    if more {
        hits.push(format!("[search_files: stopped at {MAX_MATCHES} matches]"));
    }
    Ok(Done::text(hits.join("\n")))
}

/// Adds `file`'s matching lines to `hits`; true once the cap is reached.
fn search_one(file: &Path, shown: &str, re: &regex::Regex, hits: &mut Vec<String>) -> bool {
    let Ok(bytes) = fs::read(file) else {
        return false;
    };
    if bytes.iter().take(8192).any(|&b| b == 0) {
        return false;
    }
    let text = String::from_utf8_lossy(&bytes);
    for (i, line) in text.lines().enumerate() {
        if re.is_match(line) {
            if hits.len() == MAX_MATCHES {
                return true;
            }
            let line: String = line.chars().take(300).collect();
            hits.push(format!("{shown}:{}: {line}", i + 1));
        }
    }
    false
}

fn write_file(args: &Value, ctx: &Ctx<'_>) -> ToolResult {
    let path = required("write_file", args, "path")?;
    let content = required("write_file", args, "content")?;
    let real = ctx.workspace.resolve(path).map_err(refused)?;
    if real.is_dir() {
        return Err(Failed::new("tool_failed", format!("{path} is a directory")));
    }
    if let Some(parent) = real.parent() {
        fs::create_dir_all(parent).map_err(|e| io_failed(path, e))?;
    }
    fs::write(&real, content).map_err(|e| io_failed(path, e))?;
    Ok(Done::text(format!(
        "wrote {} bytes to {}",
        content.len(),
        ctx.workspace.shown(&real)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::time::Duration;

    fn ws(name: &str) -> (PathBuf, Workspace) {
        let d = std::env::temp_dir().join(format!("gemline-files-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(d.join("src")).unwrap();
        fs::write(d.join("src/main.rs"), "fn main() {\n    // TODO: more\n}\n").unwrap();
        fs::write(d.join("notes.txt"), "one\ntwo\nthree\n").unwrap();
        let w = Workspace::new(&d, &[]).unwrap();
        (d, w)
    }

    fn ctx(w: &Workspace) -> Ctx<'_> {
        Ctx {
            workspace: w,
            deadline: Instant::now() + Duration::from_secs(30),
            timeout: Duration::from_secs(30),
            tool_id: "t1",
            memory: None,
        }
    }

    #[test]
    fn read_list_search_write() {
        let (d, w) = ws("all");
        let c = ctx(&w);
        let r = read_file(&json!({"path": "notes.txt", "offset": 2, "limit": 1}), &c).unwrap();
        assert_eq!(r.output, "two\n[read_file: lines 2-2 of 3]");
        let l = list_directory(&json!({}), &c).unwrap();
        assert_eq!(l.output, "notes.txt\t14\nsrc/");
        let s = search_files(&json!({"pattern": "(?i)todo"}), &c).unwrap();
        assert_eq!(s.output, "src/main.rs:2:     // TODO: more");
        fs::create_dir_all(d.join("target")).unwrap();
        fs::write(d.join("target/gen.rs"), "// TODO: generated\n").unwrap();
        fs::write(d.join(".gitignore"), "target/\n").unwrap();
        let s = search_files(&json!({"pattern": "TODO"}), &c).unwrap();
        assert_eq!(s.output, "src/main.rs:2:     // TODO: more");
        let wr = write_file(&json!({"path": "out/a.txt", "content": "hi"}), &c).unwrap();
        assert_eq!(wr.output, "wrote 2 bytes to out/a.txt");
        assert_eq!(fs::read_to_string(d.join("out/a.txt")).unwrap(), "hi");
    }

    #[test]
    fn bad_arguments_and_outside_paths_are_errors() {
        let (_d, w) = ws("bad");
        let c = ctx(&w);
        assert_eq!(
            read_file(&json!({}), &c).unwrap_err().kind,
            "invalid_arguments"
        );
        assert_eq!(
            search_files(&json!({"pattern": "("}), &c).unwrap_err().kind,
            "invalid_arguments"
        );
        let e = read_file(&json!({"path": "../../../../etc/passwd"}), &c).unwrap_err();
        assert_eq!(e.kind, "path_refused");
        let e = write_file(&json!({"path": "/tmp/x", "content": ""}), &c).unwrap_err();
        assert_eq!(e.kind, "path_refused");
    }
}
