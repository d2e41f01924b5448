//! grep tests: Rho's pinned case 49–61 in our wording, the
//! FORMAT.md §4.3 improvements, and handed cases B08, B19, B21, D08.

use super::scan::Found;
use super::*;
use crate::args::OutputMode;
use crate::error::{ErrorKind, ToolError};
use crate::search::testutil::{Ws, cancelled_token};
use crate::search::{MAX_GREP_FILE_BYTES, plural};
use hashedit_core::{Surface, UTF8_BOM};
use serde_json::json;
use std::time::Duration;

fn args(pattern: &str) -> GrepArgs {
    GrepArgs {
        pattern: pattern.into(),
        ..GrepArgs::default()
    }
}

fn tag(bytes: &[u8]) -> String {
    TagScheme::Rho.tag_of(bytes).to_string()
}

/// Runs grep with 1 and with 3 threads, checks both agree, returns one.
fn run_opts(ws: &Ws, target: &str, args: &GrepArgs, options: &SearchOptions) -> Outcome {
    let path = ws.path(target);
    let scope = ws.scope(&path, target);
    let one = SearchOptions {
        threads: Some(1),
        ..options.clone()
    };
    let many = SearchOptions {
        threads: Some(3),
        ..options.clone()
    };
    let a = grep_with(&scope, args, TagScheme::Rho, 64_000, &one).unwrap();
    let b = grep_with(&scope, args, TagScheme::Rho, 64_000, &many).unwrap();
    assert_eq!(a, b, "1-thread and 3-thread runs differ");
    a
}

fn run(ws: &Ws, target: &str, args: &GrepArgs) -> Outcome {
    run_opts(ws, target, args, &SearchOptions::default())
}

fn text(ws: &Ws, target: &str, args: &GrepArgs) -> String {
    run(ws, target, args).text
}

fn error(ws: &Ws, args: &GrepArgs) -> ToolError {
    let path = ws.path(".");
    grep(&ws.scope(&path, "."), args, TagScheme::Rho, 64_000).unwrap_err()
}

const RESULT_CAP: &str = "max_results reached; narrow the pattern, path or glob to see the rest";

#[test]
fn case49_max_per_file_hides_extra_hits() {
    let bytes = b"hit\nhit\nhit\n";
    let ws = Ws::new(&[("f.txt", bytes)]);
    let a = GrepArgs {
        max_per_file: Some(1),
        ..args("hit")
    };
    let out = run(&ws, ".", &a);
    assert_eq!(
        out.text,
        format!(
            "[f.txt#{}]\n1 | hit\n… +2 more matches in this file\n\n\
             1 match shown (3 total) in 1 file (1 file cut at max_per_file; raise max_per_file or narrow the pattern)",
            tag(bytes)
        )
    );
    assert_eq!(out.structured()["files_cut_by_max_per_file"], json!(1));
    assert_eq!(out.structured()["files"][0]["more"], json!(2));
    assert_eq!(out.structured()["stop"], json!(null));
}

#[test]
fn case50_max_results_caps_across_files() {
    let ws = Ws::new(&[("a.txt", b"needle\n"), ("b.txt", b"needle\n")]);
    let a = GrepArgs {
        max_results: Some(1),
        ..args("needle")
    };
    let out = run(&ws, ".", &a);
    assert_eq!(
        out.text,
        format!(
            "[a.txt#{}]\n1 | needle\n\n1 match in 1 file ({RESULT_CAP})",
            tag(b"needle\n")
        )
    );
    assert_eq!(out.structured()["stop"], json!("result_limit"));
}

#[test]
fn case50_max_results_splits_a_file_without_blaming_max_per_file() {
    let bytes = b"hit\nhit\nhit\n";
    let ws = Ws::new(&[("f.txt", bytes)]);
    let a = GrepArgs {
        max_results: Some(2),
        ..args("hit")
    };
    assert_eq!(
        text(&ws, ".", &a),
        format!(
            "[f.txt#{}]\n1 | hit\n2 | hit\n… +1 more match in this file\n\n\
             2 matches shown (at least 3 total) in 1 file ({RESULT_CAP})",
            tag(bytes)
        )
    );
}

#[test]
fn a_result_cap_hit_exactly_with_nothing_left_is_not_reported() {
    let ws = Ws::new(&[("f.txt", b"hit\nhit\n")]);
    let a = GrepArgs {
        max_results: Some(2),
        ..args("hit")
    };
    // Exactly at the cap with nothing left: no cap reason (beeai #1668).
    assert!(text(&ws, ".", &a).ends_with("\n\n2 matches in 1 file"));
    // 0 is clamped to 1.
    let zero = GrepArgs {
        max_results: Some(0),
        ..args("hit")
    };
    assert!(
        text(&ws, ".", &zero)
            .contains("1 | hit\n… +1 more match in this file\n\n1 match shown (at least 2 total)")
    );
}

#[test]
fn total_counts_only_files_visited_before_the_stop() {
    let ws = Ws::new(&[
        ("a.txt", b"x\nx\nx\n"),
        ("b.txt", b"x\nx\n"),
        ("c.txt", b"x\n"),
    ]);
    let a = GrepArgs {
        max_results: Some(4),
        max_per_file: Some(2),
        ..args("x")
    };
    let out = run(&ws, ".", &a);
    assert_eq!(
        out.text,
        format!(
            "[a.txt#{}]\n1 | x\n2 | x\n… +1 more match in this file\n[b.txt#{}]\n1 | x\n2 | x\n\n\
             4 matches shown (at least 5 total) in 2 files ({RESULT_CAP}; 1 file cut at max_per_file; raise max_per_file or narrow the pattern)",
            tag(b"x\nx\nx\n"),
            tag(b"x\nx\n")
        )
    );
    assert_eq!(out.structured()["total"], json!(5));
    assert_eq!(out.structured()["shown"], json!(4));
}

