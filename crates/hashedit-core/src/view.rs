//! Everything a model reads, from one renderer: numbered rows under a
//! `[path#TAG]` header (FORMAT.md §4). [`read_view`] a window with a footer
//! when partial; [`chain_snapshot`] the head and tail, or rows around focus
//! lines (after `write`, and as the [`live_snapshot`] of a failed edit);
//! [`post_edit_preview`] rows around the changed lines, in post-edit
//! numbering, or the structural-edit notice. Row lists are ascending 1-based
//! line numbers.

use crate::scan::{ScanOutcome, WindowRequest, decimal_width};
use crate::surface::{Name, Output, Surface, Word, display_as_mcp};
use crate::tag::{SnapshotTag, header};
use crate::text::Text;

/// Rows shown from the top of a file in a chain snapshot without focus.
pub(crate) const CHAIN_HEAD_ROWS: usize = 28;
/// Rows shown from the bottom of a file in a chain snapshot without focus.
pub(crate) const CHAIN_TAIL_ROWS: usize = 8;
/// Context rows around each anchor in a live snapshot.
pub const LIVE_CONTEXT_ROWS: usize = 2;
/// Most rows a focused chain or live snapshot shows.
pub const LIVE_MAX_ROWS: usize = 40;
/// Context rows around each changed line in a post-edit preview.
pub(crate) const PREVIEW_CONTEXT_ROWS: usize = 3;
/// Most rows a post-edit preview shows.
pub(crate) const PREVIEW_MAX_ROWS: usize = 40;
/// A single replaced or deleted span of at least this many original lines
/// makes an edit structural (FORMAT.md §6.6).
pub const STRUCTURAL_SPAN_LINES: usize = 40;
/// The row shown between two non-adjacent rows.
pub(crate) const GAP_ROW: &str = "…";

/// Why a read window cannot be served.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WindowError {
    /// `offset` was 0.
    ZeroOffset,
    /// `limit` was 0.
    ZeroLimit,
    /// `offset` names a line past the end of the file.
    OffsetPastEnd {
        /// The requested first line.
        offset: usize,
        /// Lines in the file.
        total: usize,
    },
}

impl Word for WindowError {
    fn word(&self, f: &mut std::fmt::Formatter<'_>, surface: Surface) -> std::fmt::Result {
        let (offset, limit) = (surface.name(Name::Offset), surface.name(Name::Limit));
        match self {
            WindowError::ZeroOffset => {
                write!(f, "{offset} starts at 1 (line numbers are 1-based)")
            }
            WindowError::ZeroLimit => write!(f, "{limit} must be at least 1 row"),
            WindowError::OffsetPastEnd { offset: n, total } => write!(
                f,
                "{offset} {n} is beyond the last line: the file has {total} {}",
                plural(*total, "line", "lines")
            ),
        }
    }
}

display_as_mcp!(WindowError);

/// Turns `offset`/`limit` arguments into the window a scan keeps, rows
/// within `row_budget` bytes. Errors: [`WindowError::ZeroOffset`],
/// [`WindowError::ZeroLimit`] (past the end is [`read_view`]'s).
pub fn window_request(
    offset: Option<usize>,
    limit: Option<usize>,
    row_budget: usize,
) -> Result<WindowRequest, WindowError> {
    let start = match offset {
        Some(0) => return Err(WindowError::ZeroOffset),
        Some(n) => n,
        None => 1,
    };
    let end = match limit {
        Some(0) => return Err(WindowError::ZeroLimit),
        Some(n) => Some(start.saturating_add(n - 1)),
        None => None,
    };
    Ok(WindowRequest {
        start,
        end,
        row_budget,
    })
}

