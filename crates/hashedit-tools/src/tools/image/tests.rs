use super::*;

/// A real 1×1 GIF (43 bytes).
const GIF: &[u8] = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;";

#[test]
fn real_images_are_images() {
    assert_eq!(image_mime(GIF), Some("image/gif"));
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\x0DIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";
    assert_eq!(image_mime(png), Some("image/png"));
    assert_eq!(
        image_mime(b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00"),
        Some("image/jpeg")
    );
    assert_eq!(
        image_mime(b"RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00"),
        Some("image/webp")
    );
}

#[test]
fn text_that_starts_like_an_image_is_text() {
    // Rho's own test: 28 bytes of UTF-8 text after a GIF signature.
    assert_eq!(image_mime(b"GIF89a is how a GIF starts\n"), None);
    assert_eq!(image_mime(b"GIF87a\n"), None);
    assert_eq!(image_mime(b"RIFF....WEBP is a container\n"), None);
    // A cut multi-byte character at the end of the chunk is still text.
    assert_eq!(
        image_mime("GIF89a caf\u{e9}".as_bytes().split_last().unwrap().1),
        None
    );
    // Not the header shape: a PNG signature without its IHDR.
    assert_eq!(
        image_mime(b"\x89PNG\r\n\x1a\n\0\0\0\0junk\0\0\0\0\0\0\0\0"),
        None
    );
}

/// A real 1×1 PNG (67 bytes).
const PNG: &[u8] =
    b"\x89PNG\r\n\x1a\n\0\0\0\x0DIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\
\0\0\0\x0AIDATx\x9cc\0\x01\0\0\x05\0\x01\x0d\x0a\x2d\xb4\0\0\0\0IEND\xaeB`\x82";

fn whole(mime: &str, bytes: &[u8]) -> bool {
    let tail = &bytes[bytes.len().saturating_sub(TAIL_BYTES)..];
    ends_whole(mime, bytes.len() as u64, bytes, tail)
}

#[test]
fn only_a_whole_image_file_decodes_as_one() {
    // Second break-it pass: the first 40 bytes of a real PNG were served
    // as `image/png image (40 bytes)`, which no client can decode.
    assert_eq!(image_mime(PNG), Some("image/png"));
    assert!(whole("image/png", PNG));
    assert!(!whole("image/png", &PNG[..40]));
    assert!(whole("image/gif", GIF));
    assert!(!whole("image/gif", &GIF[..30]));
    let jpeg = b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xFF\xD9";
    assert!(whole("image/jpeg", jpeg));
    assert!(!whole("image/jpeg", &jpeg[..12]));
    // A WebP is as long as its RIFF size says, plus 8 (and one pad byte).
    let mut webp = b"RIFF\x08\x00\x00\x00WEBPVP8 ".to_vec();
    assert!(whole("image/webp", &webp));
    webp.push(0);
    assert!(whole("image/webp", &webp));
    webp.push(0);
    assert!(!whole("image/webp", &webp));
    assert!(!whole("image/webp", &webp[..10]));
}
