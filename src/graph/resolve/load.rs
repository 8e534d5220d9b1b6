//! Reading the store into the in-memory tables resolution works on: files, definitions
//! interned by name, imports and call rows (all of them, or only the affected ones).

use std::path::Path;

use anyhow::Result;
use rusqlite::Connection;

use super::*;

pub(super) fn load(conn: &Connection, root: &Path) -> Result<Graph> {
    let mut files = Vec::new();
    let mut by_path = HashMap::default();
    let mut file_index: HashMap<i64, usize> = HashMap::default();
    {
        let mut stmt = conn.prepare("SELECT id, path, lang FROM files ORDER BY path")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let path: String = r.get(1)?;
            let lang: String = r.get(2)?;
            file_index.insert(r.get(0)?, files.len());
            by_path.insert(path.clone(), files.len());
            let lang = Lang::named(&lang);
            files.push(File {
                id: r.get(0)?,
                dir: dir_of(&path).to_string(),
                lang,
                family: lang.map_or(u8::MAX, family),
                path,
            });
        }
    }
    let mut syms: Vec<Sym> = Vec::new();
    let mut param_types_by_id: HashMap<i64, Params> = HashMap::default();
    let mut names = Names::default();
    let mut base_list = Vec::new();
    // Parents stored after their children (rare): set once every symbol is read.
    let mut later: Vec<(usize, i64)> = Vec::new();
    {
        let mut stmt = conn.prepare(
            "SELECT id, file_id, parent_id, name, qualname, kind, signature FROM symbols ORDER BY id",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let Some(&file) = file_index.get(&r.get::<_, i64>(1)?) else {
                continue;
            };
            let i = syms.len();
            let parent = match r.get::<_, Option<i64>>(2)? {
                Some(p) => match syms.binary_search_by_key(&p, |s| s.id) {
                    Ok(at) => at as u32,
                    Err(_) => {
                        later.push((i, p));
                        NONE
                    }
                },
                None => NONE,
            };
            let lang = files[file].lang;
            let sep = lang.map_or(".", Lang::separator);
            let qualname = r.get_ref(4)?.as_str()?;
            let owner = match rsplit_sep(qualname, sep) {
                Some((owner, _)) => names.intern(rsplit_sep(owner, sep).map_or(owner, |(_, o)| o)),
                None => NONE,
            };
            let name = r.get_ref(3)?.as_str()?;
            let kind = SymbolKind::parse(r.get_ref(5)?.as_str()?);
            let signature = r.get_ref(6)?.as_str()?;
            let mut returns = NONE;
            let mut params = ANY_ARITY;
            if let Some(lang) = lang {
                if lang.spec().resolve.overloads
                    && let Some(p) = param_range(lang, signature, name)
                {
                    params = p;
                    if let Some(t) = param_types(lang, signature, name) {
                        param_types_by_id.insert(r.get::<_, i64>(0)?, t);
                    }
                }
                if is_type_kind(kind) {
                    for b in bases(lang, signature) {
                        base_list.push((i as u32, names.intern(&b)));
                    }
                } else if let Some(t) = return_type(lang, signature, name) {
                    returns = names.intern(&t);
                }
            }
            syms.push(Sym {
                id: r.get(0)?,
                file: file as u32,
                parent,
                name: names.intern(name),
                owner,
                returns,
                kind,
                is_static: signature.starts_with("static "),
                params,
            });
        }
    }
    // Fields by (type name, field name), in file order (by path) for a stable choice.
    let mut fields: HashMap<(u32, u32), Vec<(usize, Receiver)>> = HashMap::default();
    {
        let mut stmt = conn.prepare("SELECT file_id, owner, name, type FROM fields")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let Some(&file) = file_index.get(&r.get::<_, i64>(0)?) else {
                continue;
            };
            let key = (
                names.intern(r.get_ref(1)?.as_str()?),
                names.intern(r.get_ref(2)?.as_str()?),
            );
            let ty = Receiver::decode(r.get_ref(3)?.as_str()?);
            fields.entry(key).or_default().push((file, ty));
        }
        for list in fields.values_mut() {
            list.sort_by_key(|(f, _)| *f);
        }
    }
    for (i, p) in later {
        if let Ok(at) = syms.binary_search_by_key(&p, |s| s.id) {
            syms[i].parent = at as u32;
        }
    }
    // Where several definitions fit, resolution takes the first in `syms`. Store ids
    // follow the order the parse workers finished in, which varies from run to run; the
    // order of files by path, then of ids within a file (its own order), does not.
    let mut order: Vec<u32> = (0..syms.len() as u32).collect();
    order.sort_unstable_by_key(|&i| (syms[i as usize].file, syms[i as usize].id));
    let mut position = vec![0u32; syms.len()];
    for (new, &old) in order.iter().enumerate() {
        position[old as usize] = new as u32;
    }
    let by_id: Vec<(i64, u32)> = syms
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id, position[i]))
        .collect();
    let mut slots: Vec<Option<Sym>> = syms.into_iter().map(Some).collect();
    let syms: Vec<Sym> = order
        .iter()
        .filter_map(|&old| slots[old as usize].take())
        .map(|mut s| {
            if s.parent != NONE {
                s.parent = position[s.parent as usize];
            }
            s
        })
        .collect();
    for b in &mut base_list {
        b.0 = position[b.0 as usize];
    }
    base_list.sort_unstable();
    let file_syms = Lists::group(
        files.len(),
        syms.iter().enumerate().map(|(i, s)| (s.file, i as u32)),
    );
    let children = Lists::group(
        syms.len(),
        syms.iter()
            .enumerate()
            .filter(|(_, s)| s.parent != NONE)
            .map(|(i, s)| (s.parent, i as u32)),
    );
    let by_name = Lists::group(
        names.strs.len(),
        syms.iter().enumerate().map(|(i, s)| (s.name, i as u32)),
    );
    let mut members: Vec<(u32, u32, u32)> = syms
        .iter()
        .enumerate()
        .filter(|(_, s)| s.owner != NONE)
        .map(|(i, s)| (s.owner, s.name, i as u32))
        .collect();
    members.sort_unstable();
    let mut by_dir: HashMap<String, Vec<usize>> = HashMap::default();
    // Python resolves an absolute import from its import roots, never from the importing
    // file's folder: the repository root, `src/`, the directory above each topmost regular
    // package (a directory with an `__init__.py`), and a script's own directory.
    // Directories below a root are packages with or without `__init__.py` (PEP 420).
    let packages: HashSet<&str> = files
        .iter()
        .filter(|f| f.lang == Some(Lang::Python))
        .filter(|f| {
            let name = f.path.rsplit('/').next().unwrap_or(&f.path);
            name == "__init__.py" || name == "__init__.pyi"
        })
        .map(|f| f.dir.as_str())
        .collect();
    let mut python_roots: HashSet<String> = HashSet::from_iter([String::new(), "src".to_string()]);
    for p in &packages {
        let mut d: &str = p;
        while !d.is_empty() && packages.contains(d) {
            d = dir_of(d);
        }
        python_roots.insert(d.to_string());
    }
    let mut python_modules: HashMap<String, Vec<(usize, String)>> = HashMap::default();
    let mut go_modules = Vec::new();
    let mut js_packages: Vec<(String, String, Vec<String>)> = Vec::new();
    let mut ts_paths: Vec<TsPaths> = Vec::new();
    let mut rust_crates = HashMap::default();
    let mut cargo_packages: Vec<(String, String)> = Vec::new();
    #[cfg(feature = "lang-swift")]
    let mut swift_modules: HashMap<String, Vec<usize>> = HashMap::default();
    for (i, f) in files.iter().enumerate() {
        by_dir.entry(f.dir.clone()).or_default().push(i);
        #[cfg(feature = "lang-swift")]
        if f.lang == Some(Lang::Swift) {
            swift_modules
                .entry(swift_module_root(&f.path).to_string())
                .or_default()
                .push(i);
        }
        if f.lang == Some(Lang::Python) {
            let stem = f.path.trim_end_matches(".pyi").trim_end_matches(".py");
            let stem = stem.strip_suffix("/__init__").unwrap_or(stem);
            let shared = python_roots.iter().filter(|r| is_within(&f.dir, r));
            let mut roots: Vec<&String> = shared.collect();
            // A script's directory is on its own path; a regular package's is not (Python
            // 3 has no implicit relative imports).
            if !python_roots.contains(&f.dir) && !packages.contains(f.dir.as_str()) {
                roots.push(&f.dir);
            }
            for root in roots {
                let below = if root.is_empty() {
                    Some(stem)
                } else {
                    stem.strip_prefix(root.as_str())
                        .and_then(|s| s.strip_prefix('/'))
                };
                if let Some(below) = below.filter(|b| !b.is_empty() && *b != "__init__") {
                    python_modules
                        .entry(below.replace('/', "."))
                        .or_default()
                        .push((i, root.clone()));
                }
            }
        }
        if (f.path == "go.mod" || f.path.ends_with("/go.mod"))
            && let Ok(bytes) = crate::source::read(root, &f.path, 1 << 20)
            && let Ok(text) = String::from_utf8(bytes)
            && let Some(m) = text.lines().find_map(|l| l.trim().strip_prefix("module "))
        {
            go_modules.push((m.trim().trim_matches('"').to_string(), f.dir.clone()));
        }
        let file_name = f.path.rsplit('/').next().unwrap_or(&f.path);
        if file_name == "package.json"
            && !crate::source::is_test_path(&f.path)
            && let Some(json) = read_json(root, &f.path)
            && let Some(name) = json.get("name").and_then(|n| n.as_str())
        {
            let entries = package_entries(&json)
                .into_iter()
                .map(|e| join_dir(&f.dir, &e))
                .collect();
            js_packages.push((name.to_string(), f.dir.clone(), entries));
        }
        if matches!(
            file_name,
            "tsconfig.json" | "tsconfig.base.json" | "jsconfig.json"
        ) && !crate::source::is_test_path(&f.path)
            && let Some(json) = read_json(root, &f.path)
            && let Some(paths) = ts_config_paths(&f.dir, &json)
        {
            ts_paths.push(paths);
        }
        if (f.path == "Cargo.toml" || f.path.ends_with("/Cargo.toml"))
            && let Ok(bytes) = crate::source::read(root, &f.path, 1 << 20)
            && let Ok(text) = String::from_utf8(bytes)
            && let Some(name) = cargo_package_name(&text)
        {
            cargo_packages.push((name.replace('-', "_"), join_dir(&f.dir, "src")));
        }
    }
    // A package name may be written by more than one `Cargo.toml` (sharkdp/bat's test data
    // holds a `Cargo.toml` named `bat`): the crate is the one whose `src` holds Rust code,
    // the shallowest of those.
    let rust_dirs: HashSet<&str> = files
        .iter()
        .filter(|f| f.lang == Some(Lang::Rust))
        .flat_map(|f| {
            std::iter::successors(Some(f.dir.as_str()), |d| (!d.is_empty()).then(|| dir_of(d)))
        })
        .collect();
    cargo_packages
        .sort_by_key(|(_, src)| (!rust_dirs.contains(src.as_str()), src.matches('/').count()));
    for (name, src) in cargo_packages {
        rust_crates.entry(name).or_insert(src);
    }
    js_packages.sort_by_key(|(_, dir, _)| depth(dir));
    ts_paths.sort_by_key(|t| std::cmp::Reverse(depth(&t.dir)));
    let mut crates: HashMap<String, usize> = HashMap::default();
    let crate_of = files
        .iter()
        .map(|f| {
            let n = crates.len();
            *crates.entry(crate_root(&f.path, &f.dir).0).or_insert(n)
        })
        .collect();
    #[cfg(feature = "lang-scala")]
    let scala_packages = super::imports::scala_packages(&files);
    Ok(Graph {
        crate_of,
        files,
        syms,
        names,
        bases: base_list,
        by_id,
        file_syms,
        children,
        by_name,
        members,
        fields,
        by_path,
        by_dir,
        python_modules,
        python_roots,
        go_modules,
        js_packages,
        ts_paths,
        #[cfg(feature = "lang-swift")]
        swift_modules,
        #[cfg(feature = "lang-scala")]
        scala_packages,
        packages: HashMap::default(),
        param_types: param_types_by_id,
        rust_crates,
        scopes: Vec::new(),
        file_index,
    })
}