/// Renders a read: header, the kept rows (never half a row), and a footer
/// when the window does not cover the file or no row fits `output`'s
/// budget (FORMAT.md §4.2); the header is never cut.
///
/// Errors: [`WindowError::OffsetPastEnd`] (`offset: 1` on an empty file is
/// fine).
pub fn read_view(
    display_path: &str,
    scan: &ScanOutcome,
    output: impl Into<Output>,
) -> Result<String, WindowError> {
    let output = output.into();
    let total = scan.total_lines;
    let start = scan.start;
    if start > total && !(total == 0 && start == 1) {
        return Err(WindowError::OffsetPastEnd {
            offset: start,
            total,
        });
    }
    let mut out = header(display_path, scan.tag);
    for (i, row) in scan.rows.iter().enumerate() {
        push_row(&mut out, start + i, row);
    }
    let shown_end = start + scan.rows.len() - 1;
    match scan.budget_stop {
        Some(stop) if scan.rows.is_empty() => {
            out.push_str("\n\n");
            out.push_str(&no_row_fits(display_path, stop, total, output));
        }
        Some(_) => {
            out.push_str(&format!(
                "\n\n[lines {start}-{shown_end} of {total} shown, cut at the output budget; \
                 to read the rest, {}]",
                output.surface.read_from(shown_end + 1)
            ));
        }
        None if total > 0 && (start > 1 || shown_end < total) => {
            out.push_str(&format!(
                "\n\n[lines {start}-{shown_end} of {total} shown; pass {} to read the rest]",
                output.surface.name(Name::OffsetLimit)
            ));
        }
        None => {}
    }
    Ok(out)
}

/// The footer of a read whose first row did not fit: the budget that shows
/// it, or, for a line longer than the budget, how to read past it and the
/// op that replaces it.
fn no_row_fits(
    display_path: &str,
    stop: crate::scan::BudgetStop,
    total: usize,
    output: Output,
) -> String {
    let max_output_bytes = output.max_bytes;
    let line = stop.line;
    let row_cost = decimal_width(line) as u64 + 2 + stop.line_bytes;
    let needed = row_cost + (display_path.len() + ROW_BUDGET_RESERVE) as u64;
    if row_cost <= max_output_bytes as u64 {
        return format!(
            "[the output budget of {max_output_bytes} bytes is too small for this header, a footer and \
             line {line}; no rows shown. An output budget of at least {needed} bytes \
             (--max-output-bytes) shows it]"
        );
    }
    let after = if line >= total {
        "It is the last line; to change it".to_string()
    } else {
        format!(
            "To read the lines after it, {}; to change it",
            output.surface.read_from(line + 1)
        )
    };
    format!(
        "[line {line} is {} {} long, more than fits in the output budget of {max_output_bytes} bytes; \
         no rows shown; {}. {after}, edit part of it with SUB {line}: or all of it with PUT {line}:]",
        stop.line_bytes,
        plural(
            usize::try_from(stop.line_bytes).unwrap_or(usize::MAX),
            "byte",
            "bytes"
        ),
        long_line_hint(display_path, line, stop.line_bytes, output),
    )
}

/// The smallest output budget under which a read of `display_path` with
/// offset `line` and limit 1 shows that line, `line_bytes` long (FORMAT.md
/// §4: header, one `N:text` row and the longest footer).
pub fn read_budget_for_line(display_path: &str, line: usize, line_bytes: u64) -> u64 {
    decimal_width(line) as u64 + 2 + line_bytes + (display_path.len() + ROW_BUDGET_RESERVE) as u64
}

/// The advice that shows line `line` (`line_bytes` long) of `display_path`
/// on its own, under `output` (FORMAT.md §4.4): the read of that one line,
/// and when it does not fit the budget, the budget that shows it
/// ([`Surface::show_line`]).
pub fn long_line_hint(
    display_path: &str,
    line: usize,
    line_bytes: u64,
    output: impl Into<Output>,
) -> String {
    let output = output.into();
    let needed = read_budget_for_line(display_path, line, line_bytes);
    let needed = usize::try_from(needed).unwrap_or(usize::MAX);
    let over = (needed > output.max_bytes).then_some(needed);
    output.surface.show_line(line, over, output.max_bytes)
}

