use super::*;
use crate::search::testutil::{Ws, cancelled_token};
use serde_json::json;
use std::time::Duration;

fn args(pattern: &str) -> GlobArgs {
    GlobArgs {
        pattern: pattern.into(),
        ..GlobArgs::default()
    }
}

fn run(ws: &Ws, target: &str, args: &GlobArgs) -> Outcome {
    let path = ws.path(target);
    glob(&ws.scope(&path, target), args, 64_000).unwrap()
}

#[test]
fn path_glob_rules() {
    let g = PathGlob::compile("*.rs").unwrap();
    assert!(g.matches("a.rs") && g.matches("src/deep/a.rs"));
    assert!(!g.matches("a.rsx"));
    let g = PathGlob::compile("src/*.rs").unwrap();
    assert!(g.matches("src/a.rs"));
    assert!(!g.matches("src/deep/a.rs"));
    let g = PathGlob::compile("src/**/*.rs").unwrap();
    assert!(g.matches("src/deep/a.rs") && g.matches("src/a.rs"));
    let g = PathGlob::compile("!*_test.rs").unwrap();
    assert!(g.matches("a.rs") && !g.matches("x/a_test.rs"));
}

#[test]
fn an_excluding_glob_drops_what_is_under_a_directory_it_names() {
    let g = PathGlob::compile("!src").unwrap();
    assert!(!g.matches("src") && !g.matches("src/a.rs") && !g.matches("src/deep/a.rs"));
    assert!(!g.matches("lib/src/a.rs"));
    assert!(g.matches("srcs/a.rs") && g.matches("a/my-src/b.rs") && g.matches("README.md"));
    let g = PathGlob::compile("!vendor/*").unwrap();
    assert!(!g.matches("vendor/x/y.rs") && g.matches("a/vendor/x.rs"));
}

#[test]
fn ignored_and_hidden_are_excluded_by_default() {
    // Rho's pinned case 59 (first half).
    let ws = Ws::new(&[
        (".gitignore", b"ignored.rs\n"),
        ("ignored.rs", b""),
        (".hidden.rs", b""),
        ("kept.rs", b""),
    ]);
    let out = run(&ws, ".", &args("*.rs"));
    assert_eq!(
        out.text,
        "kept.rs\n\n1 file (1 hidden entry not shown, which include_hidden=true shows; 1 entry skipped by \
         .gitignore/.ignore rules, which no_ignore lifts)"
    );
    assert_eq!(out.structured()["paths"], json!(["kept.rs"]));
    assert_eq!(out.structured()["stop"], json!(null));
    let hidden = GlobArgs {
        include_hidden: Some(true),
        ..args("*.rs")
    };
    assert_eq!(
        run(&ws, ".", &hidden).text,
        ".hidden.rs\nkept.rs\n\n2 files (1 entry skipped by .gitignore/.ignore rules, which no_ignore lifts)"
    );
    let everything = GlobArgs {
        include_hidden: Some(true),
        no_ignore: Some(true),
        ..args("*.rs")
    };
    assert_eq!(
        run(&ws, ".", &everything).text,
        ".hidden.rs\nignored.rs\nkept.rs\n\n3 files"
    );
}

#[test]
fn a_pattern_naming_hidden_or_ignored_directories_finds_what_is_there() {
    // opencode #45911, #32669; claude-code #84161.
    let ws = Ws::new(&[
        (".gitignore", b"build/\n"),
        (".github/workflows/ci.yml", b""),
        (".github/workflows/notes.md", b""),
        (".eslintrc.json", b""),
        ("sub/.eslintrc.json", b""),
        (".env", b""),
        ("build/out.js", b""),
        ("build/deep/more.js", b""),
        ("src/a.js", b""),
    ]);
    assert_eq!(
        run(&ws, ".", &args(".github/workflows/*.yml")).text,
        ".github/workflows/ci.yml\n\n1 file"
    );
    assert_eq!(
        run(&ws, ".", &args(".eslintrc.json")).text,
        ".eslintrc.json\nsub/.eslintrc.json\n\n2 files (1 entry skipped by .gitignore/.ignore rules, which no_ignore lifts)"
    );
    assert_eq!(
        run(&ws, ".", &args("build/**/*.js")).text,
        "build/deep/more.js\nbuild/out.js\n\n2 files"
    );
    // Not named: still skipped, and counted.
    assert_eq!(
        run(&ws, ".", &args("*.js")).text,
        "src/a.js\n\n1 file (1 entry skipped by .gitignore/.ignore rules, which no_ignore lifts)"
    );
}