pub(super) fn load_imports(conn: &Connection, g: &Graph) -> Result<Vec<ImportRow>> {
    let index = &g.file_index;
    let mut stmt = conn.prepare(
        "SELECT id, file_id, module, name, alias, wildcard, target_file_id, kind FROM imports ORDER BY id",
    )?;
    let mut rows = stmt.query([])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let Some(&file) = index.get(&r.get::<_, i64>(1)?) else {
            continue;
        };
        out.push(ImportRow {
            id: r.get(0)?,
            file,
            module: r.get(2)?,
            name: r.get(3)?,
            alias: r.get(4)?,
            wildcard: r.get(5)?,
            target: r.get(6)?,
            kind: r.get(7)?,
        });
    }
    Ok(out)
}

pub(super) const CALL_COLUMNS: &str =
    "id, file_id, caller_id, name, qualifier, kind, receiver_type,
    callee_id, resolution, candidates, external, precise, args, arg_types";

/// The calls an incremental run must revisit (see [`Affected`]).
pub(super) fn load_affected_calls(
    conn: &Connection,
    g: &Graph,
    files: &std::collections::HashSet<i64>,
    names: &std::collections::HashSet<String>,
) -> Result<Vec<CallRow>> {
    let chains = serde_json::to_string(&chains_through(conn, names)?)?;
    let names: Vec<&String> = names.iter().collect();
    let names_json = serde_json::to_string(&names)?;
    let mut calls = load_calls(
        conn,
        g,
        "WHERE name IN (SELECT value FROM json_each(?1))
         UNION ALL SELECT {CALL_COLUMNS} FROM calls
         WHERE receiver_call IN (SELECT value FROM json_each(?1))
         UNION ALL SELECT {CALL_COLUMNS} FROM calls WHERE precise = 1
         UNION ALL SELECT {CALL_COLUMNS} FROM calls WHERE id IN (SELECT value FROM json_each(?2))",
        rusqlite::params![names_json, chains],
    )?;
    for f in files {
        calls.extend(load_calls(
            conn,
            g,
            "WHERE id BETWEEN (SELECT calls_lo FROM files WHERE id = ?1)
                          AND (SELECT calls_hi FROM files WHERE id = ?1)",
            rusqlite::params![f],
        )?);
    }
    calls.sort_by_key(|c| c.id);
    calls.dedup_by_key(|c| c.id);
    Ok(calls)
}

