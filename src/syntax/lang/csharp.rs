//! Call sites, bindings and imports in C#: the node shapes this language writes calls,
//! receivers and imports with, recorded by the language-free walk in
//! [`crate::syntax::refs`].
//!
//! `f()`, `x.M()`, `x.M<T>()`, `x?.M()` and `new Foo(…)` are calls (`new Shop.Foo<T>(…)` is
//! a construction of `Foo`; `Foo x = new(…)` of the declared type); `base.M()` is a call on
//! the class's first base. Locals, parameters, `foreach` variables, fields and properties
//! are typed by their declared type (`var` by the value). `using A.B;` makes the types of
//! namespace `A.B` visible, `using X = A.B.C;` names one (or a namespace), `using static
//! A.B.C;` makes the static members of class `C` callable unqualified, and the file's own
//! `namespace A.B` makes the types of `A.B` and of `A` visible (recorded as an import of
//! kind [`ImportKind::Package`]). `global using A.B;` does for every file of the project
//! what `using A.B;` does for its own ([`ImportKind::Global`]).

use crate::syntax::FieldExt;
use tree_sitter::Node;

use super::{CallShape, CalleeForm, CapsConstants, LangSpec, ResolveRules, any_comment};
use crate::model::{CallKind, Import, ImportKind, Receiver};
use crate::syntax::refs::*;