#[test]
fn case51_invalid_arguments_fail_before_io() {
    let ws = Ws::new(&[]);
    let err = error(&ws, &args("("));
    assert_eq!(err.kind, ErrorKind::InvalidArguments);
    assert!(
        err.message
            .starts_with("invalid pattern '(': regex parse error"),
        "{}",
        err.message
    );
    let bad_glob = GrepArgs {
        glob: Some("a[".into()),
        ..args("x")
    };
    let err = error(&ws, &bad_glob);
    assert_eq!(err.kind, ErrorKind::InvalidArguments);
    assert!(
        err.message.starts_with("invalid glob 'a[': "),
        "{}",
        err.message
    );
    // Even a target that does not exist gets the argument error first.
    let missing = ws.path("missing");
    let err = grep(
        &ws.scope(&missing, "missing"),
        &args("("),
        TagScheme::Rho,
        100,
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidArguments);
    // An unknown output mode is refused when the arguments are parsed.
    let err = serde_json::from_value::<GrepArgs>(json!({"pattern": "x", "output_mode": "nope"}))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown variant `nope`, expected one of `content`, `files_with_matches`, `count`"
    );
    assert_eq!(
        "nope".parse::<OutputMode>().unwrap_err().to_string(),
        "unknown output_mode 'nope': use content, files_with_matches or count"
    );
}

#[test]
fn case52_binary_and_oversized_files_are_skipped_and_counted() {
    let mut big = b"needle\n".to_vec();
    big.resize(MAX_GREP_FILE_BYTES as usize + 1, b'x');
    let ws = Ws::new(&[
        ("bin.dat", b"needle\0\n"),
        ("big.txt", &big),
        ("ok.txt", b"needle\n"),
    ]);
    let out = run(&ws, ".", &args("needle"));
    assert_eq!(
        out.text,
        format!(
            "[ok.txt#{}]\n1 | needle\n\n1 match in 1 file (2 files skipped: 1 binary, 1 over 5 MiB)",
            tag(b"needle\n")
        )
    );
    assert_eq!(
        out.structured()["skipped"],
        json!({"binary": 1, "not_utf8": 0, "too_large": 1, "unreadable": 0, "special": 0, "unreadable_dirs": 0, "ignored": 0})
    );
    // Named as the path, the same file is searched (code_puppy #903: it
    // was skipped as if it had no match).
    assert!(text(&ws, "big.txt", &args("needle")).starts_with("[big.txt#"));
    // Exactly 5 MiB is still searched.
    big.truncate(MAX_GREP_FILE_BYTES as usize);
    let ws = Ws::new(&[("big.txt", &big)]);
    assert!(text(&ws, ".", &args("needle")).starts_with("[big.txt#"));
}

#[test]
fn a_named_file_too_large_to_search_is_said_to_be_unsearched() {
    let mut big = b"needle\n".to_vec();
    big.resize(crate::search::MAX_NAMED_GREP_FILE_BYTES as usize + 1, b'x');
    let ws = Ws::new(&[("huge.txt", &big)]);
    assert_eq!(
        text(&ws, "huge.txt", &args("needle")),
        "huge.txt was not searched: it is over the 64 MiB grep reads of one file, so nothing is known \
         about its matches; read_file with offset/limit reads files of any size"
    );
}

#[test]
fn skipped_files_are_reported_even_without_hits() {
    let ws = Ws::new(&[
        ("latin1.txt", b"caf\xE9 needle\n"),
        ("nul.bin", b"\0needle"),
    ]);
    assert_eq!(
        text(&ws, ".", &args("needle")),
        "no matches for 'needle' under . (2 files skipped: 1 binary, 1 not UTF-8)"
    );
}

#[test]
fn case53_gitignore_and_hidden() {
    let ws = Ws::new(&[
        (".gitignore", b"ignored.txt\n"),
        ("ignored.txt", b"needle\n"),
        (".hidden/h.txt", b"needle\n"),
        ("shown.txt", b"needle\n"),
    ]);
    let a = GrepArgs {
        output_mode: Some(OutputMode::FilesWithMatches),
        ..args("needle")
    };
    assert_eq!(
        text(&ws, ".", &a),
        "shown.txt\n\n1 file (1 entry skipped by .gitignore/.ignore rules, which no_ignore lifts)"
    );
    let hidden = GrepArgs {
        include_hidden: Some(true),
        ..a
    };
    assert_eq!(
        text(&ws, ".", &hidden),
        ".hidden/h.txt\nshown.txt\n\n2 files (1 entry skipped by .gitignore/.ignore rules, which no_ignore lifts)"
    );
}

#[test]
fn case54_long_lines_are_cut_at_200_chars() {
    let line = "x".repeat(221);
    let ws = Ws::new(&[("long.txt", line.as_bytes())]);
    let out = text(&ws, ".", &args("x"));
    assert!(
        out.contains(&format!("\n1 | {}…\n", "x".repeat(200))),
        "{out}"
    );
    let crabs = "🦀".repeat(250);
    let ws = Ws::new(&[("crab.txt", crabs.as_bytes())]);
    let out = text(&ws, ".", &args("🦀"));
    assert!(out.contains(&format!("\n1 | {}…\n", "🦀".repeat(200))));
}

#[test]
fn case55_cancelled_search_says_so() {
    let ws = Ws::new(&[("a.txt", b"needle\n")]);
    let options = SearchOptions {
        cancel: Some(cancelled_token()),
        ..SearchOptions::default()
    };
    let out = run_opts(&ws, ".", &args("needle"), &options);
    assert_eq!(out.text, "no matches for 'needle' under . (cancelled)");
    assert_eq!(out.structured()["stop"], json!("cancelled"));
}

#[test]
fn case56_content_rows_keep_indentation_under_tag_headers() {
    let bytes = b"fn main() {\n    find me\n}\n";
    let ws = Ws::new(&[("src/lib.rs", bytes)]);
    assert_eq!(
        text(&ws, ".", &args("find me")),
        format!(
            "[src/lib.rs#{}]\n2 |     find me\n\n1 match in 1 file",
            tag(bytes)
        )
    );
}

#[test]
fn case57_headers_are_workspace_relative_under_a_narrowed_path() {
    let ws = Ws::new(&[
        ("src/nested.txt", b"needle\n"),
        ("src/deep/x.txt", b"needle\n"),
    ]);
    let a = GrepArgs {
        output_mode: Some(OutputMode::Count),
        ..args("needle")
    };
    assert_eq!(
        text(&ws, "src", &a),
        "src/deep/x.txt:1\nsrc/nested.txt:1\n\n2 matches in 2 files"
    );
    let out = text(&ws, "src", &args("needle"));
    assert!(out.contains("[src/nested.txt#"), "{out}");
    assert!(!out.contains("[nested.txt#"), "{out}");
}