/// Bytes [`row_budget_for`] keeps back beside the path: the header's
/// brackets, `#`, tag and separators, and the longest footer.
const ROW_BUDGET_RESERVE: usize = 8 + 160;

/// The byte budget left for rows after the header and the longest footer.
pub fn row_budget_for(display_path: &str, max_output_bytes: usize) -> usize {
    // Header, separators and a footer with three large numbers.
    max_output_bytes.saturating_sub(display_path.len() + ROW_BUDGET_RESERVE)
}

/// The chain snapshot of `text` (FORMAT.md §4.4): the whole file up to
/// `CHAIN_HEAD_ROWS + CHAIN_TAIL_ROWS` lines, else its head and tail; with
/// focus lines, each ±[`LIVE_CONTEXT_ROWS`], at most [`LIVE_MAX_ROWS`]
/// rows shared across hunks; a footer when rows are missing.
pub fn chain_snapshot(
    display_path: &str,
    tag: SnapshotTag,
    text: &Text,
    focus: &[usize],
    output: impl Into<Output>,
) -> String {
    let output = output.into();
    let total = text.line_count();
    let focus = clean_focus(focus, total);
    let rows = if focus.is_empty() {
        head_tail_rows(total, CHAIN_HEAD_ROWS, CHAIN_TAIL_ROWS)
    } else {
        cap_rows_by_hunk(
            &expand_focus(&focus, total, LIVE_CONTEXT_ROWS),
            LIVE_MAX_ROWS,
        )
    };
    let footer = (!covers_all(&rows, total)).then(|| {
        format!(
            "[{} of {total} lines shown; {} for the rest]",
            rows.len(),
            output.surface.read_rest()
        )
    });
    let long = LongRows::Readable {
        display_path,
        output,
    };
    render_rows(
        &header(display_path, tag),
        text,
        &rows,
        footer.as_deref(),
        long,
    )
}

/// The live snapshot sent with a failed edit: a chain snapshot focused on
/// the edit's anchor lines, those outside the file dropped
/// (FORMAT.md §4.4).
pub fn live_snapshot(
    display_path: &str,
    tag: SnapshotTag,
    text: &Text,
    anchors: &[usize],
    output: impl Into<Output>,
) -> String {
    chain_snapshot(display_path, tag, text, anchors, output)
}

/// The post-edit preview (FORMAT.md §6.6): rows around `focus` (post-edit
/// line numbers, default line 1), or for a structural edit only the header
/// and a notice.
pub fn post_edit_preview(
    display_path: &str,
    tag: SnapshotTag,
    text: &Text,
    focus: &[usize],
    shape: PreviewShape,
    output: impl Into<Output>,
) -> String {
    let output = output.into();
    let head = header(display_path, tag);
    let total = text.line_count();
    if shape == PreviewShape::Structural {
        return format!(
            "{head}\n\n[structural edit: the file now has {total} {}; no rows are shown, \
             so read it again before editing anchors here]",
            plural(total, "line", "lines")
        );
    }
    if total == 0 {
        return head;
    }
    let mut focus = clean_focus(focus, total);
    if focus.is_empty() {
        focus.push(1);
    }
    let rows = cap_rows_by_hunk(
        &expand_focus(&focus, total, PREVIEW_CONTEXT_ROWS),
        PREVIEW_MAX_ROWS,
    );
    let footer = (!covers_all(&rows, total)).then(|| {
        format!(
            "[post-edit lines {}-{} of {total} shown near the changes; read the file for the rest]",
            rows[0],
            rows[rows.len() - 1]
        )
    });
    let long = LongRows::Readable {
        display_path,
        output,
    };
    render_rows(&head, text, &rows, footer.as_deref(), long)
}

/// Bytes of a long line shown on each side of a change.
const AROUND_CHANGE_BYTES: usize = 120;

/// Most bytes of the change itself a long line's excerpt shows.
const CHANGE_SHOWN_BYTES: usize = 600;