pub(super) const SPEC: LangSpec = LangSpec {
    name: "csharp",
    extensions: &["cs"],
    file_names: &[],
    shebangs: &[],
    separator: ".",
    grammar: || tree_sitter_c_sharp::LANGUAGE.into(),
    query: include_str!("queries/csharp.scm"),
    opaque: &[
        "using_directive",
        "expression_statement",
        "return_statement",
        "argument_list",
        "parameter_list",
        "attribute_list",
        "string_literal",
        "verbatim_string_literal",
        "raw_string_literal",
        "interpolated_string_expression",
    ],
    doc_comment: any_comment,
    docstrings: false,
    caps_constants: CapsConstants::None,
    wrappers: &[],
    methods_in_classes_only: true,
    typedef_names: false,
    jsdoc_param_types: false,
    calls: &[
        CallShape {
            node: "invocation_expression",
            callee: Some("function"),
            unwrap: Some(("generic_name", "")),
            new: false,
            forms: &[
                CalleeForm::Name("identifier"),
                CalleeForm::Member {
                    node: "member_access_expression",
                    object: "expression",
                    name: "name",
                    unwrap_name: Some(("generic_name", "")),
                },
            ],
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
        family: 10,
        implicit_this: true,
        super_receivers: &["base"],
        types_not_callable: true,
        overloads: true,
        builtins: &["nameof"],
        global_objects: &[
            "Console",
            "Math",
            "String",
            "string",
            "Convert",
            "Enumerable",
            "Array",
            "Task",
            "Environment",
            "Path",
            "File",
            "Directory",
            "Debug",
            "Trace",
            "GC",
            "Interlocked",
            "Volatile",
            "Activator",
            "Encoding",
            "Guid",
            "DateTime",
            "DateTimeOffset",
            "TimeSpan",
            "Object",
            "object",
            "Type",
            "Assert",
        ],
        ..ResolveRules::PLAIN
    },
};

/// Words that stand before a method's return type in its signature, never a type.
pub(crate) const MODIFIERS: &[&str] = &[
    "public",
    "private",
    "protected",
    "internal",
    "static",
    "virtual",
    "override",
    "abstract",
    "sealed",
    "async",
    "extern",
    "unsafe",
    "new",
    "partial",
    "readonly",
    "void",
];

impl Walker<'_> {
    pub(in crate::syntax) fn csharp(&mut self, node: Node) -> bool {
        match node.kind() {
            "invocation_expression" => self.cs_invocation(node),
            "object_creation_expression" => self.cs_creation(node),
            "implicit_object_creation_expression" => self.cs_implicit_creation(node),
            "variable_declaration" => self.cs_declaration(node),
            "property_declaration" => {
                if let (Some(t), Some(n)) = (node.field("type"), node.field("name")) {
                    let ty = cs_simple_type(self.text(t));
                    let var = self.text(n).to_string();
                    self.bind(node, &format!("this.{var}"), Receiver::Type(ty.clone()));
                    self.bind(node, &var, Receiver::Type(ty));
                }
            }
            // A `params` array stands in the list itself, not in a `parameter`; `out T x`
            // declares `x` in an argument.
            "parameter" | "parameter_list" | "declaration_expression" => {
                if let (Some(t), Some(n)) = (node.field("type"), node.field("name"))
                    && t.kind() != "implicit_type"
                {
                    let ty = cs_simple_type(self.text(t));
                    let var = self.text(n).to_string();
                    self.bind(node, &var, Receiver::Type(ty));
                }
            }
            "foreach_statement" => {
                if let (Some(t), Some(var), Some(iterable)) =
                    (node.field("type"), node.field("left"), node.field("right"))
                {
                    if t.kind() == "implicit_type" {
                        self.bind_element(node, var, iterable);
                    } else if var.kind() == "identifier" {
                        let name = self.text(var).to_string();
                        self.bind(node, &name, Receiver::Type(cs_simple_type(self.text(t))));
                    }
                }
            }
            "using_directive" => {
                self.cs_using(node);
                return false;
            }
            "namespace_declaration" | "file_scoped_namespace_declaration" => {
                let name = self.cs_namespace(node);
                if !name.is_empty() {
                    let line = node.start_position().row as u32 + 1;
                    self.imports.push(
                        Import::new(line, name)
                            .wildcard(true)
                            .of_kind(ImportKind::Package),
                    );
                }
            }
            _ => {}
        }
        true
    }

    /// Calls the shapes do not read, or read as written but meaning another: `x?.M()` (a
    /// call on `x`), `base.M()` (on the class's first base).
    fn cs_invocation(&mut self, node: Node) {
        let Some(f) = node.field("function") else {
            return;
        };
        if let Some(args) = node.field("arguments") {
            let types = self.cs_arg_types(args);
            let start = node.start_byte();
            if let Some((at, call)) = self.calls.last_mut()
                && *at == start
            {
                call.arg_types = types;
            }
        }
        match f.kind() {
            "conditional_access_expression" => {
                let (Some(cond), Some(binding)) = (
                    f.field("condition"),
                    f.named_child(f.named_child_count().saturating_sub(1)),
                ) else {
                    return;
                };
                if binding.kind() != "member_binding_expression" {
                    return;
                }
                let Some(name) = binding.field("name") else {
                    return;
                };
                let name = match name.kind() {
                    "generic_name" => name.named_child(0).unwrap_or(name),
                    _ => name,
                };
                self.push_member(name, cond, CallKind::Member, node);
            }
            "member_access_expression" => {
                let is_base = f.field("expression").is_some_and(|e| e.kind() == "base");
                if !is_base {
                    return;
                }
                let base = self.cs_first_base(node);
                let start = node.start_byte();
                if let Some((at, call)) = self.calls.last_mut()
                    && *at == start
                {
                    match base {
                        Some(b) => {
                            call.qualifier = Some(b.clone());
                            call.receiver_type = Some(Receiver::Type(b));
                        }
                        // No base named: `object`'s methods.
                        None => call.qualifier = Some("object".to_string()),
                    }
                }
            }
            _ => {}
        }
    }

    /// The types of a call's arguments as far as they are written (see
    /// [`crate::model::CallSite::arg_types`]): literals, casts, `new T(…)`, lambdas, and
    /// variables (`$name`, typed by their binding later). Nothing after a named argument
    /// (it may stand anywhere); `None` when no argument says anything.
    fn cs_arg_types(&self, args: Node) -> Option<String> {
        let mut out: Vec<String> = Vec::new();
        let mut c = args.walk();
        for a in args.named_children(&mut c) {
            if a.kind() != "argument" || a.field("name").is_some() {
                break;
            }
            let Some(v) = a.named_child(a.named_child_count().saturating_sub(1)) else {
                break;
            };
            let t = match v.kind() {
                "lambda_expression" | "anonymous_method_expression" => "=>".to_string(),
                "string_literal"
                | "verbatim_string_literal"
                | "raw_string_literal"
                | "interpolated_string_expression" => "string".to_string(),
                "null_literal" => "null".to_string(),
                "boolean_literal" => "bool".to_string(),
                "typeof_expression" => "Type".to_string(),
                "object_creation_expression" => v
                    .field("type")
                    .map(|t| self.cs_type_name(t))
                    .unwrap_or_default(),
                "cast_expression" => v
                    .field("type")
                    .map(|t| cs_simple_type(self.text(t)))
                    .unwrap_or_default(),
                "identifier" => format!("${}", self.text(v)),
                _ => String::new(),
            };
            out.push(if t.is_empty() || t.contains(',') {
                "?".to_string()
            } else {
                t
            });
        }
        let said = out.iter().any(|t| t != "?");
        (said && out.len() <= 32).then(|| out.join(","))
    }

    /// `new Shop.Item<T>(…)`: the construction of `Item`, by its last name without type
    /// arguments.
    fn cs_creation(&mut self, node: Node) {
        let Some(t) = node.field("type") else {
            return;
        };
        let name = self.cs_type_name(t);
        let start = node.start_byte();
        if let Some((at, call)) = self.calls.last_mut()
            && *at == start
            && call.kind == CallKind::New
            && !name.is_empty()
        {
            call.name = name;
        }
    }

    /// `Item x = new(…)`: the construction of the declared type.
    fn cs_implicit_creation(&mut self, node: Node) {
        let Some(decl) = node
            .parent()
            .filter(|p| p.kind() == "variable_declarator")
            .and_then(|d| d.parent())
            .filter(|p| p.kind() == "variable_declaration")
        else {
            return;
        };
        let Some(t) = decl.field("type") else {
            return;
        };
        if t.kind() == "implicit_type" {
            return;
        }
        let name = self.cs_type_name(t);
        if !name.is_empty() {
            self.push_call(node, &name, None, CallKind::New, node);
        }
    }

    /// A type's own name as written: `Item` in `Shop.Item`, `List<Item>`, `Item?`,
    /// `global::Shop.Item`.
    fn cs_type_name(&self, t: Node) -> String {
        let mut t = t;
        for _ in 0..64 {
            t = match t.kind() {
                "qualified_name" | "alias_qualified_name" => match t.field("name") {
                    Some(n) => n,
                    None => break,
                },
                "generic_name" | "nullable_type" => match t.named_child(0) {
                    Some(n) => n,
                    None => break,
                },
                "identifier" => return self.text(t).to_string(),
                _ => break,
            };
        }
        simple_type(self.text(t))
    }

    /// `Type a = …, b;` (a local, a field, a `using` resource): each variable typed by the
    /// declared type, or by its value under `var`; a field also as `this.name`.
    fn cs_declaration(&mut self, node: Node) {
        let Some(t) = node.field("type") else {
            return;
        };
        let is_var = t.kind() == "implicit_type";
        let ty = cs_simple_type(self.text(t));
        let field = node
            .parent()
            .is_some_and(|p| p.kind() == "field_declaration");
        let mut c = node.walk();
        let decls: Vec<Node> = node
            .named_children(&mut c)
            .filter(|d| d.kind() == "variable_declarator")
            .collect();
        for d in decls {
            let Some(n) = d.field("name") else {
                continue;
            };
            let var = self.text(n).to_string();
            let b = if is_var {
                let value = d
                    .named_child(d.named_child_count().saturating_sub(1))
                    .filter(|v| v.id() != n.id());
                match value.and_then(|v| self.bound_of(v)) {
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

    /// `using A.B;`, `using X = A.B.C;`, `using static A.B.C;`, `global using …`.
    fn cs_using(&mut self, node: Node) {
        let line = node.start_position().row as u32 + 1;
        let text = self.text(node);
        let is_static = text.split_whitespace().take(3).any(|w| w == "static");
        let alias = node.field("name").map(|n| self.text(n).to_string());
        let mut c = node.walk();
        let target = node
            .named_children(&mut c)
            .filter(|n| Some(n.id()) != node.field("name").map(|x| x.id()))
            .find(|n| {
                matches!(
                    n.kind(),
                    "identifier" | "qualified_name" | "alias_qualified_name" | "generic_name"
                )
            });
        let Some(target) = target else {
            return;
        };
        let path = cs_path(self.text(target));
        if path.is_empty() || path.len() > 512 {
            return;
        }
        let import = match (alias, is_static) {
            (Some(alias), _) => {
                let (module, name) = match path.rsplit_once('.') {
                    Some((m, n)) => (m.to_string(), n.to_string()),
                    None => (String::new(), path),
                };
                Import::new(line, module)
                    .named(Some(name))
                    .aliased(Some(alias))
            }
            (None, true) => Import::new(line, path)
                .wildcard(true)
                .of_kind(ImportKind::Static),
            (None, false) if text.starts_with("global ") => Import::new(line, path)
                .wildcard(true)
                .of_kind(ImportKind::Global),
            (None, false) => Import::new(line, path).wildcard(true),
        };
        self.imports.push(import);
    }

    /// The full name of a namespace declaration, with the namespaces around it
    /// (`namespace A { namespace B.C {…} }` → `A.B.C`).
    fn cs_namespace(&self, node: Node) -> String {
        let mut parts = Vec::new();
        let mut n = Some(node);
        while let Some(p) = n {
            if matches!(
                p.kind(),
                "namespace_declaration" | "file_scoped_namespace_declaration"
            ) && let Some(name) = p.field("name")
            {
                parts.push(cs_path(self.text(name)));
            }
            n = p.parent();
        }
        parts.reverse();
        parts.join(".")
    }

    /// The first base the class or struct around `node` names (`class A : B, IC` → `B`).
    fn cs_first_base(&self, node: Node) -> Option<String> {
        let p = enclosing(
            node,
            &[
                "class_declaration",
                "record_declaration",
                "struct_declaration",
            ],
        )?;
        let mut c = p.walk();
        let list = p.named_children(&mut c).find(|x| x.kind() == "base_list")?;
        let first = list.named_child(0)?;
        let first = match first.kind() {
            // `record B(int X) : A(X)`.
            "primary_constructor_base_type" => first.named_child(0)?,
            _ => first,
        };
        let name = self.cs_type_name(first);
        (!name.is_empty()).then_some(name)
    }
}

/// [`simple_type`] of a C# type without its nullable marks (`object?[]?` → `object[]`).
fn cs_simple_type(text: &str) -> String {
    simple_type(&text.replace('?', ""))
}

/// A namespace or type path as written, without `global::` and whitespace.
fn cs_path(text: &str) -> String {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    match t.split_once("::") {
        Some((_, rest)) => rest.to_string(),
        None => t,
    }
}
