//! Every tool through the server with rmcp's own client: happy paths,
//! chained edits, stale tags, drift rebase, collisions, confinement,
//! read-only mode and racing edits.

mod common;

use common::*;
use hashedit_mcp::ServerOptions;
use hashedit_tools::{EditArgs, EditMode, ReadFileArgs, ToolContext, ToolError};
use rmcp::model::ProtocolVersion;
use serde_json::json;

/// What the tools layer (the CLI's path, without a session) says for the
/// same document on the same files.
fn cli_edit_error(fixture: &Fixture, input: &str) -> ToolError {
    let ws = fixture.workspace();
    hashedit_tools::edit(
        &ToolContext::new(&ws),
        &EditArgs::new(input.to_string()),
        EditMode::Apply,
    )
    .unwrap_err()
}

#[tokio::test]
async fn read_file_returns_the_cli_text_and_structured_data() {
    let fixture = Fixture::with(&[("a.txt", "one\ntwo\nthree\nfour\n")]);
    for lifecycle in [
        Lifecycle::Initialize(ProtocolVersion::V_2025_11_25),
        Lifecycle::Discover,
    ] {
        let (client, server) = connect(&fixture, ServerOptions::default(), lifecycle).await;
        let reply = call(&client, "read_file", json!({"path": "a.txt"})).await;
        assert_eq!(reply.ok(), "[a.txt#8935]\n1:one\n2:two\n3:three\n4:four");
        assert_eq!(
            reply.structured,
            json!({"path": "a.txt", "tag": "8935", "total_lines": 4, "start": 1, "end": 4,
                   "partial": false})
        );
        let window = call(
            &client,
            "read_file",
            json!({"path": "a.txt", "offset": 2, "limit": 2}),
        )
        .await;
        let ws = fixture.workspace();
        let cli = hashedit_tools::read_file(
            &ToolContext::new(&ws),
            &ReadFileArgs {
                path: "a.txt".into(),
                offset: Some(2),
                limit: Some(2),
            },
        )
        .unwrap();
        assert_eq!(window.ok(), cli.text);
        assert!(window.text.starts_with("[a.txt#8935]\n2:two\n3:three\n\n"));
        assert_eq!(window.structured, cli.structured());
        finish(client, server).await;
    }
}

#[tokio::test]
async fn grep_glob_and_list_dir() {
    let fixture = Fixture::with(&[
        ("src/a.rs", "fn alpha() {}\nfn beta() {}\n"),
        ("src/deep/b.rs", "// beta\n"),
        ("notes.md", "alpha\n"),
    ]);
    let (client, server) = connect_default(&fixture).await;
    let grep = call(&client, "grep", json!({"pattern": "beta"})).await;
    let a_tag = read_tag(&client, "src/a.rs").await;
    let b_tag = read_tag(&client, "src/deep/b.rs").await;
    assert_eq!(
        grep.ok(),
        format!(
            "[src/a.rs#{a_tag}]\n2 | fn beta() {{}}\n[src/deep/b.rs#{b_tag}]\n1 | // beta\n\n2 \
             matches in 2 files"
        )
    );
    let count = call(
        &client,
        "grep",
        json!({"pattern": "ALPHA", "case_sensitive": false, "output_mode": "count"}),
    )
    .await;
    assert_eq!(count.ok(), "notes.md:1\nsrc/a.rs:1\n\n2 matches in 2 files");
    let glob = call(&client, "glob", json!({"pattern": "*.rs"})).await;
    assert_eq!(glob.ok(), "src/a.rs\nsrc/deep/b.rs\n\n2 files");
    let glob = call(
        &client,
        "glob",
        json!({"pattern": "*.rs", "path": "src/deep"}),
    )
    .await;
    assert_eq!(glob.ok(), "src/deep/b.rs\n\n1 file");
    let ls = call(&client, "list_dir", json!({"path": "."})).await;
    assert_eq!(ls.ok(), "notes.md\nsrc/");
    let ls = call(&client, "list_dir", json!({"path": "src"})).await;
    assert_eq!(ls.ok(), "a.rs\ndeep/");
    // A killed write's temp file: counted, and shown with include_hidden.
    std::fs::write(fixture.path("src/.hashedit-0123456789abcdef.tmp"), "x").unwrap();
    let ls = call(&client, "list_dir", json!({"path": "src"})).await;
    assert_eq!(
        ls.ok(),
        "a.rs\ndeep/\n\n(1 hidden entry not shown: unfinished temp file of a killed write; \
         include_hidden=true shows it)"
    );
    let ls = call(
        &client,
        "list_dir",
        json!({"path": "src", "include_hidden": true}),
    )
    .await;
    assert_eq!(ls.ok(), ".hashedit-0123456789abcdef.tmp\na.rs\ndeep/");
    finish(client, server).await;
}

