//! Fitting a search reply into the output budget without cutting a row:
//! each tool asks [`fit`] how many leading rows fit together with the
//! summary that describes exactly those rows, which always comes last and
//! whole (FORMAT.md §4.3).

/// How much of a reply fits the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fit {
    /// Leading units shown.
    pub(crate) shown: usize,
    /// Whether units were left out for the budget (the summary then says
    /// so).
    pub(crate) cut: bool,
}

/// Chooses how many leading units of a reply to show. `units[i]` is the
/// bytes unit `i` adds to the body; `tail(k, cut)` the bytes after the
/// first `k` units (what closes them, the blank line and the summary,
/// which names the budget when `cut`). All units are shown when they fit;
/// else the longest prefix whose body and `tail(k, true)` fit (a longer
/// prefix can be the shorter reply, when it closes a file whose `… more`
/// line it then no longer needs); else none.
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
