//! The CLI surface: tool messages name the CLI's commands and flags where
//! they are made (FORMAT.md §8.3), and lines carrying file text stay exact.

use hashedit_core::{Surface, TagScheme};
use hashedit_tools::{
    EditArgs, EditMode, GrepArgs, ListDirArgs, ReadFileArgs, ToolContext, Workspace, WriteArgs,
};

fn workspace(files: &[(&str, &[u8])]) -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let ws = Workspace::new(dir.path()).unwrap();
    (dir, ws)
}

#[test]
fn path_hints_name_ls_and_read() {
    let (_dir, ws) = workspace(&[("a.rs", b"x\n")]);
    let cx = ToolContext::new(&ws).with_surface(Surface::Cli);
    let missing = ReadFileArgs {
        path: "nope.rs".into(),
        ..Default::default()
    };
    let error = hashedit_tools::read_file(&cx, &missing).unwrap_err();
    assert_eq!(
        error.message,
        "nope.rs does not exist; check the path with glob or ls"
    );
    let listed = ListDirArgs {
        path: "a.rs".into(),
        include_hidden: None,
    };
    let error = hashedit_tools::list_dir(&cx, &listed).unwrap_err();
    assert_eq!(
        error.message,
        "a.rs is a file, not a directory; read it with read"
    );
    let mcp = ToolContext::new(&ws);
    let error = hashedit_tools::read_file(&mcp, &missing).unwrap_err();
    assert_eq!(
        error.message,
        "nope.rs does not exist; check the path with glob or list_dir"
    );
}

#[test]
fn grep_notes_name_the_literal_flag_and_the_caps() {
    let (_dir, ws) = workspace(&[("a.txt", b"a|b\na|b\na|b\n")]);
    let cx = ToolContext::new(&ws).with_surface(Surface::Cli);
    let args = GrepArgs {
        pattern: "a\\|b".into(),
        max_per_file: Some(1),
        ..Default::default()
    };
    let text = hashedit_tools::grep(&cx, &args).unwrap().text;
    assert!(
        text.contains("or pass -F for the text as written"),
        "{text}"
    );
    assert!(
        text.contains("1 file cut at --max-per-file; raise --max-per-file or narrow the pattern"),
        "{text}"
    );
}

#[test]
fn a_stale_write_names_the_tag_flag_and_edit_refusals_the_force_flag() {
    let (_dir, ws) = workspace(&[("p.txt", b"one\n")]);
    let cx = ToolContext::new(&ws).with_surface(Surface::Cli);
    let write = WriteArgs {
        path: "p.txt".into(),
        content: "two\n".into(),
        tag: Some("0000".into()),
        force: None,
    };
    let live = TagScheme::Rho.tag_of(b"one\n");
    let error = hashedit_tools::write(&cx, &write).unwrap_err();
    assert!(
        error.message.contains(&format!(
            "then write again with --tag {live} if you still mean"
        )),
        "{}",
        error.message
    );
    let document = format!("[p.txt#{live}]\nPUT 1:\n+one\n");
    let error = hashedit_tools::edit(&cx, &EditArgs::new(document), EditMode::Apply).unwrap_err();
    assert!(
        error
            .message
            .contains("Sent again with --force, the document"),
        "{}",
        error.message
    );
}
