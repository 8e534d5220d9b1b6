//! Call sites and imports in Rust, with `use` trees flattened into one import per name: the node shapes this language writes
//! calls, receivers, bindings and imports with, recorded by the language-free walk in
//! [`crate::syntax::refs`].

use crate::syntax::FieldExt;
use tree_sitter::Node;

use super::{CallShape, CalleeForm, CapsConstants, LangSpec, ResolveRules};
use crate::model::{CallKind, Import, ImportKind, Receiver, Usage};
use crate::syntax::refs::*;

/// Plain `//` comments are not documentation in Rust.
fn is_doc(text: &str) -> bool {
    (text.starts_with("///") && !text.starts_with("////")) || text.starts_with("/**")
}

pub(super) const SPEC: LangSpec = LangSpec {
    name: "rust",
    extensions: &["rs"],
    file_names: &[],
    shebangs: &[],
    separator: "::",
    grammar: || tree_sitter_rust::LANGUAGE.into(),
    query: include_str!("queries/rust.scm"),
    opaque: &[
        "use_declaration",
        "token_tree",
        "macro_invocation",
        "string_literal",
        "raw_string_literal",
        "parameters",
        "type_arguments",
        "type_parameters",
        "field_declaration_list",
        "ordered_field_declaration_list",
        "enum_variant_list",
        "attribute_item",
        "inner_attribute_item",
        "where_clause",
        "let_declaration",
        "arguments",
    ],
    doc_comment: is_doc,
    docstrings: false,
    caps_constants: CapsConstants::None,
    wrappers: &[],
    methods_in_classes_only: false,
    typedef_names: false,
    jsdoc_param_types: false,
    calls: &[CallShape {
        node: "call_expression",
        callee: Some("function"),
        unwrap: Some(("generic_function", "function")),
        new: false,
        forms: &[
            CalleeForm::Name("identifier"),
            CalleeForm::Path {
                node: "scoped_identifier",
                path: "path",
                name: "name",
            },
            CalleeForm::Member {
                node: "field_expression",
                object: "value",
                name: "field",
                unwrap_name: None,
            },
        ],
    }],
    resolve: ResolveRules {
        family: 2,
        crate_modules: true,
        std_roots: &["std", "core", "alloc"],
        builtins: &["Ok", "Err", "Some", "Box", "drop"],
        ..ResolveRules::PLAIN
    },
};

