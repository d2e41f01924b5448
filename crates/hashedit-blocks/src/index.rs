//! Block lookups over one parsed file.

use std::fmt;

use hashedit_core::{
    BLOCK_SUGGESTION_WINDOW, BlockIndex, BlockResolution, LineRange, Unresolvable,
};
use tree_sitter::{Node, Tree};

use crate::language::{Language, Rules};

/// One file's syntax tree and line table, answering [`BlockIndex`] lookups.
///
/// Built by [`crate::TreeSitterBlocks`]. When the file was not parsed (it
/// was over the size limit or the parse ran out of time) every non-blank
/// line in range resolves to [`Unresolvable::ParseError`] and no block is
/// suggested.
pub struct BlockTree<'a> {
    language: Language,
    rules: &'static Rules,
    text: &'a str,
    /// Byte offset of each tree-sitter row: 0 and one past every `\n`. Row
    /// `r` is line `r + 1`; a text ending in `\n` has one row more than lines.
    row_starts: Vec<usize>,
    line_count: usize,
    tree: Option<Tree>,
}

impl fmt::Debug for BlockTree<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockTree")
            .field("language", &self.language)
            .field("lines", &self.line_count)
            .field("parsed", &self.tree.is_some())
            .finish()
    }
}

impl<'a> BlockTree<'a> {
    pub(crate) fn new(language: Language, text: &'a str, tree: Option<Tree>) -> Self {
        let mut row_starts = vec![0];
        row_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        // The line model drops one final `\n`: an empty text has no lines
        // and a text ending in `\n` has no line after it.
        let line_count = if text.is_empty() {
            0
        } else if text.ends_with('\n') {
            row_starts.len() - 1
        } else {
            row_starts.len()
        };
        BlockTree {
            language,
            rules: language.rules(),
            text,
            row_starts,
            line_count,
            tree,
        }
    }

    /// The language the file was parsed as (for a `.h` file, C or C++).
    pub fn language(&self) -> Language {
        self.language
    }

    /// Whether the file was parsed; false when it exceeded the size limit or
    /// the parse timed out.
    pub fn is_parsed(&self) -> bool {
        self.tree.is_some()
    }

    /// Whether the parse found syntax errors anywhere in the file.
    pub fn has_syntax_errors(&self) -> bool {
        self.tree
            .as_ref()
            .is_some_and(|t| t.root_node().has_error())
    }

    /// The number of lines under hashline's line model.
    pub fn line_count(&self) -> usize {
        self.line_count
    }

    /// Byte range of `row`'s text, without its `\n`.
    fn row_span(&self, row: usize) -> (usize, usize) {
        let start = self.row_starts[row];
        let end = match self.row_starts.get(row + 1) {
            Some(&next) => next - 1,
            None => self.text.len(),
        };
        (start, end)
    }

    /// The byte offset of the first non-whitespace character of `row`;
    /// `None` for a blank row.
    fn first_content_byte(&self, row: usize) -> Option<usize> {
        let (start, end) = self.row_span(row);
        let line = self.text.get(start..end)?;
        line.find(|c: char| !c.is_whitespace())
            .map(|first| start + first)
    }

    /// The row holding byte `byte`.
    fn row_of(&self, byte: usize) -> usize {
        self.row_starts
            .partition_point(|&start| start <= byte)
            .saturating_sub(1)
    }

    /// The last row holding some of `node`'s content: trailing whitespace
    /// and, in a node without a closing token, trailing comments indented
    /// no deeper than its first line do not count; a Markdown section keeps
    /// its blank lines (docs/BLOCKS.md).
    fn content_end_row(&self, node: Node<'_>) -> usize {
        let len = self.text.len();
        let start = node.start_byte().min(len);
        if self.rules.headed_sections && node.kind() == "section" {
            let end = node.end_byte().clamp(start, len);
            if end > start && self.row_starts.binary_search(&end).is_ok() {
                return self.row_of(end - 1);
            }
            return self.row_of(end);
        }
        let indent = start - self.row_starts[self.row_of(start)];
        let end = Self::content_end_byte(node, indent).clamp(start, len);
        match self.text.as_bytes()[start..end]
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
        {
            Some(offset) => self.row_of(start + offset),
            None => self.row_of(start),
        }
    }

    /// The end of `node`'s content, not counting trailing comments that
    /// start at or left of column `indent`: walks down the chain of last
    /// children while they reach the end of their parent.
    fn content_end_byte(node: Node<'_>, indent: usize) -> usize {
        let mut current = node;
        loop {
            let mut cursor = current.walk();
            if !cursor.goto_last_child() {
                return current.end_byte();
            }
            let mut skipped = false;
            while cursor.node().is_extra() && cursor.node().start_position().column <= indent {
                skipped = true;
                if !cursor.goto_previous_sibling() {
                    // Nothing but comments: keep them all.
                    return current.end_byte();
                }
            }
            let child = cursor.node();
            if !skipped && child.end_byte() < current.end_byte() {
                // Text of the node's own follows its last child.
                return current.end_byte();
            }
            current = child;
        }
    }

