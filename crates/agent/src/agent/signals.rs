//! SIGINT and SIGTERM become a flag the agent polls between chunks and
//! while waiting, so an interrupted run still ends its stream with a
//! `result` event and the documented exit code. Plain `libc::sigaction`:
//! the handler only stores the signal number (async-signal-safe).
//!
//! The handler is one-shot (`SA_RESETHAND`): a run stuck where it cannot
//! poll the flag (blocked in a session lock, or writing to a stdout nobody
//! reads) is killed by the second Ctrl-C. The REPL, where Ctrl-C ends an
//! answer and not the program, re-arms the handlers after each one
//! ([`rearm`]).

use std::sync::atomic::{AtomicI32, Ordering};

static RECEIVED: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int) {
    RECEIVED.store(sig, Ordering::SeqCst);
}

/// Installs the handlers for SIGINT and SIGTERM.
pub fn install() {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: a zeroed sigaction with a handler that only does an atomic
        // store; sa_mask is emptied before use.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as *const () as libc::sighandler_t;
            libc::sigemptyset(&mut sa.sa_mask);
            sa.sa_flags = libc::SA_RESTART | libc::SA_RESETHAND;
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// Forgets a SIGINT that was handled (an answer the user stopped) and
/// installs the one-shot handlers again.
pub fn rearm() {
    RECEIVED.store(0, Ordering::SeqCst);
    install();
}

/// The signal that arrived, if any.
pub fn received() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// `SIGINT`/`SIGTERM` for messages.
pub fn name(sig: i32) -> &'static str {
    match sig {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}