#[test]
fn max_results_takes_the_first_paths_in_walk_order() {
    // Rho's pinned case 59 (second half).
    let ws = Ws::new(&[("a.rs", b""), ("b.rs", b""), ("c.rs", b"")]);
    let capped = GlobArgs {
        max_results: Some(2),
        ..args("*.rs")
    };
    let out = run(&ws, ".", &capped);
    assert_eq!(
        out.text,
        "a.rs\nb.rs\n\n2 files (max_results reached; narrow the pattern or path to see the rest)"
    );
    assert_eq!(out.structured()["stop"], json!("result_limit"));
    // Exactly at the cap with nothing left: no "reached … the rest", as
    // there is no rest (beeai #1668).
    let ws = Ws::new(&[("a.rs", b""), ("b.rs", b"")]);
    let exact = run(&ws, ".", &capped);
    assert_eq!(exact.text, "a.rs\nb.rs\n\n2 files");
    assert_eq!(exact.structured()["stop"], json!(null));
    let zero = GlobArgs {
        max_results: Some(0),
        ..args("*.rs")
    };
    assert!(run(&ws, ".", &zero).text.starts_with("a.rs\n\n1 file ("));
}

#[test]
fn paths_are_workspace_relative_under_a_narrowed_path() {
    // Improvement over Rho (FORMAT.md §4.3): same root as grep.
    let ws = Ws::new(&[("src/a.rs", b""), ("src/nested/c.rs", b""), ("top.rs", b"")]);
    assert_eq!(
        run(&ws, "src", &args("*.rs")).text,
        "src/a.rs\nsrc/nested/c.rs\n\n2 files"
    );
    assert_eq!(
        run(&ws, "src", &args("nested/*.rs")).text,
        "src/nested/c.rs\n\n1 file"
    );
}

#[test]
fn a_file_target_is_matched_alone() {
    let ws = Ws::new(&[("src/a.rs", b""), ("src/b.txt", b"")]);
    assert_eq!(
        run(&ws, "src/a.rs", &args("*.rs")).text,
        "src/a.rs\n\n1 file"
    );
    assert_eq!(
        run(&ws, "src/b.txt", &args("*.rs")).text,
        "no files matching '*.rs' under src/b.txt"
    );
}

#[test]
fn no_match_and_each_stop_reason() {
    // Rho's pinned case 55 and 60.
    let ws = Ws::new(&[("a.txt", b""), ("b.txt", b""), ("c.txt", b"")]);
    assert_eq!(
        run(&ws, ".", &args("*.rs")).text,
        "no files matching '*.rs' under ."
    );

    let path = ws.path(".");
    let scope = ws.scope(&path, ".");
    let cancelled = SearchOptions {
        cancel: Some(cancelled_token()),
        ..SearchOptions::default()
    };
    let out = glob_with(&scope, &args("*.rs"), 64_000, &cancelled).unwrap();
    assert_eq!(out.text, "no files matching '*.rs' under . (cancelled)");
    assert_eq!(out.structured()["stop"], json!("cancelled"));

    let late = SearchOptions {
        time_limit: Duration::ZERO,
        ..SearchOptions::default()
    };
    let out = glob_with(&scope, &args("*.rs"), 64_000, &late).unwrap();
    assert_eq!(
        out.text,
        "no files matching '*.rs' under . (time limit of 0 s reached; search a narrower path)"
    );

    let small = SearchOptions {
        max_entries: 2,
        ..SearchOptions::default()
    };
    let out = glob_with(&scope, &args("*.txt"), 64_000, &small).unwrap();
    assert_eq!(
        out.text,
        "a.txt\n\n1 file (walk stopped after 2 entries; search a narrower path)"
    );
    assert_eq!(out.structured()["stop"], json!("scan_limit"));
}

