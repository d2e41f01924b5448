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
//! # The rule
//!
//! For line N (1-based; lines as in [`hashedit_core::Text`], split at `\n`):
//!
//! 1. A line past the end is [`Unresolvable::OutOfRange`]; an empty or
//!    whitespace-only line is [`Unresolvable::BlankLine`].
//! 2. Take the line's first non-whitespace character and the smallest named
//!    node covering it. If that node starts on an earlier line, line N
//!    continues or closes something (`}`, `});`, `end`, `fi`, the middle of
//!    a string or of a call chain): [`Unresolvable::NotABlockStart`]. So is
//!    a line whose node only continues a construct (an HTML end tag, a
//!    heredoc's body, a closing code fence; see the notes below).
//! 3. Climb to the outermost named ancestor that still starts on line N,
//!    never to the file's root node. That ancestor is the block. The climb
//!    stops below the grammar's "runs" of statements or entries that have no
//!    opening token of their own (a Python body, a YAML mapping, a Markdown
//!    list): the first entry of a run is its own block, like the others.
//! 4. Decorated items: when the lines of an item above N hold nothing but
//!    its decorators, annotations or attribute lists (and comments), line N
//!    starts the item's block, from N on. Anchoring on the first decorator
//!    instead takes the decorators along.
//! 5. If the block holds a parse error, sits inside an `ERROR` node, or is
//!    followed (at its level or its ancestors') by an `ERROR` node or a
//!    token the parser had to invent (the trace of a swallowed closer), the
//!    answer is [`Unresolvable::ParseError`] rather than a guess. Blocks
//!    elsewhere in a file with errors still resolve.
//! 6. The block spans N to the last line holding its content. Trailing
//!    whitespace does not count, nor do comments at the end of a block
//!    without a closing token (a TOML table, a YAML mapping, a Python body)
//!    that are indented no deeper than line N: they introduce what follows.
//!    A block of one line is [`BlockResolution::SingleLine`].
//!
//! A continuation line that begins with a complete named node of its own
//! (an argument or a selector alone on its line) resolves to that node,
//! usually [`BlockResolution::SingleLine`], not to
//! [`Unresolvable::NotABlockStart`].
//!
//! [`BlockIndex::enclosing_block`]
//! returns the nearest multi-line block, starting at most
//! [`BLOCK_SUGGESTION_WINDOW`](hashedit_core::BLOCK_SUGGESTION_WINDOW)
//! lines above, that contains the line, as resolved from its own first line
//! (so it is always what `block_at` gives for that line), and
//! [`BlockIndex::next_block`] the
//! first multi-line block starting within that many lines below.
//!
//! # Languages and features
//!
//! One cargo feature per grammar; `all-languages` turns on every one (the
//! `hashedit` binary does). The default set covers the most common
//! languages of agent work: `rust`, `python`, `javascript`, `typescript`
//! (with TSX), `go`, `bash`, `json`, `toml` and `markdown`. The others are
//! opt-in: `java`, `c`, `cpp`, `c-sharp`, `ruby`, `yaml`, `html` and `css`
//! (the C# and C++ parsers are the largest generated C sources of all). A language whose
//! feature is off is still recognised by [`language_for_path`] but
//! [`TreeSitterBlocks`] answers [`Unresolvable::UnknownLanguage`] for it.
//! [`supported_languages`] lists what a build has.
//!
//! | Language | Paths |
//! |---|---|
//! | Rust | `.rs` |
//! | Python | `.py` `.pyi` `.pyw` |
//! | JavaScript (with JSX) | `.js` `.jsx` `.mjs` `.cjs` |
//! | TypeScript / TSX | `.ts` `.mts` `.cts` / `.tsx` |
//! | Go | `.go` |
//! | Java | `.java` |
//! | C / C++ | `.c` `.h` / `.cc` `.cpp` `.cxx` `.c++` `.hh` `.hpp` `.hxx` `.h++` `.ipp` `.tpp` |
//! | C# | `.cs` `.csx` |
//! | Ruby | `.rb` `.rake` `.gemspec` `.ru` `Rakefile` `Gemfile` `Guardfile` `Vagrantfile` `Podfile` |
//! | Bash | `.sh` `.bash` `.zsh` `.ksh` `.bashrc` `.bash_profile` `.bash_login` `.bash_logout` `.bash_aliases` `.profile` `.zshrc` `.zshenv` `.zprofile` `.zlogin` `.zlogout` `bashrc` `zshrc` `PKGBUILD` `APKBUILD` |
//! | JSON | `.json` `.jsonc` |
//! | TOML | `.toml` `Cargo.lock` `Pipfile` |
//! | YAML | `.yaml` `.yml` |
//! | Markdown | `.md` `.markdown` `.mdown` `.mkd` |
//! | HTML | `.html` `.htm` `.xhtml` |
//! | CSS | `.css` |
//!
//! Extensions match case-insensitively. A `.h` file is parsed as C; when
//! that finds syntax errors and the C++ grammar parses it cleanly, it is
//! treated as C++.
//!
//! # Per-language notes
//!
//! Doc comments are separate nodes in every grammar: a one-line comment is
//! [`BlockResolution::SingleLine`] and a block comment is its own block.
//! Decorators, annotations and attributes belong to the item where the
//! grammar nests them (rule 4 above); where they are siblings, anchoring on
//! one resolves just that line.
//!
//! * **Rust**: `#[attr]` lines are siblings of the item; anchor on the
//!   `fn`/`struct`/`impl` line. `} else {` is a closer line.
//! * **Python**: decorators are nested: the `@decorator` line resolves to
//!   decorators plus the `def`/`class`, the `def` line to the definition
//!   alone. `elif`/`else`/`except`/`finally` lines and the `case` lines of
//!   a `match` are blocks of their own. Docstrings and bracketed literals
//!   spanning lines are blocks.
//! * **JavaScript**: decorators on classes and on class members are nested.
//!   `export` takes the declaration it exports along. A JSX element spans
//!   its opening to its closing tag; a line starting with a closing tag is
//!   not a block start. Call chains continued on later lines belong to the
//!   statement on their first line.
//! * **TypeScript / TSX**: as JavaScript, except that decorators on class
//!   members are siblings of the member (class decorators are nested).
//! * **Go**: the statements of a body or of a `case` are each their own
//!   block; a `case` resolves through its last statement.
//! * **Java**: annotations are nested (in the modifiers): `@Override`
//!   resolves to the annotated method, the `public …` line to the method
//!   from there on.
//! * **C / C++**: `#if`/`#ifdef` groups are blocks up to their `#endif`;
//!   `#else`/`#elif` start blocks of their own. `[[attribute]]` lines are
//!   nested. C++ access specifiers (`public:`) are one-line siblings of the
//!   members; a `template <…>` line resolves to the whole template.
//! * **C#**: attribute lists (`[Test]`) are nested. With braces on their own
//!   lines, the `{` line is a block too (the brace block alone). A
//!   file-scoped `namespace X;` is a one-line declaration.
//! * **Ruby**: method, class and block bodies are runs of statements, so
//!   the first statement is its own block. A line that starts a heredoc
//!   resolves through the heredoc's terminator, whose body lines are not
//!   block starts.
//! * **Bash**: functions, `if`/`case`/loops, `case` items and `{ }` groups
//!   are blocks; a command with a heredoc runs through the terminator;
//!   heredoc body lines are not block starts.
//! * **JSON**: objects, arrays, and pairs whose value spans lines.
//! * **TOML**: a `[table]` or `[[array]]` header resolves to the table up
//!   to its last key; comments and blank lines after that key, which the
//!   grammar keeps in the table, are left out. Multi-line arrays and inline
//!   tables are blocks of their key.
//! * **YAML**: a key resolves to its key/value pair (with any nested
//!   mapping, sequence or block scalar); a `- item` line to that sequence
//!   item. The first entry of a mapping or sequence is its own block, like
//!   the others.
//! * **Markdown** (block grammar): an ATX heading (`#`…`######`) resolves
//!   to its whole section: the deeper subsections and the blank lines
//!   before the next heading of the same or a higher level are included.
//!   Setext headings (text underlined with `===`/`---`) open no section in
//!   the grammar and resolve to their two lines. Paragraphs, list items
//!   (with their nested lists), block quotes, tables and fenced code blocks
//!   resolve as their nodes; the first item of a list is its own block. A
//!   closing code fence, a setext underline, the lines inside a code fence
//!   and the continuation lines of a paragraph or block quote are not block
//!   starts. Text before the first heading is not one block. Any text is
//!   valid Markdown, so Markdown never gives [`Unresolvable::ParseError`].
//! * **HTML**: an element spans its start tag to its end tag (elements the
//!   HTML rules close implicitly, like `<p>`, end where the parser closes
//!   them); a line whose first token is an end tag is not a block start.
//!   `<script>`/`<style>` contents are raw text, not block starts.
//! * **CSS**: rule sets, at-rules and their blocks. In a selector list
//!   spread over lines, the later selector lines are one-line nodes.
//!
//! # Limits
//!
//! Parsing is bounded: a text over [`TreeSitterBlocks::DEFAULT_MAX_BYTES`]
//! (16 MiB) is not parsed, and a parse running longer than
//! [`TreeSitterBlocks::DEFAULT_PARSE_TIMEOUT`] is cancelled; both limits
//! are adjustable. Such a file still gets an index, whose every non-blank
//! line resolves to [`Unresolvable::ParseError`] (see
//! [`BlockTree::is_parsed`]).
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