/// The names of the fields `files` state.
pub(super) fn field_names(
    conn: &Connection,
    files: &std::collections::HashSet<i64>,
) -> Result<Vec<String>> {
    let ids = serde_json::to_string(&files.iter().collect::<Vec<_>>())?;
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT name FROM fields WHERE file_id IN (SELECT value FROM json_each(?1))",
    )?;
    let rows = stmt.query_map([ids], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The calls whose receiver is typed through a chain ([`crate::model::ANY_CALL`]:
/// `<Handler>.server.environ`, `make().colors`) that names one of `names`: the types,
/// fields and callees along it are what a change elsewhere can type differently. The
/// others keep their callee, as a call on a typed receiver does. (Every one was read and
/// resolved again before: 37,533 of the stdlib's 350,281 calls go through a chain, and
/// they doubled a one-file edit's graph stage.)
fn chains_through(
    conn: &Connection,
    names: &std::collections::HashSet<String>,
) -> Result<Vec<i64>> {
    let mut stmt =
        conn.prepare_cached("SELECT id, receiver_type FROM calls WHERE receiver_call = ?1")?;
    let mut rows = stmt.query([crate::model::ANY_CALL])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let chain = r.get_ref(1)?.as_str_or_null()?.unwrap_or("");
        let names_one = chain
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .any(|part| !part.is_empty() && names.contains(part));
        if names_one {
            out.push(r.get::<_, i64>(0)?);
        }
    }
    Ok(out)
}

/// The calls a `filter` (SQL after `FROM calls`, with `{CALL_COLUMNS}` standing for
/// the column list) selects, in id order. Values go in `params`, never into the text.
pub(super) fn load_calls(
    conn: &Connection,
    g: &Graph,
    filter: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<CallRow>> {
    let filter = filter.replace("{CALL_COLUMNS}", CALL_COLUMNS);
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT * FROM (SELECT {CALL_COLUMNS} FROM calls {filter}) ORDER BY id"
    ))?;
    let mut out = Vec::new();
    read_calls(stmt.query(params)?, g, &mut out)?;
    Ok(out)
}

