//! Code embedded in another syntax: the components of Vue (`.vue`) and Svelte
//! (`.svelte`). Their `<script>` blocks are TypeScript or JavaScript, and their templates
//! hold expressions of the same language (`{{ count }}`, `@click="save()"`,
//! `{#if open}`, `onclick={save}`). [`embedded_code`] lays that code out at the file's
//! own offsets with everything else blanked (each byte a space, line breaks kept), so a
//! tree of it gives the file's own lines, and `parse_file` and the history's reparse read
//! a component like any script.

use super::lang::Lang;

/// The language of a component's `<script>` blocks: TypeScript (or TSX) when one says
/// `lang="ts"`, else JavaScript.
pub fn script_lang(head: &[u8]) -> Lang {
    let says = |lang: &[u8]| {
        head.windows(lang.len() + 7).any(|w| {
            w.starts_with(b"lang=")
                && matches!(w[5], b'"' | b'\'')
                && &w[6..6 + lang.len()] == lang
                && w[6 + lang.len()] == w[5]
        })
    };
    if says(b"tsx") {
        Lang::Tsx
    } else if says(b"ts") {
        Lang::TypeScript
    } else {
        Lang::JavaScript
    }
}

/// The code of a Vue or Svelte component, at the file's offsets: its `<script>` blocks
/// whole, and its template's expressions, each ended by a `;` where its closing
/// delimiter was. A Vue template's expressions are `{{ … }}` and the values of `@event`,
/// `:prop`, `#slot` and `v-…` attributes; a Svelte template's are its `{…}`, without a
/// block's keyword (`{#if open}`, `{#each items as item}` → `items`). An event handler
/// named alone (`@click="save"`, `onclick={save}`) is written as a call, `save();` over
/// `="save"`: the same bytes, two columns sooner. Styles are blanked. None for any other
/// file.
pub fn embedded_code(path: &str, text: &str) -> Option<String> {
    let svelte = match component(path)? {
        Component::Vue => false,
        Component::Svelte => true,
    };
    let mut code = Layout {
        src: text.as_bytes(),
        out: text
            .bytes()
            .map(|b| if b == b'\n' { b'\n' } else { b' ' })
            .collect(),
    };
    for (from, to) in code.template_parts(text) {
        if svelte {
            code.svelte_template(from, to);
        } else {
            code.vue_template(text, from, to);
        }
    }
    // Only whole UTF-8 sequences were copied (every delimiter around them is ASCII).
    String::from_utf8(code.out).ok()
}

/// The kinds of component [`embedded_code`] reads.
enum Component {
    Vue,
    Svelte,
}

/// The kind of component a file is by its extension (any case), without allocating: the
/// history asks it of every version it reparses.
fn component(path: &str) -> Option<Component> {
    let ends = |ext: &str| {
        path.len() >= ext.len()
            && path.as_bytes()[path.len() - ext.len()..].eq_ignore_ascii_case(ext.as_bytes())
    };
    if ends(".vue") {
        Some(Component::Vue)
    } else if ends(".svelte") {
        Some(Component::Svelte)
    } else {
        None
    }
}

/// Whether a file is a component [`embedded_code`] reads.
pub fn is_component(path: &str) -> bool {
    component(path).is_some()
}

/// A component's text and the code laid out from it.
struct Layout<'a> {
    src: &'a [u8],
    out: Vec<u8>,
}

