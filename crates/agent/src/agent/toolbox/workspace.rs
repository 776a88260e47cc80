//! The directories the file and command tools may touch: the working
//! directory plus each `--include-dir`. A path is resolved against the
//! working directory and canonicalized (symlinks and `..` followed) before
//! it is checked, so neither leads outside. A path that does not exist yet
//! (a file to write) is checked through its nearest existing ancestor.
//!
//! The check says which root a path is in; the file is then opened from
//! that root's open descriptor with the kernel refusing any way out
//! ([`beneath`](super::beneath)), so a directory swapped for a symlink
//! between the check and the open cannot lead outside either. Only
//! regular files are opened as files.

use std::fs::File;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use super::Failed;
use super::beneath::{self, Dir};
use super::sandbox::{Sandbox, SandboxSetup};

/// Why [`Workspace::resolve`] refused a path.
#[derive(Debug, thiserror::Error)]
pub enum PathRefused {
    #[error("the path is empty")]
    Empty,
    #[error("{path}: {error}")]
    Unreadable { path: String, error: std::io::Error },
    /// `roots` as [`Workspace::describe`] gives them.
    #[error("{path} is outside the directories the tools may use ({roots}); it was refused")]
    Outside { path: String, roots: String },
}

/// The confinement roots, canonical, each held open.
#[derive(Debug, Clone, Default)]
pub struct Workspace {
    /// The working directory: where relative paths start.
    pub cwd: PathBuf,
    /// `cwd` first, then the included directories.
    pub roots: Vec<PathBuf>,
    /// `roots`, open, in the same order.
    dirs: Vec<Arc<Dir>>,
    /// What keeps the commands run here inside (off unless
    /// [`Workspace::with_sandbox`]).
    sandbox: Arc<Sandbox>,
}

impl Workspace {
    /// The current directory alone.
    pub fn current() -> std::io::Result<Workspace> {
        Workspace::new(&std::env::current_dir()?, &[])
    }

    /// `cwd` and `include`, each of which must be an existing directory.
    pub fn new(cwd: &Path, include: &[PathBuf]) -> std::io::Result<Workspace> {
        let cwd = cwd.canonicalize()?;
        let mut roots = vec![cwd.clone()];
        for dir in include {
            let d = cwd.join(dir).canonicalize().map_err(|e| {
                std::io::Error::new(e.kind(), format!("--include-dir {}: {e}", dir.display()))
            })?;
            if !d.is_dir() {
                return Err(std::io::Error::other(format!(
                    "--include-dir {}: not a directory",
                    dir.display()
                )));
            }
            roots.push(d);
        }
        let dirs = roots
            .iter()
            .map(|r| {
                Dir::open(r)
                    .map(Arc::new)
                    .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", r.display())))
            })
            .collect::<std::io::Result<_>>()?;
        Ok(Workspace {
            cwd,
            roots,
            dirs,
            sandbox: Arc::default(),
        })
    }

    /// The workspace with a sandbox for its commands: they may write in
    /// its roots.
    pub fn with_sandbox(mut self, setup: SandboxSetup) -> Workspace {
        self.sandbox = Arc::new(Sandbox::new(setup, &self.roots));
        self
    }

