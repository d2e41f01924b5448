//! Op lines: the keyword (`PUT`, `CUT`, `REM`, `MV`, `EOF`, `SUB`, in any
//! case as a whole token), then a locator, an optional register and colon,
//! a file op's argument, or how the file ends.

use super::header::clean_path;
use super::locator::{locator_fix, parse_put_locator, parse_target_with_warning};
use super::{OpenPut, Parser, PutTarget};
use crate::document::{FinalNewline, MAX_REGISTER_NAME, OpKind, Register, Target, WarningKind};
use crate::problem::RowShape;
use crate::problem::{LocatorProblem, ParseError, Problem, err};

/// The op keywords, each read by its own method of the parser.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Keyword {
    Put,
    Cut,
    Rem,
    Mv,
    Eof,
    Sub,
}

impl Keyword {
    const ALL: [Keyword; 6] = [
        Keyword::Put,
        Keyword::Cut,
        Keyword::Rem,
        Keyword::Mv,
        Keyword::Eof,
        Keyword::Sub,
    ];

    pub(super) fn name(self) -> &'static str {
        match self {
            Keyword::Put => "PUT",
            Keyword::Cut => "CUT",
            Keyword::Rem => "REM",
            Keyword::Mv => "MV",
            Keyword::Eof => "EOF",
            Keyword::Sub => "SUB",
        }
    }

    /// Whether the keyword is read in lower case too: `put`/`cut` lines
    /// have a fixed shape after them; `REM` and `MV` do not.
    pub(super) fn any_case(self) -> bool {
        matches!(self, Keyword::Put | Keyword::Cut)
    }

    /// Whether a colon may follow the keyword directly (`PUT:` and `CUT:`
    /// read as a keyword without a locator; `SUB:` searches the file).
    fn colon_follows(self) -> bool {
        matches!(self, Keyword::Put | Keyword::Cut | Keyword::Sub)
    }
}

/// What `+` rows right after an op without a body are, and the fix.
pub(super) fn rows_after(kind: &OpKind) -> (Problem, Option<String>) {
    match kind {
        OpKind::Replace { .. } | OpKind::Insert { .. } | OpKind::Substitute { .. } => {
            (Problem::BareRow(RowShape::OrphanPlus), None)
        }
        OpKind::Cut { .. } => (Problem::CutWithBody, None),
        OpKind::Paste {
            at,
            register: Register::Anonymous,
        } => (
            Problem::PasteWithBody,
            Some(format!("PUT {}:", at.canonical())),
        ),
        OpKind::Paste { .. } | OpKind::PasteOver { .. } => (Problem::PasteWithBody, None),
        OpKind::Remove | OpKind::Move { .. } | OpKind::FinalNewline(_) => {
            (Problem::BadFileOp, None)
        }
    }
}

/// Splits `PUT rest` (keyword in any case, as a whole token).
pub(super) fn split_keyword(line: &str) -> Option<(Keyword, &str)> {
    for keyword in Keyword::ALL {
        let name = keyword.name();
        let Some(head) = line.get(..name.len()) else {
            continue;
        };
        if !head.eq_ignore_ascii_case(name) {
            continue;
        }
        let rest = &line[name.len()..];
        match rest.chars().next() {
            None => return Some((keyword, rest)),
            Some(c) if c.is_whitespace() => return Some((keyword, rest)),
            Some(':') if keyword.colon_follows() => {
                return Some((keyword, rest));
            }
            Some(_) => {}
        }
    }
    None
}

/// Whether a lower-case `put …`/`cut …` line is a complete, valid op (as
/// Rho reads it) rather than text that happens to start with the word.
pub(super) fn lowercase_op_parses(keyword: Keyword, rest: &str) -> bool {
    let Ok((locator, register, colon)) = split_register(rest.trim()) else {
        return false;
    };
    match keyword {
        Keyword::Cut => !colon && parse_target_with_warning(locator).is_ok(),
        Keyword::Put => (colon || register.is_some()) && parse_put_locator(locator).is_ok(),
        Keyword::Rem | Keyword::Mv | Keyword::Eof | Keyword::Sub => false,
    }
}

/// Splits `locator [@name] [:]` into its parts. Returns the locator text,
/// the register name if any, and whether a trailing colon was present.
fn split_register(rest: &str) -> Result<(&str, Option<String>, bool), Problem> {
    let (body, colon) = match rest.strip_suffix(':') {
        Some(body) => (body.trim_end(), true),
        None => (rest, false),
    };
    match body.split_once('@') {
        None => Ok((body.trim(), None, colon)),
        Some((locator, name)) => {
            let name = name.trim();
            let valid = !name.is_empty()
                && name.chars().count() <= MAX_REGISTER_NAME
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
            if !valid {
                return Err(Problem::BadRegister);
            }
            Ok((locator.trim(), Some(name.to_string()), colon))
        }
    }
}

