//! End-to-end regressions from a new user's break-it pass: each case a
//! misleading behaviour of the command line (or of `hashedit mcp`), pinned
//! by its exact stdout, stderr, exit status and file bytes.

use std::fs;
use std::path::Path;

mod run_cli;
use run_cli::{Run, run, run_hashedit, tag, workspace};

#[test]
fn a_tiny_output_budget_never_cuts_the_snapshot_header() {
    let big: String = (1..=100).map(|i| format!("{i}\n")).collect();
    let dir = workspace(&[("big.txt", &big)]);
    let t = tag(big.as_bytes());
    // Break-it pass: `--max-output-bytes 10` printed `[big.txt#3`.
    for budget in ["5", "10"] {
        let out = run(
            dir.path(),
            &["--max-output-bytes", budget, "read", "big.txt"],
            "",
        );
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
    let out = run(
        dir.path(),
        &["--max-output-bytes", "179", "read", "big.txt"],
        "",
    );
    assert!(
        out.stdout.starts_with(&format!("[big.txt#{t}]\n1:1\n\n")),
        "{}",
        out.stdout
    );
    // A write's reply: prose may be cut, its header never.
    let out = run(
        dir.path(),
        &["--max-output-bytes", "20", "write", "w.txt"],
        "a\nb\n",
    );
    assert_eq!(
        out.stdout,
        format!("created w.txt\n\n[w.txt#{}]\n[truncated]\n", tag(b"a\nb\n"))
    );
}

/// Runs the binary with raw (possibly non-UTF-8) arguments.
fn run_os(root: &Path, args: &[&std::ffi::OsStr]) -> Run {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hashedit"))
        .arg("--root")
        .arg(root)
        .args(args)
        .env("HASHEDIT_REGISTRY", "off")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn a_raw_non_utf8_path_argument_names_the_file_ls_shows_escaped() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let raw = OsStr::from_bytes(b"caf\xe9.txt");
    fs::write(dir.path().join(raw), "x\n").unwrap();
    let t = tag(b"x\n");
    // Break-it pass: clap's bare "invalid UTF-8 was detected" for a path.
    let read = run_os(dir.path(), &[OsStr::new("read"), raw]);
    assert_eq!(
        (read.code, read.stdout.as_str()),
        (Some(0), format!("[\"caf\\xe9.txt\"#{t}]\n1:x\n").as_str())
    );
    let quoted = run_os(
        dir.path(),
        &[OsStr::new("read"), OsStr::new("\"caf\\xe9.txt\"")],
    );
    assert_eq!(quoted.stdout, read.stdout);
    let grep = run_os(dir.path(), &[OsStr::new("grep"), OsStr::new("x"), raw]);
    assert_eq!(
        (grep.code, grep.stdout.as_str()),
        (
            Some(0),
            format!("[\"caf\\xe9.txt\"#{t}]\n1 | x\n\n1 match in 1 file\n").as_str()
        )
    );
    // A pattern is text: the usage error says which arguments take bytes.
    let pattern = run_os(
        dir.path(),
        &[OsStr::new("grep"), OsStr::from_bytes(b"\xe9")],
    );
    assert_eq!(
        (
            pattern.code,
            pattern.stdout.as_str(),
            pattern.stderr.as_str()
        ),
        (
            Some(2),
            "",
            "hashedit: an argument is not UTF-8 text. A path argument (of read, grep, glob, ls or write) \
             may hold any bytes, raw or in the quoted spelling ls prints (\"caf\\xe9.txt\"); a pattern, a \
             tag or another value must be UTF-8 text, as hashedit reads and searches UTF-8 files only\n"
        )
    );
}

#[test]
fn dry_run_diffs_of_mv_and_rem_name_the_destination_and_dev_null() {
    let dir = workspace(&[
        ("r.txt", "a\nb\n"),
        ("g.txt", "x\n"),
        ("e.txt", ""),
        ("k.txt", "k\n"),
    ]);
    // Break-it pass: `+++ b/r.txt` for a move to moved/r2.txt, `+++ b/g.txt`
    // for a deleted file.
    let doc = format!(
        "[r.txt#{}]\nPUT 1:\n+A\nMV moved/r2.txt\n[g.txt#{}]\nREM\n[e.txt#{}]\nREM\n[k.txt#{}]\nMV k2.txt\n",
        tag(b"a\nb\n"),
        tag(b"x\n"),
        tag(b""),
        tag(b"k\n")
    );
    let out = run(dir.path(), &["edit", "--dry-run"], &doc);
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            Some(0),
            "MV: r.txt would move to moved/r2.txt\n--- a/r.txt\n+++ b/moved/r2.txt\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n\
             REM: g.txt would be deleted\n--- a/g.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n\
             REM: e.txt would be deleted\ne.txt: empty, no lines to delete\n\
             MV: k.txt would move to k2.txt\nk.txt: content unchanged\n",
            ""
        )
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("r.txt")).unwrap(),
        "a\nb\n"
    );
    assert!(dir.path().join("g.txt").exists());
}

