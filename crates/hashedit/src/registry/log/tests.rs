//! The log file: appends, damage, compaction, concurrent writers.

use super::*;
use hashedit_core::TagScheme;

fn entry(path: &str, text: &str) -> Entry {
    Entry {
        path: PathBuf::from(path),
        fingerprint: TagScheme::Rho.fingerprint(text.as_bytes()),
        consumed: false,
    }
}

#[test]
fn appends_create_the_log_and_its_directory_then_add_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cache/hashedit/snapshots.v2");
    let a = entry("/w/a.txt", "a\n");
    let b = entry("/w/b.txt", "b\n");
    append(&path, std::slice::from_ref(&a)).unwrap();
    append(&path, &[b.clone(), a.clone()]).unwrap();
    assert_eq!(read(&path), [a.clone(), b.clone(), a.clone()]);
    let text = fs::read_to_string(&path).unwrap();
    assert_eq!(
        text,
        format!(
            "{MAGIC}\n{}{}{}",
            a.encode().unwrap(),
            b.encode().unwrap(),
            a.encode().unwrap()
        )
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    // Nothing to append: the file is not even opened.
    append(&path, &[]).unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn a_torn_last_line_is_dropped_and_the_next_append_starts_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("reg");
    let a = entry("/w/a.txt", "a\n");
    let b = entry("/w/b.txt", "b\n");
    let line = a.encode().unwrap();
    // A writer died half-way through its line, inside the path.
    fs::write(&path, format!("{MAGIC}\n{line}{}", &line[..line.len() - 4])).unwrap();
    assert_eq!(read(&path), std::slice::from_ref(&a));
    append(&path, std::slice::from_ref(&b)).unwrap();
    assert_eq!(read(&path), [a, b]);
}

#[test]
fn a_log_of_another_version_or_garbage_is_ignored_then_started_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("reg");
    let a = entry("/w/a.txt", "a\n");
    for old in [
        "hashedit-registry v1\nADF9 0123456789abcdef0123456789abcdef 0 /w/a.txt\n".to_string(),
        "not a registry\n".to_string(),
        String::new(),
        MAGIC.to_string(),
    ] {
        fs::write(&path, &old).unwrap();
        assert_eq!(read(&path), []);
        append(&path, std::slice::from_ref(&a)).unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            format!("{MAGIC}\n{}", a.encode().unwrap()),
            "after {old:?}"
        );
    }
    assert!(!path.with_extension("tmp").exists());
}

#[test]
fn a_log_too_large_to_be_ours_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("reg");
    let line = entry("/w/a.txt", "a\n").encode().unwrap();
    let mut text = format!("{MAGIC}\n");
    while text.len() as u64 <= MAX_LOG_BYTES {
        text.push_str(&line);
    }
    fs::write(&path, text).unwrap();
    assert_eq!(read(&path), []);
}

#[test]
fn the_log_is_compacted_when_it_grows_past_the_threshold() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("reg");
    // Re-reading the same two files, over and over.
    let a = entry("/w/a.txt", "a\n");
    let b = entry("/w/b.txt", "b\n");
    let per_call = a.encode().unwrap().len() + b.encode().unwrap().len();
    let calls = COMPACT_AT as usize / per_call + 1;
    let mut largest = 0;
    for _ in 0..calls {
        append(&path, &[a.clone(), b.clone()]).unwrap();
        largest = largest.max(fs::metadata(&path).unwrap().len());
    }
    assert!(largest <= COMPACT_AT + per_call as u64, "{largest}");
    // The last append compacted the log down to what a session remembers.
    assert_eq!(read(&path), [a, b]);
}

#[test]
fn compaction_keeps_the_newest_files_within_the_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("reg");
    let files = KEEP_PATHS + 10;
    let entries: Vec<Entry> = (0..files)
        .map(|i| entry(&format!("/w/f{i:05}.txt"), &format!("{i}\n")))
        .collect();
    append(&path, &entries).unwrap();
    compact(&path).unwrap();
    let kept = read(&path);
    assert_eq!(kept, entries[files - KEEP_PATHS..]);
    // Long paths hit the byte bound first: the newest lines are kept.
    let long: Vec<Entry> = (0..600)
        .map(|i| entry(&format!("/w/{}/{i:05}.txt", "d".repeat(500)), "x\n"))
        .collect();
    append(&path, &long).unwrap();
    compact(&path).unwrap();
    let kept = read(&path);
    let bytes: usize = kept.iter().map(|e| e.encode().unwrap().len()).sum();
    assert!(bytes <= KEEP_BYTES, "{bytes}");
    assert!(
        bytes + long[0].encode().unwrap().len() > KEEP_BYTES,
        "{bytes}"
    );
    assert_eq!(kept, long[long.len() - kept.len()..]);
}

#[test]
fn concurrent_appenders_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("reg");
    let threads = 8;
    let per_thread = 50;
    std::thread::scope(|s| {
        for t in 0..threads {
            let path = &path;
            s.spawn(move || {
                for i in 0..per_thread {
                    let e = entry(&format!("/w/t{t}/f{i}.txt"), &format!("{t} {i}\n"));
                    append(path, &[e]).unwrap();
                }
            });
        }
    });
    let mut got: Vec<String> = read(&path)
        .into_iter()
        .map(|e| e.path.display().to_string())
        .collect();
    got.sort();
    let mut want: Vec<String> = (0..threads)
        .flat_map(|t| (0..per_thread).map(move |i| format!("/w/t{t}/f{i}.txt")))
        .collect();
    want.sort();
    assert_eq!(got, want);
}
