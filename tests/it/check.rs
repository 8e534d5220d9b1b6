//! Data-driven checks of extraction and resolution: a few files written inline, indexed
//! through the library (graph only), and every definition, call and import printed in one
//! compact form and compared with an inline snapshot. A resolution case is a few lines
//! here, not a fixture repository. Update the snapshots with `UPDATE_EXPECT=1` and read
//! the diff: each line must be what the code means.
//!
//! Files are given as `//- path` headers followed by their text:
//!
//! ```text
//! //- a.py
//! from b import g
//! def f():
//!     g()
//! //- b.py
//! def g(): pass
//! ```
//!
//! Rows, per file in path order:
//! - `def KIND QUALNAME START-END`
//! - `call LINE NAME -> PATH:QUALNAME [RESOLUTION]` (or `-> EXTERNAL [external]`,
//!   `-> ? [unresolved]`), with `in CALLER` when the call is inside a definition
//! - `import LINE MODULE [NAME] [as ALIAS] -> PATH` (or `-> ?` outside the repository)

use std::fmt::Write as _;

use expect_test::{Expect, expect};
use llmc::config::IndexConfig;

use crate::util::Scratch;

/// Indexes `files` (see the module head) and compares the rows with `expected`.
fn check(files: &str, expected: Expect) {
    let s = Scratch::empty();
    let mut path: Option<String> = None;
    let mut text = String::new();
    let flush = |path: &Option<String>, text: &mut String| {
        if let Some(p) = path {
            s.write(p, text.as_bytes());
        }
        text.clear();
    };
    for line in files.lines() {
        if let Some(p) = line.strip_prefix("//- ") {
            flush(&path, &mut text);
            path = Some(p.trim().to_string());
        } else {
            text.push_str(line);
            text.push('\n');
        }
    }
    flush(&path, &mut text);
    let cfg = IndexConfig {
        history: false,
        lexical: false,
        semantic: false,
        ..IndexConfig::default()
    };
    s.index_with(&cfg, false);
    expected.assert_eq(&rows(&s));
}

fn rows(s: &Scratch) -> String {
    let store = s.store();
    store
        .read(|c| {
            let mut out = String::new();
            let mut files = c.prepare("SELECT id, path FROM files ORDER BY path")?;
            let files: Vec<(i64, String)> = files
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<_>>()?;
            let mut defs = c.prepare(
                "SELECT kind, qualname, start_line, end_line FROM symbols WHERE file_id = ?1
                 ORDER BY start_line, end_line DESC, qualname",
            )?;
            let mut calls = c.prepare(
                "SELECT k.line, k.name, k.resolution, k.external,
                        (SELECT f.path || ':' || s.qualname FROM symbols s JOIN files f
                           ON f.id = s.file_id WHERE s.id = k.callee_id),
                        (SELECT s.qualname FROM symbols s WHERE s.id = k.caller_id), k.usage
                 FROM calls k WHERE k.file_id = ?1 ORDER BY k.line, k.col",
            )?;
            let mut imports = c.prepare(
                "SELECT i.line, i.kind, i.module, i.name, i.alias,
                        (SELECT f.path FROM files f WHERE f.id = i.target_file_id)
                 FROM imports i WHERE i.file_id = ?1 ORDER BY i.line, i.id",
            )?;
            for (id, path) in files {
                let _ = writeln!(out, "{path}");
                let mut r = defs.query([id])?;
                while let Some(d) = r.next()? {
                    let _ = writeln!(
                        out,
                        "  def {} {} {}-{}",
                        d.get::<_, String>(0)?,
                        d.get::<_, String>(1)?,
                        d.get::<_, i64>(2)?,
                        d.get::<_, i64>(3)?
                    );
                }
                let mut r = imports.query([id])?;
                while let Some(i) = r.next()? {
                    let kind: String = i.get(1)?;
                    let mut line = format!("  import {} ", i.get::<_, i64>(0)?);
                    if kind != "module" {
                        let _ = write!(line, "{kind} ");
                    }
                    line.push_str(&i.get::<_, String>(2)?);
                    if let Some(n) = i.get::<_, Option<String>>(3)? {
                        let _ = write!(line, " {n}");
                    }
                    if let Some(a) = i.get::<_, Option<String>>(4)? {
                        let _ = write!(line, " as {a}");
                    }
                    let target: Option<String> = i.get(5)?;
                    let _ = writeln!(out, "{line} -> {}", target.as_deref().unwrap_or("?"));
                }
                let mut r = calls.query([id])?;
                while let Some(k) = r.next()? {
                    let resolution: String = k.get(2)?;
                    let external: Option<String> = k.get(3)?;
                    let callee: Option<String> = k.get(4)?;
                    let caller: Option<String> = k.get(5)?;
                    let to = match (callee, resolution.as_str()) {
                        (Some(c), _) => c,
                        (None, "external") => external.unwrap_or_default(),
                        _ => "?".to_string(),
                    };
                    let within = caller.map(|c| format!(" in {c}")).unwrap_or_default();
                    let usage: String = k.get(6)?;
                    let _ = writeln!(
                        out,
                        "  {usage} {} {}{within} -> {to} [{resolution}]",
                        k.get::<_, i64>(0)?,
                        k.get::<_, String>(1)?
                    );
                }
            }
            Ok(out)
        })
        .expect("rows read")
}