#[tokio::test]
async fn write_creates_and_replaces_with_a_tag_guard() {
    let fixture = Fixture::new();
    let (client, server) = connect_default(&fixture).await;
    let created = call(
        &client,
        "write",
        json!({"path": "dir/new.txt", "content": "a\nb\n"}),
    )
    .await;
    assert_eq!(
        created.ok(),
        "created dir/new.txt\n\n[dir/new.txt#6DEE]\n1:a\n2:b"
    );
    assert_eq!(created.structured["created"], true);
    assert_eq!(fixture.get("dir/new.txt"), "a\nb\n");
    // Replacing with the right tag works, and the reply chains.
    let replaced = call(
        &client,
        "write",
        json!({"path": "dir/new.txt", "content": "a\nb\nc\n", "tag": "6DEE"}),
    )
    .await;
    assert_eq!(
        replaced.ok(),
        "replaced dir/new.txt\n\n[dir/new.txt#2A47]\n1:a\n2:b\n3:c"
    );
    // A stale tag writes nothing and shows the live file.
    let stale = call(
        &client,
        "write",
        json!({"path": "dir/new.txt", "content": "zzz\n", "tag": "6DEE"}),
    )
    .await;
    assert_eq!(stale.kind(), "stale_tag");
    assert!(
        stale.text.contains("[dir/new.txt#2A47]\n1:a\n2:b\n3:c"),
        "{}",
        stale.text
    );
    assert_eq!(fixture.get("dir/new.txt"), "a\nb\nc\n");
    finish(client, server).await;
}

#[tokio::test]
async fn edit_then_chain_a_second_edit_from_the_preview() {
    let fixture = Fixture::with(&[("f.txt", "a\nb\nc\n")]);
    let (client, server) = connect_default(&fixture).await;
    let t1 = read_tag(&client, "f.txt").await;
    assert_eq!(t1, "2A47");
    let first = call(
        &client,
        "edit",
        json!({"input": format!("[f.txt#{t1}]\nPUT >1:\n+x")}),
    )
    .await;
    let t2 = first.tag_of("f.txt");
    assert_eq!(
        first.ok(),
        format!("PUT >1: (+1 line)\n[f.txt#{t2}]\n1:a\n2:x\n3:b\n4:c")
    );
    // The tools layer's structured data, passed through.
    let file = &first.structured["files"][0];
    assert_eq!(
        [
            &file["path"],
            &file["old_tag"],
            &file["new_tag"],
            &file["summary"],
            &file["changed"]
        ],
        [
            &json!("f.txt"),
            &json!(t1),
            &json!(t2),
            &json!("PUT >1: (+1 line)"),
            &json!(true)
        ]
    );
    // No diff unless asked for (with structured content): a model never
    // reads it.
    assert_eq!(file.get("diff"), None);
    assert_eq!(first.structured_content, None);
    assert_eq!(first.structured["files"].as_array().unwrap().len(), 1);
    assert_eq!(first.structured["warnings"], json!([]));
    assert_eq!(first.structured["dry_run"], false);
    assert_eq!(fixture.get("f.txt"), "a\nx\nb\nc\n");
    // Chained from the preview, no read in between; numbers are the
    // preview's.
    let second = call(
        &client,
        "edit",
        json!({"input": format!("[f.txt#{t2}]\nPUT 4:\n+C\nCUT 2")}),
    )
    .await;
    let t3 = second.tag_of("f.txt");
    assert_eq!(
        second.ok(),
        format!("PUT 4: (1 → 1 line); CUT 2 (1 line)\n[f.txt#{t3}]\n1:a\n2:b\n3:C")
    );
    assert_eq!(fixture.get("f.txt"), "a\nb\nC\n");
    // The first tag is now stale (handed case B06).
    let again = call(
        &client,
        "edit",
        json!({"input": format!("[f.txt#{t1}]\nPUT 3:\n+Q")}),
    )
    .await;
    assert_eq!(again.kind(), "stale_tag");
    assert_eq!(fixture.get("f.txt"), "a\nb\nC\n");
    finish(client, server).await;
}