#[test]
fn case61_walk_order_interleaves_files_and_directories() {
    let ws = Ws::new(&[
        ("top.rs", b"x\n"),
        ("src/nested/c.rs", b"x\n"),
        ("src/b.rs", b"x\n"),
        ("src/a.rs", b"x\n"),
    ]);
    let a = GrepArgs {
        output_mode: Some(OutputMode::FilesWithMatches),
        ..args("x")
    };
    assert_eq!(
        text(&ws, ".", &a),
        "src/a.rs\nsrc/b.rs\nsrc/nested/c.rs\ntop.rs\n\n4 files"
    );
}

#[test]
fn files_with_matches_and_count_modes() {
    let ws = Ws::new(&[
        ("a.txt", b"x\nx\ny\n"),
        ("b.txt", b"y\n"),
        ("c.txt", b"x\n"),
    ]);
    let fwm = GrepArgs {
        output_mode: Some(OutputMode::FilesWithMatches),
        ..args("x")
    };
    let out = run(&ws, ".", &fwm);
    assert_eq!(out.text, "a.txt\nc.txt\n\n2 files");
    assert_eq!(out.structured()["total"], json!(null));
    assert_eq!(out.structured()["files"][0]["count"], json!(null));
    assert_eq!(out.structured()["files"][0]["tag"], json!(null));
    let capped = GrepArgs {
        max_results: Some(1),
        ..fwm
    };
    assert_eq!(
        text(&ws, ".", &capped),
        format!("a.txt\n\n1 file ({RESULT_CAP})")
    );
    let count = GrepArgs {
        output_mode: Some(OutputMode::Count),
        ..args("x")
    };
    let out = run(&ws, ".", &count);
    assert_eq!(out.text, "a.txt:2\nc.txt:1\n\n3 matches in 2 files");
    assert_eq!(out.structured()["total"], json!(3));
    let one = GrepArgs {
        output_mode: Some(OutputMode::Count),
        ..args("y")
    };
    assert_eq!(
        text(&ws, ".", &one),
        "a.txt:1\nb.txt:1\n\n2 matches in 2 files"
    );
}

#[test]
fn no_hits_message() {
    let ws = Ws::new(&[("a.txt", b"alpha\n")]);
    assert_eq!(text(&ws, ".", &args("zzz")), "no matches for 'zzz' under .");
    assert_eq!(
        text(&ws, "a.txt", &args("zzz")),
        "no matches for 'zzz' under a.txt"
    );
}

#[test]
fn improvement_a_file_path_is_searched() {
    let bytes = b"one\ntwo needle\n";
    let ws = Ws::new(&[("src/a.rs", bytes), (".gitignore", b"src/a.rs\n")]);
    assert_eq!(
        text(&ws, "src/a.rs", &args("needle")),
        format!(
            "[src/a.rs#{}]\n2 | two needle\n\n1 match in 1 file",
            tag(bytes)
        )
    );
    // A glob filter sees the file's workspace-relative path.
    let rs = GrepArgs {
        glob: Some("*.rs".into()),
        ..args("needle")
    };
    assert!(text(&ws, "src/a.rs", &rs).starts_with("[src/a.rs#"));
    let txt = GrepArgs {
        glob: Some("*.txt".into()),
        ..args("needle")
    };
    assert_eq!(
        text(&ws, "src/a.rs", &txt),
        "no matches for 'needle' under src/a.rs"
    );
}

#[test]
fn glob_filter_uses_the_path_below_the_target() {
    let ws = Ws::new(&[
        ("src/a.rs", b"x\n"),
        ("src/a.txt", b"x\n"),
        ("src/d/b.rs", b"x\n"),
    ]);
    let a = GrepArgs {
        glob: Some("d/*.rs".into()),
        output_mode: Some(OutputMode::FilesWithMatches),
        ..args("x")
    };
    assert_eq!(text(&ws, "src", &a), "src/d/b.rs\n\n1 file");
    let not = GrepArgs {
        glob: Some("!*.rs".into()),
        output_mode: Some(OutputMode::FilesWithMatches),
        ..args("x")
    };
    assert_eq!(text(&ws, "src", &not), "src/a.txt\n\n1 file");
}

#[test]
fn handed_b08_crlf_file_gets_read_tag_and_clean_rows() {
    let bytes = b"alpha\r\nbeta\r\ngamma\r\n";
    let ws = Ws::new(&[("f.txt", bytes)]);
    let out = run(&ws, ".", &args("beta"));
    let t = TagScheme::Rho.tag_of(bytes);
    assert_eq!(
        out.text,
        format!("[f.txt#{t}]\n2 | beta\n\n1 match in 1 file")
    );
    assert_eq!(out.structured()["files"][0]["tag"], json!(t.to_string()));
    // The omp scheme mints omp tags.
    let path = ws.path(".");
    let omp = grep(&ws.scope(&path, "."), &args("beta"), TagScheme::Omp, 64_000).unwrap();
    assert!(
        omp.text
            .starts_with(&format!("[f.txt#{}]\n", TagScheme::Omp.tag_of(bytes)))
    );
}

#[cfg(unix)]
#[test]
fn handed_b19_symlinks_never_yield_hits() {
    let outside = Ws::new(&[
        ("hostname", b"host-secret\n"),
        ("dir/x.txt", b"host-secret\n"),
    ]);
    let ws = Ws::new(&[("real.txt", b"nothing\n")]);
    std::os::unix::fs::symlink(outside.path("hostname"), ws.path("leak")).unwrap();
    std::os::unix::fs::symlink(outside.path("dir"), ws.path("out")).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", ws.path("etc-leak")).unwrap();
    for hidden in [false, true] {
        let a = GrepArgs {
            include_hidden: Some(hidden),
            ..args("host")
        };
        assert_eq!(text(&ws, ".", &a), "no matches for 'host' under .");
    }
}

#[test]
fn handed_b21_d08_archives_and_utf16_are_skipped_without_headers() {
    let zip = b"PK\x03\x04\x14\x00\x00\x00\x08\x00PK rest";
    let utf16 = b"\xFF\xFEh\x00i\x00\n\x00";
    let ws = Ws::new(&[("s.ods", zip), ("w.txt", utf16)]);
    let out = run(&ws, ".", &args("PK"));
    assert_eq!(
        out.text,
        "no matches for 'PK' under . (2 files skipped: 1 binary, 1 not UTF-8)"
    );
    let out = run(&ws, ".", &args("h"));
    assert!(!out.text.contains('['), "{}", out.text);
    assert_eq!(out.structured()["skipped"]["binary"], json!(1));
    assert_eq!(out.structured()["skipped"]["not_utf8"], json!(1));
}

