//! Call sites, bindings and imports in Swift: the node shapes this language writes calls,
//! receivers and imports with, recorded by the language-free walk in
//! [`crate::syntax::refs`].
//!
//! `f()`, `x.m()`, `x?.m()`, `Type.m()`, `Type(…)` and `Box<T>(…)` are calls (a trailing
//! closure is an argument); `.m()`, whose receiver is the type the context expects, is
//! not read. `super.m()` is a call on the class's base. A value is typed by its
//! annotation (`let x: Money`, a parameter `_ m: Money`, a property), by a type called as
//! a constructor (`Money(…)`), or by the chain it is read from (`Money.parse(s)!`,
//! `self.item`); a `for x in xs`, `if let`/`guard let` and the closure of `xs.map { … }`
//! (`$0` or its first parameter) bind an element of what they read. `import Module`
//! imports a module (a target: `Sources/Module/`), whose top-level names are then all
//! visible; `import struct Module.Name` imports one name.

use crate::syntax::FieldExt;
use tree_sitter::Node;

use super::{CallShape, CalleeForm, CapsConstants, LangSpec, ResolveRules, any_comment};
use crate::model::{Import, Receiver};
use crate::syntax::refs::*;

pub(super) const SPEC: LangSpec = LangSpec {
    name: "swift",
    extensions: &["swift"],
    file_names: &[],
    shebangs: &["swift"],
    separator: ".",
    grammar: || tree_sitter_swift::LANGUAGE.into(),
    query: include_str!("queries/swift.scm"),
    opaque: &[
        "import_declaration",
        "multiline_comment",
        "line_string_literal",
        "multi_line_string_literal",
        "type_annotation",
        "inheritance_specifier",
        "parameter",
    ],
    doc_comment: any_comment,
    docstrings: false,
    caps_constants: CapsConstants::LetConstants,
    wrappers: &[],
    methods_in_classes_only: false,
    typedef_names: false,
    jsdoc_param_types: false,
    calls: &[
        CallShape {
            node: "call_expression",
            // The callee is the call's first child (no field names it).
            callee: Some(""),
            unwrap: None,
            new: false,
            forms: &[
                CalleeForm::Name("simple_identifier"),
                CalleeForm::Member {
                    node: "navigation_expression",
                    object: "target",
                    name: "suffix",
                    unwrap_name: Some(("navigation_suffix", "suffix")),
                },
            ],
        },
        // `Box<Int>(…)`: a generic type constructed.
        CallShape {
            node: "constructor_expression",
            callee: Some("constructed_type"),
            unwrap: Some(("user_type", "")),
            new: true,
            forms: &[CalleeForm::Name("type_identifier")],
        },
    ],
    resolve: ResolveRules {
        family: 12,
        implicit_this: true,
        super_receivers: &["super"],
        package_scope: true,
        builtins: BUILTINS,
        global_objects: GLOBAL_OBJECTS,
        ..ResolveRules::PLAIN
    },
};

/// Functions of the standard library and the types of its values called as constructors:
/// never a repository definition unless the repository defines one.
const BUILTINS: &[&str] = &[
    "abs",
    "assert",
    "assertionFailure",
    "debugPrint",
    "dump",
    "fatalError",
    "max",
    "min",
    "numericCast",
    "precondition",
    "preconditionFailure",
    "print",
    "readLine",
    "repeatElement",
    "sequence",
    "stride",
    "swap",
    "type",
    "withExtendedLifetime",
    "withUnsafeBytes",
    "withUnsafeMutableBytes",
    "withUnsafePointer",
    "withUnsafeMutablePointer",
    "zip",
    "Array",
    "Bool",
    "Character",
    "Data",
    "Date",
    "Dictionary",
    "Double",
    "Float",
    "Int",
    "Int32",
    "Int64",
    "Optional",
    "Result",
    "Set",
    "String",
    "Substring",
    "UInt",
    "UInt8",
    "URL",
    "UUID",
];