/// Appends the calls of `rows` (of [`CALL_COLUMNS`]) to `out`; returns the id of the
/// last row read, if any.
pub(super) fn read_calls(
    mut rows: rusqlite::Rows<'_>,
    g: &Graph,
    out: &mut Vec<CallRow>,
) -> Result<Option<i64>> {
    let mut last = None;
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        last = Some(id);
        let Some(&file) = g.file_index.get(&r.get::<_, i64>(1)?) else {
            continue;
        };
        out.push(CallRow {
            id,
            file,
            caller: r.get::<_, Option<i64>>(2)?.and_then(|c| g.symbol_at(c)),
            name: r.get(3)?,
            qualifier: r.get(4)?,
            kind: CallKind::parse(&r.get::<_, String>(5)?),
            receiver_type: r.get(6)?,
            old: (r.get(7)?, r.get(8)?, r.get(9)?, r.get(10)?),
            precise: r.get::<_, i64>(11)? != 0,
            args: r.get(12)?,
            arg_types: r.get(13)?,
        });
    }
    Ok(last)
}

/// `s` split at the last `sep`: `rsplit_once`, with a byte search for the one-byte
/// separators of most languages (the symbol table of a large repository is read on
/// every run that resolves the graph).
fn rsplit_sep<'a>(s: &'a str, sep: &str) -> Option<(&'a str, &'a str)> {
    match *sep.as_bytes() {
        // An ASCII byte never falls inside a multi-byte character.
        [b] if b.is_ascii() => s
            .bytes()
            .rposition(|c| c == b)
            .map(|i| (&s[..i], &s[i + 1..])),
        _ => s.rsplit_once(sep),
    }
}

