//! `--dump`: the cases worth a look, written out one directory each.

use std::path::Path;

use crate::bench::Case;
use crate::content_bench::ReplaceCase;
use crate::engine::Reply;
use crate::hunks::Lines;
use crate::real::RealEdit;
use crate::score::Outcome;

fn write_all(dir: &Path, files: &[(&str, &[u8])]) {
    if std::fs::create_dir_all(dir).is_ok() {
        for (name, bytes) in files {
            let _ = std::fs::write(dir.join(name), bytes);
        }
    }
}

/// The signals of a reply, one a line.
fn signal_lines(reply: &Reply) -> String {
    reply
        .signals
        .iter()
        .map(|s| format!("{}\n", s.describe()))
        .collect()
}

/// A mutated document's case: `dir/ENGINE/MISTAKE/TASK-FORM-OUTCOME/`.
pub fn mutation_case(
    dir: &Path,
    engine: &str,
    case: &Case,
    v: usize,
    reply: &Reply,
    outcome: Outcome,
) {
    let variant = &case.variants[v];
    let case_dir = dir.join(engine).join(variant.mistake.name()).join(format!(
        "{:05}-{}-{}",
        case.task.index,
        variant.form,
        outcome.label().replace(['(', ')'], "")
    ));
    let task = format!(
        "{}\n{} ({})\n{}\nwarnings: {:?}\n",
        case.task.path,
        case.task.mutation.name(),
        case.task.description,
        case.task.lang.name(),
        reply.warnings
    );
    let files = [&variant.served, &variant.live, &variant.intended];
    write_case(&case_dir, reply, files, &task);
}

/// The files of a case: what was sent, the file read, the live one, the
/// one meant, the one after, the reply, its signals and `task`.
fn write_case(case_dir: &Path, reply: &Reply, [served, live, intended]: [&Lines; 3], task: &str) {
    write_all(
        case_dir,
        &[
            ("document.txt", reply.document.as_bytes()),
            ("original", served.text().as_bytes()),
            ("live", live.text().as_bytes()),
            ("intended", intended.text().as_bytes()),
            ("after", reply.after.as_deref().unwrap_or_default()),
            ("reply.txt", reply.text.as_bytes()),
            ("signals.txt", signal_lines(reply).as_bytes()),
            ("task.txt", task.as_bytes()),
        ],
    );
}

/// A real edit's case: `dir/real/ENGINE/CLASS/INDEX-FILE/`.
pub fn real_case(dir: &Path, engine: &str, class: &str, i: usize, edit: &RealEdit, reply: &Reply) {
    let name = edit.path().replace('/', "_");
    let case_dir = dir
        .join("real")
        .join(engine)
        .join(class.replace([' ', ','], ""))
        .join(format!("{i:04}-{name}"));
    write_all(
        &case_dir,
        &[
            ("document.txt", reply.document.as_bytes()),
            ("old", edit.old.text().as_bytes()),
            ("new", edit.new.text().as_bytes()),
            ("after", reply.after.as_deref().unwrap_or_default()),
            ("reply.txt", reply.text.as_bytes()),
            ("signals.txt", signal_lines(reply).as_bytes()),
            ("edit.txt", format!("{}\n", edit.describe()).as_bytes()),
        ],
    );
}

/// A content-addressed variant's case:
/// `dir/content/ENGINE/MISTAKE/TASK-FORM-OUTCOME/`.
pub fn replace_case(
    dir: &Path,
    engine: &str,
    case: &ReplaceCase,
    v: usize,
    reply: &Reply,
    outcome: Outcome,
) {
    let variant = &case.variants[v];
    let case_dir = dir
        .join("content")
        .join(engine)
        .join(variant.mistake.name())
        .join(format!(
            "{:05}-{}-{}",
            case.task.index,
            variant.form,
            outcome.label().replace(['(', ')'], "")
        ));
    let files = [&variant.served, &variant.live, &variant.intended];
    write_case(&case_dir, reply, files, &format!("{}\n", case.task.path));
}
