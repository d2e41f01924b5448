//! The languages this crate can parse, and how a path names one.

use std::fmt;

/// A language with a tree-sitter grammar known to this crate.
///
/// Every variant exists whatever the enabled cargo features; whether its
/// grammar was compiled in is [`Language::is_supported`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Language {
    /// Rust (`.rs`). Feature `rust`.
    Rust,
    /// Python (`.py`, `.pyi`, `.pyw`). Feature `python`.
    Python,
    /// JavaScript with JSX (`.js`, `.jsx`, `.mjs`, `.cjs`). Feature `javascript`.
    JavaScript,
    /// TypeScript (`.ts`, `.mts`, `.cts`). Feature `typescript`.
    TypeScript,
    /// TypeScript with JSX (`.tsx`). Feature `typescript`.
    Tsx,
    /// Go (`.go`). Feature `go`.
    Go,
    /// Java (`.java`). Feature `java`.
    Java,
    /// C (`.c`, and `.h` unless the header only parses as C++). Feature `c`.
    C,
    /// C++ (`.cc`, `.cpp`, `.cxx`, `.c++`, `.hh`, `.hpp`, `.hxx`, `.h++`,
    /// `.ipp`, `.tpp`). Feature `cpp`.
    Cpp,
    /// C# (`.cs`, `.csx`). Feature `c-sharp`.
    CSharp,
    /// Ruby (`.rb`, `.rake`, `.gemspec`, `.ru`, `Rakefile`, `Gemfile`).
    /// Feature `ruby`.
    Ruby,
    /// Bash and POSIX shell (`.sh`, `.bash`, `.zsh`, `.ksh`, shell start-up
    /// files such as `.bashrc`, `.zshrc`, `.profile`, and `PKGBUILD`).
    /// Feature `bash`.
    Bash,
    /// JSON (`.json`, `.jsonc`). Feature `json`.
    Json,
    /// TOML (`.toml`, `Cargo.lock`, `Pipfile`). Feature `toml`.
    Toml,
    /// YAML (`.yaml`, `.yml`). Feature `yaml`.
    Yaml,
    /// Markdown, block structure only (`.md`, `.markdown`, `.mdown`,
    /// `.mkd`). Feature `markdown`.
    Markdown,
    /// HTML (`.html`, `.htm`, `.xhtml`). Feature `html`.
    Html,
    /// CSS (`.css`). Feature `css`.
    Css,
}

/// Every language, in declaration order.
const ALL: [Language; 18] = [
    Language::Rust,
    Language::Python,
    Language::JavaScript,
    Language::TypeScript,
    Language::Tsx,
    Language::Go,
    Language::Java,
    Language::C,
    Language::Cpp,
    Language::CSharp,
    Language::Ruby,
    Language::Bash,
    Language::Json,
    Language::Toml,
    Language::Yaml,
    Language::Markdown,
    Language::Html,
    Language::Css,
];

/// The languages whose grammars this build compiled in.
const SUPPORTED: &[Language] = &[
    #[cfg(feature = "rust")]
    Language::Rust,
    #[cfg(feature = "python")]
    Language::Python,
    #[cfg(feature = "javascript")]
    Language::JavaScript,
    #[cfg(feature = "typescript")]
    Language::TypeScript,
    #[cfg(feature = "typescript")]
    Language::Tsx,
    #[cfg(feature = "go")]
    Language::Go,
    #[cfg(feature = "java")]
    Language::Java,
    #[cfg(feature = "c")]
    Language::C,
    #[cfg(feature = "cpp")]
    Language::Cpp,
    #[cfg(feature = "c-sharp")]
    Language::CSharp,
    #[cfg(feature = "ruby")]
    Language::Ruby,
    #[cfg(feature = "bash")]
    Language::Bash,
    #[cfg(feature = "json")]
    Language::Json,
    #[cfg(feature = "toml")]
    Language::Toml,
    #[cfg(feature = "yaml")]
    Language::Yaml,
    #[cfg(feature = "markdown")]
    Language::Markdown,
    #[cfg(feature = "html")]
    Language::Html,
    #[cfg(feature = "css")]
    Language::Css,
];

/// The languages whose grammars are compiled into this build (see the
/// crate's cargo features), in a fixed order.
pub fn supported_languages() -> &'static [Language] {
    SUPPORTED
}

