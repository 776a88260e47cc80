//! The directories the file and command tools may touch: the working
//! directory plus each `--include-dir`. A path is resolved against the
//! working directory and canonicalized (symlinks and `..` followed) before
//! it is checked, so neither leads outside. A path that does not exist yet
//! (a file to write) is checked through its nearest existing ancestor.

use std::path::{Component, Path, PathBuf};

/// The confinement roots, canonical.
#[derive(Debug, Clone, Default)]
pub struct Workspace {
    /// The working directory: where relative paths start.
    pub cwd: PathBuf,
    /// `cwd` first, then the included directories.
    pub roots: Vec<PathBuf>,
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
        Ok(Workspace { cwd, roots })
    }

    /// `path` made absolute and canonical, if it lies inside a root.
    pub fn resolve(&self, path: &str) -> Result<PathBuf, String> {
        if path.trim().is_empty() {
            return Err("the path is empty".into());
        }
        let joined = self.cwd.join(path);
        let real = canonical_or_nearest(&joined).map_err(|e| format!("{path}: {e}"))?;
        if self.roots.iter().any(|r| real.starts_with(r)) {
            Ok(real)
        } else {
            Err(format!(
                "{path} is outside the directories the tools may use ({}); it was refused",
                self.describe()
            ))
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
            let e = ws.resolve(bad).unwrap_err();
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
