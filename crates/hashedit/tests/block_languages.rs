//! Block ops end to end, through the `hashedit` binary, in every language the
//! block grammars cover.
//!
//! Each language gets a realistic file and, on it, every block op:
//! `PUT N*:` over a multi-line construct, `CUT N*`, `PUT >N*:` after a
//! nested block, and the register moves `CUT N* @r` with `PUT >M* @r`,
//! `PUT <M @r` and `PUT M* @r`. Each edit runs on a fresh copy of the file;
//! the test checks the exact bytes written, the summary line (which echoes
//! every resolved block) and the chained header of the reply. Then the
//! refusals: a one-line construct, a line that closes or continues a
//! construct, a blank line; each exits 1 with a ready-to-copy op and leaves
//! the file byte-identical.
//!
//! An expected file is written as pieces of the original: `Keep(a, b)` is
//! its lines `a..=b`, `Body` the edit's `+` rows and `Text` literal text.

use std::fs;
use std::path::Path;

mod run_cli;
use run_cli::run_hashedit;

use hashedit_core::TagScheme;

use Part::{Body, Keep, Text};
use Refusal::{Blank, Inside, SingleLine};

/// A piece of an expected file.
enum Part {
    /// Lines `a..=b` (1-based) of the original file, line breaks included.
    Keep(usize, usize),
    /// The `+` rows of the edit, in order, each without its `+`.
    Body,
    /// Literal text.
    Text(&'static str),
}

/// An edit that lands.
struct Edit {
    /// The section's ops, one document line each.
    ops: &'static [&'static str],
    /// The first line of the reply: the summary of the ops.
    summary: &'static str,
    /// The file afterwards.
    result: &'static [Part],
}

/// A block op refused with exit status 1; nothing is written.
enum Refusal {
    /// `PUT N*:` on a one-line construct, at line N: the error names
    /// `PUT N:` and the enclosing block `(start, end)`, if there is one.
    SingleLine(usize, Option<(usize, usize)>),
    /// `CUT N*` on a line N that closes or continues a construct (`}`,
    /// `end`, `fi`, an end tag, a closing fence…): the block `(start, end)`
    /// around it is suggested.
    Inside(usize, (usize, usize)),
    /// `CUT N*` on a blank line N: the next block `(start, end)` is
    /// suggested.
    Blank(usize, (usize, usize)),
}

impl Refusal {
    /// The document's ops, given the file's lines.
    fn ops(&self, lines: &[&str]) -> String {
        match self {
            SingleLine(line, _) => {
                format!("PUT {line}*:\n+{}", lines[line - 1].trim_end())
            }
            Inside(line, _) | Blank(line, _) => format!("CUT {line}*"),
        }
    }

    /// The first line of the reply, after `path: `.
    fn error(&self) -> String {
        let cut = |line: usize, why: &str, (start, end): (usize, usize)| {
            format!(
                "CUT {line}* (document line 2): no block starts on line {line}: {why}; did you mean \
                 CUT {start}* (lines {start}-{end})? Otherwise give the lines explicitly (N.=M)"
            )
        };
        match *self {
            SingleLine(line, enclosing) => {
                let mut error = format!(
                    "PUT {line}*: (document line 2): the construct on that line is a single line; use \
                     PUT {line}:"
                );
                if let Some((start, end)) = enclosing {
                    error +=
                        &format!(" (the enclosing block is PUT {start}*: (lines {start}-{end}))");
                }
                error
            }
            Inside(line, suggested) => cut(
                line,
                "the line continues or closes a construct that starts on an earlier line",
                suggested,
            ),
            Blank(line, suggested) => cut(line, "the line is blank", suggested),
        }
    }
}

/// Runs `hashedit --root ROOT edit` with `doc` on stdin and no snapshot
/// registry; returns the exit status and stdout (stderr when it failed:
/// errors go there).
fn edit(root: &Path, doc: &str) -> (Option<i32>, String) {
    let out = run_hashedit(root, &["edit"], Some(doc), "off");
    let printed = if out.status.success() {
        out.stdout
    } else {
        out.stderr
    };
    (out.status.code(), String::from_utf8(printed).unwrap())
}

/// The section header naming `text` as the snapshot of `path`.
fn header(path: &str, text: &str) -> String {
    format!("[{path}#{}]", TagScheme::Rho.tag_of(text.as_bytes()))
}

/// The lines of `text`, each with its line break.
fn lines_of(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// Puts an expected file together from pieces of `lines` and the `+` rows
/// of `ops`, each row ending in `newline`.
fn assemble(lines: &[&str], ops: &[&str], newline: &str, parts: &[Part]) -> String {
    let mut out = String::new();
    for part in parts {
        match *part {
            Keep(first, last) => {
                assert!(
                    1 <= first && first <= last && last <= lines.len(),
                    "Keep({first}, {last}) of {} lines",
                    lines.len()
                );
                out.extend(lines[first - 1..last].iter().copied());
            }
            Body => {
                for op in ops {
                    if let Some(row) = op.strip_prefix('+') {
                        out.push_str(row);
                        out.push_str(newline);
                    }
                }
            }
            Text(text) => out.push_str(text),
        }
    }
    out
}

/// Runs every edit and every refusal on a fresh copy of `source` (its
/// first line break, after the opening quote, is not part of the file).
fn check(path: &str, source: &str, edits: &[Edit], refusals: &[Refusal]) {
    check_with_newline(path, source, "\n", edits, refusals);
}

/// [`check`] on the file with every line ending in `newline`.
fn check_with_newline(
    path: &str,
    source: &str,
    newline: &str,
    edits: &[Edit],
    refusals: &[Refusal],
) {
    let source = source
        .strip_prefix('\n')
        .unwrap_or(source)
        .replace('\n', newline);
    let source = source.as_str();
    let lines = lines_of(source);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(path);
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    let snapshot = header(path, source);
    for edit_case in edits {
        fs::write(&file, source).unwrap();
        let doc = format!("{snapshot}\n{}\n", edit_case.ops.join("\n"));
        let (status, reply) = edit(dir.path(), &doc);
        assert_eq!(status, Some(0), "{path}:\n{doc}\n{reply}");
        let expected = assemble(&lines, edit_case.ops, newline, edit_case.result);
        let written = fs::read_to_string(&file).unwrap();
        // Line by line first, for a readable failure; then the exact bytes.
        assert_eq!(lines_of(&written), lines_of(&expected), "{path}:\n{doc}");
        assert_eq!(written, expected, "{path}:\n{doc}");
        assert_eq!(
            reply.lines().next(),
            Some(edit_case.summary),
            "{path}:\n{doc}"
        );
        let chained = format!("{}\n{}\n", edit_case.summary, header(path, &expected));
        assert!(reply.starts_with(&chained), "{path}:\n{doc}\n{reply}");
    }
    for refusal in refusals {
        fs::write(&file, source).unwrap();
        let doc = format!("{snapshot}\n{}\n", refusal.ops(&lines));
        let (status, reply) = edit(dir.path(), &doc);
        assert_eq!(status, Some(1), "{path}:\n{doc}\n{reply}");
        assert_eq!(
            reply.lines().next().unwrap_or_default(),
            format!("{path}: {}; nothing was written", refusal.error()),
            "{path}:\n{doc}"
        );
        assert_eq!(
            fs::read(&file).unwrap(),
            source.as_bytes(),
            "{path}:\n{doc}"
        );
    }
}

// ---------------------------------------------------------------------------
// Rust

const RUST: &str = r#"
//! A tiny inventory with restocking rules.

use std::collections::HashMap;

/// One stocked item.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub name: String,
    pub count: u32,
}

pub struct Inventory {
    items: HashMap<String, Item>,
    low_water: u32,
}

impl Inventory {
    pub fn new(low_water: u32) -> Self {
        Inventory {
            items: HashMap::new(),
            low_water,
        }
    }

    pub fn add(&mut self, name: &str, count: u32) {
        let item = self.items.entry(name.to_string()).or_insert(Item {
            name: name.to_string(),
            count: 0,
        });
        item.count += count;
    }

    /// Names of the items that need restocking, sorted.
    pub fn low(&self) -> Vec<&str> {
        let mut names = Vec::new();
        for item in self.items.values() {
            if item.count < self.low_water {
                names.push(item.name.as_str());
            }
        }
        names.sort();
        names
    }
}

fn main() {
    let mut inv = Inventory::new(3);
    inv.add("bolts", 10);
    inv.add("nuts", 1);
    println!("{:?}", inv.low());
}
"#;

