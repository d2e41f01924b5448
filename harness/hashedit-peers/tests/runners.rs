//! The peer runners themselves: each answers as its engine is documented
//! to (Rho's behaviour; oh-my-pi's behaviour, §7), so the
//! differential suites and the robustness benchmark compare against the
//! real thing.

use hashedit_peers::locate;
use hashedit_peers::omp::{OmpError, Peer};
use hashedit_peers::rho::{FailureKind, Rho};

#[test]
fn rho_reads_a_window_with_the_full_file_tag() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "one\ntwo\nthree\nfour\n").unwrap();
    let view = hashedit_peers::rho::read(dir.path(), "a.txt", Some(2), Some(2)).unwrap();
    let mut lines = view.lines();
    assert_eq!(lines.next(), Some("[a.txt#8935]"));
    assert_eq!(lines.next(), Some("2:two"));
    assert_eq!(lines.next(), Some("3:three"));
    assert_eq!(lines.next(), Some(""));
    assert!(lines.next().unwrap().starts_with("[lines 2-3 of 4 shown"));
}

#[test]
fn rho_edits_writes_and_refuses() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "one\ntwo\nthree\nfour\n").unwrap();
    let rho = Rho::new(dir.path()).unwrap();
    let preview = rho
        .edit("[a.txt#8935]\nPUT 2:\n+TWO\nPUT >3:\n+3.5\nCUT 4\n")
        .unwrap();
    assert!(preview.contains("2:TWO"), "{preview}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "one\nTWO\nthree\n3.5\n"
    );
    let stale = rho.edit_reply("[a.txt#8935]\nPUT 1:\n+x\n");
    assert_eq!(stale.failure, Some(FailureKind::Execution));
    assert!(stale.text.contains("tag mismatch"), "{}", stale.text);
    let bad = rho.edit_reply("[a.txt#8935]\nPUT 1.:\n+x\n");
    assert_eq!(bad.failure, Some(FailureKind::InvalidArguments));
    let written = rho.write("nested/b.txt", "x\ny\n").unwrap();
    assert!(written.contains("[nested/b.txt#"), "{written}");
    let outside = rho.read_reply("../x", None, None);
    assert_eq!(outside.failure, Some(FailureKind::PolicyDenied));
}

fn omp(test: &str) -> Option<Peer> {
    locate::or_skip(test, Peer::spawn())
}

#[test]
fn omp_tags_reads_and_applies() {
    let Some(peer) = omp("omp_tags_reads_and_applies") else {
        return;
    };
    assert!(peer.version().starts_with("@oh-my-pi/hashline "));
    let bytes = b"a\nb\n";
    let tag = peer.tag(bytes).unwrap();
    assert_eq!(tag, "9A46");
    assert_eq!(peer.read("f.txt", bytes).unwrap(), "[f.txt#9A46]\n1:a\n2:b");
    let applied = peer
        .apply(bytes, &format!("[f.txt#{tag}]\nPUT 2:\n+B\n"))
        .unwrap();
    assert_eq!(applied.bytes, b"a\nB\n");
    assert!(applied.exists);
    assert_eq!(applied.sections[0].tag, peer.tag(b"a\nB\n").unwrap());
    // omp's phantom line (oh-my-pi's case 10).
    let tag_pq = peer.tag(b"p\nq\n").unwrap();
    let quirk = peer
        .apply(b"p\nq\n", &format!("[f.txt#{tag_pq}]\nPUT >3:\n+t\n"))
        .unwrap()
        .bytes;
    assert_eq!(quirk, b"p\nq\n\nt");
}

#[test]
fn omp_applies_to_several_files_and_refuses_stale_tags() {
    let Some(peer) = omp("omp_applies_to_several_files_and_refuses_stale_tags") else {
        return;
    };
    let a: &[u8] = b"keep\nm1\n";
    let b: &[u8] = b"b1\n";
    let doc = format!(
        "[a.txt#{}]\nCUT 2 @mv\n[b.txt#{}]\nPUT >$ @mv\n",
        peer.tag(a).unwrap(),
        peer.tag(b).unwrap()
    );
    let out = peer
        .apply_files(&[("a.txt", a), ("b.txt", b)], &doc)
        .unwrap();
    assert_eq!(
        out.files,
        vec![
            ("a.txt".to_string(), Some(b"keep\n".to_vec())),
            ("b.txt".to_string(), Some(b"b1\nm1\n".to_vec())),
        ]
    );
    match peer.apply(a, "[a.txt#0000]\nPUT 1:\n+x\n") {
        Err(OmpError::Refused { name, .. }) => assert_eq!(name, "MismatchError"),
        other => panic!("expected a mismatch, got {other:?}"),
    }
    assert!(!peer.is_dead());
}