#[test]
fn a_forced_section_that_changes_nothing_says_it_was_left_unchanged() {
    let dir = workspace(&[("n.txt", "a\nb\n"), ("o.txt", "c\n")]);
    let (n, o) = (tag(b"a\nb\n"), tag(b"c\n"));
    // Break-it pass: `PUT 2: (1 → 1 line)` as if line 2 had changed.
    let doc = format!("[n.txt#{n}]\nPUT 2:\n+b\n[o.txt#{o}]\nPUT 1:\n+C\n");
    let out = run(dir.path(), &["edit", "--force"], &doc);
    assert_eq!(
        (out.code, out.stdout, out.stderr.as_str()),
        (
            Some(0),
            format!(
                "left unchanged, nothing written: PUT 2: (1 → 1 line)\n[n.txt#{n}]\n1:a\n2:b\n\n\
                 PUT 1: (1 → 1 line)\n[o.txt#{}]\n1:C\n\n\
                 warning: n.txt: the edit leaves the file exactly as it was (each body equals the lines it \
                 replaces); nothing was written to it\n",
                tag(b"C\n")
            ),
            ""
        )
    );
    assert_eq!(fs::read_to_string(dir.path().join("o.txt")).unwrap(), "C\n");
}

#[test]
fn rem_and_mv_through_a_symlink_give_the_real_header_and_name_their_own_op() {
    let dir = workspace(&[("real.txt", "r\n")]);
    std::os::unix::fs::symlink("real.txt", dir.path().join("link.txt")).unwrap();
    let t = tag(b"r\n");
    for (op, verb) in [("REM", "delete"), ("MV moved.txt", "move")] {
        let out = run(dir.path(), &["edit"], &format!("[link.txt#{t}]\n{op}\n"));
        let name = op.split(' ').next().unwrap();
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr),
            (
                Some(1),
                "",
                format!(
                    "link.txt goes through a symlink to real.txt; nothing was changed. {name} {verb}s a file \
                     only by its real path, so that it is clear whether the link or the file is meant. To \
                     {verb} the file itself (links to it then dangle), head the section [real.txt#{t}]; to \
                     {verb} only the symlink link.txt, use another tool\n"
                )
            )
        );
    }
    assert!(dir.path().join("link.txt").exists() && !dir.path().join("moved.txt").exists());
    // The header it offers works as given.
    let out = run(
        dir.path(),
        &["edit"],
        &format!("[real.txt#{t}]\nMV moved.txt\n"),
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(
        fs::read_to_string(dir.path().join("moved.txt")).unwrap(),
        "r\n"
    );
}

