//! End-to-end tests of the command line's file and search semantics: each
//! case a kind of bug public reports of agent edit tools showed, pinned by
//! its exact stdout, stderr, exit status and file bytes.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

mod run_cli;
use run_cli::{run, tag, workspace};

const GIT_REFUSAL: &str = "is inside .git/, version-control internals, which hashedit never writes \
     (a hook or config written there can run code); nothing was written. Reading it is allowed; changing \
     it is for a person to do by hand, or to allow by starting hashedit with --allow-protected";

#[test]
fn writes_into_version_control_internals_are_refused() {
    let config = "[core]\n\tbare = false\n";
    let dir = workspace(&[(".git/config", config), ("a.txt", "a\n")]);
    let root = dir.path();
    std::os::unix::fs::symlink(".git", root.join("gitdir")).unwrap();
    std::os::unix::fs::symlink(".git/config", root.join("cfg")).unwrap();

    let out = run(
        root,
        &["write", ".git/config"],
        "[core]\n\tfsmonitor = evil\n",
    );
    assert_eq!(out.code, Some(1));
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr, format!(".git/config {GIT_REFUSAL}\n"));
    // Through a symlinked directory, a symlinked file, a hooks path that
    // does not exist yet, and a case variant.
    for (path, shown, name) in [
        ("gitdir/config", "gitdir/config", ".git"),
        ("cfg", "cfg", ".git"),
        (".git/hooks/pre-commit", ".git/hooks/pre-commit", ".git"),
        (".GIT/hooks/pre-commit", ".GIT/hooks/pre-commit", ".GIT"),
        ("sub/.jj/repo", "sub/.jj/repo", ".jj"),
    ] {
        let out = run(root, &["write", path], "x\n");
        assert_eq!(out.code, Some(1), "{path}");
        assert_eq!(
            out.stderr,
            format!(
                "{shown} {}\n",
                GIT_REFUSAL.replacen(".git/", &format!("{name}/"), 1)
            ),
            "{path}"
        );
    }
    assert_eq!(
        fs::read_to_string(root.join(".git/config")).unwrap(),
        config
    );
    assert!(!root.join(".git/hooks").exists());
    assert!(!root.join(".GIT").exists());

    // edit, REM and MV (either end) are refused the same way, with --json
    // carrying the kind.
    let t = tag(config.as_bytes());
    let at = tag(b"a\n");
    for doc in [
        format!("[.git/config#{t}]\nPUT 1:\n+[user]\n"),
        format!("[.git/config#{t}]\nREM\n"),
        format!("[.git/config#{t}]\nMV config.bak\n"),
        format!("[a.txt#{at}]\nMV .git/hooks/post-checkout\n"),
    ] {
        let out = run(root, &["--json", "edit"], &doc);
        assert_eq!(out.code, Some(1), "{doc}");
        let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(value["error"]["kind"], "protected_path", "{doc}");
    }
    assert_eq!(
        fs::read_to_string(root.join(".git/config")).unwrap(),
        config
    );
    assert_eq!(fs::read_to_string(root.join("a.txt")).unwrap(), "a\n");

    // Reading stays allowed.
    let out = run(root, &["read", ".git/config"], "");
    assert_eq!(out.code, Some(0));
    assert_eq!(
        out.stdout,
        format!("[.git/config#{t}]\n1:[core]\n2:\tbare = false\n")
    );
}

#[test]
fn allow_protected_and_protect_globs_configure_the_set() {
    let dir = workspace(&[(".git/config", "a\n"), ("keys/id.pem", "k\n")]);
    let root = dir.path();
    // Unread by any call: its live tag is what lets write replace it.
    let t = tag(b"a\n");
    let out = run(
        root,
        &["--allow-protected", "write", ".git/config", "--tag", &t],
        "b\n",
    );
    assert_eq!(out.code, Some(0));
    assert!(
        out.stdout
            .starts_with("replaced .git/config\n\n[.git/config#")
    );
    assert_eq!(fs::read_to_string(root.join(".git/config")).unwrap(), "b\n");

    let out = run(root, &["--protect", "*.pem", "write", "keys/id.pem"], "x\n");
    assert_eq!(out.code, Some(1));
    assert_eq!(
        out.stderr,
        "keys/id.pem is protected by --protect *.pem; nothing was written. Reading it is allowed; run \
         hashedit without that --protect to change it\n"
    );
    assert_eq!(fs::read_to_string(root.join("keys/id.pem")).unwrap(), "k\n");

    let out = run(root, &["--protect", "a[", "ls"], "");
    assert_eq!(out.code, Some(2));
    assert_eq!(
        out.stderr,
        "hashedit: --protect a[: not a glob pattern (unclosed character class; missing ']')\n"
    );
}

