//! Fitting a search reply into the output budget without cutting a row.
//!
//! A search reply is a list of rows (grep's headers and match rows, glob's
//! paths, list_dir's names) followed by a summary line. Rather than cutting
//! the finished text at `max_output_bytes`, which can split a row and drop
//! the summary with its skipped-file counts, each tool asks [`fit`] how many
//! leading rows fit together with the summary that describes exactly those
//! rows, and renders that prefix. The summary always comes last and always
//! whole; the counts in it and in the structured data describe the rows
//! shown.

/// How much of a reply fits the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fit {
    /// Leading units shown.
    pub(crate) shown: usize,
    /// Whether units were left out for the budget (the summary then says
    /// so).
    pub(crate) cut: bool,
}

/// Chooses how many leading units of a reply to show.
///
/// `units[i]` is the number of bytes unit `i` adds to the body (its rows
/// with their line breaks). `tail(k, cut)` is the number of bytes that
/// follow the first `k` units: whatever closes them (e.g. grep's
/// `… +K more` line for a file shown in part), the blank line and the
/// summary line, which mentions the budget when `cut` is true.
///
/// When all units fit with `tail(n, false)`, or there are none, all are
/// shown and nothing is cut. Otherwise the reply shows the longest prefix
/// of units whose body plus `tail(k, true)` stays within `budget` (a
/// longer prefix can be the shorter reply, when its last unit closes a
/// file whose `… more` line it no longer needs). If not even the summary
/// fits, nothing but the summary is shown (the caller then applies the
/// last-resort cut of [`hashedit_core::truncate_to_budget`]).
pub(crate) fn fit(units: &[usize], budget: usize, tail: impl Fn(usize, bool) -> usize) -> Fit {
    let body: usize = units.iter().sum();
    if units.is_empty() || body.saturating_add(tail(units.len(), false)) <= budget {
        return Fit {
            shown: units.len(),
            cut: false,
        };
    }
    let mut used = 0usize;
    let mut shown = 0usize;
    // All units together do not fit, so the last one is never reached.
    for (i, unit) in units[..units.len() - 1].iter().enumerate() {
        used += unit;
        if used > budget {
            // The body only grows from here.
            break;
        }
        if used.saturating_add(tail(i + 1, true)) <= budget {
            shown = i + 1;
        }
    }
    Fit { shown, cut: true }
}

/// Bytes that follow `shown` one-line rows in a reply laid out as rows,
/// a blank line and the summary: the blank line (absent when no row is
/// shown, the summary then stands alone) plus the summary.
pub(crate) fn listing_tail(shown: usize, summary_len: usize) -> usize {
    summary_len + usize::from(shown > 0)
}

/// Renders `rows` (each ending in `\n`), a blank line and `summary`; just
/// `summary` when there are no rows.
pub(crate) fn render_listing<'a>(rows: impl IntoIterator<Item = &'a str>, summary: &str) -> String {
    let mut out = String::new();
    for row in rows {
        out.push_str(row);
        out.push('\n');
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(summary);
    out
}

#[cfg(test)]
mod tests;
