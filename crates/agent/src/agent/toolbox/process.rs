//! Running a tool's child process so that it always stops: the command
//! starts in a session and process group of its own (`setsid` between fork
//! and exec, so Ctrl-C at the terminal reaches gem-ask, not it, and it
//! has no terminal to read), in a directory given as an open descriptor
//! (`fchdir`), under the sandbox's ruleset when there is one.
//!
//! [`run`] waits for the command itself, not for its output pipes: one
//! loop polls the pipes and the command, and asks [`Ctx::stopped`] between
//! polls. At `--tool-timeout`, Ctrl-C, SIGTERM or `--task-timeout` the
//! whole group is killed. When the command ends, whatever it left running
//! in the background in its group is killed too; a process that left the
//! group (`setsid`) but still holds the output pipes is found by the pipe
//! it holds (`/proc/PID/fd`) and killed as well. The outcome names them
//! all, so the result can say what was stopped.

use std::fs;
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::{Ctx, Stop};

/// How long output is still read after the command ended or was killed,
/// for processes of its group that are being killed to let go of it.
const DRAIN: Duration = Duration::from_millis(500);
/// Between two polls of the command.
const POLL_MS: libc::c_int = 50;

/// The first `cap` bytes of one output stream, and how many there were.
#[derive(Debug, Default, Clone)]
pub struct Captured {
    pub kept: Vec<u8>,
    pub total: usize,
}

impl Captured {
    fn push(&mut self, bytes: &[u8], cap: usize) {
        self.total += bytes.len();
        let room = cap.saturating_sub(self.kept.len());
        self.kept.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// The text, with a note when it was cut.
    pub fn text(&self, cap: usize) -> String {
        let mut s = String::from_utf8_lossy(&self.kept).into_owned();
        if self.total > cap {
            super::secrets::cut_tail(&mut s);
            s.push_str(&format!(
                "\n[output cut: {} bytes, the first {} KiB shown]",
                self.total,
                cap / 1024
            ));
        }
        s
    }
}

/// A process found and killed: its pid and command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Process {
    pub pid: i32,
    pub command: String,
}

impl std::fmt::Display for Process {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (pid {})", self.command, self.pid)
    }
}

/// How a run ended.
#[derive(Debug)]
pub struct Outcome {
    /// The command's status; `None` when it was stopped.
    pub status: Option<ExitStatus>,
    /// Why it was stopped, if it was.
    pub stopped: Option<Stop>,
    pub stdout: Captured,
    pub stderr: Captured,
    /// Processes of its group killed: still running when the command
    /// ended, or running when it was stopped (the command itself too).
    pub killed: Vec<Process>,
    /// Processes outside its group still holding its output, killed.
    pub escaped: Vec<Process>,
}

/// What the child does between fork and exec, prepared before the fork:
/// only plain values and async-signal-safe calls (no allocation) there.
#[derive(Debug, Clone, Copy, Default)]
pub struct PreExec {
    /// `setsid`: a session and process group of its own. (Not with
    /// `Command::process_group`, which already made it a group leader.)
    pub new_session: bool,
    /// `fchdir` here (a directory descriptor that stays open until the
    /// spawn returns).
    pub cwd: Option<RawFd>,
    /// Restrict the child with this Landlock ruleset descriptor.
    pub landlock: Option<RawFd>,
}

impl PreExec {
    /// Installs the steps on `cmd`: a new session, the directory, the
    /// sandbox (in that order).
    pub fn install(self, cmd: &mut Command) {
        // SAFETY: the closure calls only async-signal-safe functions
        // (setsid, fchdir, prctl, syscall) on plain integers it owns, and
        // builds its errors with last_os_error, which does not allocate.
        unsafe {
            cmd.pre_exec(move || self.in_child());
        }
    }

