//! A grep call's arguments, validated and compiled: the two matchers, the
//! glob filter, the caps and the mode.

use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use hashedit_core::{Surface, TagScheme};
use regex::{Regex, RegexBuilder};

use crate::args::{ContextLines, GrepArgs, OutputMode};
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::search::glob::{GlobFilter, hidden_rule};
use crate::search::walk::{IgnoreRules, WalkRules, WalkedFile};
use crate::search::{DEFAULT_MAX_PER_FILE, DEFAULT_MAX_RESULTS, REGEX_SIZE_LIMIT, clamp_cap};

/// A validated grep call.
pub(super) struct Request {
    /// The pattern as the caller wrote it (for messages).
    pub(super) pattern: String,
    /// Defines a match: run on one line's text, CR dropped.
    pub(super) exact: Regex,
    /// Finds candidate lines over a whole file; `None` when grep-regex
    /// cannot build the pattern (every line is then checked exactly).
    pub(super) candidates: Option<RegexMatcher>,
    /// The pattern may assert an end of line or text, which the candidate
    /// matcher sees before a `\r` the line model drops.
    pub(super) end_anchored: bool,
    pub(super) glob: GlobFilter,
    /// The walk's hidden and ignore rules.
    pub(super) rules: WalkRules,
    /// Context lines around each shown match (content mode).
    pub(super) context: ContextLines,
    /// What the pattern means in this dialect when it looks written for
    /// another (FORMAT.md §8.1), for the summary.
    pub(super) dialect_note: Option<String>,
    pub(super) max_results: usize,
    pub(super) max_per_file: usize,
    pub(super) mode: OutputMode,
    pub(super) scheme: TagScheme,
}

impl Request {
    /// Validates `args`.
    ///
    /// Errors: [`ErrorKind::InvalidArguments`] for a pattern the `regex`
    /// crate refuses or an invalid glob.
    pub(super) fn compile(
        args: &GrepArgs,
        scheme: TagScheme,
        surface: Surface,
    ) -> ToolResult<Request> {
        let literal = args.literal.unwrap_or(false);
        let source = if literal {
            regex::escape(&args.pattern)
        } else {
            args.pattern.clone()
        };
        let case_insensitive = !args.case_sensitive.unwrap_or(true);
        let exact = RegexBuilder::new(&source)
            .case_insensitive(case_insensitive)
            .size_limit(REGEX_SIZE_LIMIT)
            .dfa_size_limit(REGEX_SIZE_LIMIT)
            .build()
            .map_err(|e| {
                ToolError::new(
                    ErrorKind::InvalidArguments,
                    format!("invalid pattern '{}': {e}", args.pattern),
                )
            })?;
        let candidates = RegexMatcherBuilder::new()
            .case_insensitive(case_insensitive)
            .multi_line(true)
            .line_terminator(Some(b'\n'))
            .size_limit(REGEX_SIZE_LIMIT)
            .dfa_size_limit(REGEX_SIZE_LIMIT)
            .build(&source)
            .ok();
        let globs = || args.glob.iter().chain(&args.more_globs).map(String::as_str);
        let glob = GlobFilter::compile(globs())?;
        let rules = WalkRules {
            hidden: hidden_rule(args.include_hidden.unwrap_or(false), globs()),
            ignore: if args.no_ignore.unwrap_or(false) {
                IgnoreRules::Off
            } else {
                IgnoreRules::Honour
            },
        };
        Ok(Request {
            pattern: args.pattern.clone(),
            exact,
            candidates,
            end_anchored: !literal && (source.contains('$') || source.contains("\\z")),
            glob,
            rules,
            context: args.context,
            dialect_note: super::dialect::line_break_note(&args.pattern).or_else(|| {
                (!literal)
                    .then(|| super::dialect::note(&args.pattern, surface))
                    .flatten()
            }),
            max_results: clamp_cap(args.max_results, DEFAULT_MAX_RESULTS),
            max_per_file: clamp_cap(args.max_per_file, DEFAULT_MAX_PER_FILE),
            mode: args.output_mode.unwrap_or_default(),
            scheme,
        })
    }

    /// Matching lines kept for display per file (0: none are shown).
    pub(super) fn retain(&self) -> usize {
        match self.mode {
            OutputMode::Content => self.max_per_file,
            OutputMode::FilesWithMatches | OutputMode::Count => 0,
        }
    }

    /// Whether the glob filter (if any) selects this file; `base` is the
    /// target's unquoted workspace-relative path.
    pub(super) fn selects(&self, file: &WalkedFile, base: &str) -> bool {
        if file.relative.is_empty() {
            self.glob.matches(base)
        } else {
            self.glob.matches(&file.relative)
        }
    }
}
