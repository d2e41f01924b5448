//! Every listed language: a realistic snippet with the resolution, the
//! enclosing-block suggestion and the next-block suggestion of every line,
//! and a snippet whose syntax error makes the blocks around it
//! unresolvable. The notation is in `common/mod.rs`.

// Some helpers serve only the languages of some features.
#![cfg_attr(not(feature = "all-languages"), allow(unused_imports, dead_code))]

mod common;

use common::check;

/// Structs, impls, expressions, match.
#[cfg(feature = "rust")]
#[test]
fn rust_blocks() {
    check(
        "src/point.rs",
        r#"
S     -     5-8   |use std::fmt;
_     -     5-8   |
S     -     5-8   |/// A point.
S     -     5-8   |#[derive(Debug, Clone)]
5-8   -     10-20 |pub struct Point {
S     5-8   10-20 |    x: i32,
S     5-8   10-20 |    y: i32,
N     5-8   10-20 |}
_     -     10-20 |
10-20 -     11-19 |impl Point {
11-19 10-20 12-13 |    pub fn norm(&self) -> i32 {
12-13 11-19 14-18 |        let s = self.x * self.x
N     12-13 14-18 |            + self.y * self.y;
14-18 11-19 22-30 |        if s > 0 {
S     14-18 22-30 |            s
N     14-18 22-30 |        } else {
S     14-18 22-30 |            0
N     14-18 22-30 |        }
N     11-19 22-30 |    }
N     10-20 22-30 |}
_     -     22-30 |
22-30 -     23-25 |fn main() {
23-25 22-30 26-29 |    let v = vec![
S     23-25 26-29 |        1, 2,
N     23-25 26-29 |    ];
26-29 22-30 -     |    match v.len() {
S     26-29 -     |        0 => {}
S     26-29 -     |        n => println!("{n}"),
N     26-29 -     |    }
N     22-30 -     |}
"#,
    );
}

/// Decorators, classes, compound statements, literals.
#[cfg(feature = "python")]
#[test]
fn python_blocks() {
    check(
        "app/handler.py",
        r#"
S     -     4-13  |import os
_     -     4-13  |
_     -     4-13  |
4-13  -     5-13  |@decorator
5-13  4-13  6-7   |def handler(event):
6-7   5-13  8-13  |    """Docstring
N     6-7   8-13  |    continues."""
8-13  5-13  10-11 |    if event:
S     8-13  10-11 |        return 1
10-11 8-13  12-13 |    elif other:
S     10-11 12-13 |        pass
12-13 8-13  16-32 |    else:
S     12-13 16-32 |        return 2
_     -     16-32 |
_     -     16-32 |
16-32 -     19-24 |class Thing(Base):
S     16-32 19-24 |    x = 1
_     16-32 19-24 |
19-24 16-32 20-24 |    @property
20-24 19-24 21-24 |    def size(self):
21-24 20-24 23-24 |        try:
S     21-24 23-24 |            return len(self.items)
23-24 21-24 26-32 |        except TypeError:
S     23-24 26-32 |            return 0
_     16-32 26-32 |
26-32 16-32 27-28 |    def method(self):
27-28 26-32 29-32 |        for i in range(3):
S     27-28 29-32 |            print(i)
29-32 26-32 -     |        return [
S     29-32 -     |            1,
S     29-32 -     |            2,
N     29-32 -     |        ]
"#,
    );
}