/// Whether directory `dir` is `root` or below it (`""` is the repository root).
pub(super) fn is_within(dir: &str, root: &str) -> bool {
    root.is_empty()
        || dir
            .strip_prefix(root)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// A JSON file of the repository, read as JSON with comments and trailing commas
/// (`tsconfig.json` allows both); None when it cannot be read or parsed.
fn read_json(root: &Path, path: &str) -> Option<serde_json::Value> {
    let bytes = crate::source::read(root, path, 1 << 20).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    serde_json::from_str(&strip_jsonc(&text)).ok()
}

/// JSON with comments made JSON: `//` and `/* */` comments outside strings dropped, and
/// a comma before a closing bracket.
pub(super) fn strip_jsonc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                out.push(' ');
            }
            (']' | '}', _) => {
                let kept = out.trim_end().len();
                if out[..kept].ends_with(',') {
                    out.truncate(kept - 1);
                }
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// The files a `package.json` names as its entry, relative to its folder, in the order a
/// bundler reads them: `source`, the `.` of `exports` (a path, or its `types`, `import`
/// or `default`), `module`, `main`, `types`.
fn package_entries(json: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut push = |v: Option<&serde_json::Value>| {
        if let Some(s) = v.and_then(|v| v.as_str()) {
            out.push(s.trim_start_matches("./").to_string());
        }
    };
    push(json.get("source"));
    let dot = match json.get("exports") {
        Some(e) if e.is_string() => Some(e),
        Some(e) => e.get("."),
        None => None,
    };
    match dot {
        Some(d) if d.is_string() => push(Some(d)),
        Some(d) => {
            for k in ["types", "import", "default"] {
                push(d.get(k));
            }
        }
        None => {}
    }
    for k in ["module", "main", "types", "typings"] {
        push(json.get(k));
    }
    out
}

/// A `tsconfig.json`'s module paths in folder `dir`: its `compilerOptions.paths`, each
/// target from the repository's root (below `baseUrl` when it sets one, else below the
/// configuration's folder). None without `paths` or `baseUrl`.
fn ts_config_paths(dir: &str, json: &serde_json::Value) -> Option<TsPaths> {
    let options = json.get("compilerOptions")?;
    let base = options
        .get("baseUrl")
        .and_then(|b| b.as_str())
        .map(|b| normalize_path(&join_dir(dir, b)));
    let from = base.clone().unwrap_or_else(|| dir.to_string());
    let mut paths = Vec::new();
    if let Some(map) = options.get("paths").and_then(|p| p.as_object()) {
        for (pattern, targets) in map {
            let targets: Vec<String> = targets
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|t| t.as_str())
                .map(|t| normalize_path(&join_dir(&from, t)))
                .collect();
            if !targets.is_empty() {
                paths.push((pattern.clone(), targets));
            }
        }
    }
    (!paths.is_empty() || base.is_some()).then(|| TsPaths {
        dir: dir.to_string(),
        base,
        paths,
    })
}