#[test]
fn rust() {
    check(
        "src/inventory.rs",
        RUST,
        &[
            // The method `low`, from its `pub fn` line (the doc comment
            // above is a line of its own).
            Edit {
                ops: &[
                    "PUT 34*:",
                    "+    pub fn low(&self) -> Vec<&str> {",
                    "+        let mut names: Vec<&str> = self.low_items().collect();",
                    "+        names.sort();",
                    "+        names",
                    "+    }",
                ],
                summary: "PUT 34*: (block: lines 34-43; 10 → 5 lines)",
                result: &[Keep(1, 33), Body, Keep(44, 51)],
            },
            Edit {
                ops: &["CUT 25*"],
                summary: "CUT 25* (block: lines 25-31; 7 lines)",
                result: &[Keep(1, 24), Keep(32, 51)],
            },
            // After the `for` loop inside `low`.
            Edit {
                ops: &[
                    "PUT >36*:",
                    "+        debug_assert!(names.len() <= self.items.len());",
                ],
                summary: "PUT >36*: (+1 line after the block's last line 40 (block: lines 36-40))",
                result: &[Keep(1, 40), Body, Keep(41, 51)],
            },
            // `new` moves below `add`.
            Edit {
                ops: &["CUT 18* @new", "PUT >25* @new"],
                summary: "CUT 18* @new (block: lines 18-23; 6 lines); PUT >25* @new (+6 lines from @new \
                          after the block's last line 31 (block: lines 25-31))",
                result: &[Keep(1, 17), Keep(24, 31), Keep(18, 23), Keep(32, 51)],
            },
            // `main` moves above `Inventory`, through the unnamed register.
            Edit {
                ops: &["CUT 46*", "PUT <12"],
                summary: "CUT 46* (block: lines 46-51; 6 lines); PUT <12 (+6 lines from the anonymous \
                          register)",
                result: &[Keep(1, 11), Keep(46, 51), Keep(12, 45)],
            },
            // `Inventory` takes the place of `Item` (under its attribute).
            Edit {
                ops: &["CUT 12* @inv", "PUT 7* @inv"],
                summary: "CUT 12* @inv (block: lines 12-15; 4 lines); PUT 7* @inv (block: lines 7-10; 4 → \
                          4 lines from @inv)",
                result: &[Keep(1, 6), Keep(12, 15), Keep(11, 11), Keep(16, 51)],
            },
        ],
        &[
            SingleLine(47, Some((46, 51))),
            SingleLine(3, None),
            Inside(40, (36, 40)),
            Inside(29, (26, 29)),
            Blank(32, (34, 43)),
        ],
    );
}

// ---------------------------------------------------------------------------
// Python

const PYTHON: &str = r#"
"""A small job scheduler with retries."""

import heapq
import time
from dataclasses import dataclass, field


@dataclass(order=True)
class Job:
    due: float
    name: str = field(compare=False)
    attempts: int = field(default=0, compare=False)


class Scheduler:
    """Runs jobs in due order, retrying failures."""

    def __init__(self, max_attempts=3):
        self.queue = []
        self.max_attempts = max_attempts

    def submit(self, name, delay=0.0):
        heapq.heappush(self.queue, Job(time.time() + delay, name))

    def run_once(self, handler):
        if not self.queue:
            return None
        job = heapq.heappop(self.queue)
        try:
            handler(job.name)
        except Exception as err:
            job.attempts += 1
            if job.attempts < self.max_attempts:
                self.submit(job.name, delay=2 ** job.attempts)
            else:
                print(f"giving up on {job.name}: {err}")
        return job.name


def main():
    sched = Scheduler(
        max_attempts=5,
    )
    for name in ("build", "test", "deploy"):
        sched.submit(name)
    while sched.run_once(print):
        pass


if __name__ == "__main__":
    main()
"#;

#[test]
fn python() {
    check(
        "app/scheduler.py",
        PYTHON,
        &[
            Edit {
                ops: &[
                    "PUT 25*:",
                    "+    def run_once(self, handler):",
                    "+        if not self.queue:",
                    "+            return None",
                    "+        job = heapq.heappop(self.queue)",
                    "+        handler(job.name)",
                    "+        return job.name",
                ],
                summary: "PUT 25*: (block: lines 25-37; 13 → 6 lines)",
                result: &[Keep(1, 24), Body, Keep(38, 51)],
            },
            // The decorator line takes the decorated class along.
            Edit {
                ops: &["CUT 8*"],
                summary: "CUT 8* (block: lines 8-12; 5 lines)",
                result: &[Keep(1, 7), Keep(13, 51)],
            },
            // The `def` line alone leaves the decorator in place.
            Edit {
                ops: &[
                    "PUT 9*:",
                    "+class Job:",
                    "+    due: float",
                    "+    name: str",
                ],
                summary: "PUT 9*: (block: lines 9-12; 4 → 3 lines)",
                result: &[Keep(1, 8), Body, Keep(13, 51)],
            },
            // After the whole `try`/`except` inside `run_once`.
            Edit {
                ops: &["PUT >29*:", "+        self.completed += 1"],
                summary: "PUT >29*: (+1 line after the block's last line 36 (block: lines 29-36))",
                result: &[Keep(1, 36), Body, Keep(37, 51)],
            },
            Edit {
                ops: &["CUT 18* @init", "PUT >22* @init"],
                summary: "CUT 18* @init (block: lines 18-20; 3 lines); PUT >22* @init (+3 lines from \
                          @init after the block's last line 23 (block: lines 22-23))",
                result: &[Keep(1, 17), Keep(21, 23), Keep(18, 20), Keep(24, 51)],
            },
            Edit {
                ops: &["CUT 40*", "PUT <8"],
                summary: "CUT 40* (block: lines 40-47; 8 lines); PUT <8 (+8 lines from the anonymous \
                          register)",
                result: &[Keep(1, 7), Keep(40, 47), Keep(8, 39), Keep(48, 51)],
            },
            Edit {
                ops: &["CUT 22* @submit", "PUT 18* @submit"],
                summary: "CUT 22* @submit (block: lines 22-23; 2 lines); PUT 18* @submit (block: lines \
                          18-20; 3 → 2 lines from @submit)",
                result: &[Keep(1, 17), Keep(22, 23), Keep(21, 21), Keep(24, 51)],
            },
        ],
        &[
            SingleLine(23, Some((22, 23))),
            // The `)` closing a call spread over lines.
            Inside(43, (41, 43)),
            Blank(17, (18, 20)),
        ],
    );
}

// ---------------------------------------------------------------------------
// JavaScript

const JAVASCRIPT: &str = r#"
// Shopping cart helpers for the storefront.
import { formatPrice } from "./money.js";

const TAX_RATE = 0.2;

export class Cart {
  constructor(owner) {
    this.owner = owner;
    this.lines = [];
  }

  add(sku, price, quantity = 1) {
    const existing = this.lines.find((line) => line.sku === sku);
    if (existing) {
      existing.quantity += quantity;
      return;
    }
    this.lines.push({ sku, price, quantity });
  }

  total() {
    let sum = 0;
    for (const line of this.lines) {
      sum += line.price * line.quantity;
    }
    return sum * (1 + TAX_RATE);
  }
}

export function summarize(cart) {
  const rows = cart.lines.map((line) => {
    const cost = formatPrice(line.price * line.quantity);
    return `${line.sku} x${line.quantity}: ${cost}`;
  });
  return rows.join("\n");
}

const defaults = {
  currency: "EUR",
  locale: "de-DE",
};

export default defaults;
"#;

#[test]
fn javascript() {
    check(
        "web/cart.js",
        JAVASCRIPT,
        &[
            Edit {
                ops: &[
                    "PUT 21*:",
                    "+  total() {",
                    "+    const sum = this.lines.reduce((acc, l) => acc + l.price * l.quantity, 0);",
                    "+    return sum * (1 + TAX_RATE);",
                    "+  }",
                ],
                summary: "PUT 21*: (block: lines 21-27; 7 → 4 lines)",
                result: &[Keep(1, 20), Body, Keep(28, 43)],
            },
            // `export` takes the function along.
            Edit {
                ops: &["CUT 30*"],
                summary: "CUT 30* (block: lines 30-36; 7 lines)",
                result: &[Keep(1, 29), Keep(37, 43)],
            },
            Edit {
                ops: &["PUT >14*:", "+    // A new SKU: add a line for it."],
                summary: "PUT >14*: (+1 line after the block's last line 17 (block: lines 14-17))",
                result: &[Keep(1, 17), Body, Keep(18, 43)],
            },
            Edit {
                ops: &["CUT 7* @ctor", "PUT >21* @ctor"],
                summary: "CUT 7* @ctor (block: lines 7-10; 4 lines); PUT >21* @ctor (+4 lines from @ctor \
                          after the block's last line 27 (block: lines 21-27))",
                result: &[Keep(1, 6), Keep(11, 27), Keep(7, 10), Keep(28, 43)],
            },
            Edit {
                ops: &["CUT 38* @defaults", "PUT <6 @defaults"],
                summary: "CUT 38* @defaults (block: lines 38-41; 4 lines); PUT <6 @defaults (+4 lines \
                          from @defaults)",
                result: &[Keep(1, 5), Keep(38, 41), Keep(6, 37), Keep(42, 43)],
            },
            Edit {
                ops: &["CUT 21* @total", "PUT 12* @total"],
                summary: "CUT 21* @total (block: lines 21-27; 7 lines); PUT 12* @total (block: lines \
                          12-19; 8 → 7 lines from @total)",
                result: &[Keep(1, 11), Keep(21, 27), Keep(20, 20), Keep(28, 43)],
            },
        ],
        &[
            SingleLine(4, None),
            // `});` closing the callback of `map`.
            Inside(34, (31, 34)),
            Blank(20, (21, 27)),
        ],
    );
}

// ---------------------------------------------------------------------------
// TypeScript

const TYPESCRIPT: &str = r#"
// A typed in-memory repository.

export interface Entity {
  id: string;
  createdAt: Date;
}

export type Filter<T> = (item: T) => boolean;

export class Repository<T extends Entity> {
  private items = new Map<string, T>();

  save(item: T): void {
    this.items.set(item.id, item);
  }

  find(filter: Filter<T>): T[] {
    const found: T[] = [];
    for (const item of this.items.values()) {
      if (filter(item)) {
        found.push(item);
      }
    }
    return found;
  }

  remove(id: string): boolean {
    return this.items.delete(id);
  }
}

export enum Status {
  Active = "active",
  Archived = "archived",
}