/// Objects, call chains, callbacks, classes, JSX.
#[cfg(feature = "javascript")]
#[test]
fn javascript_blocks() {
    check(
        "src/run.js",
        r#"
S     -     3-8   |import { a } from "./a.js";
_     -     3-8   |
3-8   -     5-7   |const config = {
S     3-8   5-7   |  name: "x",
5-7   3-8   10-16 |  nested: {
S     5-7   10-16 |    deep: true,
N     5-7   10-16 |  },
N     3-8   10-16 |};
_     -     10-16 |
10-16 -     11-15 |export function run(items) {
11-15 10-16 18-22 |  return items
N     11-15 18-22 |    .filter((x) => x > 1)
N     11-15 18-22 |    .map((x) => {
S     11-15 18-22 |      return x * 2;
N     11-15 18-22 |    });
N     10-16 18-22 |}
_     -     18-22 |
18-22 -     19-21 |describe("suite", () => {
19-21 18-22 24-30 |  afterEach(() => {
S     19-21 24-30 |    cleanup();
N     19-21 24-30 |  });
N     18-22 24-30 |});
_     -     24-30 |
24-30 -     25-29 |class Widget extends Base {
25-29 24-30 26-28 |  render() {
26-28 25-29 -     |    return <div>
S     26-28 -     |      <span>hi</span>
N     26-28 -     |    </div>;
N     25-29 -     |  }
N     24-30 -     |}
"#,
    );
}

/// Interfaces, type literals, decorators, switch, enums.
#[cfg(feature = "typescript")]
#[test]
fn typescript_blocks() {
    check(
        "src/app.ts",
        r#"
1-3   -     5-8   |interface Shape {
S     1-3   5-8   |  area(): number;
N     1-3   5-8   |}
_     -     5-8   |
5-8   -     10-29 |type Pair<T> = {
S     5-8   10-29 |  left: T;
S     5-8   10-29 |  right: T;
N     5-8   10-29 |};
_     -     10-29 |
10-29 -     13-29 |@Component({
S     10-29 13-29 |  selector: "app",
N     10-29 13-29 |})
13-29 10-29 17-19 |export class App implements Shape {
S     13-29 17-19 |  @Input() name: string = "";
_     13-29 17-19 |
S     13-29 17-19 |  @HostListener("click")
17-19 13-29 21-28 |  onClick(): void {
S     17-19 21-28 |    this.name = "";
N     17-19 21-28 |  }
_     13-29 21-28 |
21-28 13-29 22-27 |  area(): number {
22-27 21-28 23-24 |    switch (this.name) {
23-24 22-27 25-26 |      case "a":
S     23-24 25-26 |        return 1;
25-26 22-27 31-34 |      default:
S     25-26 31-34 |        return 0;
N     22-27 31-34 |    }
N     21-28 31-34 |  }
N     13-29 31-34 |}
_     -     31-34 |
31-34 -     -     |enum Color {
S     31-34 -     |  Red,
S     31-34 -     |  Green,
N     31-34 -     |}
"#,
    );
}

/// JSX elements and embedded expressions.
#[cfg(feature = "typescript")]
#[test]
fn tsx_blocks() {
    check(
        "src/List.tsx",
        r#"
1-9   -     2-8   |export function List(props: { items: string[] }) {
2-8   1-9   3-7   |  return (
3-7   2-8   4-6   |    <ul>
4-6   3-7   -     |      {props.items.map((i) => (
S     4-6   -     |        <li key={i}>{i}</li>
N     4-6   -     |      ))}
N     3-7   -     |    </ul>
N     2-8   -     |  );
N     1-9   -     |}
"#,
    );
}

/// Imports, loops, switch, structs, literals, closures.
#[cfg(feature = "go")]
#[test]
fn go_blocks() {
    check(
        "cmd/run.go",
        r#"
S     -     3-5   |package main
_     -     3-5   |
3-5   -     8-20  |import (
S     3-5   8-20  |	"fmt"
N     3-5   8-20  |)
_     -     8-20  |
S     -     8-20  |// Run does things.
8-20  -     10-12 |func Run(xs []int) int {
S     8-20  10-12 |	total := 0
10-12 8-20  13-18 |	for _, x := range xs {
S     10-12 13-18 |		total += x
N     10-12 13-18 |	}
13-18 8-20  14-16 |	switch total {
14-16 13-18 22-24 |	case 0:
S     14-16 22-24 |		fmt.Println("zero")
S     14-16 22-24 |		return 0
S     13-18 22-24 |	default:
N     13-18 22-24 |	}
S     8-20  22-24 |	return total
N     8-20  22-24 |}
_     -     22-24 |
22-24 -     26-34 |type T struct {
S     22-24 26-34 |	A int
N     22-24 26-34 |}
_     -     26-34 |
26-34 -     27-29 |func (s *Server) Handle(w Writer) error {
27-29 26-34 30-32 |	cfg := Config{
S     27-29 30-32 |		Name: "x",
N     27-29 30-32 |	}
30-32 26-34 -     |	go func() {
S     30-32 -     |		s.run(cfg)
N     30-32 -     |	}()
S     26-34 -     |	return nil
N     26-34 -     |}
"#,
    );
}

