//! Call sites, bindings and imports in Kotlin: the node shapes this language writes calls,
//! receivers, bindings and imports with, recorded by the language-free walk in
//! [`crate::syntax::refs`].
//!
//! `f()`, `x.f()`, `x?.f()` and `Item(…)` (a construction: Kotlin has no `new`) are calls;
//! so is the superclass's constructor named in a class header (`class Bundle : Item(…)`).
//! A value is typed by its declared type (`val x: Item`, a parameter, a `val`/`var`
//! constructor parameter, which is also a property `this.x`), or by what it is assigned
//! (`val x = Item(…)`, `val x = make()`, read through the resolver's return types);
//! `super.f()` is a call on the class's superclass. `import a.b.C [as D]` imports `C` of
//! package `a.b`, `import a.b.*` the package, and `import a.b.C.f` (a capitalised
//! qualifier) the member `f` of class or object `C` (a companion's too:
//! `a.b.C.Companion.f`).

use tree_sitter::Node;

use super::{CallShape, CalleeForm, CapsConstants, LangSpec, ResolveRules, any_comment};
use crate::model::{CallKind, Import, ImportKind, Receiver};
use crate::syntax::refs::*;

/// The text tree-sitter-kotlin-ng reads for `text`, when it differs: ktfmt lays out a
/// nested class whose primary constructor is written out on the line after the class's
/// name (`public class Options` ⏎ `private constructor(` ⏎ `val strings: …`), and inside
/// a class body the grammar ends the declaration at that line break, so the whole outer
/// class became an error and its members top-level functions (moshi's `JsonReader`).
/// The break is moved into the parameter list (the first space of the next line's
/// indentation becomes it): the same bytes at the same offsets but two, and every line
/// from the parameters on keeps its number. `None` when no class is laid out so.
pub(super) fn constructor_on_the_class_line(text: &str) -> Option<String> {
    if !text.contains("constructor(") {
        return None;
    }
    let mut bytes = text.as_bytes().to_vec();
    let mut changed = false;
    let mut starts: Vec<usize> = vec![0];
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    for w in starts.windows(4) {
        let (head, ctor, params) = (
            &text[w[0]..w[1] - 1],
            &text[w[1]..w[2] - 1],
            &text[w[2]..w[3] - 1],
        );
        if is_class_head(head) && is_constructor_opening(ctor) && params.starts_with(' ') {
            bytes[w[1] - 1] = b' ';
            bytes[w[2]] = b'\n';
            changed = true;
        }
    }
    // Only ASCII spaces and line breaks were swapped: still UTF-8.
    changed.then(|| String::from_utf8(bytes).ok()).flatten()
}

/// `public class Options`, `internal data class Pair<A, B>`: a class's name with nothing
/// after it (no parameters, supertypes or body on the line).
fn is_class_head(line: &str) -> bool {
    let t = line.trim();
    let Some(at) = t.find("class ") else {
        return false;
    };
    (at == 0 || t[..at].ends_with(' '))
        && !t.contains(['(', '{', '=', ':', '/'])
        && t[at + 6..]
            .trim()
            .chars()
            .next()
            .is_some_and(char::is_alphabetic)
}

/// `private constructor(`, `@Inject constructor(`, `constructor(`: a primary
/// constructor whose parameters start on the next line.
fn is_constructor_opening(line: &str) -> bool {
    let t = line.trim();
    t.strip_suffix("constructor(").is_some_and(|mods| {
        mods.split_whitespace().all(|m| {
            m.starts_with('@') || matches!(m, "private" | "protected" | "internal" | "public")
        })
    })
}

