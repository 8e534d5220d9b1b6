//! Call sites and imports from a parsed tree: one full walk per file, a match on node
//! kinds per language. What a call means is decided later, across files, by
//! [`crate::graph::resolve`]; this module only records what is written, plus what the file itself
//! says about the receiver's type (typed parameters, `self`/`this`, locals bound to a
//! constructor or a call).

use crate::syntax::FieldExt;
use std::collections::HashMap;

use tree_sitter::{Node, Tree};

use super::lang::{
    CallShape, CalleeForm, Lang, LangSpec, USE_ARGUMENTS, USE_ASSIGNMENT, USE_DECORATOR,
    USE_KEYWORD, USE_VALUE,
};
use crate::model::{CallKind, CallSite, Field, Import, Receiver, Symbol, SymbolKind, Usage};

pub use crate::model::FileRefs;

/// The walk does not descend below this depth of the syntax tree: real code nests a few
/// dozen levels, and a file nested a million deep (`x = ((((…))))`) would otherwise cost
/// the walk's stack as much memory as the tree itself.
pub const MAX_WALK_DEPTH: usize = 2048;

/// The bindings of one variable in one scope: (byte offset, what it is bound to).
type BindingList = Vec<(usize, Receiver)>;

/// A chain longer than this many links is not typed.
const MAX_CHAIN: usize = 64;

pub(in crate::syntax) struct Walker<'s> {
    lang: Lang,
    /// The language's spec and its call-shape table by node kind id (looked up once per
    /// file, read at every node).
    spec: &'static LangSpec,
    shape_of: &'static [u8],
    use_site_of: &'static [u8],
    pub(in crate::syntax) src: &'s str,
    pub(in crate::syntax) calls: Vec<(usize, CallSite)>,
    /// The receiver variable of each call (by index in `calls`), typed after the walk.
    pub(in crate::syntax) receivers: Vec<(usize, String)>,
    pub(in crate::syntax) imports: Vec<Import>,
    /// Bindings by (byte offset, line, variable name).
    pub(in crate::syntax) bindings: Vec<(usize, u32, String, Receiver)>,
    /// Definitions that start inside a line, after code of their parent's (a named
    /// function expression passed as an argument): their line and first byte. A call on
    /// that line before that byte is the parent's.
    pub(in crate::syntax) inline_defs: Vec<(u32, usize)>,
    /// What the call sites pushed now are: calls, or uses as decorators or values.
    pub(in crate::syntax) usage: Usage,
    /// The functions and methods the file defines: a value use is recorded only when it may
    /// name one of them or an imported name (see [`Walker::may_name_a_function`]).
    defined: std::collections::HashSet<&'s str>,
    /// The names the imports so far bind (aliases, names, first and last module segments),
    /// and how many imports they were read from.
    imported: (usize, std::collections::HashSet<String>),
    /// Rust type parameters read so far with their first trait bound (`M: Matcher`): a value
    /// of type `M` is typed as the trait, whose methods its calls reach.
    pub(in crate::syntax) generic_bounds: HashMap<String, String>,
    /// The names written just before a `:` or an `=` in the file (in Scala also before `=>`,
    /// `,` and `)`), read on first need (see [`Walker::written_as_value`]).
    #[cfg(any(feature = "lang-kotlin", feature = "lang-scala"))]
    value_names: std::cell::OnceCell<std::collections::HashSet<&'s str>>,
    /// The nodes the walk is inside, outermost first: the last is the parent of the node
    /// visited, and how many there are is the walk's depth.
    ancestors: Vec<Node<'s>>,
}

