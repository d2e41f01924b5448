//! Tasks by seeded mutation of real code, chosen with tree-sitter.
//!
//! After oh-my-pi's edit benchmark: take a real file, make one small,
//! plausible change a model could be asked to make (or to revert), and use
//! the pair as a task: the original file and the intended result. Every
//! candidate site is a syntax node, so swaps hit real operators, flips hit
//! real boolean literals, deletions remove whole statements.

use std::ops::Range;

use tree_sitter::{Node, Parser, Tree};

use crate::corpus::SourceFile;
use crate::hunks::{Hunk, Lines, apply, diff};
pub use crate::lang::Lang;
use crate::rng::Rng;

/// The kinds of change a task asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mutation {
    /// `==` ↔ `!=`, `<` ↔ `<=`, `&&` ↔ `||`, `+` ↔ `-`, `and` ↔ `or`…
    OperatorSwap,
    /// `true` ↔ `false`.
    BooleanFlip,
    /// An integer literal one up or down.
    OffByOneLiteral,
    /// The first two arguments of a call, swapped.
    SwapArguments,
    /// A whole statement deleted.
    DeleteStatement,
    /// Two adjacent one-line statements swapped.
    SwapAdjacentLines,
    /// An early-exit `if` (return/break/continue/throw/raise) deleted.
    RemoveGuard,
    /// An identifier renamed at every occurrence in the file.
    RenameIdentifier,
    /// A token changed on a line that is duplicated in the file, or next
    /// to one.
    NearDuplicateLine,
}

impl Mutation {
    /// Every mutation, in table order.
    pub const ALL: [Mutation; 9] = [
        Mutation::OperatorSwap,
        Mutation::BooleanFlip,
        Mutation::OffByOneLiteral,
        Mutation::SwapArguments,
        Mutation::DeleteStatement,
        Mutation::SwapAdjacentLines,
        Mutation::RemoveGuard,
        Mutation::RenameIdentifier,
        Mutation::NearDuplicateLine,
    ];

    /// Kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            Mutation::OperatorSwap => "operator-swap",
            Mutation::BooleanFlip => "boolean-flip",
            Mutation::OffByOneLiteral => "off-by-one-literal",
            Mutation::SwapArguments => "swap-arguments",
            Mutation::DeleteStatement => "delete-statement",
            Mutation::SwapAdjacentLines => "swap-adjacent-lines",
            Mutation::RemoveGuard => "remove-guard",
            Mutation::RenameIdentifier => "rename-identifier",
            Mutation::NearDuplicateLine => "near-duplicate-line",
        }
    }
}

/// A task: a real file and the result of one mutation of it.
#[derive(Debug, Clone)]
pub struct Task {
    /// Position in the run.
    pub index: usize,
    /// The file's corpus path (also its path in engine workspaces).
    pub path: String,
    /// Its language.
    pub lang: Lang,
    /// What was changed.
    pub mutation: Mutation,
    /// A one-line description of the change, for reports.
    pub description: String,
    /// The file as the model read it.
    pub original: Lines,
    /// The intended result.
    pub target: Lines,
    /// The line diff original → target.
    pub hunks: Vec<Hunk>,
}

/// Makes `mutation` on `file`, choosing the site with `rng`. `None` when the
/// file has no site for it.
pub fn make_task(
    index: usize,
    file: &SourceFile,
    mutation: Mutation,
    rng: &mut Rng,
) -> Option<Task> {
    let mut parser = Parser::new();
    parser.set_language(&file.lang.grammar()).ok()?;
    let tree = parser.parse(&file.text, None)?;
    let site = Site::new(file.lang, &file.text, &tree);
    let (edits, description) = site.choose(mutation, rng)?;
    let target_text = apply_edits(&file.text, edits);
    if target_text == file.text {
        return None;
    }
    let original = Lines::parse(&file.text);
    let target = Lines::parse(&target_text);
    let hunks = diff(&original, &target);
    // The reference model must reproduce the mutation from its diff.
    let replayed = apply(&original, &hunks).ok()?;
    assert_eq!(replayed, target, "diff/apply disagree on {}", file.path);
    Some(Task {
        index,
        path: file.path.clone(),
        lang: file.lang,
        mutation,
        description,
        original,
        target,
        hunks,
    })
}

type Edits = Vec<(Range<usize>, String)>;

