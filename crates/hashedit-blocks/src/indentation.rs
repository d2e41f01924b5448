//! Python's indentation rules, which tree-sitter's error-tolerant parse does
//! not enforce and the syntax guard needs (FORMAT.md §7.4): over logical
//! lines (strings, brackets and backslashes joining physical lines; blank
//! and comment lines not counting), a line ending in `:` must be followed
//! by a deeper one, a deeper line must follow such a line, and a dedent
//! must return to an enclosing indentation.

/// The 1-based line of the first indentation error in `text`, if any.
pub(crate) fn python_indentation_error(text: &str) -> Option<usize> {
    let mut scan = Scanner::default();
    let mut stack: Vec<usize> = vec![0];
    // The last logical line ended in `:`, on this line.
    let mut opener: Option<usize> = None;
    for (index, line) in text.split('\n').enumerate() {
        let number = index + 1;
        let starts_logical = !scan.continues();
        let logical = scan.feed(line);
        let ends_logical = !scan.continues();
        if starts_logical
            && logical.significant
            && !indent_fits(&mut stack, logical.indent, opener.is_some())
        {
            return Some(number);
        }
        if ends_logical && logical.significant {
            opener = logical.ends_with_colon.then_some(number);
        }
    }
    // A block opened by the last logical line has no body.
    opener
}

/// Applies the three rules to a logical line starting at `indent`, after a
/// line that opened a block (`after_opener`) or not, keeping the stack of
/// enclosing indentations; `false` on an error.
fn indent_fits(stack: &mut Vec<usize>, indent: usize, after_opener: bool) -> bool {
    let top = *stack.last().unwrap_or(&0);
    if after_opener {
        stack.push(indent);
        return indent > top;
    }
    if indent > top {
        return false;
    }
    while stack.last().is_some_and(|&level| level > indent) {
        stack.pop();
    }
    stack.last() == Some(&indent)
}

/// What one physical line contributed.
#[derive(Debug, Default)]
struct Logical {
    /// The line holds code (not only whitespace or a comment), or continues
    /// an open construct.
    significant: bool,
    /// Columns of leading whitespace (a tab advances to the next multiple
    /// of 8, as Python counts it).
    indent: usize,
    /// The last code character of the line, outside strings, is `:`.
    ends_with_colon: bool,
}

/// Tokenizer state carried from one physical line to the next.
#[derive(Debug, Default)]
struct Scanner {
    /// Open brackets.
    depth: usize,
    /// Inside a triple-quoted string of this quote character.
    triple: Option<char>,
    /// The previous line ended with a backslash.
    backslash: bool,
}

impl Scanner {
    /// Whether the next physical line continues the current logical line.
    fn continues(&self) -> bool {
        self.depth > 0 || self.triple.is_some() || self.backslash
    }

    /// Scans one physical line.
    fn feed(&mut self, line: &str) -> Logical {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let continued = self.continues();
        let mut out = Logical {
            significant: continued,
            indent: indent_of(line),
            ends_with_colon: false,
        };
        self.backslash = false;
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        let mut last_code: Option<char> = None;
        while i < chars.len() {
            let c = chars[i];
            if let Some(quote) = self.triple {
                if c == '\\' {
                    i += 2;
                    continue;
                }
                if c == quote
                    && chars.get(i + 1) == Some(&quote)
                    && chars.get(i + 2) == Some(&quote)
                {
                    self.triple = None;
                    last_code = Some(quote);
                    i += 3;
                    continue;
                }
                i += 1;
                continue;
            }
            match c {
                '#' => break,
                '\'' | '"' => {
                    out.significant = true;
                    if chars.get(i + 1) == Some(&c) && chars.get(i + 2) == Some(&c) {
                        self.triple = Some(c);
                        i += 3;
                        continue;
                    }
                    i = skip_string(&chars, i, c);
                    last_code = Some(c);
                    continue;
                }
                '(' | '[' | '{' => self.depth += 1,
                ')' | ']' | '}' => self.depth = self.depth.saturating_sub(1),
                '\\' if i + 1 == chars.len() => {
                    self.backslash = true;
                    i += 1;
                    continue;
                }
                _ => {}
            }
            if !c.is_whitespace() {
                out.significant = true;
                last_code = Some(c);
            }
            i += 1;
        }
        out.ends_with_colon = last_code == Some(':') && self.depth == 0 && self.triple.is_none();
        out
    }
}

/// The index just past the single-quoted string starting at `start`
/// (quote `quote`); an unclosed string ends the line.
fn skip_string(chars: &[char], start: usize, quote: char) -> usize {
    let mut i = start + 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    chars.len()
}

/// Columns of leading whitespace, tabs to the next multiple of 8.
fn indent_of(line: &str) -> usize {
    let mut columns = 0;
    for c in line.chars() {
        match c {
            ' ' => columns += 1,
            '\t' => columns = (columns / 8 + 1) * 8,
            '\x0c' => columns = 0,
            _ => break,
        }
    }
    columns
}

#[cfg(test)]
mod tests;