#[test]
fn errors_go_to_stderr_and_searches_exit_one_on_no_match() {
    let dir = workspace(&[("a.txt", "alpha\nbeta\n"), ("src/b.rs", "fn main() {}\n")]);
    let root = dir.path();
    // A tool error: message on stderr only, exit 1.
    let out = run(root, &["read", "missing.txt"], "");
    assert_eq!((out.code, out.stdout.as_str()), (Some(1), ""));
    assert_eq!(
        out.stderr,
        "missing.txt does not exist; check the path with glob or ls\n"
    );
    // grep and glob: 0 on a match, 1 on none, as grep and rg.
    let out = run(root, &["grep", "alpha"], "");
    assert_eq!(out.code, Some(0));
    let out = run(root, &["grep", "gamma"], "");
    assert_eq!(out.code, Some(1));
    assert_eq!(out.stdout, "no matches for 'gamma' under .\n");
    assert_eq!(out.stderr, "");
    let out = run(root, &["glob", "*.rs"], "");
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (Some(0), "src/b.rs\n\n1 file\n")
    );
    let out = run(root, &["glob", "*.go"], "");
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (Some(1), "no files matching '*.go' under .\n")
    );
    // --json keeps the one object on stdout.
    let out = run(root, &["--json", "read", "missing.txt"], "");
    assert_eq!(out.code, Some(1));
    assert_eq!(
        out.stdout,
        "{\"error\":{\"kind\":\"not_found\",\"message\":\"missing.txt does not exist; check the path with \
         glob or list_dir\"},\"ok\":false}\n"
    );
    // A directory: the hint names the CLI command.
    let out = run(root, &["read", "src"], "");
    assert_eq!(
        out.stderr,
        "src is a directory; use ls to see its entries\n"
    );
}

#[test]
fn grep_takes_rg_style_flags() {
    let text = "one\ntwo\na.b\nfour\nfive\n";
    let dir = workspace(&[("f.txt", text), ("g_test.txt", "a.b\n"), ("h.md", "a.b\n")]);
    let root = dir.path();
    let t = tag(text.as_bytes());
    // -F: fixed string (the dot is literal), -n accepted, -C1 context as
    // read rows.
    let out = run(root, &["grep", "-F", "-n", "-C1", "a.b", "f.txt"], "");
    assert_eq!(out.code, Some(0));
    assert_eq!(
        out.stdout,
        format!("[f.txt#{t}]\n2:two\n3 | a.b\n4:four\n\n1 match in 1 file\n")
    );
    let out = run(root, &["grep", "-A", "2", "two", "f.txt"], "");
    assert_eq!(
        out.stdout,
        format!("[f.txt#{t}]\n2 | two\n3:a.b\n4:four\n\n1 match in 1 file\n")
    );
    // Repeated --glob with a negation.
    let out = run(
        root,
        &[
            "grep",
            "-F",
            "a.b",
            "-g",
            "*.txt",
            "--glob",
            "*.md",
            "-g",
            "!*_test.txt",
            "--output-mode",
            "files_with_matches",
        ],
        "",
    );
    assert_eq!(out.stdout, "f.txt\nh.md\n\n2 files\n");
}

#[test]
fn cli_messages_name_cli_flags_and_caps_are_not_clamped() {
    let many: String = (0..1500).map(|i| format!("x{i}\n")).collect();
    let dir = workspace(&[("big.txt", &many)]);
    let root = dir.path();
    let out = run(
        root,
        &[
            "--max-output-bytes",
            "100000000",
            "grep",
            "x",
            "--max-results",
            "1200",
            "--max-per-file",
            "1100",
        ],
        "",
    );
    assert_eq!(out.code, Some(0));
    assert!(
        out.stdout.ends_with(
            "… +400 more matches in this file\n\n1100 matches shown (1500 total) in 1 file (1 file cut at \
             --max-per-file; raise --max-per-file or narrow the pattern)\n"
        ),
        "{}",
        &out.stdout[out.stdout.len() - 300..]
    );
    let out = run(root, &["read", "big.txt", "--limit", "1"], "");
    let tag = tag(many.as_bytes());
    assert_eq!(
        out.stdout,
        format!(
            "[big.txt#{tag}]\n1:x0\n\n[lines 1-1 of 1500 shown; pass --offset/--limit to read the rest]\n"
        )
    );
}