#[test]
fn invalid_glob_names_the_pattern() {
    // Rho's pinned case 60.
    let ws = Ws::new(&[]);
    let path = ws.path(".");
    let err = glob(&ws.scope(&path, "."), &args("a["), 64_000).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidArguments);
    assert!(
        err.message.starts_with("invalid glob 'a[': "),
        "{}",
        err.message
    );
    assert!(!err.message.contains("**/"), "{}", err.message);
    let err = glob(&ws.scope(&path, "."), &args("!"), 64_000).unwrap_err();
    assert!(err.message.starts_with("invalid glob '!': "));
}

/// Regression (tester report): the listing was cut mid-path and lost
/// its summary.
#[test]
fn budget_stops_at_whole_paths_and_keeps_the_summary() {
    let ws = Ws::new(&[]);
    let names: Vec<String> = (0..10)
        .map(|i| format!("dir/long-name-{i:02}.rs"))
        .collect();
    for name in &names {
        ws.write(name, b"");
    }
    let full = format!("{}\n\n10 files", names.join("\n"));
    let path = ws.path(".");
    let scope = ws.scope(&path, ".");
    assert_eq!(glob(&scope, &args("*.rs"), full.len()).unwrap().text, full);
    let listing = |budget: usize, k: usize| {
        let rows: String = names[..k].iter().map(|n| format!("{n}\n")).collect();
        let sep = if k > 0 { "\n" } else { "" };
        let count = if k == 0 {
            "10 files found, none shown".to_string()
        } else {
            plural(k, "file", "files")
        };
        format!(
            "{rows}{sep}{count} (output budget of {budget} bytes reached; narrow the pattern or path to see the rest)"
        )
    };
    for budget in listing(100, 0).len()..full.len() {
        let expected = (0..10)
            .rev()
            .map(|k| listing(budget, k))
            .find(|text| text.len() <= budget)
            .unwrap();
        let out = glob(&scope, &args("*.rs"), budget).unwrap();
        assert_eq!(out.text, expected, "budget {budget}");
        let count = out.structured()["count"].as_u64().unwrap() as usize;
        assert_eq!(out.structured()["paths"], json!(names[..count]));
        assert_eq!(out.structured()["stop"], json!("output_budget"));
    }
    // The result cap gives way to the budget, which bound first.
    let capped = GlobArgs {
        max_results: Some(5),
        ..args("*.rs")
    };
    let out = glob(&scope, &capped, 150).unwrap();
    assert!(!out.text.contains("max_results"), "{}", out.text);
    // A budget too small for the summary line: the last-resort cut.
    let out = glob(&scope, &args("*.rs"), 5).unwrap();
    assert_eq!(out.text, "10 fi\n[truncated]");
}

/// Regression (tester report): a FIFO named as the path gave a clean
/// "no files matching"; it is refused without being opened, and special
/// files that match are reported rather than dropped.
#[cfg(unix)]
#[test]
fn special_files_are_refused_as_targets_and_reported_in_walks() {
    use rustix::fs::{CWD, Mode, mkfifoat};
    let ws = Ws::new(&[("a.rs", b"")]);
    mkfifoat(CWD, ws.path("p"), Mode::RUSR | Mode::WUSR).unwrap();
    mkfifoat(CWD, ws.path("fifo.rs"), Mode::RUSR | Mode::WUSR).unwrap();
    let path = ws.path("p");
    let err = glob(&ws.scope(&path, "p"), &args("*"), 64_000).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotARegularFile);
    assert!(
        err.message.starts_with("p is a FIFO (named pipe)"),
        "{}",
        err.message
    );
    let out = run(&ws, ".", &args("*.rs"));
    assert_eq!(
        out.text,
        "a.rs\n\n1 file (1 special file not listed (FIFO, socket or device))"
    );
    assert_eq!(
        out.structured()["skipped"],
        json!({"special": 1, "symlinks": 0, "hidden": 0, "unreadable_dirs": 0, "unreadable": 0, "ignored": 0})
    );
    // Special files the pattern does not select are not mentioned.
    assert_eq!(run(&ws, ".", &args("a.*")).text, "a.rs\n\n1 file");
}

