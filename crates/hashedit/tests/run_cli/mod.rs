//! One way for the end-to-end tests to run the `hashedit` binary.

use std::ffi::OsStr;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `hashedit --root ROOT ARGS…` with `stdin` piped in (closed at once
/// when `None`), colours off and the snapshot registry at `registry`
/// (`"off"` disables it), and waits for it.
pub(crate) fn run_hashedit(
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

/// What one run of the binary printed and returned, as text.
#[derive(Debug)]
#[allow(dead_code)] // each test binary uses its own part of this module
pub(crate) struct Run {
    /// The exit status (`None`: killed by a signal).
    pub code: Option<i32>,
    /// Standard output, lossily decoded.
    pub stdout: String,
    /// Standard error, lossily decoded.
    pub stderr: String,
}

/// Runs `hashedit --root ROOT ARGS…` with `stdin` piped in and the
/// registry off.
#[allow(dead_code)]
pub(crate) fn run(root: &Path, args: &[&str], stdin: &str) -> Run {
    let out = run_hashedit(root, args, Some(stdin), "off");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A temporary workspace holding `files` (path, content), directories
/// created as needed.
#[allow(dead_code)]
pub(crate) fn workspace(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    dir
}

/// The rho tag of `bytes`, as headers print it.
#[allow(dead_code)]
pub(crate) fn tag(bytes: &[u8]) -> String {
    hashedit_core::TagScheme::Rho.tag_of(bytes).to_string()
}
