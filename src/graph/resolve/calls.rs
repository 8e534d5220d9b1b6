//! Resolving one call site: lookups over the tables (names, members, bases, scopes) and
//! the ladder exact → import → scope → name-only, with receiver types followed through
//! bindings and return types.

use super::*;

impl Graph {
    pub(super) fn lang(&self, file: usize) -> Option<Lang> {
        self.files[file].lang
    }

    pub(super) fn name(&self, s: usize) -> &str {
        self.names.str(self.syms[s].name)
    }

    pub(super) fn owner(&self, s: usize) -> Option<&str> {
        let o = self.syms[s].owner;
        (o != NONE).then(|| self.names.str(o))
    }

    /// The base classes type `s` declares.
    pub(super) fn bases_of(&self, s: usize) -> impl Iterator<Item = &str> + '_ {
        let s = s as u32;
        let lo = self.bases.partition_point(|&(t, _)| t < s);
        self.bases[lo..]
            .iter()
            .take_while(move |&&(t, _)| t == s)
            .map(|&(_, b)| self.names.str(b))
    }

    /// The symbols named `name`, in id order.
    pub(super) fn named(&self, name: &str) -> Option<impl Iterator<Item = usize> + '_> {
        self.names.id(name).map(|n| self.by_name.get(n as usize))
    }

    pub(super) fn sep(&self, file: usize) -> &'static str {
        self.lang(file).map_or(".", Lang::separator)
    }

    pub(super) fn same_family(&self, a: usize, b: usize) -> bool {
        let (x, y) = (self.files[a].family, self.files[b].family);
        x == y && x != u8::MAX
    }

    /// Top-level definitions named `name` in `files`. An impl block (a Swift extension)
    /// is named after its type but is not the type: never one of them.
    pub(super) fn top_level(&self, files: &[usize], name: &str) -> Vec<usize> {
        let mut out = Vec::new();
        if let Some(list) = self.named(name) {
            for s in list {
                if self.syms[s].parent == NONE
                    && files.contains(&self.syms[s].file())
                    && self.syms[s].owner == NONE
                    && self.syms[s].kind != Some(SymbolKind::Impl)
                {
                    out.push(s);
                }
            }
        }
        out
    }

    /// Members `name` of type `ty` or, when it has none, of its base classes (a few
    /// levels up, as its declaration names them).
    pub(super) fn inherited(
        &self,
        from: usize,
        ty: &str,
        name: &str,
        prefer: &[usize],
    ) -> Vec<usize> {
        self.inherited_from(from, None, ty, name, prefer)
    }

    /// [`Graph::inherited`], starting from the type definition `start` when it is known
    /// (the class a method is in): its own members and its own bases, not those of other
    /// types of the same name.
    pub(super) fn inherited_from(
        &self,
        from: usize,
        start: Option<usize>,
        ty: &str,
        name: &str,
        prefer: &[usize],
    ) -> Vec<usize> {
        // Scala: a type written under a standard library root (`java.nio.file.Path`) is
        // that library's, never the repository's same-named class (`os.Path`).
        #[cfg(feature = "lang-scala")]
        if self.lang(from) == Some(Lang::Scala)
            && let Some((head, _)) = ty.split_once('.')
            && Lang::Scala.spec().resolve.std_roots.contains(&head)
        {
            return Vec::new();
        }
        let mut seen: Vec<String> = Vec::new();
        // Each type by the name written and, when known, its definition.
        let mut level = vec![(ty.to_string(), start)];
        for _ in 0..MAX_BASE_LEVELS {
            let mut next = Vec::new();
            for (t, known) in &level {
                let bare = t.rsplit(['.', ':']).next().unwrap_or(t).to_string();
                if seen.contains(&bare) {
                    continue;
                }
                seen.push(bare.clone());
                let mut hits = self.members_of(from, &bare, name, prefer);
                if let Some(st) = *known {
                    // Not the members of another type of the same name.
                    hits.retain(|&h| match self.syms[h].parent() {
                        Some(p) => p == st || !is_type_kind(self.syms[p].kind),
                        None => true,
                    });
                }
                if !hits.is_empty() {
                    return hits;
                }
                match *known {
                    // A base as the file declaring the type names it: the definition its
                    // own file or an import binds (`Application` imported from
                    // `app/base.py`, not an example's class of that name).
                    Some(st) => {
                        let file = self.syms[st].file();
                        next.extend(
                            self.bases_of(st)
                                .map(|b| (b.to_string(), self.bound_type(file, b))),
                        );
                    }
                    None => {
                        if let Some((defs, _)) = self.find_type(from, &bare) {
                            let defs = self.nested_first(defs, t);
                            next.extend(
                                self.agreed_bases(from, defs).into_iter().map(|b| (b, None)),
                            );
                        }
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        Vec::new()
    }

    /// Of the types `defs` named alike, those nested in the type that `written` names
    /// first (`HttpConnection.Response` is not the interface `Connection.Response`), when
    /// it names one and some are; else all.
    fn nested_first(&self, defs: Vec<usize>, written: &str) -> Vec<usize> {
        let outer = written
            .rsplit_once(['.', ':'])
            .map(|(o, _)| o.trim_end_matches(':'))
            .and_then(|o| o.rsplit(['.', ':']).next())
            .and_then(|o| self.names.id(o));
        let Some(outer) = outer else {
            return defs;
        };
        let nested: Vec<usize> = defs
            .iter()
            .copied()
            .filter(|&d| self.syms[d].owner == outer)
            .collect();
        if nested.is_empty() { defs } else { nested }
    }

    /// The bases of the types `defs` (all named alike): those of the calling file's own
    /// when it defines one, else of all. Same-named types of different files that declare
    /// different bases (a test file's local `class C : A()` beside another's `class C :
    /// B()`) give none: which one a value is, is not known, and following both would
    /// guess.
    fn agreed_bases(&self, from: usize, defs: Vec<usize>) -> Vec<String> {
        let own: Vec<usize> = defs
            .iter()
            .copied()
            .filter(|&d| self.syms[d].file() == from)
            .collect();
        let defs = if own.is_empty() { defs } else { own };
        // Same-named types declared side by side (one file, one parent) are one type (a
        // Scala companion `object Path extends PathMacros` beside `class Path extends
        // BasePathImpl`): their bases together. A declaration that names no bases does
        // not disagree.
        let mut side_by_side: std::collections::BTreeMap<(usize, Option<usize>), Vec<&str>> =
            Default::default();
        for &d in &defs {
            side_by_side
                .entry((self.syms[d].file(), self.syms[d].parent()))
                .or_default()
                .extend(self.bases_of(d));
        }
        let mut lists: Vec<Vec<&str>> = side_by_side
            .into_values()
            .filter(|b| !b.is_empty())
            .map(|mut b| {
                b.sort_unstable();
                b.dedup();
                b
            })
            .collect();
        lists.sort_unstable();
        lists.dedup();
        match lists.as_slice() {
            [one] => one.iter().map(|b| b.to_string()).collect(),
            _ => Vec::new(),
        }
    }

    /// Members `name` of types named `ty` (bare), preferring `prefer` files, same family.
    pub(super) fn members_of(
        &self,
        from: usize,
        ty: &str,
        name: &str,
        prefer: &[usize],
    ) -> Vec<usize> {
        let ty = ty.rsplit(['.', ':']).next().unwrap_or(ty);
        let (Some(ty), Some(name)) = (self.names.id(ty), self.names.id(name)) else {
            return Vec::new();
        };
        let lo = self
            .members
            .partition_point(|&(o, n, _)| (o, n) < (ty, name));
        let hi = self
            .members
            .partition_point(|&(o, n, _)| (o, n) <= (ty, name));
        let list: Vec<usize> = self.members[lo..hi]
            .iter()
            .map(|&(_, _, s)| s as usize)
            .filter(|&s| self.same_family(from, self.syms[s].file()))
            .collect();
        let preferred: Vec<usize> = list
            .iter()
            .copied()
            .filter(|&s| prefer.contains(&self.syms[s].file()))
            .collect();
        if !preferred.is_empty() {
            return preferred;
        }
        list
    }

    /// Type definitions named `name` visible from `file`: the file, its imports, its
    /// package, or unique in the repository.
    pub(super) fn find_type(&self, file: usize, name: &str) -> Option<(Vec<usize>, Vec<usize>)> {
        let bare = name.rsplit(['.', ':']).next().unwrap_or(name);
        let all: Vec<usize> = self
            .named(bare)?
            .filter(|&s| {
                is_type_kind(self.syms[s].kind) && self.same_family(file, self.syms[s].file())
            })
            .collect();
        if all.is_empty() {
            return None;
        }
        let files: Vec<usize> = all.iter().map(|&s| self.syms[s].file()).collect();
        Some((all, files))
    }

    /// The type definition a base class's name, as file `f` writes it, means: the file's
    /// own, the one its import binds, else one of that name (the nearest).
    fn base_def(&self, f: usize, written: &str) -> Option<usize> {
        let bare = written.rsplit(['.', ':']).next().unwrap_or(written);
        if bare == written {
            match self.scopes[f].names.get(bare) {
                // Imported from outside the repository.
                Some(Binding::External(_)) => return None,
                Some(Binding::Symbol(files, _)) if files.is_empty() => return None,
                _ => {}
            }
        }
        if let Some(h) = self.bound_type(f, written) {
            return Some(h);
        }
        let (defs, _) = self.find_type(f, written)?;
        self.pick(f, &defs)
    }

    /// The type definition file `f` binds `written` to for certain: its own top-level
    /// type of that name, or the one an import of that name leads to.
    fn bound_type(&self, f: usize, written: &str) -> Option<usize> {
        let types = |hits: Vec<usize>| -> Vec<usize> {
            hits.into_iter()
                .filter(|&s| is_type_kind(self.syms[s].kind))
                .collect()
        };
        if written.contains(['.', ':']) {
            return None;
        }
        if let Some(&h) = types(self.top_level(&[f], written)).first() {
            return Some(h);
        }
        match self.scopes[f].names.get(written) {
            Some(Binding::Symbol(files, orig)) if !files.is_empty() => {
                self.pick(f, &types(self.follow_symbol(files, orig, 0)))
            }
            _ => None,
        }
    }

    pub(super) fn pick(&self, from: usize, cands: &[usize]) -> Option<usize> {
        let dir = &self.files[from].dir;
        cands
            .iter()
            .copied()
            .find(|&s| self.syms[s].file() == from)
            .or_else(|| {
                cands
                    .iter()
                    .copied()
                    .find(|&s| &self.files[self.syms[s].file()].dir == dir)
            })
            .or_else(|| cands.first().copied())
    }

    /// The files whose top-level names file `f` sees without an import, where the
    /// language's `package_scope` says so: its directory's (a Go or Java package), or its
    /// Swift module's (see [`swift_module_root`]).
    pub(super) fn package_files(&self, f: usize, lang: Lang) -> Vec<usize> {
        #[cfg(feature = "lang-swift")]
        if lang == Lang::Swift {
            return self
                .swift_modules
                .get(swift_module_root(&self.files[f].path))
                .cloned()
                .unwrap_or_default();
        }
        let _ = lang;
        self.by_dir
            .get(&self.files[f].dir)
            .cloned()
            .unwrap_or_default()
    }

    /// The type definition that `self`/`this` means inside `caller`, when `caller` is
    /// inside one (not an out-of-line method, whose type is known by name only, nor a
    /// method of an `impl` or a Swift `extension`, which adds to a type declared apart).
    pub(super) fn owner_sym(&self, caller: Option<usize>) -> Option<usize> {
        let mut c = caller;
        while let Some(s) = c {
            if is_type_kind(self.syms[s].kind) {
                return Some(s);
            }
            c = self.syms[s].parent();
        }
        None
    }

    /// The type that `self`/`this` means inside `caller`.
    pub(super) fn owner_type(&self, caller: Option<usize>) -> Option<String> {
        let mut c = caller;
        while let Some(s) = c {
            if is_container(self.syms[s].kind) {
                return Some(self.name(s).to_string());
            }
            c = self.syms[s].parent();
        }
        // An out-of-line method (C++ `Rect::area`, Go `Store.Get`): its qualifier.
        self.owner(caller?).map(str::to_string)
    }

    pub(super) fn resolve_call(&self, c: &CallRow, depth: u32) -> Outcome {
        let Some(lang) = self.lang(c.file) else {
            return Outcome::unresolved(c.name.clone(), 0);
        };
        let mut o = match (c.kind, c.qualifier.as_deref()) {
            (CallKind::Plain, _) | (_, None) => self.resolve_plain(c, lang),
            (CallKind::New, Some(q)) => self.resolve_qualified(c, lang, q, depth, true),
            (_, Some(q)) => self.resolve_qualified(c, lang, q, depth, false),
        };
        if let (Some(h), Some(n)) = (o.callee, c.args) {
            o.callee = Some(self.overload(c, h, n));
        }
        o
    }

    /// Of `s` and the same-named definitions beside it (overloads: the same parent and
    /// owner), the one call `c` with `args` arguments means: of those whose parameter
    /// count admits it, the first whose parameters' types admit the arguments' types the
    /// call states, the most of them exactly (`s` first among equals); else `s` if its
    /// count admits the call, else the first whose count does; else `s`.
    fn overload(&self, c: &CallRow, s: usize, args: u32) -> usize {
        let fits = |x: usize| {
            let (lo, hi) = self.syms[x].params;
            u32::from(lo) <= args && (hi == u8::MAX || args <= u32::from(hi))
        };
        let sym = &self.syms[s];
        let mut overloads: Vec<usize> = match sym.parent() {
            Some(p) => self.children.get(p).collect(),
            None => self.file_syms.get(sym.file()).collect(),
        };
        overloads.retain(|&x| {
            self.syms[x].name == sym.name
                && self.syms[x].owner == sym.owner
                && self.syms[x].parent == sym.parent
                && fits(x)
        });
        if let Some(pos) = overloads.iter().position(|&x| x == s) {
            overloads.remove(pos);
            overloads.insert(0, s);
        }
        if let Some(types) = c.arg_types.as_deref() {
            let stated: Vec<&str> = types.split(',').collect();
            // `s` leads the list: among equals the earliest wins.
            let mut best: Option<(usize, usize)> = None;
            for &x in &overloads {
                if let Some(exact) = self.exact_args(c.file, x, &stated)
                    && best.is_none_or(|(_, e)| exact > e)
                {
                    best = Some((x, exact));
                }
            }
            if let Some((x, _)) = best {
                return x;
            }
        }
        if fits(s) {
            return s;
        }
        overloads.first().copied().unwrap_or(s)
    }

    /// How many of the stated argument types the parameters of `x` take exactly, or
    /// `None` when one cannot take its argument.
    fn exact_args(&self, from: usize, x: usize, stated: &[&str]) -> Option<usize> {
        let Some(p) = self.param_types.get(&self.syms[x].id) else {
            return Some(0);
        };
        let mut exact = 0;
        for (i, &a) in stated.iter().enumerate() {
            let param = match p.types.get(i) {
                Some(t) if i + 1 < p.types.len() || p.element.is_none() => t.as_str(),
                // The `params` parameter: its array, or one element per argument.
                Some(t) if a == t => t.as_str(),
                _ => match p.element.as_deref() {
                    Some(e) => e,
                    None => return Some(exact),
                },
            };
            match self.arg_fits(from, a, param, &p.generics) {
                ArgFit::Exact => exact += 1,
                ArgFit::Fits => {}
                ArgFit::Misfit => return None,
            }
        }
        Some(exact)
    }

    /// Whether an argument of type `a` (as [`crate::model::CallSite::arg_types`] writes
    /// it) can be passed for a parameter of type `p`: only a stated type that cannot
    /// convert is a misfit (a primitive for another type, a lambda for a non-delegate, a
    /// repository type for a type not among its bases); what is not known fits.
    fn arg_fits(&self, from: usize, a: &str, p: &str, generics: &[String]) -> ArgFit {
        const PRIMITIVE: [&str; 14] = [
            "string", "bool", "char", "int", "long", "short", "byte", "uint", "ulong", "ushort",
            "sbyte", "double", "float", "decimal",
        ];
        const DELEGATES: [&str; 7] = [
            "Action",
            "Func",
            "Expression",
            "Predicate",
            "Comparison",
            "Converter",
            "EventHandler",
        ];
        let unknown = |t: &str| t.is_empty() || t == "?" || (t.len() <= 2 && t.starts_with('T'));
        if unknown(a) || unknown(p) || generics.iter().any(|g| g == p) {
            return ArgFit::Fits;
        }
        if a == p {
            return ArgFit::Exact;
        }
        let delegate = |t: &str| {
            DELEGATES.contains(&t)
                || self.find_type(from, t).is_some_and(|(defs, _)| {
                    defs.iter()
                        .any(|&d| self.syms[d].kind == Some(SymbolKind::Type))
                })
        };
        if a == "=>" || delegate(a) {
            return if delegate(p) {
                ArgFit::Fits
            } else {
                ArgFit::Misfit
            };
        }
        if p == "object" {
            return ArgFit::Fits;
        }
        let numeric = |t: &str| PRIMITIVE[3..].contains(&t);
        if a == "null" {
            return if PRIMITIVE[1..].contains(&p) {
                ArgFit::Misfit
            } else {
                ArgFit::Fits
            };
        }
        if numeric(a) && numeric(p) {
            return ArgFit::Fits;
        }
        if PRIMITIVE.contains(&a) || PRIMITIVE.contains(&p) || delegate(p) {
            return ArgFit::Misfit;
        }
        // A repository type: its bases, a few levels up.
        let mut seen = vec![a.to_string()];
        let mut level = vec![a.to_string()];
        let repo_type = self.find_type(from, a).is_some();
        for _ in 0..6 {
            let mut next = Vec::new();
            for t in &level {
                if let Some((defs, _)) = self.find_type(from, t) {
                    for d in defs {
                        for b in self.bases_of(d) {
                            if b == p {
                                return ArgFit::Fits;
                            }
                            if !seen.iter().any(|x| x == b) {
                                seen.push(b.to_string());
                                next.push(b.to_string());
                            }
                        }
                    }
                }
            }
            level = next;
        }
        if repo_type || self.find_type(from, p).is_some() {
            ArgFit::Misfit
        } else {
            ArgFit::Fits
        }
    }

    pub(super) fn resolve_plain(&self, c: &CallRow, lang: Lang) -> Outcome {
        let o = self.resolve_plain_name(c, lang);
        // Where types are not callable (C#), `Foo()` found as the type `Foo` is a method
        // the repository does not define (an inherited one, a delegate field).
        if lang.spec().resolve.types_not_callable
            && c.kind == CallKind::Plain
            && o.callee.is_some_and(|s| is_type_kind(self.syms[s].kind))
        {
            return Outcome::unresolved(c.name.clone(), 0);
        }
        // C: a struct, union or enum tag is never called (tmux declares both `struct
        // window_pane_resize` and the function `window_pane_resize`); the function is.
        if lang.spec().resolve.linked_names
            && c.kind == CallKind::Plain
            && o.callee.is_some_and(|s| is_type_kind(self.syms[s].kind))
        {
            let mut out = self.linked(self.name_only(c, |s| {
                let sym = &self.syms[s];
                sym.kind == Some(SymbolKind::Function)
                    && sym.parent == NONE
                    && !(sym.file() != c.file && sym.is_static)
            }));
            if out.callee.is_some_and(|h| self.syms[h].file() == c.file) {
                out.resolution = Resolution::Exact;
            }
            return out;
        }
        o
    }

    fn resolve_plain_name(&self, c: &CallRow, lang: Lang) -> Outcome {
        let name = c.name.as_str();
        let f = c.file;
        // 1. Enclosing scopes: nested definitions; members of the enclosing type where
        // the language has an implicit `this` (Java, C++).
        let rules = &lang.spec().resolve;
        let implicit_this = rules.implicit_this;
        let mut s = c.caller;
        while let Some(si) = s {
            let container = is_container(self.syms[si].kind);
            if !container || implicit_this {
                let hits: Vec<usize> = self
                    .children
                    .get(si)
                    .filter(|&k| {
                        self.name(k) == name
                            && (c.kind != CallKind::New || is_type_kind(self.syms[k].kind))
                    })
                    .collect();
                if let Some(&h) = hits.first() {
                    return Outcome::to(h, Resolution::Exact, hits.len());
                }
            }
            s = self.syms[si].parent();
        }
        if implicit_this
            && c.kind == CallKind::Plain
            && let Some(owner) = self.owner_type(c.caller)
        {
            let hits = self.inherited_from(f, self.owner_sym(c.caller), &owner, name, &[f]);
            if let Some(h) = self.pick(f, &hits) {
                return Outcome::to(h, Resolution::Scope, hits.len());
            }
        }
        // 2. The file's own top level.
        let hits = self.top_level(&[f], name);
        if let Some(&h) = hits.first() {
            return Outcome::to(h, Resolution::Exact, hits.len());
        }
        // 3. Imported names.
        let scope = &self.scopes[f];
        if let Some(b) = scope.names.get(name) {
            match b {
                Binding::Symbol(files, orig) => {
                    let hits = self.follow_symbol(files, orig, 0);
                    if let Some(h) = self.pick(f, &hits) {
                        return Outcome::to(h, Resolution::Import, hits.len());
                    }
                    if files.is_empty() {
                        return Outcome::external(name.to_string());
                    }
                }
                Binding::Member(files, ty, member) => {
                    let hits = self.members_of(f, ty, member, files);
                    if let Some(h) = self.pick(f, &hits) {
                        return Outcome::to(h, Resolution::Import, hits.len());
                    }
                }
                Binding::External(path) => return Outcome::external(path.clone()),
                Binding::Module(files) => {
                    // A module called as a function: its default export.
                    let hits = self.top_level(files, name);
                    if let Some(h) = self.pick(f, &hits) {
                        return Outcome::to(h, Resolution::Import, hits.len());
                    }
                }
                Binding::Namespace(_) => {}
            }
        }
        // 4. Wildcard imports and includes.
        for (files, ty) in &scope.wildcard_types {
            let hits = self.members_of(f, ty, name, files);
            if let Some(h) = self.pick(f, &hits) {
                return Outcome::to(h, Resolution::Import, hits.len());
            }
        }
        if !scope.wildcard.is_empty() {
            let mut hits = self.top_level(&scope.wildcard, name);
            // C and C++: `deflateInit(…)` is the function-like macro, not the object-like
            // `#define deflateInit z_deflateInit` another branch of the headers writes.
            if rules.file_static
                && hits.iter().any(|&s| {
                    matches!(
                        self.syms[s].kind,
                        Some(SymbolKind::Function | SymbolKind::Macro)
                    )
                })
            {
                hits.retain(|&s| self.syms[s].kind != Some(SymbolKind::Constant));
            }
            if let Some(h) = self.pick(f, &hits) {
                return Outcome::to(h, Resolution::Import, hits.len());
            }
        }
        // 5. The same package (Go, Java), module (Swift) or directory.
        if rules.package_scope {
            let dir_files: Vec<usize> = self
                .package_files(f, lang)
                .into_iter()
                .filter(|&d| self.lang(d) == Some(lang))
                .collect();
            let hits = self.top_level(&dir_files, name);
            if let Some(h) = self.pick(f, &hits) {
                return Outcome::to(h, Resolution::Scope, hits.len());
            }
        }
        if is_builtin(lang, name) {
            return Outcome::external(name.to_string());
        }
        // 6. A free function or type defined once in the repository (C and C++: not a
        // `static` function of another file).
        let out = self.name_only(c, |s| {
            let sym = &self.syms[s];
            let free =
                sym.parent == NONE || !is_container(self.syms[sym.parent().unwrap_or(s)].kind);
            let kind_ok = matches!(sym.kind, Some(SymbolKind::Function | SymbolKind::Macro))
                || is_type_kind(sym.kind);
            let visible = !(rules.file_static && sym.file() != f && sym.is_static);
            free && kind_ok && visible && sym.parent == NONE
        });
        if rules.linked_names {
            self.linked(out)
        } else {
            out
        }
    }

    /// A name-only match made the linker's binding: C binds a function with external
    /// linkage by its name alone, program-wide, so when the one definition found is
    /// such a function (defined without `static` in a file of a language linked so), it
    /// is a scope resolution.
    fn linked(&self, mut out: Outcome) -> Outcome {
        if out.resolution == Resolution::NameOnly
            && let Some(h) = out.callee
        {
            let sym = &self.syms[h];
            if sym.kind == Some(SymbolKind::Function)
                && !sym.is_static
                && self
                    .lang(sym.file())
                    .is_some_and(|l| l.spec().resolve.linked_names)
            {
                out.resolution = Resolution::Scope;
            }
        }
        out
    }

    pub(super) fn name_only(&self, c: &CallRow, keep: impl Fn(usize) -> bool) -> Outcome {
        let cands: Vec<usize> = self
            .named(&c.name)
            .map(|l| {
                l.filter(|&s| self.same_family(c.file, self.syms[s].file()) && keep(s))
                    .filter(|&s| {
                        !self
                            .lang(c.file)
                            .is_some_and(|l| l.spec().resolve.crate_modules)
                            || self.same_crate(c.file, self.syms[s].file())
                    })
                    .collect()
            })
            .unwrap_or_default();
        match cands.as_slice() {
            [one] => Outcome::to(*one, Resolution::NameOnly, 1),
            [] => Outcome::unresolved(self.external_name(c, None), 0),
            many => Outcome::unresolved(self.external_name(c, None), many.len()),
        }
    }

    pub(super) fn external_name(&self, c: &CallRow, ty: Option<&str>) -> String {
        let sep = self.sep(c.file);
        match (ty, c.qualifier.as_deref()) {
            (Some(t), _) => format!("{t}{sep}{}", c.name),
            (None, Some(q)) if c.kind == CallKind::Path => format!("{q}::{}", c.name),
            _ => c.name.clone(),
        }
    }

    /// Definitions `name` in `files`, following re-exports (`from .x import name` in a
    /// package's `__init__.py`, `export { name } from './x'`) a few levels.
    pub(super) fn follow_symbol(&self, files: &[usize], name: &str, depth: u32) -> Vec<usize> {
        let hits = self.top_level(files, name);
        if !hits.is_empty() || depth > 3 {
            return hits;
        }
        for &f in files {
            match self.scopes[f].names.get(name) {
                Some(Binding::Symbol(files2, orig)) => {
                    let hits = self.follow_symbol(files2, orig, depth + 1);
                    if !hits.is_empty() {
                        return hits;
                    }
                }
                _ => {
                    let wild = &self.scopes[f].wildcard;
                    if !wild.is_empty()
                        && self
                            .lang(f)
                            .is_some_and(|l| l.spec().resolve.follows_wildcards)
                    {
                        let hits = self.follow_symbol(wild, name, depth + 1);
                        if !hits.is_empty() {
                            return hits;
                        }
                    }
                }
            }
        }
        Vec::new()
    }

    /// The type of a receiver stated as `callee()`: the class it constructs or the
    /// declared return type of the function it calls. A callee read on a typed value
    /// (`<Router>.Path`, `make().colors.matched`) is that type's method.
    pub(super) fn type_of_call(
        &self,
        c: &CallRow,
        expr: &str,
        depth: u32,
    ) -> Option<(String, Vec<usize>)> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        if let Some((q, name, _)) = split_last(expr)
            && (q.starts_with('<') || q.ends_with(')'))
        {
            let (ty, near) = self.type_of_value(c, q, depth + 1)?;
            let ty = match ty.as_str() {
                "Self" => self.owner_type(c.caller)?,
                _ => ty,
            };
            let mut prefer = near;
            prefer.push(c.file);
            if let Some((_, files)) = self.find_type(c.file, &ty) {
                prefer.extend(files);
            }
            let hits = self.inherited(c.file, &ty, name, &prefer);
            return match self.pick(c.file, &hits) {
                Some(h) => self.returned(h),
                None => passed_through(&ty, name).map(|t| (t, prefer)),
            };
        }
        let (qualifier, name, kind) = match split_last(expr) {
            Some((q, n, k)) => (Some(q.to_string()), n.to_string(), k),
            None => (None, expr.to_string(), CallKind::Plain),
        };
        let inner = CallRow {
            id: 0,
            file: c.file,
            caller: c.caller,
            name,
            qualifier,
            kind,
            receiver_type: None,
            old: (None, None, 0, None),
            precise: false,
            args: None,
            arg_types: None,
        };
        let o = self.resolve_call(&inner, depth + 1);
        self.returned(o.callee?)
    }

    /// The type a call of `s` gives: the class itself for a class, else its declared
    /// return type (`Self` is its owner).
    fn returned(&self, s: usize) -> Option<(String, Vec<usize>)> {
        let file = self.syms[s].file();
        if is_type_kind(self.syms[s].kind) {
            return Some((self.name(s).to_string(), vec![file]));
        }
        let ret = self.syms[s].returns;
        if ret == NONE {
            return None;
        }
        if self.names.str(ret) == "Self" {
            return Some((self.owner(s)?.to_string(), vec![file]));
        }
        Some((self.names.str(ret).to_string(), vec![file]))
    }

    /// The type of a value written as a [`Receiver::Expr`] chain: `<T>` is `T`, `x()` what
    /// `x` returns, `x.f` the declared type of field `f` of `x`'s type.
    pub(super) fn type_of_value(
        &self,
        c: &CallRow,
        expr: &str,
        depth: u32,
    ) -> Option<(String, Vec<usize>)> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        if let Some(t) = expr.strip_prefix('<').and_then(|t| t.strip_suffix('>'))
            && !t.contains(['<', '>'])
        {
            return Some((t.to_string(), Vec::new()));
        }
        if let Some(callee) = expr.strip_suffix("()") {
            return self.type_of_call(c, callee, depth + 1);
        }
        // An element of a collection: `T[]` holds `T`s (a Go slice is typed as its
        // element already).
        if let Some(collection) = expr.strip_suffix("[]") {
            let (ty, near) = self.type_of_value(c, collection, depth + 1)?;
            return match ty.strip_suffix("[]") {
                Some(element) => Some((element.to_string(), near)),
                None if self.lang(c.file) == Some(Lang::Go) => Some((ty, near)),
                None => None,
            };
        }
        let (q, name, _) = split_last(expr)?;
        let (ty, _) = self.type_of_value(c, q, depth + 1)?;
        self.field_type(c, &ty, name, depth + 1)
    }

    /// The call `c` as a method of module-level variable `var` of `files`, when the
    /// variable's type is stated and has the method.
    fn method_of_module_var(
        &self,
        c: &CallRow,
        files: &[usize],
        var: &str,
        depth: u32,
    ) -> Option<Outcome> {
        let module = self.names.id("")?;
        let list = self.fields.get(&(module, self.names.id(var)?))?;
        let (file, r) = list.iter().find(|(f, _)| files.contains(f))?;
        let (ty, mut prefer) = self.stated_type(*file, r, depth + 1)?;
        prefer.push(c.file);
        if let Some((_, near)) = self.find_type(*file, &ty) {
            prefer.extend(near);
        }
        let hits = self.inherited(*file, &ty, &c.name, &prefer);
        let h = self.pick(*file, &hits)?;
        Some(Outcome::to(h, Resolution::Import, hits.len()))
    }

    /// The type a field or module-level variable stated in `file` has, read from that
    /// file's top level (its imports name the type).
    fn stated_type(&self, file: usize, r: &Receiver, depth: u32) -> Option<(String, Vec<usize>)> {
        let at = CallRow::at(file);
        match r {
            Receiver::Type(t) => Some((t.clone(), vec![file])),
            Receiver::CallResult(x) => self.type_of_call(&at, x, depth),
            Receiver::Expr(x) => self.type_of_value(&at, x, depth),
        }
    }

    /// The stated type of field `name` of type `ty` (or of a base type of it).
    fn field_type(
        &self,
        c: &CallRow,
        ty: &str,
        name: &str,
        depth: u32,
    ) -> Option<(String, Vec<usize>)> {
        let field = self.names.id(name)?;
        let mut seen: Vec<String> = Vec::new();
        let mut level = vec![ty.rsplit(['.', ':']).next().unwrap_or(ty).to_string()];
        for _ in 0..MAX_BASE_LEVELS {
            let mut next = Vec::new();
            for t in &level {
                if seen.contains(t) {
                    continue;
                }
                seen.push(t.clone());
                let stated = self
                    .names
                    .id(t)
                    .and_then(|o| self.fields.get(&(o, field)))
                    .and_then(|l| l.iter().find(|(f, _)| self.same_family(c.file, *f)));
                if let Some((file, r)) = stated {
                    return self.stated_type(*file, r, depth + 1);
                }
                if let Some((defs, _)) = self.find_type(c.file, t) {
                    next.extend(
                        self.agreed_bases(c.file, defs)
                            .into_iter()
                            .map(|b| b.rsplit(['.', ':']).next().unwrap_or(&b).to_string()),
                    );
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        None
    }

    pub(super) fn resolve_qualified(
        &self,
        c: &CallRow,
        lang: Lang,
        q: &str,
        depth: u32,
        is_new: bool,
    ) -> Outcome {
        let f = c.file;
        let name = c.name.as_str();
        let q = q.trim();
        // `self`, `this`, `Self`, `cls`.
        let rules = &lang.spec().resolve;
        let is_self = matches!(q, "self" | "this" | "Self" | "cls" | "(*this)")
            || rules.self_receivers.contains(&q);
        // `super().m()`, `super.m()`, `base.m()`: the method the caller's class inherits,
        // from the first of its bases that has it.
        let is_super = rules.super_receivers.contains(&q)
            || (lang == Lang::Python && q.starts_with("super(") && q.ends_with(')'));
        if is_super && let Some(st) = self.owner_sym(c.caller) {
            // Each base with its definition, looked up once.
            let bases: Vec<(&str, Option<usize>)> = self
                .bases_of(st)
                .map(|b| (b, self.base_def(f, b)))
                .collect();
            for &(base, def) in &bases {
                let Some(def) = def else {
                    continue;
                };
                let prefer = [f, self.syms[def].file()];
                let hits = self.inherited_from(f, Some(def), base, name, &prefer);
                if let Some(h) = self.pick(f, &hits) {
                    return Outcome::to(h, Resolution::Scope, hits.len());
                }
            }
            // A base outside the repository (none: `object`'s, Java's `Object`).
            return match bases.first() {
                Some((b, None)) => Outcome::external(format!("{b}{}{name}", lang.separator())),
                _ => Outcome::unresolved(name.to_string(), 0),
            };
        }
        if is_self && let Some(owner) = self.owner_type(c.caller) {
            let hits = self.inherited_from(f, self.owner_sym(c.caller), &owner, name, &[f]);
            if let Some(h) = self.pick(f, &hits) {
                return Outcome::to(h, Resolution::Scope, hits.len());
            }
            return Outcome::unresolved(format!("{owner}{}{name}", lang.separator()), 0);
        }
        // The receiver's stated type.
        if let Some(t) = &c.receiver_type {
            let typed = match t {
                Receiver::CallResult(expr) => self.type_of_call(c, expr, depth),
                Receiver::Expr(expr) => self.type_of_value(c, expr, depth),
                Receiver::Type(t) => Some((t.clone(), Vec::new())),
            };
            if let Some((ty, near)) = typed {
                let ty = match ty.as_str() {
                    "Self" => self.owner_type(c.caller).unwrap_or(ty),
                    _ => ty,
                };
                let mut prefer = near;
                prefer.push(f);
                if let Some((_, files)) = self.find_type(f, &ty) {
                    prefer.extend(files);
                    let hits = self.inherited(f, &ty, name, &prefer);
                    if let Some(h) = self.pick(f, &hits) {
                        return Outcome::to(h, Resolution::Scope, hits.len());
                    }
                    return Outcome::unresolved(format!("{ty}{}{name}", lang.separator()), 0);
                }
                let hits = self.members_of(f, &ty, name, &prefer);
                if let Some(h) = self.pick(f, &hits) {
                    return Outcome::to(h, Resolution::Scope, hits.len());
                }
                if !ty.is_empty() {
                    return Outcome::external(format!("{ty}{}{name}", lang.separator()));
                }
            }
        }
        // An enum constant (`Genre.PHYSICS.path()`): a value of the enum's type.
        if let Some((ty, constant)) = q.rsplit_once('.')
            && is_caps(constant)
            && let Some((_, files)) = self.find_type(f, ty)
        {
            let hits = self.members_of(f, ty, name, &files);
            if let Some(h) = self.pick(f, &hits) {
                return Outcome::to(h, Resolution::Scope, hits.len());
            }
        }
        // A qualifier bound by an import (or a path starting with one).
        let sep_q = if q.contains("::") { "::" } else { "." };
        let head = q.split(sep_q).next().unwrap_or(q);
        let rest: Vec<&str> = q.split(sep_q).skip(1).collect();
        let scope = &self.scopes[f];
        if rules.crate_modules && matches!(head, "crate" | "super" | "self") {
            if let Some(files) = self.rust_module(f, q) {
                let hits = self.top_level(&files, name);
                if let Some(h) = self.pick(f, &hits) {
                    return Outcome::to(h, Resolution::Import, hits.len());
                }
            }
            // `crate::a::Type::method`.
            if let Some((modpath, ty)) = q.rsplit_once("::")
                && let Some(files) = self.rust_module(f, modpath)
            {
                let hits = self.members_of(f, ty, name, &files);
                if let Some(h) = self.pick(f, &hits) {
                    return Outcome::to(h, Resolution::Import, hits.len());
                }
            }
        }
        // In Rust a module is reached with `::`, never `.`: a `.` receiver is a value.
        let binding = if rules.crate_modules && c.kind == CallKind::Member {
            None
        } else {
            scope.names.get(head)
        };
        if let Some(b) = binding {
            match b {
                Binding::Module(files) => {
                    let mut files = files.clone();
                    // `pkg.sub.f` through a package import.
                    for (i, seg) in rest.iter().enumerate() {
                        match self.submodule(files.as_slice(), seg, lang) {
                            Some(sub) => files = sub,
                            None => {
                                let hits = self.members_of(f, seg, name, &files);
                                if let Some(h) = self.pick(f, &hits) {
                                    return Outcome::to(h, Resolution::Import, hits.len());
                                }
                                // `pkg.codes.get()`: a module-level instance's method.
                                if i + 1 == rest.len()
                                    && let Some(h) =
                                        self.method_of_module_var(c, &files, seg, depth)
                                {
                                    return h;
                                }
                                break;
                            }
                        }
                    }
                    let mut hits = self.follow_symbol(&files, name, 0);
                    // A Lua module is the table it returns (`local M = {} … return M`): its
                    // functions `M.f` are named by the table, not at the top level.
                    if hits.is_empty() && lang == Lang::Lua && rest.is_empty() {
                        hits = self.named(name).map_or_else(Vec::new, |list| {
                            list.filter(|&s| {
                                self.syms[s].parent == NONE && files.contains(&self.syms[s].file())
                            })
                            .collect()
                        });
                    }
                    if let Some(h) = self.pick(f, &hits) {
                        return Outcome::to(h, Resolution::Import, hits.len());
                    }
                    return Outcome::unresolved(
                        format!("{q}{}{name}", if sep_q == "::" { "::" } else { "." }),
                        0,
                    );
                }
                Binding::Symbol(files, orig) if rest.is_empty() => {
                    // An imported type or class: its member.
                    let hits = self.members_of(f, orig, name, files);
                    if let Some(h) = self.pick(f, &hits) {
                        return Outcome::to(h, Resolution::Import, hits.len());
                    }
                    // An imported module-level instance: a method of its type.
                    if let Some(h) = self.method_of_module_var(c, files, orig, depth) {
                        return h;
                    }
                    if files.is_empty() {
                        return Outcome::external(format!("{q}{sep_q}{name}"));
                    }
                }
                Binding::External(path) => {
                    let mut full = path.clone();
                    for seg in &rest {
                        full = format!("{full}{sep_q}{seg}");
                    }
                    return Outcome::external(format!("{full}{sep_q}{name}"));
                }
                Binding::Namespace(ns) => {
                    let hits = self.members_of(f, ns, name, &[]);
                    if let Some(h) = self.pick(f, &hits) {
                        return Outcome::to(h, Resolution::Import, hits.len());
                    }
                    return Outcome::external(format!("{ns}::{name}"));
                }
                _ => {}
            }
        }
        // Scala: a qualifier the file does not bind that is a package path (`os.read(p)`,
        // `_root_.a.b.f()`) reaches the package's top-level definitions (an object called
        // is its `apply`) and the members of its package object (`package object b`); a
        // package read under its parent (`os.watch`) is a path, not a call; a path from
        // the standard library's roots (`java.nio.file.Files`) is external.
        #[cfg(feature = "lang-scala")]
        if binding.is_none() && lang == Lang::Scala {
            let q = q.strip_prefix("_root_.").unwrap_or(q);
            let head = q.split('.').next().unwrap_or(q);
            if head.starts_with(|ch: char| ch.is_lowercase())
                && q.chars()
                    .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '.')
            {
                if rules.std_roots.contains(&head) {
                    return Outcome::external(format!("{q}.{name}"));
                }
                if !self.scala_package(&format!("{q}.{name}")).is_empty() {
                    return Outcome::unresolved(format!("{q}.{name}"), 0);
                }
                let files = self.scala_package(q);
                if !files.is_empty() {
                    let last = q.rsplit('.').next().unwrap_or(q);
                    let mut hits = self.members_of(f, last, name, files);
                    hits.retain(|&s| files.contains(&self.syms[s].file()));
                    if hits.is_empty() {
                        hits = self.top_level(files, name);
                        hits.retain(|&s| self.syms[s].kind != Some(SymbolKind::Module));
                    }
                    if let Some(h) = self.pick(f, &hits) {
                        return Outcome::to(h, Resolution::Scope, hits.len());
                    }
                }
            }
        }
        // A module-level instance of the same package (Go), read from another file.
        if binding.is_none() && rules.package_scope && rest.is_empty() {
            let dir_files: Vec<usize> = self
                .package_files(f, lang)
                .into_iter()
                .filter(|&d| d != f)
                .collect();
            if let Some(h) = self.method_of_module_var(c, &dir_files, head, depth) {
                return h;
            }
        }
        if rules.crate_modules && c.kind == CallKind::Path {
            // A child module of this one (`util::f` after `mod util;` in a parent).
            if let Some(files) = self.rust_module(f, q) {
                let hits = self.top_level(&files, name);
                if let Some(h) = self.pick(f, &hits) {
                    return Outcome::to(h, Resolution::Import, hits.len());
                }
            }
        }
        // A type-qualified call: `Task::new`, `Strings.pad`, `geo::scale`.
        let last = q.rsplit(['.', ':']).next().unwrap_or(q);
        let looks_static = c.kind == CallKind::Path
            || is_new
            || (last.chars().next().is_some_and(char::is_uppercase) && rules.caps_are_types
                || self.find_type(f, last).is_some());
        if looks_static && !last.is_empty() {
            let mut hits = self.members_of(f, last, name, &[f]);
            // In Rust a type not imported is the crate's own (or the prelude's: `Vec`).
            if rules.crate_modules {
                hits.retain(|&s| self.same_crate(f, self.syms[s].file()));
            }
            if let Some(h) = self.pick(f, &hits) {
                return Outcome::to(h, Resolution::Scope, hits.len());
            }
        }
        if c.kind == CallKind::Path && rules.std_roots.contains(&head) {
            return Outcome::external(format!("{q}::{name}"));
        }
        // A method of a global object no import or definition of the repository names
        // (`console.warn`, `Object.is`): the runtime's.
        if c.kind == CallKind::Member && binding.is_none() && is_global_object(lang, q) {
            return Outcome::external(format!("{q}.{name}"));
        }
        // A method on a value of unknown type: name-only, methods only, unique.
        let plain_receiver = q
            .chars()
            .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '$');
        if c.kind == CallKind::Member
            && rules.has_methods
            && plain_receiver
            && !is_global_object(lang, q)
        {
            return self.name_only(c, |s| self.syms[s].kind == Some(SymbolKind::Method));
        }
        Outcome::unresolved(self.external_name(c, None), 0)
    }
}

/// The type a method the repository does not define gives when called on a value of type
/// `ty`: the value itself for unwrapping and copying (`unwrap`, `clone`, `lock`), the
/// collection for iterating and slicing (`iter`, `filter`, `slice`), an element for reading
/// one (`first`, `pop`, `get`). Anything else is not known.
fn passed_through(ty: &str, name: &str) -> Option<String> {
    const SAME: [&str; 10] = [
        "unwrap",
        "expect",
        "clone",
        "to_owned",
        "as_ref",
        "as_mut",
        "borrow",
        "borrow_mut",
        "lock",
        "deref",
    ];
    const SAME_COLLECTION: [&str; 17] = [
        "iter",
        "iter_mut",
        "into_iter",
        "drain",
        "rev",
        "copied",
        "cloned",
        "skip",
        "take",
        "filter",
        "slice",
        "concat",
        "reverse",
        "values",
        "stream",
        "sorted",
        "toSorted",
    ];
    const ELEMENT: [&str; 10] = [
        "first", "last", "pop", "get", "peek", "poll", "at", "find", "shift", "next",
    ];
    if SAME.contains(&name) {
        return Some(ty.to_string());
    }
    let element = ty.strip_suffix("[]")?;
    if SAME_COLLECTION.contains(&name) {
        Some(ty.to_string())
    } else if ELEMENT.contains(&name) {
        Some(element.to_string())
    } else {
        None
    }
}

/// How many levels of base classes a member or a field is looked for through: a
/// framework's class can sit six deep (a test's `C` → `TestCommand` → `CliktCommand` →
/// `CoreCliktCommand` → `BaseCliktCommand` → `ParameterHolder`).
const MAX_BASE_LEVELS: usize = 8;

/// Whether an argument can be passed for a parameter (see [`Graph::arg_fits`]).
enum ArgFit {
    /// The same type.
    Exact,
    /// A conversion, or nothing known against it.
    Fits,
    /// It cannot be passed.
    Misfit,
}

/// How deep receiver typing follows calls, fields and chains before giving up.
const MAX_TYPE_DEPTH: u32 = 24;

/// The last link of a chain: (what it is read on, its name, how it is written), split
/// at the last `.`, `::` or `->` outside `(…)` and `<…>`.
fn split_last(expr: &str) -> Option<(&str, &str, CallKind)> {
    let b = expr.as_bytes();
    let mut depth = 0i32;
    let mut i = b.len();
    while i > 0 {
        i -= 1;
        let arrow = b[i] == b'>' && i > 0 && b[i - 1] == b'-';
        match b[i] {
            b'>' if arrow && depth == 0 => {
                return Some((&expr[..i - 1], &expr[i + 1..], CallKind::Member));
            }
            b')' | b'>' if !arrow => depth += 1,
            b'(' | b'<' => depth -= 1,
            b'.' if depth == 0 => return Some((&expr[..i], &expr[i + 1..], CallKind::Member)),
            b':' if depth == 0 && i > 0 && b[i - 1] == b':' => {
                return Some((&expr[..i - 1], &expr[i + 1..], CallKind::Path));
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::split_last;
    use crate::model::CallKind;

    #[test]
    fn chains_split_at_their_last_link() {
        assert_eq!(
            split_last("<Router>.Path().Subrouter"),
            Some(("<Router>.Path()", "Subrouter", CallKind::Member))
        );
        assert_eq!(split_last("<kv.Store>"), None);
        assert_eq!(
            split_last("Foo::<u8>::new"),
            Some(("Foo::<u8>", "new", CallKind::Path))
        );
        assert_eq!(split_last("p->next"), Some(("p", "next", CallKind::Member)));
        assert_eq!(split_last("f"), None);
    }
}
