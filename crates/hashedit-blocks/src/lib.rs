//! Tree-sitter block resolution for hashline's `N*` block locators.
//!
//! The edit ops `PUT N*:`, `CUT N*`, `PUT >N*:` and `PUT N* @r` name "the
//! syntactic block that begins on line N". [`TreeSitterBlocks`] implements
//! [`hashedit_core::BlockResolver`]: it picks a grammar from the file's
//! path, parses the text once, and answers lookups from the tree.
//!
//! ```
//! # #[cfg(feature = "javascript")] {
//! use hashedit_blocks::TreeSitterBlocks;
//! use hashedit_core::{BlockResolution, BlockResolver, LineRange, Unresolvable};
//!
//! let text = "function x() {\n  if (y) {\n  }\n}\n";
//! let blocks = TreeSitterBlocks::new();
//! let index = blocks.index("src/x.js", text).unwrap();
//! assert_eq!(index.block_at(1), BlockResolution::Block(LineRange { start: 1, end: 4 }));
//! assert_eq!(index.block_at(2), BlockResolution::Block(LineRange { start: 2, end: 3 }));
//! assert_eq!(index.block_at(3), BlockResolution::Unresolvable(Unresolvable::NotABlockStart));
//! # }
//! ```
//!
//! The rule, the languages and their file names, and per-language notes:
//! docs/BLOCKS.md. In short: line N's first non-blank character must start
//! a named node; the block is the outermost named ancestor still starting
//! on line N (never the file's root), spanning to its last line of content;
//! a block with a parse error, or followed by an error node or an invented
//! token, is [`Unresolvable::ParseError`] rather than a guess; a block of
//! one line is [`BlockResolution::SingleLine`]. One cargo feature per
//! grammar (`all-languages` for all); a language whose feature is off is
//! [`Unresolvable::UnknownLanguage`]. A text over
//! [`TreeSitterBlocks::DEFAULT_MAX_BYTES`] or a parse over
//! [`TreeSitterBlocks::DEFAULT_PARSE_TIMEOUT`] gives an index whose every
//! non-blank line is [`Unresolvable::ParseError`].
//!
//! [`BlockResolution::SingleLine`]: hashedit_core::BlockResolution::SingleLine

mod cache;
mod indentation;
mod index;
mod language;

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cache::{Base, TreeCache};

use hashedit_core::{BlockIndex, BlockResolver, Unresolvable};
use tree_sitter::{ParseOptions, ParseState, Parser, Tree};

pub use index::BlockTree;
pub use language::{Language, language_for_path, supported_languages};

/// The tree-sitter [`BlockResolver`]: parses each file once per
/// [`BlockResolver::index`] call with the grammar its path names.
///
/// Cheap to build and to share across threads; every call uses a fresh
/// parser. A long-lived resolver can keep each file's last tree
/// ([`TreeSitterBlocks::with_tree_cache`]) so the next parse of that file
/// is incremental.
#[derive(Debug, Clone)]
pub struct TreeSitterBlocks {
    max_bytes: usize,
    parse_timeout: Duration,
    cache: Option<Arc<TreeCache>>,
}

impl Default for TreeSitterBlocks {
    fn default() -> Self {
        Self::new()
    }
}

impl TreeSitterBlocks {
    /// Texts longer than this many bytes are not parsed (16 MiB).
    pub const DEFAULT_MAX_BYTES: usize = 16 * 1024 * 1024;

    /// A parse running longer than this is cancelled (5 seconds).
    pub const DEFAULT_PARSE_TIMEOUT: Duration = Duration::from_secs(5);

    /// A resolver with the default size and time limits.
    pub fn new() -> Self {
        TreeSitterBlocks {
            max_bytes: Self::DEFAULT_MAX_BYTES,
            parse_timeout: Self::DEFAULT_PARSE_TIMEOUT,
            cache: None,
        }
    }

    /// Keeps the last tree of each path parsed through
    /// [`TreeSitterBlocks::index_path`] (up to 32 files of at most 4 MiB,
    /// least recently used dropped first; clones share the cache). The
    /// next text of a path is parsed incrementally from it: the differing
    /// byte range is found against the remembered text, so any text is
    /// parsed correctly. An incremental parse that finds a syntax error is
    /// redone from scratch, so error lines are always those of a fresh
    /// parse. For a resolver that lives across edits (the MCP server's).
    #[must_use]
    pub fn with_tree_cache(mut self) -> Self {
        self.cache = Some(Arc::new(TreeCache::default()));
        self
    }