#[test]
fn a_registry_under_a_regular_file_names_the_file_in_the_way() {
    let dir = workspace(&[("f.txt", "a\n")]);
    let cache = tempfile::tempdir().unwrap();
    let blocker = cache.path().join("regfile");
    fs::write(&blocker, "x").unwrap();
    let t = tag(b"a\n");
    // Break-it pass: a bare "File exists (os error 17)".
    let cases = [
        (
            blocker.join("snap"),
            format!(
                "its directory {} is a file, not a directory",
                blocker.display()
            ),
        ),
        (
            blocker.join("sub/snap"),
            format!(
                "its directory {}/sub cannot be created, because {} is a file, not a directory",
                blocker.display(),
                blocker.display()
            ),
        ),
    ];
    for (registry, cause) in cases {
        let out = run_hashedit(dir.path(), &["read", "f.txt"], None, &registry);
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("[f.txt#{t}]\n1:a\n")
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "hashedit: warning: cannot update the snapshot registry {}: {cause}. Tags are still \
                 checked, but without the fingerprints of earlier calls; set HASHEDIT_REGISTRY to the \
                 path of a file hashedit may create or write, or to off to do without it\n",
                registry.display(),
            )
        );
    }
    assert_eq!(fs::read_to_string(&blocker).unwrap(), "x");
}

#[test]
fn a_line_too_long_to_show_gives_the_offset_to_read_past_it() {
    let long = format!("short\n{}\nafter\n", "x".repeat(70_000));
    let dir = workspace(&[("long.txt", &long)]);
    let t = tag(long.as_bytes());
    // Break-it pass: "or read a later window", with no offset.
    let out = run(dir.path(), &["read", "long.txt", "--offset", "2"], "");
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            Some(0),
            format!(
                "[long.txt#{t}]\n\n[line 2 is 70000 bytes long, more than fits in the output budget of 64000 \
                 bytes; no rows shown; read --offset 2 --limit 1 \
                 --max-output-bytes 70179 shows it. To read the lines after it, run read with --offset 3; to change it, \
                 edit part of it with SUB 2: or all of it with PUT 2:]\n"
            )
            .as_str(),
            ""
        )
    );
    // The offset it names works.
    let next = run(dir.path(), &["read", "long.txt", "--offset", "3"], "");
    assert_eq!(
        next.stdout,
        format!(
            "[long.txt#{t}]\n3:after\n\n[lines 3-3 of 3 shown; pass --offset/--limit to read the rest]\n"
        )
    );
    // Under --json the tools' own spelling is kept.
    let json = run(
        dir.path(),
        &["--json", "read", "long.txt", "--offset", "2"],
        "",
    );
    assert!(
        json.stdout.contains("call read_file with offset: 3;"),
        "{}",
        json.stdout
    );
}

#[test]
fn edit_input_with_a_document_on_stdin_too_is_a_usage_error() {
    let dir = workspace(&[("n.txt", "a\nb\n")]);
    let doc = format!("[n.txt#{}]\nPUT 1:\n+A\n", tag(b"a\nb\n"));
    let file = dir.path().join("doc.hl");
    fs::write(&file, &doc).unwrap();
    let input = file.to_str().unwrap();
    let refusal = format!(
        "hashedit: edit was given two documents: --input {input} and another on stdin; nothing was \
         written. Give one: drop --input to edit with what stdin carries, or stop piping into stdin (e.g. \
         `hashedit edit --input {input} < /dev/null`)\n"
    );
    // Break-it pass: the piped document was silently ignored. A file
    // redirected in (deterministic), then a pipe.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hashedit"))
        .arg("--root")
        .arg(dir.path())
        .args(["edit", "--input", input])
        .env("HASHEDIT_REGISTRY", "off")
        .stdin(fs::File::open(&file).unwrap())
        .output()
        .unwrap();
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        (Some(2), "".into(), refusal.as_str().into())
    );
    let (reader, mut writer) = std::io::pipe().unwrap();
    std::io::Write::write_all(&mut writer, b"junk\n").unwrap();
    drop(writer);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hashedit"))
        .arg("--root")
        .arg(dir.path())
        .args(["edit", "--input", input])
        .env("HASHEDIT_REGISTRY", "off")
        .stdin(reader)
        .output()
        .unwrap();
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        (Some(2), "".into(), refusal.into())
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("n.txt")).unwrap(),
        "a\nb\n"
    );
    // An empty stdin is no second document.
    let out = run(dir.path(), &["edit", "--input", input], "");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(
        fs::read_to_string(dir.path().join("n.txt")).unwrap(),
        "A\nb\n"
    );
}