/// A note showing post-edit `line` of `text`, longer than
/// [`LONG_ROW_BYTES`] and so left out of the rows, around bytes
/// `start..end` (what an edit wrote there): a header naming the bytes
/// shown, then those bytes on a line of their own, exactly as in the file
/// (FORMAT.md §5.9). `None` for a line short enough to be shown whole.
pub(crate) fn long_line_change(
    text: &Text,
    line: usize,
    start: usize,
    end: usize,
) -> Option<String> {
    if line == 0 || line > text.line_count() {
        return None;
    }
    let row = text.line(line);
    if row.len() <= LONG_ROW_BYTES {
        return None;
    }
    let boundary = |at: usize, up: bool| {
        let mut at = at.min(row.len());
        while !row.is_char_boundary(at) {
            at = if up { at + 1 } else { at - 1 };
        }
        at
    };
    let end = end.min(start + CHANGE_SHOWN_BYTES);
    let from = boundary(start.saturating_sub(AROUND_CHANGE_BYTES), false);
    let to = boundary(end + AROUND_CHANGE_BYTES, true);
    Some(format!(
        "[line {line} around the change: bytes {}-{} of its {}]\n{}",
        from + 1,
        to,
        row.len(),
        &row[from..to]
    ))
}

/// Most rows an excerpt shows.
pub(crate) const EXCERPT_MAX_ROWS: usize = 16;

/// Rows of `text` around the `focus` lines (±1), without a header:
/// `N:text` rows, `…` between runs, at most [`EXCERPT_MAX_ROWS`]. What a
/// refused edit would have written is shown this way: rows that are not
/// on disk get no header to copy.
pub(crate) fn excerpt(text: &Text, focus: &[usize]) -> String {
    let total = text.line_count();
    let focus = clean_focus(focus, total);
    if focus.is_empty() {
        return String::new();
    }
    let rows = cap_rows_by_hunk(&expand_focus(&focus, total, 1), EXCERPT_MAX_ROWS);
    let rendered = render_rows("", text, &rows, None, LongRows::NotOnDisk);
    rendered.strip_prefix('\n').unwrap_or(&rendered).to_string()
}

/// Whether a post-edit preview shows rows or only the structural notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreviewShape {
    /// Rows around the changes.
    Rows,
    /// Header and notice only (a span of ≥ [`STRUCTURAL_SPAN_LINES`] lines).
    Structural,
}

/// Keeps at most `cap` of the sorted `rows`, shared across hunks (runs of
/// consecutive rows): each but the last gets `max(1, min(cap / hunks,
/// left − later))` from its start, the last what is left (FORMAT.md §4.4).
pub(crate) fn cap_rows_by_hunk(rows: &[usize], cap: usize) -> Vec<usize> {
    if rows.len() <= cap {
        return rows.to_vec();
    }
    let hunks: Vec<&[usize]> = rows.chunk_by(|a, b| b.checked_sub(*a) == Some(1)).collect();
    let share = (cap / hunks.len()).max(1);
    let mut left = cap;
    let mut out = Vec::with_capacity(cap);
    for (i, hunk) in hunks.iter().enumerate() {
        if left == 0 {
            break;
        }
        let later = hunks.len() - i - 1;
        let allowed = if later == 0 {
            left
        } else {
            share.min(left.saturating_sub(later)).max(1)
        };
        let take = allowed.min(hunk.len()).min(left);
        out.extend_from_slice(&hunk[..take]);
        left -= take;
    }
    out
}

/// Each focus line with `context` rows either side, clipped to `1..=total`,
/// sorted and deduplicated.
pub(crate) fn expand_focus(focus: &[usize], total: usize, context: usize) -> Vec<usize> {
    let mut rows: Vec<usize> = focus
        .iter()
        .flat_map(|&line| line.saturating_sub(context).max(1)..=(line + context).min(total))
        .collect();
    rows.sort_unstable();
    rows.dedup();
    rows
}

fn clean_focus(focus: &[usize], total: usize) -> Vec<usize> {
    let mut focus: Vec<usize> = focus
        .iter()
        .copied()
        .filter(|&n| n >= 1 && n <= total)
        .collect();
    focus.sort_unstable();
    focus.dedup();
    focus
}

