//! Call sites, bindings and imports in PHP: the node shapes this language writes calls,
//! receivers and imports with, recorded by the language-free walk in
//! [`crate::syntax::refs`].
//!
//! `f()`, `$x->m()`, `$x?->m()`, `Foo::m()` and `new Foo(…)` are calls. Names written with
//! their namespace (`\App\Shop\Money::price()`, `\strlen()`) are read by their last
//! segment: namespaces are not definitions, and the `use` that names a class says which
//! one. `$this->money->price()` is a call on the field `this.money`, typed by the
//! property's declared type, a promoted constructor parameter or `$this->money = new
//! Money`; `parent::m()` is a call on the class's base. `use A\B\C [as D]` (functions and
//! constants too, grouped or not) imports a name; `require`/`include` of a literal path
//! (`__DIR__ . '/x.php'` too) imports that file.

use crate::syntax::FieldExt;
use tree_sitter::Node;

use super::{CallShape, CalleeForm, CapsConstants, LangSpec, ResolveRules, any_comment};
use crate::model::{CallKind, Import, Receiver};
use crate::syntax::refs::*;

pub(super) const SPEC: LangSpec = LangSpec {
    name: "php",
    extensions: &["php", "phtml"],
    file_names: &[],
    shebangs: &["php"],
    separator: ".",
    grammar: || tree_sitter_php::LANGUAGE_PHP.into(),
    query: include_str!("queries/php.scm"),
    opaque: &[
        "namespace_use_declaration",
        "formal_parameters",
        "string",
        "encapsed_string",
        "heredoc",
        "nowdoc",
        "text",
        "attribute_list",
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
            node: "function_call_expression",
            callee: Some("function"),
            unwrap: None,
            new: false,
            forms: &[CalleeForm::Name("name"), CalleeForm::Name("qualified_name")],
        },
        CallShape {
            node: "member_call_expression",
            callee: None,
            unwrap: None,
            new: false,
            forms: &[CalleeForm::NamedWithObject {
                name: "name",
                object: "object",
            }],
        },
        CallShape {
            node: "nullsafe_member_call_expression",
            callee: None,
            unwrap: None,
            new: false,
            forms: &[CalleeForm::NamedWithObject {
                name: "name",
                object: "object",
            }],
        },
        CallShape {
            node: "scoped_call_expression",
            callee: None,
            unwrap: None,
            new: false,
            forms: &[CalleeForm::NamedWithObject {
                name: "name",
                object: "scope",
            }],
        },
        CallShape {
            node: "object_creation_expression",
            callee: None,
            unwrap: Some(("object_creation_expression", "")),
            new: true,
            forms: &[CalleeForm::Name("name"), CalleeForm::Name("qualified_name")],
        },
    ],
    resolve: ResolveRules {
        family: 8,
        implicit_this: false,
        package_scope: true,
        self_receivers: &["$this", "static"],
        builtins: BUILTINS,
        ..ResolveRules::PLAIN
    },
};

/// Functions and language constructs every PHP program can call: never a repository
/// definition unless the repository defines one.
const BUILTINS: &[&str] = &[
    "array_filter",
    "array_key_exists",
    "array_keys",
    "array_map",
    "array_merge",
    "array_pop",
    "array_push",
    "array_reduce",
    "array_shift",
    "array_slice",
    "array_sum",
    "array_values",
    "count",
    "define",
    "defined",
    "dirname",
    "explode",
    "file_exists",
    "file_get_contents",
    "file_put_contents",
    "function_exists",
    "implode",
    "in_array",
    "is_array",
    "is_int",
    "is_null",
    "is_numeric",
    "is_object",
    "is_string",
    "isset",
    "json_decode",
    "json_encode",
    "ltrim",
    "max",
    "min",
    "number_format",
    "preg_match",
    "preg_replace",
    "printf",
    "round",
    "rtrim",
    "sprintf",
    "str_contains",
    "str_repeat",
    "str_replace",
    "str_starts_with",
    "strlen",
    "strpos",
    "strtolower",
    "strtoupper",
    "substr",
    "trim",
    "unset",
    "var_dump",
    "array_key_last",
    "array_search",
    "array_unique",
    "call_user_func",
    "class_exists",
    "get_class",
    "intval",
    "is_callable",
    "method_exists",
    "sort",
    "usort",
    "ksort",
    "strval",
    "ucfirst",
];

/// The last segment of a namespaced name: `\App\Shop\Money` → `Money`.
fn last_segment(name: &str) -> &str {
    name.rsplit('\\').next().unwrap_or(name)
}

/// A variable as the walk names it: `$item` as written; `$this->money` as the field
/// `this.money`.
fn receiver_var(w: &Walker, n: Node) -> Option<String> {
    match n.kind() {
        "variable_name" => Some(w.text(n).to_string()),
        "member_access_expression" => {
            let obj = n.field("object")?;
            let name = n.field("name")?;
            (obj.kind() == "variable_name" && w.text(obj) == "$this" && name.kind() == "name")
                .then(|| format!("this.{}", w.text(name)))
        }
        _ => None,
    }
}

