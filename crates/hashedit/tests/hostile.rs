//! Hostile inputs through the real binary (issue 5, scope item 4): each
//! gets a clear error — the exact kind and a fragment of the message —
//! without blocking (a call that blocked, say on a FIFO, would hang the
//! test: no clock decides), and leaves every file in and around the
//! workspace exactly as it was. The size cases (a 1 GiB line, a 2 GiB file, a million ops)
//! are measured by `hashedit-stress bench`, not timed here (see
//! docs/RELIABILITY.md).

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// A workspace `proj` with a prefix sibling `proj-evil` and an outside
/// directory, under one temp dir.
struct Fixture {
    _dir: tempfile::TempDir,
    base: PathBuf,
    root: PathBuf,
}

impl Fixture {
    /// The workspace root, opened as a directory descriptor.
    fn root_dir(&self) -> rustix::fd::OwnedFd {
        rustix::fs::openat(
            rustix::fs::CWD,
            &self.root,
            rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY,
            rustix::fs::Mode::empty(),
        )
        .unwrap()
    }

    /// Makes a FIFO named `name` in the workspace root.
    fn fifo(&self, name: &str) {
        rustix::fs::mkfifoat(
            self.root_dir(),
            name,
            rustix::fs::Mode::from_raw_mode(0o666),
        )
        .unwrap();
    }

    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let base = fs::canonicalize(dir.path()).unwrap();
        let root = base.join("proj");
        fs::create_dir_all(root.join("sub")).unwrap();
        fs::create_dir_all(base.join("proj-evil")).unwrap();
        fs::create_dir_all(base.join("outside")).unwrap();
        fs::write(base.join("proj-evil/secret.txt"), "evil\n").unwrap();
        fs::write(base.join("outside/secret.txt"), "outside\n").unwrap();
        fs::write(root.join("ok.txt"), "one\ntwo\n").unwrap();
        Fixture {
            _dir: dir,
            base,
            root,
        }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    /// Everything under the temp dir: file bytes, link targets, kinds,
    /// modes and inodes.
    fn snapshot(&self) -> BTreeMap<PathBuf, String> {
        let mut out = BTreeMap::new();
        walk(&self.base, &mut out);
        out
    }
}

fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, String>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        let kind = meta.file_type();
        let what = if kind.is_symlink() {
            format!("link -> {:?}", fs::read_link(&path).ok())
        } else if kind.is_dir() {
            walk(&path, out);
            format!("dir {:o}", meta.mode())
        } else if kind.is_file() {
            let digest = fs::read(&path)
                .map(|b| format!("{b:?}"))
                .unwrap_or_default();
            format!(
                "file {:o} ino {} mtime {}.{} {digest}",
                meta.mode(),
                meta.ino(),
                meta.mtime(),
                meta.mtime_nsec()
            )
        } else {
            format!("special {:o} ino {}", meta.mode(), meta.ino())
        };
        out.insert(path, what);
    }
}

/// The outcome of one CLI call.
struct Outcome {
    code: Option<i32>,
    json: Value,
    stderr: String,
}

impl Outcome {
    fn kind(&self) -> &str {
        self.json["error"]["kind"].as_str().unwrap_or("")
    }

    fn message(&self) -> &str {
        self.json["error"]["message"].as_str().unwrap_or("")
    }

    /// Asserts a tool error (exit 1) of `kind` whose message contains
    /// `fragment`.
    #[track_caller]
    fn refused(&self, kind: &str, fragment: &str) {
        assert_eq!(self.code, Some(1), "{} / {}", self.json, self.stderr);
        assert_eq!(self.kind(), kind, "{}", self.json);
        assert!(
            self.message().contains(fragment),
            "message {:?} lacks {fragment:?}",
            self.message()
        );
    }
}

