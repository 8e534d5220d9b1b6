//! Call sites and imports in C and C++: the node shapes this language writes
//! calls, receivers, bindings and imports with, recorded by the language-free walk in
//! [`crate::syntax::refs`].

use crate::syntax::FieldExt;
use tree_sitter::Node;

use super::{CallShape, CalleeForm, CapsConstants, LangSpec, ResolveRules, any_comment};
use crate::model::{CallKind, CallSite, Import, ImportKind, Receiver, Usage};
use crate::syntax::refs::*;

pub(super) const SPEC: LangSpec = LangSpec {
    name: "c",
    extensions: &["c"],
    file_names: &[],
    shebangs: &[],
    separator: ".",
    grammar: || tree_sitter_c::LANGUAGE.into(),
    query: include_str!("queries/c.scm"),
    opaque: &OPAQUE,
    doc_comment: any_comment,
    docstrings: false,
    caps_constants: CapsConstants::None,
    wrappers: &[],
    methods_in_classes_only: false,
    typedef_names: true,
    jsdoc_param_types: false,
    calls: C_CALLS,
    resolve: ResolveRules {
        family: 0,
        file_static: true,
        transitive_includes: true,
        linked_names: true,
        has_methods: false,
        ..ResolveRules::PLAIN
    },
};

/// Words of C and C++ that a `(` follows without making a call.
const NOT_CALLED: &[&str] = &[
    "if",
    "while",
    "for",
    "switch",
    "return",
    "sizeof",
    "alignof",
    "_Alignof",
    "typeof",
    "__typeof__",
    "decltype",
    "defined",
    "__attribute__",
    "do",
    "case",
    "else",
    "static_assert",
    "_Static_assert",
    "__declspec",
    "noexcept",
    "throw",
];

impl Walker<'_> {
    /// The calls a function-like macro's body writes (`#define pop(L, n) settop(L, -(n)-1)`
    /// calls `settop`): a name followed by `(`, outside strings, not a member, not one of
    /// the macro's parameters, not pasted with `##`. The body is one token to tree-sitter;
    /// each call is placed at its name, inside the macro's definition.
    fn macro_body_calls(&mut self, body: Node, params: &[&str]) {
        let text = self.text(body).as_bytes();
        let base = body.start_byte();
        let (mut row, mut col) = (body.start_position().row, body.start_position().column);
        let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let mut i = 0;
        // The last byte before the current word that is not blank.
        let mut prev = 0u8;
        let mut prev2 = 0u8;
        // Moves over `text[from..to]`, keeping the line and column.
        let advance = |from: usize, to: usize, row: &mut usize, col: &mut usize| {
            for &c in &text[from..to] {
                if c == b'\n' {
                    *row += 1;
                    *col = 0;
                } else {
                    *col += 1;
                }
            }
        };
        while i < text.len() {
            let b = text[i];
            let rest = &text[i..];
            // Strings and characters (to their end, or the line's), and comments.
            let skip = if b == b'"' || b == b'\'' {
                let mut j = i + 1;
                while j < text.len() && text[j] != b && text[j] != b'\n' {
                    j += if text[j] == b'\\' { 2 } else { 1 };
                }
                Some(if j < text.len() && text[j] == b {
                    j + 1
                } else {
                    j
                })
            } else if rest.starts_with(b"/*") {
                Some(
                    rest.windows(2)
                        .skip(2)
                        .position(|w| w == b"*/")
                        .map_or(text.len(), |p| i + 2 + p + 2),
                )
            } else if rest.starts_with(b"//") {
                Some(
                    rest.iter()
                        .position(|&c| c == b'\n')
                        .map_or(text.len(), |p| i + p),
                )
            } else {
                None
            };
            if let Some(end) = skip {
                let end = end.min(text.len());
                advance(i, end, &mut row, &mut col);
                (prev2, prev) = (prev, b);
                i = end;
                continue;
            }
            if b == b'\n' {
                row += 1;
                col = 0;
                i += 1;
                continue;
            }
            if !(b.is_ascii_alphabetic() || b == b'_') {
                if !b.is_ascii_whitespace() && b != b'\\' {
                    (prev2, prev) = (prev, b);
                }
                i += 1;
                col += 1;
                continue;
            }
            let start = i;
            while i < text.len() && is_word(text[i]) {
                i += 1;
            }
            let word = std::str::from_utf8(&text[start..i]).unwrap_or("");
            let (word_row, word_col) = (row, col);
            col += i - start;
            let mut j = i;
            while j < text.len() && matches!(text[j], b' ' | b'\t') {
                j += 1;
            }
            let called = j < text.len() && text[j] == b'(';
            let member = prev == b'.' || (prev == b'>' && prev2 == b'-');
            let pasted = prev == b'#' || text.get(j..j + 2) == Some(b"##");
            if called
                && !member
                && !pasted
                && !NOT_CALLED.contains(&word)
                && !params.contains(&word)
            {
                self.calls.push((
                    base + start,
                    CallSite {
                        caller: None,
                        line: word_row as u32 + 1,
                        col: word_col as u32 + 1,
                        name: word.to_string(),
                        qualifier: None,
                        kind: CallKind::Plain,
                        receiver_type: None,
                        usage: Usage::Call,
                        args: None,
                        arg_types: None,
                    },
                ));
            }
            (prev2, prev) = (prev, b'a');
        }
    }
}