#[tokio::test]
async fn stale_tag_after_an_external_change_returns_a_live_snapshot() {
    let fixture = Fixture::with(&[("f.txt", "alpha\nbeta\ngamma\n")]);
    let (client, server) = connect_default(&fixture).await;
    let t = read_tag(&client, "f.txt").await;
    // Another program rewrites the line the edit targets.
    fixture.put("f.txt", "alpha\nBETA!\ngamma\n");
    let input = format!("[f.txt#{t}]\nPUT 2:\n+beta 2");
    let reply = call(&client, "edit", json!({ "input": input })).await;
    assert_eq!(reply.kind(), "stale_tag");
    let live = reply.tag_of("f.txt");
    assert_ne!(live, t);
    assert!(
        reply
            .text
            .contains(&format!("[f.txt#{live}]\n1:alpha\n2:BETA!\n3:gamma")),
        "{}",
        reply.text
    );
    assert!(
        reply.text.contains(&t),
        "names the stale tag: {}",
        reply.text
    );
    assert_eq!(fixture.get("f.txt"), "alpha\nBETA!\ngamma\n");
    // Retrying from the live snapshot works.
    let retry = call(
        &client,
        "edit",
        json!({"input": format!("[f.txt#{live}]\nPUT 2:\n+beta 2")}),
    )
    .await;
    retry.ok();
    assert_eq!(fixture.get("f.txt"), "alpha\nbeta 2\ngamma\n");
    finish(client, server).await;
}

#[tokio::test]
async fn the_live_snapshot_text_is_the_clis() {
    // Without a remembered snapshot for the tag there is nothing to rebase
    // from, so the server's reply is exactly the CLI's.
    let fixture = Fixture::with(&[("f.txt", "one\ntwo\nthree\n")]);
    let (client, server) = connect_default(&fixture).await;
    let input = "[f.txt#ABCD]\nPUT 2:\n+TWO";
    let reply = call(&client, "edit", json!({ "input": input })).await;
    let cli = cli_edit_error(&fixture, input);
    assert_eq!(reply.kind(), cli.kind.name());
    assert_eq!(reply.text, cli.message);
    assert!(reply.text.contains("[f.txt#"), "{}", reply.text);
    finish(client, server).await;
}

#[tokio::test]
async fn drift_in_an_unrelated_region_is_rebased() {
    let original: String = (1..=10).map(|i| format!("line {i}\n")).collect();
    let fixture = Fixture::with(&[("f.txt", &original)]);
    let (client, server) = connect_default(&fixture).await;
    let t = read_tag(&client, "f.txt").await;
    let drifted = format!("// header one\n// header two\n{original}");
    fixture.put("f.txt", &drifted);
    let reply = call(
        &client,
        "edit",
        json!({"input": format!("[f.txt#{t}]\nPUT 8:\n+LINE EIGHT")}),
    )
    .await;
    let live = {
        let ws = fixture.workspace();
        ws.tag_scheme().tag_of(drifted.as_bytes()).to_string()
    };
    let text = reply.ok();
    assert!(
        text.contains(&format!("snapshot {t} was served (it is now {live})")),
        "{text}"
    );
    assert!(text.contains("moved by +2 lines"), "{text}");
    assert!(text.contains("\n10:LINE EIGHT\n"), "{text}");
    assert_eq!(
        fixture.get("f.txt"),
        drifted.replace("line 8\n", "LINE EIGHT\n")
    );
    finish(client, server).await;
}

#[tokio::test]
async fn drift_next_to_the_edit_fails_closed() {
    let original: String = (1..=10).map(|i| format!("line {i}\n")).collect();
    let fixture = Fixture::with(&[("f.txt", &original)]);
    let (client, server) = connect_default(&fixture).await;
    let t = read_tag(&client, "f.txt").await;
    let drifted = original.replace("line 7\n", "line seven\n");
    fixture.put("f.txt", &drifted);
    let reply = call(
        &client,
        "edit",
        json!({"input": format!("[f.txt#{t}]\nPUT 8:\n+LINE EIGHT")}),
    )
    .await;
    assert_eq!(reply.kind(), "stale_tag");
    assert!(reply.text.contains("\n7:line seven\n"), "{}", reply.text);
    assert_eq!(fixture.get("f.txt"), drifted);
    finish(client, server).await;
}