/// Extracts call sites and imports. `symbols` are the file's definitions (for callers).
pub fn extract<'s>(lang: Lang, tree: &'s Tree, text: &'s str, symbols: &'s [Symbol]) -> FileRefs {
    let mut w = Walker {
        lang,
        spec: lang.spec(),
        shape_of: lang.call_shape_table(),
        use_site_of: lang.use_site_table(),
        src: text,
        calls: Vec::new(),
        receivers: Vec::new(),
        imports: Vec::new(),
        bindings: Vec::new(),
        inline_defs: Vec::new(),
        usage: Usage::Call,
        defined: symbols
            .iter()
            .filter(|s| matches!(s.kind, SymbolKind::Function | SymbolKind::Method))
            .map(|s| s.name.as_str())
            .collect(),
        imported: (0, std::collections::HashSet::new()),
        generic_bounds: HashMap::new(),
        #[cfg(any(feature = "lang-kotlin", feature = "lang-scala"))]
        value_names: std::cell::OnceCell::new(),
        ancestors: Vec::new(),
    };
    let mut cursor = tree.walk();
    let mut deep_subtrees = 0u32;
    'walk: loop {
        let node = cursor.node();
        // Anonymous nodes are the grammar's literal tokens: nothing to record or enter.
        let descend = node.is_named() && w.visit(node);
        if descend && w.ancestors.len() >= MAX_WALK_DEPTH && node.child_count() > 0 {
            deep_subtrees += 1;
        } else if descend && cursor.goto_first_child() {
            w.ancestors.push(node);
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
            w.ancestors.pop();
        }
    }
    let Walker {
        mut calls,
        receivers,
        imports,
        bindings,
        inline_defs,
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
    let callers: Vec<Option<usize>> = calls
        .iter()
        .map(|&(at, ref c)| {
            let caller = innermost(c.line);
            // A call before a definition that starts inside its line is the parent's
            // (`foo(function bar() {…})`: `foo` is called where `bar` is written).
            match caller.map(|i| &symbols[i]) {
                Some(s)
                    if s.start_line == c.line
                        && inline_defs.iter().any(|&(l, b)| l == c.line && at < b) =>
                {
                    s.parent
                }
                _ => caller,
            }
        })
        .collect();
    for ((_, c), caller) in calls.iter_mut().zip(&callers) {
        c.caller = *caller;
    }
    // Receiver types: a binding of the variable in the caller or an enclosing definition
    // (or the file), the nearest one before the call.
    // JSDoc `@param {Type} name` types a JavaScript function's parameters.
    let mut scoped: HashMap<(Option<usize>, String), BindingList> = HashMap::new();
    if lang.spec().jsdoc_param_types {
        for (i, s) in symbols.iter().enumerate() {
            for line in s.doc.lines() {
                if let Some(rest) = line.trim().strip_prefix("@param {")
                    && let Some((ty, after)) = rest.split_once('}')
                    && let Some(var) = after.split_whitespace().next()
                {
                    scoped
                        .entry((Some(i), var.to_string()))
                        .or_default()
                        .push((0, Receiver::Type(simple_type(ty))));
                }
            }
        }
    }
    let types = Types { symbols };
    let mut fields = Vec::new();
    for (at, line, var, b) in bindings {
        let mut scope = innermost(line);
        // A module-level variable's own definition is not a scope: its binding is the
        // module's.
        while let Some(s) = scope
            && symbols[s].kind == SymbolKind::Constant
        {
            scope = symbols[s].parent;
        }
        // A field (`this.x`, `self.x`) belongs to its type, wherever it is assigned.
        let field = var
            .strip_prefix("this.")
            .or_else(|| var.strip_prefix("self."));
        if field.is_some() {
            scope = types.container(scope);
        }
        let Some(b) = types.substitute(&scoped, scope, at, b) else {
            continue;
        };
        // Declared in a type's body (a class attribute, a struct field): a field too.
        let in_type = scope.is_some_and(|s| symbols[s].kind.is_type_container());
        if let (Some(owner), Some(name)) = (scope, field.or(in_type.then_some(var.as_str()))) {
            fields.push(Field {
                owner: symbols[owner].name.clone(),
                name: name.to_string(),
                ty: b.clone(),
            });
        } else if scope.is_none() && field.is_none() {
            // A module-level variable (`codes = LookupDict()`, `const ky = create()`): a
            // field of the module, read by the files that import it.
            fields.push(Field {
                owner: String::new(),
                name: var.clone(),
                ty: b.clone(),
            });
        }
        scoped.entry((scope, var)).or_default().push((at, b));
    }
    // Arguments written as a variable (`$name`) typed by its binding.
    for (at, call) in calls.iter_mut() {
        let Some(types) = call.arg_types.as_mut() else {
            continue;
        };
        if !types.contains('$') {
            continue;
        }
        let typed: Vec<String> = types
            .split(',')
            .map(|t| match t.strip_prefix('$') {
                Some(var) => match lookup(&scoped, symbols, call.caller, var, *at) {
                    Some(Receiver::Type(ty)) if !ty.contains(',') => ty.clone(),
                    _ => "?".to_string(),
                },
                None => t.to_string(),
            })
            .collect();
        *types = typed.join(",");
    }
    // A function reached through a name bound to it (`format_interval =
    // tqdm.format_interval`, then `format_interval(60)`): the call is
    // `tqdm.format_interval(60)`. Only a chain of names, whose head the file does not bind
    // (a module, a class, an import): a variable's binding was substituted above.
    let mut receivers = receivers;
    for (i, (at, call)) in calls.iter_mut().enumerate() {
        if call.kind != CallKind::Plain || call.qualifier.is_some() || call.usage != Usage::Call {
            continue;
        }
        let Some(Receiver::Expr(e)) = lookup(&scoped, symbols, call.caller, &call.name, *at) else {
            continue;
        };
        // A path (`mix = Color::mix`): the call is `Color::mix(…)`.
        if let Some((path, name)) = e.rsplit_once("::")
            && is_ident(name)
            && !path.is_empty()
            && path.split("::").all(is_ident)
        {
            call.name = name.to_string();
            call.qualifier = Some(path.to_string());
            call.kind = CallKind::Path;
            continue;
        }
        let Some((recv, name)) = e.rsplit_once('.') else {
            continue;
        };
        if !is_ident(name) || !recv.split('.').all(is_ident) {
            continue;
        }
        call.name = name.to_string();
        call.qualifier = Some(recv.to_string());
        call.kind = CallKind::Member;
        if is_ident(recv) {
            receivers.push((i, recv.to_string()));
        }
    }
    let mut typed_by_binding = vec![false; calls.len()];
    let implicit_this = lang.spec().resolve.implicit_this;
    for (ci, var) in &receivers {
        let (at, call) = &mut calls[*ci];
        if let Some(b) = lookup(&scoped, symbols, call.caller, var, *at) {
            call.receiver_type = Some(b.clone());
            typed_by_binding[*ci] = true;
        } else if implicit_this
            && call.receiver_type.is_none()
            && !var.contains('.')
            && var.starts_with(|c: char| c.is_lowercase() || c == '_')
            && types.container(call.caller).is_some()
        {
            // A name nothing in the file binds, in a method of a language whose members
            // need no `this.`: a field of the enclosing type, declared where this file
            // does not reach (a base class, or the type's body while the method is in a
            // Swift extension): typed as `self.name`, by the field's declared type.
            call.receiver_type = Some(Receiver::Expr(format!("self.{var}")));
        }
    }
    // A chain's head (`r` in `r.Path().Subrouter()`, `self` in `self.store.get()`)
    // typed by its binding or its class.
    for (i, (at, call)) in calls.iter_mut().enumerate() {
        if typed_by_binding[i] {
            continue;
        }
        if let Some(b) = call.receiver_type.take() {
            call.receiver_type = types.substitute(&scoped, call.caller, *at, b);
        }
    }
    let mut calls: Vec<CallSite> = calls.into_iter().map(|(_, c)| c).collect();
    calls.sort_by_key(|c| (c.line, c.col));
    FileRefs {
        calls,
        imports,
        fields,
        deep_subtrees,
    }
}