impl Layout<'_> {
    /// Copies `from..to` as it is, and writes `;` at `end`.
    fn keep(&mut self, from: usize, to: usize, end: Option<usize>) {
        self.out[from..to].copy_from_slice(&self.src[from..to]);
        if let Some(e) = end {
            self.out[e] = b';';
        }
    }

    /// Writes `handler();` from `at`, over `="handler"` or `={handler}`.
    fn call(&mut self, at: usize, handler: (usize, usize)) {
        let n = handler.1 - handler.0;
        self.out[at..at + n].copy_from_slice(&self.src[handler.0..handler.1]);
        self.out[at + n..at + n + 3].copy_from_slice(b"();");
    }

    /// Keeps the `<script>` blocks; returns the parts outside them and the `<style>`
    /// blocks: the template.
    fn template_parts(&mut self, text: &str) -> Vec<(usize, usize)> {
        let (mut scan, mut start) = (0, 0);
        let mut template = Vec::new();
        while let Some(open) = text[scan..].find('<').map(|i| scan + i) {
            let tag = ["script", "style"]
                .into_iter()
                .find(|t| text[open + 1..].starts_with(t));
            let Some(tag) = tag else {
                scan = open + 1;
                continue;
            };
            let Some(body) = text[open..].find('>').map(|i| open + i + 1) else {
                break;
            };
            let close = format!("</{tag}>");
            let end = text[body..].find(&close).map_or(text.len(), |i| body + i);
            template.push((start, open));
            if tag == "script" {
                self.keep(body, end, None);
            }
            (scan, start) = (end, end);
        }
        template.push((start, text.len()));
        template
    }

    /// A Vue template's interpolations and directive attributes in `from..to`.
    fn vue_template(&mut self, text: &str, from: usize, to: usize) {
        let part = &text[from..to];
        let mut i = 0;
        while let Some(open) = part[i..].find("{{").map(|j| i + j) {
            let Some(close) = part[open + 2..].find("}}").map(|j| open + 2 + j) else {
                break;
            };
            self.keep(from + open + 2, from + close, Some(from + close));
            i = close + 2;
        }
        // Directive attributes: a name after a blank, then `="…"` or `='…'`.
        let bytes = part.as_bytes();
        let mut i = 1;
        while i < bytes.len() {
            let directive = bytes[i - 1].is_ascii_whitespace()
                && (matches!(bytes[i], b'@' | b':' | b'#') || bytes[i..].starts_with(b"v-"));
            if !directive {
                i += 1;
                continue;
            }
            let name_end = bytes[i..]
                .iter()
                .position(|&b| b == b'=' || b.is_ascii_whitespace() || b == b'>')
                .map_or(bytes.len(), |p| i + p);
            let quote = bytes.get(name_end + 1).copied();
            if bytes.get(name_end) != Some(&b'=') || !matches!(quote, Some(b'"' | b'\'')) {
                i = name_end.max(i + 1);
                continue;
            }
            let value = name_end + 2;
            let Some(close) = bytes[value..]
                .iter()
                .position(|&b| Some(b) == quote)
                .map(|p| value + p)
            else {
                break;
            };
            let event = bytes[i] == b'@' || bytes[i..].starts_with(b"v-on:");
            if event && is_path(&bytes[value..close]) {
                self.call(from + name_end, (from + value, from + close));
            } else {
                self.keep(from + value, from + close, Some(from + close));
            }
            i = close + 1;
        }
    }

    /// A Svelte template's `{…}` in `from..to`: expressions, block conditions and
    /// attribute values.
    fn svelte_template(&mut self, from: usize, to: usize) {
        let mut i = from;
        while i < to {
            if self.src[i] != b'{' {
                i += 1;
                continue;
            }
            let Some(close) = matching_brace(self.src, i, to) else {
                break;
            };
            let inner = &self.src[i + 1..close];
            let lead = inner.iter().take_while(|b| b.is_ascii_whitespace()).count();
            let body = &inner[lead..];
            let (skip, cut): (usize, &[&[u8]]) =
                match SVELTE_TAGS.iter().find(|(tag, _)| body.starts_with(tag)) {
                    Some((tag, cut)) => (tag.len(), cut),
                    // `{/if}`, `{:else}`, `{#snippet …}`: no expression to read.
                    None if matches!(body.first(), Some(b'#' | b'/' | b':' | b'@')) => {
                        i = close + 1;
                        continue;
                    }
                    None => (0, &[]),
                };
            let start = i + 1 + lead + skip;
            let end = cut
                .iter()
                .filter_map(|c| find(&self.src[start..close], c))
                .min()
                .map_or(close, |k| start + k);
            // `onclick={save}`, `on:click={save}`: the attribute's name before `=`.
            let name_start = self.src[from..i]
                .iter()
                .rposition(|b| b.is_ascii_whitespace())
                .map_or(from, |p| from + p + 1);
            let event =
                i > 0 && self.src[i - 1] == b'=' && self.src[name_start..i].starts_with(b"on");
            if event && is_path(&self.src[start..end]) && end == close {
                self.call(i - 1, (start, end));
            } else {
                self.keep(start, end, Some(close));
            }
            i = close + 1;
        }
    }
}

