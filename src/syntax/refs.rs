//! Call sites and imports from a parsed tree: one full walk per file, a match on node
//! kinds per language. What a call means is decided later, across files, by
//! [`crate::graph::resolve`]; this module only records what is written, plus what the file itself
//! says about the receiver's type (typed parameters, `self`/`this`, locals bound to a
//! constructor or a call).

use std::collections::HashMap;

use tree_sitter::{Node, Tree};

use super::lang::Lang;
use crate::model::{CallKind, CallSite, Import, Symbol};

pub use crate::model::FileRefs;

/// The walk does not descend below this depth of the syntax tree: real code nests a few
/// dozen levels, and a file nested a million deep (`x = ((((…))))`) would otherwise cost
/// the walk's stack as much memory as the tree itself.
pub const MAX_WALK_DEPTH: usize = 2048;

/// A receiver variable's type as the file states it, before resolution.
#[derive(Debug, Clone)]
enum Bound {
    /// A type name as written (`Foo`, `kv.Store`, `*Store` → `Store`).
    Type(String),
    /// The value of a call: `Foo()`, `kv.New()`, `Foo::new()`; typed by the callee.
    Call(String),
}

/// The bindings of one variable in one scope: (byte offset, what it is bound to).
type BindingList<'a> = Vec<(usize, &'a Bound)>;

struct Walker<'s> {
    lang: Lang,
    src: &'s [u8],
    calls: Vec<(usize, CallSite)>,
    /// The receiver variable of each call (by index in `calls`), typed after the walk.
    receivers: Vec<(usize, String)>,
    imports: Vec<Import>,
    /// Bindings by (byte offset, line, variable name).
    bindings: Vec<(usize, u32, String, Bound)>,
}

/// Extracts call sites and imports. `symbols` are the file's definitions (for callers).
pub fn extract(lang: Lang, tree: &Tree, text: &str, symbols: &[Symbol]) -> FileRefs {
    let mut w = Walker {
        lang,
        src: text.as_bytes(),
        calls: Vec::new(),
        receivers: Vec::new(),
        imports: Vec::new(),
        bindings: Vec::new(),
    };
    let mut cursor = tree.walk();
    let mut depth = 0usize;
    let mut deep_subtrees = 0u32;
    'walk: loop {
        let node = cursor.node();
        // Anonymous nodes are the grammar's literal tokens: nothing to record or enter.
        let descend = node.is_named() && w.visit(node);
        if descend && depth >= MAX_WALK_DEPTH && node.child_count() > 0 {
            deep_subtrees += 1;
        } else if descend && cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
            depth -= 1;
        }
    }
    let Walker {
        mut calls,
        receivers,
        imports,
        bindings,
        ..
    } = w;

    // Callers: the innermost definition whose lines hold the call's line.
    let max_line = calls
        .iter()
        .map(|(_, c)| c.line)
        .chain(bindings.iter().map(|b| b.1))
        .max()
        .unwrap_or(0) as usize;
    let by_line = innermost_by_line(symbols, max_line);
    let innermost = |line: u32| by_line.get(line as usize).copied().flatten();
    let callers: Vec<Option<usize>> = calls.iter().map(|(_, c)| innermost(c.line)).collect();
    for ((_, c), caller) in calls.iter_mut().zip(&callers) {
        c.caller = *caller;
    }
    // Receiver types: a binding of the variable in the caller or an enclosing definition
    // (or the file), the nearest one before the call.
    // JSDoc `@param {Type} name` types a JavaScript function's parameters.
    let mut doc_bindings: Vec<(usize, String, Bound)> = Vec::new();
    if lang == Lang::JavaScript {
        for (i, s) in symbols.iter().enumerate() {
            for line in s.doc.lines() {
                if let Some(rest) = line.trim().strip_prefix("@param {")
                    && let Some((ty, after)) = rest.split_once('}')
                    && let Some(var) = after.split_whitespace().next()
                {
                    doc_bindings.push((i, var.to_string(), Bound::Type(simple_type(ty))));
                }
            }
        }
    }
    let mut scoped: HashMap<(Option<usize>, &str), BindingList> = HashMap::new();
    for (sym, var, b) in &doc_bindings {
        scoped
            .entry((Some(*sym), var.as_str()))
            .or_default()
            .push((0, b));
    }
    for (at, line, var, b) in &bindings {
        let mut scope = innermost(*line);
        // A field (`this.x`) belongs to its class, wherever it is assigned.
        if var.starts_with("this.") {
            while let Some(s) = scope {
                if symbols[s].kind.is_type_container() {
                    break;
                }
                scope = symbols[s].parent;
            }
        }
        scoped
            .entry((scope, var.as_str()))
            .or_default()
            .push((*at, b));
    }
    for (ci, var) in &receivers {
        let (at, call) = &mut calls[*ci];
        let mut scope = call.caller;
        loop {
            if let Some(list) = scoped.get(&(scope, var.as_str())) {
                let best = list.iter().rfind(|(b, _)| b <= at).or_else(|| list.first());
                if let Some((_, b)) = best {
                    call.receiver_type = Some(match b {
                        Bound::Type(t) => t.clone(),
                        Bound::Call(c) => format!("{c}()"),
                    });
                    break;
                }
            }
            match scope {
                Some(s) => scope = symbols[s].parent,
                None => break,
            }
        }
    }
    let mut calls: Vec<CallSite> = calls.into_iter().map(|(_, c)| c).collect();
    calls.sort_by_key(|c| (c.line, c.col));
    FileRefs {
        calls,
        imports,
        deep_subtrees,
    }
}