/// The binding of `var` visible at byte `at` in `scope`: in the scope or the nearest
/// enclosing one that binds it, the last binding before `at` (or the first, for a
/// variable bound only later in its scope).
fn lookup<'b>(
    scoped: &'b HashMap<(Option<usize>, String), BindingList>,
    symbols: &[Symbol],
    scope: Option<usize>,
    var: &str,
    at: usize,
) -> Option<&'b Receiver> {
    let mut scope = scope;
    let mut key = (scope, var.to_string());
    loop {
        if let Some(list) = scoped.get(&key) {
            let best = list
                .iter()
                .rfind(|(b, _)| *b <= at)
                .or_else(|| list.first());
            if let Some((_, b)) = best {
                return Some(b);
            }
        }
        scope = symbols[scope?].parent;
        key.0 = scope;
    }
}

/// The file's definitions, for what `self`/`this` means in a scope.
struct Types<'a> {
    symbols: &'a [Symbol],
}

impl Types<'_> {
    /// The innermost type around `scope` (a class, struct, impl, interface).
    fn container(&self, scope: Option<usize>) -> Option<usize> {
        let mut scope = scope;
        while let Some(s) = scope {
            if self.symbols[s].kind.is_type_container() {
                return Some(s);
            }
            scope = self.symbols[s].parent;
        }
        None
    }

    /// `b` with the head of its chain replaced by what the file says it is: `self`/`this`
    /// by `<Class>`, a variable by its binding. A bare name nothing binds is no type:
    /// `None`.
    fn substitute(
        &self,
        scoped: &HashMap<(Option<usize>, String), BindingList>,
        scope: Option<usize>,
        at: usize,
        b: Receiver,
    ) -> Option<Receiver> {
        let expr = match &b {
            Receiver::Type(_) => return Some(b),
            Receiver::CallResult(c) => format!("{c}()"),
            Receiver::Expr(e) => e.clone(),
        };
        let head_end = expr
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(expr.len());
        let (head, rest) = expr.split_at(head_end);
        if head.is_empty() || !(rest.is_empty() || rest.starts_with(['.', '['])) {
            return Some(b);
        }
        let value = if matches!(head, "self" | "this" | "cls") {
            self.container(scope)
                .map(|s| format!("<{}>", self.symbols[s].name))
        } else {
            lookup(scoped, self.symbols, scope, head, at).map(|v| match v {
                Receiver::Type(t) => format!("<{t}>"),
                Receiver::CallResult(c) => format!("{c}()"),
                Receiver::Expr(e) => e.clone(),
            })
        };
        match value {
            Some(v) if v.len() + rest.len() <= MAX_RECEIVER => {
                Some(Receiver::of_expr(format!("{v}{rest}")))
            }
            Some(_) => None,
            // A name alone: a module, a global, a function; resolution reads it.
            None if rest.is_empty() => None,
            None => Some(b),
        }
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
    /// Whether `name` is written just before a `:` or an `=` (not `::`, `==`, `=>`)
    /// somewhere in the file: a typed parameter or property (`block: () -> Unit`) or an
    /// initialized one (`val f = { … }`) is written so. A quick test that spares walking
    /// the scopes around every call for a declaration the file cannot hold. In Scala a
    /// lambda's parameters are written before `=>`, `,` or `)` (`(acc, f) => f(acc)`), and
    /// a name the test cannot read (`` `type` ``, an operator) may always be a value.
    #[cfg(any(feature = "lang-kotlin", feature = "lang-scala"))]
    pub(in crate::syntax) fn written_as_value(&self, name: &str) -> bool {
        #[cfg(feature = "lang-scala")]
        let scala = self.lang == Lang::Scala;
        #[cfg(not(feature = "lang-scala"))]
        let scala = false;
        if scala && !name.bytes().all(is_ident_byte) {
            return true;
        }
        self.value_names
            .get_or_init(|| value_names(self.src.as_bytes(), scala))
            .contains(name)
    }

    /// The nodes around the node being visited, innermost first: what `parent()` would
    /// give, step by step, without its walk down from the root at each step. Only for the
    /// node the walk is visiting.
    #[cfg(feature = "lang-scala")]
    pub(in crate::syntax) fn ancestors(&self) -> impl Iterator<Item = Node<'s>> + '_ {
        self.ancestors.iter().rev().copied()
    }

    pub(in crate::syntax) fn text(&self, n: Node) -> &'s str {
        // The tree's byte ranges fall on the text's character boundaries (else: empty).
        self.src.get(n.byte_range()).unwrap_or_default()
    }

    /// Records a call whose receiver is the node `recv`: a receiver that is itself a
    /// call or a construction is typed by it. A receiver written longer than
    /// [`MAX_RECEIVER`] (a chain of thousands of calls) is recorded as [`LONG_RECEIVER`]:
    /// each link would otherwise store the whole chain before it.
    pub(in crate::syntax) fn push_member(
        &mut self,
        name_node: Node,
        recv: Node,
        kind: CallKind,
        at: Node,
    ) {
        let q = bounded(self.text(recv));
        let name = self.text(name_node);
        let plain = is_ident(&q);
        self.push_call(name_node, name, Some(q), kind, at);
        if !plain
            && let Some(b) = self.bound_of(recv)
            && let Some((_, call)) = self.calls.last_mut()
        {
            call.receiver_type = Some(b);
        }
    }

    pub(in crate::syntax) fn push_call(
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
        let args = if self.spec.resolve.overloads && self.usage == Usage::Call {
            at.field("arguments").map(|a| a.named_child_count() as u32)
        } else {
            None
        };
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
                usage: self.usage,
                args,
                arg_types: None,
            },
        ));
        if let Some(v) = receiver_var {
            self.receivers.push((idx, v));
        }
    }

    pub(in crate::syntax) fn bind(&mut self, at: Node, var: &str, b: Receiver) {
        if !var.is_empty() {
            let line = at.start_position().row as u32 + 1;
            self.bindings
                .push((at.start_byte(), line, var.to_string(), b));
        }
    }

    /// `var` is an element of the collection `iterable` (a loop variable, a callback's
    /// parameter over `xs.map(...)`): bound to the iterable's chain with an element link.
    pub(in crate::syntax) fn bind_element(&mut self, at: Node, var: Node, iterable: Node) {
        let var = match var.kind() {
            "mut_pattern" | "reference_pattern" => var.named_child(0).unwrap_or(var),
            _ => var,
        };
        if var.kind() != "identifier" {
            return;
        }
        if let Some(chain) = self.chain_expr(iterable)
            && chain.len() + 2 <= MAX_RECEIVER
        {
            let name = self.text(var).to_string();
            self.bind(at, &name, Receiver::Expr(format!("{chain}[]")));
        }
    }

    /// A callback passed first to a collection's element-wise method
    /// (`items.forEach(item => …)`, `xs.iter().map(|x| …)`): its first parameter is an
    /// element of what the method is called on. `param` is that parameter's node.
    pub(in crate::syntax) fn bind_callback_element(&mut self, callback: Node, param: Node) {
        const ELEMENT_WISE: [&str; 17] = [
            "forEach",
            "map",
            "filter",
            "some",
            "every",
            "find",
            "findLast",
            "flatMap",
            "findIndex",
            "for_each",
            "filter_map",
            "any",
            "all",
            "flat_map",
            "inspect",
            "position",
            "take_while",
        ];
        let Some(args) = callback.parent() else {
            return;
        };
        if !matches!(args.kind(), "arguments") || args.named_child(0) != Some(callback) {
            return;
        }
        let Some(call) = args.parent() else {
            return;
        };
        let Some(f) = call.field("function") else {
            return;
        };
        let (Some(method), Some(object)) = (
            f.field("property").or_else(|| f.field("field")),
            f.field("object").or_else(|| f.field("value")),
        ) else {
            return;
        };
        if ELEMENT_WISE.contains(&self.text(method)) {
            self.bind_element(callback, param, object);
        }
    }

    /// Records what `node` holds; returns whether to descend into it. Calls are read from
    /// the language's [`CallShape`]s; the language's visitor then records bindings and
    /// imports (and may stop the descent).
    fn visit(&mut self, node: Node) -> bool {
        let spec = self.spec;
        let shape = self
            .shape_of
            .get(node.kind_id() as usize)
            .copied()
            .unwrap_or(0);
        if shape > 0
            && let Some(shape) = spec.calls.get(shape as usize - 1)
        {
            self.record_call(shape, node);
        }
        match self.use_site(node) {
            // `@name` / `@app.route` with no call: the decorator is applied, not called
            // here (a decorator with arguments is a call, recorded above).
            USE_DECORATOR => {
                if let Some(d) = node.named_child(0) {
                    self.record_use(d, Usage::Decorator);
                }
            }
            // A name or member passed as an argument: maybe a function handed on.
            USE_ARGUMENTS => {
                let mut c = node.walk();
                let args: Vec<Node> = node
                    .named_children(&mut c)
                    .filter(|a| matches!(self.use_site(*a), USE_VALUE | USE_KEYWORD))
                    .collect();
                for a in args {
                    let a = match self.use_site(a) {
                        USE_KEYWORD => match a.field("value") {
                            Some(v) => v,
                            None => continue,
                        },
                        _ => a,
                    };
                    self.record_use(a, Usage::Value);
                }
            }
            // A function stored to be called later (`self._hookexec = _multicall`,
            // `req->cb = on_read`, `handler := serve`).
            USE_ASSIGNMENT => {
                let Some(value) = node.field("right").or_else(|| node.field("value")) else {
                    return self.lang.visit(self, node);
                };
                // Go assigns lists (`a, b = f, g`).
                if value.kind() == "expression_list" {
                    let mut c = value.walk();
                    for v in value.named_children(&mut c) {
                        self.record_assigned(v);
                    }
                } else {
                    self.record_assigned(value);
                }
            }
            _ => {}
        }
        self.lang.visit(self, node)
    }

    /// Whether an argument may be a function handed on: a name the file defines or
    /// imports, a member of an imported module, a path (`Item::weight`), or in Go a plain
    /// name (the package's functions are visible unimported). Most arguments are local
    /// values; they are not recorded, which keeps the index from growing by them.
    fn may_name_a_function(&mut self, value: Node) -> bool {
        let text = self.text(value);
        let (head, name) = match value.kind() {
            "identifier" => (None, text),
            "scoped_identifier" => return true,
            _ => {
                let head_end = text
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                    .unwrap_or(text.len());
                let last = text
                    .rsplit(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                    .next()
                    .unwrap_or(text);
                (Some(&text[..head_end]), last)
            }
        };
        if self.lang == Lang::Go {
            // Exported functions are capitalized; the package's own need no import.
            if head.is_none() || self.defined.contains(name) {
                return true;
            }
        } else if name.starts_with(|c: char| c.is_uppercase()) {
            // A class, a constant, an enum member: not a function by the convention of
            // these languages.
            return false;
        }
        if self.defined.contains(name) {
            return true;
        }
        if self.imported.0 != self.imports.len() {
            let names = &mut self.imported.1;
            for i in &self.imports[self.imported.0..] {
                names.extend(i.alias.iter().cloned());
                names.extend(i.name.iter().cloned());
                let m = i.module.as_str();
                names.extend(m.split(['.', '/', ':']).next().map(str::to_string));
                names.extend(m.rsplit(['.', '/', ':']).next().map(str::to_string));
            }
            self.imported.0 = self.imports.len();
        }
        let names = &self.imported.1;
        names.contains(name) || head.is_some_and(|h| names.contains(h))
    }

    /// What `node` is around uses that are not calls (a `USE_*` of [`Lang::use_site_table`]).
    fn use_site(&self, node: Node) -> u8 {
        self.use_site_of
            .get(node.kind_id() as usize)
            .copied()
            .unwrap_or(0)
    }

    /// Records a value assigned or declared as a use when it may name a function. A plain
    /// name in Go is a value far more often than a function: only the file's own
    /// functions count.
    fn record_assigned(&mut self, value: Node) {
        if self.lang == Lang::Go
            && value.kind() == "identifier"
            && !self.defined.contains(self.text(value))
        {
            return;
        }
        self.record_use(value, Usage::Value);
    }

    /// Records `value` (a name, a member, a path) as a use that is not a call, read with
    /// the language's callee forms as if it were called.
    fn record_use(&mut self, value: Node, usage: Usage) {
        if self.use_site(value) != USE_VALUE {
            return;
        }
        if usage == Usage::Value && !self.may_name_a_function(value) {
            return;
        }
        let spec = self.spec;
        let Some(shape) = spec.calls.iter().find(|s| !s.new && s.callee.is_some()) else {
            return;
        };
        let before = self.calls.len();
        self.usage = usage;
        self.record_callee(shape, value, value);
        self.usage = Usage::Call;
        // One use per value, even where several forms match.
        self.calls.truncate(before + 1);
    }

    /// Records the call `node` written in `shape`, when its callee takes one of the
    /// shape's forms.
    fn record_call(&mut self, shape: &CallShape, node: Node) {
        let callee = match shape.callee {
            // Swift's and Kotlin's `call_expression`: the callee is the first child,
            // named by no field.
            Some("") => match node.named_child(0) {
                Some(c) => c,
                None => return,
            },
            Some(field) => match node.field(field) {
                Some(c) => c,
                None => return,
            },
            None => node,
        };
        let callee = unwrap(callee, shape.unwrap);
        self.record_callee(shape, callee, node);
    }

    /// Pushes the call site(s) `callee` names, read with `shape`'s forms; `node` is the
    /// whole call.
    pub(in crate::syntax) fn record_callee(&mut self, shape: &CallShape, callee: Node, node: Node) {
        // `Node::kind` looks the name up and checks it as UTF-8: once per call, not per form.
        let callee_kind = callee.kind();
        let (plain, member) = if shape.new {
            (CallKind::New, CallKind::New)
        } else {
            (CallKind::Plain, CallKind::Member)
        };
        for form in shape.forms {
            match *form {
                CalleeForm::Name(kind) if callee_kind == kind => {
                    let n = self.text(callee);
                    self.push_call(callee, n, None, plain, node);
                }
                CalleeForm::Member {
                    node: kind,
                    object,
                    name,
                    unwrap_name,
                } if callee_kind == kind => {
                    if let (Some(obj), Some(name)) = (callee.field(object), callee.field(name)) {
                        self.push_member(unwrap(name, unwrap_name), obj, member, node);
                    }
                }
                CalleeForm::Path {
                    node: kind,
                    path,
                    name,
                } if callee_kind == kind => {
                    if let Some(name) = callee.field(name) {
                        let q = callee.field(path).map(|p| self.text(p).to_string());
                        let n = self.text(name);
                        self.push_call(name, n, q, CallKind::Path, node);
                    }
                }
                CalleeForm::QualifiedText(kind) if callee_kind == kind => {
                    let full = self.text(callee);
                    if let Some((q, n)) = full.rsplit_once("::") {
                        let name_node = last_named_leaf(callee);
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
                CalleeForm::NamedWithObject { name, object } => {
                    if let Some(name) = callee.field(name) {
                        match callee.field(object) {
                            Some(obj) => self.push_member(name, obj, member, node),
                            None => {
                                let n = self.text(name);
                                self.push_call(name, n, None, plain, node);
                            }
                        }
                    }
                }
                CalleeForm::TypeName => {
                    let ty = simple_type(self.text(callee));
                    self.push_call(callee, &ty, None, CallKind::New, node);
                }
                CalleeForm::Navigation(kind) if callee_kind == kind => {
                    let last = callee.named_child_count().saturating_sub(1);
                    match (callee.named_child(0), callee.named_child(last)) {
                        (Some(obj), Some(name)) if last > 0 => {
                            self.push_member(name, obj, member, node);
                        }
                        _ => continue,
                    }
                }
                _ => continue,
            }
            return;
        }
    }

    /// A value expression's type, when the expression says it. Wrappers (`&x`, `(x)`,
    /// `x?`, `await x`) are looked through in a loop: a file may nest them thousands deep.
    pub(in crate::syntax) fn bound_of(&self, value: Node) -> Option<Receiver> {
        let mut value = value;
        while let "unary_expression"
        | "reference_expression"
        | "await"
        | "await_expression"
        | "parenthesized_expression"
        | "try_expression"
        | "postfix_expression" = value.kind()
        {
            value = value
                .field("operand")
                .or_else(|| value.field("value"))
                .or_else(|| value.named_child(0))?;
        }
        match value.kind() {
            "call"
            | "call_expression"
            | "invocation_expression"
            | "method_invocation"
            | "member_access_expression"
            | "element_access_expression"
            | "member_expression"
            | "attribute"
            | "field_expression"
            | "selector_expression"
            | "field_access"
            | "subscript"
            | "subscript_expression"
            | "index_expression"
            | "array_access"
            | "identifier"
            | "simple_identifier"
            | "navigation_expression" => self.chain_expr(value).map(Receiver::of_expr),
            "new_expression" | "object_creation_expression" | "constructor_expression" => {
                let t = value
                    .field("constructor")
                    .or_else(|| value.field("type"))
                    .or_else(|| value.field("constructed_type"))?;
                Some(Receiver::Type(self.constructed_type(t)))
            }
            "composite_literal" | "struct_expression" => {
                let t = value.field("type").or_else(|| value.field("name"))?;
                Some(Receiver::Type(simple_type(self.text(t))))
            }
            // Go's `f.(VisibleFlag)`.
            "type_assertion_expression" => {
                let t = simple_type(self.text(value.field("type")?));
                (!t.is_empty()).then_some(Receiver::Type(t))
            }
            // A literal: a value of the language's own type, never a repository class
            // (`kwargs = {}` then `kwargs.get(k)` is `dict.get`).
            kind => literal_type(self.lang, kind).map(|t| Receiver::Type(t.to_string())),
        }
    }
}

impl Walker<'_> {
    /// The type a construction names: Swift's `Box<Int>` (a `user_type`) is its last
    /// `type_identifier` (`Box`, never a wrapper's argument); others as written, bare.
    fn constructed_type(&self, t: Node) -> String {
        if t.kind() == "user_type" {
            let mut c = t.walk();
            if let Some(id) = t
                .named_children(&mut c)
                .filter(|n| n.kind() == "type_identifier")
                .last()
            {
                return self.text(id).to_string();
            }
        }
        simple_type(self.text(t))
    }

    /// A chain of field reads and calls as a [`Receiver::Expr`] expression, arguments left
    /// out: `r.PathPrefix("/x").Subrouter()` → `r.PathPrefix().Subrouter()`,
    /// `new(Route).Path("/")` → `<Route>.Path()`. Read down the chain's spine in a loop.
    pub(in crate::syntax) fn chain_expr(&self, value: Node) -> Option<String> {
        let mut links: Vec<String> = Vec::new();
        let mut n = value;
        let head = loop {
            if links.len() > MAX_CHAIN {
                return None;
            }
            let field = |f: &'static str| n.field(f);
            match n.kind() {
                "identifier"
                | "this"
                | "self"
                | "scoped_identifier"
                | "qualified_identifier"
                | "type_identifier"
                | "simple_identifier"
                | "self_expression"
                | "this_expression" => break self.text(n).to_string(),
                "parenthesized_expression"
                | "non_null_expression"
                | "await_expression"
                | "await"
                | "try_expression"
                | "reference_expression" => {
                    n = field("value")
                        .or_else(|| n.named_child(n.named_child_count().checked_sub(1)?))?;
                }
                "unary_expression" if self.text(n).starts_with('&') => n = field("operand")?,
                // Swift's `x!` and `x?` (an optional unwrapped).
                "postfix_expression" => n = field("target")?,
                // Swift's grammar reads `a + b.f()` as `(a + b.f)()`: the call, and what it
                // is read on, are the right-hand operand's.
                "additive_expression"
                | "multiplicative_expression"
                | "comparison_expression"
                | "equality_expression"
                | "conjunction_expression"
                | "disjunction_expression"
                | "range_expression"
                | "infix_expression"
                | "bitwise_operation" => n = field("rhs")?,
                "nil_coalescing_expression" => n = field("if_nil")?,
                // Kotlin's `x!!`: the value itself.
                "unary_expression" if self.text(n).ends_with("!!") => n = field("argument")?,
                // `a.b`: Swift's holds the name inside its `navigation_suffix` and the
                // object in `target`; Kotlin's (`a.b`, `a?.b`) names no fields: the object
                // first and the name last.
                "navigation_expression" => match field("target") {
                    Some(target) => {
                        let name = field("suffix")?.field("suffix")?;
                        links.push(format!(".{}", self.text(name)));
                        n = target;
                    }
                    None => {
                        let last = n.named_child_count().checked_sub(1).filter(|&l| l > 0)?;
                        links.push(format!(".{}", self.text(n.named_child(last)?)));
                        n = n.named_child(0)?;
                    }
                },
                "member_expression"
                | "attribute"
                | "field_expression"
                | "selector_expression"
                | "field_access"
                | "member_access_expression" => {
                    let name = field("property")
                        .or_else(|| field("attribute"))
                        .or_else(|| field("field"))
                        .or_else(|| field("name"))?;
                    if name.kind() != "identifier" && n.kind() == "member_access_expression" {
                        return None;
                    }
                    links.push(format!(".{}", self.text(name)));
                    n = field("object")
                        .or_else(|| field("value"))
                        .or_else(|| field("operand"))
                        .or_else(|| field("argument"))
                        .or_else(|| field("expression"))?;
                }
                "call" | "call_expression" | "invocation_expression" => {
                    // Swift's and Kotlin's callee is the call's first child, named by no
                    // field.
                    let mut f = field("function").or_else(|| n.named_child(0))?;
                    if matches!(f.kind(), "generic_function" | "await_expression") {
                        f = f.field("function").or_else(|| f.named_child(0))?;
                    }
                    // Go's `new(T)`: a `*T`.
                    if self.lang == Lang::Go && self.text(f) == "new" {
                        let t = field("arguments")?.named_child(0)?;
                        break format!("<{}>", simple_type(self.text(t)));
                    }
                    links.push("()".to_string());
                    n = f;
                }
                "method_invocation" => {
                    links.push(format!(".{}()", self.text(field("name")?)));
                    match field("object") {
                        Some(o) => n = o,
                        None => {
                            let l = links.pop().unwrap_or_default();
                            break l.trim_start_matches('.').to_string();
                        }
                    }
                }
                // An element read from a collection: `items[0]`.
                "subscript"
                | "subscript_expression"
                | "index_expression"
                | "array_access"
                | "element_access_expression" => {
                    links.push("[]".to_string());
                    n = field("value")
                        .or_else(|| field("object"))
                        .or_else(|| field("operand"))
                        .or_else(|| field("array"))
                        .or_else(|| field("expression"))
                        .or_else(|| n.named_child(0))?;
                }
                "new_expression"
                | "object_creation_expression"
                | "composite_literal"
                | "struct_expression"
                | "constructor_expression" => {
                    let t = field("constructor")
                        .or_else(|| field("type"))
                        .or_else(|| field("name"))
                        .or_else(|| field("constructed_type"))?;
                    break format!("<{}>", self.constructed_type(t));
                }
                _ => return None,
            }
        };
        let mut out = head;
        for l in links.iter().rev() {
            out.push_str(l);
        }
        (out.len() <= MAX_RECEIVER).then_some(out)
    }
}

/// `node` itself, or its `field` child (its first named child when `field` is empty) when
/// `node` is the wrapper kind named in `wrapper`.
fn unwrap<'t>(node: Node<'t>, wrapper: Option<(&str, &'static str)>) -> Node<'t> {
    match wrapper {
        Some((kind, "")) if node.kind() == kind => node.named_child(0).unwrap_or(node),
        Some((kind, field)) if node.kind() == kind => node.field(field).unwrap_or(node),
        _ => node,
    }
}

/// The identifier a C/C++ declarator declares (`*p`, `p = …`, `&r`), followed in a loop.
/// The nearest ancestor of `node` whose kind is one of `kinds` (the class a call is in).
pub(in crate::syntax) fn enclosing<'t>(node: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
    let mut n = node.parent();
    while let Some(p) = n {
        if kinds.contains(&p.kind()) {
            return Some(p);
        }
        n = p.parent();
    }
    None
}

pub(in crate::syntax) fn declared_identifier(d: Node) -> Option<Node> {
    let mut d = d;
    loop {
        d = match d.kind() {
            "identifier" | "field_identifier" => return Some(d),
            "reference_declarator" | "pointer_declarator" => d
                .field("declarator")
                .or_else(|| d.named_child(d.named_child_count().saturating_sub(1)))?,
            _ => d.field("declarator")?,
        };
    }
}

pub(in crate::syntax) fn last_named_leaf(n: Node) -> Node {
    let mut cur = n;
    while let Some(name) = cur.field("name") {
        cur = name;
    }
    cur
}

/// Receivers and call expressions longer than this (bytes) are not kept as written.
pub const MAX_RECEIVER: usize = 256;
/// What a receiver longer than [`MAX_RECEIVER`] is recorded as: not an expression any
/// language resolves, so the call stays unresolved rather than guessed.
pub const LONG_RECEIVER: &str = "…";

pub(in crate::syntax) fn bounded(receiver: &str) -> String {
    if receiver.len() <= MAX_RECEIVER {
        receiver.to_string()
    } else {
        LONG_RECEIVER.to_string()
    }
}

pub(in crate::syntax) fn unquote(s: &str) -> String {
    s.trim_matches(|c| c == '"' || c == '\'' || c == '`')
        .to_string()
}

pub(in crate::syntax) fn is_ident(s: &str) -> bool {
    let s = s.strip_prefix("this.").unwrap_or(s);
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// The bare type name in a written type: `&'a mut Stack<T>` → `Stack`, `*kv.Store` →
/// `kv.Store`, `Optional[Item]` → `Item`, `: Shelf` → `Shelf`, `const geo::Rect&` →
/// `geo::Rect`. A collection of `T` (`list[Item]`, `Vec<Item>`, `Item[]`, `&[Item]`) is
/// `T[]`: a loop over it, or an element read from it, is a `T` (a Go slice is read as its
/// element, as before).
pub fn simple_type(t: &str) -> String {
    // Optional[X] / Option<X> / X | None: the wrapped type. Wrappers may nest deep, so
    // they are unwrapped in a loop rather than by recursion.
    const WRAPPERS: [&str; 9] = [
        "Optional[",
        "Option<",
        "Box<",
        "Rc<",
        "Arc<",
        "RefCell<",
        "Mutex<",
        "RwLock<",
        "Cell<",
    ];
    const COLLECTIONS: [&str; 34] = [
        "list[",
        "List[",
        "Sequence[",
        "MutableSequence[",
        "Iterable[",
        "Iterator[",
        "Collection[",
        "set[",
        "Set[",
        "frozenset[",
        "FrozenSet[",
        "AbstractSet[",
        "deque[",
        "Deque[",
        "Vec<",
        "VecDeque<",
        "HashSet<",
        "BTreeSet<",
        "BinaryHeap<",
        "Array<",
        "ReadonlyArray<",
        "ReadonlySet<",
        "Set<",
        "List<",
        "ArrayList<",
        "LinkedList<",
        "Collection<",
        "Iterable<",
        "Iterator<",
        "IEnumerable<",
        "IList<",
        "ICollection<",
        "IReadOnlyList<",
        "IReadOnlyCollection<",
    ];
    let mut t = t;
    let mut layers = 0usize;
    loop {
        t = t.trim().trim_start_matches(':').trim();
        t = t.trim_matches(|c| c == '"' || c == '\'');
        loop {
            let before = t;
            t = t.trim_start();
            for p in [
                "&",
                "*",
                "mut ",
                "const ",
                "dyn ",
                "impl ",
                "struct ",
                "class ",
                "[]",
                "...",
                "readonly ",
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
        // The rest of the type after an opening bracket: its first argument is read up to
        // the first character that cannot be in a name (no bracket matching, so nesting
        // costs one pass).
        if let Some(inner) = WRAPPERS.iter().find_map(|w| t.strip_prefix(w)) {
            t = inner;
        } else if let Some(inner) = COLLECTIONS.iter().find_map(|w| t.strip_prefix(w)) {
            layers += 1;
            t = inner;
        } else if let Some(inner) = t.strip_prefix('[').filter(|_| t.ends_with(']')) {
            // A Rust slice or array: `[Item]`, `[Item; 4]`.
            layers += 1;
            t = inner;
        } else if let Some(inner) = t.strip_suffix("[]") {
            layers += 1;
            t = inner;
        } else {
            break;
        }
    }
    let end = t
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == ':' || c == '$'))
        .unwrap_or(t.len());
    let base = t[..end].trim_end_matches([':', '.']);
    if base.is_empty() {
        return String::new();
    }
    let mut out = base.to_string();
    for _ in 0..layers.min(MAX_LAYERS) {
        out.push_str("[]");
    }
    out
}

/// [`simple_type`] for a JVM language's written type: type arguments name no wrapper
/// (Kotlin's `Option<T>` or `Box<T>` is that class, not Rust's wrapper), so only a
/// collection's are read (`List<Item>` → `Item[]`); any other type is its name
/// (`Map<K, V>` → `Map`, `Item?` → `Item`).
pub fn jvm_type(t: &str) -> String {
    const COLLECTIONS: [&str; 11] = [
        "List",
        "MutableList",
        "ArrayList",
        "Set",
        "MutableSet",
        "Collection",
        "Iterable",
        "Iterator",
        "Sequence",
        "Array",
        "LinkedList",
    ];
    // Collections nested in collections are read in a loop: a file may nest them deep.
    let mut t = t.trim().trim_start_matches(':').trim();
    let mut layers = 0usize;
    let head = loop {
        let head = t.split('<').next().unwrap_or(t).trim();
        if t.len() <= head.len() || !COLLECTIONS.contains(&head) {
            break head;
        }
        layers += 1;
        let inner = &t[head.len() + 1..];
        t = inner.rsplit_once('>').map_or(inner, |(a, _)| a).trim();
    };
    let mut out = simple_type(head);
    if !out.is_empty() {
        for _ in 0..layers.min(MAX_LAYERS) {
            out.push_str("[]");
        }
    }
    out
}

/// The built-in type of a literal of node kind `kind`, where the language has one.
pub(in crate::syntax) fn literal_type(lang: Lang, kind: &str) -> Option<&'static str> {
    match (lang, kind) {
        (Lang::Python, "dictionary" | "dictionary_comprehension") => Some("dict"),
        (Lang::Python, "list" | "list_comprehension") => Some("list"),
        (Lang::Python, "set" | "set_comprehension") => Some("set"),
        (Lang::Python, "string" | "concatenated_string") => Some("str"),
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "object") => Some("Object"),
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "array") => Some("Array"),
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "string" | "template_string") => {
            Some("String")
        }
        _ => None,
    }
}