fn head_tail_rows(total: usize, head: usize, tail: usize) -> Vec<usize> {
    if total <= head + tail {
        return (1..=total).collect();
    }
    (1..=head).chain(total - tail + 1..=total).collect()
}

fn covers_all(rows: &[usize], total: usize) -> bool {
    rows.len() == total
}

fn push_row(out: &mut String, line: usize, text: &str) {
    out.reserve(decimal_width(line) + text.len() + 2);
    out.push('\n');
    out.push_str(&line.to_string());
    out.push(':');
    out.push_str(text);
}

/// Longest row a snapshot or preview shows (bytes); longer lines are left
/// out, named in a note, so an error's live snapshot stays small whatever
/// the file holds. Reads page through such lines themselves.
pub const LONG_ROW_BYTES: usize = 4096;

/// Where the lines a snapshot leaves out for their length can be read.
#[derive(Debug, Clone, Copy)]
enum LongRows<'a> {
    /// In the file at `display_path`, by a read under `output`.
    Readable {
        display_path: &'a str,
        output: Output,
    },
    /// Nowhere: the rows are what a refused edit would have written.
    NotOnDisk,
}

/// Long lines named one by one in a snapshot's note; the rest are listed.
const LONG_ROWS_NAMED: usize = 3;

/// The note after a snapshot for the `long` lines it left out: each of the
/// first [`LONG_ROWS_NAMED`] with its length and the read that shows it
/// ([`long_line_hint`]), the rest by number.
fn long_rows_note(text: &Text, long: &[usize], place: LongRows) -> String {
    let LongRows::Readable {
        display_path,
        output,
    } = place
    else {
        let lines: Vec<String> = long.iter().map(ToString::to_string).collect();
        return format!(
            "[{} {} not shown: longer than {LONG_ROW_BYTES} bytes]",
            plural(long.len(), "line", "lines"),
            lines.join(", ")
        );
    };
    let mut notes: Vec<String> = long
        .iter()
        .take(LONG_ROWS_NAMED)
        .map(|&line| {
            let bytes = text.line(line).len();
            format!(
                "[line {line} not shown: {bytes} bytes long; {}]",
                long_line_hint(display_path, line, bytes as u64, output)
            )
        })
        .collect();
    if long.len() > LONG_ROWS_NAMED {
        let rest: Vec<String> = long[LONG_ROWS_NAMED..]
            .iter()
            .map(ToString::to_string)
            .collect();
        notes.push(format!(
            "[also not shown, longer than {LONG_ROW_BYTES} bytes: {} {}; read each the same way]",
            plural(rest.len(), "line", "lines"),
            rest.join(", ")
        ));
    }
    notes.join("\n")
}

/// Header, then `N:text` rows with a `…` row between non-adjacent rows, then
/// a blank line and the footer. Rows over [`LONG_ROW_BYTES`] are left out
/// (a gap) and named in a note after the footer. No trailing newline.
fn render_rows(
    head: &str,
    text: &Text,
    rows: &[usize],
    footer: Option<&str>,
    place: LongRows,
) -> String {
    let mut out = head.to_string();
    let mut previous = None;
    let mut long = Vec::new();
    for &line in rows {
        let row = text.line(line);
        if row.len() > LONG_ROW_BYTES {
            long.push(line);
            continue;
        }
        if previous.is_some_and(|p: usize| line > p + 1) || (previous.is_none() && !long.is_empty())
        {
            out.push('\n');
            out.push_str(GAP_ROW);
        }
        push_row(&mut out, line, row);
        previous = Some(line);
    }
    if previous.is_some_and(|p| long.last().is_some_and(|&l| l > p)) {
        out.push('\n');
        out.push_str(GAP_ROW);
    }
    if let Some(footer) = footer {
        out.push_str("\n\n");
        out.push_str(footer);
    }
    if !long.is_empty() {
        out.push_str(if footer.is_some() { "\n" } else { "\n\n" });
        out.push_str(&long_rows_note(text, &long, place));
    }
    out
}

