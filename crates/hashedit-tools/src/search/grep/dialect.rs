//! Patterns written for another regex dialect (FORMAT.md §4.3): BRE's
//! `\|`, `\(…\)` and `\+` are literal characters in Rust's syntax, and an
//! empty alternative at the top of a pattern matches every line. Both are
//! searched as written; the summary notes what they mean and what to write
//! instead, a suggestion only when it differs and would get no note itself.

use hashedit_core::{Name, Surface};
use regex_syntax::ast::{Ast, parse::Parser};

/// The BRE escapes Rust reads as literal characters, with what each
/// means in BRE and what Rust spells that with.
const BRE_ESCAPES: [(&str, &str, &str); 4] = [
    ("\\|", "'|'", "alternation"),
    ("\\(", "'('", "a group"),
    ("\\)", "')'", "a group"),
    ("\\+", "'+'", "'one or more'"),
];

/// The note for `pattern` when it has one of the shapes above, else
/// `None`.
pub(super) fn note(pattern: &str, surface: Surface) -> Option<String> {
    let literal = surface.name(Name::Literal);
    bre_note(pattern, literal).or_else(|| empty_alternative_note(pattern, literal))
}

/// The note for BRE escapes in `pattern`, if it has any.
fn bre_note(pattern: &str, set_literal: &str) -> Option<String> {
    let found: Vec<&(&str, &str, &str)> = BRE_ESCAPES
        .iter()
        .filter(|(escape, ..)| has_escape(pattern, escape))
        .collect();
    if found.is_empty() {
        return None;
    }
    let mut literal: Vec<String> = Vec::new();
    let mut meaning: Vec<&str> = Vec::new();
    for (escape, character, meant) in &found {
        literal.push(format!("{escape} matches a literal {character}"));
        if !meaning.contains(meant) {
            meaning.push(meant);
        }
    }
    let meant = unescape_bre(pattern);
    let literal = literal.join(", ");
    let meaning_or = meaning.join(" or ");
    if !suggestable(pattern, &meant) {
        // `json\|` read as BRE has an empty side: no useful rewrite.
        return Some(format!(
            "note: in this regex syntax (Rust's) {literal}, not {meaning_or} as in grep's basic syntax \
             (read that way, this pattern would match every line)"
        ));
    }
    Some(format!(
        "note: in this regex syntax (Rust's) {literal}, not {meaning_or} as in grep's basic syntax; for \
         {} write '{meant}', or {set_literal} for the text as written",
        meaning.join(" and ")
    ))
}

/// Whether `pattern` holds `escape` as an escape (not as `\\` followed by
/// its second character).
fn has_escape(pattern: &str, escape: &str) -> bool {
    let mut chars = pattern.chars();
    let wanted = escape.chars().nth(1);
    while let Some(c) = chars.next() {
        if c == '\\' && chars.next() == wanted {
            return true;
        }
    }
    false
}

