//! The real-edit tables: engines side by side, then per engine and
//! package.

use std::fmt::Write as _;

use crate::real_bench::{RealClass, RealResults};

fn bold_unless_zero(n: usize) -> String {
    if n == 0 {
        "0".to_string()
    } else {
        format!("**{n}**")
    }
}

/// Per engine, the edits it can express by class, and what became of the
/// ones whose final newline it cannot write (the rest of the edit).
pub fn real_summary(results: &RealResults) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| engine | docs | exact | exact, warned | refused | wrong | final newline (not expressible): exact · warned · refused · wrong |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---|");
    for (e, name) in results.engines.iter().enumerate() {
        let c = results.counts(e, |r| r.expressible);
        let f = results.counts(e, |r| !r.expressible);
        let docs: usize = c.iter().sum();
        let nl: usize = f.iter().sum();
        let _ = writeln!(
            out,
            "| {name} | {docs} | {} | {} | {} | {} | {nl}: {} · {} · {} · {} |",
            c[0],
            c[1],
            c[2] + c[3],
            bold_unless_zero(c[4] + c[5]),
            f[0],
            f[1],
            f[2] + f[3],
            f[4] + f[5]
        );
    }
    out
}

/// The edits one engine can express, per package, by class.
pub fn real_detail(results: &RealResults, engine: usize) -> String {
    let mut out = String::new();
    let mut head = "| package | docs |".to_string();
    let mut rule = "|---|---:|".to_string();
    for class in RealClass::ALL {
        let _ = write!(head, " {} |", class.heading());
        rule.push_str("---:|");
    }
    let _ = writeln!(out, "{head}\n{rule}");
    let mut packages: Vec<&str> = Vec::new();
    for package in &results.edits {
        if !packages.contains(&package.as_str()) {
            packages.push(package);
        }
    }
    let row = |label: &str, c: [usize; 6]| {
        let n: usize = c.iter().sum();
        let cells: Vec<String> = c.iter().map(ToString::to_string).collect();
        format!("| {label} | {n} | {} |", cells.join(" | "))
    };
    for package in packages {
        let c = results.counts(engine, |r| {
            results.edits[r.edit] == package && r.expressible
        });
        let _ = writeln!(out, "{}", row(package, c));
    }
    let all = results.counts(engine, |r| r.expressible);
    let _ = writeln!(out, "{}", row("**all**", all));
    out
}
