//! Binding imports to files and definitions: what each language's import statement
//! brings into scope (Python modules and packages, JS/TS module specifiers, Rust `use`
//! paths and module files, Go packages, Java classes and static imports).

use super::*;

impl Graph {
    /// The files of submodule `seg` of the package in `files` (Python, Go dirs).
    pub(super) fn submodule(&self, files: &[usize], seg: &str, lang: Lang) -> Option<Vec<usize>> {
        let dir = files.first().map(|&f| self.files[f].dir.clone())?;
        match lang {
            Lang::Python => {
                let p = if dir.is_empty() {
                    seg.to_string()
                } else {
                    format!("{dir}/{seg}")
                };
                self.by_path
                    .get(&format!("{p}.py"))
                    .or_else(|| self.by_path.get(&format!("{p}/__init__.py")))
                    .map(|&x| vec![x])
            }
            _ => None,
        }
    }

    /// Binds an import: the local name and what it stands for, and the files it targets.
    pub(super) fn bind_import(&self, imp: &ImportRow) -> (Option<(String, Binding)>, Vec<usize>) {
        let f = imp.file;
        let Some(lang) = self.lang(f) else {
            return (None, Vec::new());
        };
        match lang {
            Lang::Python => self.bind_python(imp),
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
                let files = self.js_module(f, &imp.module);
                let local = imp.alias.clone().or_else(|| imp.name.clone());
                let binding = match (&imp.name, files.is_empty()) {
                    (_, true) => imp
                        .name
                        .as_ref()
                        .map_or(Binding::External(imp.module.clone()), |n| {
                            Binding::External(format!("{}.{n}", imp.module))
                        }),
                    (None, false) => Binding::Module(files.clone()),
                    (Some(n), false) if n == "default" => {
                        // The default export: a definition named like the local name, or
                        // the module's only top-level definition.
                        let alias = imp.alias.clone().unwrap_or_default();
                        let tops: Vec<usize> = self
                            .file_syms
                            .get(files[0])
                            .filter(|&s| self.syms[s].parent == NONE)
                            .collect();
                        let named = tops.iter().find(|&&s| self.name(s) == alias);
                        match (named, tops.as_slice()) {
                            (Some(&s), _) | (None, &[s]) => {
                                Binding::Symbol(files.clone(), self.name(s).to_string())
                            }
                            _ => Binding::Symbol(files.clone(), alias),
                        }
                    }
                    (Some(n), false) => Binding::Symbol(files.clone(), n.clone()),
                };
                (local.map(|l| (l, binding)), files)
            }
            Lang::Go => {
                let files = self.go_package(&imp.module);
                let local = imp
                    .alias
                    .clone()
                    .unwrap_or_else(|| go_package_name(&imp.module).to_string());
                if imp.wildcard {
                    return (None, files);
                }
                let b = if files.is_empty() {
                    Binding::External(imp.module.clone())
                } else {
                    Binding::Module(files.clone())
                };
                (Some((local, b)), files)
            }
            Lang::Java => {
                let is_static = imp.kind == ImportKind::Static;
                let module = imp.module.as_str();
                if imp.wildcard {
                    // `import a.b.*` (a package) or `import static a.b.C.*` (a class).
                    let files = if is_static {
                        self.java_class_file(module)
                    } else {
                        self.by_dir
                            .get(&module.replace('.', "/"))
                            .cloned()
                            .unwrap_or_else(|| self.java_package(module))
                    };
                    return (None, files);
                }
                let Some(name) = imp.name.clone() else {
                    return (None, Vec::new());
                };
                if is_static {
                    let files = self.java_class_file(module);
                    let ty = module.rsplit('.').next().unwrap_or(module).to_string();
                    let b = if files.is_empty() {
                        Binding::External(format!("{module}.{name}"))
                    } else {
                        Binding::Member(files.clone(), ty, name.clone())
                    };
                    return (Some((name, b)), files);
                }
                let files = self.java_class_file(&format!("{module}.{name}"));
                let b = if files.is_empty() {
                    Binding::External(format!("{module}.{name}"))
                } else {
                    Binding::Symbol(files.clone(), name.clone())
                };
                (Some((name, b)), files)
            }
            Lang::C | Lang::Cpp => {
                if imp.kind == ImportKind::NamespaceAlias {
                    let ns = imp.module.as_str();
                    let alias = imp.alias.clone().unwrap_or_default();
                    let ns = ns.rsplit("::").next().unwrap_or(ns).to_string();
                    return (Some((alias, Binding::Namespace(ns))), Vec::new());
                }
                if imp.kind == ImportKind::System {
                    return (None, Vec::new());
                }
                let dir = &self.files[f].dir;
                let direct = normalize_path(&if dir.is_empty() {
                    imp.module.clone()
                } else {
                    format!("{dir}/{}", imp.module)
                });
                let target = self.by_path.get(&direct).copied().or_else(|| {
                    let suffix = format!("/{}", imp.module);
                    self.files
                        .iter()
                        .enumerate()
                        .filter(|(_, x)| x.path.ends_with(&suffix) || x.path == imp.module)
                        .min_by_key(|(_, x)| x.path.len())
                        .map(|(i, _)| i)
                });
                (None, target.into_iter().collect())
            }
            Lang::Rust => self.bind_rust(imp),
            Lang::Ruby => (None, self.ruby_required(f, &imp.module)),
            Lang::Bash => (None, self.bash_sourced(f, &imp.module)),
            Lang::Php => self.bind_php(imp),
            #[cfg(feature = "lang-swift")]
            Lang::Swift => self.bind_swift(imp),
            #[cfg(feature = "lang-csharp")]
            Lang::CSharp => self.bind_csharp(imp),
            Lang::Lua => {
                let files = self.lua_module(&imp.module);
                let Some(local) = imp.alias.clone() else {
                    return (None, files);
                };
                let b = if files.is_empty() {
                    Binding::External(imp.module.clone())
                } else {
                    Binding::Module(files.clone())
                };
                (Some((local, b)), files)
            }
            #[cfg(feature = "lang-scala")]
            Lang::Scala => self.bind_scala(imp),
            #[cfg(feature = "lang-kotlin")]
            Lang::Kotlin => self.bind_kotlin(imp),
        }
    }

    /// A Swift import: `import Shop` binds the module's name to the files of the module
    /// (the target `Sources/Shop/`, see [`swift_module_root`]), every top-level name of
    /// which the importing file then sees (the import is a wildcard too); `import struct
    /// Shop.Money` binds the one name. External when no folder of the repository is the
    /// module (`Foundation`).
    #[cfg(feature = "lang-swift")]
    fn bind_swift(&self, imp: &ImportRow) -> (Option<(String, Binding)>, Vec<usize>) {
        let module = imp.module.split('.').next().unwrap_or(&imp.module);
        let mut files: Vec<usize> = self
            .swift_modules
            .iter()
            .filter(|(root, _)| root.rsplit('/').next() == Some(module))
            .flat_map(|(_, v)| v.iter().copied())
            .collect();
        files.sort_unstable();
        let (local, b) = match &imp.name {
            Some(name) if files.is_empty() => {
                (name.clone(), Binding::External(format!("{module}.{name}")))
            }
            Some(name) => (name.clone(), Binding::Symbol(files.clone(), name.clone())),
            None if files.is_empty() => (module.to_string(), Binding::External(module.to_string())),
            None => (module.to_string(), Binding::Module(files.clone())),
        };
        (Some((local, b)), files)
    }

    /// A Scala import: `import a.b.C` (or `C => D`) binds the top-level definition `C` of
    /// package `a.b` (see [`Graph::scala_defining`]), else the package `a.b.C` (its
    /// files); `import a.Obj.f` (kind `Static`) member `f` of object `Obj`; `import
    /// a.b._` makes the package's files visible (`import a.Obj._`, the object's members:
    /// [`Graph::static_wildcard`]). A path from the standard library's roots (`scala`,
    /// `java`) is external.
    #[cfg(feature = "lang-scala")]
    fn bind_scala(&self, imp: &ImportRow) -> (Option<(String, Binding)>, Vec<usize>) {
        let module = imp.module.as_str();
        let head = module.split('.').next().unwrap_or(module);
        let std = Lang::Scala.spec().resolve.std_roots.contains(&head);
        let (pkg, obj) = module.rsplit_once('.').unwrap_or(("", module));
        if imp.wildcard {
            if std {
                return (None, Vec::new());
            }
            if imp.kind == ImportKind::Static {
                return (None, self.scala_defining(imp.file, pkg, obj));
            }
            return (None, self.scala_package(module).to_vec());
        }
        let Some(name) = imp.name.clone() else {
            return (None, Vec::new());
        };
        let local = imp.alias.clone().unwrap_or_else(|| name.clone());
        let full = if module.is_empty() {
            name.clone()
        } else {
            format!("{module}.{name}")
        };
        if std {
            return (Some((local, Binding::External(full))), Vec::new());
        }
        if imp.kind == ImportKind::Static {
            let files = self.scala_defining(imp.file, pkg, obj);
            if files.is_empty() {
                return (Some((local, Binding::External(full))), Vec::new());
            }
            let b = Binding::Member(files.clone(), obj.to_string(), name);
            return (Some((local, b)), files);
        }
        let files = self.scala_defining(imp.file, module, &name);
        if !files.is_empty() {
            return (Some((local, Binding::Symbol(files.clone(), name))), files);
        }
        let files = self.scala_package(&full).to_vec();
        if !files.is_empty() {
            return (Some((local, Binding::Module(files.clone()))), files);
        }
        (Some((local, Binding::External(full))), Vec::new())
    }

    /// The Scala files whose top level defines `name` in package `pkg` (`a.b`). A package
    /// need not follow its folders, so every file defining the name is a candidate; those
    /// in the package's folder ([`scala_in_package`]) are taken first, else those whose
    /// path names a segment of the package (`com/acme/…` for `com.acme.util`), never a
    /// file elsewhere: an import from another library is not a same-named definition of
    /// this repository.
    ///
    /// A relative import names no package (`import Chain.{empty, one}`): the name is then
    /// looked for in the importing file `from`'s own folder, its package by convention.
    #[cfg(feature = "lang-scala")]
    pub(super) fn scala_defining(&self, from: usize, pkg: &str, name: &str) -> Vec<usize> {
        let Some(syms) = self.named(name) else {
            return Vec::new();
        };
        let mut files: Vec<usize> = syms
            .filter(|&s| self.syms[s].parent == NONE)
            .map(|s| self.syms[s].file())
            .filter(|&f| self.lang(f) == Some(Lang::Scala))
            .collect();
        files.dedup();
        if pkg.is_empty() {
            let dir = &self.files[from].dir;
            let beside: Vec<usize> = files
                .iter()
                .copied()
                .filter(|&f| self.files[f].dir == *dir)
                .collect();
            if !beside.is_empty() {
                return beside;
            }
        }
        let near: Vec<usize> = files
            .iter()
            .copied()
            .filter(|&f| scala_in_package(&self.files[f].dir, pkg))
            .collect();
        if !near.is_empty() {
            return near;
        }
        files.retain(|&f| {
            let dirs: Vec<&str> = self.files[f].dir.split('/').collect();
            pkg.split('.').any(|seg| dirs.contains(&seg))
        });
        files
    }

    /// The Scala files of package `pkg`: those in its folder ([`scala_in_package`]).
    #[cfg(feature = "lang-scala")]
    pub(super) fn scala_package(&self, pkg: &str) -> &[usize] {
        self.scala_packages
            .get(&pkg.replace('.', "/"))
            .map_or(&[], Vec::as_slice)
    }

    /// A Kotlin import: `import a.b.*` (the package's files), `import a.b.C [as D]` (the
    /// class, object or top-level function `C` of package `a.b`: the package's files that
    /// define it), `import a.b.C.f [as g]` (member `f` of type `C`); external when no file
    /// of the package defines it.
    #[cfg(feature = "lang-kotlin")]
    fn bind_kotlin(&self, imp: &ImportRow) -> (Option<(String, Binding)>, Vec<usize>) {
        let module = imp.module.as_str();
        if imp.kind == ImportKind::Static {
            let (files, ty) = self.kotlin_type(module);
            let Some(name) = imp.name.clone() else {
                // `import a.b.C.*`: the type's members (see `static_wildcard`).
                return (None, files);
            };
            let local = imp.alias.clone().unwrap_or_else(|| name.clone());
            let b = if files.is_empty() {
                Binding::External(format!("{module}.{name}"))
            } else {
                Binding::Member(files.clone(), ty, name)
            };
            return (Some((local, b)), files);
        }
        if imp.wildcard {
            return (None, self.kotlin_package(module));
        }
        let Some(name) = imp.name.clone() else {
            return (None, Vec::new());
        };
        let files = self.kotlin_defining(self.kotlin_package(module), &name);
        let local = imp.alias.clone().unwrap_or_else(|| name.clone());
        let b = if files.is_empty() {
            Binding::External(if module.is_empty() {
                name.clone()
            } else {
                format!("{module}.{name}")
            })
        } else {
            Binding::Symbol(files.clone(), name)
        };
        (Some((local, b)), files)
    }

    /// The files of Kotlin package `a.b.c`: those of the directories whose path ends with
    /// the most of its trailing segments (`…/a/b/c`, else `…/b/c`, else `…/c`), since a
    /// project may leave its common root package out of the directory tree.
    #[cfg(feature = "lang-kotlin")]
    fn kotlin_package(&self, pkg: &str) -> Vec<usize> {
        let segs: Vec<&str> = pkg.split('.').filter(|s| !s.is_empty()).collect();
        for k in (1..=segs.len()).rev() {
            let rel = segs[segs.len() - k..].join("/");
            let suffix = format!("/{rel}");
            let mut files: Vec<usize> = self
                .by_dir
                .iter()
                .filter(|(d, _)| d.ends_with(&suffix) || **d == rel)
                .flat_map(|(_, v)| v.iter().copied())
                .collect();
            if !files.is_empty() {
                files.sort_unstable();
                return files;
            }
        }
        Vec::new()
    }

    /// The files among `files` that define `name` (a class, an object, a top-level
    /// function, or an extension function, which is a method of the type it extends).
    #[cfg(feature = "lang-kotlin")]
    fn kotlin_defining(&self, files: Vec<usize>, name: &str) -> Vec<usize> {
        let Some(list) = self.named(name) else {
            return Vec::new();
        };
        let defining: Vec<usize> = list.map(|s| self.syms[s].file()).collect();
        files.into_iter().filter(|f| defining.contains(f)).collect()
    }

    /// The type a Kotlin member import names (`a.b.C` or `a.b.C.Companion` → `C`, the
    /// package starting at the first capitalised segment) and the files defining it.
    #[cfg(feature = "lang-kotlin")]
    fn kotlin_type(&self, dotted: &str) -> (Vec<usize>, String) {
        let segs: Vec<&str> = dotted.split('.').collect();
        let first = segs
            .iter()
            .position(|s| s.starts_with(|c: char| c.is_uppercase()))
            .unwrap_or(segs.len().saturating_sub(1));
        let mut types = &segs[first..];
        if types.len() > 1 && types.last() == Some(&"Companion") {
            types = &types[..types.len() - 1];
        }
        let ty = types.last().copied().unwrap_or_default().to_string();
        let outer = types.first().copied().unwrap_or_default();
        let files = self.kotlin_defining(self.kotlin_package(&segs[..first].join(".")), outer);
        (files, ty)
    }

    /// A C# `using` or the file's own namespace:
    /// - `namespace A.B` ([`ImportKind::Package`]): the other files of `A.B` and of `A`;
    /// - `using A.B;`: the files of namespace `A.B` (their types are visible);
    /// - `using static A.B.C;`: the files of `A.B` (the members of `C`: see
    ///   [`Graph::static_wildcard`]);
    /// - `using X = A.B.C;`: `X` is namespace `A.B.C` when files declare it, else the type
    ///   `C` of namespace `A.B`, else outside the repository.
    #[cfg(feature = "lang-csharp")]
    fn bind_csharp(&self, imp: &ImportRow) -> (Option<(String, Binding)>, Vec<usize>) {
        let module = imp.module.as_str();
        let namespace = |ns: &str| self.packages.get(ns).cloned().unwrap_or_default();
        match imp.kind {
            ImportKind::Package => {
                let mut files = Vec::new();
                let mut ns = module;
                loop {
                    files.extend(namespace(ns).into_iter().filter(|&x| x != imp.file));
                    match ns.rsplit_once('.') {
                        Some((outer, _)) => ns = outer,
                        None => break,
                    }
                }
                files.sort_unstable();
                files.dedup();
                (None, files)
            }
            ImportKind::Static => (None, self.csharp_class_files(module)),
            // `using A.B;`, `global using A.B;` (spread to the project's other files by
            // [`Graph::spread_global_usings`]).
            _ if imp.wildcard => (None, namespace(module)),
            _ => {
                let Some(name) = imp.name.clone() else {
                    return (None, Vec::new());
                };
                let local = imp.alias.clone().unwrap_or_else(|| name.clone());
                let full = if module.is_empty() {
                    name.clone()
                } else {
                    format!("{module}.{name}")
                };
                let as_namespace = namespace(&full);
                if !as_namespace.is_empty() {
                    return (
                        Some((local, Binding::Module(as_namespace.clone()))),
                        as_namespace,
                    );
                }
                let files: Vec<usize> = namespace(module)
                    .into_iter()
                    .filter(|&f| !self.top_level(&[f], &name).is_empty())
                    .collect();
                if files.is_empty() {
                    return (Some((local, Binding::External(full))), files);
                }
                (Some((local, Binding::Symbol(files.clone(), name))), files)
            }
        }
    }

    /// Makes each C# `global using A.B;` a `using` of every C# file of its project: the
    /// files under the folder of the nearest `.csproj` above it (the whole repository when
    /// there is none).
    #[cfg(feature = "lang-csharp")]
    pub(super) fn spread_global_usings(&mut self, imports: &[ImportRow]) {
        let globals: Vec<&ImportRow> = imports
            .iter()
            .filter(|i| i.kind == ImportKind::Global && self.lang(i.file) == Some(Lang::CSharp))
            .collect();
        if globals.is_empty() {
            return;
        }
        let projects: HashSet<&str> = self
            .files
            .iter()
            .filter(|f| f.path.ends_with(".csproj"))
            .map(|f| f.dir.as_str())
            .collect();
        let project_of = |dir: &str| -> String {
            let mut d = dir;
            loop {
                if projects.contains(d) || d.is_empty() {
                    return d.to_string();
                }
                d = dir_of(d);
            }
        };
        let roots: Vec<String> = self.files.iter().map(|f| project_of(&f.dir)).collect();
        let mut by_project: HashMap<&str, Vec<usize>> = HashMap::default();
        for (i, f) in self.files.iter().enumerate() {
            if f.lang == Some(Lang::CSharp) {
                by_project.entry(roots[i].as_str()).or_default().push(i);
            }
        }
        // The namespaces' files each project's global usings make visible, once.
        let mut visible: HashMap<&str, Vec<usize>> = HashMap::default();
        for imp in globals {
            if let Some(targets) = self.packages.get(&imp.module) {
                visible
                    .entry(roots[imp.file].as_str())
                    .or_default()
                    .extend(targets);
            }
        }
        for (project, mut targets) in visible {
            targets.sort_unstable();
            targets.dedup();
            for &f in by_project.get(project).into_iter().flatten() {
                let w = &mut self.scopes[f].wildcard;
                let had: HashSet<usize> = w.iter().copied().collect();
                w.extend(targets.iter().copied().filter(|t| !had.contains(t)));
            }
        }
    }

    /// The files of namespace `A.B` that define class `C` of `A.B.C` at their top level.
    #[cfg(feature = "lang-csharp")]
    fn csharp_class_files(&self, dotted: &str) -> Vec<usize> {
        let Some((namespace, class)) = dotted.rsplit_once('.') else {
            return Vec::new();
        };
        self.packages
            .get(namespace)
            .into_iter()
            .flatten()
            .copied()
            .filter(|&f| !self.top_level(&[f], class).is_empty())
            .collect()
    }

    /// The file of a Lua module `a.b`: `a/b.lua` or `a/b/init.lua` from the root, else the
    /// shortest path ending in either (a `package.path` entry such as `lua/` or `src/`).
    fn lua_module(&self, module: &str) -> Vec<usize> {
        if module.is_empty() || module.starts_with(['.', '/']) {
            return Vec::new();
        }
        let rel = module.replace('.', "/");
        for cand in [format!("{rel}.lua"), format!("{rel}/init.lua")] {
            if let Some(&x) = self.by_path.get(&cand) {
                return vec![x];
            }
            let suffix = format!("/{cand}");
            if let Some(x) = self
                .files
                .iter()
                .enumerate()
                .filter(|(_, x)| x.path.ends_with(&suffix))
                .min_by_key(|(_, x)| x.path.len())
                .map(|(i, _)| i)
            {
                return vec![x];
            }
        }
        Vec::new()
    }

    /// A PHP import: `require`/`include` of a file (a wildcard), or `use A\B\C [as D]`,
    /// the name `C` (or `D`) for the definition `C` in the file the namespace path leads to
    /// (see [`Graph::php_class_file`]); external when no file of the repository defines it.
    fn bind_php(&self, imp: &ImportRow) -> (Option<(String, Binding)>, Vec<usize>) {
        if imp.wildcard {
            return (None, self.bash_sourced(imp.file, &imp.module));
        }
        let Some(name) = imp.name.clone() else {
            return (None, Vec::new());
        };
        let local = imp.alias.clone().unwrap_or_else(|| name.clone());
        let files = self.php_class_file(&imp.module, &name);
        let b = if files.is_empty() {
            Binding::External(format!("{}\\{name}", imp.module))
        } else {
            Binding::Symbol(files.clone(), name)
        };
        (Some((local, b)), files)
    }

    /// The PHP files whose top level defines `name` of namespace `module` (`App\Shop`):
    /// by the autoloading convention (PSR-4) the one at `…/Shop/Name.php`, tried from the
    /// whole namespace path down to `Name.php` alone (a namespace prefix maps to a folder
    /// such as `src/`); else every file defining it (a function, a constant, a class in a
    /// file of another name).
    fn php_class_file(&self, module: &str, name: &str) -> Vec<usize> {
        let Some(syms) = self.named(name) else {
            return Vec::new();
        };
        let mut files: Vec<usize> = syms
            .filter(|&s| self.syms[s].parent == NONE)
            .map(|s| self.syms[s].file as usize)
            .filter(|&f| self.lang(f) == Some(Lang::Php))
            .collect();
        files.dedup();
        let segs: Vec<&str> = module
            .split('\\')
            .filter(|s| !s.is_empty())
            .chain(std::iter::once(name))
            .collect();
        for k in (1..=segs.len()).rev() {
            let rel = format!("{}.php", segs[segs.len() - k..].join("/"));
            let suffix = format!("/{rel}");
            let hits: Vec<usize> = files
                .iter()
                .copied()
                .filter(|&i| self.files[i].path == rel || self.files[i].path.ends_with(&suffix))
                .collect();
            if !hits.is_empty() {
                return hits;
            }
        }
        files
    }

    /// The file a Bash `source` names: a path relative to the directory the script runs
    /// in, unknown here, so tried from the sourcing file's directory, then from the root,
    /// then as the shortest path ending in it.
    fn bash_sourced(&self, from: usize, module: &str) -> Vec<usize> {
        let module = module.trim_start_matches("./");
        if module.is_empty() || module.starts_with('/') {
            return Vec::new();
        }
        let dir = &self.files[from].dir;
        let near = normalize_path(&if dir.is_empty() {
            module.to_string()
        } else {
            format!("{dir}/{module}")
        });
        if let Some(&x) = self
            .by_path
            .get(&near)
            .or_else(|| self.by_path.get(&normalize_path(module)))
        {
            return vec![x];
        }
        let suffix = format!("/{module}");
        self.files
            .iter()
            .enumerate()
            .filter(|(_, x)| x.path.ends_with(&suffix))
            .min_by_key(|(_, x)| x.path.len())
            .map(|(i, _)| i)
            .into_iter()
            .collect()
    }

    /// The file a Ruby `require` names: `./x` and `../x` (from `require_relative`) from
    /// the requiring file's directory, else a file ending in `/x.rb` (on the load path,
    /// `lib/` by convention; the shortest such path). `.rb` may be written or not.
    fn ruby_required(&self, from: usize, module: &str) -> Vec<usize> {
        let module = module.strip_suffix(".rb").unwrap_or(module);
        if module.is_empty() {
            return Vec::new();
        }
        if module.starts_with("./") || module.starts_with("../") {
            let dir = &self.files[from].dir;
            let path = normalize_path(&if dir.is_empty() {
                format!("{module}.rb")
            } else {
                format!("{dir}/{module}.rb")
            });
            return self.by_path.get(&path).copied().into_iter().collect();
        }
        let whole = format!("{module}.rb");
        let suffix = format!("/{whole}");
        self.files
            .iter()
            .enumerate()
            .filter(|(_, x)| x.path == whole || x.path.ends_with(&suffix))
            .min_by_key(|(_, x)| x.path.len())
            .map(|(i, _)| i)
            .into_iter()
            .collect()
    }

    pub(super) fn static_wildcard(&self, imp: &ImportRow) -> Option<Binding> {
        if imp.kind != ImportKind::Static {
            return None;
        }
        let module = imp.module.as_str();
        match self.lang(imp.file)? {
            Lang::Java => {
                let files = self.java_class_file(module);
                let ty = module.rsplit('.').next().unwrap_or(module).to_string();
                Some(Binding::Symbol(files, ty))
            }
            // `import a.b.C.*`: the members of `C`.
            #[cfg(feature = "lang-kotlin")]
            Lang::Kotlin => {
                let (files, ty) = self.kotlin_type(module);
                Some(Binding::Symbol(files, ty))
            }
            // `import a.Obj._`: the members of object `Obj`.
            #[cfg(feature = "lang-scala")]
            Lang::Scala => {
                let (pkg, obj) = module.rsplit_once('.').unwrap_or(("", module));
                let files = self.scala_defining(imp.file, pkg, obj);
                (!files.is_empty()).then(|| Binding::Symbol(files, obj.to_string()))
            }
            // `using static A.B.C;`: class `C` of namespace `A.B`.
            #[cfg(feature = "lang-csharp")]
            Lang::CSharp => {
                let files = self.csharp_class_files(module);
                let ty = module.rsplit('.').next().unwrap_or(module).to_string();
                (!files.is_empty()).then_some(Binding::Symbol(files, ty))
            }
            _ => None,
        }
    }

    pub(super) fn java_class_file(&self, dotted: &str) -> Vec<usize> {
        // A nested class: `a.b.Outer.Inner` lives in `a/b/Outer.java`; tried from the
        // whole name outwards, a few levels at most.
        let mut dotted = dotted;
        for _ in 0..8 {
            let rel = format!("{}.java", dotted.replace('.', "/"));
            let suffix = format!("/{rel}");
            let hits: Vec<usize> = self
                .files
                .iter()
                .enumerate()
                .filter(|(_, x)| x.path == rel || x.path.ends_with(&suffix))
                .map(|(i, _)| i)
                .collect();
            if !hits.is_empty() {
                return hits;
            }
            match dotted.rsplit_once('.') {
                Some((outer, _)) if outer.contains('.') => dotted = outer,
                _ => break,
            }
        }
        Vec::new()
    }

    pub(super) fn java_package(&self, dotted: &str) -> Vec<usize> {
        let rel = dotted.replace('.', "/");
        let suffix = format!("/{rel}");
        self.by_dir
            .iter()
            .filter(|(d, _)| d.ends_with(&suffix) || **d == rel)
            .flat_map(|(_, v)| v.iter().copied())
            .collect()
    }

    pub(super) fn go_package(&self, path: &str) -> Vec<usize> {
        for (module, dir) in &self.go_modules {
            let rest = if path == module {
                Some("")
            } else {
                path.strip_prefix(module.as_str())
                    .and_then(|r| r.strip_prefix('/'))
            };
            if let Some(rest) = rest {
                let d = match (dir.is_empty(), rest.is_empty()) {
                    (true, _) => rest.to_string(),
                    (false, true) => dir.clone(),
                    (false, false) => format!("{dir}/{rest}"),
                };
                return self
                    .by_dir
                    .get(&d)
                    .map(|v| {
                        v.iter()
                            .copied()
                            .filter(|&x| self.lang(x) == Some(Lang::Go))
                            .collect()
                    })
                    .unwrap_or_default();
            }
        }
        Vec::new()
    }

    /// The file a JavaScript or TypeScript module specifier names from file `from`: a
    /// relative path, a path mapped by the `tsconfig.json` over the file
    /// ([`Graph::ts_paths`]), or one of the repository's own packages by its
    /// `package.json` name ([`Graph::js_packages`]). Anything else is outside.
    pub(super) fn js_module(&self, from: usize, spec: &str) -> Vec<usize> {
        let dir = &self.files[from].dir;
        let found = if spec.starts_with('.') {
            self.js_file(&normalize_path(&join_dir(dir, spec)))
        } else {
            self.js_mapped(dir, spec).or_else(|| self.js_package(spec))
        };
        found.into_iter().collect()
    }

    /// A bare specifier through the path mappings of the configurations over folder
    /// `dir`, the nearest first: an exact pattern, else the wildcard pattern with the
    /// longest prefix, each target in order; then below `baseUrl`.
    fn js_mapped(&self, dir: &str, spec: &str) -> Option<usize> {
        for config in self.ts_paths.iter().filter(|t| is_within(dir, &t.dir)) {
            let mut best: Option<(usize, &Vec<String>, &str)> = None;
            for (pattern, targets) in &config.paths {
                if pattern == spec {
                    best = Some((usize::MAX, targets, ""));
                    break;
                }
                if let Some((pre, post)) = pattern.split_once('*')
                    && spec.len() >= pre.len() + post.len()
                    && let Some(star) = spec.strip_prefix(pre).and_then(|r| r.strip_suffix(post))
                    && best.is_none_or(|(n, _, _)| pre.len() > n)
                {
                    best = Some((pre.len(), targets, star));
                }
            }
            if let Some((_, targets, star)) = best {
                let hit = targets
                    .iter()
                    .find_map(|t| self.js_file(&normalize_path(&t.replacen('*', star, 1))));
                if hit.is_some() {
                    return hit;
                }
            }
            if let Some(base) = &config.base
                && let Some(hit) = self.js_file(&normalize_path(&format!("{base}/{spec}")))
            {
                return Some(hit);
            }
        }
        None
    }

    /// A bare specifier naming one of the repository's packages (`@vue/shared`), or a
    /// path inside one (`@vue/shared/src/general`): its entry file, or its `src/index`.
    fn js_package(&self, spec: &str) -> Option<usize> {
        for (name, dir, entries) in &self.js_packages {
            if spec == name {
                return entries
                    .iter()
                    .map(|e| normalize_path(e))
                    .chain([join_dir(dir, "src/index"), join_dir(dir, "index")])
                    .find_map(|p| self.js_file(&p));
            }
            if let Some(rest) = spec
                .strip_prefix(name.as_str())
                .and_then(|r| r.strip_prefix('/'))
            {
                return [join_dir(dir, rest), join_dir(dir, &format!("src/{rest}"))]
                    .iter()
                    .find_map(|p| self.js_file(&normalize_path(p)));
            }
        }
        None
    }

    /// The file a module path names (from the root, without `./`): itself, with a script
    /// extension, or its folder's `index`.
    fn js_file(&self, base: &str) -> Option<usize> {
        let stripped = base
            .strip_suffix(".js")
            .or_else(|| base.strip_suffix(".mjs"))
            .or_else(|| base.strip_suffix(".jsx"))
            .unwrap_or(base);
        let mut tries = vec![base.to_string()];
        for stem in [base, stripped] {
            for ext in ["ts", "tsx", "js", "jsx", "mjs", "cjs", "d.ts"] {
                tries.push(format!("{stem}.{ext}"));
            }
            for ext in ["ts", "tsx", "js", "jsx"] {
                tries.push(format!("{stem}/index.{ext}"));
            }
        }
        tries
            .into_iter()
            .find_map(|p| self.by_path.get(&p).copied())
    }

    pub(super) fn bind_python(&self, imp: &ImportRow) -> (Option<(String, Binding)>, Vec<usize>) {
        let f = imp.file;
        let module_files = self.python_module(f, &imp.module);
        match &imp.name {
            None if imp.wildcard => (None, module_files),
            None => {
                // `import a.b` binds `a`; `import a.b as x` binds `x` to `a.b`.
                match &imp.alias {
                    Some(alias) => {
                        let b = if module_files.is_empty() {
                            Binding::External(imp.module.clone())
                        } else {
                            Binding::Module(module_files.clone())
                        };
                        (Some((alias.clone(), b)), module_files)
                    }
                    None => {
                        let head = imp
                            .module
                            .split('.')
                            .next()
                            .unwrap_or(&imp.module)
                            .to_string();
                        let head_files = self.python_module(f, &head);
                        let b = if head_files.is_empty() {
                            Binding::External(head.clone())
                        } else {
                            Binding::Module(head_files)
                        };
                        (Some((head, b)), module_files)
                    }
                }
            }
            Some(name) => {
                let local = imp.alias.clone().unwrap_or_else(|| name.clone());
                if module_files.is_empty() {
                    // A namespace package (no `__init__.py`): its submodule.
                    let sub = self.python_module(f, &format!("{}.{name}", imp.module));
                    if !sub.is_empty() && !imp.module.starts_with('.') {
                        return (Some((local, Binding::Module(sub.clone()))), sub);
                    }
                    // A submodule of a package outside, or a name from outside.
                    return (
                        Some((
                            local,
                            Binding::External(format!(
                                "{}.{name}",
                                imp.module.trim_start_matches('.')
                            )),
                        )),
                        Vec::new(),
                    );
                }
                let defines = !self.top_level(&module_files, name).is_empty();
                let sub = self.python_module(f, &format!("{}.{name}", imp.module));
                let sub = if imp.module.chars().all(|c| c == '.') {
                    self.python_module(f, &format!("{}{name}", imp.module))
                } else {
                    sub
                };
                if !defines && !sub.is_empty() {
                    return (Some((local, Binding::Module(sub.clone()))), sub);
                }
                (
                    Some((local, Binding::Symbol(module_files.clone(), name.clone()))),
                    module_files,
                )
            }
        }
    }

    /// The files of a Python module, absolute (`a.b`) or relative (`.b`, `..`).
    pub(super) fn python_module(&self, from: usize, module: &str) -> Vec<usize> {
        let dots = module.chars().take_while(|&c| c == '.').count();
        if dots > 0 {
            let mut dir = self.files[from].dir.clone();
            for _ in 1..dots {
                dir = dir_of(&dir).to_string();
            }
            let rest = &module[dots..];
            let p = match (dir.is_empty(), rest.is_empty()) {
                (_, true) => format!("{dir}/__init__.py")
                    .trim_start_matches('/')
                    .to_string(),
                (true, false) => rest.replace('.', "/"),
                (false, false) => format!("{dir}/{}", rest.replace('.', "/")),
            };
            if rest.is_empty() {
                return self.by_path.get(&p).copied().into_iter().collect();
            }
            return self
                .by_path
                .get(&format!("{p}.py"))
                .or_else(|| self.by_path.get(&format!("{p}/__init__.py")))
                .copied()
                .into_iter()
                .collect();
        }
        let Some(cands) = self.python_modules.get(module) else {
            return Vec::new();
        };
        // Only modules under a root the interpreter would search: the shared roots, or the
        // importing file's own (a script's directory is on its path). The standard library
        // and installed packages are never captured by a same-named file elsewhere.
        let own = &self.files[from].dir;
        let mut cands: Vec<usize> = cands
            .iter()
            .filter(|(_, root)| self.python_roots.contains(root) || root == own)
            .map(|(c, _)| *c)
            .collect();
        cands.sort_unstable();
        cands.dedup();
        // The candidate whose package root is nearest the importing file.
        let from_dir = &self.files[from].dir;
        let best = cands.iter().copied().max_by_key(|&c| {
            let stem_dirs = module.split('.').count();
            let p = &self.files[c].path;
            let mut root = dir_of(p).to_string();
            let is_init = p.ends_with("__init__.py");
            for _ in 0..(stem_dirs - 1 + usize::from(is_init)) {
                root = dir_of(&root).to_string();
            }
            let exact_root = root.is_empty() || from_dir.starts_with(&root);
            (
                exact_root,
                common_prefix(from_dir, &root),
                std::cmp::Reverse(p.len()),
            )
        });
        best.into_iter().collect()
    }

    pub(super) fn bind_rust(&self, imp: &ImportRow) -> (Option<(String, Binding)>, Vec<usize>) {
        let f = imp.file;
        if imp.kind == ImportKind::ModDecl {
            let m = imp.module.as_str();
            let files = self.rust_child_module(f, m);
            if files.is_empty() {
                return (None, files);
            }
            return (Some((m.to_string(), Binding::Module(files.clone()))), files);
        }
        if imp.wildcard {
            return (None, self.rust_module(f, &imp.module).unwrap_or_default());
        }
        let Some(name) = &imp.name else {
            // `use a::b::{self}`: the module itself.
            let files = self.rust_module(f, &imp.module).unwrap_or_default();
            let alias = imp.alias.clone().unwrap_or_default();
            let b = if files.is_empty() {
                Binding::External(imp.module.clone())
            } else {
                Binding::Module(files.clone())
            };
            return (Some((alias, b)), files);
        };
        let local = imp.alias.clone().unwrap_or_else(|| name.clone());
        let full = if imp.module.is_empty() {
            name.clone()
        } else {
            format!("{}::{name}", imp.module)
        };
        if let Some(files) = self.rust_module(f, &full) {
            return (Some((local, Binding::Module(files.clone()))), files);
        }
        match self.rust_module(f, &imp.module) {
            Some(files) => (
                Some((local, Binding::Symbol(files.clone(), name.clone()))),
                files,
            ),
            None => (Some((local, Binding::External(full))), Vec::new()),
        }
    }

    /// Whether two Rust files belong to the same crate (the same `src` root).
    pub(super) fn same_crate(&self, a: usize, b: usize) -> bool {
        self.crate_of[a] == self.crate_of[b]
    }

    /// The crate source directory and module path of a Rust file.
    pub(super) fn rust_module_of(&self, f: usize) -> (String, Vec<String>) {
        let (root, rel) = crate_root(&self.files[f].path, &self.files[f].dir);
        let rel = rel.trim_end_matches(".rs");
        let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
        if matches!(parts.last().map(String::as_str), Some("mod")) {
            parts.pop();
        } else if parts.len() == 1 && matches!(parts[0].as_str(), "main" | "lib") {
            parts.clear();
        }
        (root, parts)
    }

    pub(super) fn rust_file(&self, root: &str, parts: &[String]) -> Option<usize> {
        if parts.is_empty() {
            return self
                .by_path
                .get(&format!("{root}/lib.rs"))
                .or_else(|| self.by_path.get(&format!("{root}/main.rs")))
                .copied();
        }
        let p = parts.join("/");
        let base = if root.is_empty() {
            p
        } else {
            format!("{root}/{p}")
        };
        self.by_path
            .get(&format!("{base}.rs"))
            .or_else(|| self.by_path.get(&format!("{base}/mod.rs")))
            .copied()
    }

    pub(super) fn rust_child_module(&self, f: usize, m: &str) -> Vec<usize> {
        let (root, mut parts) = self.rust_module_of(f);
        parts.push(m.to_string());
        self.rust_file(&root, &parts).into_iter().collect()
    }

    /// The file of a module path written in `f` (`crate::a::b`, `super::x`, `self::y`,
    /// `a::b` relative to the current module or the crate root).
    pub(super) fn rust_module(&self, f: usize, path: &str) -> Option<Vec<usize>> {
        let (mut root, cur) = self.rust_module_of(f);
        let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        let (mut at, rest): (Vec<String>, &[&str]) = match segs.first().copied() {
            Some("crate") => (Vec::new(), &segs[1..]),
            Some("self") => (cur.clone(), &segs[1..]),
            Some("super") => {
                let mut m = cur.clone();
                let mut i = 0;
                while segs.get(i) == Some(&"super") {
                    m.pop();
                    i += 1;
                }
                (m, &segs[i..])
            }
            Some(first) => {
                let mut child = cur.clone();
                child.push(first.to_string());
                if self.rust_file(&root, &child).is_some() {
                    (child, &segs[1..])
                } else if self.rust_file(&root, &[first.to_string()]).is_some() {
                    (vec![first.to_string()], &segs[1..])
                } else {
                    // A name brought in by `use` in this file, or another crate of the
                    // workspace by its name.
                    match self.scopes.get(f).and_then(|s| s.names.get(first)) {
                        Some(Binding::Module(files)) if files.len() == 1 => {
                            let (_, m) = self.rust_module_of(files[0]);
                            (m, &segs[1..])
                        }
                        _ => match self.rust_crates.get(first) {
                            Some(src) => {
                                root = src.clone();
                                (Vec::new(), &segs[1..])
                            }
                            None => return None,
                        },
                    }
                }
            }
            None => return None,
        };
        for s in rest {
            at.push((*s).to_string());
            self.rust_file(&root, &at)?;
        }
        self.rust_file(&root, &at).map(|x| vec![x])
    }
}

