//! Signals as ordinary events for the live loop: SIGINT, SIGTERM and
//! SIGWINCH are blocked in every thread and one thread takes them with
//! `sigwait`, so the handling code runs outside signal context (it may
//! lock and allocate) and no thread polls a flag.
//!
//! After the first SIGINT or SIGTERM the watcher restores the default
//! action and unblocks them on its own thread: a program stuck where it
//! cannot finish (writing to a reader that stopped reading) is killed by
//! the second Ctrl-C.

use std::io;
use std::sync::atomic::{AtomicI32, Ordering};

/// The stop the watcher has taken (0: none yet), stored the moment
/// `sigwait` returns it: from then on the signal is no longer pending, and
/// the watcher may still be waiting for the lock to say so to the loop.
static TAKEN: AtomicI32 = AtomicI32::new(0);

/// What arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// SIGINT or SIGTERM (the number).
    Stop(i32),
    /// SIGWINCH: the terminal changed size.
    Resize,
}

/// Blocks the signals in the calling thread, and so in every thread it
/// starts afterwards; call it before starting any. Then starts the
/// watcher, which calls `on` for each signal (after a stop, no more).
pub fn watch(resize: bool, mut on: impl FnMut(Signal) + Send + 'static) -> io::Result<()> {
    let set = signal_set(resize);
    // SAFETY: pthread_sigmask with a set built by sigemptyset/sigaddset.
    let rc = unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
    if rc != 0 {
        return Err(io::Error::from_raw_os_error(rc));
    }
    std::thread::Builder::new()
        .name("live-signals".into())
        .spawn(move || {
            loop {
                let mut sig: libc::c_int = 0;
                // SAFETY: sigwait on a valid set, writing into a local.
                if unsafe { libc::sigwait(&set, &mut sig) } != 0 {
                    return;
                }
                if sig == libc::SIGWINCH {
                    on(Signal::Resize);
                    continue;
                }
                TAKEN.store(sig, Ordering::SeqCst);
                on(Signal::Stop(sig));
                restore_default();
                return;
            }
        })
        .map(|_| ())
}

/// Starts a helper thread that takes none of the watcher's signals, for
/// a thread that may be started before [`watch`] (a grammar loader warmed
/// at start): a signal sent to the process goes to any thread that does
/// not block it, and SIGWINCH's default is to be ignored, so such a
/// thread would swallow a resize the watcher never sees. The signals are
/// blocked while it is started (a thread starts with its parent's mask),
/// then the caller's mask is as it was.
pub fn spawn_kept_out(
    name: &str,
    f: impl FnOnce() + Send + 'static,
) -> io::Result<std::thread::JoinHandle<()>> {
    let set = signal_set(true);
    // SAFETY: sigset_t is plain data; pthread_sigmask fills `old`.
    let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: pthread_sigmask with a set built by sigemptyset/sigaddset.
    unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old) };
    let spawned = std::thread::Builder::new().name(name.into()).spawn(f);
    // SAFETY: restoring the mask read above.
    unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut()) };
    spawned
}

/// SIGINT or SIGTERM sent but not yet acted on: still pending, or taken by
/// the watcher, which may not have told the loop yet. Ctrl-C signals every
/// process of the pipeline at once, so when an input ends because the
/// program before us was interrupted, our own SIGINT has already come:
/// the end is an interruption, not an end of input.
pub fn pending_stop() -> Option<i32> {
    let taken = TAKEN.load(Ordering::SeqCst);
    if taken != 0 {
        return Some(taken);
    }
    // SAFETY: sigpending fills a set we own; sigismember reads it.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        if libc::sigpending(&mut set) != 0 {
            return None;
        }
        [libc::SIGINT, libc::SIGTERM]
            .into_iter()
            .find(|&s| libc::sigismember(&set, s) == 1)
    }
}

/// The blocked set: SIGINT, SIGTERM, and SIGWINCH when asked.
fn signal_set(resize: bool) -> libc::sigset_t {
    // SAFETY: sigemptyset initialises the set before sigaddset uses it.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::sigaddset(&mut set, libc::SIGTERM);
        if resize {
            libc::sigaddset(&mut set, libc::SIGWINCH);
        }
        set
    }
}

/// On the watcher's thread: SIGINT and SIGTERM back to their default
/// action and deliverable here, so the next one ends the process.
fn restore_default() {
    let set = signal_set(false);
    // SAFETY: default dispositions, then unblocking on this thread only.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
        libc::signal(libc::SIGTERM, libc::SIG_DFL);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
    }
}