pub(super) const SPEC: LangSpec = LangSpec {
    name: "kotlin",
    extensions: &["kt", "kts"],
    file_names: &[],
    shebangs: &[],
    separator: ".",
    grammar: || tree_sitter_kotlin_ng::LANGUAGE.into(),
    query: include_str!("queries/kotlin.scm"),
    opaque: &[
        "import",
        "package_header",
        "file_annotation",
        "property_declaration",
        "value_arguments",
        "function_value_parameters",
        "class_parameters",
        "string_literal",
        "annotation",
    ],
    doc_comment: any_comment,
    docstrings: false,
    caps_constants: CapsConstants::None,
    wrappers: &[],
    methods_in_classes_only: false,
    typedef_names: false,
    jsdoc_param_types: false,
    calls: &[CallShape {
        node: "call_expression",
        callee: Some(""),
        unwrap: None,
        new: false,
        forms: &[
            CalleeForm::Name("identifier"),
            CalleeForm::Navigation("navigation_expression"),
        ],
    }],
    resolve: ResolveRules {
        // Java's family: Kotlin calls the Java classes of a mixed JVM project.
        family: 5,
        implicit_this: true,
        package_scope: true,
        super_receivers: &["super"],
        builtins: BUILTINS,
        global_objects: &["System", "Math"],
        ..ResolveRules::PLAIN
    },
};

/// Top-level functions of the Kotlin standard library every file calls without an
/// import: never a repository definition unless the repository defines one.
const BUILTINS: &[&str] = &[
    "println",
    "print",
    "readLine",
    "readln",
    "listOf",
    "listOfNotNull",
    "mutableListOf",
    "arrayListOf",
    "emptyList",
    "setOf",
    "mutableSetOf",
    "hashSetOf",
    "linkedSetOf",
    "emptySet",
    "mapOf",
    "mutableMapOf",
    "hashMapOf",
    "linkedMapOf",
    "emptyMap",
    "arrayOf",
    "arrayOfNulls",
    "emptyArray",
    "intArrayOf",
    "longArrayOf",
    "doubleArrayOf",
    "booleanArrayOf",
    "charArrayOf",
    "byteArrayOf",
    "sequenceOf",
    "emptySequence",
    "sequence",
    "generateSequence",
    "buildString",
    "buildList",
    "buildMap",
    "buildSet",
    "require",
    "requireNotNull",
    "check",
    "checkNotNull",
    "error",
    "assert",
    "TODO",
    "repeat",
    "run",
    "with",
    "apply",
    "also",
    "let",
    "takeIf",
    "takeUnless",
    "lazy",
    "maxOf",
    "minOf",
    "Pair",
    "Triple",
    "Regex",
    "StringBuilder",
    "IllegalArgumentException",
    "IllegalStateException",
    "UnsupportedOperationException",
    "NoSuchElementException",
];

