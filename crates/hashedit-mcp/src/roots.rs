//! Where the workspace root comes from: `--root` ([`RootPolicy::Fixed`]),
//! or the client's first `file://` root that is a directory, asked for once
//! the session opens and after `roots/list_changed`
//! ([`RootPolicy::Client`]); without one within [`ROOTS_TIMEOUT`], the
//! directory the server started in. Calls wait for the roots. The
//! 2026-07-28 revision deprecates roots, but every tested client offers
//! them.
#![allow(deprecated)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use hashedit_tools::Workspace;
use rmcp::RoleServer;
use rmcp::model::{ProtocolVersion, Root};
use rmcp::service::Peer;
use tokio::sync::Mutex;

/// How long the server waits for the client's answer to `roots/list`.
pub const ROOTS_TIMEOUT: Duration = Duration::from_secs(5);

/// Whose directory is the workspace root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RootPolicy {
    /// The workspace given to the server (`--root DIR`), whatever roots the
    /// client has.
    #[default]
    Fixed,
    /// The client's first root (`roots/list`), re-read when the client says
    /// its roots changed; the given workspace (the directory the server
    /// started in) when the client offers none. The given workspace's
    /// output budget and tag scheme apply to the client's root too.
    Client,
}

/// The workspace a call runs in, as the policy decides.
pub(crate) struct Roots {
    policy: RootPolicy,
    /// `--root`, or the fallback (and settings template) of the client's.
    given: Arc<Workspace>,
    /// The client's root once fetched; `None` until then, or after the
    /// client said its roots changed.
    current: Mutex<Option<Arc<Workspace>>>,
}

impl Roots {
    pub(crate) fn new(given: Workspace, policy: RootPolicy) -> Roots {
        Roots {
            policy,
            given: Arc::new(given),
            current: Mutex::new(None),
        }
    }

    /// The workspace as it stands without asking the client (for `Debug`
    /// and for callers outside a session).
    pub(crate) fn given(&self) -> &Arc<Workspace> {
        &self.given
    }

    /// The workspace for a call from `peer`: the fixed root, or the client's,
    /// fetched first if unknown; a 2026-07-28 session (no roots to ask for)
    /// gets the given workspace.
    pub(crate) async fn workspace(
        &self,
        peer: &Peer<RoleServer>,
        revision: Option<ProtocolVersion>,
    ) -> Arc<Workspace> {
        if self.policy == RootPolicy::Fixed
            || revision.is_some_and(|r| r >= ProtocolVersion::V_2026_07_28)
        {
            return self.given.clone();
        }
        // Held across the fetch: concurrent first calls wait for one answer.
        let mut current = self.current.lock().await;
        if let Some(ws) = current.as_ref() {
            return ws.clone();
        }
        let ws = self.fetch(peer).await;
        *current = Some(ws.clone());
        ws
    }

    /// Forgets the client's root; the next call fetches it again.
    pub(crate) async fn invalidate(&self) {
        *self.current.lock().await = None;
    }

    /// The client's first usable root, or the given workspace.
    async fn fetch(&self, peer: &Peer<RoleServer>) -> Arc<Workspace> {
        let offers_roots = peer
            .peer_info()
            .is_some_and(|info| info.capabilities.roots.is_some());
        if !offers_roots {
            return self.given.clone();
        }
        let roots = match tokio::time::timeout(ROOTS_TIMEOUT, peer.list_roots()).await {
            Ok(Ok(answer)) => answer.roots,
            Ok(Err(_)) | Err(_) => return self.given.clone(),
        };
        roots
            .iter()
            .filter_map(root_directory)
            .find_map(|dir| Workspace::new(dir).ok())
            .map(|ws| {
                Arc::new(
                    ws.with_max_output_bytes(self.given.max_output_bytes())
                        .with_tag_scheme(self.given.tag_scheme())
                        .with_protection(self.given.protection().clone()),
                )
            })
            .unwrap_or_else(|| self.given.clone())
    }
}

/// The local directory a root names, for `file://` URIs.
fn root_directory(root: &Root) -> Option<PathBuf> {
    let url = url::Url::parse(&root.uri).ok()?;
    if url.scheme() != "file" {
        return None;
    }
    url.to_file_path().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(uri: &str) -> Root {
        Root::new(uri)
    }

    #[test]
    fn file_uris_name_directories_and_other_schemes_nothing() {
        assert_eq!(
            root_directory(&root("file:///home/me/proj")),
            Some(PathBuf::from("/home/me/proj"))
        );
        assert_eq!(
            root_directory(&root("file:///home/me/caf%C3%A9%20x")),
            Some(PathBuf::from("/home/me/café x"))
        );
        assert_eq!(
            root_directory(&root("file://localhost/srv/x")),
            Some(PathBuf::from("/srv/x"))
        );
        assert_eq!(root_directory(&root("https://example.com/x")), None);
        assert_eq!(root_directory(&root("not a uri")), None);
    }
}