#[test]
fn bom_is_not_part_of_line_one() {
    let bytes = "\u{FEFF}hello\nworld hello\n".as_bytes();
    let ws = Ws::new(&[("b.txt", bytes)]);
    assert_eq!(
        text(&ws, ".", &args("^hello")),
        format!("[b.txt#{}]\n1 | hello\n\n1 match in 1 file", tag(bytes))
    );
}

#[test]
fn line_model_anchors_and_carriage_returns() {
    let ws = Ws::new(&[("top.rs", b"needle\r\nneedle  \r\nneedle")]);
    let out = text(&ws, ".", &args("^needle$"));
    assert!(
        out.contains("\n1 | needle\n3 | needle\n\n2 matches in 1 file"),
        "{out}"
    );
    // A bare CR is inside the line: `.` matches it, `^` does not follow it.
    let ws = Ws::new(&[("cr.txt", b"a\rb\n")]);
    assert!(text(&ws, ".", &args("a.b")).contains("1 | a\rb\n"));
    assert!(text(&ws, ".", &args("^b")).starts_with("no matches"));
    // Patterns never span lines.
    let ws = Ws::new(&[("two.txt", b"a\nb\n")]);
    for pattern in [r"a\nb", r"a\sb", r"a[\s\S]b", "(?s)a.b"] {
        assert!(
            text(&ws, ".", &args(pattern)).starts_with("no matches"),
            "{pattern}"
        );
    }
    assert!(text(&ws, ".", &args(r"a|\n")).contains("1 | a\n"));
}

#[test]
fn literal_and_case_options() {
    let ws = Ws::new(&[("a.txt", b"a.b\naxb\nA.B\n")]);
    let literal = GrepArgs {
        literal: Some(true),
        output_mode: Some(OutputMode::Count),
        ..args("a.b")
    };
    assert_eq!(text(&ws, ".", &literal), "a.txt:1\n\n1 match in 1 file");
    let loose = GrepArgs {
        case_sensitive: Some(false),
        ..literal
    };
    assert_eq!(text(&ws, ".", &loose), "a.txt:2\n\n2 matches in 1 file");
    let dollar = GrepArgs {
        literal: Some(true),
        ..args("$x")
    };
    let ws = Ws::new(&[("d.txt", b"cost $x\r\n")]);
    assert!(text(&ws, ".", &dollar).contains("1 | cost $x\n"));
}

#[test]
fn scan_and_time_limits_are_reported() {
    let ws = Ws::new(&[
        ("a.txt", b"needle\n"),
        ("b.txt", b"needle\n"),
        ("c.txt", b"needle\n"),
    ]);
    let small = SearchOptions {
        max_entries: 2,
        ..SearchOptions::default()
    };
    let out = run_opts(&ws, ".", &args("needle"), &small);
    assert!(
        out.text
            .ends_with("1 match in 1 file (walk stopped after 2 entries; search a narrower path)"),
        "{}",
        out.text
    );
    assert_eq!(out.structured()["stop"], json!("scan_limit"));
    let late = SearchOptions {
        time_limit: Duration::ZERO,
        ..SearchOptions::default()
    };
    let out = run_opts(&ws, ".", &args("needle"), &late);
    assert_eq!(
        out.text,
        "no matches for 'needle' under . (time limit of 0 s reached; search a narrower path)"
    );
}

#[test]
fn a_budget_too_small_for_the_summary_falls_back_to_the_last_resort_cut() {
    // Nothing fits, not even the summary: the last-resort cut applies.
    let ws = Ws::new(&[("a.txt", b"needle\n")]);
    let path = ws.path(".");
    let out = grep(&ws.scope(&path, "."), &args("needle"), TagScheme::Rho, 8).unwrap();
    assert_eq!(out.text, "1 match \n[truncated]");
    assert_eq!(out.structured()["shown"], json!(0));
    assert_eq!(out.structured()["files"], json!([]));
    assert_eq!(out.structured()["stop"], json!("output_budget"));
}

#[test]
fn structured_shape() {
    let bytes = b"x1\nx2\n";
    let ws = Ws::new(&[("a.txt", bytes)]);
    let out = run(&ws, ".", &args("x"));
    assert_eq!(
        out.structured(),
        json!({
            "mode": "content",
            "files": [{"path": "a.txt", "tag": tag(bytes), "count": 2,
                       "matches": [{"line": 1, "text": "x1"}, {"line": 2, "text": "x2"}], "more": 0}],
            "shown": 2, "total": 2, "files_matched": 1, "files_cut_by_max_per_file": 0,
            "skipped": {"binary": 0, "not_utf8": 0, "too_large": 0, "unreadable": 0,
                        "special": 0, "unreadable_dirs": 0, "ignored": 0},
            "stop": null,
        })
    );
}

/// The candidate engine plus exact confirmation gives the same lines as
/// checking every line exactly.
#[test]
fn candidate_search_agrees_with_exact_line_checks() {
    let files: &[&[u8]] = &[
        b"",
        b"\n",
        b"\n\n",
        b"a",
        b"a\n",
        b"a\r\n",
        b"a\r",
        b"a\r\r\nb\n",
        b"needle\r\nneedle  \r\nx needle\n",
        b"alpha\nbeta\r\ngamma\rdelta\n\nend",
        b"  indented\n\ttab\t\n",
        "\u{FEFF}bom\nline\n".as_bytes(),
        "é\nÉ\nß\n".as_bytes(),
    ];
    let patterns = [
        "",
        "a",
        "^a$",
        "a$",
        "^$",
        "^",
        "$",
        ".",
        "^.*$",
        r"\s$",
        r"\s",
        "[^a]$",
        "e.$",
        r"\bb",
        r"a\b",
        "(?i)É",
        "x|^$",
        r"\r",
        "a.b",
        r"\z",
        r"\Aa",
        "needle$",
        "(?m)^needle$",
        "t.$",
        r"[\r]",
        "^\t",
        "end$",
        "ß",
    ];
    for pattern in patterns {
        let request = Request::compile(&args(pattern), TagScheme::Rho, Surface::Mcp).unwrap();
        for &bytes in files {
            let body = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
            let mut exact = Found {
                exact: &request.exact,
                retain: 100,
                first_only: false,
                total: 0,
                lines: Vec::new(),
            };
            exact.every_line(body);
            let ws = Ws::new(&[("f.txt", bytes)]);
            let a = GrepArgs {
                max_per_file: Some(100),
                ..args(pattern)
            };
            let out = run(&ws, ".", &a);
            let got: Vec<u64> = out.structured()["files"]
                .get(0)
                .map(|f| {
                    f["matches"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| m["line"].as_u64().unwrap())
                        .collect()
                })
                .unwrap_or_default();
            let want: Vec<u64> = exact.lines.iter().map(|l| l.line).collect();
            assert_eq!(got, want, "pattern {pattern:?} on {bytes:?}");
            // And both agree with the line model's own splitter.
            let text = std::str::from_utf8(body).unwrap();
            let model: Vec<u64> = hashedit_core::stages::split_line_texts(text)
                .iter()
                .enumerate()
                .filter(|(_, l)| request.exact.is_match(l))
                .map(|(i, _)| i as u64 + 1)
                .collect();
            assert_eq!(want, model, "pattern {pattern:?} on {bytes:?}");
        }
    }
}