/// Annotations, classes, methods.
#[cfg(feature = "java")]
#[test]
fn java_blocks() {
    check(
        "src/User.java",
        r#"
S     -     4-15  |package x;
_     -     4-15  |
S     -     4-15  |/** Doc. */
4-15  -     5-15  |@Entity
5-15  4-15  8-14  |public class User {
S     5-15  8-14  |    private int id;
_     5-15  8-14  |
8-14  5-15  9-14  |    @Override
9-14  8-14  10-12 |    public String toString() {
10-12 9-14  -     |        if (id > 0) {
S     10-12 -     |            return "a";
N     10-12 -     |        }
S     9-14  -     |        return "b";
N     9-14  -     |    }
N     5-15  -     |}
"#,
    );
}

/// Preprocessor groups, structs, functions, loops.
#[cfg(feature = "c")]
#[test]
fn c_blocks() {
    check(
        "src/main.c",
        r#"
S     -     3-7   |#include <stdio.h>
_     -     3-7   |
3-7   -     5-6   |#ifdef DEBUG
S     3-7   5-6   |#define LOG(x) printf("%s\n", x)
5-6   3-7   9-12  |#else
S     5-6   9-12  |#define LOG(x)
N     3-7   9-12  |#endif
_     -     9-12  |
9-12  -     14-19 |struct point {
S     9-12  14-19 |    int x;
S     9-12  14-19 |    int y;
N     9-12  14-19 |};
_     -     14-19 |
14-19 -     15-17 |int main(void) {
15-17 14-19 -     |    for (int i = 0; i < 3; i++) {
S     15-17 -     |        LOG("x");
N     15-17 -     |    }
S     14-19 -     |    return 0;
N     14-19 -     |}
"#,
    );
}

/// Namespaces, templates, classes, access specifiers.
#[cfg(feature = "cpp")]
#[test]
fn cpp_blocks() {
    check(
        "src/box.cpp",
        r#"
1-14  -     3-12  |namespace demo {
_     1-14  3-12  |
3-12  1-14  4-12  |template <typename T>
4-12  3-12  7-9   |class Box {
S     4-12  7-9   |public:
S     4-12  7-9   |    explicit Box(T v) : v_(v) {}
7-9   4-12  -     |    [[nodiscard]] T get() const {
S     7-9   -     |        return v_;
N     7-9   -     |    }
S     4-12  -     |private:
S     4-12  -     |    T v_;
N     4-12  -     |};
_     1-14  -     |
N     1-14  -     |}  // namespace demo
"#,
    );
}

/// An attribute on its own line.
#[cfg(feature = "cpp")]
#[test]
fn cpp_attribute_blocks() {
    check(
        "src/f.cc",
        r#"
1-4   -     2-4   |[[nodiscard]]
2-4   1-4   -     |int f() {
S     2-4   -     |  return 1;
N     2-4   -     |}
"#,
    );
}

/// Allman braces, attributes, properties.
#[cfg(feature = "c-sharp")]
#[test]
fn c_sharp_blocks() {
    check(
        "src/Widget.cs",
        r#"
S     -     3-19  |using System;
_     -     3-19  |
3-19  -     4-19  |namespace Demo
4-19  3-19  5-18  |{
5-18  4-19  6-18  |    [Serializable]
6-18  5-18  7-18  |    public class Widget
7-18  5-18  10-17 |    {
S     7-18  10-17 |        public int Size { get; set; }
_     7-18  10-17 |
10-17 7-18  11-17 |        [Obsolete]
11-17 10-17 12-17 |        public void Draw()
12-17 10-17 13-16 |        {
13-16 12-17 14-16 |            if (Size > 0)
14-16 13-16 -     |            {
S     14-16 -     |                Console.WriteLine("x");
N     14-16 -     |            }
N     12-17 -     |        }
N     7-18  -     |    }
N     4-19  -     |}
"#,
    );
}