#[test]
fn edit_help_explains_the_format_in_one_screen() {
    let dir = workspace(&[]);
    let out = run(dir.path(), &["edit", "--help"], "");
    assert_eq!(out.code, Some(0));
    let format_part = out.stdout.split("\nUsage:").next().unwrap();
    assert!(format_part.lines().count() <= 25, "{format_part}");
    for needle in [
        "PUT 2:",
        "PUT 4.=6:",
        "PUT <1:",
        "CUT 9.=10",
        "PUT 12*:",
        "CUT 30*",
        "SUB 14:",
        "REM",
        "MV ",
        "'++x' writes '+x'",
        "--dry-run",
    ] {
        assert!(format_part.contains(needle), "{needle}");
    }
    assert!(format_part.lines().all(|l| l.len() <= 100));
}

#[test]
fn completions_and_the_man_page_come_from_the_clap_definitions() {
    let dir = workspace(&[]);
    let out = run(dir.path(), &["completions", "bash"], "");
    assert_eq!(out.code, Some(0));
    assert!(
        out.stdout.starts_with("_hashedit() {\n"),
        "{}",
        &out.stdout[..80]
    );
    for word in [
        "read",
        "grep",
        "glob",
        "write",
        "edit",
        "mcp",
        "--allow-protected",
        "--no-ignore",
    ] {
        assert!(out.stdout.contains(word), "{word}");
    }
    // The script is valid bash.
    let script = dir.path().join("hashedit.bash");
    fs::write(&script, &out.stdout).unwrap();
    let syntax = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .unwrap();
    assert!(
        syntax.status.success(),
        "{}",
        String::from_utf8_lossy(&syntax.stderr)
    );
    let out = run(dir.path(), &["completions", "zsh"], "");
    assert!(out.stdout.starts_with("#compdef hashedit\n"));
    let out = run(dir.path(), &["completions", "fish"], "");
    assert!(out.stdout.contains("complete -c hashedit"));
    let out = run(dir.path(), &["completions", "tcsh"], "");
    assert_eq!(out.code, Some(2));

    let out = run(dir.path(), &["man"], "");
    assert_eq!(out.code, Some(0));
    assert!(out.stdout.contains(".TH hashedit 1"));
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH OPTIONS", ".SH SUBCOMMANDS"] {
        assert!(out.stdout.contains(section), "{section}");
    }
    for command in [
        "hashedit\\-read(1)",
        "hashedit\\-grep(1)",
        "hashedit\\-edit(1)",
    ] {
        assert!(out.stdout.contains(command), "{command}");
    }
    // Each page it names can be printed.
    let out = run(dir.path(), &["man", "edit"], "");
    assert_eq!(out.code, Some(0));
    let title = format!(
        ".TH hashedit-edit 1  \"hashedit-edit {}\"",
        env!("CARGO_PKG_VERSION")
    );
    assert!(out.stdout.contains(&title), "{}", &out.stdout[..200]);
    assert!(out.stdout.contains("CUT 9.=10"));
    let out = run(dir.path(), &["man", "nope"], "");
    assert_eq!(out.code, Some(2));
    assert_eq!(
        out.stderr,
        "hashedit: man: no page for 'nope'; the pages are hashedit (no argument) and read, grep, glob, ls, \
         write, edit, completions, man, mcp, setup\n"
    );
    // Break-it pass: hashedit(1) listed hashedit-help(1), and `man help`
    // printed a page naming hashedit-help-read(1) and more that exist
    // nowhere. Every page listed is one `man` prints, and no other.
    let out = run(dir.path(), &["man"], "");
    let listed: Vec<String> = out
        .stdout
        .lines()
        .filter_map(|line| line.strip_prefix("hashedit\\-")?.strip_suffix("(1)"))
        .map(|name| name.replace("\\-", "-"))
        .collect();
    assert_eq!(
        listed,
        [
            "read",
            "grep",
            "glob",
            "ls",
            "write",
            "edit",
            "completions",
            "man",
            "mcp",
            "setup"
        ]
    );
    for name in &listed {
        let page = run(dir.path(), &["man", name], "");
        assert_eq!(page.code, Some(0), "{name}: {}", page.stderr);
        assert!(
            page.stdout.contains(&format!(".TH hashedit-{name} 1")),
            "{name}"
        );
    }
    let out = run(dir.path(), &["man", "help"], "");
    assert_eq!((out.code, out.stdout.as_str()), (Some(2), ""));
    assert!(
        out.stderr.starts_with("hashedit: man: no page for 'help';"),
        "{}",
        out.stderr
    );
}

