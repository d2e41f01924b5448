use super::*;
use proptest::prelude::*;

fn ours(bytes: &[u8], cuts: &[usize]) -> u32 {
    let mut h = Xxh32::new();
    let mut at = 0;
    for &cut in cuts {
        let cut = cut.min(bytes.len()).max(at);
        h.update(&bytes[at..cut]);
        at = cut;
    }
    h.update(&bytes[at..]);
    h.digest()
}

#[test]
fn known_values() {
    // The xxHash32 reference values for seed 0.
    assert_eq!(ours(b"", &[]), 0x02CC_5D05);
    assert_eq!(ours(b"a", &[]), 0x550D_7456);
    assert_eq!(ours(b"abc", &[]), 0x32D1_53FF);
    assert_eq!(
        ours(b"Nobody inspects the spammish repetition", &[7, 20]),
        0xE229_3B2F
    );
}

proptest! {
    #[test]
    fn equals_the_library_under_any_chunking(
        bytes in proptest::collection::vec(any::<u8>(), 0..300),
        mut cuts in proptest::collection::vec(0usize..300, 0..6),
    ) {
        cuts.sort_unstable();
        prop_assert_eq!(ours(&bytes, &cuts), xxhash_rust::xxh32::xxh32(&bytes, 0));
    }

    #[test]
    fn whole_blocks_hash_like_any_other_input(
        lead in proptest::collection::vec(any::<u8>(), 0..40),
        blocks in proptest::collection::vec(any::<u8>(), 0..200),
        tail in proptest::collection::vec(any::<u8>(), 0..20),
    ) {
        let mut h = Xxh32::new();
        h.update(&lead);
        let whole = blocks.len() / 64 * 64;
        for b in blocks[..whole].chunks_exact(64) {
            h.update64(b.try_into().unwrap());
        }
        h.update(&blocks[whole..]);
        h.update(&tail);
        let all = [&lead[..], &blocks[..], &tail[..]].concat();
        prop_assert_eq!(h.digest(), xxhash_rust::xxh32::xxh32(&all, 0));
    }
}
