//! The file tools: `read_file`, `list_directory` and `search_files` (a
//! regex over files), all `auto` since they only read inside the
//! workspace, and `write_file` (`standard`). Every path goes through
//! [`Workspace::resolve`]; answers are capped so one call cannot flood the
//! model's context. `read_file` of an image or a PDF, opened the same
//! way, sends it to the model as a part of the answer instead of text.
//! Declarations use the OpenAPI subset, like the chart tools.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;

use base64::Engine;

use serde_json::{Value, json};

use super::args::{io_failed, required, str_arg};
use super::search::{self, MAX_MATCHES};
use super::{paging, place};
use crate::agent::toolbox::workspace::PathRefused;
use crate::agent::toolbox::{
    Ctx, Done, Failed, Level, MEDIA_KEY, Ran, Source, Stop, Tool, ToolResult, Workspace,
    media_for_model,
};
use crate::term::regular::FileKind;

/// Most bytes of a file `read_file` returns.
pub const MAX_READ: usize = 256 * 1024;
/// Most entries `list_directory` returns.
pub const MAX_ENTRIES: usize = 1000;

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
            search::search_files(a, c).into()
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
                .map_or_else(|e| e.to_string(), |p| p.display().to_string());
            format!("write {bytes} bytes to {at}")
        }),
    ]
}

/// The system prompt's paragraph of the file and command tools (said
/// once, however many of them are declared).
pub(super) fn guidance(workspace: &Workspace) -> String {
    let sandbox = workspace.sandbox();
    let jail = if sandbox.active() {
        format!(
            " Shell commands run in a sandbox: they can write only there and in $TMPDIR, cannot read \
             the user's keys (~/.ssh and the like){}.",
            if sandbox.network_closed() {
                " and cannot use the network"
            } else {
                ""
            }
        )
    } else {
        String::new()
    };
    format!(
        "The file and command tools work only inside {} (the first is the working directory); \
         paths are relative to the working directory.{jail} Calls that change something may be \
         refused by the user: then do not retry them, say what you would have done.\n",
        workspace.describe()
    )
}

fn read_decl() -> Value {
    json!({
        "name": "read_file",
        "description": format!("Reads a text file inside the working directory (or an included directory). \
            A call returns at most {} KiB: a longer file is read in pages, by line (offset and limit count lines \
            over the whole file), and the answer ends with the offset of the next page. An image (PNG, JPEG, \
            WebP) or a PDF is sent to you whole, to look at.", MAX_READ / 1024),
        "parameters": {"type": "OBJECT", "properties": {
            "path": {"type": "STRING", "description": "File path, relative to the working directory."},
            "offset": {"type": "INTEGER", "description": "First line to return, counting from 1."},
            "limit": {"type": "INTEGER", "description": "Most lines to return."}
        }, "required": ["path"]}
    })
}

/// Bytes read to tell an image or PDF from text.
const SNIFFED: usize = 64;
/// Most bytes of an image or PDF read_file sends the model.
const MAX_MEDIA: u64 = 7 << 20;

/// The type of a file starting with `head` when read_file sends it to the
/// model as a part (an image every provider's models read, or a PDF).
fn media_type(head: &[u8]) -> Option<&'static str> {
    let mime = crate::agent::attach::sniff::sniff(head);
    media_for_model(mime).then_some(mime)
}