/// A Rust file's crate root (the nearest `src` directory, a binary's folder under
/// `src/bin`, or the file's own directory) and its path below it.
pub(super) fn crate_root(path: &str, dir: &str) -> (String, String) {
    match path.rfind("src/") {
        // Each binary under `src/bin/` is a crate of its own, whose modules are beside
        // its root file: `src/bin/x/main.rs` roots at `src/bin/x`, `src/bin/x.rs` at
        // `src/bin`.
        Some(i) if path.ends_with(".rs") && path[i + 4..].starts_with("bin/") => {
            let bin = &path[i + 8..];
            match bin.split_once('/') {
                Some((name, below)) => (format!("{}/{name}", &path[..i + 7]), below.to_string()),
                None => (path[..i + 7].to_string(), "main.rs".to_string()),
            }
        }
        Some(i) => (path[..i + 3].to_string(), path[i + 4..].to_string()),
        None => (
            dir.to_string(),
            path.rsplit('/').next().unwrap_or(path).to_string(),
        ),
    }
}

/// The name a Go import brings into scope when it has no alias, as Go's own tools guess
/// it without loading the package: the path's last element, or the one before a major
/// version (`github.com/labstack/echo/v5` → `echo`), without a `go-` prefix and cut at
/// the first character a name cannot hold (`gopkg.in/yaml.v3` → `yaml`, `go-isatty` →
/// `isatty`).
pub(super) fn go_package_name(path: &str) -> &str {
    let mut elements = path.rsplit('/');
    let mut base = elements.next().unwrap_or(path);
    let is_version =
        base.len() > 1 && base.starts_with('v') && base[1..].bytes().all(|b| b.is_ascii_digit());
    if is_version && let Some(before) = elements.next() {
        base = before;
    }
    let base = base.strip_prefix("go-").unwrap_or(base);
    let end = base
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(base.len());
    &base[..end]
}

