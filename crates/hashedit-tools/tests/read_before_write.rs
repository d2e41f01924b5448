//! Read before write (FORMAT.md §6.7): `write` replaces an existing file
//! only when the session served its live snapshot, the call passes its
//! live tag, or `force` is set; creating a file needs none of them. Every
//! refusal leaves the file's bytes exactly as they were.

use std::fs;

use hashedit_core::Surface;
use hashedit_tools::{
    EditArgs, EditMode, ErrorKind, GrepArgs, Outcome, ReadFileArgs, Session, ToolContext,
    ToolResult, Workspace, WriteArgs,
};

const OLD: &str = "one\ntwo\nthree\n";
const NEW: &str = "uno\n";

const UNREAD_MCP: &str = "notes.txt exists and this session has not read it; nothing was \
written. To replace it, call read_file on notes.txt first and write again, or pass the tag of \
the snapshot you mean to replace; to replace it unread, send the write again with force: true";

const CHANGED_MCP: &str = "notes.txt changed since this session last read it; nothing was \
written. To replace it, call read_file on notes.txt first and write again, or pass the tag of \
the snapshot you mean to replace; to replace it unread, send the write again with force: true";

const UNREAD_CLI: &str = "notes.txt exists and no hashedit call has read it; nothing was \
written. To replace it, run hashedit read notes.txt first and write again, or pass the --tag of \
the snapshot you mean to replace; to replace it unread, send the write again with --force";

struct Ws {
    dir: tempfile::TempDir,
    ws: Workspace,
    session: Session,
}

impl Ws {
    /// A workspace holding `notes.txt` (written directly, as another
    /// program would) and an empty session.
    fn new() -> Ws {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("notes.txt"), OLD).unwrap();
        let ws = Workspace::new(dir.path()).unwrap();
        Ws {
            dir,
            ws,
            session: Session::new(),
        }
    }

    fn cx(&self) -> ToolContext<'_> {
        ToolContext::new(&self.ws).with_session(&self.session)
    }

    fn notes(&self) -> String {
        fs::read_to_string(self.dir.path().join("notes.txt")).unwrap()
    }

    fn put_notes(&self, content: &str) {
        fs::write(self.dir.path().join("notes.txt"), content).unwrap();
    }

    fn read(&self) -> String {
        let out = hashedit_tools::read_file(
            &self.cx(),
            &ReadFileArgs {
                path: "notes.txt".into(),
                ..Default::default()
            },
        )
        .unwrap();
        out.structured()["tag"].as_str().unwrap().to_string()
    }
}

fn write(cx: &ToolContext, path: &str, tag: Option<&str>, force: bool) -> ToolResult<Outcome> {
    hashedit_tools::write(
        cx,
        &WriteArgs {
            path: path.into(),
            content: NEW.into(),
            tag: tag.map(str::to_string),
            force: force.then_some(true),
        },
    )
}

#[test]
fn a_blind_write_over_an_unread_file_is_refused_and_writes_nothing() {
    let w = Ws::new();
    let err = write(&w.cx(), "notes.txt", None, false).unwrap_err();
    assert_eq!(err.kind, ErrorKind::UnreadFile);
    assert_eq!(err.kind.name(), "unread_file");
    assert_eq!(err.message, UNREAD_MCP);
    assert_eq!(w.notes(), OLD);
}

#[test]
fn the_cli_refusal_names_its_own_command_and_flags() {
    let w = Ws::new();
    let cx = w.cx().with_surface(Surface::Cli);
    let err = write(&cx, "notes.txt", None, false).unwrap_err();
    assert_eq!(err.kind, ErrorKind::UnreadFile);
    assert_eq!(err.message, UNREAD_CLI);
    assert_eq!(w.notes(), OLD);
}

#[test]
fn a_read_of_the_live_file_allows_the_write() {
    let w = Ws::new();
    w.read();
    let out = write(&w.cx(), "notes.txt", None, false).unwrap();
    assert!(
        out.text.starts_with("replaced notes.txt\n\n"),
        "{}",
        out.text
    );
    assert_eq!(w.notes(), NEW);
    // The write's own reply is a snapshot the session served: writing
    // again needs no new read.
    write(&w.cx(), "notes.txt", None, false).unwrap();
}

#[test]
fn a_windowed_read_counts_as_a_read_of_the_file() {
    let w = Ws::new();
    hashedit_tools::read_file(
        &w.cx(),
        &ReadFileArgs {
            path: "notes.txt".into(),
            offset: Some(3),
            limit: Some(1),
        },
    )
    .unwrap();
    write(&w.cx(), "notes.txt", None, false).unwrap();
    assert_eq!(w.notes(), NEW);
}

#[test]
fn a_grep_hit_counts_as_a_read_of_the_file() {
    let w = Ws::new();
    hashedit_tools::grep(
        &w.cx(),
        &GrepArgs {
            pattern: "two".into(),
            ..Default::default()
        },
    )
    .unwrap();
    write(&w.cx(), "notes.txt", None, false).unwrap();
    assert_eq!(w.notes(), NEW);
}

#[test]
fn an_edits_preview_counts_as_a_read_of_the_file() {
    let w = Ws::new();
    // The tag as another program computes it: nothing was served yet.
    let tag = w.ws.tag_scheme().tag_of(OLD.as_bytes());
    hashedit_tools::edit(
        &w.cx(),
        &EditArgs::new(format!("[notes.txt#{tag}]\nPUT 2:\n+TWO")),
        EditMode::Apply,
    )
    .unwrap();
    write(&w.cx(), "notes.txt", None, false).unwrap();
    assert_eq!(w.notes(), NEW);
}