#[test]
fn write_with_a_lowercase_tag_warns_as_edit_does() {
    let dir = workspace(&[("n.txt", "a\nb\n"), ("m.txt", "a\nb\n")]);
    let t = tag(b"a\nb\n");
    let lower = t.to_ascii_lowercase();
    assert_ne!(t, lower, "the test needs a tag with a letter");
    let warning = format!("warning: read the tag as {t}; tags are printed in capitals");
    // Break-it pass: write took it without a word.
    let out = run(dir.path(), &["write", "n.txt", "--tag", &lower], "x\n");
    assert_eq!(
        (out.code, out.stdout, out.stderr.as_str()),
        (
            Some(0),
            format!(
                "replaced n.txt\n\n[n.txt#{}]\n1:x\n\n{warning}\n",
                tag(b"x\n")
            ),
            ""
        )
    );
    // edit says the same of the same tag.
    let out = run(
        dir.path(),
        &["edit"],
        &format!("[m.txt#{lower}]\nPUT 1:\n+A\n"),
    );
    assert!(
        out.stdout.ends_with(&format!(
            "\n\nwarning: document line 1: read the tag as {t}; tags are printed in capitals\n"
        )),
        "{}",
        out.stdout
    );
    // An uppercase tag: no warning.
    let out = run(
        dir.path(),
        &["write", "n.txt", "--tag", &tag(b"x\n")],
        "y\n",
    );
    assert_eq!(
        out.stdout,
        format!("replaced n.txt\n\n[n.txt#{}]\n1:y\n", tag(b"y\n"))
    );
}

#[test]
fn write_of_numbered_rows_without_a_header_is_refused_unless_forced() {
    let dir = workspace(&[("a.txt", "old\n")]);
    let refusal = |shape: &str| {
        format!(
            "the content for a.txt {shape}, like read output; nothing was written. Send the file's exact \
             text without the header and without the N: prefixes; if the file really holds these lines, \
             send it again with --force\n"
        )
    };
    // Break-it pass: `1:foo\n2:bar\n`, exactly what read prints, was
    // written verbatim.
    let rows = "1:foo\n2:bar\n";
    // The registry is off here: the live tag stands for a read of a.txt.
    let live = tag(b"old\n");
    let out = run(dir.path(), &["write", "a.txt", "--tag", &live], rows);
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr),
        (
            Some(1),
            "",
            refusal("is numbered rows (N:text, counting up)")
        )
    );
    let with_header = format!("[a.txt#{}]\n{rows}", tag(b"old\n"));
    let out = run(
        dir.path(),
        &["write", "a.txt", "--tag", &live],
        &with_header,
    );
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr),
        (
            Some(1),
            "",
            refusal("starts with a [path#TAG] header and numbered rows")
        )
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "old\n"
    );
    let json = run(
        dir.path(),
        &["--json", "write", "a.txt", "--tag", &live],
        rows,
    );
    assert!(
        json.stdout
            .starts_with("{\"error\":{\"kind\":\"looks_like_read_output\""),
        "{}",
        json.stdout
    );
    // The spelling that forces it through.
    let out = run(dir.path(), &["write", "a.txt", "--force"], rows);
    assert_eq!(
        (out.code, out.stdout, out.stderr.as_str()),
        (
            Some(0),
            format!(
                "replaced a.txt\n\n[a.txt#{}]\n1:1:foo\n2:2:bar\n",
                tag(rows.as_bytes())
            ),
            ""
        )
    );
    assert_eq!(fs::read_to_string(dir.path().join("a.txt")).unwrap(), rows);
}

