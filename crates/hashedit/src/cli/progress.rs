//! Progress on stderr while a long command runs, for a person at a
//! terminal (FORMAT.md §8.3).
//!
//! A large grep, write or edit can take seconds; without a word the
//! terminal looks hung. When stderr is a terminal, a line
//! `hashedit: grep still running after 2.5 s` appears after the first
//! second and is rewritten in place every half second; it is erased when
//! the command ends, so it never mixes with the results (which go to
//! stdout). Nothing is printed when stderr is a file or a pipe.

use std::io::{IsTerminal, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Quiet time before the first progress line.
const FIRST_AFTER: Duration = Duration::from_secs(1);
/// Time between progress lines.
const EVERY: Duration = Duration::from_millis(500);

/// A running progress line; stopping (or dropping) it erases the line.
pub(super) struct Progress {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts reporting on `command` when stderr is a terminal; `None`
    /// otherwise.
    pub(super) fn start(command: &'static str) -> Option<Progress> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            let mut wait = FIRST_AFTER;
            let mut shown = false;
            // Until the command ends (a message, or the sender dropped).
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(wait) {
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[K{}", line(command, started.elapsed()));
                let _ = err.flush();
                shown = true;
                wait = EVERY;
            }
            if shown {
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[K");
                let _ = err.flush();
            }
        });
        Some(Progress {
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The progress line for `command` after `elapsed`.
fn line(command: &str, elapsed: Duration) -> String {
    format!(
        "hashedit: {command} still running after {:.1} s (Ctrl-C stops it; nothing half-written is left)",
        elapsed.as_secs_f64()
    )
}

#[cfg(test)]
mod tests;
