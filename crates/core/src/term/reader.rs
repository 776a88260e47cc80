//! Inputs read on a thread of their own, in chunks sent over a bounded
//! channel: what topic-tag's stream and gem-ask's stdin context both read
//! through, so that the calling thread stays free to flush, to wait with a
//! time limit, or to notice a signal.

use std::io::{self, Read};
use std::sync::mpsc;
use std::thread;

use super::Input;

/// Bytes per read: big enough that a file goes in few syscalls.
pub const CHUNK: usize = 128 * 1024;

/// What the reader thread sends, in input order.
pub enum Chunk {
    /// An input begins (its name).
    Start(String),
    /// Bytes read; send the buffer back through the recycling sender.
    Data(Vec<u8>),
    /// Reading an input failed; nothing more comes.
    Failed(String, io::Error),
}

/// Reads the inputs on a thread, chunk by chunk, one after the other; the
/// channel closes after the last (or after a failure). The caller can then
/// tell "nothing more ready" (flush now) from "more is here" (keep going),
/// and can wait with a time limit (for a signal, for a held run), which a
/// blocking read cannot. Buffers sent back on the second channel are used
/// again.
pub fn spawn_reader(inputs: Vec<Input>) -> (mpsc::Receiver<Chunk>, mpsc::Sender<Vec<u8>>) {
    let (tx, rx) = mpsc::sync_channel::<Chunk>(8);
    let (recycle_tx, recycle_rx) = mpsc::channel::<Vec<u8>>();
    thread::spawn(move || {
        for input in inputs {
            let name = input.name;
            if tx.send(Chunk::Start(name.clone())).is_err() {
                return;
            }
            // A regular file is read straight into the chunk, not through
            // the input's buffer.
            let mut reader: Box<dyn Read + Send> = match input.file {
                Some(f) => Box::new(f),
                None => input.reader,
            };
            loop {
                let mut buf = recycle_rx.try_recv().unwrap_or_default();
                buf.resize(CHUNK, 0);
                match reader.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        buf.truncate(n);
                        if tx.send(Chunk::Data(buf)).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        let _ = tx.send(Chunk::Failed(name, e));
                        return;
                    }
                }
            }
        }
    });
    (rx, recycle_tx)
}