impl Walker<'_> {
    pub(in crate::syntax) fn kotlin(&mut self, node: Node) -> bool {
        match node.kind() {
            "call_expression" => {
                self.kotlin_super_call(node);
                self.kotlin_value_call(node);
                self.kotlin_property_receiver(node);
            }
            "property_declaration" => self.kotlin_property(node),
            "parameter" | "class_parameter" => {
                let mut c = node.walk();
                let children: Vec<Node> = node.named_children(&mut c).collect();
                let name = children.iter().find(|n| n.kind() == "identifier");
                let ty = children.iter().find(|n| is_type_node(n.kind()));
                if let (Some(&n), Some(&t)) = (name, ty) {
                    let ty = self.kotlin_type_name(t);
                    if !ty.is_empty() {
                        let var = self.text(n).to_string();
                        // `class Item(val price: Money)`: a property too.
                        let mut k = node.walk();
                        let property = node.kind() == "class_parameter"
                            && node
                                .children(&mut k)
                                .any(|x| matches!(x.kind(), "val" | "var"));
                        if property {
                            self.bind(node, &format!("this.{var}"), Receiver::Type(ty.clone()));
                        }
                        self.bind(node, &var, Receiver::Type(ty));
                    }
                }
            }
            "for_statement" => {
                let mut c = node.walk();
                let children: Vec<Node> = node.named_children(&mut c).collect();
                if let Some(pos) = children
                    .iter()
                    .position(|n| n.kind() == "variable_declaration")
                {
                    let decl = children[pos];
                    match self.kotlin_declared(decl) {
                        (Some(var), Some(ty)) => {
                            let var = self.text(var).to_string();
                            self.bind(node, &var, Receiver::Type(ty));
                        }
                        (Some(var), None) => {
                            if let Some(&iterable) = children.get(pos + 1) {
                                self.bind_element(node, var, iterable);
                            }
                        }
                        _ => {}
                    }
                }
            }
            "delegation_specifier" => {
                // `class Bundle(…) : Item(…)`: the superclass's constructor is called.
                if let Some(inv) = node
                    .named_child(0)
                    .filter(|n| n.kind() == "constructor_invocation")
                    && let Some(t) = inv.named_child(0).filter(|t| t.kind() == "user_type")
                    && let Some(name) = last_identifier(t)
                {
                    let n = self.text(name).to_string();
                    self.push_call(name, &n, None, CallKind::New, inv);
                }
            }
            "annotated_lambda" => self.kotlin_lambda(node),
            "import" => {
                self.kotlin_import(node);
                return false;
            }
            "package_header" => return false,
            _ => {}
        }
        true
    }

    /// The name a `variable_declaration` declares and its declared type, if stated.
    fn kotlin_declared<'t>(&self, decl: Node<'t>) -> (Option<Node<'t>>, Option<String>) {
        let mut c = decl.walk();
        let children: Vec<Node> = decl.named_children(&mut c).collect();
        let var = children.iter().copied().find(|n| n.kind() == "identifier");
        let ty = children
            .iter()
            .find(|n| is_type_node(n.kind()))
            .map(|t| self.kotlin_type_name(*t))
            .filter(|t| !t.is_empty());
        (var, ty)
    }

    /// The bare type a written type names, an import alias read as the type it stands
    /// for (`Cash` after `import a.Money as Cash` is `Money`).
    fn kotlin_type_name(&self, t: Node) -> String {
        let ty = jvm_type(self.text(t));
        let (bare, layers) = match ty.find("[]") {
            Some(i) => ty.split_at(i),
            None => (ty.as_str(), ""),
        };
        match self
            .imports
            .iter()
            .find(|i| i.alias.as_deref() == Some(bare))
            .and_then(|i| i.name.as_deref())
        {
            Some(name) => format!("{name}{layers}"),
            None => ty,
        }
    }

    /// `val x: T = …` / `var x = value`: `x` typed by its declared type, else by its
    /// value; in a class body, the property `this.x` too.
    fn kotlin_property(&mut self, node: Node) {
        let mut c = node.walk();
        let children: Vec<Node> = node.children(&mut c).collect();
        let Some(decl) = children
            .iter()
            .copied()
            .find(|n| n.kind() == "variable_declaration")
        else {
            return;
        };
        let (Some(var), ty) = self.kotlin_declared(decl) else {
            return;
        };
        let bound = match ty {
            Some(t) => Some(Receiver::Type(t)),
            None => children
                .iter()
                .position(|n| n.kind() == "=")
                .and_then(|i| children[i + 1..].iter().find(|n| n.is_named()))
                .and_then(|v| self.bound_of(*v)),
        };
        let Some(b) = bound else {
            return;
        };
        let var = self.text(var).to_string();
        if node
            .parent()
            .is_some_and(|p| matches!(p.kind(), "class_body" | "enum_class_body"))
        {
            self.bind(node, &format!("this.{var}"), b.clone());
        }
        self.bind(node, &var, b);
    }

    /// `super.f()`: the call the walk has just recorded for `node` is on the superclass
    /// (the first type the enclosing class's header calls a constructor of, else the first
    /// it names).
    fn kotlin_super_call(&mut self, node: Node) {
        let Some(nav) = node
            .named_child(0)
            .filter(|n| n.kind() == "navigation_expression")
        else {
            return;
        };
        if nav.named_child(0).map(|o| o.kind()) != Some("super_expression") {
            return;
        }
        let Some(base) = self.kotlin_superclass(node) else {
            return;
        };
        let start = node.start_byte();
        if let Some((at, call)) = self.calls.last_mut()
            && *at == start
        {
            call.qualifier = Some(base.clone());
            call.receiver_type = Some(Receiver::Type(base));
        }
    }

    /// `f()` where `f` is a value of a function type in scope (a parameter, a lambda's
    /// parameter, a constructor parameter, a property or local declared with a function
    /// type or assigned a lambda, an anonymous function or a function reference): it calls
    /// the value's `invoke`, not a definition named `f` (a method of the implicit receiver
    /// named like it is not called). The call just recorded for `node` is rewritten so.
    fn kotlin_value_call(&mut self, node: Node) {
        let Some(callee) = node.named_child(0).filter(|c| c.kind() == "identifier") else {
            return;
        };
        let name = self.text(callee);
        if !self.kotlin_function_value(node, name) {
            return;
        }
        let start = node.start_byte();
        let idx = self.calls.len().wrapping_sub(1);
        if let Some((at, call)) = self.calls.last_mut()
            && *at == start
            && call.qualifier.is_none()
        {
            call.qualifier = Some(name.to_string());
            call.name = "invoke".to_string();
            call.kind = CallKind::Member;
            self.receivers.push((idx, name.to_string()));
        }
    }

    /// Whether `name` is a function-typed value declared around `node` (see
    /// [`Walker::kotlin_value_call`]): the scopes are read outwards, a block's statements
    /// before `node`, a class body's and the file's all.
    fn kotlin_function_value(&self, node: Node, name: &str) -> bool {
        if !self.written_as_value(name) {
            return false;
        }
        let mut child = node;
        let mut up = node.parent();
        let mut levels = 0;
        while let Some(p) = up {
            levels += 1;
            if levels > MAX_SCOPE_LEVELS {
                return false;
            }
            let mut c = p.walk();
            let found = match p.kind() {
                "function_declaration" | "secondary_constructor" | "anonymous_function" => p
                    .named_children(&mut c)
                    .find(|x| x.kind() == "function_value_parameters")
                    .is_some_and(|params| self.kotlin_declares(params, "parameter", name)),
                "lambda_literal" => {
                    p.named_children(&mut c)
                        .find(|x| x.kind() == "lambda_parameters")
                        .is_some_and(|params| {
                            self.kotlin_declares(params, "variable_declaration", name)
                        })
                        || self.kotlin_declares_before(p, child, name)
                }
                "class_declaration" => p
                    .named_children(&mut c)
                    .find(|x| x.kind() == "primary_constructor")
                    .and_then(|pc| pc.named_child(0))
                    .is_some_and(|params| self.kotlin_declares(params, "class_parameter", name)),
                "block" | "statements" => self.kotlin_declares_before(p, child, name),
                "class_body" | "enum_class_body" | "source_file" => {
                    self.kotlin_declares_before(p, p, name)
                }
                _ => false,
            };
            if found {
                return true;
            }
            child = p;
            up = p.parent();
        }
        false
    }

    /// Whether a child of `list` of kind `kind` declares `name` with a function type.
    fn kotlin_declares(&self, list: Node, kind: &str, name: &str) -> bool {
        let mut c = list.walk();
        list.named_children(&mut c)
            .take(MAX_SCOPE_ITEMS)
            .filter(|x| x.kind() == kind)
            .any(|x| {
                let mut k = x.walk();
                let children: Vec<Node> = x.named_children(&mut k).collect();
                children
                    .iter()
                    .any(|n| n.kind() == "identifier" && self.text(*n) == name)
                    && children.iter().any(|n| is_function_type(*n))
            })
    }

    /// Whether a property declared among the children of `scope` before `until` (all of
    /// them when `until` is `scope`) is a function value named `name`.
    fn kotlin_declares_before(&self, scope: Node, until: Node, name: &str) -> bool {
        let mut c = scope.walk();
        scope
            .named_children(&mut c)
            .take(MAX_SCOPE_ITEMS)
            .take_while(|x| until == scope || x.start_byte() < until.start_byte())
            .filter(|x| x.kind() == "property_declaration")
            .any(|x| {
                let mut k = x.walk();
                let children: Vec<Node> = x.named_children(&mut k).collect();
                let Some(decl) = children.iter().find(|n| n.kind() == "variable_declaration")
                else {
                    return false;
                };
                let mut d = decl.walk();
                let parts: Vec<Node> = decl.named_children(&mut d).collect();
                parts
                    .iter()
                    .any(|n| n.kind() == "identifier" && self.text(*n) == name)
                    && (parts.iter().any(|n| is_function_type(*n))
                        || children.iter().any(|n| {
                            matches!(
                                n.kind(),
                                "lambda_literal" | "anonymous_function" | "callable_reference"
                            )
                        }))
            })
    }

    /// A lambda passed to `recv.m { … }` in a function: its one parameter (`it`, or the one
    /// it names) is an element of `recv` for a collection's element-wise `m` (`forEach`,
    /// `map`, `filter`, …), `recv` itself for `let`, `also`, `takeIf`, `takeUnless`, and
    /// of no known type otherwise, so that an earlier lambda's `it` is never read here.
    /// After the lambda, the name is of no known type again. Lambdas outside functions
    /// (property initializers) bind nothing: their bindings would read as fields.
    fn kotlin_lambda(&mut self, node: Node) {
        const ELEMENT_WISE: [&str; 34] = [
            "forEach",
            "onEach",
            "map",
            "mapNotNull",
            "flatMap",
            "filter",
            "filterNot",
            "filterTo",
            "mapTo",
            "any",
            "all",
            "none",
            "count",
            "first",
            "firstOrNull",
            "last",
            "lastOrNull",
            "find",
            "findLast",
            "single",
            "singleOrNull",
            "sumOf",
            "sortedBy",
            "sortedByDescending",
            "groupBy",
            "associateBy",
            "associateWith",
            "partition",
            "takeWhile",
            "dropWhile",
            "maxByOrNull",
            "minByOrNull",
            "distinctBy",
            "indexOfFirst",
        ];
        const ITSELF: [&str; 4] = ["let", "also", "takeIf", "takeUnless"];
        let mut c = node.walk();
        let Some(lambda) = node
            .named_children(&mut c)
            .find(|n| n.kind() == "lambda_literal")
        else {
            return;
        };
        if !in_function(node) {
            return;
        }
        // The parameter: `it`, or the one declared (`{ item -> … }`, `{ item: Item -> … }`).
        let mut c = lambda.walk();
        let params = lambda
            .named_children(&mut c)
            .find(|n| n.kind() == "lambda_parameters");
        let (var, declared) = match params {
            None => ("it".to_string(), None),
            Some(p) => {
                let mut k = p.walk();
                let list: Vec<Node> = p.named_children(&mut k).collect();
                match list.as_slice() {
                    [one] if one.kind() == "variable_declaration" => {
                        let (name, ty) = self.kotlin_declared(*one);
                        match name {
                            Some(n) => (self.text(n).to_string(), ty),
                            None => return,
                        }
                    }
                    _ => return,
                }
            }
        };
        let unknown = || Receiver::Expr(LONG_RECEIVER.to_string());
        let callee = node
            .parent()
            .filter(|p| p.kind() == "call_expression")
            .and_then(|call| call.named_child(0));
        let bound = match (declared, callee) {
            (Some(ty), _) => Receiver::Type(ty),
            (None, Some(f)) if f.kind() == "navigation_expression" => {
                let last = f.named_child_count().saturating_sub(1);
                let method = f.named_child(last).map(|m| self.text(m)).unwrap_or("");
                let recv = f.named_child(0).filter(|_| last > 0);
                match recv {
                    Some(r) if ELEMENT_WISE.contains(&method) => self
                        .chain_expr(r)
                        .filter(|chain| chain.len() + 2 <= MAX_RECEIVER)
                        .map_or_else(unknown, |chain| Receiver::Expr(format!("{chain}[]"))),
                    Some(r) if ITSELF.contains(&method) => self.bound_of(r).unwrap_or_else(unknown),
                    _ => unknown(),
                }
            }
            _ => unknown(),
        };
        self.bind(lambda, &var, bound);
        let end = lambda.end_byte();
        let line = lambda.end_position().row as u32 + 1;
        self.bindings.push((end, line, var, unknown()));
    }

    /// `x.f()` where `x` is a plain lower-case name: when nothing in the function binds
    /// `x`, it is a property of the implicit receiver, `this.x`, perhaps declared by a
    /// base class in another file (`currentContext.callOnClose()` in a subclass). The call
    /// just recorded is given the receiver `this.x`, which the resolver types through the
    /// class's fields and its bases; a local binding of `x` still wins.
    fn kotlin_property_receiver(&mut self, node: Node) {
        let Some(nav) = node
            .named_child(0)
            .filter(|n| n.kind() == "navigation_expression")
        else {
            return;
        };
        let Some(obj) = nav.named_child(0).filter(|o| o.kind() == "identifier") else {
            return;
        };
        let name = self.text(obj);
        if !name.starts_with(|c: char| c.is_lowercase()) || matches!(name, "it" | "field") {
            return;
        }
        let start = node.start_byte();
        if let Some((at, call)) = self.calls.last_mut()
            && *at == start
            && call.receiver_type.is_none()
            && call.qualifier.as_deref() == Some(name)
        {
            call.receiver_type = Some(Receiver::Expr(format!("this.{name}")));
        }
    }

    /// The superclass of the class around `node`, from its header.
    fn kotlin_superclass(&self, node: Node) -> Option<String> {
        let p = enclosing(node, &["class_declaration", "object_declaration"])?;
        let mut c = p.walk();
        let specs = p
            .named_children(&mut c)
            .find(|x| x.kind() == "delegation_specifiers")?;
        let mut c = specs.walk();
        let list: Vec<Node> = specs.named_children(&mut c).collect();
        let first = list
            .iter()
            .find(|s| {
                s.named_child(0)
                    .is_some_and(|x| x.kind() == "constructor_invocation")
            })
            .or(list.first())?;
        let t = jvm_type(self.text(*first));
        (!t.is_empty()).then_some(t)
    }

    /// `import a.b.C`, `import a.b.C as D`, `import a.b.*`, `import a.b.C.f` (a member
    /// of class or object `C`: a capitalised segment before the last, as Java's static
    /// imports).
    fn kotlin_import(&mut self, node: Node) {
        let mut c = node.walk();
        let children: Vec<Node> = node.named_children(&mut c).collect();
        let Some(path) = children
            .iter()
            .find(|n| matches!(n.kind(), "qualified_identifier" | "identifier"))
        else {
            return;
        };
        let alias = children
            .iter()
            .skip_while(|n| n.id() != path.id())
            .nth(1)
            .filter(|n| n.kind() == "identifier")
            .map(|n| self.text(*n).to_string());
        let path = self.text(*path).split_whitespace().collect::<String>();
        if path.is_empty() || path.len() > 512 {
            return;
        }
        let wildcard = self.text(node).trim_end().ends_with('*');
        let line = node.start_position().row as u32 + 1;
        let segs: Vec<&str> = path.split('.').collect();
        let caps = |s: &str| s.starts_with(|ch: char| ch.is_uppercase());
        // A member of a type: a capitalised segment before the imported name.
        let (last, before) = if wildcard {
            (None, segs.as_slice())
        } else {
            (segs.last().copied(), &segs[..segs.len() - 1])
        };
        let member = before.last().is_some_and(|s| caps(s));
        let module = before.join(".");
        let import = Import::new(line, module)
            .named(last.map(str::to_string))
            .aliased(alias)
            .wildcard(wildcard);
        self.imports.push(if member {
            import.of_kind(ImportKind::Static)
        } else {
            import
        });
    }
}