#[test]
fn extended_attributes_survive_write_and_edit() {
    // claude-code #60778, #44132: a replace by rename dropped them all.
    let dir = workspace(&[("a.txt", "one\ntwo\n")]);
    let root = dir.path();
    let file = root.join("a.txt");
    if let Err(e) = xattr::set(&file, "user.origin", b"kept") {
        hashedit_skip::skip(
            "extended_attributes_survive_write_and_edit",
            "user.* attributes and ACLs kept by write and edit",
            &format!("this file system takes no user.* attributes ({e})"),
        );
        return;
    }
    // A POSIX ACL granting uid 4242 read access, in the kernel's xattr
    // encoding (version 2; user_obj rw, user:4242 r, group_obj r, mask r,
    // other r).
    let mut acl = 2u32.to_le_bytes().to_vec();
    for (tag, perm, id) in [
        (1u16, 6u16, u32::MAX),
        (2, 4, 4242),
        (4, 4, u32::MAX),
        (0x10, 4, u32::MAX),
        (0x20, 4, u32::MAX),
    ] {
        acl.extend(tag.to_le_bytes());
        acl.extend(perm.to_le_bytes());
        acl.extend(id.to_le_bytes());
    }
    let with_acl = match xattr::set(&file, "system.posix_acl_access", &acl) {
        Ok(()) => true,
        Err(e) => {
            hashedit_skip::skip(
                "extended_attributes_survive_write_and_edit",
                "a POSIX ACL kept by write and edit",
                &format!("this file system takes no ACL ({e})"),
            );
            false
        }
    };

    let t = tag(b"one\ntwo\n");
    let out = run(root, &["write", "a.txt", "--tag", &t], "uno\ntwo\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(
        xattr::get(&file, "user.origin").unwrap(),
        Some(b"kept".to_vec())
    );
    let t = tag(b"uno\ntwo\n");
    let out = run(root, &["edit"], &format!("[a.txt#{t}]\nPUT 2:\n+dos\n"));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(fs::read_to_string(&file).unwrap(), "uno\ndos\n");
    assert_eq!(
        xattr::get(&file, "user.origin").unwrap(),
        Some(b"kept".to_vec())
    );
    if with_acl {
        assert_eq!(
            xattr::get(&file, "system.posix_acl_access").unwrap(),
            Some(acl)
        );
    }
}

/// Whether `program args…` ran and succeeded (false when it is missing or
/// not permitted here).
fn succeeds(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_bind_mounted_file_is_rewritten_in_place() {
    // claude-code #25438: a single-file bind mount cannot be renamed over
    // (EBUSY); it was refused as "cannot create".
    let dir = workspace(&[("mounted.txt", "old\n"), ("outside/source.txt", "old\n")]);
    let root = dir.path();
    if !succeeds("unshare", &["-m", "true"]) {
        hashedit_skip::skip(
            "a_bind_mounted_file_is_rewritten_in_place",
            "a write to a bind-mounted file",
            "unshare -m fails here (no private mount namespaces, or util-linux missing)",
        );
        return;
    }
    let script = format!(
        "mount --bind {src} {dst} && printf 'new\\n' | {bin} --root {root} write mounted.txt --tag {t} && cat {dst}",
        t = tag(b"old\n"),
        src = root.join("outside/source.txt").display(),
        dst = root.join("mounted.txt").display(),
        bin = env!("CARGO_BIN_EXE_hashedit"),
        root = root.display(),
    );
    let out = Command::new("unshare")
        .args(["-m", "sh", "-c", &script])
        .env("HASHEDIT_REGISTRY", "off")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if String::from_utf8_lossy(&out.stderr).contains("mount:") {
        hashedit_skip::skip(
            "a_bind_mounted_file_is_rewritten_in_place",
            "a write to a bind-mounted file",
            &format!(
                "mount --bind is not permitted here: {}",
                String::from_utf8_lossy(&out.stderr)
            ),
        );
        return;
    }
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout,
        format!(
            "replaced mounted.txt\n\n[mounted.txt#{}]\n1:new\nnew\n",
            tag(b"new\n")
        )
    );
    // The write went through the mount to its source; nothing left behind.
    assert_eq!(
        fs::read_to_string(root.join("outside/source.txt")).unwrap(),
        "new\n"
    );
    let mut names: Vec<String> = fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["mounted.txt", "outside"]);
}