/// Parallel runs give byte-identical output to a 1-thread run, with caps
/// landing mid-way through the tree.
#[test]
fn parallel_output_is_deterministic() {
    let ws = Ws::new(&[]);
    for i in 0..300u32 {
        let dir = format!("d{}/s{}", i % 7, i % 3);
        let mut body = String::new();
        for line in 0..(i % 17) {
            if (i + line) % 4 == 0 {
                body.push_str(&format!("needle {i} {line}\n"));
            } else {
                body.push_str(&format!("hay {i} {line}\r\n"));
            }
        }
        ws.write(&format!("{dir}/f{i:03}.txt"), body.as_bytes());
        if i % 50 == 0 {
            ws.write(&format!("{dir}/bin{i}.dat"), b"needle\0");
            ws.write(&format!("{dir}/latin{i}.txt"), b"needle \xE9\n");
        }
    }
    let cases = [
        GrepArgs {
            max_results: Some(150),
            max_per_file: Some(2),
            ..args("needle")
        },
        GrepArgs {
            max_results: Some(1000),
            ..args("needle \\d+ [13]$")
        },
        GrepArgs {
            max_results: Some(37),
            output_mode: Some(OutputMode::FilesWithMatches),
            ..args("needle")
        },
        GrepArgs {
            output_mode: Some(OutputMode::Count),
            ..args("hay")
        },
        GrepArgs {
            glob: Some("d3/**".into()),
            ..args("needle")
        },
    ];
    let path = ws.path(".");
    let scope = ws.scope(&path, ".");
    for a in &cases {
        let single = SearchOptions {
            threads: Some(1),
            ..SearchOptions::default()
        };
        let base = grep_with(&scope, a, TagScheme::Rho, 1_000_000, &single).unwrap();
        assert!(base.text.lines().count() > 5, "{}", base.text);
        if matches!(a.max_results, Some(150 | 37)) {
            // The cap lands mid-way through the tree.
            assert_eq!(base.structured()["stop"], json!("result_limit"));
        }
        for threads in [2, 4, 8] {
            let options = SearchOptions {
                threads: Some(threads),
                ..SearchOptions::default()
            };
            for _ in 0..3 {
                let out = grep_with(&scope, a, TagScheme::Rho, 1_000_000, &options).unwrap();
                assert_eq!(out, base, "{threads} threads, args {a:?}");
            }
        }
    }
}

/// Runs grep with 1 and 3 threads under `budget`, checks both agree and
/// that the text fits, returns one.
fn run_budget(ws: &Ws, target: &str, args: &GrepArgs, budget: usize) -> Outcome {
    let path = ws.path(target);
    let scope = ws.scope(&path, target);
    let run = |threads| {
        let options = SearchOptions {
            threads: Some(threads),
            ..SearchOptions::default()
        };
        grep_with(&scope, args, TagScheme::Rho, budget, &options).unwrap()
    };
    let one = run(1);
    assert_eq!(one, run(3), "1-thread and 3-thread runs differ");
    assert!(one.text.len() <= budget, "{} > {budget}", one.text.len());
    one
}

const BUDGET_REASON: &str = "narrow the pattern, path or glob to see the rest";