pub(super) fn common_prefix(a: &str, b: &str) -> usize {
    a.split('/')
        .zip(b.split('/'))
        .take_while(|(x, y)| x == y)
        .count()
}

/// Whether folder `dir` holds package `pkg` (`a.b`) by convention: it is `a/b` or ends in
/// `/a/b` (sbt's `src/main/scala/a/b`), or it is such a folder's `src…` child (Mill's
/// `a/b/src`, `a/b/src-jvm`). The empty package is the root.
#[cfg(feature = "lang-scala")]
fn scala_in_package(dir: &str, pkg: &str) -> bool {
    let rel = pkg.replace('.', "/");
    let dir = scala_package_dir(dir);
    dir == rel || dir.ends_with(&format!("/{rel}"))
}

/// The folder whose path names a Scala file's package: its own, or its parent for a
/// `src…` folder (Mill's `a/b/src`, `a/b/src-jvm`; a top-level `src` is the root).
#[cfg(feature = "lang-scala")]
fn scala_package_dir(dir: &str) -> &str {
    match dir.rsplit_once('/') {
        Some((parent, last)) if last.starts_with("src") => parent,
        None if dir.starts_with("src") => "",
        _ => dir,
    }
}

/// The Scala files by each package their folder holds by [`scala_in_package`]'s
/// convention: a folder `a/b/c` (or its `src…` child) may hold `a.b.c`, `b.c` and `c`, keyed
/// `a/b/c`, `b/c` and `c`; a file at the root (or in a top-level `src…`) holds the empty
/// package. Built once, so a call's qualifier is looked up rather than matched against
/// every folder.
#[cfg(feature = "lang-scala")]
pub(super) fn scala_packages(files: &[File]) -> HashMap<String, Vec<usize>> {
    let mut packages: HashMap<String, Vec<usize>> = HashMap::default();
    for (i, f) in files.iter().enumerate() {
        if f.lang != Some(Lang::Scala) {
            continue;
        }
        let dir = scala_package_dir(&f.dir);
        packages.entry(dir.to_string()).or_default().push(i);
        for (at, _) in dir.match_indices('/') {
            packages
                .entry(dir[at + 1..].to_string())
                .or_default()
                .push(i);
        }
    }
    packages
}