export function newest<T extends Entity>(items: T[]): T | undefined {
  return items.reduce<T | undefined>((best, item) => {
    if (!best || item.createdAt > best.createdAt) {
      return item;
    }
    return best;
  }, undefined);
}
"#;

#[test]
fn typescript() {
    check(
        "src/repo.ts",
        TYPESCRIPT,
        &[
            Edit {
                ops: &[
                    "PUT 17*:",
                    "+  find(filter: Filter<T>): T[] {",
                    "+    return [...this.items.values()].filter(filter);",
                    "+  }",
                ],
                summary: "PUT 17*: (block: lines 17-25; 9 → 3 lines)",
                result: &[Keep(1, 16), Body, Keep(26, 44)],
            },
            Edit {
                ops: &["CUT 32*"],
                summary: "CUT 32* (block: lines 32-35; 4 lines)",
                result: &[Keep(1, 31), Keep(36, 44)],
            },
            // After the `if` inside the `for` loop.
            Edit {
                ops: &["PUT >20*:", "+      if (found.length === 100) break;"],
                summary: "PUT >20*: (+1 line after the block's last line 22 (block: lines 20-22))",
                result: &[Keep(1, 22), Body, Keep(23, 44)],
            },
            Edit {
                ops: &["CUT 3* @entity", "PUT >32* @entity"],
                summary: "CUT 3* @entity (block: lines 3-6; 4 lines); PUT >32* @entity (+4 lines from \
                          @entity after the block's last line 35 (block: lines 32-35))",
                result: &[Keep(1, 2), Keep(7, 35), Keep(3, 6), Keep(36, 44)],
            },
            Edit {
                ops: &["CUT 27* @remove", "PUT <13 @remove"],
                summary: "CUT 27* @remove (block: lines 27-29; 3 lines); PUT <13 @remove (+3 lines from \
                          @remove)",
                result: &[Keep(1, 12), Keep(27, 29), Keep(13, 26), Keep(30, 44)],
            },
            Edit {
                ops: &["CUT 37* @newest", "PUT 32* @newest"],
                summary: "CUT 37* @newest (block: lines 37-44; 8 lines); PUT 32* @newest (block: lines \
                          32-35; 4 → 8 lines from @newest)",
                result: &[Keep(1, 31), Keep(37, 44), Keep(36, 36)],
            },
        ],
        &[
            SingleLine(8, None),
            // `}, undefined);` closing the callback of `reduce`.
            Inside(43, (38, 43)),
            Blank(31, (32, 35)),
        ],
    );
}

// ---------------------------------------------------------------------------
// TSX

const TSX: &str = r#"
import React, { useState } from "react";

type Todo = {
  id: number;
  text: string;
  done: boolean;
};

interface Props {
  initial: Todo[];
}

export function TodoList({ initial }: Props) {
  const [todos, setTodos] = useState<Todo[]>(initial);

  const toggle = (id: number) => {
    setTodos((prev) =>
      prev.map((t) => (t.id === id ? { ...t, done: !t.done } : t)),
    );
  };

  return (
    <section className="todos">
      <h2>Things to do</h2>
      <ul>
        {todos.map((todo) => (
          <li key={todo.id} onClick={() => toggle(todo.id)}>
            {todo.done ? <s>{todo.text}</s> : todo.text}
          </li>
        ))}
      </ul>
      <footer>
        <span>{todos.filter((t) => !t.done).length} left</span>
      </footer>
    </section>
  );
}

export function Empty() {
  return <p className="empty">Nothing left to do.</p>;
}
"#;

#[test]
fn tsx() {
    check(
        "src/TodoList.tsx",
        TSX,
        &[
            // A JSX element, start tag to end tag.
            Edit {
                ops: &[
                    "PUT 32*:",
                    "+      <footer className=\"summary\">",
                    "+        <span>{todos.length} total</span>",
                    "+      </footer>",
                ],
                summary: "PUT 32*: (block: lines 32-34; 3 → 3 lines)",
                result: &[Keep(1, 31), Body, Keep(35, 41)],
            },
            Edit {
                ops: &["CUT 16*"],
                summary: "CUT 16* (block: lines 16-20; 5 lines)",
                result: &[Keep(1, 15), Keep(21, 41)],
            },
            // After the `<ul>` element nested in the returned JSX.
            Edit {
                ops: &["PUT >25*:", "+      <p>{todos.length} items</p>"],
                summary: "PUT >25*: (+1 line after the block's last line 31 (block: lines 25-31))",
                result: &[Keep(1, 31), Body, Keep(32, 41)],
            },
            Edit {
                ops: &["CUT 3* @todo", "PUT >9* @todo"],
                summary: "CUT 3* @todo (block: lines 3-7; 5 lines); PUT >9* @todo (+5 lines from @todo \
                          after the block's last line 11 (block: lines 9-11))",
                result: &[Keep(1, 2), Keep(8, 11), Keep(3, 7), Keep(12, 41)],
            },
            Edit {
                ops: &["CUT 39* @empty", "PUT <13 @empty"],
                summary: "CUT 39* @empty (block: lines 39-41; 3 lines); PUT <13 @empty (+3 lines from \
                          @empty)",
                result: &[Keep(1, 12), Keep(39, 41), Keep(13, 38)],
            },
            Edit {
                ops: &["CUT 3* @todo", "PUT 9* @todo"],
                summary: "CUT 3* @todo (block: lines 3-7; 5 lines); PUT 9* @todo (block: lines 9-11; 3 → \
                          5 lines from @todo)",
                result: &[Keep(1, 2), Keep(8, 8), Keep(3, 7), Keep(12, 41)],
            },
        ],
        &[
            SingleLine(24, Some((23, 35))),
            // A closing tag.
            Inside(29, (27, 29)),
            Blank(21, (22, 36)),
        ],
    );
}

// ---------------------------------------------------------------------------
// Go (tabs, as gofmt writes them)

const GO: &str = r#"
package cache

import (
	"sync"
	"time"
)

// entry is one cached value with its expiry.
type entry struct {
	value   string
	expires time.Time
}

// Cache is a TTL cache safe for concurrent use.
type Cache struct {
	mu    sync.Mutex
	ttl   time.Duration
	items map[string]entry
}

func New(ttl time.Duration) *Cache {
	return &Cache{ttl: ttl, items: make(map[string]entry)}
}

func (c *Cache) Get(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok || time.Now().After(e.expires) {
		return "", false
	}
	return e.value, true
}

func (c *Cache) Sweep() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	removed := 0
	for key, e := range c.items {
		if time.Now().After(e.expires) {
			delete(c.items, key)
			removed++
		}
	}
	return removed
}
"#;

#[test]
fn go() {
    check(
        "cache/cache.go",
        GO,
        &[
            Edit {
                ops: &[
                    "PUT 25*:",
                    "+func (c *Cache) Get(key string) (string, bool) {",
                    "+\tc.mu.Lock()",
                    "+\tdefer c.mu.Unlock()",
                    "+\te, ok := c.items[key]",
                    "+\treturn e.value, ok && time.Now().Before(e.expires)",
                    "+}",
                ],
                summary: "PUT 25*: (block: lines 25-33; 9 → 6 lines)",
                result: &[Keep(1, 24), Body, Keep(34, 46)],
            },
            Edit {
                ops: &["CUT 21*"],
                summary: "CUT 21* (block: lines 21-23; 3 lines)",
                result: &[Keep(1, 20), Keep(24, 46)],
            },
            // After the `if` inside `Get`.
            Edit {
                ops: &["PUT >29*:", "+\tc.hits++"],
                summary: "PUT >29*: (+1 line after the block's last line 31 (block: lines 29-31))",
                result: &[Keep(1, 31), Body, Keep(32, 46)],
            },
            Edit {
                ops: &["CUT 21* @new", "PUT >35* @new"],
                summary: "CUT 21* @new (block: lines 21-23; 3 lines); PUT >35* @new (+3 lines from @new \
                          after the block's last line 46 (block: lines 35-46))",
                result: &[Keep(1, 20), Keep(24, 46), Keep(21, 23)],
            },
            Edit {
                ops: &["CUT 9*", "PUT <21"],
                summary: "CUT 9* (block: lines 9-12; 4 lines); PUT <21 (+4 lines from the anonymous \
                          register)",
                result: &[Keep(1, 8), Keep(13, 20), Keep(9, 12), Keep(21, 46)],
            },
            Edit {
                ops: &["CUT 15* @cache", "PUT 9* @cache"],
                summary: "CUT 15* @cache (block: lines 15-19; 5 lines); PUT 9* @cache (block: lines 9-12; \
                          4 → 5 lines from @cache)",
                result: &[Keep(1, 8), Keep(15, 19), Keep(13, 14), Keep(20, 46)],
            },
        ],
        &[
            SingleLine(22, Some((21, 23))),
            Inside(43, (40, 43)),
            Blank(34, (35, 46)),
        ],
    );
}

// ---------------------------------------------------------------------------
// Java

const JAVA: &str = r#"
package com.example.bank;

import java.util.ArrayList;
import java.util.List;

/** An append-only ledger of account movements. */
public class Ledger {
    private final List<Long> movements = new ArrayList<>();
    private long balance;

    public Ledger(long opening) {
        this.balance = opening;
    }

    public void post(long amount) {
        if (amount == 0) {
            throw new IllegalArgumentException("empty movement");
        }
        movements.add(amount);
        balance += amount;
    }

    @Override
    public String toString() {
        return "Ledger(" + balance + ")";
    }

    public long largestWithdrawal() {
        long largest = 0;
        for (long m : movements) {
            if (m < largest) {
                largest = m;
            }
        }
        return -largest;
    }

