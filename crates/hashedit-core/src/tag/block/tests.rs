use super::*;

fn block(text: &[u8]) -> [u8; BLOCK] {
    let mut b = [b'x'; BLOCK];
    b[..text.len()].copy_from_slice(text);
    b
}

#[test]
fn a_plain_block_counts_its_newlines() {
    let facts = classify(TagScheme::Rho, &block(b"ab\ncd\n\nef"));
    assert_eq!(
        facts,
        BlockFacts {
            newlines: 3,
            special: false,
            unusual: false
        }
    );
}

#[test]
fn whitespace_before_a_newline_makes_a_block_special() {
    assert!(classify(TagScheme::Rho, &block(b"ab \ncd")).special);
    assert!(classify(TagScheme::Rho, &block(b"ab\t\ncd")).special);
    assert!(classify(TagScheme::Rho, &block(b"ab\r\ncd")).special);
    assert!(classify(TagScheme::Omp, &block(b"ab \ncd")).special);
    // Whitespace before other bytes, or ending the block, is not.
    assert!(!classify(TagScheme::Rho, &block(b"a b\nc\td")).special);
    let mut end = [b'x'; BLOCK];
    end[BLOCK - 1] = b' ';
    assert!(!classify(TagScheme::Rho, &end).special);
}

#[test]
fn a_cr_is_special_for_omp_only_when_it_is_a_break() {
    // omp: every CR is a line break to rewrite; rho: a CR is whitespace.
    assert!(classify(TagScheme::Omp, &block(b"a\rb")).special);
    assert!(!classify(TagScheme::Rho, &block(b"a\rb")).special);
}

#[test]
fn nul_and_non_ascii_bytes_are_unusual() {
    let facts = classify(TagScheme::Omp, &block(b"a\0b"));
    assert!(facts.unusual && !facts.special);
    let facts = classify(TagScheme::Rho, &block(b"ab\xC3\xA9"));
    assert!(facts.unusual && !facts.special);
    assert!(!classify(TagScheme::Rho, &block(b"ab\x7F")).unusual);
}

#[test]
fn whitespace_suffix_lengths() {
    assert_eq!(ws_suffix(TagScheme::Rho, b"ab \t\r"), 3);
    assert_eq!(ws_suffix(TagScheme::Omp, b"ab \t\r"), 0);
    assert_eq!(ws_suffix(TagScheme::Omp, b"   "), 3);
    assert_eq!(ws_suffix(TagScheme::Rho, b""), 0);
}