#[test]
fn an_immutable_file_is_named_immutable() {
    let dir = workspace(&[("frozen.txt", "a\n")]);
    let root = dir.path();
    let file = root.join("frozen.txt");
    let path = file.to_str().unwrap();
    if !succeeds("chattr", &["+i", path]) {
        hashedit_skip::skip(
            "an_immutable_file_is_named_immutable",
            "the refusal of an immutable file",
            "chattr +i fails here (needs root and e2fsprogs, on a file system with the flag)",
        );
        return;
    }
    let t = tag(b"a\n");
    let out = run(root, &["write", "frozen.txt", "--tag", &t], "b\n");
    let edit = run(root, &["edit"], &format!("[frozen.txt#{t}]\nPUT 1:\n+b\n"));
    assert!(succeeds("chattr", &["-i", path]));
    assert_eq!(out.code, Some(1));
    let refusal = "frozen.txt is immutable (its 'i' attribute is set, see lsattr); nothing was written. \
                   Remove the attribute (chattr -i, as root) if it really should change\n";
    assert_eq!(out.stderr, refusal);
    assert_eq!(edit.code, Some(1));
    assert_eq!(edit.stderr, refusal);
    assert_eq!(fs::read_to_string(&file).unwrap(), "a\n");
}

/// The names in `dir` that are hashedit temp files.
fn temp_files(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".hashedit-") && name.ends_with(".tmp"))
        .collect()
}