impl Walker<'_> {
    pub(in crate::syntax) fn rust(&mut self, node: Node) -> bool {
        match node.kind() {
            "attribute_item" | "inner_attribute_item" => return false,
            // A macro's arguments are tokens, not expressions: calls in them are read
            // from the tokens (`assert!(f(x))`), and the walk does not descend.
            "macro_invocation" => {
                self.rust_macro_calls(node);
                return false;
            }
            // A `macro_rules!` body is tokens too: the calls its rules expand to
            // (`$crate::max_level()` in `log_enabled!`), kept apart from calls
            // (`Usage::Macro`): they happen where the macro is used.
            "macro_definition" => {
                let mut c = node.walk();
                let bodies: Vec<Node> = node
                    .children(&mut c)
                    .filter(|r| r.kind() == "macro_rule")
                    .filter_map(|r| r.field("right"))
                    .collect();
                let usage = std::mem::replace(&mut self.usage, Usage::Macro);
                self.rust_token_calls(bodies);
                self.usage = usage;
                return false;
            }
            // A struct's field: `self.name` in its methods.
            "field_declaration" => {
                if let (Some(n), Some(t)) = (node.field("name"), node.field("type")) {
                    let ty = simple_type(self.text(t));
                    if !ty.is_empty() {
                        let var = format!("self.{}", self.text(n));
                        self.bind(node, &var, Receiver::Type(ty));
                    }
                }
            }
            "let_declaration" => {
                if let Some(p) = node.field("pattern") {
                    let p = if p.kind() == "mut_pattern" {
                        p.named_child(0).unwrap_or(p)
                    } else {
                        p
                    };
                    if p.kind() == "identifier" {
                        let var = self.text(p).to_string();
                        if let Some(t) = node.field("type") {
                            self.bind(node, &var, Receiver::Type(simple_type(self.text(t))));
                        } else if let Some(v) = node.field("value") {
                            // `let mix = Color::mix::<Lab>;`: a function by its path, so
                            // `mix(a, b)` calls `Color::mix` (and no function of the
                            // module that is named `mix`).
                            let path = match v.kind() {
                                "generic_function" => v.field("function"),
                                _ => Some(v),
                            }
                            .filter(|p| p.kind() == "scoped_identifier");
                            if let Some(p) = path {
                                let text = self.text(p).to_string();
                                self.bind(node, &var, Receiver::Expr(text));
                            } else if let Some(b) = self.bound_of(v) {
                                self.bind(node, &var, b);
                            }
                        }
                    }
                }
            }
            // `for item in &self.items` / `for item in self.items.iter()`.
            "for_expression" => {
                if let (Some(p), Some(v)) = (node.field("pattern"), node.field("value")) {
                    self.bind_element(node, p, v);
                }
            }
            // `self.items.iter().map(|item| item.weight())`.
            "closure_expression" => {
                if let Some(p) = node.field("parameters").and_then(|ps| ps.named_child(0)) {
                    let p = match p.kind() {
                        "parameter" if p.field("type").is_none() => p.field("pattern").unwrap_or(p),
                        _ => p,
                    };
                    self.bind_callback_element(node, p);
                }
            }
            "parameter" => {
                if let (Some(p), Some(t)) = (node.field("pattern"), node.field("type")) {
                    let p = if p.kind() == "mut_pattern" {
                        p.named_child(0).unwrap_or(p)
                    } else {
                        p
                    };
                    if p.kind() == "identifier" {
                        let mut ty = simple_type(self.text(t));
                        if let Some(bound) = self.generic_bounds.get(&ty) {
                            ty = bound.clone();
                        }
                        let var = self.text(p).to_string();
                        self.bind(node, &var, Receiver::Type(ty));
                    }
                }
            }
            // `<M: Matcher>` and `where M: Matcher`: `M`'s values reach `Matcher`'s methods.
            "constrained_type_parameter" | "type_parameter" | "where_predicate" => {
                let name = node.field("left").or_else(|| node.field("name"));
                let bound = node.field("bounds").and_then(|b| {
                    (0..b.named_child_count())
                        .filter_map(|i| b.named_child(i))
                        .find(|k| k.kind() != "lifetime")
                });
                if let (Some(n), Some(b)) = (name, bound) {
                    let bound = simple_type(self.text(b));
                    if !bound.is_empty() {
                        self.generic_bounds.insert(self.text(n).to_string(), bound);
                    }
                }
            }
            "use_declaration" => {
                if let Some(arg) = node.field("argument") {
                    self.rust_use(arg, "");
                }
                return false;
            }
            "mod_item" => {
                if node.field("body").is_none()
                    && let Some(n) = node.field("name")
                {
                    self.imports.push(
                        Import::new(
                            node.start_position().row as u32 + 1,
                            self.text(n).to_string(),
                        )
                        .of_kind(ImportKind::ModDecl),
                    );
                }
            }
            _ => {}
        }
        true
    }

    /// The imports of one `use` tree, walked with an explicit stack (`use a::{b::{…}}`
    /// may nest thousands deep).
    /// Calls written in a macro's token trees: a name right before a `(…)` group, with the
    /// path before it (`TimeFilter::before(…)`) or the receiver before a `.`
    /// (`te.assert_ok(…)`; a receiver that is not a plain name is left unknown). Token
    /// trees nest; they are read with a stack, not by recursion.
    pub(in crate::syntax) fn rust_macro_calls(&mut self, node: Node) {
        let mut c = node.walk();
        let trees = node
            .children(&mut c)
            .filter(|k| k.kind() == "token_tree")
            .collect();
        self.rust_token_calls(trees);
    }

    /// The calls written in `trees` and the token trees inside them (see
    /// [`Walker::rust_macro_calls`]).
    fn rust_token_calls(&mut self, trees: Vec<Node>) {
        let mut stack: Vec<Node> = trees;
        while let Some(tree) = stack.pop() {
            let mut c = tree.walk();
            let toks: Vec<Node> = tree.children(&mut c).collect();
            for (i, t) in toks.iter().enumerate() {
                if t.kind() != "token_tree" {
                    continue;
                }
                stack.push(*t);
                if !self.text(*t).starts_with('(') {
                    continue;
                }
                // The called name's index: right before the group, or before a turbofish
                // (`.collect::<Vec<_>>(…)`).
                let Some(at) = i
                    .checked_sub(1)
                    .and_then(|j| self.before_turbofish(&toks, j))
                else {
                    continue;
                };
                let name = toks[at];
                if name.kind() != "identifier" {
                    continue;
                }
                let before = |k: usize| (at + 1).checked_sub(k).map(|j| toks[j]);
                let n = self.text(name).to_string();
                match before(2).map(|b| b.kind()) {
                    Some("::") => {
                        let (parts, _) = self.path_back(&before, 3);
                        if !parts.is_empty() {
                            self.push_call(name, &n, Some(parts.join("::")), CallKind::Path, name);
                        }
                    }
                    Some(".") => {
                        let receiver = before(3).filter(|r| {
                            matches!(r.kind(), "identifier" | "self")
                                && !matches!(before(4).map(|b| b.kind()), Some("." | "::"))
                        });
                        // `Color::red().mix(…)`: the value of a call by its path.
                        let called = before(3)
                            .filter(|r| r.kind() == "token_tree" && self.text(*r).starts_with('('))
                            .and_then(|_| {
                                let (parts, chained) = self.path_back(&before, 4);
                                (!parts.is_empty() && !chained)
                                    .then(|| format!("{}()", parts.join("::")))
                            });
                        let q = match (receiver, &called) {
                            (Some(r), _) => self.text(r).to_string(),
                            (None, Some(c)) => c.clone(),
                            (None, None) => "(…)".to_string(),
                        };
                        self.push_call(name, &n, Some(q), CallKind::Member, name);
                        if let Some(c) = called
                            && let Some((_, call)) = self.calls.last_mut()
                        {
                            call.receiver_type = Some(Receiver::of_expr(c));
                        }
                    }
                    // `!` before the name is a nested macro's bang only when it follows;
                    // here the name itself is called.
                    _ => self.push_call(name, &n, None, CallKind::Plain, name),
                }
            }
        }
    }

    /// In a macro's tokens, the path whose last segment is `before(k)` (`before(1)` the
    /// token right before the call's group), walked back over `a::b::`, in order; and
    /// whether a `.` leads it (a method of a value, not a path).
    fn path_back<'t>(
        &self,
        before: &impl Fn(usize) -> Option<Node<'t>>,
        k: usize,
    ) -> (Vec<&str>, bool) {
        let mut k = k;
        let mut parts: Vec<&str> = Vec::new();
        let mut chained = false;
        while let Some(p) = before(k)
            && (matches!(p.kind(), "identifier" | "self" | "crate" | "super")
                || self.text(p) == "$crate")
        {
            // `$crate` in a macro's body is the crate that defines the macro.
            parts.push(self.text(p).trim_start_matches('$'));
            match before(k + 1).map(|b| b.kind()) {
                Some("::") => k += 2,
                Some(".") => {
                    chained = true;
                    break;
                }
                _ => break,
            }
        }
        parts.reverse();
        (parts, chained)
    }

    /// In a macro's tokens, the index of the token a turbofish that ends at `end` follows
    /// (`collect` in `collect::<Vec<_>>`), past the `::`; `end` itself when no `>` is
    /// there; None when the brackets do not balance.
    fn before_turbofish(&self, toks: &[Node], end: usize) -> Option<usize> {
        let angles = |t: &str| !t.is_empty() && t.chars().all(|c| matches!(c, '<' | '>'));
        if !matches!(self.text(toks[end]), ">" | ">>") {
            return Some(end);
        }
        let mut depth = 0i32;
        let mut j = end;
        loop {
            let text = self.text(toks[j]);
            if text.contains(['<', '>']) && !angles(text) {
                return None;
            }
            depth += text.matches('>').count() as i32 - text.matches('<').count() as i32;
            if depth == 0 {
                break;
            }
            j = j.checked_sub(1)?;
        }
        let colons = j.checked_sub(1)?;
        (self.text(toks[colons]) == "::").then_some(colons.checked_sub(1)?)
    }

    pub(in crate::syntax) fn rust_use(&mut self, node: Node, prefix: &str) {
        let mut stack = vec![(node, prefix.to_string())];
        while let Some((node, prefix)) = stack.pop() {
            self.rust_use_one(node, &prefix, &mut stack);
        }
    }

    /// One item of a `use` tree. Each import is on the line of its own item, so that in a
    /// `use {` block of many lines it points at the line that names it.
    pub(in crate::syntax) fn rust_use_one<'t>(
        &mut self,
        node: Node<'t>,
        prefix: &str,
        stack: &mut Vec<(Node<'t>, String)>,
    ) {
        let line = node.start_position().row as u32 + 1;
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
                    self.imports
                        .push(Import::new(line, module.clone()).aliased(last));
                } else {
                    self.imports.push(Import::new(line, module).named(name));
                }
            }
            "use_as_clause" => {
                if let (Some(p), Some(a)) = (node.field("path"), node.field("alias")) {
                    let full = join(prefix, self.text(p));
                    let (module, name) = match full.rsplit_once("::") {
                        Some((m, n)) => (m.to_string(), n.to_string()),
                        None => (String::new(), full.clone()),
                    };
                    self.imports.push(
                        Import::new(line, module)
                            .named(name)
                            .aliased(self.text(a).to_string()),
                    );
                }
            }
            "scoped_use_list" => {
                let p = node
                    .field("path")
                    .map(|p| join(prefix, self.text(p)))
                    .unwrap_or_else(|| prefix.to_string());
                // A path longer than any real module path is not followed further
                // (each level would copy the whole prefix again).
                if let Some(list) = node.field("list")
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
                self.imports.push(Import::new(line, inner).wildcard(true));
            }
            _ => {}
        }
    }
}