/// An image or PDF the model asked to read, opened through the
/// workspace's rules (`file`, its first bytes `head` already read): sent
/// to it as a part of the answer by the agent ([`MEDIA_KEY`]), shown
/// where it is (`real`). Read in pieces, so a stop ends it.
fn read_media(
    path: &str,
    real: &Path,
    mime: &str,
    head: Vec<u8>,
    file: File,
    ctx: &Ctx<'_>,
) -> ToolResult {
    let too_large = || {
        Failed::new(
            "tool_failed",
            format!(
                "{path} is a {mime} file of more than {} MiB, more than read_file sends",
                MAX_MEDIA >> 20
            ),
        )
    };
    let size = file.metadata().map_err(|e| io_failed(path, e))?.len();
    if size > MAX_MEDIA {
        return Err(too_large());
    }
    let mut bytes = head;
    let mut rest = file.take(MAX_MEDIA + 1 - bytes.len() as u64);
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        if let Some(why) = ctx.stopped() {
            return Err(ctx.stop_failure("read_file", why));
        }
        match rest.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io_failed(path, e)),
        }
    }
    if bytes.len() as u64 > MAX_MEDIA {
        return Err(too_large());
    }
    let output = format!(
        "{path}: {mime}, {} bytes, sent with this answer",
        bytes.len()
    );
    let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
    let media = json!([{"mimeType": mime, "data": data, "path": real.to_string_lossy()}]);
    Ok(Done {
        response: json!({"output": output, (MEDIA_KEY): media}),
        output,
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

fn refused(why: PathRefused) -> Failed {
    Failed::new("path_refused", why.to_string())
}

fn read_file(args: &Value, ctx: &Ctx<'_>) -> ToolResult {
    let path = required("read_file", args, "path")?;
    let (mut file, real) = ctx.workspace.open_file(path)?;
    let mut head = Vec::with_capacity(SNIFFED);
    (&mut file)
        .take(SNIFFED as u64)
        .read_to_end(&mut head)
        .map_err(|e| io_failed(path, e))?;
    if let Some(mime) = media_type(&head) {
        return read_media(path, &real, mime, head, file, ctx);
    }
    let offset = args
        .get("offset")
        .and_then(Value::as_u64)
        .unwrap_or(1)
        .max(1);
    let limit = args.get("limit").and_then(Value::as_u64).filter(|&n| n > 0);
    // The bytes sniffed are the page's first ones: the file is read once.
    let whole = io::Cursor::new(head).chain(file);
    let page = paging::page(whole, offset, limit, MAX_READ, &|| ctx.stopped().is_some())
        .map_err(|e| io_failed(path, e))?
        .ok_or_else(|| ctx.stop_failure("read_file", ctx.stopped().unwrap_or(Stop::Timeout)))?;
    if page.binary {
        return Err(Failed::new(
            "tool_failed",
            format!("{path} is a binary file; read_file returns text only"),
        ));
    }
    Ok(Done::text(page.shown()))
}

fn list_directory(args: &Value, ctx: &Ctx<'_>) -> ToolResult {
    let path = str_arg(args, "path").unwrap_or(".");
    let (dir, _) = ctx.workspace.open_dir(path)?;
    let mut entries: Vec<(String, String)> = dir
        .entries()
        .map_err(|e| io_failed(path, e))?
        .into_iter()
        .map(|e| {
            let name = e.name.to_string_lossy().into_owned();
            let line = match e.kind {
                FileKind::Directory => format!("{name}/"),
                FileKind::Symlink => format!("{name}@"),
                FileKind::Regular => format!("{name}\t{}", e.len),
                other => format!("{name}\t({})", other.described()),
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

fn write_file(args: &Value, ctx: &Ctx<'_>) -> ToolResult {
    let path = required("write_file", args, "path")?;
    let content = required("write_file", args, "content")?;
    let (mut file, real) = ctx.workspace.create_file(path)?;
    file.write_all(content.as_bytes())
        .map_err(|e| io_failed(path, e))?;
    Ok(Done::text(format!(
        "wrote {} bytes to {}",
        content.len(),
        ctx.workspace.shown(&real)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
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
        Ctx::new(w, Duration::from_secs(30), "t1")
    }

    #[test]
    fn read_list_search_write() {
        let (d, w) = ws("all");
        let c = ctx(&w);
        let r = read_file(&json!({"path": "notes.txt", "offset": 2, "limit": 1}), &c).unwrap();
        assert_eq!(
            r.output,
            "two\n[read_file: lines 2-2 of 3; the next page starts at offset 3]"
        );
        let l = list_directory(&json!({}), &c).unwrap();
        assert_eq!(l.output, "notes.txt\t14\nsrc/");
        let s = search::search_files(&json!({"pattern": "(?i)todo"}), &c).unwrap();
        assert_eq!(s.output, "src/main.rs:2:     // TODO: more");
        fs::create_dir_all(d.join("target")).unwrap();
        fs::write(d.join("target/gen.rs"), "// TODO: generated\n").unwrap();
        fs::write(d.join(".gitignore"), "target/\n").unwrap();
        let s = search::search_files(&json!({"pattern": "TODO"}), &c).unwrap();
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
            search::search_files(&json!({"pattern": "("}), &c)
                .unwrap_err()
                .kind,
            "invalid_arguments"
        );
        let e = read_file(&json!({"path": "../../../../etc/passwd"}), &c).unwrap_err();
        assert_eq!(e.kind, "path_refused");
        let e = write_file(&json!({"path": "/tmp/x", "content": ""}), &c).unwrap_err();
        assert_eq!(e.kind, "path_refused");
    }
    #[test]
    fn an_image_is_read_whole_through_the_workspaces_opening() {
        let (d, w) = ws("media");
        let png: Vec<u8> = b"\x89PNG\r\n\x1a\n"
            .iter()
            .copied()
            .chain((0..200_000u32).map(|i| (i % 251) as u8))
            .collect();
        fs::write(d.join("pic.png"), &png).unwrap();
        let c = ctx(&w);
        // Paging arguments do not cut an image: it goes whole.
        let r = read_file(&json!({"path": "pic.png", "offset": 3, "limit": 1}), &c).unwrap();
        assert_eq!(
            r.output,
            "pic.png: image/png, 200008 bytes, sent with this answer"
        );
        let m = &r.response[MEDIA_KEY][0];
        let data = base64::engine::general_purpose::STANDARD
            .decode(m["data"].as_str().unwrap())
            .unwrap();
        assert!(data == png, "the bytes sent are the file's");
        let real = d.canonicalize().unwrap().join("pic.png");
        assert_eq!(m["path"], real.to_string_lossy().as_ref());
        // A FIFO named like an image is refused (and does not block).
        let fifo = std::ffi::CString::new(d.join("pipe.png").into_os_string().into_encoded_bytes())
            .unwrap();
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        let e = read_file(&json!({"path": "pipe.png"}), &c).unwrap_err();
        assert!(e.message.contains("FIFO"), "{e:?}");
        // A link out of the workspace is refused, whatever the file is.
        let outside = std::env::temp_dir().join(format!("gemline-out-{}.png", std::process::id()));
        fs::write(&outside, &png).unwrap();
        std::os::unix::fs::symlink(&outside, d.join("out.png")).unwrap();
        let e = read_file(&json!({"path": "out.png"}), &c).unwrap_err();
        assert_eq!(e.kind, "path_refused");
        let _ = fs::remove_file(&outside);
        // Larger than read_file sends: refused by its size, unread.
        let big = fs::File::create(d.join("big.png")).unwrap();
        (&big).write_all(&png[..8]).unwrap();
        big.set_len(MAX_MEDIA + 1).unwrap();
        let e = read_file(&json!({"path": "big.png"}), &c).unwrap_err();
        assert!(e.message.contains("more than 7 MiB"), "{e:?}");
        // A stop ends the reading: no answer with part of the file.
        let stopped = Ctx::new(&w, Duration::ZERO, "t2");
        let e = read_file(&json!({"path": "pic.png"}), &stopped).unwrap_err();
        assert_eq!(e.kind, "timeout");
    }
}