    /// Runs in the forked child.
    pub fn in_child(&self) -> io::Result<()> {
        // SAFETY: see `install`; each call takes plain integers.
        unsafe {
            if self.new_session && libc::setsid() < 0 {
                return Err(io::Error::last_os_error());
            }
            if let Some(fd) = self.cwd
                && libc::fchdir(fd) < 0
            {
                return Err(io::Error::last_os_error());
            }
        }
        if let Some(fd) = self.landlock {
            super::sandbox::restrict_in_child(fd)?;
        }
        Ok(())
    }
}

/// The one place a tool's child gets its environment (the shell tool's
/// commands): the process's own without the secrets
/// ([`secrets::scrub`](super::secrets::scrub): API keys, secret-named
/// variables, but what `tools.pass_env` puts back), and `TMPDIR` pointing
/// at the sandbox's private temporary directory when there is one.
pub fn child_env(cmd: &mut Command, tmpdir: Option<&Path>) {
    super::secrets::scrub(cmd);
    if let Some(t) = tmpdir {
        cmd.env("TMPDIR", t);
    }
}

/// Starts `cmd` (stdin empty, stdout and stderr piped) and waits for it
/// as the module says; `cap` bytes are kept of each stream.
pub fn run(mut cmd: Command, pre: PreExec, ctx: &Ctx<'_>, cap: usize) -> io::Result<Outcome> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    pre.install(&mut cmd);
    let mut child = cmd.spawn()?;
    let pipes = [
        child.stdout.take().map(OwnedFd::from),
        child.stderr.take().map(OwnedFd::from),
    ];
    let mut w = Watch {
        pgid: child.id() as i32,
        open: pipes,
        out: [Captured::default(), Captured::default()],
        cap,
    };
    for p in w.open.iter().flatten() {
        set_nonblocking(p.as_raw_fd());
    }
    let pipe_inodes: Vec<u64> = w.open.iter().flatten().filter_map(inode).collect();
    let (status, stopped, killed) = w.wait_for(&mut child, ctx)?;
    let until = Instant::now() + DRAIN;
    while w.any_open() && Instant::now() < until {
        w.poll_once();
    }
    let mut escaped = Vec::new();
    if w.any_open() {
        escaped = holders(&pipe_inodes);
        for p in &escaped {
            // SAFETY: kill(2) of a process found holding our pipe.
            unsafe { libc::kill(p.pid, libc::SIGKILL) };
        }
        let until = Instant::now() + DRAIN;
        while w.any_open() && Instant::now() < until {
            w.poll_once();
        }
    }
    let [stdout, stderr] = w.out;
    Ok(Outcome {
        status,
        stopped,
        stdout,
        stderr,
        killed,
        escaped,
    })
}

/// The command's group, its open output pipes and what they gave.
struct Watch {
    pgid: i32,
    open: [Option<OwnedFd>; 2],
    out: [Captured; 2],
    cap: usize,
}

impl Watch {
    fn any_open(&self) -> bool {
        self.open.iter().any(Option::is_some)
    }

    /// Waits until the command ends or must stop; then kills what is
    /// left of its group. The status is `None` when it was stopped.
    fn wait_for(
        &mut self,
        child: &mut Child,
        ctx: &Ctx<'_>,
    ) -> io::Result<(Option<ExitStatus>, Option<Stop>, Vec<Process>)> {
        loop {
            if let Some(status) = child.try_wait()? {
                let left = group_members(self.pgid);
                self.kill_group();
                return Ok((Some(status), None, left));
            }
            if let Some(why) = ctx.stopped() {
                let members = group_members(self.pgid);
                self.kill_group();
                child.wait()?;
                return Ok((None, Some(why), members));
            }
            self.poll_once();
        }
    }

    fn kill_group(&self) {
        // SAFETY: kill(2) of the group the child leads (its own session).
        unsafe { libc::kill(-self.pgid, libc::SIGKILL) };
    }

