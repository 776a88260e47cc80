//! One named input (a file, or stdin for `-`), opened the same way by
//! every program: a file that cannot be opened is exit 66 with its name.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

use super::{coded, exit};

/// Bytes of a pipe or a device read at a time: large reads, fewer calls
/// (viz-parse's readers ask for as much, which then bypasses the buffer).
const STREAM_BUFFER: usize = 256 * 1024;

/// The same for a regular file. viz-parse reads a large one through
/// mapped windows after its first reads, so a pipe's buffer was a quarter
/// of a megabyte resident for those reads alone.
const FILE_BUFFER: usize = 64 * 1024;

/// One named input: a file, or stdin for `-`.
pub struct Input {
    pub name: String,
    pub reader: Box<dyn BufRead + Send>,
    /// The file `reader` reads, when it is a regular file (a handle on the
    /// same open file): viz-parse maps large ones rather than copy them.
    pub file: Option<File>,
}

/// Opens the inputs named on the command line; none means stdin. A file
/// that cannot be opened is exit 66 with its name.
pub fn open_inputs(paths: &[PathBuf]) -> anyhow::Result<Vec<Input>> {
    if paths.is_empty() {
        return Ok(vec![stdin_input()]);
    }
    paths.iter().map(|p| open_input(p)).collect()
}

pub fn open_input(path: &Path) -> anyhow::Result<Input> {
    if path.as_os_str() == "-" {
        return Ok(stdin_input());
    }
    let cannot = |why: String| {
        coded(
            exit::NO_INPUT,
            format!("cannot open {}: {why}", path.display()),
        )
    };
    let f = File::open(path).map_err(|e| cannot(e.to_string()))?;
    // Opening a directory succeeds; only the first read would fail, as a
    // generic error (exit 1) after output may have begun.
    let meta = f.metadata().ok();
    if meta.as_ref().is_some_and(|m| m.is_dir()) {
        return Err(cannot("is a directory".into()));
    }
    let file = meta
        .is_some_and(|m| m.is_file())
        .then(|| f.try_clone().ok())
        .flatten();
    // A regular file is read mostly by the readers that map it (`file`):
    // the buffer serves the first reads, a pipe's the whole input.
    let buffer = if file.is_some() {
        FILE_BUFFER
    } else {
        STREAM_BUFFER
    };
    Ok(Input {
        name: path.display().to_string(),
        reader: Box::new(BufReader::with_capacity(buffer, f)),
        file,
    })
}

fn stdin_input() -> Input {
    Input {
        name: "<stdin>".into(),
        reader: Box::new(BufReader::with_capacity(STREAM_BUFFER, io::stdin())),
        file: None,
    }
}