/// Whether `node` is the only statement of a Python block: deleting it
/// leaves a block without a body, which Python refuses, so the intended
/// result would not be valid code.
fn only_statement_of_block(node: tree_sitter::Node) -> bool {
    node.prev_named_sibling().is_none()
        && node.next_named_sibling().is_none()
        && node.parent().is_some_and(|p| p.kind() == "block")
}

fn apply_edits(text: &str, mut edits: Edits) -> String {
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let mut out = text.to_string();
    for (range, with) in edits {
        out.replace_range(range, &with);
    }
    out
}

/// Candidate sites of one parsed file.
struct Site<'a> {
    lang: Lang,
    text: &'a str,
    /// Byte offset of each line start.
    line_starts: Vec<usize>,
    nodes: Vec<Node<'a>>,
}

impl<'a> Site<'a> {
    fn new(lang: Lang, text: &'a str, tree: &'a Tree) -> Site<'a> {
        let mut nodes = Vec::new();
        let mut cursor = tree.walk();
        // Pre-order walk of every node, named or not.
        'walk: loop {
            nodes.push(cursor.node());
            if cursor.goto_first_child() {
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    continue 'walk;
                }
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Site {
            lang,
            text,
            line_starts,
            nodes,
        }
    }

    fn src(&self, node: Node) -> &'a str {
        &self.text[node.byte_range()]
    }

    fn line_text(&self, row: usize) -> &'a str {
        let start = self.line_starts[row];
        let end = self
            .line_starts
            .get(row + 1)
            .map_or(self.text.len(), |e| e - 1);
        &self.text[start..end]
    }

    /// The node's rows when it occupies whole lines: only whitespace before
    /// it on its first line and after it on its last.
    fn whole_lines(&self, node: Node) -> Option<(usize, usize)> {
        let (first, last) = (node.start_position().row, node.end_position().row);
        let before = &self.text[self.line_starts[first]..node.start_byte()];
        let line_end = self
            .line_starts
            .get(last + 1)
            .map_or(self.text.len(), |e| e - 1);
        let after = &self.text[node.end_byte()..line_end];
        (before.trim().is_empty() && after.trim().is_empty()).then_some((first, last))
    }

    /// Bytes of rows `first..=last`, with their line breaks.
    fn rows_range(&self, first: usize, last: usize) -> Range<usize> {
        let end = self
            .line_starts
            .get(last + 1)
            .copied()
            .unwrap_or(self.text.len());
        self.line_starts[first]..end
    }

    fn is_comment(node: Node) -> bool {
        node.kind().contains("comment")
    }

    fn named_children(node: Node<'a>) -> Vec<Node<'a>> {
        let mut cursor = node.walk();
        node.named_children(&mut cursor)
            .filter(|c| !Self::is_comment(*c))
            .collect()
    }

    fn choose(&self, mutation: Mutation, rng: &mut Rng) -> Option<(Edits, String)> {
        let mut candidates = match mutation {
            Mutation::OperatorSwap => self.operators(),
            Mutation::BooleanFlip => self.booleans(),
            Mutation::OffByOneLiteral => self.literals(rng),
            Mutation::SwapArguments => self.argument_swaps(),
            Mutation::DeleteStatement => self.statement_deletions(),
            Mutation::SwapAdjacentLines => self.line_swaps(),
            Mutation::RemoveGuard => self.guard_removals(),
            Mutation::RenameIdentifier => self.renames(),
            Mutation::NearDuplicateLine => self.near_duplicates(rng),
        };
        if candidates.is_empty() {
            return None;
        }
        let i = rng.below(candidates.len());
        Some(candidates.swap_remove(i))
    }

    fn row_of(&self, edits: &Edits) -> usize {
        let byte = edits.first().map_or(0, |(r, _)| r.start);
        self.line_starts.partition_point(|&s| s <= byte)
    }

    /// `edits` with its description, `what` after "line N: " where N is the
    /// 1-based line the first edit starts on.
    fn described(&self, edits: Edits, what: String) -> (Edits, String) {
        let row = self.row_of(&edits);
        (edits, format!("line {row}: {what}"))
    }

    /// Operator tokens of binary expressions, with their swap.
    fn operators(&self) -> Vec<(Edits, String)> {
        const SWAPS: &[(&str, &str)] = &[
            ("==", "!="),
            ("!=", "=="),
            ("===", "!=="),
            ("!==", "==="),
            ("<", "<="),
            ("<=", "<"),
            (">", ">="),
            (">=", ">"),
            ("&&", "||"),
            ("||", "&&"),
            ("and", "or"),
            ("or", "and"),
            ("+", "-"),
            ("-", "+"),
        ];
        let mut out = Vec::new();
        for node in &self.nodes {
            if !matches!(
                node.kind(),
                "binary_expression"
                    | "binary_operator"
                    | "boolean_operator"
                    | "comparison_operator"
            ) {
                continue;
            }
            let mut cursor = node.walk();
            let op = node
                .children(&mut cursor)
                .find(|c| !c.is_named() && SWAPS.iter().any(|(from, _)| *from == c.kind()));
            if let Some(op) = op {
                let from = self.src(op);
                let Some((_, to)) = SWAPS.iter().find(|(f, _)| *f == from) else {
                    continue;
                };
                out.push(self.described(
                    vec![(op.byte_range(), to.to_string())],
                    format!("operator {from} -> {to}"),
                ));
            }
        }
        out
    }

    fn booleans(&self) -> Vec<(Edits, String)> {
        let mut out = Vec::new();
        for node in &self.nodes {
            if !node.is_named() || !matches!(node.kind(), "boolean_literal" | "true" | "false") {
                continue;
            }
            let from = self.src(*node);
            let to = match from {
                "true" => "false",
                "false" => "true",
                "True" => "False",
                "False" => "True",
                _ => continue,
            };
            out.push(self.described(
                vec![(node.byte_range(), to.to_string())],
                format!("{from} -> {to}"),
            ));
        }
        out
    }

    fn literals(&self, rng: &mut Rng) -> Vec<(Edits, String)> {
        let mut out = Vec::new();
        for node in &self.nodes {
            if !matches!(node.kind(), "integer_literal" | "number" | "integer") {
                continue;
            }
            let from = self.src(*node);
            if from.is_empty()
                || from.len() > 9
                || !from.bytes().all(|b| b.is_ascii_digit())
                || (from.len() > 1 && from.starts_with('0'))
            {
                continue;
            }
            let Ok(value) = from.parse::<u64>() else {
                continue;
            };
            let to = if value == 0 || rng.percent(50) {
                value + 1
            } else {
                value - 1
            };
            out.push(self.described(
                vec![(node.byte_range(), to.to_string())],
                format!("literal {from} -> {to}"),
            ));
        }
        out
    }

    fn argument_swaps(&self) -> Vec<(Edits, String)> {
        let mut out = Vec::new();
        for node in &self.nodes {
            if !matches!(node.kind(), "arguments" | "argument_list") {
                continue;
            }
            let args = Self::named_children(*node);
            let [a, b, ..] = args.as_slice() else {
                continue;
            };
            let one_line = a.start_position().row == b.end_position().row;
            let (ta, tb) = (self.src(*a), self.src(*b));
            if !one_line || ta == tb {
                continue;
            }
            let edits = vec![
                (a.byte_range(), tb.to_string()),
                (b.byte_range(), ta.to_string()),
            ];
            out.push(self.described(edits, format!("swapped arguments {ta} and {tb}")));
        }
        out
    }

    fn statement_deletions(&self) -> Vec<(Edits, String)> {
        let mut out = Vec::new();
        for node in &self.nodes {
            if !self.lang.statements().contains(&node.kind()) {
                continue;
            }
            let Some((first, last)) = self.whole_lines(*node) else {
                continue;
            };
            if last - first >= 4 {
                continue;
            }
            if only_statement_of_block(*node) {
                continue;
            }
            let edits = vec![(self.rows_range(first, last), String::new())];
            out.push((
                edits,
                format!(
                    "lines {}-{}: deleted a {}",
                    first + 1,
                    last + 1,
                    node.kind()
                ),
            ));
        }
        out
    }

    fn line_swaps(&self) -> Vec<(Edits, String)> {
        let mut out = Vec::new();
        for node in &self.nodes {
            if !self.lang.statements().contains(&node.kind()) {
                continue;
            }
            let Some(next) = node.next_named_sibling() else {
                continue;
            };
            if !self.lang.statements().contains(&next.kind()) {
                continue;
            }
            let (Some((a0, a1)), Some((b0, b1))) =
                (self.whole_lines(*node), self.whole_lines(next))
            else {
                continue;
            };
            if a0 != a1 || b0 != b1 || b0 != a0 + 1 {
                continue;
            }
            let (la, lb) = (self.line_text(a0), self.line_text(b0));
            if la == lb {
                continue;
            }
            let edits = vec![
                (self.rows_range(a0, a0), format!("{lb}\n")),
                (self.rows_range(b0, b0), format!("{la}\n")),
            ];
            out.push((
                edits,
                format!("lines {}-{}: swapped two statements", a0 + 1, b0 + 1),
            ));
        }
        out
    }

    /// Early-exit `if` statements without `else` whose body is a single
    /// return/break/continue/throw/raise.
    fn guard_removals(&self) -> Vec<(Edits, String)> {
        let mut out = Vec::new();
        for node in &self.nodes {
            let unit = match (self.lang, node.kind()) {
                (Lang::Rust, "if_expression") => match node.parent() {
                    Some(p) if p.kind() == "expression_statement" => p,
                    _ => continue,
                },
                (Lang::Python | Lang::TypeScript | Lang::JavaScript, "if_statement") => *node,
                _ => continue,
            };
            if node.child_by_field_name("alternative").is_some() {
                continue;
            }
            let Some(body) = node.child_by_field_name("consequence") else {
                continue;
            };
            let inner = if matches!(body.kind(), "block" | "statement_block") {
                match Self::named_children(body).as_slice() {
                    [only] => *only,
                    _ => continue,
                }
            } else {
                body
            };
            let body_text = self.src(inner).trim_start();
            let exit = ["return", "break", "continue", "throw", "raise"]
                .iter()
                .any(|k| body_text.starts_with(k));
            if !exit {
                continue;
            }
            let Some((first, last)) = self.whole_lines(unit) else {
                continue;
            };
            if last - first >= 6 || only_statement_of_block(unit) {
                continue;
            }
            let edits = vec![(self.rows_range(first, last), String::new())];
            out.push((
                edits,
                format!(
                    "lines {}-{}: removed an early-exit guard",
                    first + 1,
                    last + 1
                ),
            ));
        }
        out
    }

    fn renames(&self) -> Vec<(Edits, String)> {
        let mut by_name: std::collections::BTreeMap<&str, Vec<Node>> = Default::default();
        for node in &self.nodes {
            if node.kind() == "identifier" {
                by_name.entry(self.src(*node)).or_default().push(*node);
            }
        }
        let mut out = Vec::new();
        for (name, nodes) in by_name {
            if name.len() < 3 || !(2..=10).contains(&nodes.len()) || name == "self" {
                continue;
            }
            let to = self.lang.renamed(name);
            if self.text.contains(&to) {
                continue;
            }
            let edits: Edits = nodes.iter().map(|n| (n.byte_range(), to.clone())).collect();
            out.push((
                edits,
                format!("renamed {name} -> {to} ({} occurrences)", nodes.len()),
            ));
        }
        out
    }

    /// Token changes on lines that repeat elsewhere in the file, or sit
    /// next to such a line: the edit must name the right copy.
    fn near_duplicates(&self, rng: &mut Rng) -> Vec<(Edits, String)> {
        let rows = self.line_starts.len();
        let mut count: std::collections::HashMap<&str, usize> = Default::default();
        for row in 0..rows {
            *count.entry(self.line_text(row)).or_default() += 1;
        }
        let duplicated = |row: usize| {
            let line = self.line_text(row);
            line.trim().len() >= 3
                && line.chars().any(char::is_alphanumeric)
                && count.get(line).copied().unwrap_or(0) >= 2
        };
        let near = |row: usize| {
            duplicated(row)
                || (row > 0 && duplicated(row - 1))
                || (row + 1 < rows && duplicated(row + 1))
        };
        let mut candidates = self.operators();
        candidates.extend(self.booleans());
        candidates.extend(self.literals(rng));
        candidates
            .into_iter()
            .filter(|(edits, _)| {
                let row = self.row_of(edits) - 1;
                edits
                    .iter()
                    .all(|(r, _)| !self.text[r.clone()].contains('\n'))
                    && near(row)
            })
            .map(|(edits, what)| (edits, format!("{what} (near a duplicated line)")))
            .collect()
    }
}

#[cfg(test)]
mod tests;