/// `one` for 1, else `many`.
pub(crate) fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::scan;
    use crate::tag::TagScheme;

    fn numbered(n: usize) -> Text<'static> {
        let body: String = (1..=n).map(|i| format!("line {i}\n")).collect();
        Text::from_body(false, body)
    }

    fn row_numbers(view: &str) -> Vec<usize> {
        view.lines()
            .skip(1)
            .filter_map(|l| l.split_once(':').and_then(|(n, _)| n.parse().ok()))
            .collect()
    }

    #[test]
    fn read_view_of_a_window_has_a_footer() {
        let request = window_request(Some(2), Some(2), usize::MAX).unwrap();
        let out = scan(TagScheme::Rho, b"one\ntwo\nthree\nfour\n", request).unwrap();
        assert_eq!(
            read_view("a.txt", &out, usize::MAX).unwrap(),
            "[a.txt#8935]\n2:two\n3:three\n\n[lines 2-3 of 4 shown; pass offset/limit to read the rest]"
        );
    }

    #[test]
    fn read_view_of_the_whole_file_has_no_footer() {
        let request = window_request(None, None, usize::MAX).unwrap();
        let out = scan(TagScheme::Rho, b"one\ntwo\n", request).unwrap();
        assert_eq!(
            read_view("a.txt", &out, usize::MAX).unwrap(),
            "[a.txt#89F7]\n1:one\n2:two"
        );
    }

    #[test]
    fn read_view_with_no_row_that_fits_says_why_and_what_to_pass() {
        // Break-it pass: a budget too small for the header and a footer
        // blamed the 1-byte line 1.
        let bytes = b"1\n2\n3\n";
        let budget = 10;
        let request = window_request(None, None, row_budget_for("big.txt", budget)).unwrap();
        let out = scan(TagScheme::Rho, bytes, request).unwrap();
        assert_eq!(
            read_view("big.txt", &out, budget).unwrap(),
            "[big.txt#7437]\n\n[the output budget of 10 bytes is too small for this header, a footer \
             and line 1; no rows shown. An output budget of at least 179 bytes (--max-output-bytes) \
             shows it]"
        );
    }

    #[test]
    fn a_line_longer_than_the_budget_gives_the_offset_past_it() {
        // Break-it pass: "read a later window" did not say which.
        let budget = 300;
        let long = format!("short\n{}\nafter\n", "x".repeat(500));
        let request = window_request(Some(2), None, row_budget_for("long.txt", budget)).unwrap();
        let out = scan(TagScheme::Rho, long.as_bytes(), request).unwrap();
        let tag = TagScheme::Rho.tag_of(long.as_bytes());
        assert_eq!(
            read_view("long.txt", &out, budget).unwrap(),
            format!(
                "[long.txt#{tag}]\n\n[line 2 is 500 bytes long, more than fits in the output budget of \
                 300 bytes; no rows shown; read_file with offset: 2, limit: 1 shows it only under an \
                 output budget of at least 679 bytes, more than this one of 300 (the server's \
                 --max-output-bytes); grep for the part you need. To read the lines after it, call \
                 read_file with offset: 3; to change it, edit part of it with SUB 2: or all of it with PUT 2:]"
            )
        );
        // A window cut before such a line names the offset that goes on.
        let request = window_request(None, None, row_budget_for("long.txt", budget)).unwrap();
        let out = scan(TagScheme::Rho, long.as_bytes(), request).unwrap();
        assert_eq!(
            read_view("long.txt", &out, budget).unwrap(),
            format!(
                "[long.txt#{tag}]\n1:short\n\n[lines 1-1 of 3 shown, cut at the output budget; to read \
                 the rest, call read_file with offset: 2]"
            )
        );
        // The last line has no lines after it.
        let last = format!("short\n{}", "x".repeat(500));
        let request = window_request(Some(2), None, row_budget_for("long.txt", budget)).unwrap();
        let out = scan(TagScheme::Rho, last.as_bytes(), request).unwrap();
        let tag = TagScheme::Rho.tag_of(last.as_bytes());
        assert_eq!(
            read_view("long.txt", &out, budget).unwrap(),
            format!(
                "[long.txt#{tag}]\n\n[line 2 is 500 bytes long, more than fits in the output budget of \
                 300 bytes; no rows shown; read_file with offset: 2, limit: 1 shows it only under an \
                 output budget of at least 679 bytes, more than this one of 300 (the server's \
                 --max-output-bytes); grep for the part you need. It is the last line; to change it, \
                 edit part of it with SUB 2: or all of it with PUT 2:]"
            )
        );
    }

    #[test]
    fn read_view_errors() {
        assert_eq!(
            window_request(Some(0), None, 10),
            Err(WindowError::ZeroOffset)
        );
        assert_eq!(
            window_request(None, Some(0), 10),
            Err(WindowError::ZeroLimit)
        );
        let request = window_request(Some(5), None, usize::MAX).unwrap();
        let out = scan(TagScheme::Rho, b"one\ntwo\n", request).unwrap();
        let err = read_view("a.txt", &out, usize::MAX).unwrap_err();
        assert_eq!(
            err,
            WindowError::OffsetPastEnd {
                offset: 5,
                total: 2
            }
        );
        assert_eq!(
            err.to_string(),
            "offset 5 is beyond the last line: the file has 2 lines"
        );
        let empty = scan(
            TagScheme::Rho,
            b"",
            window_request(Some(1), None, 10).unwrap(),
        )
        .unwrap();
        assert_eq!(
            read_view("e.txt", &empty, usize::MAX).unwrap(),
            "[e.txt#9DC5]"
        );
    }

    #[test]
    fn chain_snapshot_head_and_tail() {
        // 37 lines: 1-28, …, 30-37.
        let text = numbered(80);
        let view = chain_snapshot("f.txt", SnapshotTag(1), &text, &[], 64_000);
        let rows = row_numbers(&view);
        let expected: Vec<usize> = (1..=28).chain(73..=80).collect();
        assert_eq!(rows, expected);
        assert!(view.contains("\n28:line 28\n…\n73:line 73\n"));
        assert!(
            view.ends_with(
                "\n\n[36 of 80 lines shown; pass offset/limit to read_file for the rest]"
            )
        );
        let rows37 = row_numbers(&chain_snapshot(
            "f.txt",
            SnapshotTag(1),
            &numbered(37),
            &[],
            64_000,
        ));
        assert_eq!(rows37, (1..=28).chain(30..=37).collect::<Vec<_>>());
        let whole = chain_snapshot("f.txt", SnapshotTag(1), &numbered(36), &[], 64_000);
        assert_eq!(row_numbers(&whole), (1..=36).collect::<Vec<_>>());
        assert!(!whole.contains("shown"));
    }

    #[test]
    fn live_snapshot_around_anchors() {
        // Anchors 50 and 60-62 of 80 lines.
        let view = live_snapshot(
            "f.txt",
            SnapshotTag(1),
            &numbered(80),
            &[50, 60, 62, 0, 99],
            64_000,
        );
        let expected: Vec<usize> = (48..=52).chain(58..=64).collect();
        assert_eq!(row_numbers(&view), expected);
        assert!(
            view.ends_with("[12 of 80 lines shown; pass offset/limit to read_file for the rest]")
        );
    }

    #[test]
    fn hunk_cap_shares_rows() {
        // A 60-row insert at line 3 shows rows from its start only.
        let rows: Vec<usize> = (1..=66).collect();
        assert_eq!(cap_rows_by_hunk(&rows, 40), (1..=40).collect::<Vec<_>>());
        // Two distant hunks both appear.
        let rows: Vec<usize> = (1..=30).chain(50..=80).collect();
        let capped = cap_rows_by_hunk(&rows, 40);
        assert_eq!(capped, (1..=20).chain(50..=69).collect::<Vec<_>>());
        // More hunks than the cap: one row each until it runs out.
        let rows: Vec<usize> = (1..=50).map(|i| i * 3).collect();
        assert_eq!(cap_rows_by_hunk(&rows, 40).len(), 40);
    }

    #[test]
    fn post_edit_preview_rows_and_footer() {
        // Rho's structural and budget cases.
        let text = Text::from_body(false, "one\nTWO\nthree\nfour\nfive\n".into());
        let view = post_edit_preview(
            "f.txt",
            SnapshotTag(0xABCD),
            &text,
            &[2],
            PreviewShape::Rows,
            64_000,
        );
        assert_eq!(view, "[f.txt#ABCD]\n1:one\n2:TWO\n3:three\n4:four\n5:five");
        let view = post_edit_preview(
            "f.txt",
            SnapshotTag(1),
            &numbered(80),
            &[2, 70],
            PreviewShape::Rows,
            64_000,
        );
        assert_eq!(
            row_numbers(&view),
            (1..=5).chain(67..=73).collect::<Vec<_>>()
        );
        assert!(view.ends_with(
            "\n\n[post-edit lines 1-73 of 80 shown near the changes; read the file for the rest]"
        ));
    }

    #[test]
    fn long_lines_are_named_not_shown() {
        let body = format!("a\n{}\nc\n", "b".repeat(LONG_ROW_BYTES + 1));
        let text = Text::from_body(false, body);
        let view = live_snapshot("f.txt", SnapshotTag(1), &text, &[1, 3], 64_000);
        assert_eq!(
            view,
            "[f.txt#0001]\n1:a\n…\n3:c\n\n[line 2 not shown: 4097 bytes long; read_file with \
             offset: 2, limit: 1 shows it]"
        );
        // A budget too small for the line: the advice names the budget
        // that shows it, and what to do meanwhile.
        let view = live_snapshot("f.txt", SnapshotTag(1), &text, &[1, 3], 4000);
        assert_eq!(
            view,
            "[f.txt#0001]\n1:a\n…\n3:c\n\n[line 2 not shown: 4097 bytes long; read_file with \
             offset: 2, limit: 1 shows it only under an output budget of at least 4273 bytes, more \
             than this one of 4000 (the server's --max-output-bytes); grep for the part you need]"
        );
        let view = live_snapshot("f.txt", SnapshotTag(1), &text, &[2], 64_000);
        assert!(view.len() < 200, "{view}");
        // Past three long lines, the rest are listed by number.
        let long = "b".repeat(LONG_ROW_BYTES + 1);
        let body = format!("{long}\n{long}\n{long}\n{long}\n{long}\n");
        let text = Text::from_body(false, body);
        let view = chain_snapshot("f.txt", SnapshotTag(1), &text, &[], 64_000);
        assert_eq!(
            view,
            "[f.txt#0001]\n\n[line 1 not shown: 4097 bytes long; read_file with offset: 1, limit: 1 \
             shows it]\n[line 2 not shown: 4097 bytes long; read_file with offset: 2, limit: 1 shows \
             it]\n[line 3 not shown: 4097 bytes long; read_file with offset: 3, limit: 1 shows it]\n\
             [also not shown, longer than 4096 bytes: lines 4, 5; read each the same way]"
        );
        // Rows not on disk carry no read advice.
        assert_eq!(
            excerpt(&text, &[1]),
            "\n[lines 1, 2 not shown: longer than 4096 bytes]"
        );
    }

    #[test]
    fn structural_preview_has_no_rows() {
        let view = post_edit_preview(
            "f.txt",
            SnapshotTag(1),
            &numbered(11),
            &[10],
            PreviewShape::Structural,
            64_000,
        );
        assert_eq!(
            view,
            "[f.txt#0001]\n\n[structural edit: the file now has 11 lines; no rows are shown, \
             so read it again before editing anchors here]"
        );
    }
}