/// For each line (1-based, index 0 unused), the innermost symbol whose range holds it:
/// symbols come outer before inner, so inner ranges overwrite outer ones.
fn innermost_by_line(symbols: &[Symbol], lines: usize) -> Vec<Option<usize>> {
    let mut by_line = vec![None; lines + 2];
    for (i, s) in symbols.iter().enumerate() {
        let end = (s.end_line as usize).min(lines + 1);
        for slot in by_line.iter_mut().take(end + 1).skip(s.start_line as usize) {
            *slot = Some(i);
        }
    }
    by_line
}

impl<'s> Walker<'s> {
    fn text(&self, n: Node) -> &'s str {
        std::str::from_utf8(&self.src[n.byte_range()]).unwrap_or_default()
    }

    /// Records a call whose receiver is the node `recv`: a receiver that is itself a
    /// call or a construction is typed by it. A receiver written longer than
    /// [`MAX_RECEIVER`] (a chain of thousands of calls) is recorded as [`LONG_RECEIVER`]:
    /// each link would otherwise store the whole chain before it.
    fn push_member(&mut self, name_node: Node, recv: Node, kind: CallKind, at: Node) {
        let q = bounded(self.text(recv));
        let name = self.text(name_node);
        self.push_call(name_node, name, Some(q), kind, at);
        if let Some(b) = self.bound_of(recv)
            && let Some((_, call)) = self.calls.last_mut()
        {
            call.receiver_type = Some(match b {
                Bound::Type(t) => t,
                Bound::Call(c) => format!("{c}()"),
            });
        }
    }

    fn push_call(
        &mut self,
        name_node: Node,
        name: &str,
        qualifier: Option<String>,
        kind: CallKind,
        at: Node,
    ) {
        let p = name_node.start_position();
        let receiver_var = match (&qualifier, kind) {
            (Some(q), CallKind::Member) if is_ident(q) => Some(q.clone()),
            _ => None,
        };
        let idx = self.calls.len();
        self.calls.push((
            at.start_byte(),
            CallSite {
                caller: None,
                line: p.row as u32 + 1,
                col: p.column as u32 + 1,
                name: name.to_string(),
                qualifier,
                kind,
                receiver_type: None,
            },
        ));
        if let Some(v) = receiver_var {
            self.receivers.push((idx, v));
        }
    }

    fn bind(&mut self, at: Node, var: &str, b: Bound) {
        if !var.is_empty() {
            let line = at.start_position().row as u32 + 1;
            self.bindings
                .push((at.start_byte(), line, var.to_string(), b));
        }
    }

    /// Records what `node` holds; returns whether to descend into it.
    fn visit(&mut self, node: Node) -> bool {
        match self.lang {
            Lang::Python => self.python(node),
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx => self.js(node),
            Lang::Go => self.go(node),
            Lang::Java => self.java(node),
            Lang::C | Lang::Cpp => self.c(node),
            Lang::Rust => self.rust(node),
        }
    }

    /// A value expression's type, when the expression says it. Wrappers (`&x`, `(x)`,
    /// `x?`, `await x`) are looked through in a loop: a file may nest them thousands deep.
    fn bound_of(&self, value: Node) -> Option<Bound> {
        let mut value = value;
        while let "unary_expression"
        | "reference_expression"
        | "await"
        | "await_expression"
        | "parenthesized_expression"
        | "try_expression" = value.kind()
        {
            value = value
                .child_by_field_name("operand")
                .or_else(|| value.child_by_field_name("value"))
                .or_else(|| value.named_child(0))?;
        }
        match value.kind() {
            "call" | "call_expression" => {
                let f = value.child_by_field_name("function")?;
                let f = if f.kind() == "generic_function" {
                    f.child_by_field_name("function")?
                } else {
                    f
                };
                let f = self.text(f);
                (f.len() <= MAX_RECEIVER).then(|| Bound::Call(f.to_string()))
            }
            "new_expression" | "object_creation_expression" => {
                let t = value
                    .child_by_field_name("constructor")
                    .or_else(|| value.child_by_field_name("type"))?;
                Some(Bound::Type(simple_type(self.text(t))))
            }
            "composite_literal" | "struct_expression" => {
                let t = value
                    .child_by_field_name("type")
                    .or_else(|| value.child_by_field_name("name"))?;
                Some(Bound::Type(simple_type(self.text(t))))
            }
            "method_invocation" => {
                let name = value.child_by_field_name("name")?;
                let obj = value
                    .child_by_field_name("object")
                    .map(|o| format!("{}.", self.text(o)))
                    .unwrap_or_default();
                let call = format!("{obj}{}", self.text(name));
                (call.len() <= MAX_RECEIVER).then_some(Bound::Call(call))
            }
            _ => None,
        }
    }

    fn python(&mut self, node: Node) -> bool {
        match node.kind() {
            "call" => {
                if let Some(f) = node.child_by_field_name("function") {
                    match f.kind() {
                        "identifier" => {
                            let n = self.text(f);
                            self.push_call(f, n, None, CallKind::Plain, node);
                        }
                        "attribute" => {
                            if let (Some(obj), Some(attr)) = (
                                f.child_by_field_name("object"),
                                f.child_by_field_name("attribute"),
                            ) {
                                self.push_member(attr, obj, CallKind::Member, node);
                            }
                        }
                        _ => {}
                    }
                }
            }
            "assignment" => {
                if let (Some(left), Some(right)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ) && left.kind() == "identifier"
                {
                    let var = self.text(left).to_string();
                    if let Some(t) = node.child_by_field_name("type") {
                        self.bind(node, &var, Bound::Type(simple_type(self.text(t))));
                    } else if let Some(b) = self.bound_of(right) {
                        self.bind(node, &var, b);
                    }
                }
            }
            "typed_parameter" | "typed_default_parameter" => {
                let name = node
                    .child_by_field_name("name")
                    .or_else(|| node.named_child(0));
                if let (Some(n), Some(t)) = (name, node.child_by_field_name("type"))
                    && n.kind() == "identifier"
                {
                    let (var, ty) = (self.text(n).to_string(), simple_type(self.text(t)));
                    self.bind(node, &var, Bound::Type(ty));
                }
            }
            "import_statement" => {
                let line = node.start_position().row as u32 + 1;
                let mut c = node.walk();
                for child in node.children_by_field_name("name", &mut c) {
                    let (module, alias) = match child.kind() {
                        "aliased_import" => (
                            child.child_by_field_name("name").map(|n| self.text(n)),
                            child
                                .child_by_field_name("alias")
                                .map(|n| self.text(n).to_string()),
                        ),
                        _ => (Some(self.text(child)), None),
                    };
                    if let Some(m) = module {
                        self.imports.push(Import {
                            line,
                            module: m.to_string(),
                            name: None,
                            alias,
                            wildcard: false,
                        });
                    }
                }
                return false;
            }
            "import_from_statement" => {
                let line = node.start_position().row as u32 + 1;
                let module = node
                    .child_by_field_name("module_name")
                    .map(|m| self.text(m).to_string())
                    .unwrap_or_default();
                let mut c = node.walk();
                let mut any = false;
                for child in node.children_by_field_name("name", &mut c) {
                    any = true;
                    let (name, alias) = match child.kind() {
                        "aliased_import" => (
                            child
                                .child_by_field_name("name")
                                .map(|n| self.text(n).to_string()),
                            child
                                .child_by_field_name("alias")
                                .map(|n| self.text(n).to_string()),
                        ),
                        _ => (Some(self.text(child).to_string()), None),
                    };
                    self.imports.push(Import {
                        line,
                        module: module.clone(),
                        name,
                        alias,
                        wildcard: false,
                    });
                }
                if !any {
                    self.imports.push(Import {
                        line,
                        module,
                        name: None,
                        alias: None,
                        wildcard: true,
                    });
                }
                return false;
            }
            _ => {}
        }
        true
    }

    fn js(&mut self, node: Node) -> bool {
        match node.kind() {
            "call_expression" => {
                if let Some(f) = node.child_by_field_name("function") {
                    match f.kind() {
                        "identifier" => {
                            let n = self.text(f);
                            if n == "require" {
                                self.js_require(node);
                            }
                            self.push_call(f, n, None, CallKind::Plain, node);
                        }
                        "member_expression" => {
                            if let (Some(obj), Some(prop)) = (
                                f.child_by_field_name("object"),
                                f.child_by_field_name("property"),
                            ) {
                                self.push_member(prop, obj, CallKind::Member, node);
                            }
                        }
                        _ => {}
                    }
                }
            }
            "new_expression" => {
                if let Some(c) = node.child_by_field_name("constructor") {
                    match c.kind() {
                        "identifier" => {
                            let n = self.text(c);
                            self.push_call(c, n, None, CallKind::New, node);
                        }
                        "member_expression" => {
                            if let (Some(obj), Some(prop)) = (
                                c.child_by_field_name("object"),
                                c.child_by_field_name("property"),
                            ) {
                                self.push_member(prop, obj, CallKind::New, node);
                            }
                        }
                        _ => {}
                    }
                }
            }
            "variable_declarator" => {
                if let Some(name) = node.child_by_field_name("name")
                    && name.kind() == "identifier"
                {
                    let var = self.text(name).to_string();
                    if let Some(t) = node.child_by_field_name("type") {
                        self.bind(node, &var, Bound::Type(simple_type(self.text(t))));
                    } else if let Some(v) = node.child_by_field_name("value")
                        && let Some(b) = self.bound_of(v)
                    {
                        self.bind(node, &var, b);
                    }
                }
            }
            "required_parameter" | "optional_parameter" => {
                if let (Some(p), Some(t)) = (
                    node.child_by_field_name("pattern"),
                    node.child_by_field_name("type"),
                ) && p.kind() == "identifier"
                {
                    let (var, ty) = (self.text(p).to_string(), simple_type(self.text(t)));
                    // A constructor parameter property (`private readonly a: T`) is a field.
                    let mut c = node.walk();
                    let property = node
                        .children(&mut c)
                        .any(|k| matches!(k.kind(), "accessibility_modifier" | "readonly"));
                    if property {
                        self.bind(node, &format!("this.{var}"), Bound::Type(ty.clone()));
                    }
                    self.bind(node, &var, Bound::Type(ty));
                }
            }
            "public_field_definition" | "field_definition" => {
                // `store: TodoStore` or `store = new TodoStore()` on a class: typed `this.store`.
                let name = node
                    .child_by_field_name("name")
                    .or_else(|| node.child_by_field_name("property"));
                if let Some(n) = name {
                    let var = format!("this.{}", self.text(n));
                    if let Some(t) = node.child_by_field_name("type") {
                        self.bind(node, &var, Bound::Type(simple_type(self.text(t))));
                    } else if let Some(v) = node.child_by_field_name("value")
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
                if let Some(src) = node.child_by_field_name("source") {
                    // A re-export: `export { a as b } from './x'` or `export * from './x'`.
                    let module = unquote(self.text(src));
                    let line = node.start_position().row as u32 + 1;
                    let mut any = false;
                    let mut c = node.walk();
                    for child in node.named_children(&mut c) {
                        if child.kind() == "export_clause" {
                            let mut c2 = child.walk();
                            for spec in child.named_children(&mut c2) {
                                let name = spec
                                    .child_by_field_name("name")
                                    .map(|n| self.text(n).to_string());
                                let alias = spec
                                    .child_by_field_name("alias")
                                    .map(|n| self.text(n).to_string());
                                any = true;
                                self.imports.push(Import {
                                    line,
                                    module: module.clone(),
                                    name,
                                    alias,
                                    wildcard: false,
                                });
                            }
                        }
                    }
                    if !any {
                        self.imports.push(Import {
                            line,
                            module,
                            name: None,
                            alias: None,
                            wildcard: true,
                        });
                    }
                }
            }
            _ => {}
        }
        true
    }

    fn js_require(&mut self, call: Node) {
        let Some(arg) = call
            .child_by_field_name("arguments")
            .and_then(|a| a.named_child(0))
        else {
            return;
        };
        if arg.kind() != "string" {
            return;
        }
        let module = unquote(self.text(arg));
        let line = call.start_position().row as u32 + 1;
        let Some(decl) = call.parent().filter(|p| p.kind() == "variable_declarator") else {
            self.imports.push(Import {
                line,
                module,
                name: None,
                alias: None,
                wildcard: false,
            });
            return;
        };
        let Some(pat) = decl.child_by_field_name("name") else {
            return;
        };
        match pat.kind() {
            "identifier" => self.imports.push(Import {
                line,
                module,
                name: None,
                alias: Some(self.text(pat).to_string()),
                wildcard: false,
            }),
            "object_pattern" => {
                let mut c = pat.walk();
                for p in pat.named_children(&mut c) {
                    let (name, alias) = match p.kind() {
                        "shorthand_property_identifier_pattern" => (self.text(p).to_string(), None),
                        "pair_pattern" => {
                            match (p.child_by_field_name("key"), p.child_by_field_name("value")) {
                                (Some(k), Some(v)) => {
                                    (self.text(k).to_string(), Some(self.text(v).to_string()))
                                }
                                _ => continue,
                            }
                        }
                        _ => continue,
                    };
                    self.imports.push(Import {
                        line,
                        module: module.clone(),
                        name: Some(name),
                        alias,
                        wildcard: false,
                    });
                }
            }
            _ => {}
        }
    }

    fn js_import(&mut self, node: Node) {
        let Some(src) = node.child_by_field_name("source") else {
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
                        self.imports.push(Import {
                            line,
                            module: module.clone(),
                            name: Some("default".to_string()),
                            alias: Some(self.text(part).to_string()),
                            wildcard: false,
                        });
                    }
                    "namespace_import" => {
                        any = true;
                        let alias = part.named_child(0).map(|n| self.text(n).to_string());
                        self.imports.push(Import {
                            line,
                            module: module.clone(),
                            name: None,
                            alias,
                            wildcard: false,
                        });
                    }
                    "named_imports" => {
                        let mut c3 = part.walk();
                        for spec in part.named_children(&mut c3) {
                            if spec.kind() != "import_specifier" {
                                continue;
                            }
                            any = true;
                            let name = spec
                                .child_by_field_name("name")
                                .map(|n| self.text(n).to_string());
                            let alias = spec
                                .child_by_field_name("alias")
                                .map(|n| self.text(n).to_string());
                            self.imports.push(Import {
                                line,
                                module: module.clone(),
                                name,
                                alias,
                                wildcard: false,
                            });
                        }
                    }
                    _ => {}
                }
            }
        }
        if !any {
            self.imports.push(Import {
                line,
                module,
                name: None,
                alias: None,
                wildcard: false,
            });
        }
    }

    fn go(&mut self, node: Node) -> bool {
        match node.kind() {
            "call_expression" => {
                if let Some(f) = node.child_by_field_name("function") {
                    match f.kind() {
                        "identifier" => {
                            let n = self.text(f);
                            self.push_call(f, n, None, CallKind::Plain, node);
                        }
                        "selector_expression" => {
                            if let (Some(obj), Some(field)) = (
                                f.child_by_field_name("operand"),
                                f.child_by_field_name("field"),
                            ) {
                                self.push_member(field, obj, CallKind::Member, node);
                            }
                        }
                        _ => {}
                    }
                }
            }
            "short_var_declaration" | "assignment_statement" => {
                if let (Some(l), Some(r)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ) {
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
                let ty = node
                    .child_by_field_name("type")
                    .map(|t| simple_type(self.text(t)));
                let value = node
                    .child_by_field_name("value")
                    .and_then(|v| v.named_child(0))
                    .and_then(|v| self.bound_of(v));
                let mut c = node.walk();
                let names: Vec<Node> = node.children_by_field_name("name", &mut c).collect();
                for n in names {
                    let var = self.text(n).to_string();
                    if let Some(t) = &ty {
                        self.bind(node, &var, Bound::Type(t.clone()));
                    } else if let Some(b) = &value {
                        self.bind(node, &var, b.clone());
                    }
                }
            }
            "import_spec" => {
                if let Some(p) = node.child_by_field_name("path") {
                    let module = unquote(self.text(p));
                    let alias = node
                        .child_by_field_name("name")
                        .map(|n| self.text(n).to_string());
                    let wildcard = alias.as_deref() == Some(".");
                    self.imports.push(Import {
                        line: node.start_position().row as u32 + 1,
                        module,
                        name: None,
                        alias: alias.filter(|a| a != "."),
                        wildcard,
                    });
                }
                return false;
            }
            _ => {}
        }
        true
    }

    fn java(&mut self, node: Node) -> bool {
        match node.kind() {
            "method_invocation" => {
                if let Some(name) = node.child_by_field_name("name") {
                    let n = self.text(name);
                    match node.child_by_field_name("object") {
                        Some(obj) => self.push_member(name, obj, CallKind::Member, node),
                        None => self.push_call(name, n, None, CallKind::Plain, node),
                    }
                }
            }
            "object_creation_expression" => {
                if let Some(t) = node.child_by_field_name("type") {
                    let ty = simple_type(self.text(t));
                    self.push_call(t, &ty, None, CallKind::New, node);
                }
            }
            "local_variable_declaration" | "field_declaration" => {
                if let Some(t) = node.child_by_field_name("type") {
                    let ty = simple_type(self.text(t));
                    let field = node.kind() == "field_declaration";
                    let mut c = node.walk();
                    let decls: Vec<Node> =
                        node.children_by_field_name("declarator", &mut c).collect();
                    for d in decls {
                        if let Some(n) = d.child_by_field_name("name") {
                            let var = self.text(n).to_string();
                            let b = if ty == "var" {
                                match d
                                    .child_by_field_name("value")
                                    .and_then(|v| self.bound_of(v))
                                {
                                    Some(b) => b,
                                    None => continue,
                                }
                            } else {
                                Bound::Type(ty.clone())
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
                if let (Some(t), Some(n)) = (
                    node.child_by_field_name("type"),
                    node.child_by_field_name("name"),
                ) {
                    let (var, ty) = (self.text(n).to_string(), simple_type(self.text(t)));
                    self.bind(node, &var, Bound::Type(ty));
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
                self.imports.push(Import {
                    line,
                    module: if is_static {
                        format!("static {module}")
                    } else {
                        module
                    },
                    name,
                    alias: None,
                    wildcard,
                });
                return false;
            }
            _ => {}
        }
        true
    }

    fn c(&mut self, node: Node) -> bool {
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
                                self.bind(node, &var, Bound::Type(ty.clone()));
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
                        module: if system {
                            format!("<{module}>")
                        } else {
                            module
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
                        module: format!("namespace {}", self.text(target)),
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

    fn rust(&mut self, node: Node) -> bool {
        match node.kind() {
            "macro_invocation" | "attribute_item" | "inner_attribute_item" => return false,
            "call_expression" => {
                if let Some(f) = node.child_by_field_name("function") {
                    let f = if f.kind() == "generic_function" {
                        f.child_by_field_name("function").unwrap_or(f)
                    } else {
                        f
                    };
                    match f.kind() {
                        "identifier" => {
                            let n = self.text(f);
                            self.push_call(f, n, None, CallKind::Plain, node);
                        }
                        "scoped_identifier" => {
                            if let Some(name) = f.child_by_field_name("name") {
                                let q = f
                                    .child_by_field_name("path")
                                    .map(|p| self.text(p).to_string());
                                let n = self.text(name);
                                self.push_call(name, n, q, CallKind::Path, node);
                            }
                        }
                        "field_expression" => {
                            if let (Some(obj), Some(field)) = (
                                f.child_by_field_name("value"),
                                f.child_by_field_name("field"),
                            ) {
                                self.push_member(field, obj, CallKind::Member, node);
                            }
                        }
                        _ => {}
                    }
                }
            }
            "let_declaration" => {
                if let Some(p) = node.child_by_field_name("pattern") {
                    let p = if p.kind() == "mut_pattern" {
                        p.named_child(0).unwrap_or(p)
                    } else {
                        p
                    };
                    if p.kind() == "identifier" {
                        let var = self.text(p).to_string();
                        if let Some(t) = node.child_by_field_name("type") {
                            self.bind(node, &var, Bound::Type(simple_type(self.text(t))));
                        } else if let Some(v) = node.child_by_field_name("value")
                            && let Some(b) = self.bound_of(v)
                        {
                            self.bind(node, &var, b);
                        }
                    }
                }
            }
            "parameter" => {
                if let (Some(p), Some(t)) = (
                    node.child_by_field_name("pattern"),
                    node.child_by_field_name("type"),
                ) {
                    let p = if p.kind() == "mut_pattern" {
                        p.named_child(0).unwrap_or(p)
                    } else {
                        p
                    };
                    if p.kind() == "identifier" {
                        let (var, ty) = (self.text(p).to_string(), simple_type(self.text(t)));
                        self.bind(node, &var, Bound::Type(ty));
                    }
                }
            }
            "use_declaration" => {
                if let Some(arg) = node.child_by_field_name("argument") {
                    let line = node.start_position().row as u32 + 1;
                    self.rust_use(arg, "", line);
                }
                return false;
            }
            "mod_item" => {
                if node.child_by_field_name("body").is_none()
                    && let Some(n) = node.child_by_field_name("name")
                {
                    self.imports.push(Import {
                        line: node.start_position().row as u32 + 1,
                        module: format!("mod {}", self.text(n)),
                        name: None,
                        alias: None,
                        wildcard: false,
                    });
                }
            }
            _ => {}
        }
        true
    }

    /// The imports of one `use` tree, walked with an explicit stack (`use a::{b::{…}}`
    /// may nest thousands deep).
    fn rust_use(&mut self, node: Node, prefix: &str, line: u32) {
        let mut stack = vec![(node, prefix.to_string())];
        while let Some((node, prefix)) = stack.pop() {
            self.rust_use_one(node, &prefix, line, &mut stack);
        }
    }

    fn rust_use_one<'t>(
        &mut self,
        node: Node<'t>,
        prefix: &str,
        line: u32,
        stack: &mut Vec<(Node<'t>, String)>,
    ) {
        let join = |a: &str, b: &str| {
            if a.is_empty() {
                b.to_string()
            } else {
                format!("{a}::{b}")
            }
        };
        match node.kind() {
            "scoped_identifier" | "identifier" | "crate" | "self" | "super" => {
                let full = join(prefix, self.text(node));
                let (module, name) = match full.rsplit_once("::") {
                    Some((m, n)) => (m.to_string(), n.to_string()),
                    None => (String::new(), full.clone()),
                };
                if name == "self" {
                    let last = module.rsplit("::").next().unwrap_or(&module).to_string();
                    self.imports.push(Import {
                        line,
                        module: module.clone(),
                        name: None,
                        alias: Some(last),
                        wildcard: false,
                    });
                } else {
                    self.imports.push(Import {
                        line,
                        module,
                        name: Some(name),
                        alias: None,
                        wildcard: false,
                    });
                }
            }
            "use_as_clause" => {
                if let (Some(p), Some(a)) = (
                    node.child_by_field_name("path"),
                    node.child_by_field_name("alias"),
                ) {
                    let full = join(prefix, self.text(p));
                    let (module, name) = match full.rsplit_once("::") {
                        Some((m, n)) => (m.to_string(), n.to_string()),
                        None => (String::new(), full.clone()),
                    };
                    self.imports.push(Import {
                        line,
                        module,
                        name: Some(name),
                        alias: Some(self.text(a).to_string()),
                        wildcard: false,
                    });
                }
            }
            "scoped_use_list" => {
                let p = node
                    .child_by_field_name("path")
                    .map(|p| join(prefix, self.text(p)))
                    .unwrap_or_else(|| prefix.to_string());
                // A path longer than any real module path is not followed further
                // (each level would copy the whole prefix again).
                if let Some(list) = node.child_by_field_name("list")
                    && p.len() <= MAX_RECEIVER
                {
                    stack.push((list, p));
                }
            }
            "use_list" => {
                let mut c = node.walk();
                let items: Vec<Node> = node.named_children(&mut c).collect();
                // Reversed onto the stack, so the items come off it in source order.
                for item in items.into_iter().rev() {
                    stack.push((item, prefix.to_string()));
                }
            }
            "use_wildcard" => {
                let inner = node
                    .named_child(0)
                    .map(|n| join(prefix, self.text(n)))
                    .unwrap_or_else(|| prefix.to_string());
                self.imports.push(Import {
                    line,
                    module: inner,
                    name: None,
                    alias: None,
                    wildcard: true,
                });
            }
            _ => {}
        }
    }
}

/// The identifier a C/C++ declarator declares (`*p`, `p = …`, `&r`), followed in a loop.
fn declared_identifier(d: Node) -> Option<Node> {
    let mut d = d;
    loop {
        d = match d.kind() {
            "identifier" | "field_identifier" => return Some(d),
            "reference_declarator" | "pointer_declarator" => d
                .child_by_field_name("declarator")
                .or_else(|| d.named_child(d.named_child_count().saturating_sub(1)))?,
            _ => d.child_by_field_name("declarator")?,
        };
    }
}

fn last_named_leaf(n: Node) -> Node {
    let mut cur = n;
    while let Some(name) = cur.child_by_field_name("name") {
        cur = name;
    }
    cur
}

/// Receivers and call expressions longer than this (bytes) are not kept as written.
pub const MAX_RECEIVER: usize = 256;
/// What a receiver longer than [`MAX_RECEIVER`] is recorded as: not an expression any
/// language resolves, so the call stays unresolved rather than guessed.
pub const LONG_RECEIVER: &str = "…";

fn bounded(receiver: &str) -> String {
    if receiver.len() <= MAX_RECEIVER {
        receiver.to_string()
    } else {
        LONG_RECEIVER.to_string()
    }
}

fn unquote(s: &str) -> String {
    s.trim_matches(|c| c == '"' || c == '\'' || c == '`')
        .to_string()
}

fn is_ident(s: &str) -> bool {
    let s = s.strip_prefix("this.").unwrap_or(s);
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// The bare type name in a written type: `&'a mut Stack<T>` → `Stack`, `*kv.Store` →
/// `kv.Store`, `Optional[Item]` → `Item`, `: Shelf` → `Shelf`, `const geo::Rect&` →
/// `geo::Rect`.
pub fn simple_type(t: &str) -> String {
    // Optional[X] / Option<X> / X | None: the wrapped type. Wrappers may nest deep, so
    // they are unwrapped in a loop rather than by recursion.
    const WRAPPERS: [&str; 6] = ["Optional[", "Option<", "Box<", "Rc<", "Arc<", "RefCell<"];
    let mut t = t;
    loop {
        t = t.trim().trim_start_matches(':').trim();
        t = t.trim_matches(|c| c == '"' || c == '\'');
        loop {
            let before = t;
            t = t.trim_start();
            for p in [
                "&", "*", "mut ", "const ", "dyn ", "impl ", "struct ", "class ",
            ] {
                if let Some(rest) = t.strip_prefix(p) {
                    t = rest;
                }
            }
            if let Some(rest) = t.strip_prefix('\'') {
                t = rest.split_once(' ').map_or("", |(_, r)| r);
            }
            if t == before {
                break;
            }
        }
        match WRAPPERS.iter().find_map(|w| t.strip_prefix(w)) {
            Some(inner) => t = inner.trim_end_matches([']', '>']),
            None => break,
        }
    }
    let end = t
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == ':' || c == '$'))
        .unwrap_or(t.len());
    t[..end].trim_end_matches([':', '.']).to_string()
}

#[cfg(test)]
mod tests {
    use super::simple_type;

    #[test]
    fn simple_types() {
        assert_eq!(simple_type("&'a mut Stack<T>"), "Stack");
        assert_eq!(simple_type("*kv.Store"), "kv.Store");
        assert_eq!(simple_type("Optional[Item]"), "Item");
        assert_eq!(simple_type(": Shelf"), "Shelf");
        assert_eq!(simple_type("const geo::Rect&"), "geo::Rect");
        assert_eq!(simple_type("\"Item\""), "Item");
        assert_eq!(simple_type("Option<&Box<Item>>"), "Item");
        // Wrappers nested past any stack's depth.
        let deep = format!("{}Item{}", "Option<".repeat(100_000), ">".repeat(100_000));
        assert_eq!(simple_type(&deep), "Item");
    }
}
