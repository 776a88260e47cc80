//! The Landlock ruleset of the sandbox (the `landlock` crate), built in
//! gem-ask before the fork; the child only restricts itself with it.
//!
//! Landlock only allows: every kind of access it handles is denied except
//! beneath the paths given a rule. So "read everything but the secrets" is
//! built by descent from `/`: each entry that neither is a secret nor
//! holds one gets read access whole; a directory that holds a secret gets
//! listing only (a listing right covers the whole tree below it, so the
//! names inside a secret directory can be listed, not read) and its
//! entries are looked at in turn. `/dev` is left out but for the harmless
//! devices. The workspace roots and the temporary directory get every
//! right. Rules bind to the files that exist when the ruleset is built: it
//! is built anew for each command.

use std::io;
use std::os::fd::{OwnedFd, RawFd};
use std::path::{Path, PathBuf};

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, PathBeneath, PathFd,
    Ruleset, RulesetAttr, RulesetCreatedAttr, Scope,
};

/// The ABI whose rights the ruleset asks for (the crate leaves out, best
/// effort, what an older kernel lacks).
const ABI_USED: ABI = ABI::V6;

/// Devices a command may use: read and write the null ones, read the
/// random ones.
const DEVICES_RW: &[&str] = &["/dev/null", "/dev/zero", "/dev/full"];
const DEVICES_R: &[&str] = &["/dev/random", "/dev/urandom"];

/// What the ruleset is made of.
#[derive(Debug, Clone)]
pub struct Spec {
    /// Every right beneath these.
    pub writable: Vec<PathBuf>,
    /// Read by no command (canonical).
    pub secrets: Vec<PathBuf>,
    pub allow_network: bool,
}

/// The paths that get read access whole, and the directories that get
/// listing only, for these secrets.
pub fn readable(secrets: &[PathBuf]) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut hidden: Vec<PathBuf> = secrets.to_vec();
    hidden.push(PathBuf::from("/dev"));
    let mut whole = Vec::new();
    let mut listed = Vec::new();
    descend(Path::new("/"), &hidden, &mut whole, &mut listed, 0);
    (whole, listed)
}

fn descend(
    dir: &Path,
    hidden: &[PathBuf],
    whole: &mut Vec<PathBuf>,
    listed: &mut Vec<PathBuf>,
    depth: usize,
) {
    listed.push(dir.to_path_buf());
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut names: Vec<_> = rd.filter_map(|e| Some(e.ok()?.file_name())).collect();
    names.sort();
    for name in names {
        let p = dir.join(&name);
        let Ok(real) = p.canonicalize() else {
            continue;
        };
        if hidden.contains(&real) {
            continue;
        }
        if hidden.iter().any(|h| h.starts_with(&real)) {
            // Holds a secret: its entries one by one, through its real
            // path only (a symlink to it is reached that way).
            if real == p && real.is_dir() && depth < 32 {
                descend(&real, hidden, whole, listed, depth + 1);
            }
            continue;
        }
        whole.push(p);
    }
}

/// A rule for `path` with `access`, narrowed to a file's rights when it
/// is not a directory; `None` when it cannot be opened.
fn rule(path: &Path, access: BitFlags<AccessFs>) -> Option<PathBeneath<PathFd>> {
    let fd = PathFd::new(path).ok()?;
    let access = if path.is_dir() {
        access
    } else {
        access & AccessFs::from_file(ABI_USED)
    };
    if access.is_empty() {
        return None;
    }
    Some(PathBeneath::new(fd, access).set_compatibility(CompatLevel::BestEffort))
}

/// Why no ruleset could be made.
#[derive(Debug, thiserror::Error)]
pub enum NoRuleset {
    #[error(transparent)]
    Landlock(#[from] landlock::RulesetError),
    #[error("the kernel has no Landlock")]
    Missing,
}

/// The ruleset for `spec`, created, as a descriptor.
pub fn ruleset(spec: &Spec) -> Result<OwnedFd, NoRuleset> {
    let read = AccessFs::from_read(ABI_USED);
    let all = AccessFs::from_all(ABI_USED);
    let mut rs = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(all)?;
    if !spec.allow_network {
        rs = rs.handle_access(AccessNet::from_all(ABI_USED))?;
    }
    rs = rs.scope(Scope::from_all(ABI_USED))?;
    let (whole, listed) = readable(&spec.secrets);
    let mut rules: Vec<PathBeneath<PathFd>> = Vec::new();
    rules.extend(whole.iter().filter_map(|p| rule(p, read)));
    rules.extend(
        listed
            .iter()
            .filter_map(|p| rule(p, AccessFs::ReadDir.into())),
    );
    let rw = AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate | AccessFs::IoctlDev;
    rules.extend(DEVICES_RW.iter().filter_map(|d| rule(Path::new(d), rw)));
    rules.extend(
        DEVICES_R
            .iter()
            .filter_map(|d| rule(Path::new(d), AccessFs::ReadFile.into())),
    );
    rules.extend(spec.writable.iter().filter_map(|p| rule(p, all)));
    let created = rs.create()?;
    let created = created.add_rules(rules.into_iter().map(Ok::<_, landlock::RulesetError>))?;
    Option::<OwnedFd>::from(created).ok_or(NoRuleset::Missing)
}

/// `landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)`.
pub fn kernel_abi() -> i32 {
    const VERSION: libc::c_uint = 1;
    // SAFETY: the version query takes no attributes.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            VERSION,
        )
    };
    if v < 0 { 0 } else { v as i32 }
}

/// In the forked child: `PR_SET_NO_NEW_PRIVS` (which Landlock requires of
/// an unprivileged process), then `landlock_restrict_self`. Only syscalls.
pub fn restrict_in_child(fd: RawFd) -> io::Result<()> {
    // SAFETY: plain syscalls with integer arguments.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 {
            return Err(io::Error::last_os_error());
        }
        if libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_and_dev_are_left_out_and_their_parents_only_listed() {
        let d = std::env::temp_dir()
            .join(format!("gemline-rules-{}", std::process::id()))
            .canonicalize()
            .unwrap_or_else(|_| {
                let d = std::env::temp_dir().join(format!("gemline-rules-{}", std::process::id()));
                std::fs::create_dir_all(&d).unwrap();
                d.canonicalize().unwrap()
            });
        std::fs::create_dir_all(d.join("home/.ssh")).unwrap();
        std::fs::create_dir_all(d.join("home/project")).unwrap();
        let secret = d.join("home/.ssh");
        let (whole, listed) = readable(std::slice::from_ref(&secret));
        assert!(!whole.iter().any(|p| p.starts_with(&secret)));
        assert!(!whole.iter().any(|p| p.starts_with("/dev")));
        assert!(whole.contains(&d.join("home/project")));
        assert!(whole.contains(&PathBuf::from("/usr")));
        assert!(listed.contains(&d.join("home")));
        assert!(listed.contains(&PathBuf::from("/")));
        // No ancestor of the secret is readable whole.
        for a in secret.ancestors() {
            assert!(!whole.iter().any(|p| p == a), "{}", a.display());
        }
    }
}