/// The class a written type names (`?Money`, `\App\Money`), or none for a builtin, a
/// union or an intersection.
fn type_name(text: &str) -> Option<String> {
    let t = text.trim().trim_start_matches('?');
    if t.contains(['|', '&', '(']) {
        return None;
    }
    let t = last_segment(t);
    let builtin = matches!(
        t.to_ascii_lowercase().as_str(),
        "int"
            | "float"
            | "string"
            | "bool"
            | "array"
            | "mixed"
            | "void"
            | "null"
            | "callable"
            | "iterable"
            | "object"
            | "never"
            | "false"
            | "true"
    );
    (!builtin && is_ident(t)).then(|| t.to_string())
}

impl Walker<'_> {
    /// The class a name stands for in this file: an alias imported by `use A\B as C`
    /// is `B`; other names are themselves.
    fn php_class(&self, name: &str) -> String {
        self.imports
            .iter()
            .find(|i| i.alias.as_deref() == Some(name))
            .and_then(|i| i.name.clone())
            .unwrap_or_else(|| name.to_string())
    }

    /// The class `node` is in: its name.
    fn php_enclosing_class(&self, node: Node) -> Option<String> {
        let p = enclosing(node, &["class_declaration"])?;
        p.field("name").map(|x| self.text(x).to_string())
    }

    /// The class `new Foo(…)` builds, when `node` is such an expression (in parentheses or
    /// not).
    fn php_constructed(&self, node: Node) -> Option<String> {
        let mut n = node;
        while n.kind() == "parenthesized_expression" {
            n = n.named_child(0)?;
        }
        if n.kind() != "object_creation_expression" {
            return None;
        }
        let class = n.named_child(0)?;
        matches!(class.kind(), "name" | "qualified_name")
            .then(|| self.php_class(last_segment(self.text(class))))
    }

    /// The base class of the class `node` is in (for `parent::m()`).
    fn php_parent_class(&self, node: Node) -> Option<String> {
        let p = enclosing(node, &["class_declaration"])?;
        let mut c = p.walk();
        let base = p
            .named_children(&mut c)
            .find(|x| x.kind() == "base_clause")?;
        let first = base.named_child(0)?;
        Some(last_segment(self.text(first)).to_string())
    }

    pub(in crate::syntax) fn php(&mut self, node: Node) -> bool {
        match node.kind() {
            "function_call_expression"
            | "member_call_expression"
            | "nullsafe_member_call_expression"
            | "scoped_call_expression"
            | "object_creation_expression" => self.php_call(node),
            "assignment_expression" => {
                if let (Some(left), Some(right)) = (node.field("left"), node.field("right"))
                    && let Some(var) = receiver_var(self, left)
                    && let Some(ty) = self.php_constructed(right)
                {
                    self.bind(node, &var, Receiver::Type(ty));
                }
            }
            "simple_parameter" | "property_promotion_parameter" => {
                if let (Some(t), Some(n)) = (node.field("type"), node.field("name"))
                    && let Some(ty) = type_name(self.text(t))
                {
                    let ty = self.php_class(&ty);
                    let var = self.text(n).to_string();
                    if node.kind() == "property_promotion_parameter" {
                        let field = format!("this.{}", var.trim_start_matches('$'));
                        self.bind(node, &field, Receiver::Type(ty.clone()));
                    }
                    self.bind(node, &var, Receiver::Type(ty));
                }
            }
            "property_declaration" => {
                if let Some(ty) = node.field("type").and_then(|t| type_name(self.text(t))) {
                    let ty = self.php_class(&ty);
                    let mut c = node.walk();
                    let names: Vec<String> = node
                        .named_children(&mut c)
                        .filter(|e| e.kind() == "property_element")
                        .filter_map(|e| e.field("name"))
                        .map(|n| self.text(n).trim_start_matches('$').to_string())
                        .collect();
                    for name in names {
                        self.bind(node, &format!("this.{name}"), Receiver::Type(ty.clone()));
                    }
                }
            }
            "namespace_use_declaration" => {
                self.php_use(node);
                return false;
            }
            "include_expression"
            | "include_once_expression"
            | "require_expression"
            | "require_once_expression" => {
                if let Some(path) = node.named_child(0).and_then(|a| self.php_path(a)) {
                    let line = node.start_position().row as u32 + 1;
                    self.imports.push(Import::new(line, path).wildcard(true));
                }
            }
            _ => {}
        }
        true
    }

    /// Rewrites the call the walk has just recorded for `node` (last in `calls`): names
    /// by their last segment, `$this->x` receivers as the field `this.x`, `parent::m()`
    /// on the base class, `(new Foo)->m()` on a `Foo`.
    fn php_call(&mut self, node: Node) {
        let start = node.start_byte();
        let idx = self.calls.len().wrapping_sub(1);
        let (recv_field, is_new) = match node.kind() {
            "scoped_call_expression" => ("scope", false),
            "object_creation_expression" => ("", true),
            "function_call_expression" => ("", false),
            _ => ("object", false),
        };
        let recv = (!recv_field.is_empty())
            .then(|| node.field(recv_field))
            .flatten();
        let field = recv.and_then(|r| {
            (r.kind() == "member_access_expression")
                .then(|| receiver_var(self, r))
                .flatten()
        });
        let built = recv.and_then(|r| self.php_constructed(r));
        let parent = recv
            .filter(|r| r.kind() == "relative_scope" && self.text(*r) == "parent")
            .and_then(|_| self.php_parent_class(node));
        // `new static(…)`, `new self(…)`: the enclosing class.
        let own = (is_new
            && node
                .named_child(0)
                .is_some_and(|c| matches!(self.text(c), "static" | "self")))
        .then(|| self.php_enclosing_class(node))
        .flatten();
        let scope_class = recv
            .filter(|r| matches!(r.kind(), "name" | "qualified_name"))
            .map(|r| last_segment(self.text(r)).to_string());
        let Some((at, call)) = self.calls.last_mut() else {
            return;
        };
        if *at != start {
            return;
        }
        if let Some(own) = own {
            call.name = own;
            return;
        }
        if is_new || call.qualifier.is_none() {
            // `\App\helper()`, `new \App\Item()`: the last segment.
            let last = last_segment(&call.name).to_string();
            call.name = last;
            return;
        }
        if let Some(f) = field {
            call.qualifier = Some(f.clone());
            self.receivers.push((idx, f));
        } else if let Some(ty) = built {
            call.receiver_type = Some(Receiver::Type(ty));
        } else if let Some(base) = parent {
            call.qualifier = Some(base.clone());
            call.kind = CallKind::Member;
            call.receiver_type = Some(Receiver::Type(base));
        } else if let Some(class) = scope_class {
            call.qualifier = Some(class);
        }
    }

    /// `use A\B\C;`, `use A\B\C as D;`, `use function A\f;`, `use A\{B, C as D};`: one
    /// import per name, its module the namespace (`A\B`) and its name the last segment.
    fn php_use(&mut self, node: Node) {
        let line = node.start_position().row as u32 + 1;
        let mut c = node.walk();
        let children: Vec<Node> = node.named_children(&mut c).collect();
        // A group: `use A\{…}` has the prefix as a `namespace_name`, the clauses in a
        // `namespace_use_group`.
        let prefix = children
            .iter()
            .find(|n| n.kind() == "namespace_name")
            .map(|n| self.text(*n).trim_start_matches('\\').to_string());
        let mut clauses: Vec<Node> = Vec::new();
        for ch in &children {
            match ch.kind() {
                "namespace_use_clause" => clauses.push(*ch),
                "namespace_use_group" => {
                    let mut gc = ch.walk();
                    clauses.extend(
                        ch.named_children(&mut gc)
                            .filter(|n| n.kind() == "namespace_use_clause"),
                    );
                }
                _ => {}
            }
        }
        for clause in clauses {
            let mut cc = clause.walk();
            let Some(path) = clause
                .named_children(&mut cc)
                .find(|n| matches!(n.kind(), "name" | "qualified_name"))
                .map(|n| self.text(n).trim_start_matches('\\').to_string())
            else {
                continue;
            };
            let full = match &prefix {
                Some(p) => format!("{p}\\{path}"),
                None => path,
            };
            let (module, name) = match full.rsplit_once('\\') {
                Some((m, n)) => (m.to_string(), n.to_string()),
                None => (String::new(), full),
            };
            let alias = clause
                .field("alias")
                .map(|a| self.text(a).to_string())
                .filter(|a| *a != name);
            self.imports
                .push(Import::new(line, module).named(Some(name)).aliased(alias));
        }
    }

    /// A literal path in `require`/`include`: `'x.php'`, `"x.php"`, `__DIR__ . '/x.php'`
    /// (from the file's directory: `./x.php`), `dirname(__DIR__) . '/x.php'` (`../x.php`).
    fn php_path(&self, arg: Node) -> Option<String> {
        let mut a = arg;
        while a.kind() == "parenthesized_expression" {
            a = a.named_child(0)?;
        }
        let literal = |n: Node| -> Option<String> {
            if !matches!(n.kind(), "string" | "encapsed_string") {
                return None;
            }
            let mut c = n.walk();
            let parts: Vec<Node> = n.named_children(&mut c).collect();
            match parts.as_slice() {
                [p] if p.kind() == "string_content" => Some(self.text(*p).to_string()),
                _ => None,
            }
        };
        let path = if a.kind() == "binary_expression" {
            let left = a.field("left")?;
            let right = literal(a.field("right")?)?;
            let rest = right.trim_start_matches('/');
            match self.text(left) {
                "__DIR__" => format!("./{rest}"),
                "dirname(__DIR__)" => format!("../{rest}"),
                _ => return None,
            }
        } else {
            literal(a)?
        };
        (!path.is_empty() && path.len() <= 512).then_some(path)
    }
}
