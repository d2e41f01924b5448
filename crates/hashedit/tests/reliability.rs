//! Fast versions of the issue 5 reliability harnesses (the
//! `hashedit-stress` crate), run against this build's binary on every
//! `cargo test`: SIGKILL during edit and write (random and aimed instants,
//! and at exact system calls through strace when it is installed), many
//! writers on one snapshot, and hashedit against a writer that takes no
//! lock. The long runs and their figures are in docs/RELIABILITY.md.

use std::path::Path;

use hashedit_stress::client::Launcher;
use hashedit_stress::crash::{self, CrashConfig, CrashReport, Surface, SweepConfig};
use hashedit_stress::fixture::{Leftover, Scenario};
use hashedit_stress::race::{self, ExternalConfig, ExternalMode, RaceConfig, Writers};

fn launcher() -> Launcher {
    Launcher::new(env!("CARGO_BIN_EXE_hashedit"))
}

/// Asserts every crash promise on `report`: no file lost anywhere; no
/// file torn where files are replaced by rename; a torn in-place rewrite
/// (hard links, foreign owner) always leaves a complete `.bak` of the old
/// bytes; no damaged mode, owner or link; no leftover that matches no
/// file's old or new bytes.
fn assert_crash_promises(report: &CrashReport) {
    let details = || {
        format!(
            "{}\n{:#?}\n{:#?}",
            report.table(),
            report.failures,
            report.calibration_errors
        )
    };
    assert!(report.calibration_errors.is_empty(), "{}", details());
    let total = report.total();
    assert!(total.trials > 0, "{}", details());
    assert_eq!(total.lost(), 0, "{}", details());
    let in_place = report.total_where(|s| matches!(s, Scenario::HardLink | Scenario::Foreign));
    assert_eq!(
        total.torn(),
        in_place.torn(),
        "torn by rename: {}",
        details()
    );
    assert_eq!(in_place.torn(), in_place.torn_recoverable, "{}", details());
    assert_eq!(total.other_problem_trials, 0, "{}", details());
    assert_eq!(
        total.leftovers.get(&Leftover::Unexplained),
        None,
        "{}",
        details()
    );
}

#[test]
fn crash_smoke_random_and_aimed_kills() {
    let dir = tempfile::tempdir().unwrap();
    let config = CrashConfig {
        dir: dir.path().to_path_buf(),
        kills: 60,
        seed: 0x5EED_0005,
        max_size: 64 * 1024,
        surfaces: Surface::ALL.to_vec(),
        scenarios: Scenario::ALL.to_vec(),
        trials_per_case: 3,
        verbose: false,
    };
    let report = crash::run(&launcher(), &config, |_| {});
    assert_crash_promises(&report);
    assert_eq!(report.total().trials, 60);
}

/// Whether strace is installed and may trace here (containers often
/// forbid ptrace).
fn strace_works() -> bool {
    std::process::Command::new("strace")
        .args(["-f", "-qq", "-o", "/dev/null", "--", "true"])
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn crash_smoke_kills_at_exact_system_calls() {
    if !strace_works() {
        hashedit_skip::skip(
            "crash_smoke_kills_at_exact_system_calls",
            "kills at exact system calls",
            "strace is not installed or cannot trace here",
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let config = SweepConfig {
        dir: dir.path().to_path_buf(),
        seed: 0x5EED_0006,
        sizes: vec![2048],
        surfaces: vec![Surface::CliEdit],
        scenarios: vec![Scenario::Plain, Scenario::HardLink, Scenario::Multi],
        max_per_syscall: 4,
    };
    let report = crash::strace_sweep(&launcher(), &config, |_| {});
    assert_crash_promises(&report);
    // Every kill lands: strace kills on entry to the call.
    let total = report.total();
    assert_eq!(total.killed, total.trials, "{}", report.table());
    assert!(total.trials >= 60, "{}", report.table());
}

fn race_config(dir: &Path) -> RaceConfig {
    RaceConfig {
        dir: dir.to_path_buf(),
        rounds: 12,
        writers: Writers {
            threads: 3,
            cli: 2,
            mcp: 1,
            mcp_pipelined: 1,
        },
        seed: 0x5EED_0007,
        disjoint_percent: 30,
    }
}

#[test]
fn race_smoke_one_winner_per_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let config = race_config(dir.path());
    let report = race::writers(&launcher(), &config).unwrap();
    let table = report.table(&config.writers);
    assert_eq!(report.rounds(), 12, "{table}");
    assert_eq!(report.lost_updates, 0, "{table}\n{:#?}", report.faults);
    assert_eq!(report.phantom_changes, 0, "{table}\n{:#?}", report.faults);
    assert_eq!(report.broken_calls, 0, "{table}\n{:#?}", report.faults);
    assert_eq!(report.no_winner, 0, "{table}");
    assert_eq!(
        report.conflict_ok, report.conflict_rounds,
        "{table}\n{:#?}",
        report.faults
    );
    // Losers are told their snapshot is stale. On a loaded machine a
    // writer may also wait out the 1 s lock wait (as Rho's)
    // and be refused with `lock_timeout`, which writes nothing either; any
    // other kind (an I/O error, a parse error) is a fault.
    assert!(report.refusals.contains_key("stale_tag"), "{table}");
    assert!(
        report
            .refusals
            .keys()
            .all(|kind| kind == "stale_tag" || kind == "lock_timeout"),
        "{table}"
    );
}

#[test]
fn external_writer_smoke() {
    for mode in [ExternalMode::InPlace, ExternalMode::Rename] {
        let dir = tempfile::tempdir().unwrap();
        let config = ExternalConfig {
            dir: dir.path().to_path_buf(),
            rounds: 40,
            mode,
            seed: 0x5EED_0008,
            max_pause_us: 3000,
        };
        let report = race::external(&launcher(), &config).unwrap();
        let row = report.row();
        assert!(report.rounds > 0, "{row}");
        assert_eq!(report.lost_updates, 0, "{row}\n{:#?}", report.faults);
        assert_eq!(report.wrong_base, 0, "{row}\n{:#?}", report.faults);
        assert_eq!(report.unreported_writes, 0, "{row}\n{:#?}", report.faults);
        assert_eq!(report.broken_calls, 0, "{row}\n{:#?}", report.faults);
    }
}
