//! One named input (a file, or stdin for `-`), opened the same way by
//! every program: a file that cannot be opened is exit 66 with its name.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

use super::{coded, exit};

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
    Ok(Input {
        name: path.display().to_string(),
        reader: Box::new(BufReader::with_capacity(256 * 1024, f)),
        file,
    })
}

fn stdin_input() -> Input {
    Input {
        name: "<stdin>".into(),
        reader: Box::new(BufReader::with_capacity(256 * 1024, io::stdin())),
        file: None,
    }
}