/// How many folders deep `dir` is (the root, `""`, is 0).
fn depth(dir: &str) -> usize {
    if dir.is_empty() {
        0
    } else {
        dir.matches('/').count() + 1
    }
}

/// `path` below folder `dir` (`""` is the repository root).
pub(super) fn join_dir(dir: &str, path: &str) -> String {
    let path = path.trim_start_matches("./");
    if dir.is_empty() {
        path.to_string()
    } else {
        format!("{dir}/{path}")
    }
}

/// The `name` of a `Cargo.toml`'s `[package]` table, read line by line (a workspace's root
/// manifest without a package has none).
fn cargo_package_name(text: &str) -> Option<&str> {
    let mut in_package = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_package = line == "[package]";
        } else if in_package
            && let Some(rest) = line.strip_prefix("name")
            && let Some(value) = rest.trim_start().strip_prefix('=')
        {
            let v = value.trim().trim_matches('"');
            return (!v.is_empty()).then_some(v);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{rsplit_sep, strip_jsonc};

    #[test]
    fn json_with_comments_reads_as_json() {
        let text = "{\n  // a comment\n  \"url\": \"http://x/*y*/\", /* a block */\n  \"a\": [1, 2,],\n  \"q\": \"say \\\"hi\\\" // not a comment\",\n}\n";
        let v: serde_json::Value =
            serde_json::from_str(&strip_jsonc(text)).expect("valid JSON once stripped");
        assert_eq!(v["url"], "http://x/*y*/");
        assert_eq!(v["a"], serde_json::json!([1, 2]));
        assert_eq!(v["q"], "say \"hi\" // not a comment");
    }

    #[test]
    fn rsplit_sep_cuts_at_the_last_separator_of_any_length() {
        assert_eq!(rsplit_sep("a.b.c", "."), Some(("a.b", "c")));
        assert_eq!(
            rsplit_sep("crate::kv::Key", "::"),
            Some(("crate::kv", "Key"))
        );
        assert_eq!(rsplit_sep("größe.länge", "."), Some(("größe", "länge")));
        assert_eq!(rsplit_sep("plain", "."), None);
        assert_eq!(rsplit_sep("a::b", "."), None);
    }
}
