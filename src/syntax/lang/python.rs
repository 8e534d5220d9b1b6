//! Call sites and imports in Python: the node shapes this language writes
//! calls, receivers, bindings and imports with, recorded by the language-free walk in
//! [`crate::syntax::refs`].

use crate::syntax::FieldExt;
use tree_sitter::Node;

use super::{CallShape, CalleeForm, CapsConstants, LangSpec, ResolveRules, any_comment};
use crate::model::{Import, Receiver};
use crate::syntax::refs::*;

pub(super) const SPEC: LangSpec = LangSpec {
    name: "python",
    extensions: &["py", "pyi", "pyw"],
    file_names: &[],
    shebangs: &[],
    separator: ".",
    grammar: || tree_sitter_python::LANGUAGE.into(),
    query: include_str!("queries/python.scm"),
    opaque: &[
        "expression_statement",
        "return_statement",
        "import_statement",
        "import_from_statement",
        "future_import_statement",
        "assert_statement",
        "raise_statement",
        "delete_statement",
        "global_statement",
        "nonlocal_statement",
        "print_statement",
        "exec_statement",
        "type_alias_statement",
        "decorator",
        "parameters",
        "argument_list",
        "string",
    ],
    doc_comment: any_comment,
    docstrings: true,
    caps_constants: CapsConstants::ModuleLevel,
    wrappers: &[],
    methods_in_classes_only: false,
    typedef_names: false,
    jsdoc_param_types: false,
    calls: &[CallShape {
        node: "call",
        callee: Some("function"),
        unwrap: None,
        new: false,
        forms: &[
            CalleeForm::Name("identifier"),
            CalleeForm::Member {
                node: "attribute",
                object: "object",
                name: "attribute",
                unwrap_name: None,
            },
        ],
    }],
    resolve: ResolveRules {
        family: 3,
        follows_wildcards: true,
        // `super(Cls, self)` too (see `resolve_qualified`).
        super_receivers: &["super()"],
        caps_are_types: false,
        builtins: BUILTINS,
        ..ResolveRules::PLAIN
    },
};

/// Python's builtins: never a repository definition.
const BUILTINS: &[&str] = &[
    "abs",
    "all",
    "any",
    "bool",
    "bytes",
    "callable",
    "chr",
    "dict",
    "dir",
    "divmod",
    "enumerate",
    "filter",
    "float",
    "format",
    "frozenset",
    "getattr",
    "hasattr",
    "hash",
    "id",
    "input",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
    "object",
    "open",
    "ord",
    "pow",
    "print",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "setattr",
    "slice",
    "sorted",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "vars",
    "zip",
];

impl Walker<'_> {
    /// The name an assignment binds: a variable, or `self.x` (an attribute of the
    /// instance, a field of its class).
    fn assigned_name(&self, left: Node) -> Option<String> {
        match left.kind() {
            "identifier" => Some(self.text(left).to_string()),
            "attribute" => {
                let object = left.field("object")?;
                let attr = left.field("attribute")?;
                (self.text(object) == "self").then(|| format!("self.{}", self.text(attr)))
            }
            _ => None,
        }
    }

    pub(in crate::syntax) fn python(&mut self, node: Node) -> bool {
        match node.kind() {
            // `x = f()`, `x: T = f()`, and `x: T` alone (a name declared before a `with`
            // or a loop binds it).
            "assignment" => {
                if let Some(left) = node.field("left")
                    && let Some(var) = self.assigned_name(left)
                {
                    if let Some(t) = node.field("type") {
                        self.bind(node, &var, Receiver::Type(simple_type(self.text(t))));
                    } else if let Some(b) = node.field("right").and_then(|r| self.bound_of(r)) {
                        self.bind(node, &var, b);
                    }
                }
            }
            // `for item in shelf.items:` and `[i.total() for i in shelf.items]`.
            "for_statement" | "for_in_clause" => {
                if let (Some(l), Some(r)) = (node.field("left"), node.field("right")) {
                    self.bind_element(node, l, r);
                }
            }
            // `**kwargs` is a dict, `*args` a tuple.
            "dictionary_splat_pattern" | "list_splat_pattern"
                if node.parent().is_some_and(|p| p.kind() == "parameters") =>
            {
                if let Some(n) = node.named_child(0).filter(|n| n.kind() == "identifier") {
                    let ty = match node.kind() {
                        "dictionary_splat_pattern" => "dict",
                        _ => "tuple",
                    };
                    let var = self.text(n).to_string();
                    self.bind(node, &var, Receiver::Type(ty.to_string()));
                }
            }
            "typed_parameter" | "typed_default_parameter" => {
                let name = node.field("name").or_else(|| node.named_child(0));
                if let (Some(n), Some(t)) = (name, node.field("type"))
                    && n.kind() == "identifier"
                {
                    let (var, ty) = (self.text(n).to_string(), simple_type(self.text(t)));
                    self.bind(node, &var, Receiver::Type(ty));
                }
            }
            "import_statement" => {
                let line = node.start_position().row as u32 + 1;
                let mut c = node.walk();
                for child in node.children_by_field_name("name", &mut c) {
                    let (module, alias) = match child.kind() {
                        "aliased_import" => (
                            child.field("name").map(|n| self.text(n)),
                            child.field("alias").map(|n| self.text(n).to_string()),
                        ),
                        _ => (Some(self.text(child)), None),
                    };
                    if let Some(m) = module {
                        self.imports
                            .push(Import::new(line, m.to_string()).aliased(alias));
                    }
                }
                return false;
            }
            "import_from_statement" => {
                let line = node.start_position().row as u32 + 1;
                let module = node
                    .field("module_name")
                    .map(|m| self.text(m).to_string())
                    .unwrap_or_default();
                let mut c = node.walk();
                let mut any = false;
                for child in node.children_by_field_name("name", &mut c) {
                    any = true;
                    let (name, alias) = match child.kind() {
                        "aliased_import" => (
                            child.field("name").map(|n| self.text(n).to_string()),
                            child.field("alias").map(|n| self.text(n).to_string()),
                        ),
                        _ => (Some(self.text(child).to_string()), None),
                    };
                    self.imports
                        .push(Import::new(line, module.clone()).named(name).aliased(alias));
                }
                if !any {
                    self.imports.push(Import::new(line, module).wildcard(true));
                }
                return false;
            }
            _ => {}
        }
        true
    }
}
