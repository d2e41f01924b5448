use super::*;
use proptest::prelude::*;

fn rho(s: &str) -> String {
    TagScheme::Rho.tag_of(s.as_bytes()).to_string()
}

fn omp(s: &str) -> String {
    TagScheme::Omp.tag_of(s.as_bytes()).to_string()
}

#[test]
fn rho_vectors_from_product_spec() {
    let cases = [
        ("", "9DC5"),
        ("\n", "6CDD"),
        ("a", "292C"),
        ("a\n", "C6D2"),
        ("a\nb\n", "6DEE"),
        ("a\r\nb\r\n", "6DEE"),
        ("a\nb\nc\n", "2A47"),
        ("original line\n", "8022"),
        ("one\ntwo\nthree\nfour\n", "8935"),
    ];
    for (text, tag) in cases {
        assert_eq!(rho(text), tag, "rho tag of {text:?}");
    }
}

#[test]
fn rho_vectors_from_reference_notes() {
    // Rho's behaviour table.
    assert_eq!(rho("a\n  "), "C6D2");
    assert_eq!(rho("a  \nb\t\n"), "6DEE");
    assert_eq!(rho("a\r\r\nb\n"), "6DEE");
    assert_eq!(rho("a\nb\nc\nd\ne\n"), "CD2A");
    assert_eq!(rho("x  \r\ny\r\n"), rho("x\ny\n"));
}

#[test]
fn rho_hashes_bom_and_leading_whitespace() {
    assert_ne!(rho("\u{FEFF}a\n"), rho("a\n"));
    assert_ne!(rho(" a\n"), rho("a\n"));
}

#[test]
fn handed_b05_collision_pair_shares_a_rho_tag() {
    // The handed collision: the same 4-hex tag for two different files.
    assert_eq!(
        rho("alpha\nbeta\n"),
        rho("// build 075ab-002d6\nalpha\nbeta\n")
    );
    assert_eq!(rho("alpha\nbeta\n"), "ADF9");
}

#[test]
fn omp_vectors_from_product_spec() {
    let cases = [
        ("", "5D05"),
        ("hello\n", "5BF9"),
        ("a \n b\t\r\nc", "80BA"),
        ("a\n", "9585"),
        ("a\nb\n", "9A46"),
    ];
    for (text, tag) in cases {
        assert_eq!(omp(text), tag, "omp tag of {text:?}");
    }
}

#[test]
fn omp_vectors_from_reference_notes() {
    // oh-my-pi's behaviour.
    assert_eq!(omp("before\n"), "F27C");
    assert_eq!(omp("line one 263\nline two 4471\n"), "1D84");
    assert_eq!(omp("line one 410\nline two 6970\n"), "1D84");
    assert_eq!(omp("a  \r\nb\t\r\n"), "9A46");
    assert_eq!(omp("a\nb"), "6540");
    assert_eq!(omp("a\nb\nc\n"), "D988");
    assert_eq!(omp("l1\nl2\nl3\nl4\nl5\n"), "7CCB");
}

#[test]
fn omp_ignores_bom_and_line_ending_style() {
    assert_eq!(omp("\u{FEFF}a\nb\n"), omp("a\nb\n"));
    assert_eq!(omp("a\rb\r"), omp("a\nb\n"));
    assert_eq!(omp("a\r\nb\r\n"), omp("a\nb\n"));
}

#[test]
fn digests_ignore_what_tags_ignore_and_see_collisions() {
    let fp = |s: &str| {
        let mut h = TagHasher::with_digest(TagScheme::Rho);
        h.update(s.as_bytes());
        h.finish_fingerprint()
    };
    // Handed case D09: whitespace-only drift keeps tag and digest.
    assert_eq!(fp("a\r\nb\r\n"), fp("a\nb\n"));
    assert_eq!(fp("a  \nb\t\n"), fp("a\nb\n"));
    // Handed case B05: same tag, different digest.
    let old = fp("alpha\nbeta\n");
    let new = fp("// build 075ab-002d6\nalpha\nbeta\n");
    assert_eq!(old.tag, new.tag);
    assert_ne!(old.digest, new.digest);
    assert_eq!(old.tag, TagScheme::Rho.tag_of(b"alpha\nbeta\n"));
    let mut omp = TagHasher::with_digest(TagScheme::Omp);
    omp.update(b"\xEF\xBB\xBFa\r\n");
    let mut plain = TagHasher::with_digest(TagScheme::Omp);
    plain.update(b"a\n");
    assert_eq!(omp.finish_fingerprint(), plain.finish_fingerprint());
}