    static class Audit {
        int checks;

        boolean verify(Ledger ledger) {
            checks++;
            return ledger.balance >= 0;
        }
    }
}
"#;

#[test]
fn java() {
    check(
        "src/main/java/com/example/bank/Ledger.java",
        JAVA,
        &[
            Edit {
                ops: &[
                    "PUT 28*:",
                    "+    public long largestWithdrawal() {",
                    "+        return -movements.stream().mapToLong(Long::longValue).min().orElse(0);",
                    "+    }",
                ],
                summary: "PUT 28*: (block: lines 28-36; 9 → 3 lines)",
                result: &[Keep(1, 27), Body, Keep(37, 46)],
            },
            // The annotation line takes the method along…
            Edit {
                ops: &["CUT 23*"],
                summary: "CUT 23* (block: lines 23-26; 4 lines)",
                result: &[Keep(1, 22), Keep(27, 46)],
            },
            // …and the method's own line leaves it in place.
            Edit {
                ops: &[
                    "PUT 24*:",
                    "+    public String toString() {",
                    "+        return String.format(\"Ledger(%d)\", balance);",
                    "+    }",
                ],
                summary: "PUT 24*: (block: lines 24-26; 3 → 3 lines)",
                result: &[Keep(1, 23), Body, Keep(27, 46)],
            },
            Edit {
                ops: &["PUT >16*:", "+        assert amount != 0;"],
                summary: "PUT >16*: (+1 line after the block's last line 18 (block: lines 16-18))",
                result: &[Keep(1, 18), Body, Keep(19, 46)],
            },
            Edit {
                ops: &["CUT 11* @ctor", "PUT >28* @ctor"],
                summary: "CUT 11* @ctor (block: lines 11-13; 3 lines); PUT >28* @ctor (+3 lines from \
                          @ctor after the block's last line 36 (block: lines 28-36))",
                result: &[Keep(1, 10), Keep(14, 36), Keep(11, 13), Keep(37, 46)],
            },
            // The nested class moves to the top of the outer one.
            Edit {
                ops: &["CUT 38* @audit", "PUT <11 @audit"],
                summary: "CUT 38* @audit (block: lines 38-45; 8 lines); PUT <11 @audit (+8 lines from \
                          @audit)",
                result: &[Keep(1, 10), Keep(38, 45), Keep(11, 37), Keep(46, 46)],
            },
            Edit {
                ops: &["CUT 41* @verify", "PUT 11* @verify"],
                summary: "CUT 41* @verify (block: lines 41-44; 4 lines); PUT 11* @verify (block: lines \
                          11-13; 3 → 4 lines from @verify)",
                result: &[Keep(1, 10), Keep(41, 44), Keep(14, 40), Keep(45, 46)],
            },
        ],
        &[
            SingleLine(9, Some((7, 46))),
            Inside(34, (30, 34)),
            Blank(37, (38, 45)),
        ],
    );
}

/// A JUnit 5 test class: its members carry annotations but no modifier
/// keyword.
const JAVA_TESTS: &str = r#"
package com.example.shop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class CartTest {
    private Cart cart;

    @BeforeEach
    void setUp() {
        cart = new Cart();
    }

    @Test
    void addsItems() {
        cart.add("apple", 2);
        assertEquals(2, cart.count("apple"));
    }

    @Nested
    class WhenEmpty {
        @Test
        void totalIsZero() {
            assertEquals(0, cart.total());
        }
    }
}
"#;

/// Rule 4 for a member whose annotations are followed by no modifier
/// keyword: its own line starts its block (from that line on), as the
/// `public …` line after `@Override` does in [`java`]. Today the `void …`
/// line resolves to a single line (so `PUT 18*:` is refused with "use
/// PUT 18:", which would replace the signature alone) and the `class …`
/// line to no block start.
#[test]
fn java_members_annotated_without_modifiers() {
    check(
        "src/test/java/com/example/shop/CartTest.java",
        JAVA_TESTS,
        &[
            Edit {
                ops: &[
                    "PUT 18*:",
                    "+    void addsItems() {",
                    "+        cart.add(\"apple\", 3);",
                    "+        assertEquals(3, cart.count(\"apple\"));",
                    "+    }",
                ],
                summary: "PUT 18*: (block: lines 18-21; 4 → 4 lines)",
                result: &[Keep(1, 17), Body, Keep(22, 30)],
            },
            Edit {
                ops: &[
                    "PUT >13*:",
                    "+",
                    "+    @AfterEach",
                    "+    void tearDown() {",
                    "+        cart.clear();",
                    "+    }",
                ],
                summary: "PUT >13*: (+5 lines after the block's last line 15 (block: lines 13-15))",
                result: &[Keep(1, 15), Body, Keep(16, 30)],
            },
            Edit {
                ops: &[
                    "PUT 24*:",
                    "+    class WhenCleared {",
                    "+        @Test",
                    "+        void totalIsZero() {",
                    "+            cart.clear();",
                    "+            assertEquals(0, cart.total());",
                    "+        }",
                    "+    }",
                ],
                summary: "PUT 24*: (block: lines 24-29; 6 → 7 lines)",
                result: &[Keep(1, 23), Body, Keep(30, 30)],
            },
        ],
        &[],
    );
}

// ---------------------------------------------------------------------------
// C (function braces on their own lines)

const C: &str = r#"
#include <stdio.h>
#include <stdlib.h>

/* A fixed-size ring buffer of ints. */
struct ring {
    int *data;
    size_t head;
    size_t len;
    size_t cap;
};

static int ring_init(struct ring *r, size_t cap)
{
    r->data = calloc(cap, sizeof *r->data);
    if (r->data == NULL) {
        return -1;
    }
    r->head = 0;
    r->len = 0;
    r->cap = cap;
    return 0;
}

static void ring_push(struct ring *r, int value)
{
    r->data[(r->head + r->len) % r->cap] = value;
    if (r->len < r->cap) {
        r->len++;
    } else {
        r->head = (r->head + 1) % r->cap;
    }
}

#ifdef RING_DEBUG
static void ring_dump(const struct ring *r)
{
    for (size_t i = 0; i < r->len; i++) {
        printf("%d ", r->data[(r->head + i) % r->cap]);
    }
    putchar('\n');
}
#endif

int main(void)
{
    struct ring r;
    if (ring_init(&r, 4) != 0) {
        return 1;
    }
    for (int i = 0; i < 10; i++) {
        ring_push(&r, i);
    }
    free(r.data);
    return 0;
}
"#;

#[test]
fn c() {
    check(
        "src/ring.c",
        C,
        &[
            Edit {
                ops: &[
                    "PUT 24*:",
                    "+static void ring_push(struct ring *r, int value)",
                    "+{",
                    "+    r->data[(r->head + r->len) % r->cap] = value;",
                    "+    r->len += r->len < r->cap;",
                    "+}",
                ],
                summary: "PUT 24*: (block: lines 24-32; 9 → 5 lines)",
                result: &[Keep(1, 23), Body, Keep(33, 55)],
            },
            // An `#ifdef` group, through its `#endif`.
            Edit {
                ops: &["CUT 34*"],
                summary: "CUT 34* (block: lines 34-42; 9 lines)",
                result: &[Keep(1, 33), Keep(43, 55)],
            },
            Edit {
                ops: &["PUT >47*:", "+    puts(\"ring ready\");"],
                summary: "PUT >47*: (+1 line after the block's last line 49 (block: lines 47-49))",
                result: &[Keep(1, 49), Body, Keep(50, 55)],
            },
            Edit {
                ops: &["CUT 12* @init", "PUT >24* @init"],
                summary: "CUT 12* @init (block: lines 12-22; 11 lines); PUT >24* @init (+11 lines from \
                          @init after the block's last line 32 (block: lines 24-32))",
                result: &[Keep(1, 11), Keep(23, 32), Keep(12, 22), Keep(33, 55)],
            },
            // `ring_dump` leaves its `#ifdef` for a place above `main`.
            Edit {
                ops: &["CUT 35* @dump", "PUT <44 @dump"],
                summary: "CUT 35* @dump (block: lines 35-41; 7 lines); PUT <44 @dump (+7 lines from \
                          @dump)",
                result: &[Keep(1, 34), Keep(42, 43), Keep(35, 41), Keep(44, 55)],
            },
            Edit {
                ops: &["CUT 5* @ring", "PUT 34* @ring"],
                summary: "CUT 5* @ring (block: lines 5-10; 6 lines); PUT 34* @ring (block: lines 34-42; 9 \
                          → 6 lines from @ring)",
                result: &[Keep(1, 4), Keep(11, 33), Keep(5, 10), Keep(43, 55)],
            },
        ],
        &[
            SingleLine(16, Some((15, 17))),
            // `}` of an `else` whose `if` closed on `} else {`.
            Inside(31, (27, 31)),
            // A function's closing brace: the `{` line starts the brace
            // block, which is the nearest block around it.
            Inside(55, (45, 55)),
            Blank(43, (44, 55)),
        ],
    );
}

// ---------------------------------------------------------------------------
// C++

const CPP: &str = r#"
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace linalg {

// A dense row-major matrix.
template <typename T>
class Matrix {
public:
    Matrix(std::size_t rows, std::size_t cols)
        : rows_(rows), cols_(cols), data_(rows * cols) {}

    T& at(std::size_t r, std::size_t c) {
        if (r >= rows_ || c >= cols_) {
            throw std::out_of_range("Matrix::at");
        }
        return data_[r * cols_ + c];
    }

    std::size_t rows() const { return rows_; }

private:
    std::size_t rows_;
    std::size_t cols_;
    std::vector<T> data_;
};

struct Shape {
    std::size_t rows;
    std::size_t cols;
};

inline Matrix<double> identity(std::size_t n) {
    Matrix<double> m(n, n);
    for (std::size_t i = 0; i < n; ++i) {
        m.at(i, i) = 1.0;
    }
    return m;
}

}  // namespace linalg

