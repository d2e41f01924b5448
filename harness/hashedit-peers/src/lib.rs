//! # hashedit-peers
//!
//! Test infrastructure, not part of the product: runners for the two peer
//! engines hashedit is measured against, and the pieces the differential
//! tests and the robustness benchmark share.
//!
//! * [`rho`]: Rho's tools from its published crate `rho-agent-tools`, run
//!   through the `rho-sdk` provider-free tool host (the app's own
//!   prepare/authorize/execute path).
//! * [`omp`]: oh-my-pi's engine, `@oh-my-pi/hashline` from npm, served by a
//!   long-lived Bun process running our driver `js/omp-driver.ts`.
//! * [`locate`]: where the installed peers are (`scripts/install-peers`),
//!   and the skip-or-fail policy when one is missing.
//! * [`shape`]: a reply reduced to headers, rows, gaps and numbers, so
//!   replies with different prose can be compared.
//! * [`corpus`]: real source files and crafted edge files.
//!
//! Running the suites:
//!
//! ```text
//! scripts/install-peers                                  # once: bun + @oh-my-pi/hashline
//! cargo test -p hashedit-peers                           # differential suites
//! HASHEDIT_DIFF_CASES=5000 cargo test -p hashedit-peers --release -- --nocapture
//! HASHEDIT_REQUIRE_PEERS=1 cargo test -p hashedit-peers  # CI: a missing peer fails
//! ```

pub mod corpus;
pub mod locate;
pub mod omp;
pub mod rho;
pub mod shape;

pub use locate::Missing;
