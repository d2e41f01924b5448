//! Names the model cannot type raw (a tab, a newline, quotes, spaces at
//! either end) round-trip through every tool: grep, glob, list_dir and
//! read_file print them in one spelling, quoted and escaped by
//! `workspace::display_path`, and a header copied from any of them works in
//! an edit document (tester report: grep printed `["tab\tx.txt"#2767]`,
//! which edit did not accept, and read printed a raw newline inside its
//! header).

use std::fs;

use hashedit_tools::{
    EditArgs, EditMode, ErrorKind, GlobArgs, GrepArgs, ListDirArgs, Outcome, ReadFileArgs,
    ToolContext, ToolResult, Workspace, WriteArgs,
};

struct Ws {
    dir: tempfile::TempDir,
    ws: Workspace,
}

impl Ws {
    fn new(files: &[(&str, &str)]) -> Ws {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        let ws = Workspace::new(dir.path()).unwrap();
        Ws { dir, ws }
    }

    fn cx(&self) -> ToolContext<'_> {
        ToolContext::new(&self.ws)
    }

    fn text(&self, name: &str) -> String {
        fs::read_to_string(self.dir.path().join(name)).unwrap()
    }

    fn read(&self, path: &str) -> ToolResult<Outcome> {
        hashedit_tools::read_file(
            &self.cx(),
            &ReadFileArgs {
                path: path.into(),
                ..Default::default()
            },
        )
    }

    fn grep(&self, pattern: &str) -> Outcome {
        let args = GrepArgs {
            pattern: pattern.into(),
            ..Default::default()
        };
        hashedit_tools::grep(&self.cx(), &args).unwrap()
    }

    fn edit(&self, doc: &str) -> ToolResult<Outcome> {
        hashedit_tools::edit(&self.cx(), &EditArgs::new(doc), EditMode::Apply)
    }
}

/// The `[path#TAG]` header lines of a reply.
fn headers(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with('[')).collect()
}

#[test]
fn grep_headers_of_unusual_names_can_be_pasted_into_edit() {
    let names = [
        "tab\tx.txt",
        "new\nline.txt",
        "sub/cr\r.txt",
        "\"quoted\"",
        " lead.txt",
        "back\\slash \"q\".txt",
    ];
    let files: Vec<(&str, &str)> = names.iter().map(|n| (*n, "needle\nkeep\n")).collect();
    let ws = Ws::new(&files);
    let grep = ws.grep("needle");
    let found = headers(&grep.text);
    assert_eq!(found.len(), names.len(), "{}", grep.text);
    let t = hashedit_core::TagScheme::Rho.tag_of(b"needle\nkeep\n");
    for expected in [
        r#""tab\tx.txt""#,
        r#""new\nline.txt""#,
        r#""sub/cr\r.txt""#,
        r#""\"quoted\"""#,
        r#"" lead.txt""#,
        // A backslash or inner quotes alone need no quoting: shown as is.
        r#"back\slash "q".txt"#,
    ] {
        let header = format!("[{expected}#{t}]");
        assert!(
            found.contains(&header.as_str()),
            "{header} in {}",
            grep.text
        );
    }
    for header in found {
        let doc = format!("{header}\nPUT 1:\n+replaced\n");
        let out = ws.edit(&doc).unwrap_or_else(|e| panic!("{header}: {e}"));
        // The reply names the file in the same spelling.
        let shown = &header[1..header.rfind('#').unwrap()];
        assert!(out.text.contains(shown), "{header}: {}", out.text);
        assert!(!out.text.contains("dropped the quotes"), "{}", out.text);
    }
    for name in names {
        assert_eq!(ws.text(name), "replaced\nkeep\n", "{name:?}");
    }
}

#[test]
fn read_prints_one_line_headers_and_accepts_the_quoted_spelling() {
    let ws = Ws::new(&[("new\nline.txt", "a\nb\n"), ("tab\tx.txt", "c\n")]);
    // The raw name and the quoted spelling read the same file.
    for path in ["new\nline.txt", r#""new\nline.txt""#] {
        let out = ws.read(path).unwrap();
        let first = out.text.lines().next().unwrap();
        assert_eq!(
            first,
            format!(
                "[\"new\\nline.txt\"#{}]",
                out.structured()["tag"].as_str().unwrap()
            )
        );
        assert_eq!(out.text.lines().nth(1), Some("1:a"));
        assert_eq!(out.structured()["path"], "\"new\\nline.txt\"");
    }
    // The header read prints is accepted by edit as is.
    let out = ws.read("tab\tx.txt").unwrap();
    let header = out.text.lines().next().unwrap().to_string();
    assert_eq!(
        header,
        format!(
            "[\"tab\\tx.txt\"#{}]",
            out.structured()["tag"].as_str().unwrap()
        )
    );
    ws.edit(&format!("{header}\nPUT 1:\n+d\n")).unwrap();
    assert_eq!(ws.text("tab\tx.txt"), "d\n");
}

