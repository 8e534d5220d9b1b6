//! Call sites and imports in Java: the node shapes this language writes
//! calls, receivers, bindings and imports with, recorded by the language-free walk in
//! [`crate::syntax::refs`].

use crate::syntax::FieldExt;
use tree_sitter::Node;

use super::{CallShape, CalleeForm, CapsConstants, LangSpec, ResolveRules, any_comment};
use crate::model::{Import, ImportKind, Receiver};
use crate::syntax::refs::*;

pub(super) const SPEC: LangSpec = LangSpec {
    name: "java",
    extensions: &["java"],
    file_names: &[],
    shebangs: &[],
    separator: ".",
    grammar: || tree_sitter_java::LANGUAGE.into(),
    query: include_str!("queries/java.scm"),
    opaque: &[
        "import_declaration",
        "package_declaration",
        "expression_statement",
        "local_variable_declaration",
        "return_statement",
        "argument_list",
        "formal_parameters",
        "string_literal",
        "annotation",
        "marker_annotation",
    ],
    doc_comment: any_comment,
    docstrings: false,
    caps_constants: CapsConstants::None,
    wrappers: &[],
    methods_in_classes_only: false,
    typedef_names: false,
    jsdoc_param_types: false,
    calls: &[
        CallShape {
            node: "method_invocation",
            callee: None,
            unwrap: None,
            new: false,
            forms: &[CalleeForm::NamedWithObject {
                name: "name",
                object: "object",
            }],
        },
        CallShape {
            node: "object_creation_expression",
            callee: Some("type"),
            unwrap: None,
            new: true,
            forms: &[CalleeForm::TypeName],
        },
    ],
    resolve: ResolveRules {
        family: 5,
        implicit_this: true,
        package_scope: true,
        super_receivers: &["super"],
        global_objects: &[
            "System", "Math", "String", "Integer", "Objects", "Arrays", "List", "Map",
        ],
        ..ResolveRules::PLAIN
    },
};

impl Walker<'_> {
    pub(in crate::syntax) fn java(&mut self, node: Node) -> bool {
        match node.kind() {
            "local_variable_declaration" | "field_declaration" => {
                if let Some(t) = node.field("type") {
                    let ty = simple_type(self.text(t));
                    let field = node.kind() == "field_declaration";
                    let mut c = node.walk();
                    let decls: Vec<Node> =
                        node.children_by_field_name("declarator", &mut c).collect();
                    for d in decls {
                        if let Some(n) = d.field("name") {
                            let var = self.text(n).to_string();
                            let b = if ty == "var" {
                                match d.field("value").and_then(|v| self.bound_of(v)) {
                                    Some(b) => b,
                                    None => continue,
                                }
                            } else {
                                Receiver::Type(ty.clone())
                            };
                            if field {
                                self.bind(node, &format!("this.{var}"), b.clone());
                            }
                            self.bind(node, &var, b);
                        }
                    }
                }
            }
            "formal_parameter" | "enhanced_for_statement" => {
                if let (Some(t), Some(n)) = (node.field("type"), node.field("name")) {
                    let (var, ty) = (self.text(n).to_string(), simple_type(self.text(t)));
                    self.bind(node, &var, Receiver::Type(ty));
                }
            }
            "import_declaration" => {
                let text = self.text(node);
                let is_static = text.split_whitespace().nth(1) == Some("static");
                let wildcard = text.contains('*');
                let mut c = node.walk();
                let path = node
                    .named_children(&mut c)
                    .find(|n| matches!(n.kind(), "scoped_identifier" | "identifier"))
                    .map(|n| self.text(n).to_string())
                    .unwrap_or_default();
                let line = node.start_position().row as u32 + 1;
                let (module, name) = if wildcard {
                    (path, None)
                } else {
                    match path.rsplit_once('.') {
                        Some((m, n)) => (m.to_string(), Some(n.to_string())),
                        None => (String::new(), Some(path)),
                    }
                };
                self.imports.push(
                    Import::new(line, module)
                        .named(name)
                        .wildcard(wildcard)
                        .of_kind(if is_static {
                            ImportKind::Static
                        } else {
                            ImportKind::Module
                        }),
                );
                return false;
            }
            _ => {}
        }
        true
    }
}