/// Regression (tester report): with many hits the content-mode reply was
/// cut mid-row, the summary and its skip counts were lost, and
/// `structured.shown` counted rows the text did not hold.
#[test]
fn budget_stops_at_whole_rows_and_keeps_the_summary() {
    let ws = Ws::new(&[("bin.dat", b"1\0")]);
    let mut numbers = String::new();
    for n in 1..=20_000 {
        numbers.push_str(&format!("{n}\n"));
    }
    for f in 0..12 {
        ws.write(&format!("s{f:02}.txt"), numbers.as_bytes());
    }
    let a = GrepArgs {
        max_results: Some(1000),
        max_per_file: Some(100),
        ..args("1")
    };
    for budget in [2000, 4321, 8000] {
        let out = run_budget(&ws, ".", &a, budget);
        let (body, summary) = out.text.rsplit_once("\n\n").unwrap();
        assert!(
            summary.contains(&format!(
                " (output budget of {budget} bytes reached; {BUDGET_REASON}; "
            )),
            "{summary}"
        );
        assert!(
            summary.ends_with("; 1 file skipped: 1 binary)"),
            "{summary}"
        );
        // Every line is a whole header, row or `… more` line.
        let (mut headers, mut rows, mut more) = (0usize, 0usize, 0usize);
        for line in body.lines() {
            if line.starts_with("[s") && line.ends_with(']') {
                headers += 1;
            } else if let Some((n, text)) = line.split_once(" | ") {
                assert_eq!(n.parse::<usize>().unwrap().to_string(), text, "{line}");
                rows += 1;
            } else {
                assert!(
                    line.starts_with("… +") && line.ends_with(" in this file"),
                    "{line}"
                );
                more += 1;
            }
        }
        assert_eq!(more, headers, "each file shown has more matches");
        let s = &out.structured();
        assert_eq!(s["shown"], json!(rows));
        assert_eq!(s["files_matched"], json!(headers));
        assert_eq!(s["files"].as_array().unwrap().len(), headers);
        let listed: usize = s["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["matches"].as_array().unwrap().len())
            .sum();
        assert_eq!(listed, rows);
        // 13,439 lines of 1..=20,000 hold a "1"; totals cover files shown.
        assert_eq!(s["total"], json!(13_439 * headers));
        assert_eq!(s["stop"], json!("output_budget"));
        assert_eq!(s["skipped"]["binary"], json!(1));
        let counts = if rows == 13_439 * headers {
            format!("{rows} matches in {headers} file")
        } else {
            format!(
                "{rows} matches shown ({} total) in {}",
                13_439 * headers,
                plural(headers, "file", "files")
            )
        };
        assert!(summary.starts_with(&counts), "{summary} / {counts}");
        // The result cap is not blamed: the budget bound first.
        assert!(!summary.contains("max_results"), "{summary}");
        // Files cut by max_per_file are only those shown in full.
        let full = s["files"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["matches"].as_array().unwrap().len() == 100)
            .count();
        assert_eq!(s["files_cut_by_max_per_file"], json!(full));
    }
}

#[test]
fn budget_cut_exact_text() {
    let row = format!("x{}", "y".repeat(59));
    let bytes = format!("{row}\n{row}\n{row}\n");
    let long = format!("{}\n", "x".repeat(300));
    let ws = Ws::new(&[("a.txt", bytes.as_bytes()), ("b.txt", long.as_bytes())]);
    let t = tag(bytes.as_bytes());
    let full = format!(
        "[a.txt#{t}]\n1 | {row}\n2 | {row}\n3 | {row}\n[b.txt#{}]\n1 | {}…\n\n4 matches in 2 files",
        tag(long.as_bytes()),
        "x".repeat(200)
    );
    assert_eq!(run_budget(&ws, ".", &args("x"), full.len()).text, full);
    // Below that, the longest prefix of rows that fits with the closing
    // `… more` line and the summary naming the budget.
    let cut = |budget: usize, k: usize| {
        let reason = format!("output budget of {budget} bytes reached; {BUDGET_REASON}");
        match k {
            0 => format!("4 matches in 2 files found, none shown ({reason})"),
            1 => format!(
                "[a.txt#{t}]\n1 | {row}\n… +2 more matches in this file\n\n\
                 1 match shown (3 total) in 1 file ({reason})"
            ),
            2 => format!(
                "[a.txt#{t}]\n1 | {row}\n2 | {row}\n… +1 more match in this file\n\n\
                 2 matches shown (3 total) in 1 file ({reason})"
            ),
            _ => format!(
                "[a.txt#{t}]\n1 | {row}\n2 | {row}\n3 | {row}\n\n3 matches in 1 file ({reason})"
            ),
        }
    };
    let mut seen = std::collections::BTreeSet::new();
    for budget in (cut(100, 0).len()..full.len()).rev() {
        let expected = (0..=3)
            .rev()
            .map(|k| cut(budget, k))
            .find(|text| text.len() <= budget)
            .unwrap();
        let out = run_budget(&ws, ".", &args("x"), budget);
        assert_eq!(out.text, expected, "budget {budget}");
        let shown = out.structured()["shown"].as_u64().unwrap();
        seen.insert(shown);
        assert_eq!(out.structured()["stop"], json!("output_budget"));
        assert_eq!(
            out.structured()["files_matched"],
            json!(u64::from(shown > 0))
        );
        if shown > 0 {
            assert_eq!(out.structured()["total"], json!(3));
            assert_eq!(out.structured()["files"][0]["more"], json!(3 - shown));
        }
    }
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), [0, 1, 2, 3]);
}

#[test]
fn budget_applies_per_file_in_the_other_modes() {
    let names: Vec<String> = (0..10)
        .map(|i| format!("long-file-name-{i:02}.txt"))
        .collect();
    let ws = Ws::new(&[]);
    for name in &names {
        ws.write(name, b"x\nx\n");
    }
    let modes = [
        (OutputMode::FilesWithMatches, "", "{k} files"),
        (OutputMode::Count, ":2", "{2k} matches in {k} files"),
    ];
    for (mode, suffix, counts) in modes {
        let a = GrepArgs {
            output_mode: Some(mode),
            ..args("x")
        };
        let listing = |budget: usize, k: usize| {
            let counts = counts
                .replace("{2k}", &(2 * k).to_string())
                .replace("{k}", &k.to_string())
                .replace("1 files", "1 file");
            let rows: String = names[..k]
                .iter()
                .map(|n| format!("{n}{suffix}\n"))
                .collect();
            let sep = if k > 0 { "\n" } else { "" };
            format!(
                "{rows}{sep}{counts} (output budget of {budget} bytes reached; {BUDGET_REASON})"
            )
        };
        for budget in [140, 180, 228] {
            let expected = (0..10)
                .rev()
                .map(|k| listing(budget, k))
                .find(|text| text.len() <= budget)
                .unwrap();
            let out = run_budget(&ws, ".", &a, budget);
            assert_eq!(out.text, expected, "{mode:?} {budget}");
            let k = out.structured()["files_matched"].as_u64().unwrap();
            assert!((1..10).contains(&k), "{budget}");
            assert_eq!(out.structured()["shown"], json!(k));
            assert_eq!(
                out.structured()["files"].as_array().unwrap().len() as u64,
                k
            );
            if mode == OutputMode::Count {
                assert_eq!(out.structured()["total"], json!(2 * k));
            }
        }
    }
}