#[test]
fn python_absolute_import_binds_the_module_function() {
    check(
        r#"
//- pkg/__init__.py
//- pkg/util.py
def helper():
    return 1
//- app.py
from pkg.util import helper
import os

def main():
    helper()
    os.getcwd()
"#,
        expect![[r#"
            app.py
              def function main 4-6
              import 1 pkg.util helper -> pkg/util.py
              import 2 os -> ?
              call 5 helper in main -> pkg/util.py:helper [import]
              call 6 getcwd in main -> os.getcwd [external]
            pkg/__init__.py
            pkg/util.py
              def function helper 1-2
        "#]],
    );
}

#[test]
fn python_self_methods_and_constructor_typed_locals() {
    check(
        r#"
//- shapes.py
class Circle:
    def area(self):
        return 3

    def describe(self):
        return self.area()

class Square:
    def area(self):
        return 4

def total():
    s = Square()
    return s.area()
"#,
        expect![[r#"
            shapes.py
              def class Circle 1-6
              def method Circle.area 2-3
              def method Circle.describe 5-6
              def class Square 8-10
              def method Square.area 9-10
              def function total 12-14
              call 6 area in Circle.describe -> shapes.py:Circle.area [scope]
              call 13 Square in total -> shapes.py:Square [exact]
              call 14 area in total -> shapes.py:Square.area [scope]
        "#]],
    );
}

#[test]
fn python_alias_and_shadowing() {
    check(
        r#"
//- lib.py
def load():
    pass
//- main.py
from lib import load as fetch

def load():
    pass

def run():
    fetch()
    load()
"#,
        expect![[r#"
            lib.py
              def function load 1-2
            main.py
              def function load 3-4
              def function run 6-8
              import 1 lib load as fetch -> lib.py
              call 7 fetch in run -> lib.py:load [import]
              call 8 load in run -> main.py:load [exact]
        "#]],
    );
}

/// A function called through a local name bound to it (tqdm's tests write
/// `format_interval = tqdm.format_interval`, then `format_interval(60)`): the call is
/// the function's. A name bound to a call's value or to a variable's field stays a value.
#[test]
fn python_functions_called_through_a_name_bound_to_them() {
    check(
        r#"
//- meter.py
class Meter:
    @staticmethod
    def format_interval(t):
        return str(t)

def render(t):
    return t
//- use.py
import meter
from meter import Meter

def show():
    fmt = Meter.format_interval
    fmt(3)
    draw = meter.render
    draw(4)
    made = Meter()
    made(5)
"#,
        expect![[r#"
            meter.py
              def class Meter 1-4
              def method Meter.format_interval 3-4
              def function render 6-7
              decorator 2 staticmethod in Meter -> ? [unresolved]
              call 4 str in Meter.format_interval -> str [external]
            use.py
              def function show 4-10
              import 1 meter -> meter.py
              import 2 meter Meter -> meter.py
              value 5 format_interval in show -> meter.py:Meter.format_interval [import]
              call 6 format_interval in show -> meter.py:Meter.format_interval [import]
              value 7 render in show -> meter.py:render [import]
              call 8 render in show -> meter.py:render [import]
              call 9 Meter in show -> meter.py:Meter [import]
              call 10 made in show -> ? [unresolved]
        "#]],
    );
}

#[test]
fn rust_use_paths_mod_files_and_associated_functions() {
    check(
        r#"
//- src/lib.rs
mod store;
use store::Store;

pub fn open() -> Store {
    let s = Store::new();
    s.flush();
    s
}
//- src/store.rs
pub struct Store;

impl Store {
    pub fn new() -> Store {
        Store
    }
    pub fn flush(&self) {}
}
"#,
        expect![[r#"
            src/lib.rs
              def function open 4-8
              import 1 mod store -> src/store.rs
              import 2 store Store -> src/store.rs
              call 5 new in open -> src/store.rs:Store::new [import]
              call 6 flush in open -> src/store.rs:Store::flush [scope]
            src/store.rs
              def struct Store 1-1
              def impl Store 3-8
              def method Store::new 4-6
              def method Store::flush 7-7
        "#]],
    );
}

#[test]
fn typescript_named_imports_and_class_methods() {
    check(
        r#"
//- src/render.ts
export function render(x: number): string {
  return String(x);
}
export class Page {
  show(): string {
    return render(1);
  }
}
//- src/main.ts
import { render, Page } from "./render";

const p = new Page();
p.show();
render(2);
"#,
        expect![[r#"
            src/main.ts
              def constant p 3-3
              import 1 ./render render -> src/render.ts
              import 1 ./render Page -> src/render.ts
              call 3 Page in p -> src/render.ts:Page [import]
              call 4 show -> src/render.ts:Page.show [scope]
              call 5 render -> src/render.ts:render [import]
            src/render.ts
              def function render 1-3
              def class Page 4-8
              def method Page.show 5-7
              call 2 String in render -> ? [unresolved]
              call 6 render in Page.show -> src/render.ts:render [exact]
        "#]],
    );
}

/// A monorepo's packages import each other by name (vuejs/core: `@vue/shared`), through
/// the root `tsconfig.json`'s `paths` (with comments and trailing commas, as tsc allows)
/// or a workspace package's `package.json` name; a package nobody here writes stays
/// outside.
#[test]
fn typescript_workspace_packages_by_their_paths_and_names() {
    check(
        r#"
//- tsconfig.json
{
  // the packages' sources
  "compilerOptions": {
    "paths": {
      "@acme/*": ["./packages/*/src"], /* every package */
    },
  },
}
//- packages/shared/package.json
{ "name": "@acme/shared", "main": "dist/index.js" }
//- packages/shared/src/index.ts
export { isArray } from "./general";
//- packages/shared/src/general.ts
export function isArray(x: unknown): boolean { return Array.isArray(x); }
//- tools/lint/package.json
{ "name": "acme-lint", "source": "main.ts" }
//- tools/lint/main.ts
export function lint(s: string): string { return s; }
//- packages/core/src/index.ts
import { isArray } from "@acme/shared";
import { lint } from "acme-lint";
import { ref } from "vue";
export function check(x: unknown): boolean {
  lint("x");
  ref(1);
  return isArray(x);
}
"#,
        expect![[r#"
            packages/core/src/index.ts
              def function check 4-8
              import 1 @acme/shared isArray -> packages/shared/src/index.ts
              import 2 acme-lint lint -> tools/lint/main.ts
              import 3 vue ref -> ?
              call 5 lint in check -> tools/lint/main.ts:lint [import]
              call 6 ref in check -> vue.ref [external]
              call 7 isArray in check -> packages/shared/src/general.ts:isArray [import]
            packages/shared/package.json
            packages/shared/src/general.ts
              def function isArray 1-1
              call 1 isArray in isArray -> Array.isArray [external]
            packages/shared/src/index.ts
              import 1 ./general isArray -> packages/shared/src/general.ts
            tools/lint/main.ts
              def function lint 1-1
            tools/lint/package.json
            tsconfig.json
        "#]],
    );
}

/// A Vue single-file component: its `<script setup>` is TypeScript at the file's own
/// lines, and its template's expressions (`@click`, `:value`, `{{ }}`) call what the
/// script defines, a handler named alone (`@click="reset"`) too; the style is no code.
#[test]
fn vue_components_scripts_and_template_expressions() {
    check(
        r#"
//- src/format.ts
export function formatCount(n: number): string {
  return `${n}`;
}
//- src/Counter.vue
<script setup lang="ts">
import { formatCount } from "./format";

let count = 0;
function increment(): void {
  count += 1;
}
function reset(): void {
  count = 0;
}
</script>

<template>
  <button @click="increment()" :title="formatCount(count)">
    {{ formatCount(count) }}
  </button>
  <button @click="reset">0</button>
</template>

<style scoped>
button { color: red; }
</style>
"#,
        expect![[r#"
            src/Counter.vue
              def constant count 4-4
              def function increment 5-7
              def function reset 8-10
              import 2 ./format formatCount -> src/format.ts
              call 14 increment -> src/Counter.vue:increment [exact]
              call 14 formatCount -> src/format.ts:formatCount [import]
              call 15 formatCount -> src/format.ts:formatCount [import]
              call 17 reset -> src/Counter.vue:reset [exact]
            src/format.ts
              def function formatCount 1-3
        "#]],
    );
}

/// A Svelte component: its `<script lang="ts">` is TypeScript at the file's own lines;
/// its template's `{…}` (a block's condition, an attribute's value, a handler named
/// alone) call what the script defines or imports.
#[test]
fn svelte_components_scripts_and_template_expressions() {
    check(
        r#"
//- src/format.ts
export function formatCount(n: number): string {
  return `${n}`;
}
//- src/Counter.svelte
<script lang="ts">
  import { formatCount } from "./format";
  let count = $state(0);
  function increment(): void {
    count += 1;
  }
  function isBig(n: number): boolean {
    return n > 9;
  }
</script>

{#if isBig(count)}
  <p>{formatCount(count)}</p>
{/if}
<button onclick={increment}>+</button>
"#,
        expect![[r#"
            src/Counter.svelte
              def constant count 3-3
              def function increment 4-6
              def function isBig 7-9
              import 2 ./format formatCount -> src/format.ts
              call 3 $state in count -> ? [unresolved]
              call 12 isBig -> src/Counter.svelte:isBig [exact]
              call 13 formatCount -> src/format.ts:formatCount [import]
              call 15 increment -> src/Counter.svelte:increment [exact]
            src/format.ts
              def function formatCount 1-3
        "#]],
    );
}

#[test]
fn javascript_require_binds_the_module() {
    check(
        r#"
//- lib/util.js
function pad(s) { return s; }
module.exports = { pad };
//- index.js
const util = require("./lib/util");
util.pad("x");
"#,
        expect![[r#"
            index.js
              def constant util 1-1
              import 1 ./lib/util as util -> lib/util.js
              call 1 require in util -> ? [unresolved]
              call 2 pad -> lib/util.js:pad [import]
            lib/util.js
              def function pad 1-1
        "#]],
    );
}

#[test]
fn go_package_calls_and_methods_on_typed_receivers() {
    check(
        r#"
//- go.mod
module example.com/app
//- kv/kv.go
package kv

type Store struct{}

func New() *Store { return &Store{} }

func (s *Store) Get(k string) string { return k }
//- main.go
package main

import "example.com/app/kv"

func main() {
	s := kv.New()
	s.Get("a")
}
"#,
        expect![[r#"
            go.mod
            kv/kv.go
              def struct Store 3-3
              def function New 5-5
              def method Store.Get 7-7
            main.go
              def function main 5-8
              import 3 example.com/app/kv -> kv/kv.go
              call 6 New in main -> kv/kv.go:New [import]
              call 7 Get in main -> kv/kv.go:Store.Get [scope]
        "#]],
    );
}

/// A module path with a major version (`/v5`) is imported under the package's name, not
/// under `v5`, as Go's tools guess it; so are `gopkg.in/yaml.v3` and `go-isatty`.
#[test]
fn go_versioned_module_path_is_imported_under_the_package_name() {
    check(
        r#"
//- go.mod
module github.com/acme/web/v5
//- errors.go
package web

func NewError(code int) error { return nil }
//- middleware/auth.go
package middleware

import (
	"github.com/acme/web/v5"
	"gopkg.in/yaml.v3"
	"github.com/mattn/go-isatty"
)

func Auth() error {
	yaml.Marshal(nil)
	isatty.IsTerminal(0)
	return web.NewError(401)
}
"#,
        expect![[r#"
            errors.go
              def function NewError 3-3
            go.mod
            middleware/auth.go
              def function Auth 9-13
              import 4 github.com/acme/web/v5 -> errors.go
              import 5 gopkg.in/yaml.v3 -> ?
              import 6 github.com/mattn/go-isatty -> ?
              call 10 Marshal in Auth -> gopkg.in/yaml.v3.Marshal [external]
              call 11 IsTerminal in Auth -> github.com/mattn/go-isatty.IsTerminal [external]
              call 12 NewError in Auth -> errors.go:NewError [import]
        "#]],
    );
}

#[test]
fn java_static_imports_and_own_methods() {
    check(
        r#"
//- src/util/Maths.java
package util;

public class Maths {
    public static int twice(int x) { return 2 * x; }
}
//- src/app/Main.java
package app;

import static util.Maths.twice;

public class Main {
    int size() { return 1; }

    int run() {
        return twice(size());
    }
}
"#,
        expect![[r#"
            src/app/Main.java
              def class Main 5-11
              def method Main.size 6-6
              def method Main.run 8-10
              import 3 static util.Maths twice -> src/util/Maths.java
              call 9 twice in Main.run -> src/util/Maths.java:Maths.twice [import]
              call 9 size in Main.run -> src/app/Main.java:Main.size [exact]
            src/util/Maths.java
              def class Maths 3-5
              def method Maths.twice 4-4
        "#]],
    );
}

#[test]
fn c_includes_local_and_system() {
    check(
        r#"
//- include/buf.h
int buf_len(const char *s);
//- src/buf.c
#include <string.h>
#include "../include/buf.h"

int buf_len(const char *s) { return (int)strlen(s); }

int twice(const char *s) { return 2 * buf_len(s); }
"#,
        expect![[r#"
            include/buf.h
            src/buf.c
              def function buf_len 4-4
              def function twice 6-6
              import 1 system string.h -> ?
              import 2 ../include/buf.h -> include/buf.h
              call 4 strlen in buf_len -> ? [unresolved]
              call 6 buf_len in twice -> src/buf.c:buf_len [exact]
        "#]],
    );
}

/// C binds a function with external linkage by its name, program-wide: another file's one
/// non-`static` definition is the callee (what the linker does), counted like a scope
/// resolution. A `static` function of another file, a name two files define, a macro and
/// a call from C++ (overloads, namespaces) stay guesses.
#[test]
fn c_calls_bind_to_the_one_function_with_external_linkage() {
    check(
        r#"
//- src/zio.c
int fill(int n) { return n; }
static int peek(int n) { return n; }
int twin(void) { return 1; }
#define NEXT(z) fill(z)
//- src/lex.c
int twin(void) { return 2; }
int step(int z) { return fill(z) + peek(z) + twin() + NEXT(z); }
//- src/wrap.cpp
int wrap(int z) { return fill(z); }
"#,
        expect![[r#"
            src/lex.c
              def function twin 1-1
              def function step 2-2
              call 2 fill in step -> src/zio.c:fill [scope]
              call 2 peek in step -> ? [unresolved]
              call 2 twin in step -> src/lex.c:twin [exact]
              call 2 NEXT in step -> src/zio.c:NEXT [name-only]
            src/wrap.cpp
              def function wrap 1-1
              call 1 fill in wrap -> src/zio.c:fill [name-only]
            src/zio.c
              def function fill 1-1
              def function peek 2-2
              def function twin 3-3
              def macro NEXT 4-4
              call 4 fill in NEXT -> src/zio.c:fill [exact]
        "#]],
    );
}

/// A function-like macro's body is one token to tree-sitter: the calls it writes are read
/// from its text, each at its own line, made by the macro. Not calls: a parameter called
/// (`f(x)`), a member (`s->op(x)`, `s.op(x)`), a name pasted with `##`, words like
/// `sizeof` and `if`, and anything inside a string or a comment.
#[test]
fn c_macro_bodies_call_what_they_write() {
    check(
        r#"
//- m.c
int grow(int n);
#define GROW(s, f, x) \
  (sizeof(x) > 0 && (s)->op(x) && (s).op(x) ? grow(x) : f(x) + \
   pre_##x(1) + strlen("log(x)") + (s)->n)
#define SHRINK(x) /* it's not shrink(x) */ \
  shrink_now(x) // nor(x)
"#,
        expect![[r#"
            m.c
              def macro GROW 2-4
              def macro SHRINK 5-6
              call 3 grow in GROW -> ? [unresolved]
              call 4 strlen in GROW -> ? [unresolved]
              call 6 shrink_now in SHRINK -> ? [unresolved]
        "#]],
    );
}

/// A call through an included name that one header defines as a function-like macro and
/// another as an object-like one (zlib's `deflateInit`, renamed under `Z_PREFIX`): the call
/// is the function-like macro's.
#[test]
fn c_call_binds_to_the_function_like_macro_not_an_alias() {
    check(
        r#"
//- conf.h
#define start z_start
//- lib.h
#include "conf.h"
int start_(int level);
#define start(level) start_(level)
//- use.c
#include "lib.h"
int go(void) { return start(1); }
"#,
        expect![[r#"
            conf.h
              def constant start 1-1
            lib.h
              def macro start 3-3
              import 1 conf.h -> conf.h
              call 3 start_ in start -> ? [unresolved]
            use.c
              def function go 2-2
              import 1 lib.h -> lib.h
              call 2 start in go -> lib.h:start [import]
        "#]],
    );
}

/// C keeps struct tags apart from functions: `struct pane_resize` in the header and the
/// function `pane_resize` in another file. A call is the function's, never the tag's.
#[test]
fn c_call_never_binds_to_a_struct_tag_of_the_same_name() {
    check(
        r#"
//- app.h
struct pane_resize { int sx; };
void pane_resize(int sx);
//- pane.c
#include "app.h"
void pane_resize(int sx) { (void)sx; }
//- cmd.c
#include "app.h"
void rotate(void) { pane_resize(2); }
"#,
        expect![[r#"
            app.h
              def struct pane_resize 1-1
            cmd.c
              def function rotate 2-2
              import 1 app.h -> app.h
              call 2 pane_resize in rotate -> pane.c:pane_resize [scope]
            pane.c
              def function pane_resize 2-2
              import 1 app.h -> app.h
        "#]],
    );
}

#[test]
fn cpp_namespace_alias_and_qualified_calls() {
    check(
        r#"
//- geo.hpp
namespace geometry {
int area(int w, int h) { return w * h; }
}
//- main.cpp
#include "geo.hpp"
namespace g = geometry;

int main() {
    return g::area(2, 3);
}
"#,
        expect![[r#"
            geo.hpp
              def module geometry 1-3
              def function geometry::area 2-2
            main.cpp
              def function main 4-6
              import 1 geo.hpp -> geo.hpp
              import 2 namespace geometry as g -> ?
              call 5 area in main -> geo.hpp:geometry::area [import]
        "#]],
    );
}

#[test]
fn recursion_and_calls_outside_any_definition() {
    check(
        r#"
//- fact.py
def fact(n):
    return 1 if n == 0 else n * fact(n - 1)

print(fact(5))
"#,
        expect![[r#"
            fact.py
              def function fact 1-2
              call 2 fact in fact -> fact.py:fact [exact]
              call 4 print -> print [external]
              call 4 fact -> fact.py:fact [exact]
        "#]],
    );
}

#[test]
fn python_absolute_imports_come_from_the_import_roots_never_a_same_named_file() {
    // `import json` inside the package's own `json/` and `import typing` beside its own
    // `typing.py` mean the standard library; the package's modules are reached by their
    // full name (src layout), and a script's directory is on its own path only.
    check(
        r#"
//- src/pkg/__init__.py
//- src/pkg/json/__init__.py
import json

def loads(s):
    return json.loads(s)
//- src/pkg/typing.py
def cast(x):
    return x
//- src/pkg/app.py
import typing
from pkg import typing as ptyping

def run():
    typing.cast(int, 1)
    ptyping.cast(1)
//- tests/fixtures/pkg.py
def run():
    pass
//- tests/test_app.py
import pkg.app

def test_run():
    pkg.app.run()
"#,
        expect![[r#"
            src/pkg/__init__.py
            src/pkg/app.py
              def function run 4-6
              import 1 typing -> ?
              import 2 pkg typing as ptyping -> src/pkg/typing.py
              call 5 cast in run -> typing.cast [external]
              call 6 cast in run -> src/pkg/typing.py:cast [import]
            src/pkg/json/__init__.py
              def function loads 3-4
              import 1 json -> ?
              call 4 loads in loads -> json.loads [external]
            src/pkg/typing.py
              def function cast 1-2
            tests/fixtures/pkg.py
              def function run 1-2
            tests/test_app.py
              def function test_run 3-4
              import 1 pkg.app -> src/pkg/app.py
              call 4 run in test_run -> src/pkg/app.py:run [import]
        "#]],
    );
}

/// Receivers one step away, each kind a miss on real repositories before: a builder chain
/// (`new(Route).Path().Subrouter()`), a struct field read through a typed parameter, a
/// type assertion, a range variable, a generic call and a method through a type alias.
#[test]
fn go_chains_fields_assertions_ranges_and_aliases() {
    check(
        r#"
//- route.go
package mux

type Route struct {
	group *Group
}

type Group struct{}

func (g *Group) Match() bool { return true }

func (r *Route) Path(p string) *Route { return r }

func (r *Route) Subrouter() *Router { return nil }

func (r *Route) matches() bool { return r.group.Match() }

type Router struct{ routes []*Route }

func (r *Router) Handle() {}

type Alias = Route

func get[T any](x T) T { return x }

func use(m interface{}, a *Alias) {
	new(Route).Path("/").Subrouter().Handle()
	if g, ok := m.(*Group); ok {
		g.Match()
	}
	var rt Router
	for _, x := range rt.routes {
		x.Subrouter()
	}
	get[int](1)
	a.Path("/")
}
"#,
        expect![[r#"
            route.go
              def struct Route 3-5
              def struct Group 7-7
              def method Group.Match 9-9
              def method Route.Path 11-11
              def method Route.Subrouter 13-13
              def method Route.matches 15-15
              def struct Router 17-17
              def method Router.Handle 19-19
              def type Alias 21-21
              def function get 23-23
              def function use 25-36
              call 15 Match in Route.matches -> route.go:Group.Match [scope]
              call 26 new in use -> new [external]
              call 26 Path in use -> route.go:Route.Path [scope]
              call 26 Subrouter in use -> route.go:Route.Subrouter [scope]
              call 26 Handle in use -> route.go:Router.Handle [scope]
              call 28 Match in use -> route.go:Group.Match [scope]
              call 32 Subrouter in use -> route.go:Route.Subrouter [scope]
              call 34 get in use -> route.go:get [exact]
              call 35 Path in use -> route.go:Route.Path [scope]
        "#]],
    );
}

/// Fields stated in a constructor (`self.store = Store()`), read through `self` and
/// through a chain; a module-level instance imported from another module.
#[test]
fn python_fields_and_module_level_instances() {
    check(
        r#"
//- pkg/__init__.py
//- pkg/store.py
class Store:
    def get(self, k):
        return k

class Shelf:
    def __init__(self):
        self.store = Store()

    def find(self, k):
        return self.store.get(k)

shelf = Shelf()
//- pkg/app.py
from pkg import store
from pkg.store import shelf

def run():
    shelf.find(1)
    store.shelf.store.get(2)
    kwargs = {}
    kwargs.get(3)
"#,
        expect![[r#"
            pkg/__init__.py
            pkg/app.py
              def function run 4-8
              import 1 pkg store -> pkg/store.py
              import 2 pkg.store shelf -> pkg/store.py
              call 5 find in run -> pkg/store.py:Shelf.find [import]
              call 6 get in run -> ? [unresolved]
              call 8 get in run -> dict.get [external]
            pkg/store.py
              def class Store 1-3
              def method Store.get 2-3
              def class Shelf 5-10
              def method Shelf.__init__ 6-7
              def method Shelf.find 9-10
              def constant shelf 12-12
              call 7 Store in Shelf.__init__ -> pkg/store.py:Store [exact]
              call 10 get in Shelf.find -> pkg/store.py:Store.get [scope]
              call 12 Shelf in shelf -> pkg/store.py:Shelf [exact]
        "#]],
    );
}

/// A module-level instance exported by default and its interface's methods (a type
/// alias of an object type), a method's return type, an interface field, and a generic
/// call under `await`.
#[test]
fn typescript_module_instances_interfaces_and_generic_awaits() {
    check(
        r#"
//- src/types.ts
export type Client = {
	post: (url: string) => Reply;
	extend: (o: object) => Client;
};
export interface Reply {
	body: Body;
	text(): string;
}
export interface Body {
	read(): string;
}
//- src/index.ts
import type {Client} from './types';
const create = (): Client => ({} as Client);
const client = create();
export default client;
//- src/parse.ts
export const parse = async <T>(x: string): Promise<T> => JSON.parse(x) as T;
//- test/main.ts
import client from '../src/index';
import {parse} from '../src/parse';
async function t() {
	client.post('/').text();
	const api = client.extend({});
	api.post('/').body.read();
	await parse<number>('1');
}
"#,
        expect![[r#"
            src/index.ts
              def function create 2-2
              def constant client 3-3
              import 1 ./types Client -> src/types.ts
              call 3 create in client -> src/index.ts:create [exact]
            src/parse.ts
              def function parse 1-1
              call 1 parse in parse -> JSON.parse [external]
            src/types.ts
              def type Client 1-4
              def method Client.post 2-2
              def method Client.extend 3-3
              def interface Reply 5-8
              def method Reply.text 7-7
              def interface Body 9-11
              def method Body.read 10-10
            test/main.ts
              def function t 3-8
              import 1 ../src/index default as client -> src/index.ts
              import 2 ../src/parse parse -> src/parse.ts
              call 4 post in t -> src/types.ts:Client.post [import]
              call 4 text in t -> src/types.ts:Reply.text [scope]
              call 5 extend in t -> src/types.ts:Client.extend [import]
              call 6 post in t -> src/types.ts:Client.post [scope]
              call 6 read in t -> src/types.ts:Body.read [scope]
              call 7 parse in t -> src/parse.ts:parse [import]
        "#]],
    );
}

/// A struct field's type followed from `self.field` in an impl block, and a builder
/// chain through `Self`-returning methods.
#[test]
fn rust_struct_fields_and_builder_chains() {
    check(
        r#"
//- src/lib.rs
pub struct Set {
    items: Vec<u8>,
    inner: Inner,
}

pub struct Inner;

impl Inner {
    pub fn is_empty(&self) -> bool { true }
}

pub struct Builder;

impl Builder {
    pub fn new() -> Self { Builder }
    pub fn smart(self, on: bool) -> Self { self }
    pub fn build(self) -> Set { todo!() }
}

impl Set {
    pub fn empty(&self) -> bool {
        self.inner.is_empty()
    }
}

pub fn make() -> Set {
    Builder::new().smart(true).build()
}
"#,
        expect![[r#"
            src/lib.rs
              def struct Set 1-4
              def struct Inner 6-6
              def impl Inner 8-10
              def method Inner::is_empty 9-9
              def struct Builder 12-12
              def impl Builder 14-18
              def method Builder::new 15-15
              def method Builder::smart 16-16
              def method Builder::build 17-17
              def impl Set 20-24
              def method Set::empty 21-23
              def function make 26-28
              call 22 is_empty in Set::empty -> src/lib.rs:Inner::is_empty [scope]
              call 27 new in make -> src/lib.rs:Builder::new [scope]
              call 27 smart in make -> src/lib.rs:Builder::smart [scope]
              call 27 build in make -> src/lib.rs:Builder::build [scope]
        "#]],
    );
}

/// Elements of collections: a loop or comprehension variable over a typed list, an
/// element read by index; literals and `**kwargs` are built-in values, never a
/// repository class that happens to have a method of the same name.
#[test]
fn python_loop_elements_subscripts_and_literals() {
    check(
        r#"
//- shop.py
class Item:
    def weigh(self):
        return 1

    def get(self, k):
        return k

class Shelf:
    def __init__(self):
        self.items: list[Item] = []

    def total(self):
        for item in self.items:
            item.weigh()
        return [i.weigh() for i in self.items] + [self.items[0].weigh()]

def lookup(d, **kwargs):
    opts = {}
    opts.get(1)
    kwargs.get(2)
"#,
        expect![[r#"
            shop.py
              def class Item 1-6
              def method Item.weigh 2-3
              def method Item.get 5-6
              def class Shelf 8-15
              def method Shelf.__init__ 9-10
              def method Shelf.total 12-15
              def function lookup 17-20
              call 14 weigh in Shelf.total -> shop.py:Item.weigh [scope]
              call 15 weigh in Shelf.total -> shop.py:Item.weigh [scope]
              call 15 weigh in Shelf.total -> shop.py:Item.weigh [scope]
              call 19 get in lookup -> dict.get [external]
              call 20 get in lookup -> dict.get [external]
        "#]],
    );
}

/// `for … of` over a typed array, a callback over an array field, an element read by
/// index; `for … in` reads keys, so its variable stays untyped.
#[test]
fn typescript_for_of_callbacks_and_array_fields() {
    check(
        r#"
//- src/shop.ts
export class Item {
	weigh(): number { return 1; }
}

export class Shelf {
	items: Item[] = [];
	byName: Array<Item> = [];

	total(): number {
		for (const item of this.items) {
			item.weigh();
		}
		this.byName.forEach((it) => it.weigh());
		this.items.map(x => x.weigh());
		for (const k in this.items) {
			k.weigh();
		}
		return this.items[0].weigh();
	}
}
"#,
        expect![[r#"
            src/shop.ts
              def class Item 1-3
              def method Item.weigh 2-2
              def class Shelf 5-20
              def method Shelf.total 9-19
              call 11 weigh in Shelf.total -> src/shop.ts:Item.weigh [scope]
              call 13 forEach in Shelf.total -> Item[].forEach [external]
              call 13 weigh in Shelf.total -> src/shop.ts:Item.weigh [scope]
              call 14 map in Shelf.total -> Item[].map [external]
              call 14 weigh in Shelf.total -> src/shop.ts:Item.weigh [scope]
              call 16 weigh in Shelf.total -> src/shop.ts:Item.weigh [name-only]
              call 18 weigh in Shelf.total -> src/shop.ts:Item.weigh [scope]
        "#]],
    );
}

/// A `for` loop over a borrowed `Vec` field, a closure over `iter()`, and an element
/// read through `first().unwrap()`.
#[test]
fn rust_loop_elements_closures_and_unwraps() {
    check(
        r#"
//- src/lib.rs
pub struct Item;

impl Item {
    pub fn weigh(&self) -> u32 { 1 }
}

pub struct Shelf {
    items: Vec<Item>,
}

impl Shelf {
    pub fn total(&self) -> u32 {
        for item in &self.items {
            item.weigh();
        }
        self.items.iter().map(|i| i.weigh()).sum::<u32>();
        self.items.first().unwrap().weigh()
    }
}
"#,
        expect![[r#"
            src/lib.rs
              def struct Item 1-1
              def impl Item 3-5
              def method Item::weigh 4-4
              def struct Shelf 7-9
              def impl Shelf 11-19
              def method Shelf::total 12-18
              call 14 weigh in Shelf::total -> src/lib.rs:Item::weigh [scope]
              call 16 iter in Shelf::total -> Item[]::iter [external]
              call 16 map in Shelf::total -> Item[]::map [external]
              call 16 weigh in Shelf::total -> src/lib.rs:Item::weigh [scope]
              call 16 sum in Shelf::total -> ? [unresolved]
              call 17 first in Shelf::total -> Item[]::first [external]
              call 17 unwrap in Shelf::total -> ? [unresolved]
              call 17 weigh in Shelf::total -> src/lib.rs:Item::weigh [scope]
        "#]],
    );
}

/// Uses that are not calls: a decorator applied without arguments (plain and through a
/// module-level instance), a function passed as a value; a parameter passed on is not a
/// use of a same-named function.
#[test]
fn python_decorators_and_functions_passed_as_values() {
    check(
        r#"
//- app.py
class App:
    def teardown(self, f):
        return f

app = App()

def cleanup(exc):
    pass

def traced(f):
    return f

@traced
def handler():
    register(cleanup)

@app.teardown
def close_db(exc):
    pass

def register(callback):
    callbacks = [callback]
"#,
        expect![[r#"
            app.py
              def class App 1-3
              def method App.teardown 2-3
              def constant app 5-5
              def function cleanup 7-8
              def function traced 10-11
              def function handler 14-15
              def function close_db 18-19
              def function register 21-22
              call 5 App in app -> app.py:App [exact]
              decorator 13 traced -> app.py:traced [exact]
              call 15 register in handler -> app.py:register [exact]
              value 15 cleanup in handler -> app.py:cleanup [exact]
              decorator 17 teardown -> app.py:App.teardown [scope]
        "#]],
    );
}

/// Functions handed on as values in TypeScript, Go and Rust: a callback argument, a
/// handler registered by name, a method path passed to `map`.
#[test]
fn functions_passed_as_values_in_typescript_go_and_rust() {
    check(
        r#"
//- web/fmt.ts
export function fmt(x: number): string { return String(x); }
export function all(xs: number[]): string[] { return xs.map(fmt); }
//- srv/main.go
package main

func handler(w int) {}

func serve(mux *Mux) {
	mux.HandleFunc("/", handler)
}

type Mux struct{}

func (m *Mux) HandleFunc(p string, h func(int)) {}
//- src/lib.rs
pub struct Item;

impl Item {
    pub fn weight(&self) -> u32 { 1 }
}

fn double(x: u32) -> u32 { x * 2 }

pub fn total(items: &[Item]) -> Vec<u32> {
    items.iter().map(Item::weight).map(double).collect()
}
"#,
        expect![[r#"
            src/lib.rs
              def struct Item 1-1
              def impl Item 3-5
              def method Item::weight 4-4
              def function double 7-7
              def function total 9-11
              call 10 iter in total -> Item[]::iter [external]
              call 10 map in total -> Item[]::map [external]
              value 10 weight in total -> src/lib.rs:Item::weight [scope]
              call 10 map in total -> ? [unresolved]
              value 10 double in total -> src/lib.rs:double [exact]
              call 10 collect in total -> ? [unresolved]
            srv/main.go
              def function handler 3-3
              def function serve 5-7
              def struct Mux 9-9
              def method Mux.HandleFunc 11-11
              call 6 HandleFunc in serve -> srv/main.go:Mux.HandleFunc [scope]
              value 6 handler in serve -> srv/main.go:handler [exact]
            web/fmt.ts
              def function fmt 1-1
              def function all 2-2
              call 1 String in fmt -> ? [unresolved]
              call 2 map in all -> number[].map [external]
              value 2 fmt in all -> web/fmt.ts:fmt [exact]
        "#]],
    );
}

/// Functions stored to be called later: assigned to a field or a name, or a declaration's
/// value, in Python, TypeScript, Go and C. pluggy's `_multicall` was "not called anywhere"
/// but a benchmark, though `PluginManager.__init__` stores it (`self._inner_hookexec =
/// _multicall`) for every hook call. A plain value assigned (a local, a parameter, a
/// Go variable) is no use.
#[test]
fn functions_stored_to_be_called_later() {
    check(
        r#"
//- hooks/calls.py
def multicall(impls):
    return [i() for i in impls]
//- hooks/manager.py
from hooks.calls import multicall

class Manager:
    def __init__(self, size):
        self._exec = multicall
        limit = size
        self._limit = limit
//- web/save.ts
export function save(x: number): number { return x; }
export function wire(form: { onSubmit: unknown }, n: number) {
  const handler = save;
  form.onSubmit = save;
  const count = n;
  return [handler, count];
}
//- srv/main.go
package main

func serve(w int) {}

func wire(n int) {
	h := serve
	var m int
	m = n
	_, _ = h, m
}
//- src/loop.c
static void on_read(int n) {}

struct req { void (*cb)(int); int n; };

void start(struct req *r, int n) {
    r->cb = on_read;
    r->n = n;
    void (*f)(int) = on_read;
}
"#,
        expect![[r#"
            hooks/calls.py
              def function multicall 1-2
              call 2 i in multicall -> ? [unresolved]
            hooks/manager.py
              def class Manager 3-7
              def method Manager.__init__ 4-7
              import 1 hooks.calls multicall -> hooks/calls.py
              value 5 multicall in Manager.__init__ -> hooks/calls.py:multicall [import]
            src/loop.c
              def function on_read 1-1
              def struct req 3-3
              def function start 5-9
              value 6 on_read in start -> src/loop.c:on_read [exact]
              value 8 on_read in start -> src/loop.c:on_read [exact]
            srv/main.go
              def function serve 3-3
              def function wire 5-10
              value 6 serve in wire -> srv/main.go:serve [exact]
            web/save.ts
              def function save 1-1
              def function wire 2-7
              value 3 save in wire -> web/save.ts:save [exact]
              value 4 save in wire -> web/save.ts:save [exact]
        "#]],
    );
}

/// Named function expressions are definitions wherever they stand: axios's node adapter is
/// `export default isHttpAdapterSupported && function httpAdapter(config) {…}`, 520
/// lines with its timeout in `req.setTimeout(timeout, function handleRequestTimeout()
/// {…})`, and none of it was a definition ("where is the request timeout handled?" cited
/// a constant). One a declarator holds is the declarator's (`run`, not `go`).
#[test]
fn javascript_named_function_expressions_are_definitions() {
    check(
        r#"
//- lib/http.js
import { settle } from './settle.js';

export default supported && function httpAdapter(config) {
  return new Promise(function dispatch(resolve, reject) {
    req.setTimeout(config.timeout, function handleRequestTimeout() {
      reject(settle(config));
    });
  });
};

const run = function go() { return settle(1); };
//- lib/settle.js
export function settle(c) { return c; }
"#,
        expect![[r#"
            lib/http.js
              def function httpAdapter 3-9
              def function httpAdapter.dispatch 4-8
              def function httpAdapter.dispatch.handleRequestTimeout 5-7
              def function run 11-11
              import 1 ./settle.js settle -> lib/settle.js
              call 4 Promise in httpAdapter -> ? [unresolved]
              call 5 setTimeout in httpAdapter.dispatch -> ? [unresolved]
              call 6 reject in httpAdapter.dispatch.handleRequestTimeout -> ? [unresolved]
              call 6 settle in httpAdapter.dispatch.handleRequestTimeout -> lib/settle.js:settle [import]
              call 11 settle in run -> lib/settle.js:settle [import]
            lib/settle.js
              def function settle 1-1
        "#]],
    );
}

/// Calls inside a macro's arguments, read from its tokens: a plain call, a path call, a
/// method on a typed local, a chain on an unknown value (left unresolved), nested macros.
#[test]
fn rust_calls_inside_macro_arguments() {
    check(
        r#"
//- src/lib.rs
pub struct Filter;

impl Filter {
    pub fn before(s: &str) -> Option<Filter> { None }
    pub fn applies(&self) -> bool { true }
}

fn dash(s: &str) -> bool { s.starts_with('-') }

#[test]
fn t() {
    let f: Filter = Filter;
    assert!(dash("-x"));
    assert_eq!(Filter::before("1m").is_none(), f.applies());
    println!("{:?}", vec![dash(&format!("{}", 1))]);
}
"#,
        expect![[r#"
            src/lib.rs
              def struct Filter 1-1
              def impl Filter 3-6
              def method Filter::before 4-4
              def method Filter::applies 5-5
              def function dash 8-8
              def function t 11-16
              call 8 starts_with in dash -> str::starts_with [external]
              call 13 dash in t -> src/lib.rs:dash [exact]
              call 14 before in t -> src/lib.rs:Filter::before [scope]
              call 14 is_none in t -> ? [unresolved]
              call 14 applies in t -> src/lib.rs:Filter::applies [scope]
              call 15 dash in t -> src/lib.rs:dash [exact]
        "#]],
    );
}

/// rust-lang/log's macros: the calls a `macro_rules!` body expands to (`$crate::max_level()`
/// in `log_enabled!`) are read, as uses apart from calls: they happen where the macro is
/// used. Before, `max_level` had no use in the repository at all.
#[test]
fn rust_macro_rules_bodies_call_what_they_expand_to() {
    check(
        r#"
//- src/lib.rs
pub fn max_level() -> usize { 3 }

pub mod api {
    pub fn log(msg: &str) -> usize { msg.len() }
}

#[macro_export]
macro_rules! log {
    ($lvl:expr, $msg:expr) => {
        if $lvl <= $crate::max_level() {
            $crate::api::log($msg);
        }
    };
    ($msg:expr) => { log!(1, $msg) };
}
"#,
        expect![[r#"
            src/lib.rs
              def function max_level 1-1
              def module api 3-5
              def function api::log 4-4
              def macro log 8-15
              call 4 len in api::log -> str::len [external]
              macro 10 max_level in log -> src/lib.rs:max_level [import]
              macro 11 log in log -> src/lib.rs:api::log [import]
        "#]],
    );
}

/// sharkdp/pastel's tests: a method called through a turbofish inside a macro's tokens
/// (`red().mix::<Rgb>(…)` in `assert_eq!`) was no call at all, and a function bound to a
/// name by its path (`let mix = Color::mix::<Lab>;`) was called as the module's own
/// function of that name (a test named `mix`), `exact`.
#[test]
fn rust_turbofish_in_macros_and_functions_bound_by_their_path() {
    check(
        r#"
//- src/lib.rs
pub struct Color;

impl Color {
    pub fn red() -> Color { Color }
    pub fn mix<C>(&self, other: &Color) -> Color { Color }
}

#[test]
fn mix() {
    assert_eq!(Color::red().mix::<Vec<u8>>(&Color::red()), Color);
}

#[test]
fn scale() {
    let mix = Color::mix::<u8>;
    let blend = mix(&Color::red(), &Color::red());
}
"#,
        expect![[r#"
            src/lib.rs
              def struct Color 1-1
              def impl Color 3-6
              def method Color::red 4-4
              def method Color::mix 5-5
              def function mix 9-11
              def function scale 14-17
              call 10 red in mix -> src/lib.rs:Color::red [scope]
              call 10 mix in mix -> src/lib.rs:Color::mix [scope]
              call 10 red in mix -> src/lib.rs:Color::red [scope]
              call 16 mix in scale -> src/lib.rs:Color::mix [scope]
              call 16 red in scale -> src/lib.rs:Color::red [scope]
              call 16 red in scale -> src/lib.rs:Color::red [scope]
        "#]],
    );
}

/// Another crate of the Cargo workspace, named as code writes it (`glob_set` for package
/// `glob-set`): its types and functions, not something outside the repository.
#[test]
fn rust_workspace_member_crates_by_name() {
    check(
        r#"
//- Cargo.toml
[package]
name = "app"

[workspace]
members = ["crates/glob-set"]
//- crates/glob-set/Cargo.toml
[package]
name = "glob-set"
version = "0.1.0"
//- crates/glob-set/src/lib.rs
pub struct GlobSet;

impl GlobSet {
    pub fn empty() -> GlobSet { GlobSet }
}

pub fn build() -> GlobSet { GlobSet }
//- src/main.rs
use glob_set::GlobSet;

fn main() {
    GlobSet::empty();
    glob_set::build();
    other_crate::run();
}
"#,
        expect![[r#"
            Cargo.toml
            crates/glob-set/Cargo.toml
            crates/glob-set/src/lib.rs
              def struct GlobSet 1-1
              def impl GlobSet 3-5
              def method GlobSet::empty 4-4
              def function build 7-7
            src/main.rs
              def function main 3-7
              import 1 glob_set GlobSet -> crates/glob-set/src/lib.rs
              call 4 empty in main -> crates/glob-set/src/lib.rs:GlobSet::empty [import]
              call 5 build in main -> crates/glob-set/src/lib.rs:build [import]
              call 6 run in main -> ? [unresolved]
        "#]],
    );
}

/// A binary of the package names its own library crate by the package's name, down a
/// module path (`bat::config::get_pager_executable(…)` in sharkdp/bat's
/// `src/bin/bat/main.rs`), though test data holds another `Cargo.toml` of that name.
#[test]
fn rust_binary_calls_its_own_library_by_the_package_name() {
    check(
        r#"
//- Cargo.toml
[package]
name = "pager-tool"
//- tests/syntax/source/Cargo.toml
[package]
name = "pager-tool"
//- src/lib.rs
pub mod config;
//- src/config.rs
pub struct Config;

impl Config {
    pub fn load() -> Config { Config }
}

pub fn get_pager() -> Option<String> { None }
//- src/bin/tool/config.rs
pub fn config_file() {}
//- src/bin/tool/main.rs
mod config;

use pager_tool::{config::Config};

fn main() {
    use report::{collector::*, Report};
    pager_tool::config::get_pager();
    let pager = pager_tool::config::get_pager(
        app.matches.get_one::<String>("pager").map(|s| s.as_str()),
    )
    .unwrap_or_else(|| "less".to_owned());
    pager_tool::config::Config::load();
    pager_tool::missing::run();
    config::config_file();
    crate::config::config_file();
}
"#,
        expect![[r#"
            Cargo.toml
            src/bin/tool/config.rs
              def function config_file 1-1
            src/bin/tool/main.rs
              def function main 5-16
              import 1 mod config -> src/bin/tool/config.rs
              import 3 pager_tool::config Config -> src/config.rs
              import 6 report::collector -> ?
              import 6 report Report -> ?
              call 7 get_pager in main -> src/config.rs:get_pager [import]
              call 8 get_pager in main -> src/config.rs:get_pager [import]
              call 9 get_one in main -> ? [unresolved]
              call 9 map in main -> ? [unresolved]
              call 9 as_str in main -> ? [unresolved]
              call 11 unwrap_or_else in main -> String::unwrap_or_else [external]
              call 11 to_owned in main -> ? [unresolved]
              call 12 load in main -> ? [unresolved]
              call 13 run in main -> ? [unresolved]
              call 14 config_file in main -> src/bin/tool/config.rs:config_file [import]
              call 15 config_file in main -> src/bin/tool/config.rs:config_file [import]
            src/config.rs
              def struct Config 1-1
              def impl Config 3-5
              def method Config::load 4-4
              def function get_pager 7-7
            src/lib.rs
              import 1 mod config -> src/config.rs
            tests/syntax/source/Cargo.toml
        "#]],
    );
}

#[test]
fn ruby_singleton_methods_constructors_paths_and_implicit_self() {
    // `Foo.new` builds a `Foo` (the call resolves to the class and types the variable and
    // `Foo.new.bar`); `A::B.m` is a path; a bare call inside a class reaches the class's
    // own method before a top-level one of the same name; `require_relative` binds a file.
    check(
        r#"
//- lib/a/store.rb
module A
  # Keeps things.
  class Store
    LIMIT = 3

    def self.open(path)
      new.load(path)
    end

    def load(path)
      File.read(path)
    end

    def size
      count(1)
    end

    def count(n)
      n
    end

    private def secret
      size()
    end
  end
end
//- main.rb
require_relative "lib/a/store"
require "json"

def count(x)
  x
end

s = A::Store.new
s.load("x")
A::Store.open("y")
A::Store.new.size
count(2)
"#,
        expect![[r#"
            lib/a/store.rb
              def module A 1-26
              def class A.Store 3-25
              def constant A.Store.LIMIT 4-4
              def method A.Store.open 6-8
              def method A.Store.load 10-12
              def method A.Store.size 14-16
              def method A.Store.count 18-20
              def method A.Store.secret 22-24
              call 7 load in A.Store.open -> lib/a/store.rb:A.Store.load [name-only]
              call 11 read in A.Store.load -> File.read [external]
              call 15 count in A.Store.size -> lib/a/store.rb:A.Store.count [exact]
              call 22 private in A.Store.secret -> private [external]
              call 23 size in A.Store.secret -> lib/a/store.rb:A.Store.size [exact]
            main.rb
              def function count 4-6
              import 1 ./lib/a/store -> lib/a/store.rb
              import 2 json -> ?
              call 1 require_relative -> require_relative [external]
              call 2 require -> require [external]
              call 8 Store -> lib/a/store.rb:A.Store [scope]
              call 9 load -> lib/a/store.rb:A.Store.load [scope]
              call 10 open -> lib/a/store.rb:A.Store.open [scope]
              call 11 Store -> lib/a/store.rb:A.Store [scope]
              call 11 size -> lib/a/store.rb:A.Store.size [scope]
              call 12 count -> main.rb:count [exact]
        "#]],
    );
}

#[test]
fn bash_functions_commands_and_source() {
    // A sourced file's functions are in scope; the script's own function of the same
    // name wins; a command named by a variable is not a call; programs are external.
    check(
        r#"
//- lib/a.sh
greet() {
  echo "hi $1"
}
say() {
  greet "$@"
}
//- run.sh
#!/bin/bash
source ./lib/a.sh
say() {
  printf '%s\n' "$*"
}
cmd=ls
"$cmd" -l
say x
greet y
git status
"#,
        expect![[r#"
            lib/a.sh
              def function greet 1-3
              def function say 4-6
              call 2 echo in greet -> echo [external]
              call 5 greet in say -> lib/a.sh:greet [exact]
            run.sh
              def function say 3-5
              import 2 ./lib/a.sh -> lib/a.sh
              call 2 source -> source [external]
              call 4 printf in say -> printf [external]
              call 8 say -> run.sh:say [exact]
              call 9 greet -> lib/a.sh:greet [import]
              call 10 git -> ? [unresolved]
        "#]],
    );
}

#[test]
fn php_namespaces_use_aliases_fields_and_parent() {
    // `use` binds a class by its namespace path (PSR-4: `src/Store/Box.php`), under its
    // alias too; a namespaced name is read by its last segment; a promoted constructor
    // parameter types `$this->x`; `parent::` is the base class, `static::` the class
    // itself; `require` of `__DIR__ . '/…'` binds a file; a builtin stays external.
    check(
        r#"
//- src/Store/Box.php
<?php
namespace App\Store;

/** Holds one thing. */
class Box
{
    public const SIZE = 1;

    public function __construct(public string $label) {}

    public function open(): string
    {
        return strtoupper($this->label);
    }

    public static function make(string $l): static
    {
        return new static($l);
    }
}

class Crate extends Box
{
    public function open(): string
    {
        return parent::open() . static::make("x")?->open();
    }
}
//- src/helpers.php
<?php
namespace App;

function wrap(string $s): string
{
    return "[" . $s . "]";
}
//- main.php
<?php
require_once __DIR__ . '/src/helpers.php';

use App\Store\{Box as Carton, Crate};
use function App\wrap;

class Shelf
{
    public function __construct(private Carton $box) {}

    public function show(): string
    {
        return wrap($this->box->open());
    }
}

$c = new \App\Store\Crate("c");
$c->open();
(new Shelf(Carton::make("b")))->show();
\App\wrap("z");
"#,
        expect![[r#"
            main.php
              def class Shelf 7-15
              def method Shelf.__construct 9-9
              def method Shelf.show 11-14
              import 2 ./src/helpers.php -> src/helpers.php
              import 4 App\Store Box as Carton -> src/Store/Box.php
              import 4 App\Store Crate -> src/Store/Box.php
              import 5 App wrap -> src/helpers.php
              call 13 wrap in Shelf.show -> src/helpers.php:wrap [import]
              call 13 open in Shelf.show -> src/Store/Box.php:Box.open [scope]
              call 17 Crate -> src/Store/Box.php:Crate [import]
              call 18 open -> src/Store/Box.php:Crate.open [scope]
              call 19 Shelf -> main.php:Shelf [exact]
              call 19 make -> src/Store/Box.php:Box.make [import]
              call 19 show -> main.php:Shelf.show [scope]
              call 20 wrap -> src/helpers.php:wrap [import]
            src/Store/Box.php
              def class Box 5-20
              def constant Box.SIZE 7-7
              def method Box.__construct 9-9
              def method Box.open 11-14
              def method Box.make 16-19
              def class Crate 22-28
              def method Crate.open 24-27
              call 13 strtoupper in Box.open -> strtoupper [external]
              call 18 Box in Box.make -> src/Store/Box.php:Box [exact]
              call 26 open in Crate.open -> src/Store/Box.php:Box.open [scope]
              call 26 make in Crate.open -> src/Store/Box.php:Box.make [scope]
              call 26 open in Crate.open -> ? [unresolved]
            src/helpers.php
              def function wrap 4-7
        "#]],
    );
}

#[test]
fn lua_modules_methods_and_require() {
    // `require` binds a module under its local name (`a.b` is `a/b.lua`, or
    // `a/b/init.lua`); its functions are the returned table's (`M.f`); `T.new` types the
    // variable, `self:m()` is the table's own method; a base-library function stays
    // external; a bare `require` imports the whole file.
    check(
        r#"
//- lib/a/init.lua
local M = {}

-- Opens a store.
function M.open(path)
  return M.check(path)
end

function M.check(path)
  return path
end

return M
//- box.lua
local Box = {}
Box.__index = Box

function Box.new(label)
  return setmetatable({ label = label }, Box)
end

function Box:open()
  return self:seal()
end

function Box:seal()
  return self.label
end

return Box
//- main.lua
local a = require("lib.a")
local Box = require "box"
require("missing.mod")
local open = require("lib.a").open

local b = Box.new("x")
b:open()
a.open("p")
print(a.check("q"))
"#,
        expect![[r#"
            box.lua
              def method Box.new 4-6
              def method Box.open 8-10
              def method Box.seal 12-14
              call 5 setmetatable in Box.new -> setmetatable [external]
              call 9 seal in Box.open -> box.lua:Box.seal [scope]
            lib/a/init.lua
              def method M.open 4-6
              def method M.check 8-10
              call 5 check in M.open -> lib/a/init.lua:M.check [scope]
            main.lua
              import 1 lib.a as a -> lib/a/init.lua
              import 2 box as Box -> box.lua
              import 3 missing.mod -> ?
              call 1 require -> require [external]
              call 2 require -> require [external]
              call 3 require -> require [external]
              call 4 require -> require [external]
              call 6 new -> box.lua:Box.new [import]
              call 7 open -> box.lua:Box.open [scope]
              call 8 open -> lib/a/init.lua:M.open [import]
              call 9 print -> print [external]
              call 9 check -> lib/a/init.lua:M.check [import]
        "#]],
    );
}

#[cfg(feature = "lang-swift")]
#[test]
fn swift_modules_imports_and_extensions() {
    // The files of a module (`Sources/<Name>/`, subfolders too) see each other's top-level
    // names without an import; `import Name` makes another module's names visible and
    // binds the module's own name (`Geo.area`); `import struct Geo.Point` binds one name;
    // a module outside the repository is external. Methods of an extension are the
    // type's (implicit `self` reaches them), a protocol extension's are reached from a
    // conforming type, a `typealias` has its target's members; `.zero()` is an implicit
    // member (its type is the context's) and is not read.
    check(
        r#"
//- Sources/Geo/Shapes/Point.swift
/// A point.
public struct Point: Shape {
    public let x: Int

    public func moved(by d: Int) -> Point {
        return Point(x: offset(x, d))
    }
}

public typealias Spot = Point
//- Sources/Geo/Math.swift
func offset(_ a: Int, _ b: Int) -> Int {
    return a + b
}

public func area(_ p: Point) -> Int {
    return p.x * p.x
}

public protocol Shape {}

extension Shape {
    public func name() -> String {
        return "shape"
    }
}

extension Point {
    public func twice() -> Point {
        return moved(by: x).moved(by: 0)
    }
}
//- Sources/App/main.swift
import Foundation
import Geo
import struct Geo.Point

let origin = Point(x: 0)
let s: Spot = origin.twice()
print(Geo.area(s), s.name(), area(origin))
let z: Point = .zero()
FileManager.default.removeItem(atPath: "x")
"#,
        expect![[r#"
            Sources/App/main.swift
              def constant origin 5-5
              def constant s 6-6
              def constant z 8-8
              import 1 Foundation -> ?
              import 2 Geo -> Sources/Geo/Math.swift
              import 3 Geo Point -> Sources/Geo/Math.swift
              call 5 Point in origin -> Sources/Geo/Shapes/Point.swift:Point [import]
              call 6 twice in s -> Sources/Geo/Math.swift:Point.twice [scope]
              call 7 print -> print [external]
              call 7 area -> Sources/Geo/Math.swift:area [import]
              call 7 name -> Sources/Geo/Math.swift:Shape.name [scope]
              call 7 area -> Sources/Geo/Math.swift:area [import]
              call 9 removeItem -> ? [unresolved]
            Sources/Geo/Math.swift
              def function offset 1-3
              def function area 5-7
              def interface Shape 9-9
              def impl Shape 11-15
              def method Shape.name 12-14
              def impl Point 17-21
              def method Point.twice 18-20
              call 19 moved in Point.twice -> Sources/Geo/Shapes/Point.swift:Point.moved [scope]
              call 19 moved in Point.twice -> Sources/Geo/Shapes/Point.swift:Point.moved [scope]
            Sources/Geo/Shapes/Point.swift
              def struct Point 2-8
              def method Point.moved 5-7
              def type Spot 10-10
              call 6 Point in Point.moved -> Sources/Geo/Shapes/Point.swift:Point [exact]
              call 6 offset in Point.moved -> Sources/Geo/Math.swift:offset [scope]
        "#]],
    );
}

#[cfg(feature = "lang-kotlin")]
#[test]
fn kotlin_imports_aliases_members_and_packages() {
    // `import a.b.C as D` names a class or a top-level function of package `a.b` (the
    // directory ending in `a/b`); `import a.b.*` the package; `import a.b.C.f` a member of
    // class or object `C` (a companion's: `C.Companion.f`); a file sees its own package's
    // top-level names unimported; an extension function is a method of the type it
    // extends; a standard-library function stays external; a package the repository does
    // not hold is external.
    check(
        r#"
//- src/a/store/Store.kt
package a.store

/** Opens a store. */
class Store(val path: String) {
    fun open(): Store = check(this)

    companion object {
        fun create(path: String): Store = Store(path)
    }
}

object Registry {
    fun find(name: String): Store = Store.create(name)
}

fun Store.close(): Boolean = true

fun check(s: Store): Store = s
//- src/a/store/Util.kt
package a.store

fun touch(p: String): Store = check(Store(p))
//- src/a/app/Main.kt
package a.app

import a.store.Store as Db
import a.store.*
import a.store.Registry.find
import a.store.Store.Companion.create as make
import a.store.close
import org.other.Thing

fun main() {
    val db = Db("x").open()
    db.close()
    touch("y")
    find("z")
    make("w")
    listOf(1)
    Thing()
}
"#,
        expect![[r#"
            src/a/app/Main.kt
              def function main 10-18
              import 3 a.store Store as Db -> src/a/store/Store.kt
              import 4 a.store -> src/a/store/Store.kt
              import 5 static a.store.Registry find -> src/a/store/Store.kt
              import 6 static a.store.Store.Companion create as make -> src/a/store/Store.kt
              import 7 a.store close -> src/a/store/Store.kt
              import 8 org.other Thing -> ?
              call 11 Db in main -> src/a/store/Store.kt:Store [import]
              call 11 open in main -> src/a/store/Store.kt:Store.open [scope]
              call 12 close in main -> src/a/store/Store.kt:Store.close [scope]
              call 13 touch in main -> src/a/store/Util.kt:touch [import]
              call 14 find in main -> src/a/store/Store.kt:Registry.find [import]
              call 15 make in main -> src/a/store/Store.kt:Store.create [import]
              call 16 listOf in main -> listOf [external]
              call 17 Thing in main -> org.other.Thing [external]
            src/a/store/Store.kt
              def class Store 4-10
              def method Store.open 5-5
              def method Store.create 8-8
              def class Registry 12-14
              def method Registry.find 13-13
              def method Store.close 16-16
              def function check 18-18
              call 5 check in Store.open -> src/a/store/Store.kt:check [exact]
              call 8 Store in Store.create -> src/a/store/Store.kt:Store [exact]
              call 13 create in Registry.find -> src/a/store/Store.kt:Store.create [scope]
            src/a/store/Util.kt
              def function touch 3-3
              call 3 check in touch -> src/a/store/Store.kt:check [scope]
              call 3 Store in touch -> src/a/store/Store.kt:Store [scope]
        "#]],
    );
}

#[cfg(feature = "lang-scala")]
#[test]
fn scala_imports_objects_and_typed_receivers() {
    // `import a.{B => C}` aliases a class; `import a.Obj.f` and `import a.Obj._` bring an
    // object's members in; `import a.b._` a package's files (Mill's `a/b/src` too); a
    // hidden name (`C => _`) imports nothing and `scala.…` is external. Class parameters
    // and typed `val`s type their calls, `new T` and `T(…)` the values they build; a
    // member read without parentheses (`s.size`) and an infix call (`a max b`) are calls;
    // an inherited trait method is reached through `this` implicitly and by type.
    check(
        r#"
//- store/src/Store.scala
package store

/** A key-value store. */
trait Base {
  def size: Int = 0
  def max(other: Base): Base = this
}

class Store(path: String) extends Base {
  def get(k: String): String = k
}

object Store {
  def open(p: String): Store = new Store(p)
  def close(s: Store): Unit = ()
}
//- store/src/Keys.scala
package store

object Keys {
  def norm(k: String): String = k.trim
}
def helper(k: String): String = Keys.norm(k)
//- app/Main.scala
package app

import store.{Store => Db, Base => _}
import store.Store.open
import store.Keys._
import store._
import scala.collection.mutable.ListBuffer

class Service(db: Db) {
  def run(): String = {
    val other: Db = open("x")
    val b = ListBuffer[String]()
    db.get(norm("a")) + other.size + (db max other) + helper("k")
  }
  def stop(): Unit = Db.close(db)
}
"#,
        expect![[r#"
            app/Main.scala
              def class Service 9-16
              def method Service.run 10-14
              def method Service.stop 15-15
              import 3 store Store as Db -> store/src/Store.scala
              import 4 static store.Store open -> store/src/Store.scala
              import 5 static store.Keys -> store/src/Keys.scala
              import 6 store -> store/src/Keys.scala
              import 7 scala.collection.mutable ListBuffer -> ?
              call 11 open in Service.run -> store/src/Store.scala:Store.open [import]
              call 12 ListBuffer in Service.run -> scala.collection.mutable.ListBuffer [external]
              call 13 get in Service.run -> store/src/Store.scala:Store.get [scope]
              call 13 norm in Service.run -> store/src/Keys.scala:Keys.norm [import]
              call 13 size in Service.run -> store/src/Store.scala:Base.size [scope]
              call 13 max in Service.run -> store/src/Store.scala:Base.max [scope]
              call 13 helper in Service.run -> store/src/Keys.scala:helper [import]
              call 15 close in Service.stop -> store/src/Store.scala:Store.close [import]
            store/src/Keys.scala
              def class Keys 3-5
              def method Keys.norm 4-4
              def function helper 6-6
              call 4 trim in Keys.norm -> String.trim [external]
              call 6 norm in helper -> store/src/Keys.scala:Keys.norm [scope]
            store/src/Store.scala
              def trait Base 4-7
              def method Base.size 5-5
              def method Base.max 6-6
              def class Store 9-11
              def method Store.get 10-10
              def class Store 13-16
              def method Store.open 14-14
              def method Store.close 15-15
              call 14 Store in Store.open -> store/src/Store.scala:Store [exact]
        "#]],
    );
}

#[cfg(feature = "lang-swift")]
#[test]
fn swift_typed_receivers_and_operators() {
    // A value is typed by its annotation, a constructor (a generic one too), a cast, `if
    // let`/`guard let`, a `for` loop over an array, a closure's parameter or `$0` over an
    // element-wise method, a stored property (`self.store`, or bare inside the type), and
    // the return type of what it is read from; `super.m()` is the base class's. A call the
    // grammar reads with an operator in its callee (`1 + f(x)`) is the call on the right.
    check(
        r#"
//- Sources/Kit/Store.swift
class Store {
    func open() -> Handle? { return Handle() }
    func close() {}
}

class Handle {
    func read() -> Int { return 1 }
    static func make() -> Handle { return Handle() }
}

class Box<T> {
    func get() -> Int { return 0 }
}

class Cache: Store {
    let store: Store = Store()
    var handles: [Handle] = []

    override func close() {
        super.close()
        self.store.close()
        store.close()
    }

    func total(_ any: Any) -> Int {
        guard let h = store.open() else { return 0 }
        if let s = any as? Store { s.close() }
        var n = 1 + h.read()
        for x in handles { n += x.read() }
        handles.forEach { $0.read() }
        handles.forEach { x in x.read() }
        n += Box<Int>().get() + Handle.make().read()
        return n
    }
}
"#,
        expect![[r#"
            Sources/Kit/Store.swift
              def class Store 1-4
              def method Store.open 2-2
              def method Store.close 3-3
              def class Handle 6-9
              def method Handle.read 7-7
              def method Handle.make 8-8
              def class Box 11-13
              def method Box.get 12-12
              def class Cache 15-35
              def method Cache.close 19-23
              def method Cache.total 25-34
              call 2 Handle in Store.open -> Sources/Kit/Store.swift:Handle [exact]
              call 8 Handle in Handle.make -> Sources/Kit/Store.swift:Handle [exact]
              call 16 Store in Cache -> Sources/Kit/Store.swift:Store [exact]
              call 20 close in Cache.close -> Sources/Kit/Store.swift:Store.close [scope]
              call 21 close in Cache.close -> Sources/Kit/Store.swift:Store.close [scope]
              call 22 close in Cache.close -> Sources/Kit/Store.swift:Store.close [scope]
              call 26 open in Cache.total -> Sources/Kit/Store.swift:Store.open [scope]
              call 27 close in Cache.total -> Sources/Kit/Store.swift:Store.close [scope]
              call 28 read in Cache.total -> Sources/Kit/Store.swift:Handle.read [scope]
              call 29 read in Cache.total -> Sources/Kit/Store.swift:Handle.read [scope]
              call 30 forEach in Cache.total -> Handle[].forEach [external]
              call 30 read in Cache.total -> Sources/Kit/Store.swift:Handle.read [scope]
              call 31 forEach in Cache.total -> Handle[].forEach [external]
              call 31 read in Cache.total -> Sources/Kit/Store.swift:Handle.read [scope]
              call 32 Box in Cache.total -> Sources/Kit/Store.swift:Box [exact]
              call 32 get in Cache.total -> Sources/Kit/Store.swift:Box.get [scope]
              call 32 make in Cache.total -> Sources/Kit/Store.swift:Handle.make [scope]
              call 32 read in Cache.total -> Sources/Kit/Store.swift:Handle.read [scope]
        "#]],
    );
}

#[cfg(feature = "lang-kotlin")]
#[test]
fn kotlin_typed_receivers_properties_and_super() {
    // A value is typed by its declared type (a parameter, `val x: T`, a `val` constructor
    // parameter, which is the property `this.x` too), by the class it constructs or the
    // return type of the function it calls, through `?.` and `!!`; a loop variable is an
    // element of a `List<T>`; `super.f()` is the superclass's `f`; a plain call in a class
    // is its own method first (implicit `this`); a Java class of the project is called
    // like a Kotlin one (one JVM family).
    check(
        r#"
//- src/a/util/Strings.java
package a.util;

public class Strings {
    public static String pad(String s) { return s; }
}
//- src/a/shapes/Shapes.kt
package a.shapes

import a.util.Strings

open class Shape(val label: String) {
    open fun area(): Double = 0.0
    open fun describe(): String = Strings.pad(label)
}

class Square(val side: Double) : Shape("square") {
    override fun area(): Double = side * side
    override fun describe(): String = super.describe() + area()
}

class Canvas(private val shapes: List<Shape>, var main: Square?) {
    fun total(): Double {
        var sum = 0.0
        for (s in shapes) {
            sum += s.area()
        }
        return sum + main!!.area() + this.main?.area()!!
    }

    fun biggest(): Shape = shapes.first()

    fun area(): Double = total()
}

fun report(c: Canvas) {
    val sq = Square(2.0)
    val big: Shape = c.biggest()
    sq.describe()
    big.describe()
    c.biggest().area()
}
"#,
        expect![[r#"
            src/a/shapes/Shapes.kt
              def class Shape 5-8
              def method Shape.area 6-6
              def method Shape.describe 7-7
              def class Square 10-13
              def method Square.area 11-11
              def method Square.describe 12-12
              def class Canvas 15-27
              def method Canvas.total 16-22
              def method Canvas.biggest 24-24
              def method Canvas.area 26-26
              def function report 29-35
              import 3 a.util Strings -> src/a/util/Strings.java
              call 7 pad in Shape.describe -> src/a/util/Strings.java:Strings.pad [import]
              call 10 Shape in Square -> src/a/shapes/Shapes.kt:Shape [exact]
              call 12 describe in Square.describe -> src/a/shapes/Shapes.kt:Shape.describe [scope]
              call 12 area in Square.describe -> src/a/shapes/Shapes.kt:Square.area [exact]
              call 19 area in Canvas.total -> src/a/shapes/Shapes.kt:Shape.area [scope]
              call 21 area in Canvas.total -> src/a/shapes/Shapes.kt:Square.area [scope]
              call 21 area in Canvas.total -> src/a/shapes/Shapes.kt:Square.area [scope]
              call 24 first in Canvas.biggest -> Shape[].first [external]
              call 26 total in Canvas.area -> src/a/shapes/Shapes.kt:Canvas.total [exact]
              call 30 Square in report -> src/a/shapes/Shapes.kt:Square [exact]
              call 31 biggest in report -> src/a/shapes/Shapes.kt:Canvas.biggest [scope]
              call 32 describe in report -> src/a/shapes/Shapes.kt:Square.describe [scope]
              call 33 describe in report -> src/a/shapes/Shapes.kt:Shape.describe [scope]
              call 34 biggest in report -> src/a/shapes/Shapes.kt:Canvas.biggest [scope]
              call 34 area in report -> src/a/shapes/Shapes.kt:Shape.area [scope]
            src/a/util/Strings.java
              def class Strings 3-5
              def method Strings.pad 4-4
        "#]],
    );
}

#[cfg(feature = "lang-scala")]
#[test]
fn scala_parameters_and_locals_are_not_definitions() {
    // `seg(0)` on a parameter or a local `val` named like a method is the value's
    // `apply`: no call of `Lib.seg`. A `def` inside a `val`'s block is a definition.
    check(
        r#"
//- Lib.scala
package lib

object Lib {
  def seg(i: Int): Int = i
  def run(seg: Seq[Int]): Int = seg(0)
  def walk(): Int = {
    val seg = Vector(1)
    seg(0) + Lib.seg(1)
  }
  def more(): Int = seg(2)
  val tests = {
    def helper(n: Int): Int = seg(n)
    helper(1)
  }
}
"#,
        expect![[r#"
            Lib.scala
              def class Lib 3-15
              def method Lib.seg 4-4
              def method Lib.run 5-5
              def method Lib.walk 6-9
              def method Lib.more 10-10
              def method Lib.helper 12-12
              call 7 Vector in Lib.walk -> Vector [external]
              call 8 seg in Lib.walk -> Lib.scala:Lib.seg [scope]
              call 10 seg in Lib.more -> Lib.scala:Lib.seg [exact]
              call 12 seg in Lib.helper -> Lib.scala:Lib.seg [exact]
              call 13 helper in Lib -> Lib.scala:Lib.helper [exact]
        "#]],
    );
}

#[cfg(feature = "lang-kotlin")]
#[test]
fn kotlin_function_values_and_type_aliases() {
    // `f()` where `f` is a function-typed parameter, lambda parameter, constructor
    // property or local is the value's `invoke`, never a method of the implicit receiver
    // named like it; a type alias has its target's members, extensions included.
    check(
        r#"
//- src/o/Option.kt
package o

class Option<T>(val value: T?) {
    fun default(): T? = value
}

typealias Nullable<T> = Option<T>

fun <T> Option<T>.restrict(max: Int): Option<T> = this

fun <T> Nullable<T>.lazy(default: () -> T, check: ((T) -> Unit)?): T {
    val local = { 1 }
    check?.let { it(default()) }
    local()
    return default() ?: value!!
}

class Holder(val default: () -> Int) {
    fun get(): Int = default()
}

fun make(): Nullable<Int> = Option(1)

fun use() {
    make().restrict(2).default()
}
"#,
        expect![[r#"
            src/o/Option.kt
              def class Option 3-5
              def method Option.default 4-4
              def type Nullable 7-7
              def method Option.restrict 9-9
              def method Nullable.lazy 11-16
              def class Holder 18-20
              def method Holder.get 19-19
              def function make 22-22
              def function use 24-26
              call 13 let in Nullable.lazy -> ? [unresolved]
              call 13 it in Nullable.lazy -> ? [unresolved]
              call 13 invoke in Nullable.lazy -> ? [unresolved]
              call 14 invoke in Nullable.lazy -> ? [unresolved]
              call 15 invoke in Nullable.lazy -> ? [unresolved]
              call 19 invoke in Holder.get -> ? [unresolved]
              call 22 Option in make -> src/o/Option.kt:Option [exact]
              call 25 make in use -> src/o/Option.kt:make [exact]
              call 25 restrict in use -> src/o/Option.kt:Option.restrict [scope]
              call 25 default in use -> src/o/Option.kt:Option.default [scope]
        "#]],
    );
}

#[cfg(feature = "lang-swift")]
#[test]
fn swift_stored_properties_read_from_an_extension() {
    // A method in an extension (here in another file) reads the type's stored properties
    // without `self.`: a bare name the file does not bind is typed as that field.
    check(
        r#"
//- Sources/K/Store.swift
struct Handle {
    func read() -> Int { return 1 }
}

struct Store {
    var handle: Handle
}
//- Sources/K/Store+Read.swift
extension Store {
    func total(_ other: Handle) -> Int {
        let handle = other
        return read(handle) + self.handle.read()
    }

    func first() -> Int {
        return handle.read()
    }

    func read(_ h: Handle) -> Int { return h.read() }
}
"#,
        expect![[r#"
            Sources/K/Store+Read.swift
              def impl Store 1-12
              def method Store.total 2-5
              def method Store.first 7-9
              def method Store.read 11-11
              call 4 read in Store.total -> Sources/K/Store+Read.swift:Store.read [exact]
              call 4 read in Store.total -> Sources/K/Store.swift:Handle.read [scope]
              call 8 read in Store.first -> Sources/K/Store.swift:Handle.read [scope]
              call 11 read in Store.read -> Sources/K/Store.swift:Handle.read [scope]
            Sources/K/Store.swift
              def struct Handle 1-3
              def method Handle.read 2-2
              def struct Store 5-7
        "#]],
    );
}

#[cfg(feature = "lang-kotlin")]
#[test]
fn kotlin_lambda_parameters() {
    // A lambda's `it` (or its one named parameter) is an element of the collection an
    // element-wise method is called on, the receiver itself for `let`/`also`, and of no
    // known type in any other lambda or after the lambda: an earlier `it` is never read.
    check(
        r#"
//- src/a/Shop.kt
package a

class Item(val name: String) {
    fun describe(): String = name
}

class Money(val cents: Long) {
    fun describe(): String = "$cents"
}

fun report(items: List<Item>, cash: Money?) {
    items.forEach { it.describe() }
    items.filter { it.name.isNotEmpty() }.map { item -> item.describe() }
    cash?.let { it.describe() }
    run { it.describe() }
    it.describe()
}
"#,
        expect![[r#"
            src/a/Shop.kt
              def class Item 3-5
              def method Item.describe 4-4
              def class Money 7-9
              def method Money.describe 8-8
              def function report 11-17
              call 12 forEach in report -> Item[].forEach [external]
              call 12 describe in report -> src/a/Shop.kt:Item.describe [scope]
              call 13 filter in report -> Item[].filter [external]
              call 13 isNotEmpty in report -> String.isNotEmpty [external]
              call 13 map in report -> Item[].map [external]
              call 13 describe in report -> src/a/Shop.kt:Item.describe [scope]
              call 14 let in report -> ? [unresolved]
              call 14 describe in report -> src/a/Shop.kt:Money.describe [scope]
              call 15 run in report -> run [external]
              call 15 describe in report -> ? [unresolved]
              call 16 describe in report -> ? [unresolved]
        "#]],
    );
}

#[cfg(feature = "lang-scala")]
#[test]
fn scala_calls_qualified_by_a_package() {
    // `os.read(p)` is the package's top-level object (its `apply`); `os.watch.watch()` a
    // member of the package object `watch`; `os.watch` alone a package path, no call;
    // `_root_.os` is `os`; `java.…` is external. A build file's `object os` is not the
    // package.
    check(
        r#"
//- os/src/ReadOps.scala
package os

object read {
  def apply(p: String): String = p
}
//- os/watch/src/package.scala
package os

package object watch {
  def watch(p: String): Unit = ()
}
//- build.sc
object os {
  object watch
}
//- app/src/Main.scala
package app

object Main {
  def run(): Unit = {
    os.read("a")
    os.watch.watch("b")
    _root_.os.read("c")
    java.nio.file.Files.exists(null)
  }
}
"#,
        expect![[r#"
            app/src/Main.scala
              def class Main 3-10
              def method Main.run 4-9
              call 5 read in Main.run -> os/src/ReadOps.scala:read [scope]
              call 6 watch in Main.run -> ? [unresolved]
              call 6 watch in Main.run -> os/watch/src/package.scala:watch.watch [scope]
              call 7 os in Main.run -> ? [unresolved]
              call 7 read in Main.run -> os/src/ReadOps.scala:read [scope]
              call 8 nio in Main.run -> java.nio [external]
              call 8 file in Main.run -> java.nio.file [external]
              call 8 exists in Main.run -> java.nio.file.Files.exists [external]
            build.sc
              def class os 1-3
              def class os.watch 2-2
            os/src/ReadOps.scala
              def class read 3-5
              def method read.apply 4-4
            os/watch/src/package.scala
              def module watch 3-5
              def function watch.watch 4-4
        "#]],
    );
}

#[cfg(feature = "lang-kotlin")]
#[test]
fn kotlin_inherited_property_receivers() {
    // `x.f()` with `x` bound nowhere in the function is the implicit receiver's property
    // `this.x`, typed by the class or a base class declaring it (in another file too); a
    // local or parameter of that name wins, and outside a class nothing is guessed.
    check(
        r#"
//- src/a/Base.kt
package a

class Context {
    fun close(): Boolean = true
}

class Other {
    fun close(): Boolean = false
}

open class Base {
    val context: Context get() = Context()
}
//- src/a/Child.kt
package a

class Child : Base() {
    fun run() {
        context.close()
    }

    fun shadow(context: Other) {
        context.close()
    }
}

fun free() {
    context.close()
}
"#,
        expect![[r#"
            src/a/Base.kt
              def class Context 3-5
              def method Context.close 4-4
              def class Other 7-9
              def method Other.close 8-8
              def class Base 11-13
              call 12 Context in Base -> src/a/Base.kt:Context [exact]
            src/a/Child.kt
              def class Child 3-11
              def method Child.run 4-6
              def method Child.shadow 8-10
              def function free 13-15
              call 3 Base in Child -> src/a/Base.kt:Base [scope]
              call 5 close in Child.run -> src/a/Base.kt:Context.close [scope]
              call 9 close in Child.shadow -> src/a/Base.kt:Other.close [scope]
              call 14 close in free -> ? [unresolved]
        "#]],
    );
}

#[cfg(feature = "lang-kotlin")]
#[test]
fn kotlin_same_named_local_classes() {
    // A type is known by its name: where several classes share it (each test's local
    // `class C`), the calling file's own is meant, and when those declare different bases
    // an inherited method is not guessed from either; inside one of them, its own bases
    // are known.
    check(
        r#"
//- src/t/Bases.kt
package t

open class A {
    fun test(): Int = 1
}

open class B {
    fun test(): Int = 2
}
//- src/t/OneTest.kt
package t

fun one() {
    class C : A()
    C().test()
}
//- src/t/TwoTest.kt
package t

fun two() {
    class C : B() {
        fun m(): Int = test()
    }
    C().test()
}

fun three() {
    class C : A()
    C().test()
}
"#,
        expect![[r#"
            src/t/Bases.kt
              def class A 3-5
              def method A.test 4-4
              def class B 7-9
              def method B.test 8-8
            src/t/OneTest.kt
              def function one 3-6
              def class one.C 4-4
              call 4 A in one.C -> src/t/Bases.kt:A [scope]
              call 5 C in one -> src/t/OneTest.kt:one.C [exact]
              call 5 test in one -> src/t/Bases.kt:A.test [scope]
            src/t/TwoTest.kt
              def function two 3-8
              def class two.C 4-6
              def method two.C.m 5-5
              def function three 10-13
              def class three.C 11-11
              call 4 B in two.C -> src/t/Bases.kt:B [scope]
              call 5 test in two.C.m -> src/t/Bases.kt:B.test [scope]
              call 7 C in two -> src/t/TwoTest.kt:two.C [exact]
              call 7 test in two -> ? [unresolved]
              call 11 A in three.C -> src/t/Bases.kt:A [scope]
              call 12 C in three -> src/t/TwoTest.kt:three.C [exact]
              call 12 test in three -> ? [unresolved]
        "#]],
    );
}

#[cfg(feature = "lang-kotlin")]
#[test]
fn kotlin_extension_of_a_bounded_type_parameter() {
    // `fun <T : Command> T.run2()` extends every `Command`: it is `Command.run2`, found
    // from a subclass before a base class's method of the same name.
    check(
        r#"
//- src/a/Cmd.kt
package a

open class Core {
    fun parse(argv: List<String>) {}
}

open class Command : Core()

class Sub : Command()

fun <T : Command> T.parse(argv: String): T = this

fun use() {
    Sub().parse("x")
    Core().parse(listOf("y"))
}
"#,
        expect![[r#"
            src/a/Cmd.kt
              def class Core 3-5
              def method Core.parse 4-4
              def class Command 7-7
              def class Sub 9-9
              def method Command.parse 11-11
              def function use 13-16
              call 7 Core in Command -> src/a/Cmd.kt:Core [exact]
              call 9 Command in Sub -> src/a/Cmd.kt:Command [exact]
              call 14 Sub in use -> src/a/Cmd.kt:Sub [exact]
              call 14 parse in use -> src/a/Cmd.kt:Command.parse [scope]
              call 15 Core in use -> src/a/Cmd.kt:Core [exact]
              call 15 parse in use -> src/a/Cmd.kt:Core.parse [scope]
              call 15 listOf in use -> listOf [external]
        "#]],
    );
}

#[cfg(feature = "lang-csharp")]
#[test]
fn csharp_namespaces_usings_and_typed_receivers() {
    // A file's own namespace makes the types of it and of the namespaces around it
    // visible (`Engine` in `Lib.Core` sees `Clock` of `Lib.Core` and `Box` of `Lib`);
    // `using B = Lib.Box;` names a type, `using static Lib.Tools;` makes its members
    // callable unqualified; locals, parameters, properties, fields and `foreach` variables
    // are typed by their declared type (`var` by its value, `Make()` by its return type);
    // `Clock c = new()` constructs the declared type; `base.Open()` is the base class's;
    // `x?.M()` and `x.M<T>()` are calls of `M` on `x`; a plain call never means a type
    // (`Clock()`), and a method of a type the repository does not define is not found.
    check(
        r#"
//- src/Lib/Box.cs
namespace Lib
{
    /// <summary>A box.</summary>
    public class Box
    {
        public const int Size = 3;

        public virtual string Open() => Seal<int>();

        public string Seal<T>() { return Open(); }
    }

    public static class Tools
    {
        public static Box Make() => new Box();
    }
}
//- src/Lib/Core/Clock.cs
namespace Lib.Core;

public class Clock : Box
{
    public override string Open() => base.Open();
}
//- src/Lib/Core/Engine.cs
using System.Collections.Generic;
using B = Lib.Box;
using static Lib.Tools;

namespace Lib.Core;

public class Engine
{
    private readonly Clock _clock = new();
    public Box Spare { get; set; }

    public void Run(List<Clock> clocks, Box given)
    {
        var made = Make();
        Box named = new B();
        made.Open();
        named?.Seal<string>();
        given.Open();
        _clock.Open();
        Spare.Seal<int>();
        foreach (var c in clocks) c.Open();
        Clock();
        Tools.Make().Open();
        "x".Trim();
    }
}
"#,
        expect![[r#"
            src/Lib/Box.cs
              def class Box 4-11
              def constant Box.Size 6-6
              def method Box.Open 8-8
              def method Box.Seal 10-10
              def class Tools 13-16
              def method Tools.Make 15-15
              import 1 package Lib -> ?
              call 8 Seal in Box.Open -> src/Lib/Box.cs:Box.Seal [exact]
              call 10 Open in Box.Seal -> src/Lib/Box.cs:Box.Open [exact]
              call 15 Box in Tools.Make -> src/Lib/Box.cs:Box [exact]
            src/Lib/Core/Clock.cs
              def class Clock 3-6
              def method Clock.Open 5-5
              import 1 package Lib.Core -> src/Lib/Box.cs
              call 5 Open in Clock.Open -> src/Lib/Box.cs:Box.Open [scope]
            src/Lib/Core/Engine.cs
              def class Engine 7-26
              def method Engine.Run 12-25
              import 1 System.Collections.Generic -> ?
              import 2 Lib Box as B -> src/Lib/Box.cs
              import 3 static Lib.Tools -> src/Lib/Box.cs
              import 5 package Lib.Core -> src/Lib/Box.cs
              call 9 Clock in Engine -> src/Lib/Core/Clock.cs:Clock [import]
              call 14 Make in Engine.Run -> src/Lib/Box.cs:Tools.Make [import]
              call 15 B in Engine.Run -> src/Lib/Box.cs:Box [import]
              call 16 Open in Engine.Run -> src/Lib/Box.cs:Box.Open [scope]
              call 17 Seal in Engine.Run -> src/Lib/Box.cs:Box.Seal [scope]
              call 18 Open in Engine.Run -> src/Lib/Box.cs:Box.Open [scope]
              call 19 Open in Engine.Run -> src/Lib/Core/Clock.cs:Clock.Open [scope]
              call 20 Seal in Engine.Run -> src/Lib/Box.cs:Box.Seal [scope]
              call 21 Open in Engine.Run -> src/Lib/Core/Clock.cs:Clock.Open [scope]
              call 22 Clock in Engine.Run -> ? [unresolved]
              call 23 Make in Engine.Run -> src/Lib/Box.cs:Tools.Make [scope]
              call 23 Open in Engine.Run -> src/Lib/Box.cs:Box.Open [scope]
              call 24 Trim in Engine.Run -> ? [unresolved]
        "#]],
    );
}

#[cfg(feature = "lang-csharp")]
#[test]
fn csharp_members_split_by_preprocessor_directives() {
    // A member inside `#if … #endif` is still its type's; where a directive splits a
    // declaration the grammar recovers with pieces that are not definitions: `=> new Log()`
    // read as a constructor of another name, a method outside any type. Neither becomes a
    // top-level function that plain calls would reach.
    check(
        r#"
//- src/ILog.cs
namespace Lib;

public interface ILog
{
#if FEATURE
    [Custom]
#endif
    ILog With(string name)
#if FEATURE
        => new Log()
#endif
    ;

    void Flush();
}

public class Calls : ILog
{
    [Obsolete("a C# attribute is not part of the range")]
    public void Run() => Flush();
}
//- src/Stray.cs
namespace Lib
{
    public class Ok
    {
#if FEATURE
        public void Close() { Flush(); }
#endif
    }

    void Flush() { }
}
"#,
        expect![[r#"
            src/ILog.cs
              def interface ILog 3-15
              def method ILog.With 5-8
              def method ILog.Flush 14-14
              def class Calls 17-21
              def method Calls.Run 20-20
              import 1 package Lib -> src/Stray.cs
              call 20 Flush in Calls.Run -> src/ILog.cs:ILog.Flush [scope]
            src/Stray.cs
              def class Ok 3-8
              def method Ok.Close 6-6
              import 1 package Lib -> src/ILog.cs
              call 6 Flush in Ok.Close -> ? [unresolved]
        "#]],
    );
}

#[cfg(feature = "lang-csharp")]
#[test]
fn csharp_overloads_by_argument_count() {
    // Of a type's same-named methods a call takes one whose parameters admit its argument
    // count (a default value may be left out, `params` takes any number). The rows above
    // name a callee by its qualified name, the same for every overload: here, its line.
    let s = Scratch::empty();
    s.write(
        "src/Log.cs",
        r#"namespace Lib;

public class Log
{
    public Log() { }

    public Log(string name) { }

    public void Write(string m) => Write(m, 0);

    public void Write(string m, int level, bool flush = false) { }

    public void Write(string m, int level, string a, params object[] rest) { }

    public void Run()
    {
        Write("a");
        Write("a", 1);
        Write("a", 1, true);
        Write("a", 1, "x", 2, 3);
        new Log("n").Write("b", 2);
    }
}
"#,
    );
    // Of the same arity: the one whose parameter types take the arguments' stated types
    // (a literal, a typed variable or field, a cast, a lambda), the most of them exactly;
    // the first when nothing tells them apart.
    s.write(
        "src/Note.cs",
        r#"namespace Lib;

public class Note
{
    private readonly object[] _none = new object[0];

    public void Add(string m) { }

    public void Add(Exception e) { }

    public void Add(Action<string> write) { }

    public void Add<T>(string m, T value) { }

    public void Add(string m, object[] values) { }

    public void Run(Exception ex, Action<string> sink)
    {
        Add("a");
        Add(ex);
        Add(m => { });
        Add(sink);
        Add((Exception)null);
        Add(Make());
        Add("a", 1);
        Add("a", _none);
    }

    static string Make() => "";
}
"#,
    );
    let cfg = IndexConfig {
        history: false,
        lexical: false,
        semantic: false,
        ..IndexConfig::default()
    };
    s.index_with(&cfg, false);
    let callees = |name: &str| -> Vec<(i64, i64)> {
        s.store()
            .read(|c| {
                let mut stmt = c.prepare(
                    "SELECT k.line, s.start_line FROM calls k JOIN symbols s ON s.id = k.callee_id
                     WHERE k.name = ?1 ORDER BY k.line",
                )?;
                let rows = stmt.query_map([name], |r| Ok((r.get(0)?, r.get(1)?)))?;
                rows.collect()
            })
            .expect("query")
    };
    assert_eq!(
        callees("Write"),
        [(9, 11), (17, 9), (18, 11), (19, 11), (20, 13), (21, 11)]
    );
    assert_eq!(
        callees("Add"),
        [
            (19, 7),
            (20, 9),
            (21, 11),
            (22, 11),
            (23, 9),
            (24, 7),
            (25, 13),
            (26, 15)
        ]
    );
}

#[cfg(feature = "lang-csharp")]
#[test]
fn csharp_global_usings_reach_their_project() {
    // `global using Lib.Models;` is a `using` in every file of its project (under the
    // folder of the nearest `.csproj`), not in another project's files.
    check(
        r#"
//- src/App/App.csproj
<Project Sdk="Microsoft.NET.Sdk" />
//- src/App/GlobalUsings.cs
global using Lib.Models;
//- src/App/Main.cs
namespace App;

class Main
{
    void Run() => new Item().Go();
}
//- src/Lib/Item.cs
namespace Lib.Models;

public class Item
{
    public void Go() { }
}
//- tools/Other.cs
namespace Tools;

class Other
{
    void Run() => new Item().Go();
}
"#,
        expect![[r#"
            src/App/App.csproj
            src/App/GlobalUsings.cs
              import 1 global Lib.Models -> src/Lib/Item.cs
            src/App/Main.cs
              def class Main 3-6
              def method Main.Run 5-5
              import 1 package App -> ?
              call 5 Item in Main.Run -> src/Lib/Item.cs:Item [import]
              call 5 Go in Main.Run -> src/Lib/Item.cs:Item.Go [scope]
            src/Lib/Item.cs
              def class Item 3-6
              def method Item.Go 5-5
              import 1 package Lib.Models -> ?
            tools/Other.cs
              def class Other 3-6
              def method Other.Run 5-5
              import 1 package Tools -> ?
              call 5 Item in Other.Run -> src/Lib/Item.cs:Item [name-only]
              call 5 Go in Other.Run -> src/Lib/Item.cs:Item.Go [scope]
        "#]],
    );
}

#[cfg(feature = "lang-csharp")]
#[test]
fn csharp_a_new_global_using_reaches_unchanged_files() {
    // An incremental run that adds `global using Lib.Models;` revisits the calls of the
    // project's files it did not change.
    let s = Scratch::empty();
    s.write(
        "src/Lib/Item.cs",
        "namespace Lib.Models;\n\npublic class Item { }\n",
    );
    s.write(
        "src/App/Main.cs",
        "namespace App;\n\nclass Main\n{\n    object Run() => new Item();\n}\n",
    );
    let cfg = IndexConfig {
        history: false,
        lexical: false,
        semantic: false,
        ..IndexConfig::default()
    };
    let resolution = |s: &Scratch| -> String {
        s.store()
            .read(|c| {
                c.query_row(
                    "SELECT resolution FROM calls WHERE name = 'Item'",
                    [],
                    |r| r.get(0),
                )
            })
            .expect("query")
    };
    s.index_with(&cfg, false);
    assert_eq!(resolution(&s), "name-only");
    s.write("src/App/GlobalUsings.cs", "global using Lib.Models;\n");
    s.index_with(&cfg, false);
    assert_eq!(resolution(&s), "import");
}

#[test]
fn go_conversions_to_predeclared_types_are_builtins_but_a_repository_type_is_not() {
    // `int(x)` and `string(b)` are conversions Go predeclares: never an unresolved call.
    // A conversion to the package's own type still resolves to that type.
    check(
        r#"
//- go.mod
module example.com/app
//- main.go
package main

type Celsius float64

func scale(b []byte, f float64) (int, string, Celsius) {
	return int(f * 100), string(b), Celsius(f)
}
"#,
        expect![[r#"
            go.mod
            main.go
              def type Celsius 3-3
              def function scale 5-7
              call 6 int in scale -> int [external]
              call 6 string in scale -> string [external]
              value 6 b in scale -> ? [unresolved]
              call 6 Celsius in scale -> main.go:Celsius [exact]
              value 6 f in scale -> ? [unresolved]
        "#]],
    );
}

#[test]
fn js_global_objects_and_functions_are_the_runtime_s() {
    // `console.warn`, `Object.keys` and `setTimeout` are the runtime's, never unresolved;
    // the repository's own `warn`, imported, is still the repository's.
    check(
        r#"
//- log.ts
export function warn(msg: string) {
  return msg;
}
//- app.ts
import { warn } from "./log";

export function run(o: object) {
  console.warn(Object.keys(o));
  setTimeout(() => warn("late"), 10);
}
"#,
        expect![[r#"
            app.ts
              def function run 3-6
              import 1 ./log warn -> log.ts
              call 4 warn in run -> console.warn [external]
              call 4 keys in run -> Object.keys [external]
              call 5 setTimeout in run -> setTimeout [external]
              call 5 warn in run -> log.ts:warn [import]
            log.ts
              def function warn 1-3
        "#]],
    );
}