/// How far out [`Walker::kotlin_function_value`] looks for a declaration, and how many
/// declarations of one scope it reads: bounds on the work per call in a pathological file.
const MAX_SCOPE_LEVELS: usize = 256;
const MAX_SCOPE_ITEMS: usize = 1024;

/// Whether a written type is a function type (`() -> T`, `suspend (A) -> B`, `((A) -> B)?`).
fn is_function_type(t: Node) -> bool {
    let mut t = t;
    loop {
        match t.kind() {
            "function_type" => return true,
            "nullable_type" | "parenthesized_type" => match t.named_child(0) {
                Some(inner) => t = inner,
                None => return false,
            },
            _ => return false,
        }
    }
}

/// Whether `node` is inside the body of a function declaration (a definition, whose
/// scope its bindings get), not a getter's, an `init` block's or a class's.
fn in_function(node: Node) -> bool {
    let mut up = node.parent();
    while let Some(p) = up {
        match p.kind() {
            "function_body" => {
                return p
                    .parent()
                    .is_some_and(|f| f.kind() == "function_declaration");
            }
            "class_body"
            | "enum_class_body"
            | "source_file"
            | "anonymous_initializer"
            | "secondary_constructor"
            | "getter"
            | "setter" => return false,
            _ => up = p.parent(),
        }
    }
    false
}