/// Modules, classes, do blocks, if/else, heredocs.
#[cfg(feature = "ruby")]
#[test]
fn ruby_blocks() {
    check(
        "lib/cart.rb",
        r#"
S     -     3-26  |require "json"
_     -     3-26  |
3-26  -     4-25  |module Shop
4-25  3-26  7-17  |  class Cart < Base
S     4-25  7-17  |    attr_reader :items
_     4-25  7-17  |
7-17  4-25  9-11  |    def total
S     7-17  9-11  |      sum = 0
9-11  7-17  12-16 |      items.each do |i|
S     9-11  12-16 |        sum += i.price
N     9-11  12-16 |      end
12-16 7-17  14-15 |      if sum > 100
S     12-16 14-15 |        sum * 0.9
14-15 12-16 19-24 |      else
S     14-15 19-24 |        sum
N     12-16 19-24 |      end
N     7-17  19-24 |    end
_     4-25  19-24 |
19-24 4-25  20-23 |    def note
20-23 19-24 28-30 |      <<~TEXT
N     20-23 28-30 |        hello
N     20-23 28-30 |        world
N     20-23 28-30 |      TEXT
N     19-24 28-30 |    end
N     4-25  28-30 |  end
N     3-26  28-30 |end
_     -     28-30 |
28-30 -     -     |x = format(<<~A, 1)
N     28-30 -     |  body %d
N     28-30 -     |A
"#,
    );
}

/// Functions, if/else, loops, case, heredocs.
#[cfg(feature = "bash")]
#[test]
fn bash_blocks() {
    check(
        "scripts/build.sh",
        r#"
S     -     4-11  |#!/usr/bin/env bash
S     -     4-11  |set -euo pipefail
_     -     4-11  |
4-11  -     6-10  |build() {
S     4-11  6-10  |  local dir="$1"
6-10  4-11  8-9   |  if [ -d "$dir" ]; then
S     6-10  8-9   |    echo "ok"
8-9   6-10  13-15 |  else
S     8-9   13-15 |    echo "missing"
N     6-10  13-15 |  fi
N     4-11  13-15 |}
_     -     13-15 |
13-15 -     17-24 |for f in *.txt; do
S     13-15 17-24 |  cat "$f"
N     13-15 17-24 |done
_     -     17-24 |
17-24 -     18-20 |case "$1" in
18-20 17-24 21-23 |  start)
S     18-20 21-23 |    build .
N     18-20 21-23 |    ;;
21-23 17-24 26-29 |  *)
S     21-23 26-29 |    exit 1
N     21-23 26-29 |    ;;
N     17-24 26-29 |esac
_     -     26-29 |
26-29 -     -     |cat <<EOT
N     26-29 -     |line one
N     26-29 -     |line two
N     26-29 -     |EOT
"#,
    );
}

/// Objects and arrays.
#[cfg(feature = "json")]
#[test]
fn json_blocks() {
    check(
        "package.json",
        r#"
1-10  -     3-6   |{
S     1-10  3-6   |  "name": "demo",
3-6   1-10  7-9   |  "scripts": {
S     3-6   7-9   |    "build": "tsc",
S     3-6   7-9   |    "test": "jest"
N     3-6   7-9   |  },
7-9   1-10  -     |  "files": [
S     7-9   -     |    "dist"
N     7-9   -     |  ]
N     1-10  -     |}
"#,
    );
}

/// Tables, arrays of tables, multi-line values.
#[cfg(feature = "toml")]
#[test]
fn toml_blocks() {
    check(
        "Cargo.toml",
        r#"
1-3   -     6-9   |[package]
S     1-3   6-9   |name = "demo"
S     1-3   6-9   |version = "0.1.0"
_     -     6-9   |
S     -     6-9   |# Dependencies below.
6-9   -     7-9   |[dependencies]
7-9   6-9   11-12 |serde = { version = "1", features = [
S     7-9   11-12 |  "derive",
N     7-9   11-12 |] }
_     -     11-12 |
11-12 -     -     |[[bin]]
S     11-12 -     |name = "demo"
"#,
    );
}

