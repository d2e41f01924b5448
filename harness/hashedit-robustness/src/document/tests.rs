use super::*;

#[test]
fn renders_every_hunk_kind() {
    let hunks = [
        Hunk::Insert {
            after: 0,
            rows: vec!["h".into()],
        },
        Hunk::Replace {
            start: 2,
            end: 2,
            rows: vec!["x".into(), String::new()],
        },
        Hunk::Delete { start: 4, end: 5 },
        Hunk::Insert {
            after: 7,
            rows: vec!["t".into()],
        },
    ];
    let doc = DocSpec::new("a.rs", oracle_ops(&hunks));
    assert_eq!(
        doc.render(SnapshotTag(0xAB12)),
        "[a.rs#AB12]\nPUT <1:\n+h\nPUT 2:\n+x\n+\nCUT 4.=5\nPUT >7:\n+t\n"
    );
    let mut odd = doc.clone();
    odd.lowercase_tag = true;
    odd.crlf = true;
    odd.fence = Some("```hashline".into());
    let text = odd.render(SnapshotTag(0xAB12));
    assert!(text.starts_with("```hashline\r\n[a.rs#ab12]\r\n"));
    assert!(text.ends_with("+t\r\n```\r\n"));
}
