//! An MCP server's stdio, watched. rmcp reads the server's messages one
//! line each and drops a line past its limit (16 MiB) without a word, so
//! a call answered that way would wait for `--tool-timeout` and be
//! reported as a timeout. Here the server's stdout is counted on its way
//! to rmcp: each line that passes the limit is counted in a [`Watch`],
//! and a call waiting for its answer learns at once that the answer was
//! too large. The child is spawned here too (rmcp's own child transport
//! takes the pipes itself), and closed as rmcp closes it: stdin shut,
//! a few seconds' grace, SIGTERM to its group, then SIGKILL.

use std::io;
use std::pin::Pin;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use rmcp::RoleClient;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::{AsyncRwTransport, DEFAULT_MAX_LINE_LENGTH};
use tokio::io::{AsyncRead, ReadBuf};
use tokio::process::{Child, ChildStdin, ChildStdout};

/// The most bytes of one message from a server (rmcp's line limit).
pub const MAX_MESSAGE: usize = DEFAULT_MAX_LINE_LENGTH;

/// How long a closed server has to exit before it is signalled.
const GRACE: Duration = Duration::from_secs(2);

/// Messages from one server that were too large, as they pass.
#[derive(Debug, Default)]
pub struct Watch {
    oversized: AtomicU64,
    notify: tokio::sync::Notify,
}

impl Watch {
    /// Messages too large so far.
    pub fn count(&self) -> u64 {
        self.oversized.load(Ordering::SeqCst)
    }

    /// Returns once a message too large passes after `seen` of them had.
    pub async fn past(&self, seen: u64) {
        loop {
            let next = self.notify.notified();
            tokio::pin!(next);
            next.as_mut().enable();
            if self.count() > seen {
                return;
            }
            next.await;
        }
    }

    pub(super) fn flag(&self) {
        self.oversized.fetch_add(1, Ordering::SeqCst);
        self.notify.notify_waiters();
    }
}

/// The server's stdout, its line lengths counted.
pub struct Counting<R> {
    inner: R,
    /// Bytes of the line read so far.
    line: usize,
    /// This line was counted as too large already.
    flagged: bool,
    watch: Arc<Watch>,
}

impl<R> Counting<R> {
    fn new(inner: R, watch: Arc<Watch>) -> Counting<R> {
        Counting {
            inner,
            line: 0,
            flagged: false,
            watch,
        }
    }

    /// Counts `bytes`, read after what was read before.
    fn scan(&mut self, bytes: &[u8]) {
        let mut start = 0;
        for nl in memchr::memchr_iter(b'\n', bytes) {
            // A line with its line break past the limit is too large.
            self.grow(nl - start + 1);
            self.line = 0;
            self.flagged = false;
            start = nl + 1;
        }
        self.grow(bytes.len() - start);
    }

    fn grow(&mut self, n: usize) {
        self.line += n;
        if self.line > MAX_MESSAGE && !self.flagged {
            self.flagged = true;
            self.watch.flag();
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for Counting<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = r {
            self.scan(&buf.filled()[before..]);
        }
        r
    }
}

/// A server's process and the transport over its stdio.
pub struct Pipe {
    transport: AsyncRwTransport<RoleClient, Counting<ChildStdout>, ChildStdin>,
    child: Option<Child>,
}

/// Starts `cmd` with piped stdin and stdout (and `stderr` as given); the
/// transport to it and the watch of its messages.
pub fn spawn(mut cmd: tokio::process::Command, stderr: Stdio) -> io::Result<(Pipe, Arc<Watch>)> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .kill_on_drop(true)
        .spawn()?;
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        return Err(io::Error::other("the server's stdio could not be opened"));
    };
    let watch = Arc::new(Watch::default());
    let transport = AsyncRwTransport::new_client(Counting::new(stdout, watch.clone()), stdin);
    Ok((
        Pipe {
            transport,
            child: Some(child),
        },
        watch,
    ))
}

impl Transport<RoleClient> for Pipe {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.transport.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.transport.receive()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.transport.close().await?;
        let Some(mut child) = self.child.take() else {
            return Ok(());
        };
        if tokio::time::timeout(GRACE, child.wait()).await.is_ok() {
            return Ok(());
        }
        if let Some(pid) = child.id() {
            // SAFETY: kill(2) on the process group the server leads.
            unsafe {
                libc::kill(-(pid as i32), libc::SIGTERM);
            }
            if tokio::time::timeout(GRACE, child.wait()).await.is_ok() {
                return Ok(());
            }
        }
        child.kill().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_past_the_limit_are_counted_once_each() {
        let watch = Arc::new(Watch::default());
        let mut c = Counting::new((), watch.clone());
        c.scan(b"{\"a\":1}\n{\"b\"");
        assert_eq!((watch.count(), c.line), (0, 4));
        let big = vec![b'x'; MAX_MESSAGE];
        c.scan(&big);
        assert_eq!(watch.count(), 1);
        c.scan(&big);
        c.scan(b"\n");
        assert_eq!(watch.count(), 1, "one line, counted once");
        // A line of exactly the limit, its line break included, passes.
        let mut fits = vec![b'y'; MAX_MESSAGE - 1];
        fits.push(b'\n');
        c.scan(&fits);
        assert_eq!(watch.count(), 1);
        fits.insert(0, b'y');
        c.scan(&fits);
        assert_eq!(watch.count(), 2);
    }
}