    pub fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }

    /// Which root `path` lies in and the rest of it below that root, with
    /// the canonical path: the check of [`Workspace::resolve`].
    fn locate(&self, path: &str) -> Result<(&Dir, PathBuf, PathBuf), Failed> {
        let real = self
            .resolve(path)
            .map_err(|m| Failed::new("path_refused", m.to_string()))?;
        self.roots
            .iter()
            .zip(&self.dirs)
            .find_map(|(r, d)| Some((d.as_ref(), real.strip_prefix(r).ok()?.to_path_buf())))
            .map(|(d, rel)| (d, rel, real.clone()))
            .ok_or_else(|| Failed::new("path_refused", format!("{path}: no open workspace root")))
    }

    /// The error of an open beneath a root: a way out found on the way
    /// (a change since the check) is a refusal, the rest a failure.
    fn open_failed(&self, path: &str, e: std::io::Error) -> Failed {
        if beneath::escaped(&e) {
            Failed::new(
                "path_refused",
                format!(
                    "{path} leads outside the directories the tools may use ({}) through a symlink \
                     that was not there when it was checked; it was refused",
                    self.describe()
                ),
            )
        } else if e.raw_os_error() == Some(libc::EISDIR) {
            Failed::new("tool_failed", format!("{path} is a directory"))
        } else {
            Failed::new("tool_failed", format!("{path}: {e}"))
        }
    }

    /// The regular file `path`, open for reading, and its canonical path.
    pub fn open_file(&self, path: &str) -> Result<(File, PathBuf), Failed> {
        let (root, rel, real) = self.locate(path)?;
        let f = root.file(&rel).map_err(|e| self.open_failed(path, e))?;
        Ok((f, real))
    }

    /// The directory `path`, open, and its canonical path.
    pub fn open_dir(&self, path: &str) -> Result<(Dir, PathBuf), Failed> {
        let (root, rel, real) = self.locate(path)?;
        let d = root.dir(&rel).map_err(|e| self.open_failed(path, e))?;
        Ok((d, real))
    }

    /// The regular file `path`, made with its parent directories if need
    /// be, emptied and open for writing, and its canonical path.
    pub fn create_file(&self, path: &str) -> Result<(File, PathBuf), Failed> {
        let (root, rel, real) = self.locate(path)?;
        let f = root.create(&rel).map_err(|e| self.open_failed(path, e))?;
        Ok((f, real))
    }

    /// `path` made absolute and canonical, if it lies inside a root.
    pub fn resolve(&self, path: &str) -> Result<PathBuf, PathRefused> {
        if path.trim().is_empty() {
            return Err(PathRefused::Empty);
        }
        let joined = self.cwd.join(path);
        let real = canonical_or_nearest(&joined).map_err(|error| PathRefused::Unreadable {
            path: path.to_string(),
            error,
        })?;
        if self.roots.iter().any(|r| real.starts_with(r)) {
            Ok(real)
        } else {
            Err(PathRefused::Outside {
                path: path.to_string(),
                roots: self.describe(),
            })
        }
    }

    /// The roots, for messages.
    pub fn describe(&self) -> String {
        self.roots
            .iter()
            .map(|r| r.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `path` as the model should write it: relative to the working
    /// directory when inside it.
    pub fn shown(&self, path: &Path) -> String {
        match path.strip_prefix(&self.cwd) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".into(),
            Ok(rel) => rel.display().to_string(),
            Err(_) => path.display().to_string(),
        }
    }
}

/// The canonical form of `p`; for a path that does not exist, the
/// canonical form of its nearest existing ancestor with the rest appended
/// (the rest may hold no `..`, which could climb back out).
fn canonical_or_nearest(p: &Path) -> std::io::Result<PathBuf> {
    match p.canonicalize() {
        Ok(c) => return Ok(c),
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        Err(_) => {}
    }
    let mut rest = Vec::new();
    let mut cur = p;
    loop {
        // A dangling symlink must not be written through: its target is
        // wherever it points.
        if cur.symlink_metadata().is_ok() {
            let base = cur.canonicalize()?;
            return Ok(rest.iter().rev().fold(base, |acc, c| acc.join(c)));
        }
        let (Some(parent), Some(name)) = (cur.parent(), cur.file_name()) else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no existing directory on the path",
            ));
        };
        if Path::new(name)
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
        {
            return Err(std::io::Error::other("the path climbs with .."));
        }
        rest.push(name.to_os_string());
        cur = parent;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("gemline-ws-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("inside/sub")).unwrap();
        std::fs::create_dir_all(d.join("outside")).unwrap();
        std::fs::write(d.join("outside/secret"), "s").unwrap();
        d
    }

    #[test]
    fn paths_outside_are_refused_whatever_the_route() {
        let d = scratch("refuse");
        std::os::unix::fs::symlink(d.join("outside"), d.join("inside/link")).unwrap();
        let ws = Workspace::new(&d.join("inside"), &[]).unwrap();
        assert!(ws.resolve("sub").is_ok());
        assert!(ws.resolve("new/file.txt").is_ok());
        for bad in [
            "../outside/secret",
            "sub/../../outside/secret",
            "link/secret",
            "link/new-file",
            "/etc/passwd",
            "../outside/new-file",
        ] {
            let e = ws.resolve(bad).unwrap_err().to_string();
            assert!(e.contains("outside") || e.contains(".."), "{bad}: {e}");
        }
    }

    #[test]
    fn included_directories_are_inside() {
        let d = scratch("include");
        let ws = Workspace::new(&d.join("inside"), &[PathBuf::from("../outside")]).unwrap();
        assert_eq!(
            ws.resolve("../outside/secret").unwrap(),
            d.join("outside/secret").canonicalize().unwrap()
        );
        assert!(Workspace::new(&d.join("inside"), &[PathBuf::from("nope")]).is_err());
    }
}
