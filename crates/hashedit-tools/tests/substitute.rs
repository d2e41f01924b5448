//! `SUB` ops (FORMAT.md §5.9) through the tools as the CLI and the MCP
//! server run them: the bytes written, the reply, the error kinds of a
//! miss with every file left as it was, and a rebase onto a file that
//! drifted.

use std::fs;

use hashedit_tools::{
    EditArgs, EditMode, ErrorKind, Outcome, ReadFileArgs, Session, ToolContext, ToolError,
    Workspace,
};

const FILE: &str = "fn a() {\n    if (count > 10) {\n        go();\n    }\n}\n";

struct Ws {
    dir: tempfile::TempDir,
    ws: Workspace,
    session: Session,
}

impl Ws {
    /// A workspace holding `f.rs` with `content`.
    fn with(content: &str) -> Ws {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("f.rs"), content).unwrap();
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

    /// `f.rs` now.
    fn file(&self) -> String {
        fs::read_to_string(self.dir.path().join("f.rs")).unwrap()
    }

    /// The tag a read of `f.rs` reports (the read is kept in the session).
    fn tag(&self) -> String {
        let args = ReadFileArgs {
            path: "f.rs".into(),
            ..Default::default()
        };
        let out = hashedit_tools::read_file(&self.cx(), &args).unwrap();
        out.structured()["tag"].as_str().unwrap().to_string()
    }

    /// `ops` under the header of a fresh read of `f.rs`.
    fn edit(&self, ops: &str) -> Result<Outcome, ToolError> {
        let doc = format!("[f.rs#{}]\n{ops}", self.tag());
        hashedit_tools::edit(&self.cx(), &EditArgs::new(doc), EditMode::Apply)
    }

    /// The error of `ops`, checking that `f.rs` is left as it was.
    fn refused(&self, ops: &str) -> ToolError {
        let before = self.file();
        let error = self.edit(ops).unwrap_err();
        assert_eq!(self.file(), before, "a refused SUB wrote the file");
        error
    }
}

#[test]
fn a_sub_inside_a_line_writes_the_file_and_previews_it_under_the_new_tag() {
    let ws = Ws::with(FILE);
    let out = ws.edit("SUB 2:\n-count > 10\n+count >= 10\n").unwrap();
    assert_eq!(
        ws.file(),
        "fn a() {\n    if (count >= 10) {\n        go();\n    }\n}\n"
    );
    let tag = ws.tag();
    assert_eq!(
        out.text,
        format!(
            "SUB 2: (found on line 2: 1 → 1 line)\n[f.rs#{tag}]\n1:fn a() {{\n2:    if \
             (count >= 10) {{\n3:        go();\n4:    }}\n5:}}"
        )
    );
}

#[test]
fn misses_are_refused_with_their_kinds_and_nothing_written() {
    let ws = Ws::with(FILE);
    let error = ws.refused("SUB 3:\n-count > 10\n+count >= 10\n");
    assert_eq!(error.kind, ErrorKind::NoMatch);
    assert!(
        error.message.starts_with(
            "f.rs: SUB 3: (document line 2): the old text is not in line 3; it is on line 2, \
             outside the lines searched (SUB 2: names them, if that is the text you meant); \
             nothing was written"
        ),
        "{}",
        error.message
    );
    let error = ws.refused("SUB:\n-}\n+};\n");
    assert_eq!(error.kind, ErrorKind::AmbiguousMatch);
    assert!(
        error
            .message
            .contains("the old text occurs 2 times in the file, starting on lines 4, 5;"),
        "{}",
        error.message
    );
    // Several sections: one miss and nothing is written anywhere.
    fs::write(ws.dir.path().join("g.rs"), "x\n").unwrap();
    let g = hashedit_tools::read_file(
        &ws.cx(),
        &ReadFileArgs {
            path: "g.rs".into(),
            ..Default::default()
        },
    )
    .unwrap()
    .structured()["tag"]
        .as_str()
        .unwrap()
        .to_string();
    let doc = format!(
        "[g.rs#{g}]\nSUB 1:\n-x\n+y\n[f.rs#{}]\nSUB 1:\n-nothing\n+y\n",
        ws.tag()
    );
    let error = hashedit_tools::edit(&ws.cx(), &EditArgs::new(doc), EditMode::Apply).unwrap_err();
    assert_eq!(error.kind, ErrorKind::NoMatch);
    assert_eq!(
        fs::read_to_string(ws.dir.path().join("g.rs")).unwrap(),
        "x\n"
    );
    assert_eq!(ws.file(), FILE);
}

#[test]
fn a_sub_against_a_drifted_file_is_rebased_onto_it() {
    let ws = Ws::with(FILE);
    let tag = ws.tag();
    // Another program adds a line above: the SUB's lines move down one.
    fs::write(ws.dir.path().join("f.rs"), format!("// header\n{FILE}")).unwrap();
    let doc = format!("[f.rs#{tag}]\nSUB 2:\n-count > 10\n+count >= 10\n");
    let out = hashedit_tools::edit(&ws.cx(), &EditArgs::new(doc), EditMode::Apply).unwrap();
    assert_eq!(
        ws.file(),
        "// header\nfn a() {\n    if (count >= 10) {\n        go();\n    }\n}\n"
    );
    assert!(
        out.text.contains(&format!(
            "note: f.rs: the file changed since snapshot {tag} was served (it is now {}); the ops \
             touch only unchanged lines, so they were moved by +1 lines and applied to the live \
             file",
            "FBAE"
        )),
        "{}",
        out.text
    );
}
