//! Call sites and imports in Go: the node shapes this language writes
//! calls, receivers, bindings and imports with, recorded by the language-free walk in
//! [`crate::syntax::refs`].

use crate::syntax::FieldExt;
use tree_sitter::Node;

use super::{
    CallShape, CalleeForm, CapsConstants, LangSpec, ResolveRules, Wrapper, Wraps, any_comment,
};
use crate::model::{Import, Receiver};
use crate::syntax::refs::*;

pub(super) const SPEC: LangSpec = LangSpec {
    name: "go",
    extensions: &["go"],
    file_names: &[],
    shebangs: &[],
    separator: ".",
    grammar: || tree_sitter_go::LANGUAGE.into(),
    query: include_str!("queries/go.scm"),
    opaque: &[
        "import_declaration",
        "interpreted_string_literal",
        "raw_string_literal",
        "parameter_list",
        "argument_list",
        "expression_statement",
        "short_var_declaration",
        "assignment_statement",
        "return_statement",
        "call_expression",
    ],
    doc_comment: any_comment,
    docstrings: false,
    caps_constants: CapsConstants::None,
    wrappers: &[
        Wrapper {
            parent: "type_declaration",
            when: Wraps::OnlyChild,
        },
        Wrapper {
            parent: "const_declaration",
            when: Wraps::OnlyChild,
        },
    ],
    methods_in_classes_only: false,
    typedef_names: false,
    jsdoc_param_types: false,
    calls: &[
        CallShape {
            node: "call_expression",
            callee: Some("function"),
            // A generic function instantiated at the call: `pkg.Get[int](x)`.
            unwrap: Some(("index_expression", "operand")),
            new: false,
            forms: &[
                CalleeForm::Name("identifier"),
                CalleeForm::Member {
                    node: "selector_expression",
                    object: "operand",
                    name: "field",
                    unwrap_name: None,
                },
            ],
        },
        // `get[int](x)` parses as a conversion to a generic type.
        CallShape {
            node: "type_conversion_expression",
            callee: Some("type"),
            unwrap: Some(("generic_type", "type")),
            new: false,
            forms: &[CalleeForm::Name("type_identifier")],
        },
    ],
    resolve: ResolveRules {
        family: 4,
        package_scope: true,
        builtins: BUILTINS,
        ..ResolveRules::PLAIN
    },
};

/// Go's predeclared functions, and its predeclared types: `int(x)` and `string(b)` are
/// conversions, written as calls.
const BUILTINS: &[&str] = &[
    "append",
    "cap",
    "clear",
    "close",
    "complex",
    "copy",
    "delete",
    "imag",
    "len",
    "make",
    "max",
    "min",
    "new",
    "panic",
    "print",
    "println",
    "real",
    "recover", // functions
    "any",
    "bool",
    "byte",
    "comparable",
    "complex64",
    "complex128",
    "error",
    "float32",
    "float64",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "rune",
    "string",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintptr", // types
];

impl Walker<'_> {
    pub(in crate::syntax) fn go(&mut self, node: Node) -> bool {
        match node.kind() {
            "short_var_declaration" | "assignment_statement" => {
                if let (Some(l), Some(r)) = (node.field("left"), node.field("right")) {
                    let mut c = l.walk();
                    let vars: Vec<Node> = l.named_children(&mut c).collect();
                    let mut c2 = r.walk();
                    let vals: Vec<Node> = r.named_children(&mut c2).collect();
                    if let (Some(v), Some(val)) = (vars.first(), vals.first())
                        && v.kind() == "identifier"
                        && let Some(b) = self.bound_of(*val)
                    {
                        let var = self.text(*v).to_string();
                        self.bind(node, &var, b);
                    }
                }
            }
            "var_spec" | "parameter_declaration" => {
                let ty = node.field("type").map(|t| simple_type(self.text(t)));
                let value = node
                    .field("value")
                    .and_then(|v| v.named_child(0))
                    .and_then(|v| self.bound_of(v));
                let mut c = node.walk();
                let names: Vec<Node> = node.children_by_field_name("name", &mut c).collect();
                for n in names {
                    let var = self.text(n).to_string();
                    if let Some(t) = &ty {
                        self.bind(node, &var, Receiver::Type(t.clone()));
                    } else if let Some(b) = &value {
                        self.bind(node, &var, b.clone());
                    }
                }
            }
            // `for _, f := range flags`: `f` is an element of `flags` (a `[]Flag` is read
            // as its element type).
            "range_clause" => {
                if let (Some(l), Some(r)) = (node.field("left"), node.field("right")) {
                    let mut c = l.walk();
                    let vars: Vec<Node> = l.named_children(&mut c).collect();
                    if let [_, v] = vars.as_slice()
                        && v.kind() == "identifier"
                        && let Some(b) = self.bound_of(r)
                    {
                        let var = self.text(*v).to_string();
                        self.bind(node, &var, b);
                    }
                }
            }
            // A struct's field: read through any value of the struct's type.
            "field_declaration" => {
                if let Some(t) = node.field("type") {
                    let ty = simple_type(self.text(t));
                    let mut c = node.walk();
                    let names: Vec<Node> = node.children_by_field_name("name", &mut c).collect();
                    for n in names {
                        if !ty.is_empty() {
                            let var = format!("this.{}", self.text(n));
                            self.bind(node, &var, Receiver::Type(ty.clone()));
                        }
                    }
                }
            }
            "import_spec" => {
                if let Some(p) = node.field("path") {
                    let module = unquote(self.text(p));
                    let alias = node.field("name").map(|n| self.text(n).to_string());
                    let wildcard = alias.as_deref() == Some(".");
                    self.imports.push(
                        Import::new(node.start_position().row as u32 + 1, module)
                            .aliased(alias.filter(|a| a != "."))
                            .wildcard(wildcard),
                    );
                }
                return false;
            }
            _ => {}
        }
        true
    }
}