#[test]
fn a_file_changed_since_the_read_is_refused() {
    let w = Ws::new();
    w.read();
    w.put_notes("one\ntwo\nthree\nfour\n");
    let err = write(&w.cx(), "notes.txt", None, false).unwrap_err();
    assert_eq!(err.kind, ErrorKind::UnreadFile);
    assert_eq!(err.message, CHANGED_MCP);
    assert_eq!(w.notes(), "one\ntwo\nthree\nfour\n");
    // Reading it again is what the refusal asks.
    w.read();
    write(&w.cx(), "notes.txt", None, false).unwrap();
    assert_eq!(w.notes(), NEW);
}

#[test]
fn the_live_tag_allows_an_unread_write_and_a_stale_one_is_refused() {
    let w = Ws::new();
    let live = w.ws.tag_scheme().tag_of(OLD.as_bytes()).to_string();
    let stale = w.ws.tag_scheme().tag_of(b"something else\n").to_string();
    let err = write(&w.cx(), "notes.txt", Some(&stale), false).unwrap_err();
    assert_eq!(err.kind, ErrorKind::StaleTag);
    assert_eq!(
        err.message,
        format!(
            "notes.txt: snapshot tag {stale} is stale: the file's tag is now {live} (it changed \
             since that snapshot, or the tag was mistyped); nothing was written. Check the live \
             snapshot below, then write again with tag {live} if you still mean to replace \
             it:\n[notes.txt#{live}]\n1:one\n2:two\n3:three"
        )
    );
    assert_eq!(w.notes(), OLD);
    // A stale tag is refused even with force: force never passes a tag.
    let err = write(&w.cx(), "notes.txt", Some(&stale), true).unwrap_err();
    assert_eq!(err.kind, ErrorKind::StaleTag);
    assert_eq!(w.notes(), OLD);
    write(&w.cx(), "notes.txt", Some(&live), false).unwrap();
    assert_eq!(w.notes(), NEW);
}

#[test]
fn force_replaces_an_unread_file() {
    let w = Ws::new();
    write(&w.cx(), "notes.txt", None, true).unwrap();
    assert_eq!(w.notes(), NEW);
}

#[test]
fn creating_a_file_needs_no_read() {
    let w = Ws::new();
    let out = write(&w.cx(), "new/fresh.txt", None, false).unwrap();
    assert!(
        out.text.starts_with("created new/fresh.txt\n\n"),
        "{}",
        out.text
    );
    assert_eq!(
        fs::read_to_string(w.dir.path().join("new/fresh.txt")).unwrap(),
        NEW
    );
}

#[test]
fn without_a_session_only_the_tag_or_force_replace_a_file() {
    let w = Ws::new();
    let cx = ToolContext::new(&w.ws);
    let err = write(&cx, "notes.txt", None, false).unwrap_err();
    assert_eq!(err.kind, ErrorKind::UnreadFile);
    assert_eq!(err.message, UNREAD_MCP);
    assert_eq!(w.notes(), OLD);
    let live = w.ws.tag_scheme().tag_of(OLD.as_bytes()).to_string();
    write(&cx, "notes.txt", Some(&live), false).unwrap();
    assert_eq!(w.notes(), NEW);
}

#[test]
fn a_file_that_is_not_text_can_be_replaced_only_with_force() {
    let w = Ws::new();
    let bytes = b"\xff\xfe\x00binary\n";
    fs::write(w.dir.path().join("blob.bin"), bytes).unwrap();
    let err = write(&w.cx(), "blob.bin", None, false).unwrap_err();
    assert_eq!(err.kind, ErrorKind::UnreadFile);
    assert_eq!(
        err.message,
        "blob.bin exists and is not UTF-8 text, so it cannot be read as rows; nothing was \
         written. To replace it whole, send the write again with force: true"
    );
    assert_eq!(fs::read(w.dir.path().join("blob.bin")).unwrap(), bytes);
    write(&w.cx(), "blob.bin", None, true).unwrap();
    assert_eq!(
        fs::read_to_string(w.dir.path().join("blob.bin")).unwrap(),
        NEW
    );
}

/// Numbered rows sent over an unread file: the read check speaks first, so
/// the `force` the pasted-content refusal offers is never the model's
/// first word about a file it has not read. Once read, the content is
/// refused as pasted read output.
#[test]
fn pasted_rows_over_an_unread_file_are_refused_as_unread_first() {
    let w = Ws::new();
    let pasted = WriteArgs {
        path: "notes.txt".into(),
        content: "1:a\n2:b\n".into(),
        tag: None,
        force: None,
    };
    let err = hashedit_tools::write(&w.cx(), &pasted).unwrap_err();
    assert_eq!(err.kind, ErrorKind::UnreadFile);
    assert_eq!(err.message, UNREAD_MCP);
    assert_eq!(w.notes(), OLD);
    w.read();
    let err = hashedit_tools::write(&w.cx(), &pasted).unwrap_err();
    assert_eq!(err.kind, ErrorKind::LooksLikeReadOutput);
    assert_eq!(
        err.message,
        "the content for notes.txt is numbered rows (N:text, counting up), like read output; \
         nothing was written. Send the file's exact text without the header and without the N: \
         prefixes; if the file really holds these lines, send it again with force: true"
    );
    assert_eq!(w.notes(), OLD);
}
