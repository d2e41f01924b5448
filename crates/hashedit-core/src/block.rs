//! Block locators (`N*`): the syntactic block that begins on a line
//! (FORMAT.md §5.5), resolved by a parser the caller plugs in through
//! [`BlockResolver`] (tree-sitter, in `hashedit-blocks`). Line N must hold
//! code; the smallest named node covering its first column must start on
//! line N (else it is a continuation or a closer); the block is the
//! outermost named ancestor still starting there (never the file root),
//! without parse errors, up to its last line of content. A Markdown
//! heading spans its section.

use crate::document::LineRange;

/// Lines searched above (for an enclosing block) or below (for the next
/// block) when suggesting a block to an author whose anchor did not resolve.
pub const BLOCK_SUGGESTION_WINDOW: usize = 64;

/// What line N's block resolves to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlockResolution {
    /// A block spanning several lines, starting on N.
    Block(LineRange),
    /// The construct on line N fits on that one line: use the plain op.
    SingleLine,
    /// No block starts on line N.
    Unresolvable(Unresolvable),
}

/// Why no block starts on a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unresolvable {
    /// No parser for the file's language.
    UnknownLanguage,
    /// The line is empty or whitespace.
    BlankLine,
    /// The line continues or closes a construct that starts earlier (for
    /// example a lone `}`).
    NotABlockStart,
    /// The construct on the line does not parse.
    ParseError,
    /// The line is past the end of the file.
    OutOfRange,
}

impl std::fmt::Display for Unresolvable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Unresolvable::UnknownLanguage => "no parser is available for this file's language",
            Unresolvable::BlankLine => "the line is blank",
            Unresolvable::NotABlockStart => {
                "the line continues or closes a construct that starts on an earlier line"
            }
            Unresolvable::ParseError => "the code around the line does not parse",
            Unresolvable::OutOfRange => "the line is past the end of the file",
        })
    }
}

/// Block lookups over one parsed file.
pub trait BlockIndex {
    /// The block starting on 1-based line `line`.
    fn block_at(&self, line: usize) -> BlockResolution;

    /// The nearest multi-line block that strictly encloses `line` and
    /// starts at most [`BLOCK_SUGGESTION_WINDOW`] lines above it.
    fn enclosing_block(&self, line: usize) -> Option<LineRange>;

    /// The first multi-line block starting after `line`, at most
    /// [`BLOCK_SUGGESTION_WINDOW`] lines below it.
    fn next_block(&self, line: usize) -> Option<LineRange>;

    /// Whether the file was parsed at all, and if so the 1-based line of
    /// its first syntax error: `None` when the grammar could not judge it
    /// (too large, timed out), `Some(None)` when it parses cleanly.
    /// Used for the advisory that an edit broke the syntax.
    fn syntax(&self) -> Option<Option<usize>> {
        None
    }
}

/// Parses files so their blocks can be looked up.
pub trait BlockResolver: Send + Sync {
    /// Parses `text` (the file's BOM-free content; lines split at `\n` as
    /// in [`crate::Text`]) as the language `path` names.
    ///
    /// Errors: [`Unresolvable::UnknownLanguage`] when no grammar fits.
    fn index<'a>(
        &'a self,
        path: &str,
        text: &'a str,
    ) -> Result<Box<dyn BlockIndex + 'a>, Unresolvable>;
}

/// A resolver that knows no language: every block op is unresolvable.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoBlocks;

impl BlockResolver for NoBlocks {
    fn index<'a>(
        &'a self,
        _path: &str,
        _text: &'a str,
    ) -> Result<Box<dyn BlockIndex + 'a>, Unresolvable> {
        Err(Unresolvable::UnknownLanguage)
    }
}

/// A text's block index, built on first use: one edit parses each text at
/// most once, whether for block locators or for the syntax check.
pub(crate) struct LazyIndex<'a> {
    resolver: Option<&'a dyn BlockResolver>,
    path: &'a str,
    text: &'a str,
    index: Option<Result<Box<dyn BlockIndex + 'a>, Unresolvable>>,
}

impl<'a> LazyIndex<'a> {
    /// The index of `text` (BOM-free content) as the language `path` names,
    /// parsed by `resolver` when first asked for; without a resolver every
    /// lookup is [`Unresolvable::UnknownLanguage`].
    pub(crate) fn new(
        resolver: Option<&'a dyn BlockResolver>,
        path: &'a str,
        text: &'a str,
    ) -> Self {
        LazyIndex {
            resolver,
            path,
            text,
            index: None,
        }
    }

    /// Length of the indexed text in bytes.
    pub(crate) fn text_len(&self) -> usize {
        self.text.len()
    }

    /// The index, parsing the text on the first call.
    ///
    /// Errors: [`Unresolvable::UnknownLanguage`] without a resolver or a
    /// grammar for the path.
    pub(crate) fn get(&mut self) -> Result<&dyn BlockIndex, Unresolvable> {
        if self.index.is_none() {
            self.index = Some(match self.resolver {
                Some(resolver) => resolver.index(self.path, self.text),
                None => Err(Unresolvable::UnknownLanguage),
            });
        }
        match self.index.as_ref().expect("set above") {
            Ok(index) => Ok(index.as_ref()),
            Err(e) => Err(*e),
        }
    }
}

impl std::fmt::Debug for LazyIndex<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyIndex")
            .field("path", &self.path)
            .field("parsed", &self.index.is_some())
            .finish_non_exhaustive()
    }
}