#[test]
fn tag_parse_and_display() {
    assert_eq!(SnapshotTag::parse("e178"), Some(SnapshotTag(0xE178)));
    assert_eq!(SnapshotTag::parse("ABC"), None);
    assert_eq!(SnapshotTag::parse("ABCDE"), None);
    assert_eq!(SnapshotTag::parse("12G4"), None);
    assert_eq!(SnapshotTag::parse("+123"), None);
    assert_eq!(SnapshotTag(0x0A1).to_string(), "00A1");
    assert_eq!(header("src/a.rs", SnapshotTag(0x1A2B)), "[src/a.rs#1A2B]");
}

/// The normalised stream a scheme hashes, built the obvious way.
fn normalised(scheme: TagScheme, bytes: &[u8]) -> Vec<u8> {
    match scheme {
        TagScheme::Rho => bytes
            .split(|&b| b == b'\n')
            .map(|piece| {
                let keep = piece
                    .iter()
                    .rposition(|&b| !is_ws(TagScheme::Rho, b))
                    .map_or(0, |i| i + 1);
                piece[..keep].to_vec()
            })
            .collect::<Vec<_>>()
            .join(&b'\n'),
        TagScheme::Omp => {
            let body = bytes.strip_prefix(&UTF8_BOM[..]).unwrap_or(bytes);
            let mut lf = Vec::with_capacity(body.len());
            let mut i = 0;
            while i < body.len() {
                if body[i] == b'\r' {
                    lf.push(b'\n');
                    if body.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                } else {
                    lf.push(body[i]);
                }
                i += 1;
            }
            lf.split(|&b| b == b'\n')
                .map(|piece| {
                    let keep = piece
                        .iter()
                        .rposition(|&b| !is_ws(TagScheme::Omp, b))
                        .map_or(0, |i| i + 1);
                    piece[..keep].to_vec()
                })
                .collect::<Vec<_>>()
                .join(&b'\n')
        }
    }
}

fn chunked(scheme: TagScheme, bytes: &[u8], cuts: &[usize]) -> SnapshotTag {
    let mut hasher = TagHasher::new(scheme);
    let mut start = 0;
    for &cut in cuts {
        let cut = cut.min(bytes.len()).max(start);
        hasher.update(&bytes[start..cut]);
        start = cut;
    }
    hasher.update(&bytes[start..]);
    hasher.finish()
}