int main() {
    auto m = linalg::identity(3);
    return m.rows() == 3 ? 0 : 1;
}
"#;

#[test]
fn cpp() {
    check(
        "src/matrix.cpp",
        CPP,
        &[
            Edit {
                ops: &[
                    "PUT 14*:",
                    "+    T& at(std::size_t r, std::size_t c) {",
                    "+        return data_.at(r * cols_ + c);",
                    "+    }",
                ],
                summary: "PUT 14*: (block: lines 14-19; 6 → 3 lines)",
                result: &[Keep(1, 13), Body, Keep(20, 47)],
            },
            Edit {
                ops: &["CUT 29*"],
                summary: "CUT 29* (block: lines 29-32; 4 lines)",
                result: &[Keep(1, 28), Keep(33, 47)],
            },
            Edit {
                ops: &["PUT >36*:", "+    static_assert(sizeof(double) == 8);"],
                summary: "PUT >36*: (+1 line after the block's last line 38 (block: lines 36-38))",
                result: &[Keep(1, 38), Body, Keep(39, 47)],
            },
            // A `template <…>` line: the whole template.
            Edit {
                ops: &["CUT 8* @matrix", "PUT >34* @matrix"],
                summary: "CUT 8* @matrix (block: lines 8-27; 20 lines); PUT >34* @matrix (+20 lines from \
                          @matrix after the block's last line 40 (block: lines 34-40))",
                result: &[Keep(1, 7), Keep(28, 40), Keep(8, 27), Keep(41, 47)],
            },
            Edit {
                ops: &["CUT 44* @main", "PUT <5 @main"],
                summary: "CUT 44* @main (block: lines 44-47; 4 lines); PUT <5 @main (+4 lines from \
                          @main)",
                result: &[Keep(1, 4), Keep(44, 47), Keep(5, 43)],
            },
            Edit {
                ops: &["CUT 29* @shape", "PUT 44* @shape"],
                summary: "CUT 29* @shape (block: lines 29-32; 4 lines); PUT 44* @shape (block: lines \
                          44-47; 4 → 4 lines from @shape)",
                result: &[Keep(1, 28), Keep(33, 43), Keep(29, 32)],
            },
        ],
        &[
            // A one-line member function.
            SingleLine(21, Some((9, 27))),
            Inside(38, (36, 38)),
            // `}  // namespace linalg`
            Inside(42, (5, 42)),
            Blank(6, (8, 27)),
        ],
    );
}

// ---------------------------------------------------------------------------
// C# (braces on their own lines)

const CSHARP: &str = r#"
using System;
using System.Collections.Generic;

namespace Home.Climate
{
    /// <summary>Keeps a room near its target temperature.</summary>
    public class Thermostat
    {
        private readonly List<double> _readings = new List<double>();

        public double Target { get; set; } = 21.0;

        public void Record(double celsius)
        {
            if (double.IsNaN(celsius))
            {
                throw new ArgumentException("reading is NaN");
            }
            _readings.Add(celsius);
        }

        [Obsolete("Use Decide instead")]
        public bool ShouldHeat()
        {
            return Decide() == Action.Heat;
        }

        public Action Decide()
        {
            if (_readings.Count == 0)
            {
                return Action.Idle;
            }
            var last = _readings[_readings.Count - 1];
            return last < Target - 0.5 ? Action.Heat : Action.Idle;
        }
    }

    public enum Action
    {
        Idle,
        Heat,
    }
}
"#;

#[test]
fn csharp() {
    check(
        "Home/Thermostat.cs",
        CSHARP,
        &[
            Edit {
                ops: &[
                    "PUT 28*:",
                    "+        public Action Decide() =>",
                    "+            _readings.Count > 0 && _readings[^1] < Target - 0.5 ? Action.Heat : Action.Idle;",
                ],
                summary: "PUT 28*: (block: lines 28-36; 9 → 2 lines)",
                result: &[Keep(1, 27), Body, Keep(37, 44)],
            },
            // The attribute line takes the method along.
            Edit {
                ops: &["CUT 22*"],
                summary: "CUT 22* (block: lines 22-26; 5 lines)",
                result: &[Keep(1, 21), Keep(27, 44)],
            },
            Edit {
                ops: &["PUT >15*:", "+            Console.WriteLine(celsius);"],
                summary: "PUT >15*: (+1 line after the block's last line 18 (block: lines 15-18))",
                result: &[Keep(1, 18), Body, Keep(19, 44)],
            },
            Edit {
                ops: &["CUT 13* @record", "PUT >28* @record"],
                summary: "CUT 13* @record (block: lines 13-20; 8 lines); PUT >28* @record (+8 lines from \
                          @record after the block's last line 36 (block: lines 28-36))",
                result: &[Keep(1, 12), Keep(21, 36), Keep(13, 20), Keep(37, 44)],
            },
            Edit {
                ops: &["CUT 39* @action", "PUT <6 @action"],
                summary: "CUT 39* @action (block: lines 39-43; 5 lines); PUT <6 @action (+5 lines from \
                          @action)",
                result: &[Keep(1, 5), Keep(39, 43), Keep(6, 38), Keep(44, 44)],
            },
            Edit {
                ops: &["CUT 13* @record", "PUT 22* @record"],
                summary: "CUT 13* @record (block: lines 13-20; 8 lines); PUT 22* @record (block: lines \
                          22-26; 5 → 8 lines from @record)",
                result: &[Keep(1, 12), Keep(21, 21), Keep(13, 20), Keep(27, 44)],
            },
        ],
        &[
            // In a class body whose `{` has a line of its own, that brace
            // block is the nearest block around.
            SingleLine(11, Some((8, 37))),
            Inside(33, (31, 33)),
            Blank(27, (28, 36)),
        ],
    );
}

/// The C# file with CRLF line endings, as Windows editors write it: the
/// same blocks and echoes, and every line, new or moved, ends in CRLF.
#[test]
fn csharp_with_crlf_line_endings() {
    check_with_newline(
        "Home/Thermostat.cs",
        CSHARP,
        "\r\n",
        &[
            Edit {
                ops: &[
                    "PUT 28*:",
                    "+        public Action Decide() =>",
                    "+            _readings.Count > 0 && _readings[^1] < Target - 0.5 ? Action.Heat : Action.Idle;",
                ],
                summary: "PUT 28*: (block: lines 28-36; 9 → 2 lines)",
                result: &[Keep(1, 27), Body, Keep(37, 44)],
            },
            Edit {
                ops: &["PUT >15*:", "+            Console.WriteLine(celsius);"],
                summary: "PUT >15*: (+1 line after the block's last line 18 (block: lines 15-18))",
                result: &[Keep(1, 18), Body, Keep(19, 44)],
            },
            Edit {
                ops: &["CUT 13* @record", "PUT >28* @record"],
                summary: "CUT 13* @record (block: lines 13-20; 8 lines); PUT >28* @record (+8 lines from \
                          @record after the block's last line 36 (block: lines 28-36))",
                result: &[Keep(1, 12), Keep(21, 36), Keep(13, 20), Keep(37, 44)],
            },
        ],
        &[
            SingleLine(11, Some((8, 37))),
            Inside(33, (31, 33)),
            Blank(27, (28, 36)),
        ],
    );
}

// ---------------------------------------------------------------------------
// Ruby

const RUBY: &str = r#"
# A lending library with overdue fines.
require "date"

module Lending
  FINE_PER_DAY = 25

  class Loan
    attr_reader :title, :due

    def initialize(title, due)
      @title = title
      @due = due
    end

    def overdue_days(today = Date.today)
      return 0 if today <= due
      (today - due).to_i
    end
  end

  class Library
    def initialize
      @loans = []
    end

    def lend(title, days: 14)
      loan = Loan.new(title, Date.today + days)
      @loans << loan
      loan
    end

    def fines(today = Date.today)
      @loans.each_with_object({}) do |loan, fines|
        days = loan.overdue_days(today)
        if days.positive?
          fines[loan.title] = days * FINE_PER_DAY
        end
      end
    end
  end
end

if $PROGRAM_NAME == __FILE__
  library = Lending::Library.new
  library.lend("Dune")
  puts library.fines.inspect
end
"#;