/// Types of the standard library and Foundation whose static members code calls
/// (`String.init`, `FileManager.default`): a call on one is external, never a method
/// found by name.
const GLOBAL_OBJECTS: &[&str] = &[
    "Array",
    "Bundle",
    "CommandLine",
    "Data",
    "Date",
    "Dictionary",
    "DispatchQueue",
    "Double",
    "FileManager",
    "Int",
    "JSONDecoder",
    "JSONEncoder",
    "NotificationCenter",
    "ProcessInfo",
    "Set",
    "String",
    "Task",
    "Thread",
    "URL",
    "UserDefaults",
];

/// Methods whose closure runs on each element of the collection they are called on
/// (`items.map { $0.describe() }`).
const ELEMENT_WISE: &[&str] = &[
    "allSatisfy",
    "compactMap",
    "contains",
    "filter",
    "first",
    "flatMap",
    "forEach",
    "map",
    "sorted",
];

/// Expression kinds a misparsed call's callee may be (`x + f(1)` is read as `(x + f)(1)`
/// by the grammar): the call is on their right-hand operand.
const OPERATORS: &[&str] = &[
    "additive_expression",
    "multiplicative_expression",
    "comparison_expression",
    "equality_expression",
    "conjunction_expression",
    "disjunction_expression",
    "nil_coalescing_expression",
    "range_expression",
    "infix_expression",
    "bitwise_operation",
    "prefix_expression",
];

/// The type a written Swift type names, for typing a value: `Money?`, `Money!`, `inout
/// Money`, `some P`, `any P`, `Box<Int>` → `Money`/`P`/`Box`; `[Item]` → `Item[]`; a
/// dictionary, a tuple or a function type → none.
pub(in crate::syntax) fn swift_type(t: &str) -> Option<String> {
    let mut t = t.trim();
    for p in ["inout ", "some ", "any ", "borrowing ", "consuming "] {
        t = t.strip_prefix(p).unwrap_or(t).trim_start();
    }
    while let Some(a) = t.strip_prefix('@') {
        // `@escaping`, `@Sendable`: attributes before the type.
        t = a.split_once(' ').map_or("", |(_, r)| r).trim_start();
    }
    let t = t.trim_end_matches(['?', '!']);
    if t.starts_with('(') || t.contains(':') || t.contains("->") {
        return None;
    }
    // `Box<Int>` is a `Box`; `Array<Item>` and `Set<Item>` hold `Item`s.
    let t = match t.split_once('<') {
        Some((head, _)) if !matches!(head, "Array" | "Set" | "ContiguousArray") => head,
        _ => t,
    };
    let s = simple_type(t);
    (!s.is_empty() && s != "Self").then_some(s)
}