/// The language a file path names, by its extension (case-insensitive) or,
/// for files without one, by a few well-known file names.
///
/// Returns a language even when its grammar is not compiled in; check
/// [`Language::is_supported`]. Returns `None` for anything else.
///
/// ```
/// use hashedit_blocks::{language_for_path, Language};
/// assert_eq!(language_for_path("src/main.rs"), Some(Language::Rust));
/// assert_eq!(language_for_path("/home/me/.bashrc"), Some(Language::Bash));
/// assert_eq!(language_for_path("notes.txt"), None);
/// ```
pub fn language_for_path(path: &str) -> Option<Language> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    if let Some(language) = by_file_name(name) {
        return Some(language);
    }
    let (stem, ext) = name.rsplit_once('.')?;
    if stem.is_empty() {
        // A dot file such as `.profile` has no extension.
        return None;
    }
    by_extension(&ext.to_ascii_lowercase())
}

fn by_file_name(name: &str) -> Option<Language> {
    Some(match name {
        ".bashrc" | ".bash_profile" | ".bash_login" | ".bash_logout" | ".bash_aliases"
        | ".profile" | ".zshrc" | ".zshenv" | ".zprofile" | ".zlogin" | ".zlogout" | "bashrc"
        | "zshrc" | "PKGBUILD" | "APKBUILD" => Language::Bash,
        "Rakefile" | "Gemfile" | "Guardfile" | "Vagrantfile" | "Podfile" => Language::Ruby,
        "Cargo.lock" | "Pipfile" => Language::Toml,
        _ => return None,
    })
}

fn by_extension(ext: &str) -> Option<Language> {
    Some(match ext {
        "rs" => Language::Rust,
        "py" | "pyi" | "pyw" => Language::Python,
        "js" | "jsx" | "mjs" | "cjs" => Language::JavaScript,
        "ts" | "mts" | "cts" => Language::TypeScript,
        "tsx" => Language::Tsx,
        "go" => Language::Go,
        "java" => Language::Java,
        "c" | "h" => Language::C,
        "cc" | "cpp" | "cxx" | "c++" | "hh" | "hpp" | "hxx" | "h++" | "ipp" | "tpp" => {
            Language::Cpp
        }
        "cs" | "csx" => Language::CSharp,
        "rb" | "rake" | "gemspec" | "ru" => Language::Ruby,
        "sh" | "bash" | "zsh" | "ksh" => Language::Bash,
        "json" | "jsonc" => Language::Json,
        "toml" => Language::Toml,
        "yaml" | "yml" => Language::Yaml,
        "md" | "markdown" | "mdown" | "mkd" => Language::Markdown,
        "html" | "htm" | "xhtml" => Language::Html,
        "css" => Language::Css,
        _ => return None,
    })
}

