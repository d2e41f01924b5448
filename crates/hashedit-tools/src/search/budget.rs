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
/// last-resort cut of [`hashedit_core::truncate::truncate_to_budget`]).
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
mod tests {
    use super::*;

    #[test]
    fn the_budget_reason_is_counted_only_when_rows_are_left_out() {
        // Rows "a\n" "b\n" "c\n"; the summary is 6 bytes, or 8 when it
        // mentions the budget.
        let tail = |k: usize, cut: bool| listing_tail(k, if cut { 8 } else { 6 });
        let at = |budget| fit(&[2, 2, 2], budget, tail);
        assert_eq!(
            at(13),
            Fit {
                shown: 3,
                cut: false
            }
        );
        assert_eq!(
            at(12),
            Fit {
                shown: 1,
                cut: true
            }
        );
        assert_eq!(
            at(11),
            Fit {
                shown: 1,
                cut: true
            }
        );
        assert_eq!(
            at(10),
            Fit {
                shown: 0,
                cut: true
            }
        );
        assert_eq!(
            at(0),
            Fit {
                shown: 0,
                cut: true
            }
        );
        // With no rows there is nothing to leave out.
        assert_eq!(
            fit(&[], 0, tail),
            Fit {
                shown: 0,
                cut: false
            }
        );
    }

    #[test]
    fn shows_the_longest_prefix_that_fits() {
        let tail = |k: usize, _| listing_tail(k, 4);
        // 3 + 1 + 4 = 8 fits; with the 10 it would not, and a later short
        // unit cannot jump the queue: rows keep their order.
        assert_eq!(fit(&[3, 10, 1, 1], 9, tail).shown, 1);
        // A closing line that only a partial prefix needs: after two units
        // the tail is long (a `… more` line), after three it is short.
        let closing = |k: usize, _| if k == 2 { 20 } else { 2 };
        assert_eq!(fit(&[5, 5, 5, 5], 17, closing).shown, 3);
        assert_eq!(fit(&[5, 5, 5, 5], 11, closing).shown, 1);
    }

    #[test]
    fn listings_render_with_a_blank_line_before_the_summary() {
        assert_eq!(render_listing(["a", "b"], "2 files"), "a\nb\n\n2 files");
        assert_eq!(render_listing([], "0 files"), "0 files");
    }
}
