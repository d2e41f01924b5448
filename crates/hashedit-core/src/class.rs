//! The classes of the core's failures: which error kind of FORMAT.md §8.4
//! a surface reports each as. Every failure type decides its class itself
//! (a `class()` method beside its variants), by an exhaustive match.

/// The class of a failure: the error kind a surface reports it as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureClass {
    /// The file has a NUL byte.
    Binary,
    /// The file is not valid UTF-8.
    NotUtf8,
    /// The file is text in another encoding, or has a lone CR the omp
    /// scheme would misread.
    UnsupportedEncoding,
    /// The tag is not the live file's, or collides.
    StaleTag,
    /// An op names a line outside the file.
    LineOutOfRange,
    /// Two ops claim a line, or an insert sits inside a span.
    OverlappingOps,
    /// The document (or a row in it) is not what the format allows.
    ParseError,
    /// A block locator did not resolve.
    UnresolvedBlock,
    /// A register paste had nothing, or something ambiguous, to paste.
    RegisterError,
    /// The indentation guards.
    IndentationMismatch,
    /// The echo guard.
    EchoedRows,
    /// The shift guards.
    ShiftedRange,
    /// The elision guard.
    ElidedLines,
    /// The syntax guard.
    BrokenSyntax,
    /// The ops change nothing.
    NoChange,
    /// A `SUB`'s old text is not where its locator says.
    NoMatch,
    /// A `SUB`'s old text occurs more than once where its locator says.
    AmbiguousMatch,
}
