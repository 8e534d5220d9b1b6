//! Call sites and imports in C and C++: the node shapes this language writes
//! calls, receivers, bindings and imports with, recorded by the language-free walk in
//! [`crate::syntax::refs`].

use tree_sitter::Node;

use super::{CallShape, CalleeForm, CapsConstants, LangSpec, ResolveRules, any_comment};
use crate::model::{Import, ImportKind, Receiver};
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
            "namespace_alias_definition" => {
                if let (Some(n), Some(target)) =
                    (node.child_by_field_name("name"), node.named_child(1))
                {
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