    /// One poll of the open pipes (at most [`POLL_MS`]), reading what came.
    fn poll_once(&mut self) {
        let mut fds: Vec<libc::pollfd> = self
            .open
            .iter()
            .map(|p| libc::pollfd {
                fd: p.as_ref().map_or(-1, |f| f.as_raw_fd()),
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        // SAFETY: poll over our own array; negative descriptors are skipped.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, POLL_MS) };
        if n <= 0 {
            return;
        }
        for (i, pfd) in fds.iter().enumerate() {
            if pfd.revents != 0 && !self.read_pipe(i) {
                self.open[i] = None;
            }
        }
    }

    /// Reads what pipe `i` has; false at its end (or an error).
    fn read_pipe(&mut self, i: usize) -> bool {
        let Some(fd) = self.open[i].as_ref() else {
            return false;
        };
        let mut buf = [0u8; 16 * 1024];
        loop {
            // SAFETY: read into our own buffer from our own descriptor.
            let n =
                unsafe { libc::read(fd.as_fd().as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
            match n {
                0 => return false,
                n if n > 0 => self.out[i].push(&buf[..n as usize], self.cap),
                _ => {
                    let e = io::Error::last_os_error();
                    return match e.kind() {
                        io::ErrorKind::WouldBlock => true,
                        io::ErrorKind::Interrupted => continue,
                        _ => false,
                    };
                }
            }
        }
    }
}

fn set_nonblocking(fd: RawFd) {
    // SAFETY: fcntl on a descriptor we own.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
    }
}

/// The inode of a pipe end, to find who else holds the pipe.
fn inode(fd: &OwnedFd) -> Option<u64> {
    fs::File::from(fd.try_clone().ok()?)
        .metadata()
        .ok()
        .map(|m| std::os::unix::fs::MetadataExt::ino(&m))
}

/// The pids of `/proc` (none where there is no `/proc`).
fn pids() -> Vec<i32> {
    let Ok(rd) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    rd.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect()
}

/// A process's command line for messages (its name when that is empty),
/// at most 80 characters.
fn describe(pid: i32) -> Option<Process> {
    let raw = fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let mut command: String = raw
        .split(|&b| b == 0)
        .filter(|a| !a.is_empty())
        .map(String::from_utf8_lossy)
        .collect::<Vec<_>>()
        .join(" ");
    if command.is_empty() {
        command = fs::read_to_string(format!("/proc/{pid}/comm"))
            .ok()?
            .trim()
            .to_string();
    }
    if command.chars().count() > 80 {
        command = command.chars().take(79).collect();
        super::secrets::cut_tail(&mut command);
        command.push('…');
    }
    Some(Process { pid, command })
}

/// The live processes of group `pgid` (zombies left out), from
/// `/proc/PID/stat`.
pub fn group_members(pgid: i32) -> Vec<Process> {
    // SAFETY: signal 0 only asks whether the group has a process.
    if unsafe { libc::kill(-pgid, 0) } != 0 {
        return Vec::new();
    }
    let mut found: Vec<Process> = pids()
        .into_iter()
        .filter(|&pid| {
            let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
                return false;
            };
            // After the name in parentheses: state, ppid, pgrp, ...
            let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
                return false;
            };
            let f: Vec<&str> = rest.split_whitespace().collect();
            f.len() > 2 && f[0] != "Z" && f[2].parse() == Ok(pgid)
        })
        .filter_map(describe)
        .collect();
    found.sort_by_key(|p| p.pid);
    found
}

/// Processes holding one of these pipes (other than gem-ask itself).
fn holders(inodes: &[u64]) -> Vec<Process> {
    let me = std::process::id() as i32;
    let links: Vec<String> = inodes.iter().map(|i| format!("pipe:[{i}]")).collect();
    pids()
        .into_iter()
        .filter(|&pid| pid != me)
        .filter(|&pid| {
            let Ok(rd) = fs::read_dir(format!("/proc/{pid}/fd")) else {
                return false;
            };
            rd.filter_map(Result::ok).any(|e| {
                fs::read_link(e.path())
                    .is_ok_and(|l| links.iter().any(|k| l.as_os_str() == k.as_str()))
            })
        })
        .filter_map(describe)
        .collect()
}