/// Node kinds without definitions in C and C++: definitions inside function bodies
/// (local structs and classes) are not indexed.
pub(super) const OPAQUE: [&str; 8] = [
    "compound_statement",
    "preproc_include",
    "string_literal",
    "raw_string_literal",
    "parameter_list",
    "argument_list",
    "initializer_list",
    "enumerator_list",
];

/// Calls in C and C++ (C's grammar has no templates, qualified names or `new`; the
/// shapes that name them never match there).
pub(super) const C_CALLS: &[CallShape] = &[
    CallShape {
        node: "call_expression",
        callee: Some("function"),
        unwrap: Some(("template_function", "name")),
        new: false,
        forms: &[
            CalleeForm::Name("identifier"),
            CalleeForm::QualifiedText("qualified_identifier"),
            CalleeForm::Member {
                node: "field_expression",
                object: "argument",
                name: "field",
                unwrap_name: Some(("template_method", "name")),
            },
        ],
    },
    CallShape {
        node: "new_expression",
        callee: Some("type"),
        unwrap: None,
        new: true,
        forms: &[CalleeForm::TypeName],
    },
];

impl Walker<'_> {
    pub(in crate::syntax) fn c(&mut self, node: Node) -> bool {
        match node.kind() {
            "declaration" | "parameter_declaration" | "field_declaration" | "for_range_loop" => {
                if let Some(t) = node.field("type") {
                    let ty = simple_type(self.text(t));
                    let mut c = node.walk();
                    let decls: Vec<Node> =
                        node.children_by_field_name("declarator", &mut c).collect();
                    for d in decls {
                        if let Some(n) = declared_identifier(d) {
                            let var = self.text(n).to_string();
                            if ty == "auto" {
                                if let Some(v) = d.field("value")
                                    && let Some(b) = self.bound_of(v)
                                {
                                    self.bind(node, &var, b);
                                }
                            } else {
                                self.bind(node, &var, Receiver::Type(ty.clone()));
                            }
                        }
                    }
                }
            }
            "preproc_include" => {
                if let Some(p) = node.field("path") {
                    let raw = self.text(p);
                    let system = raw.starts_with('<');
                    let module = raw
                        .trim_matches(|c| c == '"' || c == '<' || c == '>')
                        .to_string();
                    self.imports.push(
                        Import::new(node.start_position().row as u32 + 1, module)
                            .wildcard(true)
                            .of_kind(if system {
                                ImportKind::System
                            } else {
                                ImportKind::Module
                            }),
                    );
                }
                return false;
            }
            "preproc_function_def" => {
                if let Some(body) = node.field("value") {
                    let params: Vec<&str> = node
                        .field("parameters")
                        .map(|p| {
                            let mut c = p.walk();
                            p.named_children(&mut c).map(|n| self.text(n)).collect()
                        })
                        .unwrap_or_default();
                    self.macro_body_calls(body, &params);
                }
                return false;
            }
            "namespace_alias_definition" => {
                if let (Some(n), Some(target)) = (node.field("name"), node.named_child(1)) {
                    self.imports.push(
                        Import::new(
                            node.start_position().row as u32 + 1,
                            self.text(target).to_string(),
                        )
                        .aliased(self.text(n).to_string())
                        .of_kind(ImportKind::NamespaceAlias),
                    );
                }
                return false;
            }
            _ => {}
        }
        true
    }
}
