//! Runs `scripts/bench --smoke`: tiny inputs, one round per row, the peers
//! that are installed. It checks that the suite runs end to end, that every
//! workload did the right work (the script's correctness checks) and that
//! it writes its table; it asserts no timing (CI machines are shared and
//! noisy).
//!
//! The suite needs `python3` and the `hashedit` binary next to this
//! package's `hashedit-bench` (a workspace build makes both). When either
//! is missing the test says so and passes, unless
//! `HASHEDIT_REQUIRE_PEERS=1` (as `scripts/test` sets) or
//! `HASHEDIT_REQUIRE_ALL=1` (as `.ci/run` sets), which make it a failure.
//! The same holds for the grep rows, which need the ripgrep the script
//! finds (`scripts/install-peers` pins one under `target/peers/ripgrep`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn required() -> bool {
    std::env::var("HASHEDIT_REQUIRE_PEERS").is_ok_and(|v| v.trim() == "1")
}

fn skip(why: &str) {
    assert!(!required(), "bench smoke: {why} (HASHEDIT_REQUIRE_PEERS=1)");
    hashedit_skip::skip("bench_smoke_produces_its_table", "the bench smoke", why);
}

#[test]
fn bench_smoke_produces_its_table() {
    let bench_bin = PathBuf::from(env!("CARGO_BIN_EXE_hashedit-bench"));
    let hashedit = bench_bin.with_file_name(format!("hashedit{}", std::env::consts::EXE_SUFFIX));
    if !hashedit.is_file() {
        return skip(&format!(
            "no hashedit binary at {} (build the workspace)",
            hashedit.display()
        ));
    }
    if Command::new("python3").arg("--version").output().is_err() {
        return skip("python3 is not installed");
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("harness/hashedit-bench sits two levels below the repository root");
    let out = tempfile::tempdir().expect("a temporary directory");
    // The token workload needs hashedit-robustness (built beside this
    // binary by a workspace build) and the real-edit corpus.
    let robustness = bench_bin.with_file_name(format!(
        "hashedit-robustness{}",
        std::env::consts::EXE_SUFFIX
    ));
    let corpus = std::env::var_os("HASHEDIT_REAL_EDITS_CORPUS")
        .map_or_else(|| repo.join("target").join("real-edits-corpus"), Into::into);
    let tokens = robustness.is_file() && corpus.join("MANIFEST").is_file();
    if !tokens {
        assert!(
            !required(),
            "bench smoke: no hashedit-robustness binary or real-edit corpus for the tokens workload (HASHEDIT_REQUIRE_PEERS=1)"
        );
        hashedit_skip::skip(
            "bench_smoke_produces_its_table",
            "the tokens workload",
            "no hashedit-robustness binary beside it or no real-edit corpus",
        );
    }
    let started = Instant::now();
    let mut bench = Command::new("python3");
    bench
        .arg(repo.join("scripts").join("bench"))
        .arg("--smoke")
        .arg("--hashedit")
        .arg(&hashedit)
        .arg("--bench-bin")
        .arg(&bench_bin)
        .arg("--out")
        .arg(out.path());
    if tokens {
        bench
            .arg("--only")
            .arg("grep,read,edit,latency,mcp,tokens")
            .arg("--robustness-bin")
            .arg(&robustness);
    }
    let run = bench.output().expect("scripts/bench runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        run.status.success(),
        "scripts/bench --smoke failed ({}):\n{stdout}\n{stderr}",
        run.status
    );
    eprintln!("bench smoke took {:.1} s", started.elapsed().as_secs_f64());
    let table = std::fs::read_to_string(out.path().join("results.md")).expect("results.md");
    assert!(
        table.contains("| group | workload |"),
        "no table header in results.md:\n{table}"
    );
    for group in ["| read |", "| edit (CLI) |"] {
        assert!(
            table.contains(group),
            "no {group} row in results.md:\n{table}"
        );
    }
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.path().join("results.json")).expect("results.json"),
    )
    .expect("results.json is JSON");
    assert!(
        json["rows"].as_array().is_some_and(|rows| !rows.is_empty()),
        "results.json has no rows"
    );
    // What each workload did is checked by the script (the same hits as
    // rg, the right header and rows, the edited file byte for byte); the
    // script fails on a failed check, and here every check must be present
    // and passed.
    let checks = json["checks"].as_array().expect("results.json has checks");
    // The grep rows need ripgrep (the peer): the script records the one it
    // found, and without one it runs no grep row.
    let has_rg = !json["meta"]["versions"]["rg"].is_null();
    if !has_rg {
        assert!(
            !required(),
            "bench smoke: no ripgrep for the grep rows (HASHEDIT_REQUIRE_PEERS=1)"
        );
        hashedit_skip::skip(
            "bench_smoke_produces_its_table",
            "the grep rows (ours vs rg)",
            "scripts/bench found no ripgrep (scripts/install-peers installs one)",
        );
    }
    let mut kinds: Vec<&str> = vec!["read ", "edit "];
    if has_rg {
        kinds.push("grep ");
    }
    if tokens {
        kinds.push("tokens: ");
    }
    for kind in &kinds {
        assert!(
            checks
                .iter()
                .any(|c| c["name"].as_str().is_some_and(|n| n.starts_with(kind))),
            "no {kind}check in results.json: {checks:?}"
        );
    }
    let failed: Vec<_> = checks.iter().filter(|c| c["ok"] != true).collect();
    assert!(failed.is_empty(), "failed checks: {failed:?}");
}
