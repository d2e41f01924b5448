//! One way for the end-to-end tests to run the `hashedit` binary.

use std::ffi::OsStr;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `hashedit --root ROOT ARGS…` with `stdin` piped in (closed at once
/// when `None`), colours off and the snapshot registry at `registry`
/// (`"off"` disables it), and waits for it.
pub fn run_hashedit(
    root: &Path,
    args: &[&str],
    stdin: Option<&str>,
    registry: impl AsRef<OsStr>,
) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hashedit"))
        .arg("--root")
        .arg(root)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("NO_COLOR", "1")
        .env("HASHEDIT_REGISTRY", registry)
        .spawn()
        .expect("hashedit runs");
    {
        let mut pipe = child.stdin.take().unwrap();
        if let Some(input) = stdin {
            pipe.write_all(input.as_bytes()).unwrap();
        }
    }
    child.wait_with_output().unwrap()
}