#[test]
fn ruby() {
    check(
        "lib/lending.rb",
        RUBY,
        &[
            Edit {
                ops: &[
                    "PUT 15*:",
                    "+    def overdue_days(today = Date.today)",
                    "+      [(today - due).to_i, 0].max",
                    "+    end",
                ],
                summary: "PUT 15*: (block: lines 15-18; 4 → 3 lines)",
                result: &[Keep(1, 14), Body, Keep(19, 47)],
            },
            Edit {
                ops: &["CUT 26*"],
                summary: "CUT 26* (block: lines 26-30; 5 lines)",
                result: &[Keep(1, 25), Keep(31, 47)],
            },
            // After the `if` inside the `do` block.
            Edit {
                ops: &[
                    "PUT >35*:",
                    "+        warn \"checked #{loan.title}\" if $DEBUG",
                ],
                summary: "PUT >35*: (+1 line after the block's last line 37 (block: lines 35-37))",
                result: &[Keep(1, 37), Body, Keep(38, 47)],
            },
            Edit {
                ops: &["CUT 7* @loan", "PUT >21* @loan"],
                summary: "CUT 7* @loan (block: lines 7-19; 13 lines); PUT >21* @loan (+13 lines from \
                          @loan after the block's last line 40 (block: lines 21-40))",
                result: &[Keep(1, 6), Keep(20, 40), Keep(7, 19), Keep(41, 47)],
            },
            Edit {
                ops: &["CUT 32* @fines", "PUT <26 @fines"],
                summary: "CUT 32* @fines (block: lines 32-39; 8 lines); PUT <26 @fines (+8 lines from \
                          @fines)",
                result: &[Keep(1, 25), Keep(32, 39), Keep(26, 31), Keep(40, 47)],
            },
            Edit {
                ops: &["CUT 10* @init", "PUT 22* @init"],
                summary: "CUT 10* @init (block: lines 10-13; 4 lines); PUT 22* @init (block: lines 22-24; \
                          3 → 4 lines from @init)",
                result: &[Keep(1, 9), Keep(14, 21), Keep(10, 13), Keep(25, 47)],
            },
        ],
        &[
            SingleLine(5, Some((4, 41))),
            // The `end` of a `do … end` block.
            Inside(38, (33, 38)),
            Blank(31, (32, 39)),
        ],
    );
}

// ---------------------------------------------------------------------------
// Bash

const BASH: &str = r#"
#!/usr/bin/env bash
# Nightly backup of the project directories.
set -euo pipefail

SOURCES=(src docs config)
DEST="${BACKUP_DEST:-/var/backups/project}"

log() {
    printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2
}

check_dest() {
    if [ ! -d "$DEST" ]; then
        log "creating $DEST"
        mkdir -p "$DEST"
    fi
}

archive() {
    local name="$1"
    local stamp
    stamp="$(date +%Y%m%d)"
    for dir in "${SOURCES[@]}"; do
        if [ -d "$dir" ]; then
            tar -czf "$DEST/$name-$dir-$stamp.tar.gz" "$dir"
        else
            log "skipping missing $dir"
        fi
    done
}

usage() {
    cat <<EOF
usage: $0 [run|dry-run]
  run      archive every source directory
  dry-run  list what would be archived
EOF
}

case "${1:-run}" in
    run)
        check_dest
        archive nightly
        ;;
    dry-run)
        log "would back up: ${SOURCES[*]}"
        ;;
    *)
        usage >&2
        exit 2
        ;;
esac
"#;

#[test]
fn bash() {
    check(
        "scripts/backup.sh",
        BASH,
        &[
            Edit {
                ops: &[
                    "PUT 12*:",
                    "+check_dest() {",
                    "+    [ -d \"$DEST\" ] || mkdir -p \"$DEST\"",
                    "+}",
                ],
                summary: "PUT 12*: (block: lines 12-17; 6 → 3 lines)",
                result: &[Keep(1, 11), Body, Keep(18, 52)],
            },
            // A command with a heredoc runs through the terminator.
            Edit {
                ops: &[
                    "PUT 33*:",
                    "+    cat <<EOF",
                    "+usage: $0 [run|dry-run|help]",
                    "+EOF",
                ],
                summary: "PUT 33*: (block: lines 33-37; 5 → 3 lines)",
                result: &[Keep(1, 32), Body, Keep(38, 52)],
            },
            // A `case` item.
            Edit {
                ops: &["CUT 45*"],
                summary: "CUT 45* (block: lines 45-47; 3 lines)",
                result: &[Keep(1, 44), Keep(48, 52)],
            },
            // After the `for` loop inside `archive`.
            Edit {
                ops: &["PUT >23*:", "+    log \"archived $name\""],
                summary: "PUT >23*: (+1 line after the block's last line 29 (block: lines 23-29))",
                result: &[Keep(1, 29), Body, Keep(30, 52)],
            },
            Edit {
                ops: &["CUT 8* @log", "PUT >32* @log"],
                summary: "CUT 8* @log (block: lines 8-10; 3 lines); PUT >32* @log (+3 lines from @log \
                          after the block's last line 38 (block: lines 32-38))",
                result: &[Keep(1, 7), Keep(11, 38), Keep(8, 10), Keep(39, 52)],
            },
            Edit {
                ops: &["CUT 32* @usage", "PUT <8 @usage"],
                summary: "CUT 32* @usage (block: lines 32-38; 7 lines); PUT <8 @usage (+7 lines from \
                          @usage)",
                result: &[Keep(1, 7), Keep(32, 38), Keep(8, 31), Keep(39, 52)],
            },
            Edit {
                ops: &["CUT 41* @run", "PUT 48* @run"],
                summary: "CUT 41* @run (block: lines 41-44; 4 lines); PUT 48* @run (block: lines 48-51; 4 \
                          → 4 lines from @run)",
                result: &[Keep(1, 40), Keep(45, 47), Keep(41, 44), Keep(52, 52)],
            },
        ],
        &[
            SingleLine(42, Some((41, 44))),
            // `fi`
            Inside(28, (24, 28)),
            // A heredoc body line.
            Inside(35, (33, 37)),
            Blank(39, (40, 52)),
        ],
    );
}

// ---------------------------------------------------------------------------
// JSON (no blank lines, as JSON files go)

const JSON: &str = r#"
{
  "name": "@acme/dashboard",
  "version": "2.4.1",
  "private": true,
  "scripts": {
    "build": "vite build",
    "dev": "vite",
    "lint": "eslint src --ext .ts,.tsx",
    "test": "vitest run"
  },
  "dependencies": {
    "react": "^18.3.1",
    "react-dom": "^18.3.1",
    "zustand": "^4.5.2"
  },
  "devDependencies": {
    "@types/react": "^18.3.3",
    "eslint": "^9.5.0",
    "typescript": "^5.5.2",
    "vite": "^5.3.1",
    "vitest": "^1.6.0"
  },
  "browserslist": [
    ">0.5%",
    "not dead"
  ],
  "eslintConfig": {
    "root": true,
    "rules": {
      "no-console": "warn",
      "eqeqeq": [
        "error",
        "always"
      ]
    }
  },
  "engines": {
    "node": ">=20"
  }
}
"#;

#[test]
fn json() {
    check(
        "package.json",
        JSON,
        &[
            // A pair whose value spans lines (its `,` stays with it).
            Edit {
                ops: &[
                    "PUT 5*:",
                    "+  \"scripts\": {",
                    "+    \"build\": \"vite build\",",
                    "+    \"test\": \"vitest run --coverage\"",
                    "+  },",
                ],
                summary: "PUT 5*: (block: lines 5-10; 6 → 4 lines)",
                result: &[Keep(1, 4), Body, Keep(11, 40)],
            },
            Edit {
                ops: &["CUT 16*"],
                summary: "CUT 16* (block: lines 16-22; 7 lines)",
                result: &[Keep(1, 15), Keep(23, 40)],
            },
            Edit {
                ops: &[
                    "PUT >11*:",
                    "+  \"peerDependencies\": {",
                    "+    \"react\": \">=18\"",
                    "+  },",
                ],
                summary: "PUT >11*: (+3 lines after the block's last line 15 (block: lines 11-15))",
                result: &[Keep(1, 15), Body, Keep(16, 40)],
            },
            Edit {
                ops: &["CUT 5* @scripts", "PUT >11* @scripts"],
                summary: "CUT 5* @scripts (block: lines 5-10; 6 lines); PUT >11* @scripts (+6 lines from \
                          @scripts after the block's last line 15 (block: lines 11-15))",
                result: &[Keep(1, 4), Keep(11, 15), Keep(5, 10), Keep(16, 40)],
            },
            Edit {
                ops: &["CUT 27* @eslint", "PUT <5 @eslint"],
                summary: "CUT 27* @eslint (block: lines 27-36; 10 lines); PUT <5 @eslint (+10 lines from \
                          @eslint)",
                result: &[Keep(1, 4), Keep(27, 36), Keep(5, 26), Keep(37, 40)],
            },
            Edit {
                ops: &["CUT 27* @eslint", "PUT 11* @eslint"],
                summary: "CUT 27* @eslint (block: lines 27-36; 10 lines); PUT 11* @eslint (block: lines \
                          11-15; 5 → 10 lines from @eslint)",
                result: &[Keep(1, 10), Keep(27, 36), Keep(16, 26), Keep(37, 40)],
            },
        ],
        &[
            SingleLine(3, Some((1, 40))),
            // `]` closing a nested array.
            Inside(34, (31, 34)),
            // The document's last `}`.
            Inside(40, (1, 40)),
        ],
    );
}

// ---------------------------------------------------------------------------
// TOML

const TOML: &str = r#"
# Workspace manifest for the ingest service.
[package]
name = "ingest"
version = "0.7.0"
edition = "2021"
description = "Reads events from the queue and stores them"
license = "MIT OR Apache-2.0"

[features]
default = ["postgres"]
postgres = ["dep:tokio-postgres"]
sqlite = ["dep:rusqlite"]

[dependencies]
serde = { version = "1", features = ["derive"] }
tokio = { version = "1.38", features = [
    "macros",
    "rt-multi-thread",
] }
tokio-postgres = { version = "0.7", optional = true }
rusqlite = { version = "0.31", optional = true }

# Test-only helpers.
[dev-dependencies]
tempfile = "3"
insta = "1.39"

[[bin]]
name = "ingestd"
path = "src/main.rs"

[[bin]]
name = "ingest-replay"
path = "src/replay.rs"