    /// Sets the largest text, in bytes, that is parsed (at most 4 GiB − 1,
    /// tree-sitter's own limit).
    #[must_use]
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes.min(u32::MAX as usize);
        self
    }

    /// Sets how long one file's parse may run before it is cancelled.
    #[must_use]
    pub fn with_parse_timeout(mut self, timeout: Duration) -> Self {
        self.parse_timeout = timeout;
        self
    }

    /// Parses `text` as `language`, whatever the file's name.
    ///
    /// Errors: [`Unresolvable::UnknownLanguage`] when the language's grammar
    /// is not compiled into this build.
    pub fn index_as<'a>(
        &self,
        language: Language,
        text: &'a str,
    ) -> Result<BlockTree<'a>, Unresolvable> {
        self.index_keyed(language, None, text)
    }

    /// [`TreeSitterBlocks::index_as`], through the tree cache when there is
    /// one and a path to key it by.
    fn index_keyed<'a>(
        &self,
        language: Language,
        path: Option<&str>,
        text: &'a str,
    ) -> Result<BlockTree<'a>, Unresolvable> {
        let grammar = language.grammar().ok_or(Unresolvable::UnknownLanguage)?;
        if text.len() > self.max_bytes {
            return Ok(BlockTree::new(language, text, None));
        }
        let deadline = Instant::now().checked_add(self.parse_timeout);
        // C may turn out to be C++: that choice is made fresh every time.
        if let (Some(cache), Some(path)) = (self.cache.as_deref(), path)
            && language != Language::C
        {
            let tree = match cache.base(path, language, text) {
                Some(Base::Same(tree)) => Some(tree),
                Some(Base::Edited(old)) => parse(&grammar, text, deadline, Some(&old))
                    .filter(|tree| !tree.root_node().has_error())
                    .or_else(|| parse(&grammar, text, deadline, None)),
                None => parse(&grammar, text, deadline, None),
            };
            if let Some(tree) = &tree {
                cache.store(path, language, text, tree);
            }
            return Ok(BlockTree::new(language, text, tree));
        }
        let tree = parse(&grammar, text, deadline, None);
        if language == Language::C
            && let Some(c_tree) = &tree
            && c_tree.root_node().has_error()
            && let Some(cpp) = Language::Cpp.grammar()
            && let Some(cpp_tree) = parse(&cpp, text, deadline, None)
            && !cpp_tree.root_node().has_error()
        {
            return Ok(BlockTree::new(Language::Cpp, text, Some(cpp_tree)));
        }
        Ok(BlockTree::new(language, text, tree))
    }

    /// Parses `text` with the grammar `path` names (see
    /// [`language_for_path`]).
    ///
    /// Errors: [`Unresolvable::UnknownLanguage`] when the path names no
    /// language, or one whose grammar is not compiled in.
    pub fn index_path<'a>(&self, path: &str, text: &'a str) -> Result<BlockTree<'a>, Unresolvable> {
        let language = language_for_path(path).ok_or(Unresolvable::UnknownLanguage)?;
        self.index_keyed(language, Some(path), text)
    }
}

impl BlockResolver for TreeSitterBlocks {
    fn index<'a>(
        &'a self,
        path: &str,
        text: &'a str,
    ) -> Result<Box<dyn BlockIndex + 'a>, Unresolvable> {
        Ok(Box::new(self.index_path(path, text)?))
    }
}

/// Parses `text`, giving up at `deadline` (`None`: no deadline), reusing
/// `old` (a tree already told how its text became `text`) when given.
fn parse(
    grammar: &tree_sitter::Language,
    text: &str,
    deadline: Option<Instant>,
    old: Option<&Tree>,
) -> Option<Tree> {
    let mut parser = Parser::new();
    parser.set_language(grammar).ok()?;
    let mut progress = |_: &ParseState| match deadline {
        Some(deadline) if Instant::now() >= deadline => ControlFlow::Break(()),
        _ => ControlFlow::Continue(()),
    };
    let options = ParseOptions::new().progress_callback(&mut progress);
    let bytes = text.as_bytes();
    let mut read = |offset: usize, _| bytes.get(offset..).unwrap_or_default();
    parser.parse_with_options(&mut read, old, Some(options))
}