/// Svelte's tags that lead an expression, and where it ends in them: `{#each items as
/// item}` reads `items`, `{#await p then v}` reads `p`.
const SVELTE_TAGS: [(&[u8], &[&[u8]]); 8] = [
    (b"#if ", &[]),
    (b":else if ", &[]),
    (b"#each ", &[b" as "]),
    (b"#await ", &[b" then ", b" catch "]),
    (b"#key ", &[]),
    (b"@html ", &[]),
    (b"@render ", &[]),
    (b"@const ", &[]),
];

/// A handler named alone: a name or a path of names (`save`, `form.reset`).
fn is_path(value: &[u8]) -> bool {
    !value.is_empty()
        && !value[0].is_ascii_digit()
        && value
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.'))
}

/// The `}` that closes the `{` at `open`, before `to`: braces counted outside strings.
fn matching_brace(src: &[u8], open: usize, to: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut i = open;
    while i < to {
        let b = src[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'"' | b'\'' | b'`' => quote = Some(b),
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            },
        }
        i += 1;
    }
    None
}

/// Where `needle` first is in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::syntax::lang::{FileLang, detect};

    #[test]
    fn a_vue_components_code_keeps_its_offsets() {
        let text = "<script setup lang=\"ts\">\nconst é = 1\n</script>\n<template>\n  <p :title=\"é\" v-if='ok'>{{ n }}</p>\n</template>\n<style>\np { color: red }\n</style>\n";
        assert_eq!(
            detect(Path::new("src/A.vue"), text.as_bytes()),
            FileLang::Code(Lang::TypeScript)
        );
        assert_eq!(
            detect(Path::new("src/A.vue"), b"<script>\n"),
            FileLang::Code(Lang::JavaScript)
        );
        let code = embedded_code("src/A.vue", text).expect("a component");
        assert_eq!(code.len(), text.len());
        assert_eq!(code.lines().count(), text.lines().count());
        let lines: Vec<&str> = code.lines().map(str::trim).collect();
        assert_eq!(lines[1], "const é = 1");
        assert_eq!(lines[4], "é;       ok;    n ;");
        assert!(!code.contains("color"), "{code}");
        assert!(!code.contains("template"), "{code}");
        assert_eq!(embedded_code("src/a.ts", text), None);
    }

    #[test]
    fn a_svelte_components_blocks_and_handlers_are_code() {
        let text = "<script lang=\"ts\">\n  let items = [1];\n  function add() {}\n</script>\n{#each items as item (item)}\n  <button onclick={add} title={label(item)}>{item}</button>\n{/each}\n<style>\n  button { color: red; }\n</style>\n";
        assert_eq!(
            detect(Path::new("src/A.svelte"), text.as_bytes()),
            FileLang::Code(Lang::TypeScript)
        );
        let code = embedded_code("src/A.svelte", text).expect("a component");
        assert_eq!(code.len(), text.len());
        let lines: Vec<&str> = code.lines().map(str::trim).collect();
        assert_eq!(lines[1], "let items = [1];");
        assert_eq!(lines[4], format!("items{};", " ".repeat(15)));
        assert_eq!(lines[5], "add();        label(item);  item;");
        assert_eq!(lines[6], "");
        assert!(!code.contains("color"), "{code}");
    }
}