#[test]
fn names_with_control_characters_are_quoted_like_read_file_headers() {
    let ws = Ws::new(&[
        ("tab\tx.txt", b""),
        ("new\nline.txt", b""),
        ("plain.txt", b""),
    ]);
    let out = run(&ws, ".", &args("*.txt"));
    assert_eq!(
        out.text,
        "\"new\\nline.txt\"\nplain.txt\n\"tab\\tx.txt\"\n\n3 files"
    );
    assert_eq!(out.structured()["paths"][0], json!("new\nline.txt"));
}

#[test]
fn names_equal_under_unicode_normalisation_match_and_are_listed_as_stored() {
    // Break-it pass: with `cafe\u{301}.md` stored decomposed, `café*`
    // (composed) and `dé/*` said "no files matching".
    let ws = Ws::new(&[
        ("cafe\u{301}.md", b"x\n"),
        ("de\u{301}/a.txt", b"y\n"),
        ("plain.md", b""),
    ]);
    let out = run(&ws, ".", &args("caf\u{e9}*"));
    assert_eq!(
        out.text,
        "cafe\u{301}.md\n\n1 file\nnote: 'caf\u{e9}*' (NFC) matched 1 path only under Unicode \
         normalisation: 'cafe\u{301}.md' (NFD); listed as stored, which every tool accepts"
    );
    assert_eq!(out.structured()["paths"], json!(["cafe\u{301}.md"]));
    let out = run(&ws, ".", &args("d\u{e9}/*"));
    assert_eq!(
        out.text,
        "de\u{301}/a.txt\n\n1 file\nnote: 'd\u{e9}/*' (NFC) matched 1 path only under Unicode \
         normalisation: 'de\u{301}/a.txt' (NFD); listed as stored, which every tool accepts"
    );
    // Written as stored: no note.
    let out = run(&ws, ".", &args("cafe\u{301}*"));
    assert_eq!(out.text, "cafe\u{301}.md\n\n1 file");
    // An excluding glob leaves out the look-alike too.
    let g = PathGlob::compile("!caf\u{e9}.md").unwrap();
    assert!(!g.matches("cafe\u{301}.md") && g.matches("plain.md"));
}

#[cfg(unix)]
#[test]
fn matching_symlinks_are_counted_not_listed() {
    // Break-it pass: `glob 'link*'` said "no files matching" about a
    // link that ls lists and read follows.
    let ws = Ws::new(&[("target.txt", b"x\n")]);
    std::os::unix::fs::symlink("target.txt", ws.path("link.txt")).unwrap();
    std::os::unix::fs::symlink("target.txt", ws.path("other")).unwrap();
    let out = run(&ws, ".", &args("link*"));
    assert_eq!(
        out.text,
        "no files matching 'link*' under . (1 matching symlink not listed, since links are not \
         followed: list_dir shows it, and read_file takes a link to a file inside the workspace)"
    );
    assert_eq!(out.structured()["skipped"]["symlinks"], json!(1));
    let out = run(&ws, ".", &args("*"));
    assert_eq!(
        out.text,
        "target.txt\n\n1 file (2 matching symlinks not listed, since links are not followed: list_dir \
         shows them, and read_file takes a link to a file inside the workspace)"
    );
}

#[test]
fn hidden_entries_the_pattern_matches_are_counted() {
    // Break-it pass: `glob '*.tmp'` said "no files matching" about a temp
    // file a killed write left, with no hint.
    let ws = Ws::new(&[(".hashedit-0123456789abcdef.tmp", b"x"), ("a.txt", b"")]);
    std::fs::create_dir(ws.path(".git")).unwrap();
    ws.write(".git/x.tmp", b"");
    assert_eq!(
        run(&ws, ".", &args("*.tmp")).text,
        "no files matching '*.tmp' under . (1 hidden entry not shown, which include_hidden=true shows)"
    );
    // `.git` is never walked, so never counted.
    assert_eq!(
        run(&ws, ".", &args("x*")).text,
        "no files matching 'x*' under ."
    );
    let hidden = GlobArgs {
        include_hidden: Some(true),
        ..args("*.tmp")
    };
    assert_eq!(
        run(&ws, ".", &hidden).text,
        ".hashedit-0123456789abcdef.tmp\n\n1 file"
    );
}