#[test]
fn budget_keeps_walk_stops_but_replaces_the_result_cap() {
    let ws = Ws::new(&[]);
    for i in 0..10 {
        ws.write(&format!("{}-{i}.txt", "n".repeat(28)), b"x\n");
    }
    let fwm = GrepArgs {
        output_mode: Some(OutputMode::FilesWithMatches),
        ..args("x")
    };
    let capped = GrepArgs {
        max_results: Some(8),
        ..fwm.clone()
    };
    let out = run_budget(&ws, ".", &capped, 250);
    let summary = out.text.rsplit_once("\n\n").unwrap().1;
    assert_eq!(
        summary,
        format!("4 files (output budget of 250 bytes reached; {BUDGET_REASON})")
    );
    assert_eq!(out.structured()["stop"], json!("output_budget"));
    // Without the budget the cap is reported as before.
    let out = run_budget(&ws, ".", &capped, 64_000);
    assert!(
        out.text.ends_with(&format!("8 files ({RESULT_CAP})")),
        "{}",
        out.text
    );
    // The walk's own limits are still reported after the budget.
    let small = SearchOptions {
        max_entries: 8,
        ..SearchOptions::default()
    };
    let path = ws.path(".");
    let out = grep_with(&ws.scope(&path, "."), &fwm, TagScheme::Rho, 250, &small).unwrap();
    let summary = out.text.rsplit_once("\n\n").unwrap().1;
    assert_eq!(
        summary,
        format!(
            "2 files (output budget of 250 bytes reached; {BUDGET_REASON}; \
             walk stopped after 8 entries; search a narrower path)"
        )
    );
    assert!(out.text.len() <= 250);
    assert_eq!(out.structured()["stop"], json!("output_budget"));
}

/// Regression (tester report): a FIFO named as the path gave a clean
/// "no matches" (it must be refused without blocking), and special files
/// in a walk were dropped silently.
#[cfg(unix)]
#[test]
fn special_files_are_refused_as_targets_and_counted_in_walks() {
    use rustix::fs::{CWD, Mode, mkfifoat};
    let ws = Ws::new(&[("a.txt", b"x\n")]);
    mkfifoat(CWD, ws.path("p"), Mode::RUSR | Mode::WUSR).unwrap();
    mkfifoat(CWD, ws.path("q.log"), Mode::RUSR | Mode::WUSR).unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(ws.path("s.sock")).unwrap();
    let path = ws.path("p");
    let err = grep(&ws.scope(&path, "p"), &args("x"), TagScheme::Rho, 64_000).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotARegularFile);
    assert_eq!(
        err.message,
        "p is a FIFO (named pipe), not a regular file; only regular files can be read or edited"
    );
    // Arguments are still checked first.
    let err = grep(&ws.scope(&path, "p"), &args("("), TagScheme::Rho, 64_000).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidArguments);

    let out = run(&ws, ".", &args("x"));
    assert_eq!(
        out.text,
        format!(
            "[a.txt#{}]\n1 | x\n\n1 match in 1 file (3 files skipped: 3 special (FIFO, socket or device))",
            tag(b"x\n")
        )
    );
    assert_eq!(out.structured()["skipped"]["special"], json!(3));
    // Only the ones the glob filter selects are counted.
    let logs = GrepArgs {
        glob: Some("*.log".into()),
        ..args("x")
    };
    assert_eq!(
        text(&ws, ".", &logs),
        "no matches for 'x' under . (1 file skipped: 1 special (FIFO, socket or device))"
    );
}

#[test]
fn unreadable_directories_are_not_called_files() {
    // Tests run as root, which reads any directory, so the walk's report
    // is fed to the collector directly.
    let request = Request::compile(&args("x"), TagScheme::Rho, Surface::Mcp).unwrap();
    let mut collector = Collector::new(&request, ".", ".");
    for skip in [
        Skip::UnreadableDir,
        Skip::UnreadableDir,
        Skip::Unreadable,
        unreadable(true),
    ] {
        let _ = collector.take("", Scan::Skipped(skip));
    }
    let limits = Limits::start(&SearchOptions::default());
    let answer = Answer {
        collector: &collector,
        stop: None,
        limits: &limits,
        budget: 64_000,
    };
    let view = answer.fit();
    assert_eq!(
        answer.render(&view),
        "no matches for 'x' under . (1 file skipped: 1 unreadable; 3 unreadable directories skipped)"
    );
    assert_eq!(
        serde_json::to_value(answer.facts(&view)).unwrap()["skipped"]["unreadable_dirs"],
        json!(3)
    );
}

/// Regression (tester report): names with control characters are printed
/// quoted, the same way `read_file` prints them; the quoted spelling is
/// what `Workspace::resolve` reads back (tested there and end to end).
#[test]
fn quoted_names_use_the_shared_display_spelling() {
    let ws = Ws::new(&[
        ("tab\tx.txt", b"x\n"),
        ("new\nline.txt", b"x\n"),
        ("\"q\"", b"x\n"),
    ]);
    let out = run(&ws, ".", &args("x"));
    let t = tag(b"x\n");
    assert_eq!(
        out.text,
        format!(
            "[\"\\\"q\\\"\"#{t}]\n1 | x\n[\"new\\nline.txt\"#{t}]\n1 | x\n[\"tab\\tx.txt\"#{t}]\n1 | x\n\n3 matches in 3 files"
        )
    );
    assert_eq!(out.structured()["files"][1]["path"], json!("new\nline.txt"));
    // Under a quoted directory the unquoted path is joined, then quoted.
    ws.write("d\tir/a.rs", b"x\n");
    let path = ws.path("d\tir");
    let fwm = GrepArgs {
        output_mode: Some(OutputMode::FilesWithMatches),
        glob: Some("*.rs".into()),
        ..args("x")
    };
    let out = grep(&ws.scope(&path, "\"d\\tir\""), &fwm, TagScheme::Rho, 64_000).unwrap();
    assert_eq!(out.text, "\"d\\tir/a.rs\"\n\n1 file");
    let none = grep(
        &ws.scope(&path, "\"d\\tir\""),
        &args("zzz"),
        TagScheme::Rho,
        64_000,
    )
    .unwrap();
    assert_eq!(none.text, "no matches for 'zzz' under \"d\\tir\"");
}

#[test]
fn context_rows_are_read_rows_around_the_match_rows() {
    let ws = Ws::new(&[("f.txt", b"1\n2\nhit\n4\n5\n6\nhit\nhit\n9\n")]);
    let a = GrepArgs {
        context: crate::args::ContextLines {
            before: 1,
            after: 1,
        },
        ..args("hit")
    };
    assert_eq!(
        text(&ws, ".", &a),
        format!(
            "[f.txt#{}]\n2:2\n3 | hit\n4:4\n6:6\n7 | hit\n8 | hit\n9:9\n\n3 matches in 1 file",
            tag(b"1\n2\nhit\n4\n5\n6\nhit\nhit\n9\n")
        )
    );
}

