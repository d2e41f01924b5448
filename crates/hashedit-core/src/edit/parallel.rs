//! Parallel lines (FORMAT.md §7.3): two rows that are siblings of one
//! list, such as keys of one object (`addUFlag: …` / `addVFlag: …`),
//! entries of one array, consecutive imports or declarations of one kind
//! (`@typedef {import('./a').A} A` / `… B} B`) or one-line statements of
//! the same shape (`self.alpha = alpha` / `self.beta = beta`). A new row
//! written beside its sibling looks like an edited copy of it, but names
//! another thing: the shift guard does not read it as a shift.
//!
//! Two lines are parallel when they have the same shape (the same marks,
//! the same number of words between them) and the first word in which they
//! differ names something in both: not a number, not a literal word such
//! as `true` or `None`, not an operator word such as `and`, and neither
//! name the other extended (`count` / `count_next` is a rename, an edit of
//! one thing). An edit of a line changes its value, an operator, a
//! literal, or renames what it names; a sibling names another thing.

/// One token of a trimmed line: a word (a run of letters, digits and `_`)
/// or any other character that is not whitespace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    Word(&'a str),
    Mark(char),
}

/// The tokens of `line`, whitespace dropped.
fn tokens(line: &str) -> Vec<Token<'_>> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if is_word(c) {
            let end = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
            out.push(Token::Word(&rest[..end]));
            rest = &rest[end..];
        } else {
            if !c.is_whitespace() {
                out.push(Token::Mark(c));
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Words that are values or operators in the languages we guard: changing
/// one edits a line, it does not name a sibling.
const NOT_NAMES: &[&str] = &[
    "true",
    "false",
    "True",
    "False",
    "TRUE",
    "FALSE",
    "None",
    "null",
    "nil",
    "undefined",
    "NaN",
    "and",
    "or",
    "not",
    "is",
    "in",
];

/// Whether `word` names something: it starts with a letter or `_` and is
/// not one of [`NOT_NAMES`].
fn is_name(word: &str) -> bool {
    word.starts_with(|c: char| c.is_alphabetic() || c == '_') && !NOT_NAMES.contains(&word)
}

/// Whether `a` and `b` are parallel lines (see the module docs). Both are
/// compared trimmed; equal lines are not parallel.
pub(crate) fn are_parallel(a: &str, b: &str) -> bool {
    let (a, b) = (tokens(a.trim()), tokens(b.trim()));
    if a.len() != b.len() {
        return false;
    }
    let mut first_difference = None;
    for pair in a.iter().zip(&b) {
        match pair {
            (Token::Mark(x), Token::Mark(y)) if x == y => {}
            (Token::Word(x), Token::Word(y)) => {
                if x != y && first_difference.is_none() {
                    first_difference = Some((*x, *y));
                }
            }
            _ => return false,
        }
    }
    first_difference
        .is_some_and(|(x, y)| is_name(x) && is_name(y) && !x.starts_with(y) && !y.starts_with(x))
}

#[cfg(test)]
mod tests;
