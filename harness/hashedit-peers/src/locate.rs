//! Where the installed peers live, and what to do when one is missing.
//!
//! `scripts/install-peers` installs the npm peers into `target/peers/` of
//! the checkout (or `$HASHEDIT_PEERS_DIR`). Each peer can also be pointed at
//! explicitly:
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `HASHEDIT_PEERS_DIR` | root of the installed peers | `<repo>/target/peers` |
//! | `HASHEDIT_BUN` | the Bun executable | `<peers>/node_modules/.bin/bun` |
//! | `HASHEDIT_OMP_DIR` | the `@oh-my-pi/hashline` package directory | `<peers>/node_modules/@oh-my-pi/hashline` |
//! | `HASHEDIT_REQUIRE_PEERS` | `1`: a missing peer fails the test instead of skipping it | unset |
//! | `HASHEDIT_REQUIRE_ALL` | `1`: the same, and every other skip fails too (`hashedit-skip`) | unset |
//!
//! Rho needs no installation: it is a Cargo dependency of this crate.

use std::path::{Path, PathBuf};

/// A peer that is not installed (or does not start).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// Which peer.
    pub peer: String,
    /// What was looked for and how to install it.
    pub reason: String,
}

impl Missing {
    /// A missing `peer` because of `reason`.
    pub fn new(peer: impl Into<String>, reason: impl Into<String>) -> Missing {
        Missing {
            peer: peer.into(),
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is not available: {}. Install the peers with scripts/install-peers",
            self.peer, self.reason
        )
    }
}

impl std::error::Error for Missing {}

/// The checkout this crate was built from.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("harness/hashedit-peers sits two levels below the repository root")
        .to_path_buf()
}

/// The directory `scripts/install-peers` installs into.
pub fn peers_dir() -> PathBuf {
    match std::env::var_os("HASHEDIT_PEERS_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => repo_root().join("target").join("peers"),
    }
}

fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The located oh-my-pi peer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OmpInstall {
    /// The Bun executable.
    pub bun: PathBuf,
    /// The `@oh-my-pi/hashline` package directory.
    pub package_dir: PathBuf,
}

/// Finds Bun and `@oh-my-pi/hashline`.
pub fn omp() -> Result<OmpInstall, Missing> {
    let bun = env_path("HASHEDIT_BUN")
        .unwrap_or_else(|| peers_dir().join("node_modules").join(".bin").join("bun"));
    if !bun.is_file() {
        return Err(Missing::new(
            "bun",
            format!("no executable at {} (set HASHEDIT_BUN)", bun.display()),
        ));
    }
    let package_dir = env_path("HASHEDIT_OMP_DIR").unwrap_or_else(|| {
        peers_dir()
            .join("node_modules")
            .join("@oh-my-pi")
            .join("hashline")
    });
    if !package_dir.join("src").join("index.ts").is_file() {
        return Err(Missing::new(
            "@oh-my-pi/hashline",
            format!(
                "no package at {} (set HASHEDIT_OMP_DIR)",
                package_dir.display()
            ),
        ));
    }
    Ok(OmpInstall { bun, package_dir })
}

/// True when `HASHEDIT_REQUIRE_PEERS=1` or `HASHEDIT_REQUIRE_ALL=1`:
/// missing peers fail tests.
pub fn peers_required() -> bool {
    std::env::var("HASHEDIT_REQUIRE_PEERS").is_ok_and(|v| v.trim() == "1")
        || hashedit_skip::all_required()
}

/// Unwraps a located peer, or handles its absence for a test named `test`:
/// panics when peers are required, else prints a loud `SKIPPED` line and
/// returns `None` so the test can return early.
pub fn or_skip<T>(test: &str, found: Result<T, Missing>) -> Option<T> {
    match found {
        Ok(peer) => Some(peer),
        Err(missing) if peers_required() => {
            panic!("{test}: {missing} (HASHEDIT_REQUIRE_PEERS=1 or HASHEDIT_REQUIRE_ALL=1)")
        }
        Err(missing) => {
            eprintln!();
            eprintln!("================================================================");
            eprintln!("SKIPPED {test}: {missing}");
            eprintln!("(set HASHEDIT_REQUIRE_PEERS=1 to make this a failure)");
            eprintln!("================================================================");
            None
        }
    }
}
