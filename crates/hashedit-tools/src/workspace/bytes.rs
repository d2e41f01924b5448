//! File names that are not UTF-8, carried through text and back (FORMAT.md
//! §8.5): each byte outside valid UTF-8 is carried as the code point
//! U+10FF00 + the byte, which [`super::display_path`] writes as `\xNN`
//! in a quoted path and [`raw_to_os`] turns back into the byte.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};

/// The first code point of the reserved range: U+10FF00 + byte.
const BASE: u32 = 0x10_FF00;

/// The char carrying the raw byte `byte`.
pub(super) fn byte_char(byte: u8) -> char {
    char::from_u32(BASE + u32::from(byte)).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The raw byte `c` carries, if it is one of the reserved code points.
pub(super) fn char_byte(c: char) -> Option<u8> {
    u32::from(c)
        .checked_sub(BASE)
        .and_then(|b| u8::try_from(b).ok())
}

/// `name` as text: itself when it is UTF-8, else its valid parts with each
/// other byte carried as a reserved code point (see the module docs).
pub fn os_to_raw(name: &OsStr) -> Cow<'_, str> {
    if let Some(text) = name.to_str() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(name.len() + 8);
    for chunk in name.as_bytes().utf8_chunks() {
        out.push_str(chunk.valid());
        out.extend(chunk.invalid().iter().map(|&b| byte_char(b)));
    }
    Cow::Owned(out)
}

/// The name `raw` stands for: its UTF-8 bytes, with each reserved code
/// point turned back into its byte.
pub fn raw_to_os(raw: &str) -> Cow<'_, OsStr> {
    if !raw.chars().any(|c| char_byte(c).is_some()) {
        return Cow::Borrowed(OsStr::new(raw));
    }
    let mut bytes = Vec::with_capacity(raw.len());
    let mut buf = [0u8; 4];
    for c in raw.chars() {
        match char_byte(c) {
            Some(b) => bytes.push(b),
            None => bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes()),
        }
    }
    Cow::Owned(OsString::from_vec(bytes))
}

#[cfg(test)]
mod tests;