proptest! {
    #[test]
    fn any_chunking_gives_the_same_tag(
        bytes in proptest::collection::vec(
            prop_oneof![Just(b' '), Just(b'\t'), Just(b'\r'), Just(b'\n'), Just(0xEF), Just(0xBB), Just(0xBF), Just(b'x')],
            0..64),
        mut cuts in proptest::collection::vec(0usize..64, 0..8),
    ) {
        cuts.sort_unstable();
        for scheme in [TagScheme::Rho, TagScheme::Omp] {
            prop_assert_eq!(chunked(scheme, &bytes, &cuts), scheme.tag_of(&bytes));
        }
    }

    #[test]
    fn rho_tag_matches_its_definition(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let joined: Vec<u8> = bytes
            .split(|&b| b == b'\n')
            .map(|piece| {
                let keep = piece.iter().rposition(|&b| !is_ws(TagScheme::Rho, b)).map_or(0, |i| i + 1);
                piece[..keep].to_vec()
            })
            .collect::<Vec<_>>()
            .join(&b'\n');
        let mut h = FNV_OFFSET_BASIS;
        for b in joined {
            h ^= u32::from(b);
            h = h.wrapping_mul(FNV_PRIME);
        }
        prop_assert_eq!(TagScheme::Rho.tag_of(&bytes), SnapshotTag((h & 0xFFFF) as u16));
    }

    /// Tag and digest equal their definitions over the normalised
    /// stream, whatever the chunking: long lines (runs past the staging
    /// threshold), whitespace and CRs across chunk ends.
    #[test]
    fn fingerprints_match_their_definitions_under_any_chunking(
        pieces in proptest::collection::vec(
            prop_oneof![
                Just(&b" "[..]), Just(&b"\t"[..]), Just(&b"\r"[..]), Just(&b"\n"[..]),
                Just(&b"\r\n"[..]), Just(&b"x"[..]), Just(&b"\xEF\xBB\xBF"[..]),
                Just(&[b'y'; 700][..]), Just(&[b'z'; 1500][..]),
            ],
            0..24),
        mut cuts in proptest::collection::vec(0usize..6000, 0..8),
    ) {
        let bytes: Vec<u8> = pieces.concat();
        cuts.sort_unstable();
        for scheme in [TagScheme::Rho, TagScheme::Omp] {
            let stream = normalised(scheme, &bytes);
            let mut hasher = TagHasher::with_digest(scheme);
            let mut start = 0;
            for &cut in &cuts {
                let cut = cut.min(bytes.len()).max(start);
                hasher.update(&bytes[start..cut]);
                start = cut;
            }
            hasher.update(&bytes[start..]);
            let got = hasher.finish_fingerprint();
            let tag = match scheme {
                TagScheme::Rho => {
                    let mut h = FNV_OFFSET_BASIS;
                    for &b in &stream {
                        h ^= u32::from(b);
                        h = h.wrapping_mul(FNV_PRIME);
                    }
                    h
                }
                TagScheme::Omp => xxhash_rust::xxh32::xxh32(&stream, 0),
            };
            prop_assert_eq!(got.tag, SnapshotTag((tag & 0xFFFF) as u16));
            prop_assert_eq!(got.digest, ContentDigest(xxhash_rust::xxh3::xxh3_128(&stream)));
        }
    }

    #[test]
    fn omp_tag_matches_its_definition(text in "[a \t\r\n\u{FEFF}é]{0,40}") {
        let body = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
        let lf = body.replace("\r\n", "\n").replace('\r', "\n");
        let trimmed: String = lf
            .split('\n')
            .map(|l| l.trim_end_matches([' ', '\t']))
            .collect::<Vec<_>>()
            .join("\n");
        let digest = xxhash_rust::xxh32::xxh32(trimmed.as_bytes(), 0);
        prop_assert_eq!(TagScheme::Omp.tag_of(text.as_bytes()), SnapshotTag((digest & 0xFFFF) as u16));
    }

    /// The block sweep against the definitions: texts long enough to span
    /// many 64-byte blocks, built from pieces that put trailing whitespace,
    /// CRs, whitespace runs longer than a block and line breaks at every
    /// offset of a block, under any chunking.
    #[test]
    fn block_sweep_matches_the_definitions(
        pieces in proptest::collection::vec(
            prop_oneof![
                Just(&b"word"[..]), Just(&b" "[..]), Just(&b"\t"[..]), Just(&b"\n"[..]),
                Just(&b" \n"[..]), Just(&b"\t \n"[..]), Just(&b"\r\n"[..]), Just(&b"\r"[..]),
                Just(&b"\xC3\xA9"[..]), Just(&[b' '; 64][..]), Just(&[b' '; 70][..]),
                Just(&[b'x'; 63][..]), Just(&[b'x'; 130][..]), Just(&b"\xEF\xBB\xBF"[..]),
            ],
            0..60),
        mut cuts in proptest::collection::vec(0usize..3000, 0..5),
    ) {
        let bytes: Vec<u8> = pieces.concat();
        cuts.sort_unstable();
        for scheme in [TagScheme::Rho, TagScheme::Omp] {
            let stream = normalised(scheme, &bytes);
            let mut hasher = TagHasher::with_digest(scheme);
            let mut start = 0;
            for &cut in &cuts {
                let cut = cut.min(bytes.len()).max(start);
                hasher.update(&bytes[start..cut]);
                start = cut;
            }
            hasher.update(&bytes[start..]);
            let got = hasher.finish_fingerprint();
            let tag = match scheme {
                TagScheme::Rho => {
                    let mut h = FNV_OFFSET_BASIS;
                    for &b in &stream {
                        h ^= u32::from(b);
                        h = h.wrapping_mul(FNV_PRIME);
                    }
                    h
                }
                TagScheme::Omp => xxhash_rust::xxh32::xxh32(&stream, 0),
            };
            prop_assert_eq!(got.tag, SnapshotTag((tag & 0xFFFF) as u16), "{:?}", scheme);
            prop_assert_eq!(got.digest, ContentDigest(xxhash_rust::xxh3::xxh3_128(&stream)));
            prop_assert_eq!(scheme.tag_of(&bytes), got.tag);
        }
    }
}