#[test]
fn a_signal_during_a_large_write_leaves_no_temp_file() {
    // A SIGTERM while the temp file is being written and synced used to
    // leave it behind; now it is removed and the process exits 128 + 15.
    let dir = workspace(&[("big.txt", "old\n")]);
    let root = dir.path();
    let content = "0123456789abcdef".repeat(8 * 1024 * 1024 / 16 * 12); // 96 MiB
    let mut caught = false;
    for _attempt in 0..5 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hashedit"))
            .arg("--root")
            .arg(root)
            .args(["write", "big.txt", "--force"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .env("HASHEDIT_REGISTRY", "off")
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(content.as_bytes())
            .unwrap();
        // Poll for the event: the temp file appears, or the write is done.
        while temp_files(root).is_empty() {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        if temp_files(root).is_empty() {
            // Finished before it could be caught: restore and try again.
            child.wait().unwrap();
            fs::write(root.join("big.txt"), "old\n").unwrap();
            continue;
        }
        rustix::process::kill_process(
            rustix::process::Pid::from_child(&child),
            rustix::process::Signal::TERM,
        )
        .unwrap();
        let status = child.wait().unwrap();
        if status.code() == Some(0) {
            // It finished first after all.
            fs::write(root.join("big.txt"), "old\n").unwrap();
            continue;
        }
        assert_eq!(status.code(), Some(128 + 15));
        assert_eq!(temp_files(root), Vec::<String>::new());
        assert_eq!(fs::read_to_string(root.join("big.txt")).unwrap(), "old\n");
        caught = true;
        break;
    }
    assert!(
        caught,
        "the write always finished before it could be signalled"
    );
}

#[test]
fn leftovers_of_a_killed_process_show_with_hidden() {
    let dir = workspace(&[
        ("a.txt", "a\n"),
        (".hashedit-0123456789abcdef.tmp", "partial"),
        ("sub/.hashedit-fedcba9876543210.tmp", "partial"),
    ]);
    let root = dir.path();
    assert_eq!(
        run(root, &["ls"], "").stdout,
        "a.txt\nsub/\n\n(1 hidden entry not shown: unfinished temp file of a killed write; --hidden \
         shows it)\n"
    );
    assert_eq!(
        run(root, &["ls", "--hidden"], "").stdout,
        ".hashedit-0123456789abcdef.tmp\na.txt\nsub/\n"
    );
    let out = run(root, &["glob", "*.tmp"], "");
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (
            Some(1),
            "no files matching '*.tmp' under . (2 hidden entries not shown, which --hidden shows)\n"
        )
    );
    assert_eq!(
        run(root, &["glob", "--hidden", "*.tmp"], "").stdout,
        ".hashedit-0123456789abcdef.tmp\nsub/.hashedit-fedcba9876543210.tmp\n\n2 files\n"
    );
}

#[test]
fn a_name_typed_in_another_unicode_form_finds_the_stored_file() {
    // opencode #31786: café.md stored NFD, typed NFC.
    let nfd = "cafe\u{301}.md";
    let nfc = "caf\u{e9}.md";
    let dir = workspace(&[(nfd, "hello\n")]);
    let root = dir.path();
    let note = format!(
        "note: '{nfc}' (NFC) is stored as '{nfd}' (NFD); the same name under Unicode normalisation, so \
         that existing entry was used (no second, look-alike name was created)"
    );
    let out = run(root, &["read", nfc], "");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    // A read creates nothing: its note does not say that nothing was created.
    let read_note = note.replace(" (no second, look-alike name was created)", "");
    assert_eq!(
        out.stdout,
        format!("[{nfd}#{}]\n1:hello\n\n{read_note}\n", tag(b"hello\n"))
    );
    // write replaces the stored file instead of creating a look-alike.
    let t = tag(b"hello\n");
    let out = run(root, &["write", nfc, "--tag", &t], "bye\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout.starts_with(&format!("replaced {nfd}\n")),
        "{}",
        out.stdout
    );
    assert!(out.stdout.ends_with(&format!("\n\n{note}\n")));
    // edit through the other spelling.
    let out = run(
        root,
        &["edit"],
        &format!("[{nfc}#{}]\nPUT 1:\n+ciao\n", tag(b"bye\n")),
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout.ends_with(&format!("\n\n{read_note}\n")),
        "{}",
        out.stdout
    );
    let names: Vec<String> = fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, [nfd]);
    assert_eq!(fs::read_to_string(root.join(nfd)).unwrap(), "ciao\n");
}

#[test]
fn a_row_that_really_starts_with_a_number_is_written_with_force() {
    // opencrabs #573: the refusal's workaround was refused too.
    let dir = workspace(&[("g.txt", "a\nb\nc\n")]);
    let root = dir.path();
    let t = tag(b"a\nb\nc\n");
    let doc = format!("[g.txt#{t}]\nPUT >1:\n+2:x\n");
    let out = run(root, &["edit"], &doc);
    assert_eq!(out.code, Some(1));
    assert_eq!(
        out.stderr,
        format!(
            "g.txt: edit document line 2: every body row starts with a line number, as copied from a read \
             (N:text), and the snapshot cannot confirm them as the replaced lines'; a + row holds only the \
             line's text, so rows copied from a read are written as below. If the text really starts with \
             those numbers, send the same document again with --force: force writes every row exactly as \
             sent, numbers included\n  2 | PUT >1:\ntry:\n  PUT >1:\n  +x\nNothing was written.\n\nLive \
             snapshot (copy this header and these line numbers to retry):\n[g.txt#{t}]\n1:a\n2:b\n3:c\n"
        )
    );
    let out = run(root, &["edit", "--force"], &doc);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(
        fs::read_to_string(root.join("g.txt")).unwrap(),
        "a\n2:x\nb\nc\n"
    );
}