/// How many collection layers a type keeps (`Item[][]`); deeper ones are cut.
const MAX_LAYERS: usize = 4;

#[cfg(any(feature = "lang-kotlin", feature = "lang-scala"))]
fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The identifiers of `src` followed, past spaces, by a `:` or an `=` that is not `::`,
/// `==` or `=>`; with `lambdas` (Scala), also by `=>`, `,` or `)`, past line breaks too.
#[cfg(any(feature = "lang-kotlin", feature = "lang-scala"))]
fn value_names(src: &[u8], lambdas: bool) -> std::collections::HashSet<&str> {
    let mut names = std::collections::HashSet::new();
    let mut i = 0;
    while i < src.len() {
        if !is_ident_byte(src[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < src.len() && is_ident_byte(src[i]) {
            i += 1;
        }
        let mut j = i;
        while j < src.len()
            && (matches!(src[j], b' ' | b'\t') || lambdas && src[j].is_ascii_whitespace())
        {
            j += 1;
        }
        let next = src.get(j + 1).copied();
        let value = match src.get(j) {
            Some(b':') => next != Some(b':'),
            Some(b'=') if lambdas => next != Some(b'='),
            Some(b'=') => !matches!(next, Some(b'=') | Some(b'>')),
            Some(b',' | b')') => lambdas,
            _ => false,
        };
        if value && let Ok(name) = std::str::from_utf8(&src[start..i]) {
            names.insert(name);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(any(feature = "lang-kotlin", feature = "lang-scala"))]
    fn names_written_as_values() {
        let src = b"val f: () -> Unit = {}\nfun g(block : Int) = h(x == y, a=>b, M::n, k = 1)";
        let names = super::value_names(src, false);
        for n in ["f", "block", "k"] {
            assert!(names.contains(n), "{n}");
        }
        for n in ["g", "h", "x", "a", "M", "Int"] {
            assert!(!names.contains(n), "{n}");
        }
    }

    /// Scala's lambda parameters, untyped, come before `=>`, `,` or `)`, and a `val` may be
    /// split over lines; a called name is still not a value.
    #[test]
    #[cfg(feature = "lang-scala")]
    fn scala_lambda_parameters_are_values() {
        let src = b"xs.foldLeft(z)((acc, f) => f(acc))\nys.map(g =>\n g(1))\nval h\n  = k(2)";
        let names = super::value_names(src, true);
        for n in ["acc", "f", "g", "h", "z"] {
            assert!(names.contains(n), "{n}");
        }
        for n in ["xs", "foldLeft", "ys", "map", "k"] {
            assert!(!names.contains(n), "{n}");
        }
    }

    use super::{jvm_type, simple_type};

    #[test]
    fn simple_types() {
        assert_eq!(simple_type("&'a mut Stack<T>"), "Stack");
        assert_eq!(simple_type("*kv.Store"), "kv.Store");
        assert_eq!(simple_type("Optional[Item]"), "Item");
        assert_eq!(simple_type(": Shelf"), "Shelf");
        assert_eq!(simple_type("const geo::Rect&"), "geo::Rect");
        assert_eq!(simple_type("\"Item\""), "Item");
        assert_eq!(simple_type("Option<&Box<Item>>"), "Item");
        // A Go slice or variadic parameter: its element.
        assert_eq!(simple_type("[]*Flag"), "Flag");
        assert_eq!(simple_type("...Flag"), "Flag");
        // Collections: their element, marked.
        assert_eq!(simple_type("list[Item]"), "Item[]");
        assert_eq!(simple_type("Optional[List[\"Item\"]]"), "Item[]");
        assert_eq!(simple_type("&mut Vec<Box<Item>>"), "Item[]");
        assert_eq!(simple_type("&[Item]"), "Item[]");
        assert_eq!(simple_type("[Item; 4]"), "Item[]");
        assert_eq!(simple_type(": readonly Item[]"), "Item[]");
        assert_eq!(simple_type("Array<Array<Item>>"), "Item[][]");
        assert_eq!(simple_type("Map<string, Item>"), "Map");
        assert_eq!(simple_type("HashMap<K, Vec<V>>"), "HashMap");
        assert_eq!(simple_type("list[int] | None"), "int[]");
        assert_eq!(simple_type("[4]int"), "");
        assert_eq!(jvm_type("Option<T?, T>"), "Option");
        assert_eq!(jvm_type("List<Box<Item>>?"), "Box[]");
        assert_eq!(jvm_type("Item?"), "Item");
        assert_eq!(jvm_type(": Map<String, List<Item>>"), "Map");
        assert_eq!(jvm_type("Array<Array<Item>>"), "Item[][]");
        let deep = format!("{}Item{}", "List<".repeat(100_000), ">".repeat(100_000));
        assert_eq!(jvm_type(&deep), "Item[][][][]");
        // Wrappers nested past any stack's depth.
        let deep = format!("{}Item{}", "Option<".repeat(100_000), ">".repeat(100_000));
        assert_eq!(simple_type(&deep), "Item");
        let deep = format!("{}Item{}", "Vec<".repeat(100_000), ">".repeat(100_000));
        assert_eq!(simple_type(&deep), "Item[][][][]");
    }
}
