use super::*;

#[test]
fn rows_of_parses_whole_views_only() {
    assert_eq!(
        rows_of("[f.txt#1234]\n1:a\n2:b:c"),
        Some(vec!["a".to_string(), "b:c".to_string()])
    );
    assert_eq!(rows_of("[f.txt#1234]"), Some(vec![]));
    assert_eq!(rows_of("[f.txt#1234]\n2:a"), None);
    assert_eq!(rows_of("x"), None);
}

#[test]
fn judge_counts_two_winners_of_a_conflict_as_a_lost_update() {
    let lines = vec!["a".to_string(), "b".to_string()];
    let plan = |row: &str| Plan {
        kind: WriterKind::Cli,
        document: String::new(),
        line: 1,
        row: row.to_string(),
    };
    let plans = vec![plan("x"), plan("y")];
    let ok = || {
        Ok(Reply::Ok {
            text: String::new(),
            data: json!({}),
        })
    };
    let mut report = RaceReport::default();
    judge(
        &mut report,
        0,
        false,
        &lines,
        &plans,
        &[ok(), ok()],
        "x\nb\n",
    );
    assert_eq!(report.lost_updates, 1);
    let mut report = RaceReport::default();
    let stale = Ok(Reply::Failed {
        kind: "stale_tag".into(),
        message: String::new(),
    });
    judge(
        &mut report,
        0,
        false,
        &lines,
        &plans,
        &[ok(), stale],
        "x\nb\n",
    );
    assert_eq!(report.conflict_ok, 1);
    assert_eq!(report.lost_updates, 0);
}