#[test]
fn a_name_that_is_not_utf8_is_shown_escaped_and_usable_so() {
    use std::os::unix::ffi::OsStrExt;
    let dir = workspace(&[]);
    let root = dir.path();
    let name = std::ffi::OsStr::from_bytes(b"caf\xE9.txt");
    fs::write(root.join(name), "hello\n").unwrap();
    let t = tag(b"hello\n");
    assert_eq!(run(root, &["ls"], "").stdout, "\"caf\\xe9.txt\"\n");
    assert_eq!(
        run(root, &["glob", "*.txt"], "").stdout,
        "\"caf\\xe9.txt\"\n\n1 file\n"
    );
    assert_eq!(
        run(root, &["grep", "hello"], "").stdout,
        format!("[\"caf\\xe9.txt\"#{t}]\n1 | hello\n\n1 match in 1 file\n")
    );
    let out = run(root, &["read", "\"caf\\xe9.txt\""], "");
    assert_eq!(out.stdout, format!("[\"caf\\xe9.txt\"#{t}]\n1:hello\n"));
    let out = run(
        root,
        &["edit"],
        &format!("[\"caf\\xe9.txt\"#{t}]\nPUT 1:\n+bye\n"),
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(fs::read(root.join(name)).unwrap(), b"bye\n");
    // write creates such a name from its escaped spelling.
    let out = run(root, &["write", "\"new\\xff.txt\""], "x\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(
        fs::read(root.join(std::ffi::OsStr::from_bytes(b"new\xFF.txt"))).unwrap(),
        b"x\n"
    );
}

#[test]
fn a_dry_run_diff_stays_well_formed_with_a_lone_cr() {
    let dir = workspace(&[("cr.txt", "a\rb\nc\n")]);
    let root = dir.path();
    let t = tag(b"a\rb\nc\n");
    let out = run(
        root,
        &["edit", "--dry-run"],
        &format!("[cr.txt#{t}]\nPUT 2:\n+C\n"),
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let diff = "--- a/cr.txt\n+++ b/cr.txt\n@@ -1,2 +1,2 @@\n a\rb\n-c\n+C\n";
    assert_eq!(out.stdout, diff);
    // patch(1) applies it to the file, when it is installed.
    let applied = Command::new("patch")
        .args(["-p1", "--quiet"])
        .current_dir(root)
        .stdin(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(diff.as_bytes())?;
            child.wait()
        });
    match applied {
        Ok(status) => {
            assert!(status.success());
            assert_eq!(fs::read(root.join("cr.txt")).unwrap(), b"a\rb\nC\n");
        }
        Err(e) => hashedit_skip::skip(
            "a_dry_run_diff_stays_well_formed_with_a_lone_cr",
            "that patch(1) applies the dry-run diff",
            &format!("patch does not run ({e})"),
        ),
    }
}

#[test]
fn long_work_on_a_terminal_shows_progress_on_stderr_and_erases_it() {
    if !succeeds("script", &["-qec", "true", "/dev/null"]) {
        hashedit_skip::skip(
            "long_work_on_a_terminal_shows_progress_on_stderr_and_erases_it",
            "progress on a terminal",
            "script(1) (util-linux) does not run here",
        );
        return;
    }
    let dir = workspace(&[("a.txt", "a\n")]);
    // The write reads its content from a FIFO that gets it only once the
    // progress line is on the terminal (script(1) provides one): the
    // event, not a sleep, decides when the write may finish.
    let fifo = dir.path().join("content.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let command = format!(
        "HASHEDIT_REGISTRY=off {} --root {} write a.txt --force < {}",
        env!("CARGO_BIN_EXE_hashedit"),
        dir.path().display(),
        fifo.display()
    );
    let mut script = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut terminal = script.stdout.take().unwrap();
    // Opening blocks until the shell opens the FIFO to read it.
    let mut content = fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    const PREFIX: &str = "\r\x1b[Khashedit: write still running after ";
    const SUFFIX: &str = " s (Ctrl-C stops it; nothing half-written is left)";
    let mut seen = Vec::new();
    let mut chunk = [0u8; 256];
    while !String::from_utf8_lossy(&seen).contains(SUFFIX) {
        let n = std::io::Read::read(&mut terminal, &mut chunk).unwrap();
        assert!(n > 0, "the terminal closed before any progress: {seen:?}");
        seen.extend_from_slice(&chunk[..n]);
    }
    content.write_all(b"b\n").unwrap();
    drop(content);
    std::io::Read::read_to_end(&mut terminal, &mut seen).unwrap();
    assert!(script.wait().unwrap().success());
    let seen = String::from_utf8(seen).unwrap();
    // Every progress line names the seconds the write has run (by its own
    // clock), and the last one is erased before the result is printed.
    let (progress, result) = seen.rsplit_once("\r\x1b[K").unwrap();
    assert_eq!(
        result,
        format!("replaced a.txt\r\n\r\n[a.txt#{}]\r\n1:b\r\n", tag(b"b\n")),
        "{seen:?}"
    );
    let lines: Vec<&str> = progress.split(PREFIX).collect();
    assert_eq!(lines[0], "", "{seen:?}");
    for line in &lines[1..] {
        let seconds = line
            .strip_suffix(SUFFIX)
            .unwrap_or_else(|| panic!("{seen:?}"));
        let tenths = seconds
            .split_once('.')
            .unwrap_or_else(|| panic!("{seen:?}"));
        assert!(
            tenths.0.parse::<u32>().unwrap() >= 1 && tenths.1.len() == 1,
            "{seen:?}"
        );
    }
    assert_eq!(fs::read_to_string(dir.path().join("a.txt")).unwrap(), "b\n");
}

#[test]
fn a_root_that_is_a_file_is_named_once() {
    let dir = workspace(&[("f.txt", "x\n")]);
    let file = dir.path().join("f.txt");
    let out = run(&file, &["read", "f.txt"], "");
    assert_eq!(out.code, Some(2));
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        format!(
            "hashedit: the workspace root {} is not a directory; give a directory path\n",
            file.display()
        )
    );
}