#[test]
fn json_usage_errors_are_json_error_objects_with_exit_two() {
    let dir = workspace(&[("a.txt", "a\n")]);
    let error = |out: &Run| -> serde_json::Value {
        assert_eq!((out.code, out.stderr.as_str()), (Some(2), ""), "{out:?}");
        serde_json::from_str(&out.stdout).expect("one JSON object")
    };
    // Break-it pass: clap's plain text under --json.
    let out = run(dir.path(), &["--json", "grep", "--bogus", "x"], "");
    assert_eq!(
        error(&out),
        serde_json::json!({"ok": false, "error": {"kind": "usage_error", "message":
            "unexpected argument '--bogus' found\n\n  tip: to pass '--bogus' as a value, use '-- --bogus'\n\n\
             Usage: hashedit grep [OPTIONS] <PATTERN> [PATH]\n\nFor more information, try '--help'."}})
    );
    let out = run(dir.path(), &["read", "--json"], "");
    assert_eq!(
        error(&out)["error"]["message"],
        "the following required arguments were not provided:\n  <PATH>\n\nUsage: hashedit read --json <PATH>\n\n\
         For more information, try '--help'."
    );
    // Usage errors found after parsing, too.
    let out = run(dir.path(), &["--json", "--max-output-bytes", "0", "ls"], "");
    assert_eq!(
        error(&out),
        serde_json::json!({"ok": false, "error": {"kind": "usage_error", "message": "--max-output-bytes must be at least 1"}})
    );
    let out = run(dir.path(), &["--json", "man", "nope"], "");
    assert_eq!(error(&out)["error"]["kind"], "usage_error");
    // Without --json, plain text on stderr as before; --version is no error.
    let out = run(dir.path(), &["grep", "--bogus", "x"], "");
    assert_eq!((out.code, out.stdout.as_str()), (Some(2), ""));
    assert!(
        out.stderr
            .starts_with("error: unexpected argument '--bogus' found"),
        "{}",
        out.stderr
    );
    let out = run(dir.path(), &["--json", "--version"], "");
    assert_eq!(
        (out.code, out.stdout),
        (Some(0), format!("hashedit {}\n", env!("CARGO_PKG_VERSION")))
    );
}

#[test]
fn a_raw_byte_in_a_document_header_gets_the_escaped_spelling_to_use() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let name = <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"l\xe9.txt");
    fs::write(dir.path().join(name), "z\n").unwrap();
    let t = tag(b"z\n");
    // Re-trial of issue 14 item 8: `printf "[\"l\xe9.txt\"#TAG]…"` sends
    // the raw byte, and the refusal said only "Send it as UTF-8".
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hashedit"))
        .arg("--root")
        .arg(dir.path())
        .arg("edit")
        .env("HASHEDIT_REGISTRY", "off")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let document = [
        b"[\"l\xe9.txt\"#".as_slice(),
        t.as_bytes(),
        b"]\nPUT 1:\n+Z\n",
    ]
    .concat();
    child.stdin.take().unwrap().write_all(&document).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "the input of edit on stdin is not UTF-8 text (first bad byte at offset 3); nothing was written. \
         Send it as UTF-8. The byte is in the header on document line 1: a file name that is not UTF-8 is \
         written as read and ls print it, quoted with each stray byte as \\xNN (\"caf\\xe9.txt\"); a \
         shell's printf turns \\xNN in its format into the raw byte, so pass the header as an argument \
         (printf '%s\\n' \"$header\")\n"
    );
    // The spelling it names works.
    let out = run(
        dir.path(),
        &["edit"],
        &format!("[\"l\\xe9.txt\"#{t}]\nPUT 1:\n+Z\n"),
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(fs::read(dir.path().join(name)).unwrap(), b"Z\n");
}