#[test]
fn glob_and_list_dir_spellings_resolve_too() {
    let ws = Ws::new(&[("dir/a\tb.rs", "x\n")]);
    let glob = hashedit_tools::glob(
        &ws.cx(),
        &GlobArgs {
            pattern: "*.rs".into(),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(glob.text, "\"dir/a\\tb.rs\"\n\n1 file");
    let from_glob = glob.text.lines().next().unwrap();
    assert!(ws.read(from_glob).is_ok());
    let ls = hashedit_tools::list_dir(
        &ws.cx(),
        &ListDirArgs {
            path: "dir".into(),
            ..ListDirArgs::default()
        },
    )
    .unwrap();
    assert_eq!(ls.text, "\"a\\tb.rs\"");
    // A listed name quoted as one component of the path.
    let read = ws.read(&format!("dir/{}", ls.text)).unwrap();
    assert!(read.text.starts_with("[\"dir/a\\tb.rs\"#"), "{}", read.text);
    ws.edit(&format!("{}\nPUT 1:\n+y\n", headers(&read.text)[0]))
        .unwrap();
    assert_eq!(ws.text("dir/a\tb.rs"), "y\n");
}

#[test]
fn a_quoted_directory_is_a_search_path() {
    let ws = Ws::new(&[("d\tir/a.rs", "needle\n")]);
    let grep = hashedit_tools::grep(
        &ws.cx(),
        &GrepArgs {
            pattern: "needle".into(),
            path: Some(r#""d\tir""#.into()),
            ..Default::default()
        },
    )
    .unwrap();
    let t = hashedit_core::TagScheme::Rho.tag_of(b"needle\n");
    assert_eq!(
        grep.text,
        format!("[\"d\\tir/a.rs\"#{t}]\n1 | needle\n\n1 match in 1 file")
    );
    let none = hashedit_tools::grep(
        &ws.cx(),
        &GrepArgs {
            pattern: "zzz".into(),
            path: Some("d\tir".into()),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(none.text, "no matches for 'zzz' under \"d\\tir\"");
}

#[test]
fn a_literal_name_in_quotes_stays_reachable() {
    let ws = Ws::new(&[("\"x\"", "literal\n")]);
    // No file `x`: the plain quoted spelling falls back to the literal name.
    let out = ws.read("\"x\"").unwrap();
    assert!(out.text.starts_with(r##"["\"x\""#"##), "{}", out.text);
    // With `x` present, `"x"` means `x` and the display spelling means the
    // literal file.
    fs::write(ws.dir.path().join("x"), "plain\n").unwrap();
    assert!(ws.read("\"x\"").unwrap().text.ends_with("1:plain"));
    assert!(ws.read(r#""\"x\"""#).unwrap().text.ends_with("1:literal"));
}

#[test]
fn write_creates_the_unescaped_name_and_reports_it_quoted() {
    let ws = Ws::new(&[]);
    let out = hashedit_tools::write(
        &ws.cx(),
        &WriteArgs {
            path: r#""made\there.txt""#.into(),
            content: "z\n".into(),
            tag: None,
            force: None,
        },
    )
    .unwrap();
    assert!(
        out.text.starts_with("created \"made\\there.txt\""),
        "{}",
        out.text
    );
    assert_eq!(ws.text("made\there.txt"), "z\n");
    let missing = ws.read(r#""no\nsuch""#).unwrap_err();
    assert_eq!(missing.kind, ErrorKind::NotFound);
    assert!(
        missing.message.starts_with(r#""no\nsuch" does not exist"#),
        "{}",
        missing.message
    );
}

#[test]
fn single_quoted_names_round_trip_and_never_hit_their_sibling() {
    // Second trial: a file literally named 'y' beside a file y.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("'y'"), "hello\n").unwrap();
    std::fs::write(dir.path().join("y"), "hello\n").unwrap();
    let ws = hashedit_tools::Workspace::new(dir.path()).unwrap();
    let cx = hashedit_tools::ToolContext::new(&ws);
    let grep = hashedit_tools::grep(
        &cx,
        &hashedit_tools::GrepArgs {
            pattern: "hello".into(),
            ..Default::default()
        },
    )
    .unwrap();
    let tag = hashedit_core::TagScheme::Rho.tag_of(b"hello\n");
    assert!(
        grep.text
            .starts_with(&format!("[\"'y'\"#{tag}]\n1 | hello\n[y#{tag}]\n")),
        "{}",
        grep.text
    );
    let doc = format!("[\"'y'\"#{tag}]\nPUT 1:\n+EDITED\n");
    hashedit_tools::edit(
        &cx,
        &hashedit_tools::EditArgs::new(doc),
        hashedit_tools::EditMode::Apply,
    )
    .unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("'y'")).unwrap(),
        "EDITED\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("y")).unwrap(),
        "hello\n"
    );
}

#[test]
fn names_that_look_like_apply_patch_noise_round_trip() {
    // Tester report: a file named `*** Update File: x.txt` was printed
    // unquoted, and pasting its header back edited x.txt instead.
    let dir = tempfile::tempdir().unwrap();
    let odd = "*** Update File: x.txt";
    std::fs::write(dir.path().join(odd), "hello\n").unwrap();
    std::fs::write(dir.path().join("x.txt"), "hello\n").unwrap();
    let ws = hashedit_tools::Workspace::new(dir.path()).unwrap();
    let cx = hashedit_tools::ToolContext::new(&ws);
    let read = hashedit_tools::read_file(
        &cx,
        &hashedit_tools::ReadFileArgs {
            path: format!("\"{odd}\""),
            ..Default::default()
        },
    )
    .unwrap();
    let tag = hashedit_core::TagScheme::Rho.tag_of(b"hello\n");
    let header = format!("[\"{odd}\"#{tag}]");
    assert!(
        read.text.starts_with(&format!("{header}\n1:hello")),
        "{}",
        read.text
    );
    let out = hashedit_tools::edit(
        &cx,
        &hashedit_tools::EditArgs::new(format!("{header}\nPUT 1:\n+EDITED\n")),
        hashedit_tools::EditMode::Apply,
    )
    .unwrap();
    assert!(!out.text.contains("warning"), "{}", out.text);
    assert_eq!(
        std::fs::read_to_string(dir.path().join(odd)).unwrap(),
        "EDITED\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("x.txt")).unwrap(),
        "hello\n"
    );
}