#[test]
fn a_zero_cap_is_a_usage_error_not_a_cap_of_one() {
    let dir = workspace(&[("a.txt", "foo\n"), ("b.txt", "foo\n")]);
    let root = dir.path();
    for (args, flag) in [
        (
            &["grep", "foo", "--max-results", "0"][..],
            "--max-results <MAX_RESULTS>",
        ),
        (
            &["grep", "foo", "--max-per-file", "0"][..],
            "--max-per-file <MAX_PER_FILE>",
        ),
        (
            &["glob", "*.txt", "--max-results", "0"][..],
            "--max-results <MAX_RESULTS>",
        ),
    ] {
        let out = run(root, args, "");
        assert_eq!(out.code, Some(2), "{args:?}");
        assert_eq!(out.stdout, "", "{args:?}");
        assert_eq!(
            out.stderr,
            format!(
                "error: invalid value '0' for '{flag}': the cap must be at least 1\n\nFor more \
                 information, try '--help'.\n"
            ),
            "{args:?}"
        );
    }
}

/// Runs `hashedit --root ROOT ARGS…` with stdout on `stdout`.
fn run_into(root: &Path, args: &[&str], stdin: &str, stdout: Stdio) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hashedit"))
        .arg("--root")
        .arg(root)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .env("HASHEDIT_REGISTRY", "off")
        .spawn()
        .expect("hashedit runs");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn output_that_cannot_be_written_is_an_error_and_a_closed_pipe_is_not() {
    let dir = workspace(&[("a.txt", "a\n")]);
    let root = dir.path();
    let full = || {
        Stdio::from(
            fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
    };
    let (code, stderr) = run_into(root, &["read", "a.txt"], "", full());
    assert_eq!(code, Some(1));
    assert_eq!(
        stderr,
        "hashedit: cannot write the output: No space left on device (os error 28)\n"
    );
    let (code, stderr) = run_into(root, &["write", "b.txt"], "b\n", full());
    assert_eq!(code, Some(1));
    assert_eq!(
        stderr,
        "hashedit: cannot write the output: No space left on device (os error 28); the change \
         itself was made (read the file to see it)\n"
    );
    assert_eq!(fs::read(root.join("b.txt")).unwrap(), b"b\n");
    // A reader that stops early (`| head`): no message, exit 0.
    let many: String = (0..100_000).map(|i| format!("line {i}\n")).collect();
    fs::write(root.join("big.txt"), &many).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hashedit"))
        .args(["--max-output-bytes", "100000000", "--root"])
        .arg(root)
        .args(["read", "big.txt", "--limit", "100000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("HASHEDIT_REGISTRY", "off")
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));
}
