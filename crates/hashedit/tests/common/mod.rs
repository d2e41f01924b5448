//! Helpers shared by the end-to-end tests that drive external peers
//! installed by `scripts/install-peers` into `target/peers/`.

use std::path::{Path, PathBuf};

/// The root of the checkout.
pub(crate) fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Where `scripts/install-peers` puts the peers (`HASHEDIT_PEERS_DIR`
/// moves it, as it does for the script).
pub(crate) fn peers_dir() -> PathBuf {
    std::env::var_os("HASHEDIT_PEERS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target/peers"))
}

/// Says a peer is missing: fails under `HASHEDIT_REQUIRE_PEERS=1` or
/// `HASHEDIT_REQUIRE_ALL=1`, else prints a notice the test log cannot hide.
pub(crate) fn missing(peer: &str, why: &str) {
    let required = std::env::var("HASHEDIT_REQUIRE_PEERS").is_ok_and(|v| v == "1")
        || hashedit_skip::all_required();
    assert!(
        !required,
        "{peer} is required (HASHEDIT_REQUIRE_PEERS=1 or HASHEDIT_REQUIRE_ALL=1) but {why}; run scripts/install-peers"
    );
    eprintln!(
        "\n========================================================================\n\
         SKIPPED: {peer} not installed ({why}); run scripts/install-peers\n\
         ========================================================================\n"
    );
}
