//! The languages of the corpus and their tree-sitter grammars.

/// The languages of the corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// Rust (`.rs`).
    Rust,
    /// Python (`.py`).
    Python,
    /// TypeScript (`.ts`, not `.d.ts`).
    TypeScript,
    /// JavaScript (`.js`).
    JavaScript,
}

impl Lang {
    /// Every language, in table order.
    pub const ALL: [Lang; 4] = [Lang::Rust, Lang::Python, Lang::TypeScript, Lang::JavaScript];

    /// The language of a path, as hashedit-blocks picks grammars; `None`
    /// for anything else (declaration files are skipped: they hold types,
    /// not code to mutate).
    pub fn for_path(path: &str) -> Option<Lang> {
        if path.ends_with(".d.ts") {
            return None;
        }
        match hashedit_blocks::language_for_path(path)? {
            hashedit_blocks::Language::Rust => Some(Lang::Rust),
            hashedit_blocks::Language::Python => Some(Lang::Python),
            hashedit_blocks::Language::TypeScript => Some(Lang::TypeScript),
            hashedit_blocks::Language::JavaScript if path.ends_with(".js") => {
                Some(Lang::JavaScript)
            }
            _ => None,
        }
    }

    /// Lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Python => "python",
            Lang::TypeScript => "typescript",
            Lang::JavaScript => "javascript",
        }
    }

    pub(crate) fn grammar(self) -> tree_sitter::Language {
        match self {
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        }
    }

    /// Statement kinds that a deletion or a line swap may take whole.
    pub(crate) fn statements(self) -> &'static [&'static str] {
        match self {
            Lang::Rust => &["expression_statement", "let_declaration"],
            Lang::Python => &["expression_statement", "return_statement"],
            Lang::TypeScript | Lang::JavaScript => &[
                "expression_statement",
                "lexical_declaration",
                "variable_declaration",
                "return_statement",
            ],
        }
    }

    pub(crate) fn renamed(self, name: &str) -> String {
        match self {
            Lang::Rust | Lang::Python => format!("{name}_next"),
            Lang::TypeScript | Lang::JavaScript => format!("{name}Next"),
        }
    }
}