/// Text after a `PUT` locator's colon, with the fix: a body row written on
/// the header line (`PUT 2: +B`, `PUT 2: x`), or a register paste written
/// with the body colon (`PUT >3: @r`).
fn text_after_colon(rest: &str) -> Option<(Problem, String)> {
    let (head, tail) = rest.split_once(':')?;
    if head.contains('@') {
        return None;
    }
    let (head, row) = (head.trim(), tail.trim_start());
    if let Some(row) = row.strip_prefix('+') {
        return Some((Problem::BodyOnHeaderLine, format!("PUT {head}:\n+{row}")));
    }
    if parse_put_locator(head).is_err() || row.is_empty() {
        return None;
    }
    match row.trim().strip_prefix('@') {
        Some(name) if split_register(row.trim()).is_ok() => Some((
            Problem::ColonOnRegister,
            format!("PUT {head} @{}", name.trim()),
        )),
        _ => Some((Problem::BodyOnHeaderLine, format!("PUT {head}:\n+{row}"))),
    }
}

impl Parser {
    /// The op line `keyword rest`, read by the keyword's method.
    pub(super) fn keyword_op(
        &mut self,
        number: usize,
        raw: &str,
        keyword: Keyword,
        rest: &str,
    ) -> Result<(), ParseError> {
        match keyword {
            Keyword::Put => self.put(number, raw, rest),
            Keyword::Cut => self.cut(number, raw, rest),
            Keyword::Rem | Keyword::Mv => self.file_op(number, raw, keyword, rest),
            Keyword::Eof => self.final_newline(number, raw, rest),
            Keyword::Sub => self.substitute(number, raw, rest),
        }
    }

    /// `SUB N:`, `SUB N.=M:` (any range spelling `PUT` takes), `SUB N*:`
    /// or `SUB:`; its `-` and `+` rows follow.
    fn substitute(&mut self, number: usize, raw: &str, rest: &str) -> Result<(), ParseError> {
        let rest = rest.trim();
        let Some(locator) = rest.strip_suffix(':').map(str::trim_end) else {
            let fix = match rest {
                "" => Some("SUB:".to_string()),
                _ => parse_target_with_warning(rest)
                    .ok()
                    .map(|(target, _)| format!("SUB {}:", target.canonical())),
            };
            return Err(err(number, raw, Problem::SubWithoutColon, fix));
        };
        let within = match locator {
            "" => None,
            _ => Some(self.target(number, raw, locator, |l| format!("SUB {l}:"))?),
        };
        self.open = Some(OpenPut::new(number, raw, PutTarget::Substitute(within)));
        Ok(())
    }

    fn put(&mut self, number: usize, raw: &str, rest: &str) -> Result<(), ParseError> {
        let rest = rest.trim();
        if rest.is_empty() || rest == ":" {
            return Err(err(number, raw, Problem::MissingLocator, None));
        }
        if let Some((problem, fix)) = text_after_colon(rest) {
            return Err(err(number, raw, problem, Some(fix)));
        }
        let (locator, register, colon) =
            split_register(rest).map_err(|problem| err(number, raw, problem, None))?;
        if register.is_some() && colon {
            let fix = format!("PUT {locator} @{}", register.as_deref().unwrap_or_default());
            return Err(err(number, raw, Problem::ColonOnRegister, Some(fix)));
        }
        let target = self.parse_put_locator(number, locator).map_err(|problem| {
            let fix = match problem {
                // Line 0 is before the first line: an insert at the top.
                LocatorProblem::Zero if matches!(locator, "0" | ">0") => Some("<1".to_string()),
                _ => locator_fix(&problem, locator),
            }
            .map(|l| format!("PUT {l}{}", if colon { ":" } else { "" }));
            err(number, raw, Problem::BadLocator(problem), fix)
        })?;
        match (target, register, colon) {
            (target, None, true) => {
                self.open = Some(OpenPut::new(number, raw, target));
            }
            (PutTarget::Insert(at), register, false) => {
                let register = register.map_or(Register::Anonymous, Register::Named);
                self.push_op(number, OpKind::Paste { at, register });
            }
            (PutTarget::Replace(target), Some(name), false) => {
                self.push_op(
                    number,
                    OpKind::PasteOver {
                        target,
                        register: name,
                    },
                );
            }
            (PutTarget::Replace(target), None, false) => {
                return Err(err(
                    number,
                    raw,
                    Problem::PutWithoutColon,
                    Some(format!("PUT {}:", target.canonical())),
                ));
            }
            (PutTarget::Substitute(_), _, false) | (_, Some(_), true) => {
                unreachable!("handled above: a PUT locator is never a SUB's")
            }
        }
        Ok(())
    }

