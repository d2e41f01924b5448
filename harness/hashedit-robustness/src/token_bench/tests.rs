use super::*;

#[test]
fn the_long_line_insert_is_100_bytes() {
    assert_eq!(LONG_LINE_INSERT.len(), 100);
}

#[test]
fn the_long_line_insertion_keeps_the_line_parsing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("min.js");
    let head = format!("for(a=[{}1]", "1,".repeat(6000));
    std::fs::write(&file, format!("{head};i<1;i++){{c()}};d=1;\n")).unwrap();
    let edit = long_line_edit(&file, "pkg/min.js").unwrap();
    // The two `;` inside the `for (…)` head would break the loop.
    let line = &edit.new.lines[0];
    assert!(line.starts_with(&head));
    assert_eq!(
        &line[head.len()..],
        format!(";i<1;i++){{c()}};{LONG_LINE_INSERT}d=1;")
    );
    assert_eq!(edit.path(), "pkg/min.js");
    assert!(long_line_edit(&dir.path().join("none.js"), "x.js").is_none());
    std::fs::write(&file, "a;\nb;\n").unwrap();
    assert!(long_line_edit(&file, "x.js").is_none());
}

#[test]
fn a_stale_file_changes_a_line_away_from_the_edit() {
    let old = Lines::parse(&(1..=9).map(|i| format!("x{i}\n")).collect::<String>());
    let mut new = old.clone();
    new.lines[0] = "y1".into();
    let hunks = diff(&old, &new);
    assert_eq!(far_line(&old, &hunks), Some(5));
    let near = diff(&old, &Lines::parse("x1\nx2\n"));
    assert_eq!(far_line(&Lines::parse("x1\nx2\n"), &near), None);
    assert_eq!(changed_lines(&hunks), 2);
}