    /// `content_end_row`, carried over any trailer (a heredoc body) that
    /// begins on the last row.
    fn block_end_row(&self, tree: &Tree, node: Node<'_>) -> usize {
        let mut end_row = self.content_end_row(node);
        if self.rules.trailers.is_empty() {
            return end_row;
        }
        loop {
            let (_, row_end) = self.row_span(end_row);
            let path = Self::path_covering(tree, row_end, row_end + 1);
            let trailer = path.iter().rev().find(|n| {
                self.rules.trailers.contains(&n.kind()) && n.start_position().row == end_row
            });
            match trailer {
                Some(trailer) => {
                    let next = self.content_end_row(*trailer);
                    if next <= end_row {
                        return end_row;
                    }
                    end_row = next;
                }
                None => return end_row,
            }
        }
    }

    /// The chain of visible nodes from the root down to the smallest one
    /// whose range covers the bytes `lo..hi` (`lo < hi`).
    fn path_covering<'t>(tree: &'t Tree, lo: usize, hi: usize) -> Vec<Node<'t>> {
        let mut cursor = tree.walk();
        let mut path = vec![cursor.node()];
        while cursor.goto_first_child_for_byte(lo).is_some() {
            let covering = loop {
                let node = cursor.node();
                if node.start_byte() > lo {
                    break false;
                }
                if node.end_byte() >= hi && node.end_byte() > lo {
                    break true;
                }
                if !cursor.goto_next_sibling() {
                    break false;
                }
            };
            if !covering {
                break;
            }
            path.push(cursor.node());
        }
        path
    }

    /// The index in `path` of the nearest named node above `at`, never the
    /// root (index 0).
    fn named_parent(path: &[Node<'_>], at: usize) -> Option<usize> {
        (1..at).rev().find(|&i| path[i].is_named())
    }

    /// Resolves the block starting on `row`, whose first non-whitespace byte
    /// is `first`.
    fn resolve(&self, tree: &Tree, row: usize, first: usize) -> BlockResolution {
        use BlockResolution::Unresolvable as Fail;
        let path = Self::path_covering(tree, first, first + 1);
        if path.iter().any(|n| n.is_error()) {
            return Fail(Unresolvable::ParseError);
        }
        // The smallest named node covering the column, never the root.
        let Some(mut at) = (1..path.len()).rev().find(|&i| path[i].is_named()) else {
            return Fail(Unresolvable::NotABlockStart);
        };
        let node = path[at];
        if self.rules.continuations.contains(&node.kind())
            || (self.rules.closers.contains(&node.kind()) && node.prev_named_sibling().is_some())
        {
            return Fail(Unresolvable::NotABlockStart);
        }
        let starts_here = node.start_position().row == row;
        if starts_here {
            // Climb to the outermost named ancestor starting on this row.
            while let Some(up) = Self::named_parent(&path, at) {
                let parent = path[up];
                if parent.start_position().row != row || !self.may_climb(path[at], parent) {
                    break;
                }
                at = up;
            }
        }
        // An item whose earlier lines hold only its decorations starts its
        // block here too.
        let outer = if starts_here {
            Self::named_parent(&path, at)
        } else {
            Some(at)
        };
        if let Some(item) = outer.and_then(|outer| self.decorated_item(&path, outer, row)) {
            return self.span(tree, row, &path, item);
        }
        if !starts_here {
            return Fail(Unresolvable::NotABlockStart);
        }
        self.span(tree, row, &path, at)
    }

    /// The resolution for the block `path[at]`, taken from `row` on.
    fn span(&self, tree: &Tree, row: usize, path: &[Node<'_>], at: usize) -> BlockResolution {
        let block = path[at];
        if block.has_error() || Self::error_follows(path, at) {
            return BlockResolution::Unresolvable(Unresolvable::ParseError);
        }
        let end_row = self.block_end_row(tree, block).min(self.line_count - 1);
        if end_row <= row {
            BlockResolution::SingleLine
        } else {
            BlockResolution::Block(LineRange {
                start: row + 1,
                end: end_row + 1,
            })
        }
    }

    /// Whether the parser's error recovery left an `ERROR` or a missing
    /// token right after the block `path[at]`, or right after one of its
    /// ancestors: the trace of a closer that the block (or the construct it
    /// sits in) swallowed from its parent, which makes its extent a guess.
    /// Comments in between are skipped; errors further on do not count.
    fn error_follows(path: &[Node<'_>], at: usize) -> bool {
        for level in (1..=at).rev() {
            let parent = path[level - 1];
            if !parent.has_error() {
                continue;
            }
            let mut cursor = parent.walk();
            let mut after = false;
            for node in parent.children(&mut cursor) {
                if !after {
                    after = node.id() == path[level].id();
                } else if node.is_error() || node.is_missing() {
                    return true;
                } else if !node.is_extra() {
                    break;
                }
            }
        }
        false
    }

    /// When `path[outer]` (a node starting above `row`) is, or leads, an item
    /// whose part above `row` holds only decorations and comments, the index
    /// of that item.
    fn decorated_item(&self, path: &[Node<'_>], outer: usize, row: usize) -> Option<usize> {
        if self.rules.decorations.is_empty() || path[outer].start_position().row >= row {
            return None;
        }
        let mut item = outer;
        while let Some(up) = Self::named_parent(path, item) {
            if path[up].start_byte() != path[item].start_byte()
                || !self.may_climb(path[item], path[up])
            {
                break;
            }
            item = up;
        }
        let limit = self.row_starts[row];
        (self.only_decorations_before(path[item], limit) == Some(true)).then_some(item)
    }

    /// Whether the part of `node` before byte `limit` is made of decorations
    /// and comments only: `Some(true)` if at least one decoration is there,
    /// `Some(false)` if only comments, `None` if anything else.
    fn only_decorations_before(&self, node: Node<'_>, limit: usize) -> Option<bool> {
        let mut seen = false;
        let mut cursor = node.walk();
        if !cursor.goto_first_child() {
            return None;
        }
        loop {
            let child = cursor.node();
            if child.start_byte() >= limit {
                return Some(seen);
            }
            if child.end_byte() > limit {
                // The child straddles the line: look inside it.
                let inner = self.only_decorations_before(child, limit)?;
                return Some(seen || inner);
            }
            if self.rules.decorations.contains(&child.kind()) {
                seen = true;
            } else if !child.is_extra() {
                // A wrapper that holds only decorations (Java's `modifiers`
                // node when annotations stand alone above the member).
                if self.only_decorations_before(child, limit) != Some(true) {
                    return None;
                }
                seen = true;
            }
            if !cursor.goto_next_sibling() {
                return Some(seen);
            }
        }
    }

    /// Whether the climb may go from `child` up to `parent` (which starts on
    /// the same row).
    fn may_climb(&self, child: Node<'_>, parent: Node<'_>) -> bool {
        if !self.rules.sequences.contains(&parent.kind()) {
            return true;
        }
        self.rules.headed_sections
            && parent.kind() == "section"
            && matches!(child.kind(), "atx_heading" | "setext_heading")
    }
}

impl BlockIndex for BlockTree<'_> {
    fn syntax(&self) -> Option<Option<usize>> {
        let tree = self.tree.as_ref()?;
        let root = tree.root_node();
        if !root.has_error() {
            // Tree-sitter tolerates what Python's tokenizer refuses: a
            // block without a body, an unexpected indent.
            return Some(match self.language {
                Language::Python => crate::indentation::python_indentation_error(self.text),
                _ => None,
            });
        }
        // Depth-first, into subtrees that hold an error, to the first one.
        let mut node = root;
        'descend: loop {
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                if child.is_error() || child.is_missing() {
                    return Some(Some(child.start_position().row + 1));
                }
                if child.has_error() {
                    node = child;
                    continue 'descend;
                }
            }
            return Some(Some(node.start_position().row + 1));
        }
    }

    fn block_at(&self, line: usize) -> BlockResolution {
        if line == 0 || line > self.line_count {
            return BlockResolution::Unresolvable(Unresolvable::OutOfRange);
        }
        let row = line - 1;
        let Some(first) = self.first_content_byte(row) else {
            return BlockResolution::Unresolvable(Unresolvable::BlankLine);
        };
        match &self.tree {
            Some(tree) => self.resolve(tree, row, first),
            None => BlockResolution::Unresolvable(Unresolvable::ParseError),
        }
    }

    fn enclosing_block(&self, line: usize) -> Option<LineRange> {
        let tree = self.tree.as_ref()?;
        if line == 0 || line > self.line_count {
            return None;
        }
        let row = line - 1;
        // The line's first character, or for a blank line its line break.
        let lo = self.first_content_byte(row).unwrap_or(self.row_starts[row]);
        let lowest_start = row.saturating_sub(BLOCK_SUGGESTION_WINDOW);
        let path = Self::path_covering(tree, lo, lo + 1);
        let mut tried = None;
        for node in path.iter().skip(1).rev().filter(|n| n.is_named()) {
            let start = node.start_position().row;
            if start >= row || tried == Some(start) {
                continue;
            }
            if start < lowest_start {
                break;
            }
            tried = Some(start);
            if let BlockResolution::Block(range) = self.block_at(start + 1)
                && range.end >= line
            {
                return Some(range);
            }
        }
        None
    }

    fn next_block(&self, line: usize) -> Option<LineRange> {
        if self.tree.is_none() || line >= self.line_count {
            return None;
        }
        let last = line
            .saturating_add(BLOCK_SUGGESTION_WINDOW)
            .min(self.line_count);
        (line + 1..=last).find_map(|n| match self.block_at(n) {
            BlockResolution::Block(range) => Some(range),
            _ => None,
        })
    }
}
