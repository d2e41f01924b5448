//! The `list_dir` tool: the immediate entries of one directory.

use hashline::truncate::truncate_to_budget;
use serde_json::json;

use super::{SearchScope, printable};
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::outcome::Outcome;

/// What the model reads for a directory with no entries.
const EMPTY_DIRECTORY: &str = "(empty directory)";

struct Entry {
    name: String,
    kind: &'static str,
    shown: String,
}

/// Lists the immediate entries of `scope.target` (reference-rho.md §0
/// `list_dir`, with our own prose).
///
/// Not recursive; hidden and ignored entries are included. Entries are
/// sorted byte-wise by their displayed text; directories end with `/`;
/// symbolic links are listed under their own name and never followed;
/// anything else (FIFO, socket, device) is listed by name. A name holding a
/// control character is shown double-quoted with Rust-style escapes
/// (`"a\nb"`) so every entry stays on one line. Entries are joined by
/// `\n` with no trailing newline; an empty directory gives
/// `(empty directory)`. The text is finally cut to `max_output_bytes`.
///
/// Structured: `{"path": display, "entries": [{"name": raw name (lossy
/// UTF-8), "kind": "file" | "dir" | "symlink" | "other"}…], "total": n,
/// "truncated": bool}`, where `entries` holds the entries whose lines fit
/// the budget in full and `total` counts all of them.
///
/// Errors: [`ErrorKind::NotARegularFile`] when the target is not a
/// directory; I/O failures while listing map through [`ToolError::io`].
pub fn list_dir(scope: &SearchScope, max_output_bytes: usize) -> ToolResult<Outcome> {
    let metadata =
        std::fs::metadata(scope.target).map_err(|e| ToolError::io("list", scope.display, &e))?;
    if !metadata.is_dir() {
        let what = if metadata.is_file() {
            format!(
                "{} is a file, not a directory; read it with read_file",
                scope.display
            )
        } else {
            format!(
                "{} is not a directory; list its parent instead",
                scope.display
            )
        };
        return Err(ToolError::new(ErrorKind::NotARegularFile, what));
    }
    let reader =
        std::fs::read_dir(scope.target).map_err(|e| ToolError::io("list", scope.display, &e))?;
    let mut entries = Vec::new();
    for entry in reader {
        let entry = entry.map_err(|e| ToolError::io("list", scope.display, &e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = match entry.file_type() {
            Ok(t) if t.is_symlink() => "symlink",
            Ok(t) if t.is_dir() => "dir",
            Ok(t) if t.is_file() => "file",
            _ => "other",
        };
        let mut shown = printable(&name).into_owned();
        if kind == "dir" {
            shown.push('/');
        }
        entries.push(Entry { name, kind, shown });
    }
    entries.sort_by(|a, b| a.shown.as_bytes().cmp(b.shown.as_bytes()));

    if entries.is_empty() {
        let structured =
            json!({"path": scope.display, "entries": [], "total": 0, "truncated": false});
        return Ok(Outcome::new(
            truncate_to_budget(EMPTY_DIRECTORY.to_string(), max_output_bytes),
            structured,
        ));
    }
    let text = entries
        .iter()
        .map(|e| e.shown.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let truncated = text.len() > max_output_bytes;
    // Structured entries: those whose whole line fits the budget.
    let mut used = 0usize;
    let mut listed = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        used += entry.shown.len() + usize::from(i > 0);
        if used > max_output_bytes {
            break;
        }
        listed.push(json!({"name": entry.name, "kind": entry.kind}));
    }
    let structured = json!({
        "path": scope.display,
        "entries": listed,
        "total": entries.len(),
        "truncated": truncated,
    });
    Ok(Outcome::new(
        truncate_to_budget(text, max_output_bytes),
        structured,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testutil::Ws;

    fn ls(ws: &Ws, target: &str, budget: usize) -> ToolResult<Outcome> {
        let path = ws.path(target);
        list_dir(&ws.scope(&path, target), budget)
    }

    #[test]
    fn lists_sorted_entries_with_dir_slashes_including_hidden_and_ignored() {
        let ws = Ws::new(&[
            (".gitignore", b"ignored.txt\n"),
            ("ignored.txt", b""),
            ("b.txt", b""),
            ("a/inner.txt", b""),
            ("a.txt", b""),
            (".git/HEAD", b""),
        ]);
        let out = ls(&ws, ".", 64_000).unwrap();
        // "a.txt" < "a/" byte-wise ('.' is 0x2E, '/' is 0x2F).
        assert_eq!(out.text, ".git/\n.gitignore\na.txt\na/\nb.txt\nignored.txt");
        assert_eq!(out.structured["total"], json!(6));
        assert_eq!(
            out.structured["entries"][1],
            json!({"name": ".gitignore", "kind": "file"})
        );
        assert_eq!(
            out.structured["entries"][3],
            json!({"name": "a", "kind": "dir"})
        );
        assert_eq!(out.structured["truncated"], json!(false));
        assert_eq!(ls(&ws, "a", 64_000).unwrap().text, "inner.txt");
    }

    #[test]
    fn empty_directory_says_so() {
        let ws = Ws::new(&[]);
        std::fs::create_dir(ws.path("empty")).unwrap();
        let out = ls(&ws, "empty", 64_000).unwrap();
        assert_eq!(out.text, "(empty directory)");
        assert_eq!(out.structured["entries"], json!([]));
    }

    #[test]
    fn a_file_is_refused() {
        let ws = Ws::new(&[("src/a.rs", b"x")]);
        let err = ls(&ws, "src/a.rs", 64_000).unwrap_err();
        assert_eq!(err.kind, ErrorKind::NotARegularFile);
        assert_eq!(
            err.message,
            "src/a.rs is a file, not a directory; read it with read_file"
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_plain_names_and_newlines_are_escaped() {
        let ws = Ws::new(&[("real", b"")]);
        std::fs::create_dir(ws.path("dir")).unwrap();
        std::os::unix::fs::symlink(ws.path("dir"), ws.path("dirlink")).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", ws.path("leak")).unwrap();
        ws.write("bad\nname", b"");
        let out = ls(&ws, ".", 64_000).unwrap();
        assert_eq!(out.text, "\"bad\\nname\"\ndir/\ndirlink\nleak\nreal");
        assert_eq!(
            out.structured["entries"][2],
            json!({"name": "dirlink", "kind": "symlink"})
        );
        assert_eq!(
            out.structured["entries"][0],
            json!({"name": "bad\nname", "kind": "file"})
        );
    }

    #[test]
    fn long_listings_are_cut_to_the_budget() {
        let ws = Ws::new(&[("aaaa", b""), ("bbbb", b""), ("cccc", b"")]);
        let out = ls(&ws, ".", 9).unwrap();
        assert_eq!(out.text, "aaaa\nbbbb\n[truncated]");
        assert_eq!(out.structured["truncated"], json!(true));
        assert_eq!(out.structured["entries"].as_array().unwrap().len(), 2);
        assert_eq!(out.structured["total"], json!(3));
    }
}