/// Nested mappings, sequences, block scalars.
#[cfg(feature = "yaml")]
#[test]
fn yaml_blocks() {
    check(
        ".github/workflows/ci.yml",
        r#"
S     -     3-5   |# CI config
S     -     3-5   |name: ci
3-5   -     4-5   |on:
4-5   3-5   6-16  |  push:
S     4-5   6-16  |    branches: [main]
6-16  -     7-14  |jobs:
7-14  6-16  9-14  |  build:
S     7-14  9-14  |    runs-on: ubuntu-latest
9-14  7-14  11-14 |    steps:
S     9-14  11-14 |      - uses: actions/checkout@v4
11-14 9-14  12-14 |      - name: Test
12-14 11-14 15-16 |        run: |
N     12-14 15-16 |          cargo test
N     12-14 15-16 |          cargo clippy
15-16 6-16  -     |  lint:
S     15-16 -     |    runs-on: ubuntu-latest
"#,
    );
}

/// Lists, quotes, code fences, setext headings, tables.
#[cfg(feature = "markdown")]
#[test]
fn markdown_blocks() {
    check(
        "docs/guide.md",
        r#"
1-2   -     4-23  |Intro paragraph
N     1-2   4-23  |spans two lines.
_     -     4-23  |
4-23  -     7-8   |# Title
_     4-23  7-8   |
S     4-23  7-8   |- one
7-8   4-23  11-12 |- two
S     7-8   11-12 |  - nested
S     4-23  11-12 |- three
_     4-23  11-12 |
11-12 4-23  14-16 |> quoted
N     11-12 14-16 |> more
_     4-23  14-16 |
14-16 4-23  18-19 |```rust
N     14-16 18-19 |fn main() {}
N     14-16 18-19 |```
_     4-23  18-19 |
18-19 4-23  21-23 |Setext
N     18-19 21-23 |------
_     4-23  21-23 |
21-23 4-23  -     || a | b |
S     21-23 -     ||---|---|
S     21-23 -     || 1 | 2 |
"#,
    );
}

/// Elements, script and style.
#[cfg(feature = "html")]
#[test]
fn html_blocks() {
    check(
        "site/index.html",
        r#"
S     -     2-16  |<!DOCTYPE html>
2-16  -     3-7   |<html>
3-7   2-16  4-6   |  <head>
4-6   3-7   8-15  |    <style>
N     4-6   8-15  |      body { color: red; }
N     4-6   8-15  |    </style>
N     3-7   8-15  |  </head>
8-15  2-16  9-11  |  <body>
9-11  8-15  12-14 |    <div class="x">
S     9-11  12-14 |      <p>Hello</p>
N     9-11  12-14 |    </div>
12-14 8-15  -     |    <script>
N     12-14 -     |      console.log(1);
N     12-14 -     |    </script>
N     8-15  -     |  </body>
N     2-16  -     |</html>
"#,
    );
}

/// Rule sets, selector lists, media queries.
#[cfg(feature = "css")]
#[test]
fn css_blocks() {
    check(
        "site/style.css",
        r#"
S     -     3-7   |@import url("x.css");
_     -     3-7   |
3-7   -     9-13  |body,
S     3-7   9-13  |html {
S     3-7   9-13  |  margin: 0;
S     3-7   9-13  |  padding: 0;
N     3-7   9-13  |}
_     -     9-13  |
9-13  -     10-12 |@media (max-width: 600px) {
10-12 9-13  -     |  .a {
S     10-12 -     |    color: red;
N     10-12 -     |  }
N     9-13  -     |}
"#,
    );
}

#[cfg(feature = "rust")]
#[test]
fn rust_syntax_error() {
    check(
        "a.rs",
        r#"
E     *     *     |fn f() {
E     *     *     |    let x = ;
S     *     *     |    x
N     *     *     |}
"#,
    );
}

