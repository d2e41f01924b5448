//! Cancelling a tool call from another thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A flag another thread raises to stop a running tool call; clones share
/// it. The searches check it before every entry and file and return what
/// they found, marked cancelled; `write` and `edit` never stop half-way.
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