#[tokio::test]
async fn b05_a_colliding_snapshot_is_stale() {
    let fixture = Fixture::with(&[("f.txt", "alpha\nbeta\n")]);
    let (client, server) = connect_default(&fixture).await;
    let t = read_tag(&client, "f.txt").await;
    let changed = "// build 075ab-002d6\nalpha\nbeta\n";
    fixture.put("f.txt", changed);
    // Same 16-bit tag, different file.
    let ws = fixture.workspace();
    assert_eq!(ws.tag_scheme().tag_of(changed.as_bytes()).to_string(), t);
    let reply = call(
        &client,
        "edit",
        json!({"input": format!("[f.txt#{t}]\nPUT 1:\n+ALPHA")}),
    )
    .await;
    assert_eq!(reply.kind(), "stale_tag");
    assert!(
        reply
            .text
            .contains(&format!("[f.txt#{t}]\n1:// build 075ab-002d6")),
        "{}",
        reply.text
    );
    assert_eq!(fixture.get("f.txt"), changed);
    finish(client, server).await;
}

#[tokio::test]
async fn parse_errors_write_nothing() {
    let fixture = Fixture::with(&[("f.txt", "a\nb\n")]);
    let (client, server) = connect_default(&fixture).await;
    let t = read_tag(&client, "f.txt").await;
    let input = format!("[f.txt#{t}]\nPUT 2\n+B");
    let reply = call(&client, "edit", json!({ "input": input })).await;
    assert_eq!(reply.kind(), "parse_error");
    assert_eq!(reply.text, cli_edit_error(&fixture, &input).message);
    assert!(reply.text.contains("try: PUT 2:"), "{}", reply.text);
    assert_eq!(reply.structured, json!({"kind": "parse_error"}));
    assert_eq!(fixture.get("f.txt"), "a\nb\n");
    finish(client, server).await;
}

#[tokio::test]
async fn paths_outside_the_root_are_refused() {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.txt");
    std::fs::write(&secret, "secret\n").unwrap();
    let fixture = Fixture::with(&[("in.txt", "in\n")]);
    let (client, server) = connect_default(&fixture).await;
    let relative = format!(
        "../{}/secret.txt",
        outside.path().file_name().unwrap().to_str().unwrap()
    );
    let absolute = secret.to_str().unwrap().to_string();
    let ws = fixture.workspace();
    for path in [relative.as_str(), absolute.as_str()] {
        let reply = call(&client, "read_file", json!({ "path": path })).await;
        assert_eq!(reply.kind(), "path_outside_workspace", "{path}");
        let cli = hashedit_tools::read_file(
            &ToolContext::new(&ws),
            &ReadFileArgs {
                path: path.to_string(),
                ..Default::default()
            },
        )
        .unwrap_err();
        assert_eq!(reply.text, cli.message);
        assert!(
            reply.text.contains("outside the workspace root"),
            "{}",
            reply.text
        );
        let write = call(
            &client,
            "write",
            json!({"path": path, "content": "pwned\n"}),
        )
        .await;
        assert_eq!(write.kind(), "path_outside_workspace", "{path}");
        let edit = call(
            &client,
            "edit",
            json!({"input": format!("[{path}#ABCD]\nPUT 1:\n+pwned")}),
        )
        .await;
        assert_eq!(edit.kind(), "path_outside_workspace", "{path}");
    }
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), "secret\n");
    finish(client, server).await;
}

