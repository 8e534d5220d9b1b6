//! Call sites and imports in C and C++: the node shapes this language writes
//! calls, receivers, bindings and imports with, recorded by the language-free walk in
//! [`crate::syntax::refs`].

use tree_sitter::Node;

use super::{CapsConstants, LangSpec, any_comment};
use crate::model::{CallKind, Import, ImportKind, Receiver};
use crate::syntax::refs::*;

pub(super) const SPEC: LangSpec = LangSpec {
    name: "c",
    extensions: &["c"],
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
    visit: |w, n| w.c(n),
};

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

impl Walker<'_> {
    pub(in crate::syntax) fn c(&mut self, node: Node) -> bool {
        match node.kind() {
            "call_expression" => {
                if let Some(f) = node.child_by_field_name("function") {
                    let f = if f.kind() == "template_function" {
                        f.child_by_field_name("name").unwrap_or(f)
                    } else {
                        f
                    };
                    match f.kind() {
                        "identifier" => {
                            let n = self.text(f);
                            self.push_call(f, n, None, CallKind::Plain, node);
                        }
                        "qualified_identifier" => {
                            let full = self.text(f);
                            if let Some((q, n)) = full.rsplit_once("::") {
                                let name_node = last_named_leaf(f);
                                let n = n.split('<').next().unwrap_or(n).trim();
                                self.push_call(
                                    name_node,
                                    n,
                                    Some(q.trim().to_string()),
                                    CallKind::Path,
                                    node,
                                );
                            }
                        }
                        "field_expression" => {
                            if let (Some(obj), Some(field)) = (
                                f.child_by_field_name("argument"),
                                f.child_by_field_name("field"),
                            ) {
                                let field = if field.kind() == "template_method" {
                                    field.child_by_field_name("name").unwrap_or(field)
                                } else {
                                    field
                                };
                                self.push_member(field, obj, CallKind::Member, node);
                            }
                        }
                        _ => {}
                    }
                }
            }
            "new_expression" => {
                if let Some(t) = node.child_by_field_name("type") {
                    let ty = simple_type(self.text(t));
                    self.push_call(t, &ty, None, CallKind::New, node);
                }
            }
            "declaration" | "parameter_declaration" | "field_declaration" | "for_range_loop" => {
                if let Some(t) = node.child_by_field_name("type") {
                    let ty = simple_type(self.text(t));
                    let mut c = node.walk();
                    let decls: Vec<Node> =
                        node.children_by_field_name("declarator", &mut c).collect();
                    for d in decls {
                        if let Some(n) = declared_identifier(d) {
                            let var = self.text(n).to_string();
                            if ty == "auto" {
                                if let Some(v) = d.child_by_field_name("value")
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
                if let Some(p) = node.child_by_field_name("path") {
                    let raw = self.text(p);
                    let system = raw.starts_with('<');
                    let module = raw
                        .trim_matches(|c| c == '"' || c == '<' || c == '>')
                        .to_string();
                    self.imports.push(Import {
                        line: node.start_position().row as u32 + 1,
                        module,
                        kind: if system {
                            ImportKind::System
                        } else {
                            ImportKind::Module
                        },
                        name: None,
                        alias: None,
                        wildcard: true,
                    });
                }
                return false;
            }
            "namespace_alias_definition" => {
                if let (Some(n), Some(target)) =
                    (node.child_by_field_name("name"), node.named_child(1))
                {
                    self.imports.push(Import {
                        line: node.start_position().row as u32 + 1,
                        module: self.text(target).to_string(),
                        kind: ImportKind::NamespaceAlias,
                        name: None,
                        alias: Some(self.text(n).to_string()),
                        wildcard: false,
                    });
                }
                return false;
            }
            _ => {}
        }
        true
    }
}