/// Whether a node kind is a written type.
fn is_type_node(kind: &str) -> bool {
    matches!(kind, "user_type" | "nullable_type")
}

/// The last identifier of a `user_type` (`a.b.Item<T>` → `Item`).
fn last_identifier(t: Node) -> Option<Node> {
    let mut c = t.walk();
    t.named_children(&mut c)
        .filter(|n| n.kind() == "identifier")
        .last()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{parse_file, test_options};

    /// moshi's `JsonReader`: a nested class laid out by ktfmt kept the outer class from
    /// being read at all.
    #[test]
    fn a_nested_class_with_its_constructor_on_the_next_line_keeps_its_outer_class() {
        let text = "package a\n\nclass Outer {\n  fun a() {}\n\n  public class Options\n  private constructor(\n    internal val s: String,\n  ) {\n    fun b() {}\n  }\n\n  fun c() {}\n}\n";
        let fixed = constructor_on_the_class_line(text).unwrap_or_default();
        assert_eq!(fixed.len(), text.len());
        assert_eq!(fixed.lines().count(), text.lines().count());
        assert!(
            fixed.contains("  public class Options   private constructor(\n\n   internal val s"),
            "{fixed}"
        );
        let rows = parse_file("src/Outer.kt", text.as_bytes().to_vec(), test_options());
        let defs: Vec<(String, u32)> = rows
            .symbols
            .iter()
            .map(|s| (s.qualname.clone(), s.start_line))
            .collect();
        let want = [
            ("Outer", 3),
            ("Outer.a", 4),
            ("Outer.Options", 6),
            ("Outer.Options.b", 10),
            ("Outer.c", 13),
        ];
        for (name, line) in want {
            assert!(
                defs.contains(&(name.to_string(), line)),
                "{name} at {line}: {defs:?}"
            );
        }
        assert_eq!(rows.flags, 0, "no syntax error");
        // The chunks read the file as written.
        assert!(
            rows.chunks
                .iter()
                .all(|c| !c.text.contains("Options   private"))
        );
        // A class whose constructor is on its own line is left alone, as is a call.
        assert_eq!(
            constructor_on_the_class_line("class A constructor(val x: Int)\n"),
            None
        );
        assert_eq!(
            constructor_on_the_class_line("  val o = Options\n  constructor(\n    1)\n"),
            None
        );
    }
}