#[test]
fn write_and_edit_through_a_hard_link_of_git_config_are_refused() {
    // Second break-it pass: `ln .git/config hl`, then `write hl` or an edit
    // of hl rewrote .git/config in place (hard links are kept linked).
    let config = "[core]\n\tbare = false\n";
    let dir = workspace(&[(".git/config", config)]);
    fs::hard_link(dir.path().join(".git/config"), dir.path().join("hl")).unwrap();
    let refusal = "hl is a hard link of .git/config (one file under two names; a write through either \
                   changes both), and .git/config is inside .git/, version-control internals, which \
                   hashedit never writes (a hook or config written there can run code); nothing was \
                   written. Reading it is allowed; to change hl alone, a person can break the link by \
                   hand (cp hl tmp && mv tmp hl)\n";
    let out = run(
        dir.path(),
        &["write", "hl"],
        "[core]\n\tfsmonitor = echo PWNED\n",
    );
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (Some(1), "", refusal)
    );
    let document = format!(
        "[hl#{}]\nPUT >$:\n+\tfsmonitor = echo PWNED\n",
        tag(config.as_bytes())
    );
    let out = run(dir.path(), &["edit"], &document);
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (Some(1), "", refusal)
    );
    assert_eq!(
        fs::read_to_string(dir.path().join(".git/config")).unwrap(),
        config
    );
    // Reading through the link stays allowed.
    let out = run(dir.path(), &["read", "hl"], "");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
}

#[test]
fn completions_into_a_closed_pipe_exit_quietly() {
    // Second break-it pass: `hashedit completions zsh | head -1` panicked
    // ("failed to write completion file") with exit 101.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hashedit"))
        .args(["completions", "zsh"])
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).as_ref()
        ),
        (Some(0), "")
    );
}

#[test]
fn a_file_created_through_a_dangling_symlink_is_named_in_a_note() {
    // Second break-it pass: `ln -s sub/deep/new.txt dang.txt; write
    // dang.txt` said only "created dang.txt".
    let dir = workspace(&[("sub/deep/keep.txt", "k\n")]);
    std::os::unix::fs::symlink("sub/deep/new.txt", dir.path().join("dang.txt")).unwrap();
    let out = run(dir.path(), &["write", "dang.txt"], "x\n");
    assert_eq!(
        (out.code, out.stdout, out.stderr.as_str()),
        (
            Some(0),
            format!(
                "created dang.txt\n\n[dang.txt#{}]\n1:x\n\nnote: dang.txt is a symlink; the file created \
                 is its target, sub/deep/new.txt\n",
                tag(b"x\n")
            ),
            ""
        )
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("sub/deep/new.txt")).unwrap(),
        "x\n"
    );
    // A plain new file gets no note.
    let out = run(dir.path(), &["write", "plain.txt"], "y\n");
    assert_eq!(
        out.stdout,
        format!("created plain.txt\n\n[plain.txt#{}]\n1:y\n", tag(b"y\n"))
    );
}

#[test]
fn an_offset_or_limit_of_zero_is_a_usage_error_like_other_bad_flag_values() {
    // Second break-it pass: `read --offset 0` and `--limit 0` exited 1
    // while `grep --max-results 0` exited 2.
    let dir = workspace(&[("a.txt", "a\n")]);
    let out = run(dir.path(), &["read", "a.txt", "--offset", "0"], "");
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.starts_with(
            "error: invalid value '0' for '--offset <OFFSET>': line numbers start at 1\n"
        ),
        "{}",
        out.stderr
    );
    let out = run(dir.path(), &["read", "a.txt", "--limit", "0"], "");
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.starts_with(
            "error: invalid value '0' for '--limit <LIMIT>': a window shows at least 1 row\n"
        ),
        "{}",
        out.stderr
    );
}

