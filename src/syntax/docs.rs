//! What stands around a definition's code: its signature (the declaration up to its
//! body), its doc comment or docstring, and the first line of what leads it (attributes,
//! decorators, comments).

use crate::syntax::FieldExt;
use tree_sitter::Node;

use super::defs::{Ctx, end_line, node_text};
use super::lang::Lang;

const MAX_SIGNATURE: usize = 240;

/// The declaration from its first token up to its body, whitespace collapsed.
pub(super) fn signature(node: Node, start_byte: usize, range_node: Node, src: &[u8]) -> String {
    let body = node.field("body").or_else(|| {
        // Kotlin names no body field: its body is a child of one of these kinds.
        let mut c = node.walk();
        node.named_children(&mut c)
            .find(|b| matches!(b.kind(), "function_body" | "class_body" | "enum_class_body"))
    });
    let end = match body {
        Some(body) if body.start_byte() > start_byte => body.start_byte(),
        _ => {
            let rest = &src[start_byte..range_node.end_byte()];
            start_byte + rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())
        }
    };
    let raw = String::from_utf8_lossy(&src[start_byte..end]);
    let mut sig = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    while sig.ends_with(['{', ':', ' ']) {
        sig.pop();
    }
    if sig.len() > MAX_SIGNATURE {
        return shorten(sig);
    }
    sig
}

/// A signature longer than [`MAX_SIGNATURE`], shortened: the longest parenthesised list at
/// the top level (the parameters, mostly) keeps its first items and loses the rest
/// (`f(a: A, b: B, …): T`), so that what follows it, a return type or a Kotlin class's
/// supertypes, stays for the resolver; when that is not enough, the end is cut.
fn shorten(mut sig: String) -> String {
    let mut depth = 0usize;
    let mut open = 0;
    let mut longest: Option<(usize, usize)> = None;
    for (i, b) in sig.bytes().enumerate() {
        match b {
            b'(' => {
                if depth == 0 {
                    open = i;
                }
                depth += 1;
            }
            b')' if depth > 0 => {
                depth -= 1;
                if depth == 0 && longest.is_none_or(|(o, c)| c - o < i - open) {
                    longest = Some((open, i));
                }
            }
            _ => {}
        }
    }
    if let Some((open, close)) = longest {
        let (head, tail) = (&sig[..=open], &sig[close..]);
        // Room for the kept items, after the head, the tail and ` …`.
        if let Some(room) = MAX_SIGNATURE.checked_sub(head.len() + tail.len() + 4) {
            let items = &sig[open + 1..close];
            let mut keep = 0;
            let mut nested = 0i32;
            for (i, ch) in items.char_indices() {
                if i > room {
                    break;
                }
                match ch {
                    '(' | '[' | '{' => nested += 1,
                    ')' | ']' | '}' => nested -= 1,
                    ',' if nested == 0 => keep = i + 1,
                    _ => {}
                }
            }
            let kept = items[..keep].trim_end();
            let gap = if kept.is_empty() { "…" } else { " …" };
            return format!("{head}{kept}{gap}{tail}");
        }
    }
    let mut cut = MAX_SIGNATURE;
    while !sig.is_char_boundary(cut) {
        cut -= 1;
    }
    sig.truncate(cut);
    sig.push('…');
    sig
}

/// The doc comment (or Python docstring) and the first line of what leads the
/// definition: doc comments, attributes, decorators.
pub(super) fn doc_and_lead(
    lang: Lang,
    node: Node,
    ctx: &Ctx,
    range_depth: usize,
    start_line: u32,
    src: &[u8],
) -> (String, u32) {
    let mut outer_depth = range_depth;
    if outer_depth > 0 && ctx.path[outer_depth - 1].kind() == "decorated_definition" {
        outer_depth -= 1;
    }
    let outer = ctx.path[outer_depth];
    let mut lead = (outer.start_position().row as u32 + 1).min(start_line);
    let mut comments: Vec<Node> = Vec::new();
    for &s in ctx.leading[outer_depth].iter().rev() {
        let kind = s.kind();
        let is_comment = matches!(
            kind,
            "comment" | "line_comment" | "block_comment" | "multiline_comment"
        );
        // Adjacent: no blank line between it and what follows.
        if end_line(s) + 1 < lead {
            break;
        }
        if is_comment {
            let text = node_text(s, src);
            if !lang.is_doc_comment(text) || !starts_its_line(s, src) {
                break;
            }
            comments.push(s);
        }
        lead = s.start_position().row as u32 + 1;
    }
    comments.reverse();
    let mut doc = String::new();
    if lang.spec().docstrings
        && let Some(d) = python_docstring(node, src)
    {
        doc = d;
    }
    if doc.is_empty() {
        for c in comments {
            let cleaned = clean_comment(node_text(c, src));
            if !cleaned.is_empty() {
                if !doc.is_empty() {
                    doc.push('\n');
                }
                doc.push_str(&cleaned);
            }
        }
    }
    (doc, lead)
}

pub(super) fn starts_its_line(node: Node, src: &[u8]) -> bool {
    let start = node.start_byte();
    let line_start = src[..start]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    src[line_start..start]
        .iter()
        .all(|b| b.is_ascii_whitespace())
}

pub(super) fn python_docstring(node: Node, src: &[u8]) -> Option<String> {
    let body = node.field("body")?;
    let first = body.named_child(0)?;
    if first.kind() != "expression_statement" {
        return None;
    }
    let s = first.named_child(0)?;
    if s.kind() != "string" {
        return None;
    }
    let raw = node_text(s, src);
    let raw = raw.trim_start_matches(['r', 'R', 'u', 'U', 'b', 'B', 'f', 'F']);
    let inner = ["\"\"\"", "'''", "\"", "'"]
        .iter()
        .find_map(|q| raw.strip_prefix(q).and_then(|r| r.strip_suffix(q)))?;
    Some(dedent(inner))
}

pub(super) fn dedent(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

/// Strips comment markers: `///`, `//!`, `//`, `#`, `/** */`, leading `*`.
pub(super) fn clean_comment(text: &str) -> String {
    let mut lines = Vec::new();
    let body = text.trim();
    let body = if let Some(b) = body.strip_prefix("/*") {
        b.strip_suffix("*/").unwrap_or(b)
    } else {
        body
    };
    for line in body.lines() {
        let l = line.trim();
        let l = l
            .trim_start_matches("///")
            .trim_start_matches("//!")
            .trim_start_matches("//")
            .trim_start_matches('#')
            .trim_start_matches('*')
            .trim_start_matches('!');
        lines.push(l.trim());
    }
    lines.join("\n").trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::{MAX_SIGNATURE, shorten};

    #[test]
    fn long_signatures_keep_what_follows_their_parameters() {
        let params: Vec<String> = (0..40).map(|i| format!("p{i}: String = \"\"")).collect();
        let sig = format!("fun Holder.option({}): RawOption", params.join(", "));
        let short = shorten(sig);
        assert!(short.len() <= MAX_SIGNATURE + 4, "{short}");
        assert!(
            short.starts_with("fun Holder.option(p0: String = \"\","),
            "{short}"
        );
        assert!(short.ends_with(", …): RawOption"), "{short}");
        // Nothing to shorten inside: the end is cut.
        let flat = "x".repeat(400);
        assert_eq!(
            shorten(flat.clone()),
            format!("{}…", &flat[..MAX_SIGNATURE])
        );
    }
}
