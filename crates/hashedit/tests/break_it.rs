//! End-to-end regressions from a new user's break-it pass: each case a
//! misleading behaviour of the command line (or of `hashedit mcp`), pinned
//! by its exact stdout, stderr, exit status and file bytes.

use std::fs;
use std::path::Path;

mod run_cli;
use run_cli::run_hashedit;

/// What one run of the binary printed and returned.
#[derive(Debug)]
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `hashedit --root ROOT ARGS…` with `stdin` piped in, no registry.
fn run(root: &Path, args: &[&str], stdin: &str) -> Run {
    let out = run_hashedit(root, args, Some(stdin), "off");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn workspace(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in files {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, content).unwrap();
    }
    dir
}

fn tag(bytes: &[u8]) -> String {
    hashedit_core::TagScheme::Rho.tag_of(bytes).to_string()
}

#[test]
fn a_tiny_output_budget_never_cuts_the_snapshot_header() {
    let big: String = (1..=100).map(|i| format!("{i}\n")).collect();
    let dir = workspace(&[("big.txt", &big)]);
    let t = tag(big.as_bytes());
    // Break-it pass: `--max-output-bytes 10` printed `[big.txt#3`.
    for budget in ["5", "10"] {
        let out = run(dir.path(), &["--max-output-bytes", budget, "read", "big.txt"], "");
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr.as_str()),
            (
                Some(0),
                format!(
                    "[big.txt#{t}]\n\n[the output budget of {budget} bytes is too small for this header, \
                     a footer and line 1; no rows shown. An output budget of at least 179 bytes \
                     (--max-output-bytes) shows it]\n"
                )
                .as_str(),
                ""
            )
        );
    }
    let out = run(dir.path(), &["--max-output-bytes", "179", "read", "big.txt"], "");
    assert!(out.stdout.starts_with(&format!("[big.txt#{t}]\n1:1\n\n")), "{}", out.stdout);
    // A write's reply: prose may be cut, its header never.
    let out = run(dir.path(), &["--max-output-bytes", "20", "write", "w.txt"], "a\nb\n");
    assert_eq!(
        out.stdout,
        format!("created w.txt\n\n[w.txt#{}]\n[truncated]\n", tag(b"a\nb\n"))
    );
}