/// Runs `hashedit --root ROOT --json ARGS` with `stdin`, as `user` when
/// given, and waits for it to exit.
fn run_as(root: &Path, args: &[&str], stdin: &[u8], user: Option<(u32, u32)>) -> Outcome {
    let mut command = Command::new(env!("CARGO_BIN_EXE_hashedit"));
    command
        .arg("--root")
        .arg(root)
        .arg("--json")
        .args(args)
        .env("HASHEDIT_REGISTRY", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some((uid, gid)) = user {
        command.uid(uid).gid(gid);
    }
    let mut child = command.spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    let _ = feeder.join();
    let status = output.status;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    Outcome {
        code: status.code(),
        json: serde_json::from_str(stdout.trim()).unwrap_or(Value::Null),
        stderr,
    }
}

fn run(root: &Path, args: &[&str], stdin: &[u8]) -> Outcome {
    run_as(root, args, stdin, None)
}

fn tag_of(bytes: &[u8]) -> String {
    hashedit_core::TagScheme::Rho.tag_of(bytes).to_string()
}

/// `[path#TAG]\nPUT 1:\n+x\n` with the tag of `bytes`.
fn put_line_1(path: &str, bytes: &[u8]) -> String {
    format!("[{path}#{}]\nPUT 1:\n+x\n", tag_of(bytes))
}

/// Runs read, edit and write on `path`, expecting `kind` and `fragment`
/// from each, with every file unchanged.
#[track_caller]
fn refused_by_every_tool(f: &Fixture, path: &str, kind: &str, fragment: &str) {
    let before = f.snapshot();
    run(&f.root, &["read", path], b"").refused(kind, fragment);
    run(&f.root, &["edit"], put_line_1(path, b"").as_bytes()).refused(kind, fragment);
    run(&f.root, &["write", path], b"new\n").refused(kind, fragment);
    assert_eq!(f.snapshot(), before, "{path}: files changed");
}

#[test]
fn invalid_utf8_nul_and_utf16_are_refused_without_a_tag() {
    let f = Fixture::new();
    let cases: [(&str, &[u8], &str, &str); 5] = [
        (
            "bad.txt",
            b"ok\xff\xfe bad\n",
            "not_utf8",
            "bad.txt is not valid UTF-8 (first invalid byte at offset 2)",
        ),
        (
            "nul.txt",
            b"a\0b\n",
            "binary",
            "nul.txt is a binary file (NUL byte at offset 1)",
        ),
        (
            "le.txt",
            b"\xff\xfea\0b\0\n\0",
            "unsupported_encoding",
            "le.txt is UTF-16LE text",
        ),
        (
            "be.txt",
            b"\xfe\xff\0a\0b\0\n",
            "unsupported_encoding",
            "be.txt is UTF-16BE text",
        ),
        (
            "u32.txt",
            b"\xff\xfe\0\0a\0\0\0",
            "unsupported_encoding",
            "u32.txt is UTF-32LE text",
        ),
    ];
    for (name, bytes, _, _) in &cases {
        fs::write(f.path(name), bytes).unwrap();
    }
    let before = f.snapshot();
    for (name, bytes, kind, fragment) in cases {
        let read = run(&f.root, &["read", name], b"");
        read.refused(kind, fragment);
        assert!(
            read.message().ends_with("so no snapshot tag was issued"),
            "{}",
            read.message()
        );
        // Even with the tag of the exact bytes, edit refuses.
        let edit = run(&f.root, &["edit"], put_line_1(name, bytes).as_bytes());
        edit.refused(kind, fragment);
        assert!(
            edit.message()
                .contains("edit only changes UTF-8 text files and left it untouched")
        );
    }
    assert_eq!(f.snapshot(), before);
}

#[test]
fn documents_that_would_break_the_text_are_refused() {
    let f = Fixture::new();
    let before = f.snapshot();
    let tag = tag_of(b"one\ntwo\n");
    run(
        &f.root,
        &["edit"],
        format!("[ok.txt#{tag}]\nPUT 1:\n+a\0b\n").as_bytes(),
    )
    .refused(
        "parse_error",
        "has a body row containing a NUL byte, which would make this text file binary",
    );
    run(
        &f.root,
        &["edit"],
        format!("[ok.txt#{tag}]\nPUT 1:\n+\u{FEFF}one\n").as_bytes(),
    )
    .refused(
        "parse_error",
        "has a body row starting with U+FEFF (a byte order mark)",
    );
    // A document that is not UTF-8 is refused as a tool error (exit 1).
    let mut not_utf8 = format!("[ok.txt#{tag}]\nPUT 1:\n+").into_bytes();
    not_utf8.extend_from_slice(b"\xff\n");
    run(&f.root, &["edit"], &not_utf8).refused("not_utf8", "is not UTF-8 text");
    assert_eq!(f.snapshot(), before);
}

#[test]
fn special_files_are_refused_without_blocking() {
    let f = Fixture::new();
    let root_fd = f.root_dir();
    f.fifo("fifo");
    let _socket = std::os::unix::net::UnixListener::bind(f.path("sock")).unwrap();
    refused_by_every_tool(
        &f,
        "fifo",
        "not_a_regular_file",
        "fifo is a FIFO (named pipe), not a regular file",
    );
    refused_by_every_tool(
        &f,
        "sock",
        "not_a_regular_file",
        "sock is a socket, not a regular file",
    );
    refused_by_every_tool(
        &f,
        "sub",
        "not_a_regular_file",
        "sub is a directory; use list_dir to see its entries",
    );
    // /dev/zero reached through a symlink is outside the workspace.
    symlink("/dev/zero", f.path("zero-link")).unwrap();
    refused_by_every_tool(
        &f,
        "zero-link",
        "path_outside_workspace",
        "zero-link leads outside the workspace root",
    );
    // A device node inside the workspace (needs CAP_MKNOD).
    let made = rustix::fs::mknodat(
        &root_fd,
        "zero",
        rustix::fs::FileType::CharacterDevice,
        rustix::fs::Mode::from_raw_mode(0o666),
        rustix::fs::makedev(1, 5),
    );
    if made.is_ok() {
        refused_by_every_tool(
            &f,
            "zero",
            "not_a_regular_file",
            "zero is a character device, not a regular file",
        );
    } else {
        hashedit_skip::skip(
            "special_files_are_refused_without_blocking",
            "the refusal of a device node in the workspace",
            &format!("mknod fails here ({made:?}; it needs CAP_MKNOD)"),
        );
    }
}

#[test]
fn unreadable_and_read_only_files() {
    let f = Fixture::new();
    fs::write(f.path("secret.txt"), "s\n").unwrap();
    fs::set_permissions(f.path("secret.txt"), fs::Permissions::from_mode(0o000)).unwrap();
    fs::write(f.path("ro.txt"), "ro\n").unwrap();
    fs::set_permissions(f.path("ro.txt"), fs::Permissions::from_mode(0o444)).unwrap();
    let before = f.snapshot();
    // Root reads a mode-000 file (the kernel lets it); anyone else is
    // refused. As root, check the refusals as another user.
    let is_root = hashedit_skip::runs_as(
        hashedit_skip::Privilege::Root,
        "unreadable_and_read_only_files",
        "that root reads a mode-000 file",
    );
    let user = is_root.then_some((1234, 1234));
    if is_root {
        for dir in [&f.base, &f.root] {
            fs::set_permissions(dir, fs::Permissions::from_mode(0o755)).unwrap();
        }
        let read = run(&f.root, &["read", "secret.txt"], b"");
        assert_eq!(
            read.code,
            Some(0),
            "root bypasses file modes: {}",
            read.json
        );
    }
    run_as(&f.root, &["read", "secret.txt"], b"", user).refused(
        "permission_denied",
        "cannot open secret.txt: Permission denied",
    );
    // Read-only (no write bit): refused by policy, even for root, even
    // with the right tag.
    run(&f.root, &["edit"], put_line_1("ro.txt", b"ro\n").as_bytes()).refused(
        "permission_denied",
        "ro.txt is read-only (mode 0444); nothing was written",
    );
    run(&f.root, &["write", "ro.txt"], b"x\n").refused(
        "permission_denied",
        "ro.txt is read-only (mode 0444); nothing was written",
    );
    // A directory that does not allow creating files.
    fs::create_dir(f.path("locked")).unwrap();
    fs::write(f.path("locked/f.txt"), "a\n").unwrap();
    fs::set_permissions(f.path("locked/f.txt"), fs::Permissions::from_mode(0o666)).unwrap();
    fs::set_permissions(f.path("locked"), fs::Permissions::from_mode(0o555)).unwrap();
    let before_locked = f.snapshot();
    run_as(
        &f.root,
        &["edit"],
        put_line_1("locked/f.txt", b"a\n").as_bytes(),
        user,
    )
    .refused(
        "permission_denied",
        "cannot write locked/f.txt: its directory does not allow creating files (Permission \
         denied); hashedit creates or replaces a file by writing a new file beside it and renaming \
         it into place, so the directory locked must be writable (chmod u+w locked, if that is what \
         you want)",
    );
    run_as(&f.root, &["write", "locked/new.txt"], b"x\n", user).refused(
        "permission_denied",
        "its directory does not allow creating files",
    );
    assert_eq!(f.snapshot(), before_locked);
    fs::set_permissions(f.path("locked"), fs::Permissions::from_mode(0o755)).unwrap();
    fs::remove_dir_all(f.path("locked")).unwrap();
    assert_eq!(f.snapshot(), before);
}

#[test]
fn files_deleted_or_replaced_between_read_and_edit() {
    let f = Fixture::new();
    let old = b"one\ntwo\n";
    let document = put_line_1("ok.txt", old);
    // Deleted: edit never recreates it.
    fs::remove_file(f.path("ok.txt")).unwrap();
    run(&f.root, &["edit"], document.as_bytes()).refused(
        "not_found",
        "ok.txt (document line 1) does not exist; edit never creates files",
    );
    assert!(!f.path("ok.txt").exists());
    // Replaced by other content (another inode, via rename): stale.
    fs::write(f.path("staged"), "changed\n").unwrap();
    fs::rename(f.path("staged"), f.path("ok.txt")).unwrap();
    let before = f.snapshot();
    run(&f.root, &["edit"], document.as_bytes()).refused("stale_tag", "ok.txt: snapshot tag");
    // Replaced by a FIFO, a directory, a symlink out of the workspace.
    fs::remove_file(f.path("ok.txt")).unwrap();
    f.fifo("ok.txt");
    run(&f.root, &["edit"], document.as_bytes()).refused("not_a_regular_file", "ok.txt is a FIFO");
    fs::remove_file(f.path("ok.txt")).unwrap();
    fs::create_dir(f.path("ok.txt")).unwrap();
    run(&f.root, &["edit"], document.as_bytes())
        .refused("not_a_regular_file", "ok.txt is a directory");
    fs::remove_dir(f.path("ok.txt")).unwrap();
    symlink(f.base.join("outside/secret.txt"), f.path("ok.txt")).unwrap();
    let before_link = f.snapshot();
    run(&f.root, &["edit"], document.as_bytes()).refused(
        "path_outside_workspace",
        "ok.txt leads outside the workspace root",
    );
    run(&f.root, &["write", "ok.txt"], b"x\n").refused(
        "path_outside_workspace",
        "ok.txt leads outside the workspace root",
    );
    assert_eq!(f.snapshot(), before_link);
    assert_ne!(before, before_link);
}

#[test]
fn symlink_loops_and_escapes_are_refused() {
    let f = Fixture::new();
    symlink("loop-b", f.path("loop-a")).unwrap();
    symlink("loop-a", f.path("loop-b")).unwrap();
    symlink("self", f.path("self")).unwrap();
    for name in ["loop-a", "self"] {
        refused_by_every_tool(&f, name, "invalid_arguments", "which means a symlink loop");
    }
    // File and directory links pointing out, relative and absolute.
    symlink("../outside/secret.txt", f.path("rel-out")).unwrap();
    symlink(f.base.join("outside"), f.path("dir-out")).unwrap();
    symlink(f.base.join("proj-evil"), f.path("sub/sibling")).unwrap();
    for (path, fragment) in [
        ("rel-out", "rel-out leads outside the workspace root"),
        ("dir-out/secret.txt", "through the symlink dir-out"),
        ("dir-out/new.txt", "through the symlink dir-out"),
        ("sub/sibling/secret.txt", "through the symlink sub/sibling"),
    ] {
        refused_by_every_tool(&f, path, "path_outside_workspace", fragment);
    }
    // `..`, absolute paths, and the prefix sibling, to files that exist
    // and to files that do not: one message either way (nothing about the
    // outside is revealed).
    let evil = f.base.join("proj-evil/secret.txt");
    let evil_missing = f.base.join("proj-evil/missing.txt");
    for path in [
        "../proj-evil/secret.txt".to_string(),
        "../proj-evil/missing.txt".to_string(),
        "sub/../../outside/secret.txt".to_string(),
        evil.display().to_string(),
        evil_missing.display().to_string(),
        "/etc/hostname".to_string(),
    ] {
        let fragment = format!(
            "{path} leads outside the workspace root {}; paths must stay inside the workspace root",
            f.root.display()
        );
        refused_by_every_tool(&f, &path, "path_outside_workspace", &fragment);
    }
}

#[test]
fn long_deep_and_odd_paths() {
    let f = Fixture::new();
    let before = f.snapshot();
    // NAME_MAX and PATH_MAX: clear errors, nothing created.
    let long_name = "n".repeat(256);
    run(&f.root, &["write", &long_name], b"x\n")
        .refused("invalid_arguments", "has a name of 256 bytes");
    run(&f.root, &["read", &long_name], b"").refused(
        "invalid_arguments",
        "over the 255-byte limit of file systems",
    );
    let segment = "d".repeat(100);
    let too_deep = vec![segment.as_str(); 41].join("/") + "/f.txt";
    run(&f.root, &["write", &too_deep], b"x\n").refused(
        "invalid_arguments",
        "over the 4095-byte limit of the system",
    );
    assert_eq!(f.snapshot(), before);
    // 255 bytes and 200 directories deep are fine, end to end.
    let max_name = "m".repeat(255);
    assert_eq!(run(&f.root, &["write", &max_name], b"x\n").code, Some(0));
    let deep = vec!["d"; 200].join("/") + "/f.txt";
    assert_eq!(run(&f.root, &["write", &deep], b"one\n").code, Some(0));
    let edit = run(&f.root, &["edit"], put_line_1(&deep, b"one\n").as_bytes());
    assert_eq!(edit.code, Some(0), "{}", edit.json);
    assert_eq!(fs::read(f.path(&deep)).unwrap(), b"x\n");
    // A name with a newline is shown quoted on one header line and can be
    // edited through that spelling.
    fs::write(f.path("new\nline.txt"), "a\n").unwrap();
    let read = run(&f.root, &["read", "new\nline.txt"], b"");
    let text = read.json["text"].as_str().unwrap().to_string();
    let header = text.lines().next().unwrap();
    assert_eq!(header, format!("[\"new\\nline.txt\"#{}]", tag_of(b"a\n")));
    let edit = run(
        &f.root,
        &["edit"],
        format!("{header}\nPUT 1:\n+b\n").as_bytes(),
    );
    assert_eq!(edit.code, Some(0), "{}", edit.json);
    assert_eq!(fs::read(f.path("new\nline.txt")).unwrap(), b"b\n");
}

/// A minimal MCP session over stdio for the tests below.
struct Mcp {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
    id: i64,
}

impl Mcp {
    fn start(root: &Path) -> Mcp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hashedit"))
            .arg("--root")
            .arg(root)
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut mcp = Mcp {
            child,
            stdin,
            stdout,
            id: 0,
        };
        mcp.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "hostile", "version": "0"}}),
        );
        writeln!(
            mcp.stdin,
            "{}",
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
        )
        .unwrap();
        mcp
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        use std::io::BufRead;
        self.id += 1;
        writeln!(
            self.stdin,
            "{}",
            json!({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})
        )
        .unwrap();
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap()
    }

    /// Calls a tool and returns (isError, kind, text).
    fn call(&mut self, tool: &str, arguments: Value) -> (bool, String, String) {
        let reply = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let result = &reply["result"];
        (
            result["isError"] == true,
            result["_meta"]["io.github.hashedit/result"]["kind"]
                .as_str()
                .unwrap_or("")
                .to_string(),
            result["content"][0]["text"]
                .as_str()
                .unwrap_or("")
                .to_string(),
        )
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_mcp_server_refuses_the_same_inputs() {
    let f = Fixture::new();
    fs::write(f.path("nul.txt"), b"a\0b\n").unwrap();
    f.fifo("fifo");
    symlink(f.base.join("outside"), f.path("dir-out")).unwrap();
    let before = f.snapshot();
    let mut mcp = Mcp::start(&f.root);
    let tag = tag_of(b"one\ntwo\n");
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "read_file",
            json!({"path": "nul.txt"}),
            "binary",
            "nul.txt is a binary file",
        ),
        (
            "read_file",
            json!({"path": "fifo"}),
            "not_a_regular_file",
            "fifo is a FIFO",
        ),
        (
            "write",
            json!({"path": "fifo", "content": "x"}),
            "not_a_regular_file",
            "fifo is a FIFO",
        ),
        (
            "write",
            json!({"path": "dir-out/new.txt", "content": "x"}),
            "path_outside_workspace",
            "through the symlink dir-out",
        ),
        (
            "write",
            json!({"path": "../proj-evil/new.txt", "content": "x"}),
            "path_outside_workspace",
            "leads outside the workspace root",
        ),
        (
            "edit",
            json!({"input": format!("[ok.txt#{tag}]\nPUT 1:\n+a\u{0}b\n")}),
            "parse_error",
            "containing a NUL byte",
        ),
        (
            "edit",
            json!({"input": format!("[{}#0000]\nPUT 1:\n+x\n", "n".repeat(300))}),
            "invalid_arguments",
            "over the 255-byte limit",
        ),
    ];
    for (tool, arguments, kind, fragment) in cases {
        let (is_error, got_kind, text) = mcp.call(tool, arguments.clone());
        assert!(is_error, "{tool} {arguments}: {text}");
        assert_eq!(got_kind, kind, "{tool} {arguments}: {text}");
        assert!(
            text.contains(fragment),
            "{tool} {arguments}: {text:?} lacks {fragment:?}"
        );
    }
    assert_eq!(f.snapshot(), before);
}
