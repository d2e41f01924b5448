//! Which files `read_file` treats as images (FORMAT.md §4.5): a file whose
//! first bytes carry a format's signature and header shape, that is not
//! editable text, and that ends as a whole file of its format does.

/// The MIME type of the image whose file starts with `head` (its first
/// chunk, any length), or `None` when it is not one.
pub(super) fn image_mime(head: &[u8]) -> Option<&'static str> {
    let mime = signature(head)?;
    (header_fits(mime, head) && !reads_as_text(head)).then_some(mime)
}

/// The format whose signature `head` starts with.
fn signature(head: &[u8]) -> Option<&'static str> {
    if head.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if head.starts_with(b"\xFF\xD8\xFF") {
        Some("image/jpeg")
    } else if head.starts_with(b"GIF87a") || head.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if head.len() >= 12 && head.starts_with(b"RIFF") && &head[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

/// Whether the bytes after the signature have the format's header shape:
/// PNG's first chunk is a 13-byte `IHDR`; a JPEG marker follows its SOI;
/// a GIF has its 7-byte screen descriptor; a WebP's first chunk is `VP8 `,
/// `VP8L` or `VP8X`.
fn header_fits(mime: &str, head: &[u8]) -> bool {
    match mime {
        "image/png" => head.len() >= 24 && head[8..16] == *b"\0\0\0\x0DIHDR",
        "image/jpeg" => head.len() >= 4 && head[3] >= 0xC0,
        "image/gif" => head.len() >= 13,
        "image/webp" => head.len() >= 16 && head[12..15] == *b"VP8",
        _ => false,
    }
}

/// Bytes at the end of a file that [`ends_whole`] looks at.
pub(super) const TAIL_BYTES: usize = 1024;

/// Whether an image of `mime` and `size` bytes, ending in `tail`, ends as a
/// whole file of its format: PNG's `IEND`, JPEG's `FF D9`, GIF's `;` (both
/// found anywhere in the tail, after padding), a WebP as long as its RIFF
/// header says.
pub(super) fn ends_whole(mime: &str, size: u64, head: &[u8], tail: &[u8]) -> bool {
    match mime {
        "image/png" => tail.ends_with(b"\0\0\0\0IEND\xAE\x42\x60\x82"),
        "image/jpeg" => tail.windows(2).any(|w| w == b"\xFF\xD9"),
        "image/gif" => tail.contains(&b';'),
        "image/webp" => {
            let Some(declared) = head.get(4..8) else {
                return false;
            };
            let declared = u64::from(u32::from_le_bytes([
                declared[0],
                declared[1],
                declared[2],
                declared[3],
            ])) + 8;
            size == declared || size == declared + 1
        }
        _ => false,
    }
}

/// Whether `head` is editable text as far as it goes: no NUL byte and
/// valid UTF-8 (a multi-byte character cut at the end of the chunk still
/// counts as text).
fn reads_as_text(head: &[u8]) -> bool {
    if memchr::memchr(0, head).is_some() {
        return false;
    }
    match std::str::from_utf8(head) {
        Ok(_) => true,
        Err(error) => error.error_len().is_none(),
    }
}

#[cfg(test)]
mod tests;
