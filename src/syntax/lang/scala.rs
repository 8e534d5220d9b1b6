//! Calls, bindings and imports in Scala: `f(x)`, `a.f(x)`, `a.f[T](x)` and `new T(x)` are
//! calls, and so are the forms Scala writes method calls in without parentheses: a member
//! read `a.size` (uniform access: a parameterless `def` is called so) and an infix call
//! `a max b` (an alphanumeric operator). `import a.b.C`, `import a.b.{C, D => E}` (or
//! `D as E`), `import a.b._` (or `a.b.*`) import names; a path whose last segment is
//! capitalised (`import a.Obj._`, `import a.Obj.f`) imports an object's members, as
//! Java's `import static` does. Typed `val`s, parameters and class parameters, and values
//! built by `new T(…)`, `T(…)` or a call, type the calls made on them.

use crate::syntax::FieldExt;
use tree_sitter::Node;

use super::{CallShape, CalleeForm, CapsConstants, LangSpec, ResolveRules, any_comment};
use crate::model::{CallKind, Import, ImportKind, Receiver};
use crate::syntax::refs::*;

pub(super) const SPEC: LangSpec = LangSpec {
    name: "scala",
    extensions: &["scala", "sc", "mill"],
    file_names: &[],
    shebangs: &["scala"],
    separator: ".",
    grammar: || tree_sitter_scala::LANGUAGE.into(),
    query: include_str!("queries/scala.scm"),
    opaque: &[
        "import_declaration",
        "parameters",
        "class_parameters",
        "string",
        "interpolated_string_expression",
        "annotation",
    ],
    doc_comment: any_comment,
    docstrings: false,
    caps_constants: CapsConstants::UpperVals,
    wrappers: &[],
    methods_in_classes_only: false,
    typedef_names: false,
    jsdoc_param_types: false,
    calls: &[
        CallShape {
            node: "call_expression",
            callee: Some("function"),
            unwrap: Some(("generic_function", "function")),
            new: false,
            forms: &[
                CalleeForm::Name("identifier"),
                CalleeForm::Member {
                    node: "field_expression",
                    object: "value",
                    name: "field",
                    unwrap_name: None,
                },
            ],
        },
        // `new T(…)`, `new a.T[U](…)`: the type is the first named child.
        CallShape {
            node: "instance_expression",
            callee: None,
            unwrap: Some(("instance_expression", "")),
            new: true,
            forms: &[CalleeForm::TypeName],
        },
    ],
    resolve: ResolveRules {
        family: 13,
        implicit_this: true,
        super_receivers: &["super"],
        package_scope: true,
        std_roots: &["scala", "java", "javax", "sys"],
        builtins: BUILTINS,
        global_objects: &[
            "List",
            "Seq",
            "Vector",
            "Map",
            "Set",
            "Array",
            "Option",
            "Some",
            "None",
            "Nil",
            "Iterator",
            "Either",
            "Left",
            "Right",
            "Try",
            "Success",
            "Failure",
            "Future",
            "Console",
            "System",
            "Math",
            "math",
            "Predef",
            "StringBuilder",
            "String",
            "Integer",
        ],
        ..ResolveRules::PLAIN
    },
};

/// How many statements before a call its block is searched for a local of the called
/// name (a generated block of thousands of statements costs no more per call).
const MAX_LOCALS_SCANNED: usize = 256;

/// What every Scala file can call without an import (`Predef` and the collection
/// constructors of `scala._`): never a repository definition unless the repository
/// defines one where the caller sees it.
const BUILTINS: &[&str] = &[
    "println",
    "print",
    "printf",
    "require",
    "assert",
    "assume",
    "identity",
    "implicitly",
    "summon",
    "locally",
    "classOf",
    "List",
    "Seq",
    "Vector",
    "Map",
    "Set",
    "Array",
    "Option",
    "Some",
    "Iterator",
    "Left",
    "Right",
    "Try",
    "Success",
    "Failure",
    "StringBuilder",
];