/// `a/./b/../c` → `a/c`.
pub(super) fn normalize_path(p: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            s => out.push(s),
        }
    }
    out.join("/")
}

/// The folder of the Swift module (a SwiftPM target) a file belongs to, whose files see
/// each other's top-level names without an import: the nearest `Sources/<Name>`,
/// `Tests/<Name>` or `Plugins/<Name>` above the file; else its top-level folder (an app's
/// sources, `Source/` of a package laid out by hand), or the root for a file there.
#[cfg(feature = "lang-swift")]
pub(super) fn swift_module_root(path: &str) -> &str {
    let segs: Vec<(usize, &str)> = path
        .split('/')
        .scan(0usize, |at, s| {
            let start = *at;
            *at += s.len() + 1;
            Some((start, s))
        })
        .collect();
    // The folder after a `Sources/`, never the file itself (the last segment).
    let dirs = segs.len().saturating_sub(1);
    if let Some(i) = (0..dirs.saturating_sub(1))
        .rev()
        .find(|&i| matches!(segs[i].1, "Sources" | "Tests" | "Plugins"))
    {
        let (start, name) = segs[i + 1];
        return &path[..start + name.len()];
    }
    if dirs > 0 { segs[0].1 } else { "" }
}

#[cfg(all(test, feature = "lang-scala"))]
mod tests {
    use super::*;

    /// The package table answers as matching `scala_in_package` against every folder did.
    #[test]
    fn scala_package_table_matches_the_folder_convention() {
        let dirs = [
            "",
            "src",
            "core/src/main/scala/cats/syntax",
            "os/src",
            "os/src-jvm",
            "a/b",
            "b",
            "scala-2.13/cats",
        ];
        let files: Vec<File> = dirs
            .iter()
            .enumerate()
            .map(|(i, d)| File {
                id: i as i64,
                path: format!("{d}/F{i}.scala"),
                lang: Some(Lang::Scala),
                family: 0,
                dir: d.to_string(),
            })
            .collect();
        let table = scala_packages(&files);
        for pkg in [
            "",
            "cats.syntax",
            "syntax",
            "os",
            "a.b",
            "b",
            "cats",
            "scala-2.13.cats",
            "x",
        ] {
            let want: Vec<usize> = (0..files.len())
                .filter(|&f| scala_in_package(&files[f].dir, pkg))
                .collect();
            let got = table
                .get(&pkg.replace('.', "/"))
                .cloned()
                .unwrap_or_default();
            assert_eq!(got, want, "package {pkg:?}");
        }
        assert_eq!(table.get("os"), Some(&vec![3, 4]));
    }
}