    fn cut(&mut self, number: usize, raw: &str, rest: &str) -> Result<(), ParseError> {
        let rest = rest.trim();
        if rest.is_empty() {
            return Err(err(number, raw, Problem::MissingLocator, None));
        }
        let (locator, register, colon) =
            split_register(rest).map_err(|problem| err(number, raw, problem, None))?;
        let target = self.target(number, raw, locator, |l| format!("CUT {l}"))?;
        let register = register.map_or(Register::Anonymous, Register::Named);
        let kind = OpKind::Cut { target, register };
        if colon {
            self.warn(
                number,
                WarningKind::ColonAfterCut {
                    canonical: kind.canonical_header(),
                },
            );
        }
        self.push_op(number, kind);
        Ok(())
    }

    fn file_op(
        &mut self,
        number: usize,
        raw: &str,
        keyword: Keyword,
        rest: &str,
    ) -> Result<(), ParseError> {
        let rest = rest.trim();
        let kind = match keyword {
            Keyword::Rem if rest.is_empty() => OpKind::Remove,
            Keyword::Mv => {
                let (dest, _) = clean_path(rest);
                if dest.is_empty() {
                    return Err(err(number, raw, Problem::BadFileOp, None));
                }
                let quoted = rest.starts_with(['"', '\'']);
                let locator_like = dest
                    .trim_start_matches(['<', '>'])
                    .trim_start()
                    .starts_with(|c: char| c.is_ascii_digit() || c == '$');
                if !quoted && (locator_like || dest.starts_with(['<', '>'])) {
                    return Err(err(number, raw, Problem::MoveLooksLikeLines, None));
                }
                if !quoted && dest.contains(" @") {
                    return Err(err(number, raw, Problem::BadFileOp, None));
                }
                OpKind::Move { dest }
            }
            _ => return Err(err(number, raw, Problem::BadFileOp, Some("REM".into()))),
        };
        self.push_op(number, kind);
        Ok(())
    }

    /// `EOF NEWLINE` / `EOF NO NEWLINE`.
    fn final_newline(&mut self, number: usize, raw: &str, rest: &str) -> Result<(), ParseError> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let state = match words.as_slice() {
            [w] if w.eq_ignore_ascii_case("newline") => FinalNewline::Present,
            [no, w] if no.eq_ignore_ascii_case("no") && w.eq_ignore_ascii_case("newline") => {
                FinalNewline::Absent
            }
            [no] if no.eq_ignore_ascii_case("no-newline")
                || no.eq_ignore_ascii_case("nonewline") =>
            {
                FinalNewline::Absent
            }
            _ => {
                let lower = rest.to_ascii_lowercase();
                let negative = lower.split(|c: char| !c.is_ascii_alphabetic()).any(|w| {
                    matches!(
                        w,
                        "no" | "not" | "without" | "remove" | "strip" | "drop" | "none"
                    )
                });
                let fix = if negative {
                    "EOF NO NEWLINE"
                } else {
                    "EOF NEWLINE"
                };
                return Err(err(number, raw, Problem::BadFinalNewline, Some(fix.into())));
            }
        };
        let kind = OpKind::FinalNewline(state);
        let canonical = kind.canonical_header();
        if raw.trim() != canonical {
            self.warn(number, WarningKind::FinalNewlineSpelling { canonical });
        }
        self.push_op(number, kind);
        Ok(())
    }

    /// The lines `locator` names (`N`, a range, `N*`), its spelling noted
    /// when not canonical; refused with the op `spell` writes around a
    /// corrected locator as the fix.
    fn target(
        &mut self,
        number: usize,
        raw: &str,
        locator: &str,
        spell: fn(&str) -> String,
    ) -> Result<Target, ParseError> {
        let (target, warning) = parse_target_with_warning(locator).map_err(|problem| {
            let fix = locator_fix(&problem, locator).map(|l| spell(&l));
            err(number, raw, Problem::BadLocator(problem), fix)
        })?;
        if let Some(warning) = warning {
            self.warn(number, warning);
        }
        Ok(target)
    }

    fn parse_put_locator(
        &mut self,
        number: usize,
        locator: &str,
    ) -> Result<PutTarget, LocatorProblem> {
        let (target, warning) = parse_put_locator(locator)?;
        if let Some(warning) = warning {
            self.warn(number, warning);
        }
        Ok(target)
    }
}
