//! Call sites and imports in JavaScript, TypeScript and TSX (one visitor: TypeScript's grammar extends JavaScript's), with `require` and ES `import`: the node shapes this language writes
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
    name: "javascript",
    extensions: &["js", "mjs", "cjs", "jsx"],
    file_names: &[],
    shebangs: &[],
    separator: ".",
    grammar: || tree_sitter_javascript::LANGUAGE.into(),
    query: include_str!("queries/javascript.scm"),
    opaque: &OPAQUE,
    doc_comment: any_comment,
    docstrings: false,
    caps_constants: CapsConstants::TopLevelConst,
    wrappers: JS_WRAPPERS,
    methods_in_classes_only: true,
    typedef_names: false,
    jsdoc_param_types: true,
    calls: JS_CALLS,
    resolve: JS_RESOLVE,
};

/// Node kinds without definitions in JavaScript and the TypeScript dialects.
pub(super) const OPAQUE: [&str; 7] = [
    "import_statement",
    "string",
    "template_string",
    "regex",
    "formal_parameters",
    "type_annotation",
    "type_arguments",
];

/// Calls in JavaScript and the TypeScript dialects: `f()`, `o.f()`, `new C()`,
/// `new ns.C()`.
pub(super) const JS_CALLS: &[CallShape] = &[
    CallShape {
        node: "call_expression",
        callee: Some("function"),
        // TypeScript parses `await f<T>(x)` as a call whose callee is `await f`.
        unwrap: Some(("await_expression", "")),
        new: false,
        forms: &[CalleeForm::Name("identifier"), JS_MEMBER],
    },
    CallShape {
        node: "new_expression",
        callee: Some("constructor"),
        unwrap: None,
        new: true,
        forms: &[CalleeForm::Name("identifier"), JS_MEMBER],
    },
];

const JS_MEMBER: CalleeForm = CalleeForm::Member {
    node: "member_expression",
    object: "object",
    name: "property",
    unwrap_name: None,
};

/// Wrappers of a definition in JavaScript and the TypeScript dialects.
pub(super) const JS_WRAPPERS: &[Wrapper] = &[
    Wrapper {
        parent: "export_statement",
        when: Wraps::Always,
    },
    Wrapper {
        parent: "lexical_declaration",
        when: Wraps::OnlyChild,
    },
    Wrapper {
        parent: "variable_declaration",
        when: Wraps::OnlyChild,
    },
];

/// How JavaScript and the TypeScript dialects resolve.
pub(super) const JS_RESOLVE: ResolveRules = ResolveRules {
    family: 1,
    follows_wildcards: true,
    super_receivers: &["super"],
    global_objects: &[
        "console",
        "Math",
        "JSON",
        "Object",
        "Array",
        "Promise",
        "process",
        "document",
        "window",
        "Number",
        "String",
        "Date",
        "Reflect",
        "Symbol",
        "globalThis",
    ],
    // The global functions of browsers and Node.
    builtins: &[
        "setTimeout",
        "clearTimeout",
        "setInterval",
        "clearInterval",
        "setImmediate",
        "queueMicrotask",
        "structuredClone",
        "fetch",
        "parseInt",
        "parseFloat",
        "isNaN",
        "isFinite",
        "encodeURIComponent",
        "decodeURIComponent",
        "encodeURI",
        "decodeURI",
        "atob",
        "btoa",
    ],
    ..ResolveRules::PLAIN
};

