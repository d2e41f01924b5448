//! Cancelling a tool call from another thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A flag another thread raises to stop a running tool call.
///
/// Clones share one flag. The searches (`grep`, `glob`, `list_dir`) check
/// it before every directory entry and every file they read, so a raised
/// flag stops them within one file's work; they then return what they found
/// so far, marked cancelled. Tools that write (`write`, `edit`) never stop
/// half-way: a commit is all or nothing, so they do not look at the flag.
#[derive(Debug, Clone, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token that is not raised.
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// Raises the flag; every clone sees it.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag was raised.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