#[cfg(feature = "python")]
#[test]
fn python_syntax_error() {
    check(
        "a.py",
        r#"
E     *     *     |def f():
E     *     *     |    x = (1,
S     *     *     |    return x
_     *     *     |
S     *     *     |y = 1
"#,
    );
}

#[cfg(feature = "javascript")]
#[test]
fn javascript_syntax_error() {
    check(
        "a.js",
        r#"
E     *     *     |function f() {
E     *     *     |  if (x) {
E     *     *     |    return 1;
N     *     *     |}
"#,
    );
}

#[cfg(feature = "typescript")]
#[test]
fn typescript_syntax_error() {
    check(
        "a.ts",
        r#"
E     *     *     |function f(): number {
E     *     *     |  let x: = 1;
S     *     *     |  return x;
N     *     *     |}
"#,
    );
}

#[cfg(feature = "typescript")]
#[test]
fn tsx_syntax_error() {
    check(
        "a.tsx",
        r#"
E     *     *     |function C() {
E     *     *     |  return <div>
E     *     *     |    <span>
E     *     *     |  </div>;
N     *     *     |}
"#,
    );
}

#[cfg(feature = "go")]
#[test]
fn go_syntax_error() {
    check(
        "a.go",
        r#"
S     *     *     |package main
_     *     *     |
E     *     *     |func f() {
E     *     *     |	x := 
S     *     *     |	return
N     *     *     |}
"#,
    );
}

#[cfg(feature = "java")]
#[test]
fn java_syntax_error() {
    check(
        "A.java",
        r#"
E     *     *     |class A {
E     *     *     |    void f() {
E     *     *     |        int x = ;
N     *     *     |    }
N     *     *     |}
"#,
    );
}

#[cfg(feature = "c")]
#[test]
fn c_syntax_error() {
    check(
        "a.c",
        r#"
E     *     *     |int f(void) {
E     *     *     |    int x = ;
S     *     *     |    return x;
N     *     *     |}
"#,
    );
}

#[cfg(feature = "cpp")]
#[test]
fn cpp_syntax_error() {
    check(
        "a.cpp",
        r#"
E     *     *     |class A {
E     *     *     |  void f() {
E     *     *     |    int x = ;
N     *     *     |  }
N     *     *     |};
"#,
    );
}

#[cfg(feature = "c-sharp")]
#[test]
fn c_sharp_syntax_error() {
    check(
        "A.cs",
        r#"
E     *     *     |class A
E     *     *     |{
E     *     *     |    void F()
E     *     *     |    {
E     *     *     |        int x = ;
N     *     *     |    }
N     *     *     |}
"#,
    );
}

#[cfg(feature = "ruby")]
#[test]
fn ruby_syntax_error() {
    check(
        "a.rb",
        r#"
E     *     *     |def f
E     *     *     |  x = (1
N     *     *     |end
"#,
    );
}

#[cfg(feature = "bash")]
#[test]
fn bash_syntax_error() {
    check(
        "a.sh",
        r#"
E     *     *     |f() {
E     *     *     |  if [ x ]; then
E     *     *     |    echo
E     *     *     |}
"#,
    );
}

#[cfg(feature = "json")]
#[test]
fn json_syntax_error() {
    check(
        "a.json",
        r#"
E     *     *     |{
E     *     *     |  "a": [1, 2,
E     *     *     |  "b": 3
N     *     *     |}
"#,
    );
}

#[cfg(feature = "toml")]
#[test]
fn toml_syntax_error() {
    check(
        "a.toml",
        r#"
E     *     *     |[a]
E     *     *     |x = [1,
E     *     *     |y = 2
"#,
    );
}

#[cfg(feature = "yaml")]
#[test]
fn yaml_syntax_error() {
    check(
        "a.yaml",
        r#"
E     *     *     |a:
E     *     *     |  b: [1, 2
S     *     *     |  c: 3
"#,
    );
}

#[cfg(feature = "html")]
#[test]
fn html_syntax_error() {
    check(
        "a.html",
        r#"
E     *     *     |<div>
E     *     *     |  <p>x</p
N     *     *     |</div>
"#,
    );
}

#[cfg(feature = "css")]
#[test]
fn css_syntax_error() {
    check(
        "a.css",
        r#"
E     *     *     |a {
E     *     *     |  color: ;
E     *     *     |  x
N     *     *     |}
"#,
    );
}

/// An error inside one method leaves its neighbours resolvable.
#[cfg(feature = "python")]
#[test]
fn python_syntax_error_stays_local() {
    check(
        "a.py",
        r#"
E     -     2-3   |class A:
2-3   -     9-10  |    def a(self):
S     2-3   9-10  |        return 1
_     -     9-10  |
E     -     9-10  |    def b(self):
E     -     9-10  |        x = (1,
S     -     9-10  |        return x
_     -     9-10  |
9-10  -     -     |    def c(self):
S     9-10  -     |        return 3
"#,
    );
}

/// A method that swallowed the class's closing brace is unresolvable, and
/// so is everything in it; the methods before it are not.
#[cfg(feature = "javascript")]
#[test]
fn javascript_swallowed_closer() {
    check(
        "a.js",
        r#"
E     -     2-4   |class A {
2-4   -     -     |  a() {
S     2-4   -     |    return 1;
N     2-4   -     |  }
E     -     -     |  b() {
E     -     -     |    let x = ;
N     -     -     |  }
E     -     -     |  c() {
E     -     -     |    if (x) {
N     -     -     |  }
N     -     -     |}
"#,
    );
}

/// A comment indented into a body belongs to it; one at the level of the
/// definition introduces what follows.
#[cfg(feature = "python")]
#[test]
fn python_trailing_comments() {
    check(
        "a.py",
        r#"
1-3   -     6-7   |def f():
S     1-3   6-7   |    x = 1
S     1-3   6-7   |    # TODO more
_     -     6-7   |
S     -     6-7   |# about g
6-7   -     -     |def g():
S     6-7   -     |    pass
"#,
    );
}

/// A comment indented into a mapping belongs to it; one at the level of
/// the key introduces what follows.
#[cfg(feature = "yaml")]
#[test]
fn yaml_trailing_comments() {
    check(
        "a.yaml",
        r#"
1-3   -     -     |a:
S     1-3   -     |  b: 1
S     1-3   -     |  # c note
S     -     -     |# top note
S     -     -     |d: 2
"#,
    );
}

/// A block scalar runs to its last line.
#[cfg(feature = "yaml")]
#[test]
fn yaml_block_scalar() {
    check(
        "a.yml",
        r#"
1-3   -     -     |run: |
N     1-3   -     |  cargo test
N     1-3   -     |  cargo clippy
S     -     -     |x: 1
"#,
    );
}

/// `case` clauses are blocks of their own.
#[cfg(feature = "python")]
#[test]
fn python_match_and_with() {
    check(
        "a.py",
        r#"
1-5   -     2-3   |match cmd:
2-3   1-5   4-5   |    case "a":
S     2-3   4-5   |        run()
4-5   1-5   7-8   |    case _:
S     4-5   7-8   |        pass
_     -     7-8   |
7-8   -     -     |with open(p) as f:
S     7-8   -     |    data = f.read()
"#,
    );
}

/// JavaScript nests decorators in classes and methods.
#[cfg(feature = "javascript")]
#[test]
fn javascript_member_decorators() {
    check(
        "a.js",
        r#"
1-6   -     2-5   |class A {
2-5   1-6   3-5   |  @dec
3-5   2-5   8-10  |  m() {
S     3-5   8-10  |    return 1;
N     3-5   8-10  |  }
N     1-6   8-10  |}
_     -     8-10  |
8-10  -     9-10  |@dec
9-10  8-10  -     |export class B {
N     9-10  -     |}
"#,
    );
}

/// A file-scoped namespace is one line; Allman braces open blocks.
#[cfg(feature = "c-sharp")]
#[test]
fn c_sharp_file_scoped_namespace() {
    check(
        "A.cs",
        r#"
S     -     3-5   |namespace Demo;
_     -     3-5   |
3-5   -     4-5   |public class A
4-5   3-5   -     |{
N     4-5   -     |}
"#,
    );
}