/// `pattern` with each BRE escape of [`BRE_ESCAPES`] turned into the Rust
/// operator (`\|` → `|`, `\(` → `(`, `\+` → `+`); other escapes kept.
fn unescape_bre(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(op @ ('|' | '(' | ')' | '+')) => out.push(op),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// The note for an empty alternative that makes `pattern` match every
/// line, if it has one.
fn empty_alternative_note(pattern: &str, set_literal: &str) -> Option<String> {
    let ast = Parser::new().parse(pattern).ok()?;
    if !has_empty_branch(&ast) || !matches_every_line(pattern) {
        return None;
    }
    let kept = rebuild(&ast, pattern, Spaces::Keep);
    let trimmed = rebuild(&ast, pattern, Spaces::Trim);
    let mut ways = Vec::new();
    if suggestable(pattern, &kept) {
        ways.push(format!("write '{kept}' for either side as written"));
    }
    if trimmed != kept && suggestable(pattern, &trimmed) {
        ways.push(format!(
            "'{trimmed}' for either side without the spaces (a logical or)"
        ));
    }
    let instead = if ways.is_empty() {
        String::from("drop the stray '|'")
    } else {
        ways.join(", or ")
    };
    Some(format!(
        "note: '{pattern}' has an empty alternative (as in '||' or a leading or trailing '|'), which \
         matches the empty string and so every line; {instead}, or {set_literal} to search for the \
         text as written"
    ))
}

/// Whether `pattern` can match the empty string with no anchor in the way:
/// then it matches every line.
fn matches_every_line(pattern: &str) -> bool {
    regex_syntax::Parser::new().parse(pattern).is_ok_and(|hir| {
        let props = hir.properties();
        props.minimum_len() == Some(0) && props.look_set().is_empty()
    })
}

/// Whether `suggestion` may be offered for `pattern`: it differs from it,
/// parses, and would get no note itself.
fn suggestable(pattern: &str, suggestion: &str) -> bool {
    suggestion != pattern
        && !suggestion.is_empty()
        && Parser::new().parse(suggestion).is_ok()
        && regex_syntax::Parser::new().parse(suggestion).is_ok()
        && note(suggestion, Surface::Mcp).is_none()
}

/// Whether an alternation anywhere in `ast` has an empty branch.
fn has_empty_branch(ast: &Ast) -> bool {
    match ast {
        Ast::Alternation(alt) => alt
            .asts
            .iter()
            .any(|branch| matches!(branch, Ast::Empty(_)) || has_empty_branch(branch)),
        Ast::Group(group) => has_empty_branch(&group.ast),
        Ast::Repetition(rep) => has_empty_branch(&rep.ast),
        Ast::Concat(concat) => concat.asts.iter().any(has_empty_branch),
        Ast::Empty(_)
        | Ast::Flags(_)
        | Ast::Literal(_)
        | Ast::Dot(_)
        | Ast::Assertion(_)
        | Ast::ClassUnicode(_)
        | Ast::ClassPerl(_)
        | Ast::ClassBracketed(_) => false,
    }
}

/// What [`rebuild`] does with the spaces around a branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spaces {
    /// As written: `a || b` → `a | b`.
    Keep,
    /// Trimmed: `a || b` → `a|b`.
    Trim,
}

/// The source of `ast` (parsed from `src`) with empty alternatives
/// dropped.
fn rebuild(ast: &Ast, src: &str, spaces: Spaces) -> String {
    let text = |from: usize, to: usize| src[from..to].to_string();
    match ast {
        Ast::Alternation(alt) => {
            let branches: Vec<String> = alt
                .asts
                .iter()
                .map(|branch| {
                    let rebuilt = rebuild(branch, src, spaces);
                    match spaces {
                        Spaces::Keep => rebuilt,
                        Spaces::Trim => rebuilt.trim_matches(' ').to_string(),
                    }
                })
                .filter(|branch| !branch.is_empty())
                .collect();
            branches.join("|")
        }
        Ast::Group(group) => {
            let inner = group.ast.span();
            format!(
                "{}{}{}",
                text(group.span.start.offset, inner.start.offset),
                rebuild(&group.ast, src, spaces),
                text(inner.end.offset, group.span.end.offset)
            )
        }
        Ast::Repetition(rep) => {
            let inner = rep.ast.span();
            format!(
                "{}{}",
                rebuild(&rep.ast, src, spaces),
                text(inner.end.offset, rep.span.end.offset)
            )
        }
        Ast::Concat(concat) => concat
            .asts
            .iter()
            .map(|part| rebuild(part, src, spaces))
            .collect(),
        other => {
            let span = other.span();
            text(span.start.offset, span.end.offset)
        }
    }
}

/// The note for a `pattern` holding a line break (literal or not): grep
/// matches one line at a time, so such a pattern never matches, and a
/// clean "no matches" would mislead.
pub(super) fn line_break_note(pattern: &str) -> Option<String> {
    pattern.contains('\n').then(|| {
        String::from(
            "note: the pattern holds a line break, and grep matches one line at a time, so it can \
             never match; search for one line of it",
        )
    })
}

#[cfg(test)]
mod tests;