#[test]
fn repeated_globs_and_negations_filter_together() {
    let ws = Ws::new(&[
        ("a.rs", b"x\n"),
        ("a_test.rs", b"x\n"),
        ("b.py", b"x\n"),
        ("c.md", b"x\n"),
    ]);
    let a = GrepArgs {
        glob: Some("*.rs".into()),
        more_globs: vec!["*.py".into(), "!*_test.rs".into()],
        output_mode: Some(OutputMode::FilesWithMatches),
        ..args("x")
    };
    assert_eq!(text(&ws, ".", &a), "a.rs\nb.py\n\n2 files");
}

#[test]
fn no_ignore_searches_ignored_files_and_the_summary_counts_them() {
    let ws = Ws::new(&[
        (".gitignore", b"*.log\ntarget/\n"),
        ("a.log", b"x\n"),
        ("target/b.txt", b"x\n"),
        ("c.txt", b"x\n"),
    ]);
    let a = GrepArgs {
        output_mode: Some(OutputMode::FilesWithMatches),
        ..args("x")
    };
    assert_eq!(
        text(&ws, ".", &a),
        "c.txt\n\n1 file (2 entries skipped by .gitignore/.ignore rules, which no_ignore lifts)"
    );
    let all = GrepArgs {
        no_ignore: Some(true),
        ..a
    };
    assert_eq!(
        text(&ws, ".", &all),
        "a.log\nc.txt\ntarget/b.txt\n\n3 files"
    );
}

#[test]
fn a_pattern_in_another_dialect_gets_a_note() {
    // oh-my-pi PR #4543.
    let ws = Ws::new(&[("f.txt", b"json\ntool\n")]);
    assert_eq!(
        text(&ws, ".", &args("json\\|tool")),
        "no matches for 'json\\|tool' under .\nnote: in this regex syntax (Rust's) \\| matches a literal \
         '|', not alternation as in grep's basic syntax; for alternation write 'json|tool', or set \
         literal for the text as written"
    );
    let out = text(&ws, ".", &args("json || tool"));
    assert!(
        out.ends_with(
            "\n\n2 matches in 1 file\nnote: 'json || tool' has an empty alternative (as in '||' or a leading \
             or trailing '|'), which matches the empty string and so every line; write 'json | tool' for \
             either side as written, or 'json|tool' for either side without the spaces (a logical or), or \
             set literal to search for the text as written"
        ),
        "{out}"
    );
}

#[test]
fn a_glob_naming_an_ignored_or_hidden_directory_searches_it() {
    // claude-code #84161, opencode #45911.
    let ws = Ws::new(&[
        (".gitignore", b"build/\n"),
        ("build/out.js", b"x\n"),
        (".github/workflows/ci.yml", b"x\n"),
        ("src/a.js", b"x\n"),
    ]);
    let files = |glob: &str| GrepArgs {
        glob: Some(glob.into()),
        output_mode: Some(OutputMode::FilesWithMatches),
        ..args("x")
    };
    assert_eq!(text(&ws, ".", &files("build/**")), "build/out.js\n\n1 file");
    assert_eq!(
        text(&ws, ".", &files(".github/**/*.yml")),
        ".github/workflows/ci.yml\n\n1 file"
    );
    assert_eq!(
        text(&ws, ".", &files("*.js")),
        "src/a.js\n\n1 file (1 entry skipped by .gitignore/.ignore rules, which no_ignore lifts)"
    );
}

#[test]
fn an_excluded_directory_is_not_searched() {
    let ws = Ws::new(&[
        ("src/a.rs", b"x\n"),
        ("node_modules/m/i.js", b"x\n"),
        ("b.txt", b"x\n"),
    ]);
    let not = GrepArgs {
        glob: Some("!node_modules".into()),
        output_mode: Some(OutputMode::FilesWithMatches),
        ..args("x")
    };
    assert_eq!(text(&ws, ".", &not), "b.txt\nsrc/a.rs\n\n2 files");
}

#[test]
fn a_pattern_with_a_line_break_is_named_as_never_matching() {
    let ws = Ws::new(&[("f.txt", b"json\ntool\n")]);
    let note = "note: the pattern holds a line break, and grep matches one line at a time, so it can \
                never match; search for one line of it";
    assert_eq!(
        text(&ws, ".", &args("json\ntool")),
        format!("no matches for 'json\ntool' under .\n{note}")
    );
    let literal = GrepArgs {
        literal: Some(true),
        ..args("json\ntool")
    };
    assert_eq!(
        text(&ws, ".", &literal),
        format!("no matches for 'json\ntool' under .\n{note}")
    );
}

#[test]
fn one_huge_context_row_is_elided_and_the_match_is_shown() {
    // Break-it pass: a 200,000-byte context line hid the only match
    // behind "1 match in 1 file found, none shown".
    let content = format!("short\n{}\nEND\n", "x".repeat(200_000));
    let ws = Ws::new(&[("huge.txt", content.as_bytes())]);
    let t = tag(content.as_bytes());
    let grep = GrepArgs {
        context: crate::args::ContextLines {
            before: 1,
            after: 1,
        },
        ..args("END")
    };
    assert_eq!(
        text(&ws, "huge.txt", &grep),
        format!(
            "[huge.txt#{t}]\n[line 2 not shown: 200000 bytes long; read_file with offset: 2, limit: 1 \
             shows it only under an output budget of at least 200179 bytes, more than this one of 64000 \
             (the server's --max-output-bytes); grep for the part you need]\n3 | END\n\n1 match in 1 file"
        )
    );
    // Under a budget that holds it, the read alone is the advice.
    let out = run_budget(&ws, "huge.txt", &grep, 300_000);
    assert_eq!(
        out.text,
        format!(
            "[huge.txt#{t}]\n[line 2 not shown: 200000 bytes long; read_file with offset: 2, limit: 1 \
             shows it]\n3 | END\n\n1 match in 1 file"
        )
    );
}

#[test]
fn a_named_binary_file_is_reported_as_binary_not_as_without_matches() {
    // Break-it pass: "no matches for 'bin' under bin.dat (1 file
    // skipped: 1 binary)".
    let ws = Ws::new(&[("bin.dat", b"bin\0dat"), ("a.txt", b"x\n")]);
    assert_eq!(
        text(&ws, "bin.dat", &args("bin")),
        "bin.dat is binary (a NUL byte at offset 3); not searched"
    );
    // A walk still counts it among the skipped.
    assert_eq!(
        text(&ws, ".", &args("bin")),
        "no matches for 'bin' under . (1 file skipped: 1 binary)"
    );
}