impl Walker<'_> {
    pub(in crate::syntax) fn js(&mut self, node: Node) -> bool {
        match node.kind() {
            // A named function expression is a definition that may start after a call on
            // its line (`req.setTimeout(t, function onTimeout() {…})`).
            "function_expression"
                if node.field("name").is_some()
                    && node
                        .parent()
                        .is_none_or(|p| p.kind() != "variable_declarator") =>
            {
                let at = node.start_position();
                self.inline_defs
                    .push((at.row as u32 + 1, node.start_byte()));
            }
            // The call itself is recorded from the spec's call shapes.
            "call_expression" => {
                if let Some(f) = node.field("function")
                    && f.kind() == "identifier"
                    && self.text(f) == "require"
                {
                    self.js_require(node);
                }
            }
            "variable_declarator" => {
                if let Some(name) = node.field("name")
                    && name.kind() == "identifier"
                {
                    let var = self.text(name).to_string();
                    if let Some(t) = node.field("type") {
                        self.bind(node, &var, Receiver::Type(simple_type(self.text(t))));
                    } else if let Some(v) = node.field("value")
                        && let Some(b) = self.bound_of(v)
                    {
                        self.bind(node, &var, b);
                    }
                }
            }
            // `for (const item of this.items)`; `for … in` reads keys, not elements.
            "for_in_statement" => {
                let of = node.field("operator").is_some_and(|o| self.text(o) == "of");
                if of && let (Some(l), Some(r)) = (node.field("left"), node.field("right")) {
                    self.bind_element(node, l, r);
                }
            }
            // `this.items.forEach(item => item.describe())`.
            "arrow_function" | "function_expression" | "function" => {
                let first = node.field("parameter").or_else(|| {
                    let p = node.field("parameters")?.named_child(0)?;
                    match p.kind() {
                        "required_parameter" if p.field("type").is_none() => p.field("pattern"),
                        "identifier" => Some(p),
                        _ => None,
                    }
                });
                if let Some(p) = first {
                    self.bind_callback_element(node, p);
                }
            }
            "required_parameter" | "optional_parameter" => {
                if let (Some(p), Some(t)) = (node.field("pattern"), node.field("type"))
                    && p.kind() == "identifier"
                {
                    let (var, ty) = (self.text(p).to_string(), simple_type(self.text(t)));
                    // A constructor parameter property (`private readonly a: T`) is a field.
                    let mut c = node.walk();
                    let property = node
                        .children(&mut c)
                        .any(|k| matches!(k.kind(), "accessibility_modifier" | "readonly"));
                    if property {
                        self.bind(node, &format!("this.{var}"), Receiver::Type(ty.clone()));
                    }
                    self.bind(node, &var, Receiver::Type(ty));
                }
            }
            // An interface's (or object type's) property: `store: Store`.
            "property_signature" => {
                if let (Some(n), Some(t)) = (node.field("name"), node.field("type")) {
                    let ty = simple_type(self.text(t));
                    if !ty.is_empty() {
                        let var = format!("this.{}", self.text(n));
                        self.bind(node, &var, Receiver::Type(ty));
                    }
                }
            }
            "public_field_definition" | "field_definition" => {
                // `store: TodoStore` or `store = new TodoStore()` on a class: typed `this.store`.
                let name = node.field("name").or_else(|| node.field("property"));
                if let Some(n) = name {
                    let var = format!("this.{}", self.text(n));
                    if let Some(t) = node.field("type") {
                        self.bind(node, &var, Receiver::Type(simple_type(self.text(t))));
                    } else if let Some(v) = node.field("value")
                        && let Some(b) = self.bound_of(v)
                    {
                        self.bind(node, &var, b);
                    }
                }
            }
            "import_statement" => {
                self.js_import(node);
                return false;
            }
            "export_statement" => {
                if let Some(src) = node.field("source") {
                    // A re-export: `export { a as b } from './x'` or `export * from './x'`.
                    let module = unquote(self.text(src));
                    let line = node.start_position().row as u32 + 1;
                    let mut any = false;
                    let mut c = node.walk();
                    for child in node.named_children(&mut c) {
                        if child.kind() == "export_clause" {
                            let mut c2 = child.walk();
                            for spec in child.named_children(&mut c2) {
                                let name = spec.field("name").map(|n| self.text(n).to_string());
                                let alias = spec.field("alias").map(|n| self.text(n).to_string());
                                any = true;
                                self.imports.push(
                                    Import::new(line, module.clone()).named(name).aliased(alias),
                                );
                            }
                        }
                    }
                    if !any {
                        self.imports.push(Import::new(line, module).wildcard(true));
                    }
                }
            }
            _ => {}
        }
        true
    }

    pub(in crate::syntax) fn js_require(&mut self, call: Node) {
        let Some(arg) = call.field("arguments").and_then(|a| a.named_child(0)) else {
            return;
        };
        if arg.kind() != "string" {
            return;
        }
        let module = unquote(self.text(arg));
        let line = call.start_position().row as u32 + 1;
        let Some(decl) = call.parent().filter(|p| p.kind() == "variable_declarator") else {
            self.imports.push(Import::new(line, module));
            return;
        };
        let Some(pat) = decl.field("name") else {
            return;
        };
        match pat.kind() {
            "identifier" => self
                .imports
                .push(Import::new(line, module).aliased(self.text(pat).to_string())),
            "object_pattern" => {
                let mut c = pat.walk();
                for p in pat.named_children(&mut c) {
                    let (name, alias) = match p.kind() {
                        "shorthand_property_identifier_pattern" => (self.text(p).to_string(), None),
                        "pair_pattern" => match (p.field("key"), p.field("value")) {
                            (Some(k), Some(v)) => {
                                (self.text(k).to_string(), Some(self.text(v).to_string()))
                            }
                            _ => continue,
                        },
                        _ => continue,
                    };
                    self.imports
                        .push(Import::new(line, module.clone()).named(name).aliased(alias));
                }
            }
            _ => {}
        }
    }

    pub(in crate::syntax) fn js_import(&mut self, node: Node) {
        let Some(src) = node.field("source") else {
            return;
        };
        let module = unquote(self.text(src));
        let line = node.start_position().row as u32 + 1;
        let mut any = false;
        let mut c = node.walk();
        for clause in node.named_children(&mut c) {
            if clause.kind() != "import_clause" {
                continue;
            }
            let mut c2 = clause.walk();
            for part in clause.named_children(&mut c2) {
                match part.kind() {
                    "identifier" => {
                        any = true;
                        self.imports.push(
                            Import::new(line, module.clone())
                                .named("default".to_string())
                                .aliased(self.text(part).to_string()),
                        );
                    }
                    "namespace_import" => {
                        any = true;
                        let alias = part.named_child(0).map(|n| self.text(n).to_string());
                        self.imports
                            .push(Import::new(line, module.clone()).aliased(alias));
                    }
                    "named_imports" => {
                        let mut c3 = part.walk();
                        for spec in part.named_children(&mut c3) {
                            if spec.kind() != "import_specifier" {
                                continue;
                            }
                            any = true;
                            let name = spec.field("name").map(|n| self.text(n).to_string());
                            let alias = spec.field("alias").map(|n| self.text(n).to_string());
                            self.imports
                                .push(Import::new(line, module.clone()).named(name).aliased(alias));
                        }
                    }
                    _ => {}
                }
            }
        }
        if !any {
            self.imports.push(Import::new(line, module));
        }
    }
}