#[test]
fn a_truncated_png_is_not_served_as_an_image() {
    // Second break-it pass: `head -c 40 real.png > trunc.png` read as
    // "image/png image (40 bytes)", base64 content over MCP.
    const PNG: &[u8] =
        b"\x89PNG\r\n\x1a\n\0\0\0\x0DIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\
\0\0\0\x0AIDATx\x9cc\0\x01\0\0\x05\0\x01\x0d\x0a\x2d\xb4\0\0\0\0IEND\xaeB`\x82";
    let dir = workspace(&[]);
    fs::write(dir.path().join("real.png"), PNG).unwrap();
    fs::write(dir.path().join("trunc.png"), &PNG[..40]).unwrap();
    let out = run(dir.path(), &["read", "real.png"], "");
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (Some(0), "image/png image (67 bytes)\n")
    );
    let out = run(dir.path(), &["read", "trunc.png"], "");
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            Some(1),
            "",
            "trunc.png starts as a PNG image (image/png) but does not end as one (cut short, as a partial \
             download is), so it cannot be shown as an image, and it is not text; nothing to show\n"
        )
    );
}

#[test]
fn glob_finds_a_decomposed_name_from_a_composed_pattern() {
    let dir = workspace(&[("cafe\u{301}.md", "x\n")]);
    let out = run(dir.path(), &["glob", "caf\u{e9}*"], "");
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            Some(0),
            "cafe\u{301}.md\n\n1 file\nnote: 'caf\u{e9}*' (NFC) matched 1 path only under Unicode \
             normalisation: 'cafe\u{301}.md' (NFD); listed as stored, which every tool accepts\n",
            ""
        )
    );
}

#[test]
fn grep_shows_the_match_beside_a_context_line_too_long_for_the_budget() {
    let huge = format!("short\n{}\nEND\n", "x".repeat(200_000));
    let dir = workspace(&[("huge.txt", &huge)]);
    let t = tag(huge.as_bytes());
    let out = run(dir.path(), &["grep", "-C1", "END", "huge.txt"], "");
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            Some(0),
            format!(
                "[huge.txt#{t}]\n[line 2 not shown: 200000 bytes long; read --offset 2 --limit 1 \
                 --max-output-bytes 200179 shows it]\n3 | END\n\n1 match in 1 file\n"
            )
            .as_str(),
            ""
        )
    );
    // The advice is exact: that budget shows line 2.
    let out = run(
        dir.path(),
        &[
            "--max-output-bytes",
            "200179",
            "read",
            "huge.txt",
            "--offset",
            "2",
            "--limit",
            "1",
        ],
        "",
    );
    assert!(
        out.stdout.starts_with(&format!("[huge.txt#{t}]\n2:xxx")),
        "{}",
        &out.stdout[..80]
    );
}

#[test]
fn every_hint_about_a_huge_line_names_the_budget_that_shows_it() {
    let huge = format!("short\n{}\nEND\n", "x".repeat(200_000));
    let dir = workspace(&[("huge.txt", &huge)]);
    let t = tag(huge.as_bytes());
    // Break-it pass: the edit's reply said "read with --offset/--limit
    // shows it", and that read showed no rows under the default budget.
    let out = run(
        dir.path(),
        &["edit"],
        &format!("[huge.txt#{t}]\nPUT 1:\n+SHORT\n"),
    );
    let edited = huge.replacen("short", "SHORT", 1);
    let t2 = tag(edited.as_bytes());
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            Some(0),
            format!(
                "PUT 1: (1 → 1 line)\n[huge.txt#{t2}]\n1:SHORT\n…\n3:END\n\n[line 2 not shown: 200000 \
                 bytes long; read --offset 2 --limit 1 --max-output-bytes 200179 shows it]\n"
            )
            .as_str(),
            ""
        )
    );
    let out = run(
        dir.path(),
        &["read", "huge.txt", "--offset", "2", "--limit", "1"],
        "",
    );
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            Some(0),
            format!(
                "[huge.txt#{t2}]\n\n[line 2 is 200000 bytes long, more than fits in the output budget of \
                 64000 bytes; no rows shown; read --offset 2 --limit 1 --max-output-bytes 200179 shows \
                 it. To read the lines after it, run read with --offset 3; to change it, edit part \
                 of it with SUB 2: or all of it with PUT 2:]\n"
            )
            .as_str(),
            ""
        )
    );
}

