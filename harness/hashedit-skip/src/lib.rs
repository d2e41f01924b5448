//! # hashedit-skip
//!
//! What a hashedit test does when this machine cannot give it what it
//! checks: a tool that is not installed (strace, patch, script), a
//! capability the sandbox withholds (`user.*` attributes, mount
//! namespaces, `chattr +i`, device nodes), a peer or corpus that was not
//! installed. It never returns quietly: it prints what it did not check
//! and why, and under `HASHEDIT_REQUIRE_ALL=1` (which `.ci/run` sets) it
//! fails instead, so CI cannot pass with a check switched off.
//!
//! Parts of a test that need root, or need *not* to be root (a refusal
//! the kernel waives for root), are the one exception: `.ci/run` runs
//! them in two legs, as root and as an unprivileged user, and each leg
//! prints what it leaves to the other ([`Privilege`]).
//!
//! ```no_run
//! if std::process::Command::new("strace").arg("-V").status().is_err() {
//!     hashedit_skip::skip("crash_smoke", "kills at exact system calls", "strace is not installed");
//!     return;
//! }
//! ```

/// The variable under which every skip fails instead.
pub const REQUIRE_ALL: &str = "HASHEDIT_REQUIRE_ALL";

/// True when `HASHEDIT_REQUIRE_ALL=1`: nothing may be skipped.
pub fn all_required() -> bool {
    std::env::var(REQUIRE_ALL).is_ok_and(|v| v.trim() == "1")
}

/// Reports that `test` did not check `what` because `why`. Panics under
/// [`REQUIRE_ALL`]; otherwise prints a notice the test log cannot hide.
pub fn skip(test: &str, what: &str, why: &str) {
    assert!(
        !all_required(),
        "{test}: cannot check {what}: {why} ({REQUIRE_ALL}=1 forbids skipping)"
    );
    eprintln!(
        "\n================================================================\n\
         SKIPPED in {test}: not checked: {what}\n\
         because {why} (set {REQUIRE_ALL}=1 to make this a failure)\n\
         ================================================================"
    );
}

/// Who a part of a test must run as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Privilege {
    /// File modes do not bind this process: root, with its
    /// `CAP_DAC_OVERRIDE` (the root leg of `.ci/run`).
    Root,
    /// File modes bind this process: any other user, or root without
    /// `CAP_DAC_OVERRIDE` (the unprivileged leg of `.ci/run`).
    Unprivileged,
}

/// `CAP_DAC_OVERRIDE`'s bit in the capability sets of /proc/self/status.
const CAP_DAC_OVERRIDE: u64 = 1 << 1;

impl Privilege {
    /// The privilege this process runs with: whether `CAP_DAC_OVERRIDE`
    /// is in its effective capabilities (the `CapEff:` line of
    /// /proc/self/status, in hex).
    pub fn current() -> Privilege {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let effective = status
            .lines()
            .find_map(|line| line.strip_prefix("CapEff:"))
            .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
            .unwrap_or(0);
        if effective & CAP_DAC_OVERRIDE != 0 {
            Privilege::Root
        } else {
            Privilege::Unprivileged
        }
    }
}

/// Whether `test` may check `what`, which needs `needs`: true when this
/// process runs so; else prints that the other leg of `.ci/run` checks it
/// and returns false.
pub fn runs_as(needs: Privilege, test: &str, what: &str) -> bool {
    if Privilege::current() == needs {
        return true;
    }
    let leg = match needs {
        Privilege::Root => "root leg (as root)",
        Privilege::Unprivileged => "unprivileged leg (scripts/test-unprivileged)",
    };
    eprintln!("NOT CHECKED HERE in {test}: {what}; .ci/run checks it in its {leg}");
    false
}

#[cfg(test)]
mod tests;