impl Language {
    /// Every language this crate knows, compiled in or not.
    pub fn all() -> &'static [Language] {
        &ALL
    }

    /// A short lowercase name: `rust`, `python`, `javascript`, `typescript`,
    /// `tsx`, `go`, `java`, `c`, `cpp`, `c-sharp`, `ruby`, `bash`, `json`,
    /// `toml`, `yaml`, `markdown`, `html`, `css` (the cargo feature's name,
    /// except `tsx`, which comes with `typescript`).
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "rust",
            Language::Python => "python",
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::Go => "go",
            Language::Java => "java",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::CSharp => "c-sharp",
            Language::Ruby => "ruby",
            Language::Bash => "bash",
            Language::Json => "json",
            Language::Toml => "toml",
            Language::Yaml => "yaml",
            Language::Markdown => "markdown",
            Language::Html => "html",
            Language::Css => "css",
        }
    }

    /// Whether this build compiled the language's grammar in.
    pub fn is_supported(self) -> bool {
        SUPPORTED.contains(&self)
    }

    /// The compiled-in grammar, if any.
    pub(crate) fn grammar(self) -> Option<tree_sitter::Language> {
        #[allow(unreachable_patterns)]
        match self {
            #[cfg(feature = "rust")]
            Language::Rust => Some(tree_sitter_rust::LANGUAGE.into()),
            #[cfg(feature = "python")]
            Language::Python => Some(tree_sitter_python::LANGUAGE.into()),
            #[cfg(feature = "javascript")]
            Language::JavaScript => Some(tree_sitter_javascript::LANGUAGE.into()),
            #[cfg(feature = "typescript")]
            Language::TypeScript => Some(tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into()),
            #[cfg(feature = "typescript")]
            Language::Tsx => Some(tree_sitter_typescript::LANGUAGE_TSX.into()),
            #[cfg(feature = "go")]
            Language::Go => Some(tree_sitter_go::LANGUAGE.into()),
            #[cfg(feature = "java")]
            Language::Java => Some(tree_sitter_java::LANGUAGE.into()),
            #[cfg(feature = "c")]
            Language::C => Some(tree_sitter_c::LANGUAGE.into()),
            #[cfg(feature = "cpp")]
            Language::Cpp => Some(tree_sitter_cpp::LANGUAGE.into()),
            #[cfg(feature = "c-sharp")]
            Language::CSharp => Some(tree_sitter_c_sharp::LANGUAGE.into()),
            #[cfg(feature = "ruby")]
            Language::Ruby => Some(tree_sitter_ruby::LANGUAGE.into()),
            #[cfg(feature = "bash")]
            Language::Bash => Some(tree_sitter_bash::LANGUAGE.into()),
            #[cfg(feature = "json")]
            Language::Json => Some(tree_sitter_json::LANGUAGE.into()),
            #[cfg(feature = "toml")]
            Language::Toml => Some(tree_sitter_toml_ng::LANGUAGE.into()),
            #[cfg(feature = "yaml")]
            Language::Yaml => Some(tree_sitter_yaml::LANGUAGE.into()),
            #[cfg(feature = "markdown")]
            Language::Markdown => Some(tree_sitter_md::LANGUAGE.into()),
            #[cfg(feature = "html")]
            Language::Html => Some(tree_sitter_html::LANGUAGE.into()),
            #[cfg(feature = "css")]
            Language::Css => Some(tree_sitter_css::LANGUAGE.into()),
            _ => None,
        }
    }

    /// How blocks are picked out of this language's syntax tree.
    pub(crate) fn rules(self) -> &'static Rules {
        match self {
            Language::Python => &Rules {
                sequences: &["block"],
                decorations: &["decorator"],
                ..Rules::PLAIN
            },
            Language::JavaScript | Language::TypeScript | Language::Tsx => &Rules {
                continuations: &["jsx_closing_element"],
                decorations: &["decorator"],
                ..Rules::PLAIN
            },
            Language::Go => &Rules {
                sequences: &["statement_list"],
                ..Rules::PLAIN
            },
            Language::Java => &Rules {
                decorations: &["marker_annotation", "annotation"],
                ..Rules::PLAIN
            },
            Language::C | Language::Cpp => &Rules {
                decorations: &["attribute_declaration"],
                ..Rules::PLAIN
            },
            Language::CSharp => &Rules {
                decorations: &["attribute_list"],
                ..Rules::PLAIN
            },
            Language::Ruby => &Rules {
                sequences: &["body_statement", "block_body", "then", "do"],
                continuations: &["heredoc_body", "heredoc_end"],
                trailers: &["heredoc_body"],
                ..Rules::PLAIN
            },
            Language::Bash => &Rules {
                continuations: &["heredoc_body", "heredoc_end"],
                ..Rules::PLAIN
            },
            Language::Yaml => &Rules {
                sequences: &["document", "block_node", "block_mapping", "block_sequence"],
                ..Rules::PLAIN
            },
            Language::Markdown => &Rules {
                sequences: &["list", "section"],
                continuations: &[
                    "block_continuation",
                    "code_fence_content",
                    "setext_h1_underline",
                    "setext_h2_underline",
                ],
                closers: &["fenced_code_block_delimiter"],
                headed_sections: true,
                ..Rules::PLAIN
            },
            Language::Html => &Rules {
                continuations: &["end_tag", "erroneous_end_tag"],
                ..Rules::PLAIN
            },
            Language::Rust | Language::Json | Language::Toml | Language::Css => &Rules::PLAIN,
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Per-grammar adjustments to the generic block rule.
#[derive(Debug)]
pub(crate) struct Rules {
    /// Node kinds that hold a run of sibling statements or entries and start
    /// where their first entry starts, with no opening token of their own
    /// (Python's indented `block`, YAML's `block_mapping`). The climb from a
    /// line's node stops below them: the first entry of such a run is its
    /// own block, exactly like the later ones.
    pub sequences: &'static [&'static str],
    /// Node kinds that continue a construct begun on an earlier line (an HTML
    /// end tag, a heredoc's body): a line whose node is one of these is not
    /// a block start.
    pub continuations: &'static [&'static str],
    /// Node kinds that open a construct when they are its first named child
    /// and close it otherwise (a Markdown code fence).
    pub closers: &'static [&'static str],
    /// Node kinds that decorate the item they are nested in (decorators,
    /// annotations, attribute lists). When the lines of an item above line N
    /// hold only these (and comments), line N starts the item's block,
    /// without the decorations.
    pub decorations: &'static [&'static str],
    /// Node kinds that begin at the end of a line and carry on a construct
    /// from that line as a sibling of it (Ruby's heredoc bodies): a block
    /// whose last line is followed by one extends to its end.
    pub trailers: &'static [&'static str],
    /// Markdown: a `section` is a block when climbed into from its heading,
    /// and it keeps its trailing blank lines.
    pub headed_sections: bool,
}

impl Rules {
    const PLAIN: Rules = Rules {
        sequences: &[],
        continuations: &[],
        closers: &[],
        decorations: &[],
        trailers: &[],
        headed_sections: false,
    };
}

#[cfg(test)]
mod tests;
