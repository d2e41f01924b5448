//! The `list_dir` tool: the immediate entries of one directory.

use hashedit_core::truncate::truncate_to_budget;
use serde_json::json;

use super::budget::{fit, listing_tail, render_listing};
use super::{SearchOptions, SearchScope, budget_reason};
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::fsio::is_temp_leftover;
use crate::outcome::Outcome;
use crate::workspace::display_path;

/// What `list_dir` tells the model it can narrow.
const NARROW: &str = "the listing with glob";

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
/// Not recursive; hidden and ignored entries are included, except
/// hashedit's own unfinished temp files (`.hashedit-<16 hex>.tmp`, see
/// [`is_temp_leftover`]); its `.bak` backups are listed. Entries are
/// sorted byte-wise by their displayed text; directories end with `/`;
/// symbolic links are listed under their own name and never followed;
/// anything else (FIFO, socket, device) is listed by name. Names are
/// spelled by [`crate::workspace::display_path`]: one holding a control
/// character is shown double-quoted with escapes (`"a\nb"`) so every entry
/// stays on one line (a path can quote that name as one component:
/// `dir/"a\nb"`). Entries are joined by `\n` with no trailing newline; an
/// empty directory gives `(empty directory)`.
///
/// When the listing does not fit `max_output_bytes`, the longest run of
/// leading entries that fits with a closing line is shown, no entry cut,
/// followed by a blank line and `{shown} of {total} entries shown (output budget of N bytes
/// reached; narrow the listing with glob to see the rest)`.
///
/// Structured: `{"path": display, "entries": [{"name": raw name (lossy
/// UTF-8), "kind": "file" | "dir" | "symlink" | "other"}…], "total": n,
/// "truncated": bool}`, where `entries` holds exactly the entries shown,
/// `total` counts all of them and `truncated` says the budget left some
/// out.
///
/// Errors: [`ErrorKind::NotARegularFile`] when the target is not a
/// directory; I/O failures while listing map through [`ToolError::io`].
pub fn list_dir(scope: &SearchScope, max_output_bytes: usize) -> ToolResult<Outcome> {
    list_dir_with(scope, max_output_bytes, &SearchOptions::default())
}

/// [`list_dir`] with explicit options; only [`SearchOptions::cancel`]
/// applies (a listing reads no file and is not recursive).
///
/// Errors: as [`list_dir`], and [`ErrorKind::Cancelled`] when the token is
/// raised before the listing is complete (a partial listing would be
/// sorted wrongly, so none is returned).
pub fn list_dir_with(
    scope: &SearchScope,
    max_output_bytes: usize,
    options: &SearchOptions,
) -> ToolResult<Outcome> {
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
        if options.cancel.as_ref().is_some_and(|c| c.is_cancelled()) {
            return Err(ToolError::new(
                ErrorKind::Cancelled,
                format!("listing {} was cancelled", scope.display),
            ));
        }
        let entry = entry.map_err(|e| ToolError::io("list", scope.display, &e))?;
        let file_type = entry.file_type();
        if file_type.as_ref().is_ok_and(std::fs::FileType::is_file)
            && is_temp_leftover(&entry.file_name())
        {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = match file_type {
            Ok(t) if t.is_symlink() => "symlink",
            Ok(t) if t.is_dir() => "dir",
            Ok(t) if t.is_file() => "file",
            _ => "other",
        };
        let mut shown = display_path(&name).into_owned();
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
    let rows: Vec<&str> = entries.iter().map(|e| e.shown.as_str()).collect();
    let full = rows.join("\n");
    let units: Vec<usize> = rows.iter().map(|row| row.len() + 1).collect();
    let notice = |shown: usize| {
        format!(
            "{shown} of {} entries shown ({})",
            entries.len(),
            budget_reason(max_output_bytes, NARROW)
        )
    };
    let (text, shown) = if full.len() <= max_output_bytes {
        (full, entries.len())
    } else {
        // The whole listing is known not to fit: only cut layouts count.
        let fitted = fit(&units, max_output_bytes, |k, cut| {
            if cut {
                listing_tail(k, notice(k).len())
            } else {
                usize::MAX
            }
        });
        let text = render_listing(rows[..fitted.shown].iter().copied(), &notice(fitted.shown));
        (text, fitted.shown)
    };
    let listed: Vec<_> = entries[..shown]
        .iter()
        .map(|entry| json!({"name": entry.name, "kind": entry.kind}))
        .collect();
    let structured = json!({
        "path": scope.display,
        "entries": listed,
        "total": entries.len(),
        "truncated": shown < entries.len(),
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
    fn hashedit_temp_leftovers_are_not_listed_but_backups_are() {
        let ws = Ws::new(&[
            (".hashedit-0123456789abcdef.tmp", b"x"),
            (".hashedit-fedcba9876543210.bak", b"x"),
            (".hashedit-notes.tmp", b""),
            ("a.txt", b""),
        ]);
        let out = ls(&ws, ".", 64_000).unwrap();
        assert_eq!(
            out.text,
            ".hashedit-fedcba9876543210.bak\n.hashedit-notes.tmp\na.txt"
        );
        assert_eq!(out.structured["total"], json!(3));
        // Only leftovers: the directory reads as empty.
        std::fs::create_dir(ws.path("d")).unwrap();
        ws.write("d/.hashedit-00000000000000ff.tmp", b"");
        assert_eq!(ls(&ws, "d", 64_000).unwrap().text, "(empty directory)");
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

    /// Regression (tester report): a long listing was cut mid-name with
    /// `[truncated]`; it now stops at a whole entry and says how many are
    /// shown.
    #[test]
    fn long_listings_stop_at_whole_entries() {
        let ws = Ws::new(&[]);
        let names: Vec<String> = (0..12).map(|i| format!("entry-number-{i:02}")).collect();
        for name in &names {
            ws.write(name, b"");
        }
        let full = names.join("\n");
        assert_eq!(ls(&ws, ".", full.len()).unwrap().text, full);
        let notice = |budget: usize, k: usize| {
            let rows: String = names[..k].iter().map(|n| format!("{n}\n")).collect();
            let sep = if k > 0 { "\n" } else { "" };
            format!(
                "{rows}{sep}{k} of 12 entries shown (output budget of {budget} bytes reached; \
                 narrow the listing with glob to see the rest)"
            )
        };
        for budget in notice(100, 0).len()..full.len() {
            let expected = (0..12)
                .rev()
                .map(|k| notice(budget, k))
                .find(|text| text.len() <= budget)
                .unwrap();
            let out = ls(&ws, ".", budget).unwrap();
            assert_eq!(out.text, expected, "budget {budget}");
            let shown = out.structured["entries"].as_array().unwrap().len();
            assert!(expected.starts_with(&names[..shown].join("\n")));
            assert_eq!(out.structured["truncated"], json!(true));
            assert_eq!(out.structured["total"], json!(12));
        }
        let out = ls(&ws, ".", 150).unwrap();
        assert_eq!(
            out.text,
            format!(
                "{}\n\n2 of 12 entries shown (output budget of 150 bytes reached; \
                 narrow the listing with glob to see the rest)",
                names[..2].join("\n")
            )
        );
        // A budget too small for the notice: the last-resort cut.
        let out = ls(&ws, ".", 9).unwrap();
        assert_eq!(out.text, "0 of 12 e\n[truncated]");
        assert_eq!(out.structured["entries"], json!([]));
    }
}