#[test]
fn regex_dialect_hints_never_suggest_a_pattern_that_earns_the_hint() {
    let dir = workspace(&[("r.txt", "json\njson|x\n"), ("q.txt", "color\ncolour\n")]);
    let r = tag(b"json\njson|x\n");
    let q = tag(b"color\ncolour\n");
    let out = run(dir.path(), &["grep", "json\\|", "r.txt"], "");
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            Some(0),
            format!(
                "[r.txt#{r}]\n2 | json|x\n\n1 match in 1 file\nnote: in this regex syntax (Rust's) \\| \
                 matches a literal '|', not alternation as in grep's basic syntax (read that way, this \
                 pattern would match every line)\n"
            )
            .as_str(),
            ""
        )
    );
    // An empty alternative inside a group only makes the group optional.
    let out = run(dir.path(), &["grep", "colou(r|)", "q.txt"], "");
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            Some(0),
            format!("[q.txt#{q}]\n2 | colour\n\n1 match in 1 file\n").as_str(),
            ""
        )
    );
    let out = run(dir.path(), &["grep", "\\(json\\)", "r.txt"], "");
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            Some(1),
            "no matches for '\\(json\\)' under r.txt\nnote: in this regex syntax (Rust's) \\( matches a \
             literal '(', \\) matches a literal ')', not a group as in grep's basic syntax; for a group \
             write '(json)', or pass -F for the text as written\n",
            ""
        )
    );
    let out = run(dir.path(), &["grep", "x\\+", "r.txt"], "");
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            Some(1),
            "no matches for 'x\\+' under r.txt\nnote: in this regex syntax (Rust's) \\+ matches a literal \
             '+', not 'one or more' as in grep's basic syntax; for 'one or more' write 'x+', or pass -F \
             for the text as written\n",
            ""
        )
    );
}

#[cfg(unix)]
#[test]
fn glob_counts_a_matching_symlink_it_does_not_list() {
    let dir = workspace(&[("target.txt", "x\n")]);
    std::os::unix::fs::symlink("target.txt", dir.path().join("link.txt")).unwrap();
    let out = run(dir.path(), &["glob", "link*"], "");
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            Some(1),
            "no files matching 'link*' under . (1 matching symlink not listed, since links are not \
             followed: ls shows it, and read takes a link to a file inside the workspace)\n",
            ""
        )
    );
}

#[test]
fn ls_and_glob_say_how_many_hidden_leftovers_they_did_not_show() {
    let dir = workspace(&[(".hashedit-0123456789abcdef.tmp", "x")]);
    let out = run(dir.path(), &["ls"], "");
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            Some(0),
            "(empty directory)\n\n(1 hidden entry not shown: unfinished temp file of a killed write; \
             --hidden shows it)\n",
            ""
        )
    );
    let out = run(dir.path(), &["glob", "*.tmp"], "");
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            Some(1),
            "no files matching '*.tmp' under . (1 hidden entry not shown, which --hidden shows)\n",
            ""
        )
    );
    let out = run(dir.path(), &["ls", "--hidden"], "");
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (Some(0), ".hashedit-0123456789abcdef.tmp\n")
    );
}

#[test]
fn grep_of_a_named_binary_file_says_it_is_binary() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("bin.dat"), b"bin\0dat").unwrap();
    let out = run(dir.path(), &["grep", "bin", "bin.dat"], "");
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            Some(1),
            "bin.dat is binary (a NUL byte at offset 3); not searched\n",
            ""
        )
    );
}
