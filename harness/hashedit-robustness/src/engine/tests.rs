use super::*;
use serde_json::json;

#[test]
fn warnings_are_read_as_strings_or_objects() {
    let (lines, signals) = warnings_of(&json!([
        "warning: document line 1: read the tag as 1A2B; tags are printed in capitals",
        {"kind": "echo", "message": "warning: a.rs: PUT 2 (document line 2): …"},
    ]));
    assert_eq!(
        lines,
        [
            "warning: document line 1: read the tag as 1A2B; tags are printed in capitals",
            "warning: a.rs: PUT 2 (document line 2): …"
        ]
    );
    let labels: Vec<&str> = signals.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["lowercase-tag", "echo"]);
    assert_eq!(warnings_of(&json!(null)), (vec![], vec![]));
}