#[cfg(unix)]
#[tokio::test]
async fn a_symlink_to_a_file_outside_does_not_escape() {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.txt");
    std::fs::write(&secret, "secret\n").unwrap();
    let fixture = Fixture::new();
    std::os::unix::fs::symlink(&secret, fixture.path("link.txt")).unwrap();
    std::os::unix::fs::symlink(outside.path(), fixture.path("linkdir")).unwrap();
    let (client, server) = connect_default(&fixture).await;
    for path in ["link.txt", "linkdir/secret.txt"] {
        let read = call(&client, "read_file", json!({ "path": path })).await;
        assert_eq!(read.kind(), "path_outside_workspace", "{path}");
        assert!(!read.text.contains("secret\n"), "{}", read.text);
        let write = call(
            &client,
            "write",
            json!({"path": path, "content": "pwned\n"}),
        )
        .await;
        assert_eq!(write.kind(), "path_outside_workspace", "{path}");
        // The tag of "secret\n" would be guessable; the path is refused
        // before any tag check.
        let edit = call(
            &client,
            "edit",
            json!({"input": format!("[{path}#ABCD]\nPUT 1:\n+pwned")}),
        )
        .await;
        assert_eq!(edit.kind(), "path_outside_workspace", "{path}");
    }
    let grep = call(&client, "grep", json!({"pattern": "secret"})).await;
    assert!(grep.ok().starts_with("no matches"), "{}", grep.text);
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), "secret\n");
    assert!(fixture.path("link.txt").is_symlink());
    finish(client, server).await;
}

#[tokio::test]
async fn read_only_mode_refuses_write_and_edit() {
    let fixture = Fixture::with(&[("f.txt", "a\n")]);
    let (client, server) = connect(
        &fixture,
        ServerOptions {
            read_only: true,
            ..ServerOptions::default()
        },
        Lifecycle::Initialize(ProtocolVersion::V_2025_11_25),
    )
    .await;
    let tools: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(tools, ["read_file", "grep", "glob", "list_dir"]);
    let t = read_tag(&client, "f.txt").await;
    let write = call(&client, "write", json!({"path": "g.txt", "content": "x\n"})).await;
    assert_eq!(write.kind(), "permission_denied");
    assert_eq!(
        write.text,
        "write is not available: this hashedit server is read-only (started with --read-only), \
         so it offers only read_file, grep, glob and list_dir; nothing was written"
    );
    let edit = call(
        &client,
        "edit",
        json!({"input": format!("[f.txt#{t}]\nPUT 1:\n+b")}),
    )
    .await;
    assert_eq!(edit.kind(), "permission_denied");
    assert!(
        edit.text.starts_with("edit is not available"),
        "{}",
        edit.text
    );
    assert!(!exists(&fixture.path("g.txt")));
    assert_eq!(fixture.get("f.txt"), "a\n");
    finish(client, server).await;
}

/// One side of a race: its op and the file if only it lands.
struct Racer {
    op: &'static str,
    alone: &'static str,
}