impl Walker<'_> {
    pub(in crate::syntax) fn scala(&mut self, node: Node) -> bool {
        match node.kind() {
            "field_expression" => self.scala_member_read(node),
            "call_expression" => {
                // `xs(i)`, `f(x)` on a parameter or a local value: its `apply`, not a call
                // of a definition named so (recorded by the call shape: taken back).
                if let Some(f) = node.field("function")
                    && f.kind() == "identifier"
                    && self.written_as_value(self.text(f))
                    && self.scala_is_local(node, self.text(f))
                    && self
                        .calls
                        .last()
                        .is_some_and(|(at, c)| *at == node.start_byte() && c.name == self.text(f))
                {
                    self.calls.pop();
                }
            }
            "infix_expression" => {
                // `a max b`: a method call; `a + b` (a symbolic operator) is not recorded.
                if let (Some(op), Some(left)) = (node.field("operator"), node.field("left"))
                    && op.kind() == "identifier"
                {
                    self.push_member(op, left, CallKind::Member, node);
                }
            }
            "val_definition" | "var_definition" => {
                let Some(pattern) = node.field("pattern") else {
                    return true;
                };
                if pattern.kind() == "identifier" {
                    let var = self.text(pattern).to_string();
                    let b = match node.field("type") {
                        Some(t) => Some(Receiver::Type(self.scala_type(t))),
                        None => node.field("value").and_then(|v| self.scala_bound_of(v)),
                    };
                    if let Some(b) = b {
                        self.bind(node, &var, b);
                    }
                }
            }
            "parameter" | "class_parameter" => {
                if let (Some(n), Some(t)) = (node.field("name"), node.field("type")) {
                    let (var, ty) = (self.text(n).to_string(), self.scala_type(t));
                    self.bind(node, &var, Receiver::Type(ty));
                }
            }
            "import_declaration" => {
                self.scala_import(node);
                return false;
            }
            _ => {}
        }
        true
    }

    /// `a.f` read without a call: Scala calls a parameterless method so (`p.size`,
    /// `this.total`). Not when it is a call's callee (recorded as the call), an argument,
    /// the target of an assignment, or a capitalised name (an object or a constant:
    /// `a.Config`).
    fn scala_member_read(&mut self, node: Node) {
        let (Some(value), Some(field)) = (node.field("value"), node.field("field")) else {
            return;
        };
        if field.kind() != "identifier" || self.text(field).starts_with(|c: char| c.is_uppercase())
        {
            return;
        }
        if let Some(p) = self.ancestors().next() {
            // An argument (`xs.foreach(Obj.check)`) may be a method passed on rather than
            // called: a use, recorded as one by the walk when it may name a function.
            if p.kind() == "arguments" {
                return;
            }
            let is_node = |n: Option<Node>| n.is_some_and(|n| n.id() == node.id());
            let called = matches!(p.kind(), "call_expression" | "generic_function")
                && is_node(p.field("function"));
            let assigned = p.kind() == "assignment_expression" && is_node(p.field("left"));
            if called || assigned {
                return;
            }
        }
        self.push_member(field, value, CallKind::Member, node);
    }

    /// Whether `name` at `from` is a parameter (of an enclosing `def`, lambda or class) or
    /// a `val`/`var` of an enclosing block written before it. Members of a class or
    /// object are not locals: the walk up stops there. `from` is the node being visited.
    fn scala_is_local(&self, from: Node, name: &str) -> bool {
        let mut child = from.id();
        for n in self.ancestors() {
            match n.kind() {
                "function_definition" | "lambda_expression" | "class_definition" => {
                    let mut c = n.walk();
                    let lists: Vec<Node> = n
                        .named_children(&mut c)
                        .filter(|p| {
                            matches!(p.kind(), "parameters" | "class_parameters" | "bindings")
                                || (p.kind() == "identifier"
                                    && n.kind() == "lambda_expression"
                                    && n.field("parameters") == Some(*p))
                        })
                        .collect();
                    for list in lists {
                        if list.kind() == "identifier" {
                            if self.text(list) == name {
                                return true;
                            }
                            continue;
                        }
                        let mut c2 = list.walk();
                        let hit = list
                            .named_children(&mut c2)
                            .any(|p| p.field("name").is_some_and(|x| self.text(x) == name));
                        if hit {
                            return true;
                        }
                    }
                    if n.kind() == "class_definition" {
                        return false;
                    }
                }
                "object_definition" | "trait_definition" | "enum_definition" => return false,
                "block" | "indented_block" => {
                    // The statements before `child`, read forwards: each step to a
                    // previous sibling walks down from the root in tree-sitter (4 % of the
                    // index of os-lib went there).
                    let mut c = n.walk();
                    let before: Vec<Node> = n
                        .named_children(&mut c)
                        .take_while(|stmt| stmt.id() != child)
                        .collect();
                    let declared = before.iter().rev().take(MAX_LOCALS_SCANNED).any(|stmt| {
                        matches!(stmt.kind(), "val_definition" | "var_definition")
                            && stmt.field("pattern").is_some_and(|p| self.text(p) == name)
                    });
                    if declared {
                        return true;
                    }
                }
                _ => {}
            }
            child = n.id();
        }
        false
    }

    /// The bare name of a written type, through an import alias (`import a.{Store => Db}`:
    /// a `Db` is a `Store`, whose methods its calls reach).
    fn scala_type(&self, t: Node) -> String {
        let ty = simple_type(self.text(t));
        self.imports
            .iter()
            .rfind(|i| i.alias.as_deref() == Some(ty.as_str()))
            .and_then(|i| i.name.clone())
            .unwrap_or(ty)
    }

    /// A value's type where the expression says it: `new T(…)` is a `T`; calls and chains
    /// as the walk reads them (`T(…)` is what `T` gives, `a.f()` what `f` returns).
    fn scala_bound_of(&self, value: Node) -> Option<Receiver> {
        if value.kind() == "instance_expression" {
            let t = simple_type(self.text(value.named_child(0)?));
            let t = t.rsplit('.').next().unwrap_or(&t).to_string();
            return (!t.is_empty()).then_some(Receiver::Type(t));
        }
        self.bound_of(value)
    }

    /// `import a.b.C`, `import a.b.{C, D => E, F as G, _}`, `import a.b._`: one import
    /// per name (a hidden one, `C => _`, imports nothing); several comma-separated paths
    /// (`import a.B, c.D`) each.
    fn scala_import(&mut self, node: Node) {
        let line = node.start_position().row as u32 + 1;
        let mut path: Vec<&str> = Vec::new();
        let mut c = node.walk();
        let children: Vec<Node> = node.children(&mut c).collect();
        for (i, child) in children.iter().enumerate() {
            match child.kind() {
                "identifier" | "operator_identifier"
                    if node.field_name_for_child(i as u32) == Some("path") =>
                {
                    path.push(self.text(*child));
                }
                "," => {
                    self.scala_import_path(line, &path);
                    path.clear();
                }
                "namespace_wildcard" => {
                    if matches!(self.text(*child), "_" | "*") {
                        self.push_scala_import(line, path.join("."), None, None, true);
                    }
                    path.clear();
                }
                "namespace_selectors" => {
                    let module = path.join(".");
                    let mut c2 = child.walk();
                    let selectors: Vec<Node> = child.named_children(&mut c2).collect();
                    for s in selectors {
                        match s.kind() {
                            "identifier" => {
                                let name = self.text(s).to_string();
                                self.push_scala_import(
                                    line,
                                    module.clone(),
                                    Some(name),
                                    None,
                                    false,
                                );
                            }
                            "arrow_renamed_identifier" | "as_renamed_identifier" => {
                                let (Some(n), Some(a)) = (s.field("name"), s.field("alias")) else {
                                    continue;
                                };
                                if a.kind() == "wildcard" {
                                    continue;
                                }
                                let (name, alias) =
                                    (self.text(n).to_string(), self.text(a).to_string());
                                self.push_scala_import(
                                    line,
                                    module.clone(),
                                    Some(name),
                                    Some(alias),
                                    false,
                                );
                            }
                            "namespace_wildcard" if matches!(self.text(s), "_" | "*") => {
                                self.push_scala_import(line, module.clone(), None, None, true);
                            }
                            _ => {}
                        }
                    }
                    path.clear();
                }
                "as_renamed_identifier" => {
                    // `import a.b.C as D` (Scala 3): the path so far is the module.
                    if let (Some(n), Some(a)) = (child.field("name"), child.field("alias"))
                        && a.kind() != "wildcard"
                    {
                        let (name, alias) = (self.text(n).to_string(), self.text(a).to_string());
                        self.push_scala_import(
                            line,
                            path.join("."),
                            Some(name),
                            Some(alias),
                            false,
                        );
                    }
                    path.clear();
                }
                _ => {}
            }
        }
        self.scala_import_path(line, &path);
    }

    /// `import a.b.C` written as a plain path: module `a.b`, name `C`.
    fn scala_import_path(&mut self, line: u32, path: &[&str]) {
        if let Some((name, module)) = path.split_last() {
            let name = Some((*name).to_string());
            self.push_scala_import(line, module.join("."), name, None, false);
        }
    }

    /// One import row. A module whose last segment is capitalised is an object: its
    /// members are imported (kind [`ImportKind::Static`], as Java's `import static`).
    fn push_scala_import(
        &mut self,
        line: u32,
        module: String,
        name: Option<String>,
        alias: Option<String>,
        wildcard: bool,
    ) {
        if module.is_empty() && name.is_none() {
            return;
        }
        let last = module.rsplit('.').next().unwrap_or(&module);
        let kind = if last.starts_with(|c: char| c.is_uppercase()) {
            ImportKind::Static
        } else {
            ImportKind::Module
        };
        self.imports.push(
            Import::new(line, module)
                .named(name)
                .aliased(alias)
                .wildcard(wildcard)
                .of_kind(kind),
        );
    }
}
