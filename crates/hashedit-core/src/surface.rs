//! How each surface names the tools and arguments a message mentions
//! (FORMAT.md §8.3): the MCP tools and their arguments (`read_file`,
//! `offset: 5`, `force: true`) or the CLI's commands and flags (`read`,
//! `--offset 5`, `--force`). Messages are worded for their surface where
//! they are made: views through [`Output`], failures through [`Worded`].

use std::fmt;

/// The surface a reply is worded for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Surface {
    /// The MCP tools (and the libraries built on them).
    #[default]
    Mcp,
    /// The command line.
    Cli,
}

/// A tool or argument a message names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Name {
    /// The read tool.
    Read,
    /// The directory listing tool.
    List,
    /// The first line of a read window.
    Offset,
    /// The rows of a read window.
    Limit,
    /// Both window arguments.
    OffsetLimit,
    /// Showing hidden entries.
    Hidden,
    /// Lifting ignore rules.
    NoIgnore,
    /// grep's and glob's result cap.
    MaxResults,
    /// grep's cap per file.
    MaxPerFile,
    /// Writing a document or content as sent: `force: true`.
    Force,
    /// The same, as a state: `with force set`.
    ForceSet,
    /// A literal grep pattern: `set literal`.
    Literal,
    /// write's expected tag.
    Tag,
}

impl Surface {
    /// How the surface spells `name`: the table of both spellings.
    pub fn name(self, name: Name) -> &'static str {
        let (mcp, cli) = match name {
            Name::Read => ("read_file", "read"),
            Name::List => ("list_dir", "ls"),
            Name::Offset => ("offset", "--offset"),
            Name::Limit => ("limit", "--limit"),
            Name::OffsetLimit => ("offset/limit", "--offset/--limit"),
            Name::Hidden => ("include_hidden=true", "--hidden"),
            Name::NoIgnore => ("no_ignore", "--no-ignore"),
            Name::MaxResults => ("max_results", "--max-results"),
            Name::MaxPerFile => ("max_per_file", "--max-per-file"),
            Name::Force => ("force: true", "--force"),
            Name::ForceSet => ("force set", "--force"),
            Name::Literal => ("set literal", "pass -F"),
            Name::Tag => ("tag", "--tag"),
        };
        match self {
            Surface::Mcp => mcp,
            Surface::Cli => cli,
        }
    }

    /// The call that reads on from line `offset`: `call read_file with
    /// offset: N` | `run read with --offset N`.
    pub fn read_from(self, offset: usize) -> String {
        match self {
            Surface::Mcp => format!("call read_file with offset: {offset}"),
            Surface::Cli => format!("run read with --offset {offset}"),
        }
    }

    /// The call that reads the rest of a file: `pass offset/limit to
    /// read_file` | `run read with --offset/--limit`.
    pub fn read_rest(self) -> &'static str {
        match self {
            Surface::Mcp => "pass offset/limit to read_file",
            Surface::Cli => "run read with --offset/--limit",
        }
    }

    /// The read that shows line `line` alone, which needs an output budget
    /// of `needed` bytes when that is over the budget `budget` in force
    /// (FORMAT.md §4.4).
    pub fn show_line(self, line: usize, needed: Option<usize>, budget: usize) -> String {
        match (self, needed) {
            (Surface::Mcp, None) => format!("read_file with offset: {line}, limit: 1 shows it"),
            (Surface::Mcp, Some(needed)) => format!(
                "read_file with offset: {line}, limit: 1 shows it only under an output budget of at \
                 least {needed} bytes, more than this one of {budget} (the server's \
                 --max-output-bytes); grep for the part you need"
            ),
            (Surface::Cli, None) => format!("read --offset {line} --limit 1 shows it"),
            (Surface::Cli, Some(needed)) => {
                format!("read --offset {line} --limit 1 --max-output-bytes {needed} shows it")
            }
        }
    }
}

/// Where a reply goes: its output budget in bytes and the surface whose
/// names it uses. A bare budget is a reply for [`Surface::Mcp`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Output {
    /// The output budget (bytes).
    pub max_bytes: usize,
    /// The surface.
    pub surface: Surface,
}

impl From<usize> for Output {
    fn from(max_bytes: usize) -> Output {
        Output {
            max_bytes,
            surface: Surface::Mcp,
        }
    }
}

/// A failure or note whose message names tools or arguments: worded for
/// a surface by [`Worded`]; its `Display` is the [`Surface::Mcp`] wording.
pub trait Word {
    /// Writes the message as `surface` words it.
    fn word(&self, f: &mut fmt::Formatter<'_>, surface: Surface) -> fmt::Result;
}

/// `T`'s message worded for a surface.
#[derive(Debug, Clone, Copy)]
pub struct Worded<'a, T: ?Sized>(pub &'a T, pub Surface);

impl<T: Word + ?Sized> fmt::Display for Worded<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.word(f, self.1)
    }
}

/// `Display` for a [`Word`] type: the MCP wording.
macro_rules! display_as_mcp {
    ($($t:ty),*) => {$(
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                crate::surface::Word::word(self, f, crate::surface::Surface::Mcp)
            }
        }
    )*};
}
pub(crate) use display_as_mcp;

#[cfg(test)]
mod tests;
