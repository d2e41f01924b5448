//! The locator grammar: `N`, `N*`, ranges with any of the accepted
//! separators, and the gaps `<N`, `>N`, `>N*` and `>$` of a `PUT`.

use super::PutTarget;
use crate::document::{Gap, LineRange, Target, WarningKind};
use crate::problem::LocatorProblem;

pub(super) fn parse_put_locator(
    locator: &str,
) -> Result<(PutTarget, Option<WarningKind>), LocatorProblem> {
    if let Some(rest) = locator.strip_prefix('<') {
        let rest = rest.trim();
        if rest.starts_with('$') {
            return Err(LocatorProblem::DollarBefore);
        }
        if let Some(line) = rest.strip_suffix('*') {
            let line = parse_line(line.trim())?;
            let warning = WarningKind::BlockBeforeInsert(line);
            return Ok((PutTarget::Insert(Gap::Before(line)), Some(warning)));
        }
        return parse_line(rest).map(|n| (PutTarget::Insert(Gap::Before(n)), None));
    }
    if let Some(rest) = locator.strip_prefix('>') {
        let rest = rest.trim();
        if rest == "$" {
            return Ok((PutTarget::Insert(Gap::End), None));
        }
        if rest.starts_with('$') {
            return Err(LocatorProblem::BlockAfterRange);
        }
        if let Some(line) = rest.strip_suffix('*') {
            return parse_line(line.trim()).map(|n| (PutTarget::Insert(Gap::AfterBlock(n)), None));
        }
        return parse_line(rest).map(|n| (PutTarget::Insert(Gap::After(n)), None));
    }
    let (target, warning) = parse_target_with_warning(locator)?;
    Ok((PutTarget::Replace(target), warning))
}

/// Parses `N`, `N*` or a range with any of omp's separators; the warning
/// names a non-canonical separator.
pub(super) fn parse_target_with_warning(
    text: &str,
) -> Result<(Target, Option<WarningKind>), LocatorProblem> {
    let text = text.trim();
    if let Some(line) = text.strip_suffix('*') {
        let line = line.trim_end();
        if !line.bytes().all(|b| b.is_ascii_digit()) {
            return Err(if line.bytes().any(|b| b.is_ascii_digit()) {
                LocatorProblem::BlockAfterRange
            } else {
                LocatorProblem::NotANumber
            });
        }
        return parse_line(line).map(|n| (Target::Block(n), None));
    }
    let (range, separator) = parse_range(text)?;
    if separator.as_deref() == Some(" ") {
        return Err(LocatorProblem::SpaceSeparator);
    }
    let warning = separator
        .filter(|s| !matches!(s.as_str(), ".=" | "-" | ".."))
        .map(|separator| WarningKind::RangeSeparator {
            separator,
            locator: text.to_string(),
            canonical: range.canonical(),
        });
    Ok((Target::Lines(range), warning))
}

/// Separator characters between two line numbers (FORMAT.md §5.3).
fn is_separator(c: char) -> bool {
    matches!(c, '-' | '.' | '=' | '…') || c.is_whitespace()
}

/// Parses `N` or `N<sep>M`; returns the range and the trimmed separator (or
/// `" "` for whitespace only) when there was one.
pub(super) fn parse_range(text: &str) -> Result<(LineRange, Option<String>), LocatorProblem> {
    let text = text.trim();
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        if text.starts_with(['.', '=', '-', '…'])
            && text
                .trim_start_matches(is_separator)
                .starts_with(|c: char| c.is_ascii_digit())
        {
            return Err(if text.starts_with('-') {
                LocatorProblem::NotANumber
            } else {
                LocatorProblem::MissingStart
            });
        }
        return Err(LocatorProblem::NotANumber);
    }
    let start = parse_line(&text[..digits])?;
    let rest = &text[digits..];
    if rest.is_empty() {
        return Ok((LineRange { start, end: start }, None));
    }
    let separator_len: usize = rest
        .chars()
        .take_while(|c| is_separator(*c))
        .map(char::len_utf8)
        .sum();
    let separator = rest[..separator_len].trim();
    let end_text = &rest[separator_len..];
    if separator_len == 0 {
        return Err(LocatorProblem::BadSeparator);
    }
    if end_text.is_empty() {
        return Err(if separator == "." {
            LocatorProblem::Truncated
        } else {
            LocatorProblem::MissingEnd
        });
    }
    if !end_text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(
            if end_text.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
                LocatorProblem::BadSeparator
            } else {
                LocatorProblem::NotANumber
            },
        );
    }
    let end = parse_line(end_text)?;
    if start > end {
        return Err(LocatorProblem::Reversed);
    }
    let separator = if separator.is_empty() {
        " ".to_string()
    } else {
        separator.to_string()
    };
    Ok((LineRange { start, end }, Some(separator)))
}

fn parse_line(text: &str) -> Result<usize, LocatorProblem> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(LocatorProblem::NotANumber);
    }
    match text.parse::<usize>() {
        Ok(0) => Err(LocatorProblem::Zero),
        Ok(n) => Ok(n),
        Err(_) => Err(LocatorProblem::TooLarge),
    }
}

/// A corrected locator for problems whose fix is certain.
pub(super) fn locator_fix(problem: &LocatorProblem, locator: &str) -> Option<String> {
    let numbers: Vec<usize> = locator
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|s| s.parse().ok())
        .filter(|&n| n > 0)
        .collect();
    match (problem, numbers.as_slice()) {
        (LocatorProblem::Truncated, [n]) => Some(format!("{n}")),
        // `7.=` may be a range cut short, so this is a suggestion to check.
        (LocatorProblem::MissingEnd, [n]) => Some(format!("{n}")),
        _ => None,
    }
}