[profile.release]
lto = "thin"
codegen-units = 1
"#;

#[test]
fn toml() {
    check(
        "Cargo.toml",
        TOML,
        &[
            Edit {
                ops: &[
                    "PUT 9*:",
                    "+[features]",
                    "+default = [\"sqlite\"]",
                    "+postgres = [\"dep:tokio-postgres\"]",
                    "+sqlite = [\"dep:rusqlite\"]",
                ],
                summary: "PUT 9*: (block: lines 9-12; 4 → 4 lines)",
                result: &[Keep(1, 8), Body, Keep(13, 38)],
            },
            // Up to the table's last key: the blank line and the comment
            // introducing the next table stay.
            Edit {
                ops: &["CUT 14*"],
                summary: "CUT 14* (block: lines 14-21; 8 lines)",
                result: &[Keep(1, 13), Keep(22, 38)],
            },
            // After a key whose inline table spans lines.
            Edit {
                ops: &["PUT >16*:", "+tracing = \"0.1\""],
                summary: "PUT >16*: (+1 line after the block's last line 19 (block: lines 16-19))",
                result: &[Keep(1, 19), Body, Keep(20, 38)],
            },
            Edit {
                ops: &["CUT 28* @bin", "PUT >32* @bin"],
                summary: "CUT 28* @bin (block: lines 28-30; 3 lines); PUT >32* @bin (+3 lines from @bin \
                          after the block's last line 34 (block: lines 32-34))",
                result: &[Keep(1, 27), Keep(31, 34), Keep(28, 30), Keep(35, 38)],
            },
            Edit {
                ops: &["CUT 36* @profile", "PUT <9 @profile"],
                summary: "CUT 36* @profile (block: lines 36-38; 3 lines); PUT <9 @profile (+3 lines from \
                          @profile)",
                result: &[Keep(1, 8), Keep(36, 38), Keep(9, 35)],
            },
            Edit {
                ops: &["CUT 24* @dev", "PUT 36* @dev"],
                summary: "CUT 24* @dev (block: lines 24-26; 3 lines); PUT 36* @dev (block: lines 36-38; 3 \
                          → 3 lines from @dev)",
                result: &[Keep(1, 23), Keep(27, 35), Keep(24, 26)],
            },
        ],
        &[
            SingleLine(3, Some((2, 7))),
            // `] }` closing a multi-line array in an inline table.
            Inside(19, (16, 19)),
            Blank(22, (24, 26)),
        ],
    );
}

// ---------------------------------------------------------------------------
// YAML

const YAML: &str = r#"
# Deployment of the web tier.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    description: |
      Serves the public site.
      Scaled by the platform team.
  labels:
    app: web
    tier: frontend

spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: nginx
          image: nginx:1.27
          ports:
            - containerPort: 80
          resources:
            limits:
              cpu: 500m
              memory: 256Mi
        # Metrics sidecar.
        - name: exporter
          image: nginx/nginx-prometheus-exporter:1.1
          args:
            - --nginx.scrape-uri=http://localhost/status
      volumes:
        - name: config
          configMap:
            name: web-config
"#;

#[test]
fn yaml() {
    check(
        "deploy/web.yaml",
        YAML,
        &[
            Edit {
                ops: &[
                    "PUT 29*:",
                    "+          resources:",
                    "+            requests:",
                    "+              cpu: 250m",
                    "+            limits:",
                    "+              cpu: 500m",
                    "+              memory: 256Mi",
                ],
                summary: "PUT 29*: (block: lines 29-32; 4 → 6 lines)",
                result: &[Keep(1, 28), Body, Keep(33, 41)],
            },
            // The first item of a sequence; the comment introducing the
            // next item stays.
            Edit {
                ops: &["CUT 25*"],
                summary: "CUT 25* (block: lines 25-32; 8 lines)",
                result: &[Keep(1, 24), Keep(33, 41)],
            },
            Edit {
                ops: &["PUT >16*:", "+  minReadySeconds: 10"],
                summary: "PUT >16*: (+1 line after the block's last line 18 (block: lines 16-18))",
                result: &[Keep(1, 18), Body, Keep(19, 41)],
            },
            // The two containers trade places.
            Edit {
                ops: &["CUT 25* @nginx", "PUT >34* @nginx"],
                summary: "CUT 25* @nginx (block: lines 25-32; 8 lines); PUT >34* @nginx (+8 lines from \
                          @nginx after the block's last line 37 (block: lines 34-37))",
                result: &[Keep(1, 24), Keep(33, 37), Keep(25, 32), Keep(38, 41)],
            },
            Edit {
                ops: &["CUT 38* @volumes", "PUT <24 @volumes"],
                summary: "CUT 38* @volumes (block: lines 38-41; 4 lines); PUT <24 @volumes (+4 lines from \
                          @volumes)",
                result: &[Keep(1, 23), Keep(38, 41), Keep(24, 37)],
            },
            Edit {
                ops: &["CUT 34* @exporter", "PUT 25* @exporter"],
                summary: "CUT 34* @exporter (block: lines 34-37; 4 lines); PUT 25* @exporter (block: \
                          lines 25-32; 8 → 4 lines from @exporter)",
                result: &[Keep(1, 24), Keep(34, 37), Keep(33, 33), Keep(38, 41)],
            },
        ],
        &[
            SingleLine(15, Some((14, 41))),
            // A line of a block scalar.
            Inside(8, (7, 9)),
            Blank(13, (14, 41)),
        ],
    );
}

// ---------------------------------------------------------------------------
// Markdown

const MARKDOWN: &str = r#"
# Contributor guide

Thanks for helping out! This guide covers the basics.

## Setup

1. Install Rust with rustup.
2. Clone the repository.
3. Run the tests:

   ```sh
   cargo test --workspace
   ```

## Style

- Format with rustfmt.
- Keep functions short.
  - Split long matches into helpers.
  - Name things after what they mean.
- No warnings from clippy.

### Commit messages

Write the subject in the imperative mood and keep it
under seventy characters.

> Explain why, not only what.

## Releasing

| Step | Who |
|------|-----|
| Tag  | maintainer |
| Publish | CI |

```toml
[package]
version = "1.2.0"
```

See the changelog for past releases.
"#;

#[test]
fn markdown() {
    check(
        "docs/GUIDE.md",
        MARKDOWN,
        &[
            // A heading's section runs up to the next heading of its level.
            Edit {
                ops: &[
                    "PUT 23*:",
                    "+### Commit messages",
                    "+",
                    "+Use the imperative mood; keep the subject under 70 characters.",
                    "+",
                ],
                summary: "PUT 23*: (block: lines 23-29; 7 → 4 lines)",
                result: &[Keep(1, 22), Body, Keep(30, 42)],
            },
            Edit {
                ops: &["CUT 5*"],
                summary: "CUT 5* (block: lines 5-14; 10 lines)",
                result: &[Keep(1, 4), Keep(15, 42)],
            },
            // After a list item with its nested list.
            Edit {
                ops: &["PUT >18*:", "+- Prefer early returns."],
                summary: "PUT >18*: (+1 line after the block's last line 20 (block: lines 18-20))",
                result: &[Keep(1, 20), Body, Keep(21, 42)],
            },
            Edit {
                ops: &["CUT 5* @setup", "PUT >30* @setup"],
                summary: "CUT 5* @setup (block: lines 5-14; 10 lines); PUT >30* @setup (+10 lines from \
                          @setup after the block's last line 42 (block: lines 30-42))",
                result: &[Keep(1, 4), Keep(15, 42), Keep(5, 14)],
            },
            Edit {
                ops: &["CUT 30* @release", "PUT <15 @release"],
                summary: "CUT 30* @release (block: lines 30-42; 13 lines); PUT <15 @release (+13 lines \
                          from @release)",
                result: &[Keep(1, 14), Keep(30, 42), Keep(15, 29)],
            },
            // The code fence replaces the table.
            Edit {
                ops: &["CUT 37* @fence", "PUT 32* @fence"],
                summary: "CUT 37* @fence (block: lines 37-40; 4 lines); PUT 32* @fence (block: lines \
                          32-35; 4 → 4 lines from @fence)",
                result: &[Keep(1, 31), Keep(37, 40), Keep(36, 36), Keep(41, 42)],
            },
        ],
        &[
            // A one-line block quote.
            SingleLine(28, Some((23, 29))),
            // The closing code fence.
            Inside(40, (37, 40)),
            // A paragraph's second line.
            Inside(26, (25, 26)),
            Blank(36, (37, 40)),
        ],
    );
}

// ---------------------------------------------------------------------------
// HTML

const HTML: &str = r#"
<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Weather station</title>
    <link rel="stylesheet" href="station.css">
    <style>
      body { font-family: sans-serif; }
    </style>
  </head>

  <body>
    <header class="top">
      <h1>Weather station</h1>
      <nav>
        <a href="/">Now</a>
        <a href="/history">History</a>
      </nav>
    </header>
    <main>
      <section id="now">
        <h2>Current conditions</h2>
        <dl>
          <dt>Temperature</dt>
          <dd id="temp">--</dd>
          <dt>Humidity</dt>
          <dd id="humidity">--</dd>
        </dl>
      </section>
      <section id="forecast">
        <h2>Forecast</h2>
        <ul>
          <li>Tomorrow: sunny</li>
          <li>Friday: showers</li>
        </ul>
      </section>
    </main>
    <footer>
      <p>Data refreshed every ten minutes.</p>
    </footer>
    <script>
      fetch("/api/now").then((r) => r.json());
    </script>
  </body>
</html>
"#;