/// Races two edits planned on one snapshot of `1..5`, `rounds` times.
/// Returns how many rounds ended with one success and one stale tag, and
/// how many with two successes (the second rebased past the first, which
/// must leave `both` in the file).
async fn race(
    client: &Client,
    fixture: &Fixture,
    rounds: usize,
    a: Racer,
    b: Racer,
    both: Option<&str>,
) -> (usize, usize) {
    let (mut one_landed, mut both_landed) = (0, 0);
    for round in 0..rounds {
        fixture.put("f.txt", "1\n2\n3\n4\n5\n");
        let t = read_tag(client, "f.txt").await;
        let (ra, rb) = tokio::join!(
            call(
                client,
                "edit",
                json!({ "input": format!("[f.txt#{t}]\n{}", a.op) })
            ),
            call(
                client,
                "edit",
                json!({ "input": format!("[f.txt#{t}]\n{}", b.op) })
            ),
        );
        let after = fixture.get("f.txt");
        match (ra.is_error, rb.is_error) {
            (false, false) => {
                let both = both.unwrap_or_else(|| {
                    panic!("round {round}: both landed:\n{}\n---\n{}", ra.text, rb.text)
                });
                // Never a lost update: both changes are in the file, and
                // exactly one reply says it was moved onto the other's.
                assert_eq!(after, both, "round {round}");
                let noted = |r: &Reply| r.text.contains("was served (it is now");
                assert!(
                    noted(&ra) ^ noted(&rb),
                    "round {round}: one rebase note:\n{}\n---\n{}",
                    ra.text,
                    rb.text
                );
                both_landed += 1;
            }
            (false, true) | (true, false) => {
                let (winner, loser, alone) = if ra.is_error {
                    (&rb, &ra, b.alone)
                } else {
                    (&ra, &rb, a.alone)
                };
                assert_eq!(loser.kind(), "stale_tag", "round {round}: {}", loser.text);
                // The loser's live snapshot is the winner's result.
                let live = winner.tag_of("f.txt");
                assert!(
                    loser.text.contains(&format!("\n[f.txt#{live}]\n")),
                    "round {round}: {}",
                    loser.text
                );
                assert_eq!(after, alone, "round {round}");
                one_landed += 1;
            }
            (true, true) => panic!("round {round}: both failed:\n{}\n{}", ra.text, rb.text),
        }
    }
    (one_landed, both_landed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn b07_racing_edits_on_neighbouring_lines_exactly_one_lands() {
    // The second edit cannot be rebased (its line's neighbour changed), so
    // exactly one lands and the other gets a stale tag and a live snapshot.
    exactly_one_lands_against_put_2(Racer {
        op: "PUT 3:\n+THREE",
        alone: "1\n2\nTHREE\n4\n5\n",
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn b07_racing_edits_on_distant_lines_exactly_one_lands() {
    // The handed case itself (lines 2 and 4 of one snapshot). The session
    // still holds the snapshot, but an edit written against it already
    // landed, so the other is stale (FORMAT.md §6.4): it is never
    // rebased onto the winner's result.
    exactly_one_lands_against_put_2(Racer {
        op: "PUT 4:\n+FOUR",
        alone: "1\n2\n3\nFOUR\n5\n",
    })
    .await;
}

/// Races `PUT 2:` (line 2 becomes `TWO`) against `other` for 40 rounds on
/// a fresh server and asserts that every round exactly one of the two
/// lands and the other is refused as stale.
async fn exactly_one_lands_against_put_2(other: Racer) {
    let fixture = Fixture::new();
    let (client, server) = connect_default(&fixture).await;
    let (one, both) = race(
        &client,
        &fixture,
        40,
        Racer {
            op: "PUT 2:\n+TWO",
            alone: "1\nTWO\n3\n4\n5\n",
        },
        other,
        None,
    )
    .await;
    assert_eq!((one, both), (40, 0));
    finish(client, server).await;
}

/// A block grammar for tests: the block on line N is N and N+1.
struct PairBlocks;

struct PairIndex {
    lines: usize,
}

impl hashedit_core::BlockIndex for PairIndex {
    fn block_at(&self, line: usize) -> hashedit_core::BlockResolution {
        if line < self.lines {
            hashedit_core::BlockResolution::Block(hashedit_core::LineRange {
                start: line,
                end: line + 1,
            })
        } else {
            hashedit_core::BlockResolution::Unresolvable(hashedit_core::Unresolvable::OutOfRange)
        }
    }

    fn enclosing_block(&self, _line: usize) -> Option<hashedit_core::LineRange> {
        None
    }

    fn next_block(&self, _line: usize) -> Option<hashedit_core::LineRange> {
        None
    }
}

impl hashedit_core::BlockResolver for PairBlocks {
    fn index<'a>(
        &'a self,
        _path: &str,
        text: &'a str,
    ) -> Result<Box<dyn hashedit_core::BlockIndex + 'a>, hashedit_core::Unresolvable> {
        Ok(Box::new(PairIndex {
            lines: text.lines().count(),
        }))
    }
}

#[tokio::test]
async fn block_locators_use_the_servers_grammar() {
    let fixture = Fixture::with(&[("f.txt", "a\nb\nc\nd\n")]);
    // Without a grammar, a block op is refused and nothing is written.
    let (client, server) = connect_default(&fixture).await;
    let t = read_tag(&client, "f.txt").await;
    let refused = call(
        &client,
        "edit",
        json!({"input": format!("[f.txt#{t}]\nCUT 2*")}),
    )
    .await;
    assert!(refused.is_error, "{}", refused.text);
    assert_eq!(fixture.get("f.txt"), "a\nb\nc\nd\n");
    finish(client, server).await;
    // With one, the server's calls resolve blocks through it.
    let options = ServerOptions {
        blocks: Some(std::sync::Arc::new(PairBlocks)),
        ..ServerOptions::default()
    };
    let (client, server) = connect(
        &fixture,
        options,
        Lifecycle::Initialize(ProtocolVersion::V_2025_11_25),
    )
    .await;
    let t = read_tag(&client, "f.txt").await;
    let cut = call(
        &client,
        "edit",
        json!({"input": format!("[f.txt#{t}]\nCUT 2*")}),
    )
    .await;
    cut.ok();
    assert_eq!(fixture.get("f.txt"), "a\nd\n");
    finish(client, server).await;
}