impl Walker<'_> {
    pub(in crate::syntax) fn swift(&mut self, node: Node) -> bool {
        match node.kind() {
            "call_expression" => self.swift_call(node),
            "property_declaration" => {
                let Some(var) = node.field("name").and_then(|p| p.field("bound_identifier")) else {
                    return true;
                };
                let var = self.text(var).to_string();
                let mut c = node.walk();
                let annotated = node
                    .named_children(&mut c)
                    .find(|n| n.kind() == "type_annotation")
                    .and_then(|a| a.field("name"))
                    .and_then(|t| swift_type(self.text(t)))
                    .map(Receiver::Type);
                let b = annotated.or_else(|| node.field("value").and_then(|v| self.swift_bound(v)));
                if let Some(b) = b {
                    self.bind(node, &var, b);
                }
            }
            "parameter" => {
                // `_ other: Money`: `name` holds the parameter's name, then its type.
                let mut c = node.walk();
                let names: Vec<Node> = node.children_by_field_name("name", &mut c).collect();
                if let [var, ty, ..] = names.as_slice()
                    && var.kind() == "simple_identifier"
                    && let Some(t) = swift_type(self.text(*ty))
                {
                    let var = self.text(*var).to_string();
                    self.bind(node, &var, Receiver::Type(t));
                }
            }
            "for_statement" => {
                if let (Some(var), Some(iterable)) = (
                    node.field("item").and_then(|p| p.field("bound_identifier")),
                    node.field("collection"),
                ) {
                    self.swift_bind_element(node, var, iterable);
                }
            }
            "if_statement" | "guard_statement" => self.swift_optional_bindings(node),
            "import_declaration" => {
                self.swift_import(node);
                return false;
            }
            _ => {}
        }
        true
    }

    /// After the walk recorded the call `node` from the spec: a call the grammar reads
    /// with an operator in its callee (`n * fact(n - 1)` as `(n * fact)(n - 1)`) is
    /// recorded on the operator's right-hand operand; `super.m()` is typed as the class's
    /// base; a closure given to an element-wise method binds an element.
    fn swift_call(&mut self, node: Node) {
        let Some(callee) = node.named_child(0) else {
            return;
        };
        if OPERATORS.contains(&callee.kind()) {
            let mut n = callee;
            for _ in 0..MAX_OPERANDS {
                let next = match n.kind() {
                    // `.m()`: an implicit member, read on a type the context decides.
                    "prefix_expression" if self.swift_is_implicit_member(n) => return,
                    "prefix_expression" => n.field("target"),
                    "nil_coalescing_expression" => n.field("if_nil"),
                    k if OPERATORS.contains(&k) => n.field("rhs"),
                    _ => break,
                };
                match next {
                    Some(x) => n = x,
                    None => return,
                }
            }
            if matches!(n.kind(), "simple_identifier" | "navigation_expression")
                && let Some(shape) = SPEC.calls.first()
            {
                self.record_callee(shape, n, node);
            }
            return;
        }
        if callee.kind() != "navigation_expression" {
            return;
        }
        let (Some(target), Some(name)) = (
            callee.field("target"),
            callee.field("suffix").and_then(|s| s.field("suffix")),
        ) else {
            return;
        };
        if target.kind() == "super_expression"
            && let Some(base) = self.swift_base_class(node)
            && let Some((at, call)) = self.calls.last_mut()
            && *at == node.start_byte()
        {
            call.receiver_type = Some(Receiver::Type(base));
        }
        if ELEMENT_WISE.contains(&self.text(name))
            && let Some(lambda) = node
                .named_child(1)
                .filter(|s| s.kind() == "call_suffix")
                .and_then(|s| {
                    let mut c = s.walk();
                    s.named_children(&mut c)
                        .find(|x| x.kind() == "lambda_literal")
                })
        {
            // `{ item in … }` names the element; `{ $0… }` does not.
            let param = lambda
                .field("type")
                .and_then(|t| t.named_child(0))
                .filter(|p| p.kind() == "lambda_function_type_parameters")
                .and_then(|p| p.named_child(0))
                .and_then(|p| p.field("name"));
            match param {
                Some(p) => self.swift_bind_element(lambda, p, target),
                None => {
                    if let Some(chain) = self.chain_expr(target)
                        && chain.len() + 2 <= MAX_RECEIVER
                    {
                        self.bind(lambda, "$0", Receiver::of_expr(format!("{chain}[]")));
                    }
                }
            }
        }
    }

    /// Whether a `prefix_expression` is `.name` (an implicit member) rather than an
    /// operator applied to a value (`-x`, `!x`).
    fn swift_is_implicit_member(&self, n: Node) -> bool {
        n.field("operation").is_some_and(|op| self.text(op) == ".")
    }

    /// `var` is an element of `iterable` (a `for` loop's item, a closure's parameter).
    fn swift_bind_element(&mut self, at: Node, var: Node, iterable: Node) {
        if var.kind() != "simple_identifier" {
            return;
        }
        if let Some(chain) = self.chain_expr(iterable)
            && chain.len() + 2 <= MAX_RECEIVER
        {
            let name = self.text(var).to_string();
            self.bind(at, &name, Receiver::of_expr(format!("{chain}[]")));
        }
    }

    /// `if let x = f()`, `guard let x = y as? T`: each name bound to the value after it.
    fn swift_optional_bindings(&mut self, node: Node) {
        let mut c = node.walk();
        if !c.goto_first_child() {
            return;
        }
        let mut pending: Option<Node> = None;
        loop {
            let n = c.node();
            match c.field_name() {
                Some("bound_identifier") => pending = Some(n),
                // The `=` between them is a `condition` too.
                Some("condition") if n.is_named() && n.kind() != "value_binding_pattern" => {
                    if let Some(var) = pending.take()
                        && let Some(b) = self.swift_bound(n)
                    {
                        let name = self.text(var).to_string();
                        self.bind(var, &name, b);
                    }
                }
                _ => {}
            }
            if !c.goto_next_sibling() {
                break;
            }
        }
    }

    /// A value expression's type, when the expression says it: a type called as a
    /// constructor (`Money(…)`, `Box<T>(…)`), a cast (`x as? Money`), a string literal,
    /// or the chain it is read from (`Money.parse(s)!`, `self.item`, `items[0]`).
    fn swift_bound(&self, value: Node) -> Option<Receiver> {
        let mut v = value;
        for _ in 0..MAX_OPERANDS {
            match v.kind() {
                "try_expression" | "await_expression" => v = v.field("expr")?,
                "postfix_expression" => v = v.field("target")?,
                _ => break,
            }
        }
        match v.kind() {
            "call_expression" => {
                let callee = v.named_child(0)?;
                let name = self.text(callee);
                if callee.kind() == "simple_identifier"
                    && name.starts_with(|c: char| c.is_ascii_uppercase())
                {
                    return Some(Receiver::Type(name.to_string()));
                }
                self.chain_expr(v).map(Receiver::of_expr)
            }
            "constructor_expression" => {
                let t = v.field("constructed_type")?;
                swift_type(self.text(t)).map(Receiver::Type)
            }
            "as_expression" => {
                let t = v.field("name")?;
                swift_type(self.text(t)).map(Receiver::Type)
            }
            "simple_identifier" | "navigation_expression" | "self_expression" => {
                self.chain_expr(v).map(Receiver::of_expr)
            }
            "line_string_literal" | "multi_line_string_literal" => {
                Some(Receiver::Type("String".to_string()))
            }
            _ => None,
        }
    }

    /// The base class of the class `node` is in: the first type its declaration
    /// inherits from (for `super.m()`).
    fn swift_base_class(&self, node: Node) -> Option<String> {
        let p = enclosing(node, &["class_declaration"])?;
        let mut c = p.walk();
        let first = p
            .named_children(&mut c)
            .find(|x| x.kind() == "inheritance_specifier")?;
        let t = first.field("inherits_from")?;
        swift_type(self.text(t))
    }

    /// `import Shop`, `@testable import Shop`, `import Shop.Sub`: the module, every
    /// top-level name of which is then visible; `import struct Shop.Money` (or `func`,
    /// `class`, `enum`, `protocol`, `typealias`, `var`, `let`): one name of it.
    fn swift_import(&mut self, node: Node) {
        let mut c = node.walk();
        let mut path = None;
        let mut one_name = false;
        for child in node.children(&mut c) {
            match child.kind() {
                "identifier" => path = Some(self.text(child).to_string()),
                "struct" | "class" | "enum" | "protocol" | "typealias" | "func" | "var" | "let"
                | "actor" => one_name = true,
                _ => {}
            }
        }
        let Some(path) = path.filter(|p| !p.is_empty() && p.len() <= 512) else {
            return;
        };
        let line = node.start_position().row as u32 + 1;
        let import = match path.rsplit_once('.') {
            Some((module, name)) if one_name => {
                Import::new(line, module.to_string()).named(Some(name.to_string()))
            }
            _ => Import::new(line, path).wildcard(true),
        };
        self.imports.push(import);
    }
}

/// How many wrappers or operators around a value or callee are looked through.
const MAX_OPERANDS: usize = 64;