#[test]
fn html() {
    check(
        "site/index.html",
        HTML,
        &[
            Edit {
                ops: &[
                    "PUT 30*:",
                    "+      <section id=\"forecast\">",
                    "+        <h2>Forecast</h2>",
                    "+        <p>No forecast available.</p>",
                    "+      </section>",
                ],
                summary: "PUT 30*: (block: lines 30-36; 7 → 4 lines)",
                result: &[Keep(1, 29), Body, Keep(37, 45)],
            },
            Edit {
                ops: &["CUT 15*"],
                summary: "CUT 15* (block: lines 15-18; 4 lines)",
                result: &[Keep(1, 14), Keep(19, 45)],
            },
            // After the `<dl>` inside the first section.
            Edit {
                ops: &[
                    "PUT >23*:",
                    "+        <p class=\"stamp\">Updated just now</p>",
                ],
                summary: "PUT >23*: (+1 line after the block's last line 28 (block: lines 23-28))",
                result: &[Keep(1, 28), Body, Keep(29, 45)],
            },
            Edit {
                ops: &["CUT 21* @now", "PUT >30* @now"],
                summary: "CUT 21* @now (block: lines 21-29; 9 lines); PUT >30* @now (+9 lines from @now \
                          after the block's last line 36 (block: lines 30-36))",
                result: &[Keep(1, 20), Keep(30, 36), Keep(21, 29), Keep(37, 45)],
            },
            Edit {
                ops: &["CUT 38* @footer", "PUT <20 @footer"],
                summary: "CUT 38* @footer (block: lines 38-40; 3 lines); PUT <20 @footer (+3 lines from \
                          @footer)",
                result: &[Keep(1, 19), Keep(38, 40), Keep(20, 37), Keep(41, 45)],
            },
            Edit {
                ops: &["CUT 32* @list", "PUT 23* @list"],
                summary: "CUT 32* @list (block: lines 32-35; 4 lines); PUT 23* @list (block: lines 23-28; \
                          6 → 4 lines from @list)",
                result: &[Keep(1, 22), Keep(32, 35), Keep(29, 31), Keep(36, 45)],
            },
        ],
        &[
            SingleLine(14, Some((13, 19))),
            // `</section>`
            Inside(29, (21, 29)),
            // Script contents are raw text.
            Inside(42, (41, 43)),
            Blank(11, (12, 44)),
        ],
    );
}

// ---------------------------------------------------------------------------
// CSS

const CSS: &str = r#"
/* Layout and theme for the weather station. */
:root {
  --accent: #0a7cff;
  --muted: #6b7280;
}

body {
  margin: 0;
  color: #111;
}

header.top,
footer {
  display: flex;
  justify-content: space-between;
  padding: 1rem 2rem;
}

nav a {
  color: var(--accent);
  text-decoration: none;
}

nav a:hover {
  text-decoration: underline;
}

@media (max-width: 600px) {
  header.top {
    flex-direction: column;
  }

  nav a {
    display: block;
  }
}

@keyframes pulse {
  from {
    opacity: 1;
  }
  to {
    opacity: 0.4;
  }
}

dd {
  font-weight: bold;
  animation: pulse 2s infinite alternate;
}
"#;

#[test]
fn css() {
    check(
        "site/station.css",
        CSS,
        &[
            Edit {
                ops: &[
                    "PUT 19*:",
                    "+nav a {",
                    "+  color: var(--accent);",
                    "+  font-weight: 600;",
                    "+  text-decoration: none;",
                    "+}",
                ],
                summary: "PUT 19*: (block: lines 19-22; 4 → 5 lines)",
                result: &[Keep(1, 18), Body, Keep(23, 50)],
            },
            // A rule whose selector list spans two lines.
            Edit {
                ops: &["CUT 12*"],
                summary: "CUT 12* (block: lines 12-17; 6 lines)",
                result: &[Keep(1, 11), Keep(18, 50)],
            },
            // After a rule nested in `@media`.
            Edit {
                ops: &["PUT >29*:", "+  footer {", "+    padding: 0.5rem;", "+  }"],
                summary: "PUT >29*: (+3 lines after the block's last line 31 (block: lines 29-31))",
                result: &[Keep(1, 31), Body, Keep(32, 50)],
            },
            Edit {
                ops: &["CUT 7* @body", "PUT >38* @body"],
                summary: "CUT 7* @body (block: lines 7-10; 4 lines); PUT >38* @body (+4 lines from @body \
                          after the block's last line 45 (block: lines 38-45))",
                result: &[Keep(1, 6), Keep(11, 45), Keep(7, 10), Keep(46, 50)],
            },
            Edit {
                ops: &["CUT 38* @pulse", "PUT <7 @pulse"],
                summary: "CUT 38* @pulse (block: lines 38-45; 8 lines); PUT <7 @pulse (+8 lines from \
                          @pulse)",
                result: &[Keep(1, 6), Keep(38, 45), Keep(7, 37), Keep(46, 50)],
            },
            Edit {
                ops: &["CUT 47* @dd", "PUT 24* @dd"],
                summary: "CUT 47* @dd (block: lines 47-50; 4 lines); PUT 24* @dd (block: lines 24-26; 3 → \
                          4 lines from @dd)",
                result: &[Keep(1, 23), Keep(47, 50), Keep(27, 46)],
            },
        ],
        &[
            SingleLine(8, Some((7, 10))),
            // The second line of a selector list.
            SingleLine(13, Some((12, 17))),
            // `}` of a keyframe inside `@keyframes`.
            Inside(44, (42, 44)),
            Blank(32, (33, 35)),
        ],
    );
}

// ---------------------------------------------------------------------------
// One document, three languages

/// Sections for a .rs, a .py and a .md file in one call: block ops in each,
/// and a register carrying a Rust function into the guide's code fence.
/// Then the same document with one unresolvable op writes none of them.
#[test]
fn one_document_edits_rust_python_and_markdown_together() {
    let rust = RUST.strip_prefix('\n').unwrap();
    let python = PYTHON.strip_prefix('\n').unwrap();
    let markdown = MARKDOWN.strip_prefix('\n').unwrap();
    let files = [
        ("src/inventory.rs", rust),
        ("app/scheduler.py", python),
        ("docs/GUIDE.md", markdown),
    ];
    let dir = tempfile::tempdir().unwrap();
    let write_all = || {
        for (path, text) in files {
            let file = dir.path().join(path);
            fs::create_dir_all(file.parent().unwrap()).unwrap();
            fs::write(file, text).unwrap();
        }
    };
    let doc = |md_ops: &str| {
        format!(
            "{}\nCUT 46* @demo\n{}\nPUT >44*:\n+        sched.submit(name + \"-retry\")\n{}\n{md_ops}",
            header("src/inventory.rs", rust),
            header("app/scheduler.py", python),
            header("docs/GUIDE.md", markdown),
        )
    };

    write_all();
    let (status, reply) = edit(
        dir.path(),
        &doc("PUT 37:\n+```rust\nPUT 38.=39 @demo\nCUT 23*\n"),
    );
    assert_eq!(status, Some(0), "{reply}");

    let rust_lines = lines_of(rust);
    let python_lines = lines_of(python);
    let markdown_lines = lines_of(markdown);
    let new_rust = assemble(&rust_lines, &[], "\n", &[Keep(1, 45)]);
    let new_python = assemble(
        &python_lines,
        &[],
        "\n",
        &[
            Keep(1, 45),
            Text("        sched.submit(name + \"-retry\")\n"),
            Keep(46, 51),
        ],
    );
    let new_markdown = assemble(
        &markdown_lines,
        &[],
        "\n",
        &[
            Keep(1, 22),
            Keep(30, 36),
            Text(concat!(
                "```rust\n",
                "fn main() {\n",
                "    let mut inv = Inventory::new(3);\n",
                "    inv.add(\"bolts\", 10);\n",
                "    inv.add(\"nuts\", 1);\n",
                "    println!(\"{:?}\", inv.low());\n",
                "}\n",
            )),
            Keep(40, 42),
        ],
    );
    let expected = [
        (
            "src/inventory.rs",
            &new_rust,
            "CUT 46* @demo (block: lines 46-51; 6 lines)",
        ),
        (
            "app/scheduler.py",
            &new_python,
            "PUT >44*: (+1 line after the block's last line 45 (block: lines 44-45))",
        ),
        (
            "docs/GUIDE.md",
            &new_markdown,
            "PUT 37: (1 → 1 line); PUT 38.=39 @demo (2 → 6 lines from @demo); CUT 23* (block: lines \
             23-29; 7 lines)",
        ),
    ];
    for (path, text, summary) in expected {
        assert_eq!(fs::read_to_string(dir.path().join(path)).unwrap(), *text);
        let chained = format!("{summary}\n{}\n", header(path, text));
        assert!(reply.contains(&chained), "{path}: {chained}\n{reply}");
    }

    // `CUT 26*` names a paragraph's second line: the whole call fails and
    // the Rust and Python files, whose sections came first, stay as well.
    write_all();
    let (status, reply) = edit(dir.path(), &doc("PUT 37:\n+```rust\nCUT 26*\n"));
    assert_eq!(status, Some(1), "{reply}");
    assert!(
        reply.starts_with(
            "docs/GUIDE.md: CUT 26* (document line 9): no block starts on line 26: the line continues \
             or closes a construct that starts on an earlier line; did you mean CUT 25* (lines 25-26)?"
        ),
        "{reply}"
    );
    for (path, text) in files {
        assert_eq!(fs::read_to_string(dir.path().join(path)).unwrap(), text);
    }
}
