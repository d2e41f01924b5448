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
