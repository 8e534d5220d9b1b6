//! The history queries behind `llmc log`: the commits that touched a definition, a file
//! (following renames) or a directory, or every commit, filtered by date, author and
//! message, newest first.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;

use anyhow::Result;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

/// What `llmc log` was asked about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Target {
    /// Every commit.
    All,
    /// One file, followed across renames.
    File { path: String },
    /// Every file under a directory.
    Dir { path: String },
    /// A definition by name, qualified name (`Stack::push`, `Scheduler.run`), or
    /// `path:name` to pick the one in a file.
    Symbol { name: String, path: Option<String> },
}

/// Filters on the commits.
#[derive(Debug, Clone, Default)]
pub struct LogFilter {
    /// Author date at or after (seconds since the epoch).
    pub since: Option<i64>,
    /// Author date at or before.
    pub until: Option<i64>,
    /// Substring of the author's name or email, any case.
    pub author: Option<String>,
    /// Substring of the commit message, any case.
    pub grep: Option<String>,
    pub limit: Option<usize>,
    /// Skip the first this many matching commits (a later page); they still count in
    /// [`Log::total`].
    pub offset: usize,
    /// Oldest first (the introducing commit at the top) instead of newest first.
    pub oldest_first: bool,
    /// Stems of which a commit's message must hold at least two, each at the start of a
    /// word, any case (a "why" question in words); for the whole repository, the commits
    /// holding more of them come first. A word may list stems that stand for each other,
    /// separated by `|` (`arg|param|keyword`): a message holds it when it holds any.
    pub words: Vec<String>,
}

/// One commit of a log.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct LogCommit {
    pub commit: String,
    /// Author date, ISO 8601.
    pub date: String,
    pub author: String,
    pub email: String,
    pub subject: String,
    pub body: String,
    pub parents: Vec<String>,
    /// The commit's changed files that concern the target (all for a whole-repo log).
    pub files: Vec<LogFile>,
    /// The definitions it touched that concern the target.
    pub symbols: Vec<LogSymbol>,
}

/// A file a commit changed.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct LogFile {
    pub path: String,
    pub old_path: Option<String>,
    pub status: String,
    /// `None` for binary files.
    pub added: Option<u32>,
    pub removed: Option<u32>,
}

/// A definition a commit touched.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct LogSymbol {
    pub path: String,
    pub symbol: String,
    pub name: String,
    pub kind: String,
    /// `added`, `modified` or `deleted`.
    pub change: String,
    pub added: u32,
    pub removed: u32,
    pub start_line: u32,
    pub end_line: u32,
    /// The hunks that overlap it, as `@@ -a,b +c,d @@`.
    pub hunks: Vec<String>,
}

/// The result of a log query.
#[derive(Debug, Clone, Serialize)]
pub struct Log {
    pub target: Target,
    pub commits: Vec<LogCommit>,
    /// How many commits match, before the offset and the limit cut the list.
    pub total: usize,
    /// For a symbol: every distinct `path:qualname` the name matched in the history.
    pub matched: Vec<String>,
    /// While the history is read in part: how far back it reaches ([`partial_note`]).
    pub history: Option<String>,
}

/// "history read back to 2019-03-02, 41 % of commits; ask again later for older" while
/// the history is read in part (newest first), else `None`.
pub fn partial_note(conn: &Connection) -> Result<Option<String>> {
    let (commits, remaining, back_to) = super::counts(conn)?;
    Ok(super::partial_note(commits, remaining, back_to.as_deref()))
}

/// Where a shallow clone's history stops: its boundary commits (what each changed is
/// unknown, git reads them as if they added every file they hold) and a note saying so.
#[derive(Debug, Clone)]
pub struct Shallow {
    pub boundary: HashSet<String>,
    /// "shallow clone: the history stops at 8b4f505a5f (2026-07-25); `git fetch
    /// --unshallow` reads the rest".
    pub note: String,
}

/// The shallow boundary of the history held, `None` for a complete history: the
/// boundary the last ingestion recorded, dated by the newest of its commits held.
pub fn shallow(conn: &Connection) -> Result<Option<Shallow>> {
    let text = super::get_meta(conn, super::meta::SHALLOW)?.unwrap_or_default();
    let boundary: HashSet<String> = text.split_whitespace().map(str::to_string).collect();
    if boundary.is_empty() {
        return Ok(None);
    }
    let mut stmt =
        conn.prepare_cached("SELECT commit_time, author_date FROM commits WHERE hash = ?1")?;
    let mut newest: Option<(i64, &str, String)> = None;
    for hash in &boundary {
        let row = stmt
            .query_row([hash], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
            })
            .optional()?;
        if let Some((time, date)) = row
            && newest.as_ref().is_none_or(|n| time > n.0)
        {
            newest = Some((time, hash, date));
        }
    }
    let at = match newest {
        Some((_, hash, date)) => format!(
            "{} ({})",
            hash.get(..10).unwrap_or(hash),
            date.get(..10).unwrap_or(&date)
        ),
        None => "its boundary".to_string(),
    };
    let at = match boundary.len() {
        1 => at,
        n => format!("{n} boundary commits, the newest {at}"),
    };
    Ok(Some(Shallow {
        note: format!(
            "shallow clone: the history stops at {at}; `git fetch --unshallow` reads the rest"
        ),
        boundary,
    }))
}

/// Reads a TARGET: a path the history or the disk knows (file or directory), else a
/// definition, optionally as `path:name`.
pub fn resolve(conn: &Connection, root: &Path, text: &str) -> Result<Target> {
    let t = text.trim();
    let norm = normalize_path(t);
    if norm.is_empty() {
        return Ok(Target::All);
    }
    if known_file(conn, &norm)? {
        return Ok(Target::File { path: norm });
    }
    if known_dir(conn, &norm)? {
        return Ok(Target::Dir { path: norm });
    }
    if let Some((p, name)) = t.split_once(':') {
        let p = normalize_path(p);
        if !name.is_empty() && !name.starts_with(':') && known_file(conn, &p)? {
            return Ok(Target::Symbol {
                name: name.to_string(),
                path: Some(p),
            });
        }
    }
    let on_disk = root.join(&norm);
    if on_disk.is_dir() {
        return Ok(Target::Dir { path: norm });
    }
    if on_disk.is_file() {
        return Ok(Target::File { path: norm });
    }
    Ok(Target::Symbol {
        name: t.to_string(),
        path: None,
    })
}

fn normalize_path(p: &str) -> String {
    let mut s = p.trim().replace('\\', "/");
    while let Some(rest) = s.strip_prefix("./") {
        s = rest.to_string();
    }
    while s.ends_with('/') {
        s.pop();
    }
    if s == "." { String::new() } else { s }
}

fn known_file(conn: &Connection, path: &str) -> Result<bool> {
    Ok(conn
        .query_row(
            "SELECT 1 WHERE EXISTS (SELECT 1 FROM commit_files WHERE path = ?1)
                OR EXISTS (SELECT 1 FROM commit_files WHERE old_path = ?1)",
            [path],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

fn known_dir(conn: &Connection, dir: &str) -> Result<bool> {
    let (lo, hi) = prefix_bounds(dir);
    Ok(conn
        .query_row(
            "SELECT 1 FROM commit_files WHERE path >= ?1 AND path < ?2 LIMIT 1",
            [lo, hi],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// `dir/` ≤ path < `dir0`: every path under `dir` (an index range, no LIKE escaping).
fn prefix_bounds(dir: &str) -> (String, String) {
    (format!("{dir}/"), format!("{dir}0"))
}

/// Runs a log query.
pub fn log(conn: &Connection, target: &Target, filter: &LogFilter) -> Result<Log> {
    // Per commit id: the file names and symbol rows that concern the target.
    let mut matched = BTreeSet::new();
    let hits: Option<BTreeMap<i64, Hit>> = match target {
        Target::All => None,
        Target::File { path } => Some(
            follow(conn, path)?
                .into_iter()
                .map(|(id, p)| (id, Hit::paths([p])))
                .collect(),
        ),
        Target::Dir { path } => {
            let (lo, hi) = prefix_bounds(path);
            let mut stmt = conn.prepare(
                "SELECT commit_id, path FROM commit_files WHERE path >= ?1 AND path < ?2
                 UNION SELECT commit_id, old_path FROM commit_files WHERE old_path >= ?1 AND old_path < ?2",
            )?;
            let mut m: BTreeMap<i64, Hit> = BTreeMap::new();
            let rows = stmt.query_map([lo, hi], |r| Ok((r.get::<_, i64>(0)?, r.get(1)?)))?;
            for row in rows {
                let (id, p): (i64, String) = row?;
                m.entry(id).or_default().paths.insert(p);
            }
            Some(m)
        }
        Target::Symbol { name, path } => {
            let allowed: Option<HashSet<(i64, String)>> = match path {
                Some(p) => Some(follow(conn, p)?.into_iter().collect()),
                None => None,
            };
            let last = last_component(name);
            let mut stmt = conn.prepare_cached(SYMBOL_ROWS_BY_NAME)?;
            let mut m: BTreeMap<i64, Hit> = BTreeMap::new();
            let rows = stmt.query_map([last], symbol_row)?;
            for row in rows {
                let (id, s) = row?;
                if !qualname_matches(&s.symbol, name) {
                    continue;
                }
                if let Some(a) = &allowed
                    && !a.contains(&(id, s.path.clone()))
                {
                    continue;
                }
                matched.insert(format!("{}:{}", s.path, s.symbol));
                let hit = m.entry(id).or_default();
                hit.paths.insert(s.path.clone());
                hit.symbols.push(s);
            }
            Some(m)
        }
    };

    let mut commits = Vec::new();
    let mut total = 0;
    match &hits {
        None => {
            let order = if filter.oldest_first { "ASC" } else { "DESC" };
            let mut stmt = conn.prepare_cached(&format!(
                "{COMMIT_COLUMNS} ORDER BY commit_time {order}, id {order}"
            ))?;
            let mut rows = stmt.query([])?;
            let by_words = !filter.words.is_empty();
            // Per commit that holds enough of the words: where it holds each (see
            // `word_places`); and in how many messages each word is, to weigh the rare ones.
            let mut held = Vec::new();
            let mut messages = vec![0usize; filter.words.len()];
            let mut all = 0usize;
            while let Some(r) = rows.next()? {
                let (id, time, c) = commit_row(r)?;
                if by_words {
                    let places = word_places(&c, &filter.words);
                    all += 1;
                    for (n, p) in messages.iter_mut().zip(&places) {
                        *n += usize::from(*p > 0);
                    }
                    if keep_but_words(&c, time, filter) && enough_words(&places) {
                        held.push((places, time, id, c));
                    }
                    continue;
                }
                if !keep(&c, time, filter) {
                    continue;
                }
                // Before the offset and past the limit commits are only counted.
                total += 1;
                if total > filter.offset && filter.limit.is_none_or(|l| commits.len() < l) {
                    commits.push((time, id, c));
                }
            }
            if by_words {
                // Each word held weighs its rarity among the messages (inverse document
                // frequency), twice in the subject; the order of the log among equals. A
                // word for any input (`arg|param|…`) says what kind of thing is asked
                // about, not which: half ("why was the app parameter deprecated?" is
                // about `app` first).
                let weight: Vec<f64> = messages
                    .iter()
                    .zip(&filter.words)
                    .map(|(&n, word)| {
                        let idf = ((all as f64 + 1.0) / (n as f64 + 0.5)).ln();
                        if word.contains('|') { idf / 2.0 } else { idf }
                    })
                    .collect();
                let score = |places: &[u8]| -> f64 {
                    places
                        .iter()
                        .zip(&weight)
                        .map(|(&p, w)| f64::from(p) * w)
                        .sum()
                };
                let mut scored: Vec<(f64, i64, i64, LogCommit)> = held
                    .into_iter()
                    .map(|(places, time, id, c)| (score(&places), time, id, c))
                    .collect();
                scored.sort_by(|a, b| b.0.total_cmp(&a.0));
                total = scored.len();
                commits = scored
                    .into_iter()
                    .skip(filter.offset)
                    .take(filter.limit.unwrap_or(usize::MAX))
                    .map(|(_, time, id, c)| (time, id, c))
                    .collect();
            }
        }
        Some(hits) => {
            let mut stmt = conn.prepare_cached(&format!("{COMMIT_COLUMNS} WHERE id = ?1"))?;
            for id in hits.keys() {
                let Some((id, time, c)) = stmt.query_row([id], commit_row).optional()? else {
                    continue;
                };
                if keep(&c, time, filter) {
                    commits.push((time, id, c));
                }
            }
            commits.sort_by_key(|c| std::cmp::Reverse((c.0, c.1)));
            if filter.oldest_first {
                commits.reverse();
            }
            total = commits.len();
            commits.drain(..filter.offset.min(total));
            if let Some(l) = filter.limit {
                commits.truncate(l);
            }
        }
    }

    let mut files_stmt = conn.prepare_cached(COMMIT_FILES)?;
    let mut syms_stmt = conn.prepare_cached(&format!(
        "{SYMBOL_COLUMNS} WHERE commit_id = ?1 ORDER BY rowid"
    ))?;
    let mut out = Vec::with_capacity(commits.len());
    for (_, id, mut c) in commits {
        let hit = hits.as_ref().and_then(|h| h.get(&id));
        let files = files_stmt.query_map([id], file_row)?;
        for f in files {
            let f = f?;
            let wanted = hit.is_none_or(|h| {
                h.paths.contains(&f.path)
                    || f.old_path.as_ref().is_some_and(|o| h.paths.contains(o))
            });
            if wanted {
                c.files.push(f);
            }
        }
        match (target, hit) {
            (Target::Symbol { .. }, Some(h)) => c.symbols = h.symbols.clone(),
            _ => {
                for s in syms_stmt.query_map([id], symbol_row)? {
                    let (_, s) = s?;
                    if hit.is_none_or(|h| h.paths.contains(&s.path)) {
                        c.symbols.push(s);
                    }
                }
            }
        }
        out.push(c);
    }
    Ok(Log {
        target: target.clone(),
        commits: out,
        total,
        matched: matched.into_iter().collect(),
        history: partial_note(conn)?,
    })
}

/// The commits whose changes add or remove `text` (git's pickaxe, `git log -S`) that
/// `filter` keeps and the store holds, each with the files where they do, in the
/// filter's order; and how many there are. `None` when git fails or takes longer than
/// `budget` (a long history), when the answer would not be whole. `ignore_case`: a word
/// of a question, which code may write in any case ("http3" for `Http3`).
pub fn pickaxe(
    conn: &Connection,
    root: &Path,
    text: &str,
    ignore_case: bool,
    filter: &LogFilter,
    budget: std::time::Duration,
) -> Result<Option<(Vec<LogCommit>, usize)>> {
    let mut cmd = super::git::git(root);
    cmd.args(["log", &format!("-S{text}")]);
    if ignore_case {
        cmd.arg("--regexp-ignore-case");
    }
    cmd.args([
        "--format=%x00%H",
        "--name-only",
        "--no-renames",
        "HEAD",
        "--",
    ]);
    let Some(out) = run_within(&mut cmd, budget)? else {
        return Ok(None);
    };
    let out = String::from_utf8_lossy(&out);
    let mut stmt = conn.prepare_cached(&format!("{COMMIT_COLUMNS} WHERE hash = ?1"))?;
    let mut files_stmt = conn.prepare_cached(COMMIT_FILES)?;
    let mut commits = Vec::new();
    let records: Vec<&str> = out.split('\0').skip(1).collect();
    for (i, record) in records.iter().enumerate() {
        let mut lines = record.lines().map(str::trim).filter(|l| !l.is_empty());
        let Some(hash) = lines.next() else { continue };
        let paths: BTreeSet<&str> = lines.collect();
        let Some((id, time, mut c)) = stmt.query_row([hash], commit_row).optional()? else {
            // A history still being read lacks the oldest commits; the one that
            // introduced the text is read from git itself.
            if i + 1 == records.len()
                && let Some((time, c)) = commit_from_git(conn, root, hash, &paths)?
                && keep(&c, time, filter)
            {
                commits.push(c);
            }
            continue;
        };
        if !keep(&c, time, filter) {
            continue;
        }
        for f in files_stmt.query_map([id], file_row)? {
            let f = f?;
            if paths.contains(f.path.as_str()) {
                c.files.push(f);
            }
        }
        commits.push(c);
    }
    if filter.oldest_first {
        commits.reverse();
    }
    let total = commits.len();
    commits.drain(..filter.offset.min(total));
    if let Some(l) = filter.limit {
        commits.truncate(l);
    }
    Ok(Some((commits, total)))
}

/// Of `commits` (a definition's log), those whose changes add `name` to the target: bind
/// it ([`binds_in`]) more often on their added lines within a definition of the target
/// they touched (its `symbols`, as added or modified) than on the lines they removed from
/// that file. So the commit that added a `lifespan` parameter to `Starlette`, not the
/// older ones that added a `lifespan_middleware` attribute or used `router.lifespan`,
/// nor one that only changed `debug=False` to `debug=True`. One `git log` shows their diffs of the files those definitions are in;
/// `None` when it did not answer within `budget`.
pub fn adding_name(
    root: &Path,
    commits: &[LogCommit],
    name: &str,
    budget: std::time::Duration,
) -> Result<Option<HashSet<String>>> {
    let spans: BTreeMap<&str, Vec<(&str, u32, u32)>> = commits
        .iter()
        .map(|c| {
            let touched: Vec<(&str, u32, u32)> = c
                .symbols
                .iter()
                .filter(|s| s.change != "deleted")
                .map(|s| (s.path.as_str(), s.start_line, s.end_line))
                .collect();
            (c.commit.as_str(), touched)
        })
        .filter(|(_, t)| !t.is_empty())
        .collect();
    if spans.is_empty() {
        return Ok(Some(HashSet::new()));
    }
    let paths: BTreeSet<&str> = spans.values().flatten().map(|&(p, _, _)| p).collect();
    let mut cmd = super::git::git(root);
    cmd.args([
        "log",
        "--no-walk=unsorted",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--diff-merges=off",
        "-p",
        "-U0",
        "--src-prefix=a/",
        "--dst-prefix=b/",
        "--format=%x00%H",
    ]);
    cmd.args(spans.keys()).arg("--").args(&paths);
    let Some(out) = run_within(&mut cmd, budget)? else {
        return Ok(None);
    };
    let out = String::from_utf8_lossy(&out);
    let name = name.to_ascii_lowercase();
    let mut adding = HashSet::new();
    for record in out.split('\0').skip(1) {
        let mut lines = record.lines();
        let Some(hash) = lines.next().map(str::trim) else {
            continue;
        };
        let Some(within) = spans.get(hash) else {
            continue;
        };
        // Per file: the name bound on added lines within the target, and on removed lines.
        let mut counts: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        // The file a hunk is in, and the line its next added line is; `None` between a
        // file's `diff --git` and its first hunk.
        let (mut path, mut at): (Option<&str>, Option<u32>) = (None, None);
        for line in lines {
            if line.starts_with("diff --git ") {
                (path, at) = (None, None);
            } else if at.is_none() {
                if let Some(p) = line.strip_prefix("+++ b/") {
                    path = Some(p);
                } else if line.starts_with("@@ ") {
                    at = super::git::parse_hunk(line).map(|h| h.new_start);
                }
            } else if line.starts_with("@@ ") {
                at = super::git::parse_hunk(line).map(|h| h.new_start);
            } else if let (Some(n), Some(p)) = (at, path) {
                if let Some(text) = line.strip_prefix('+') {
                    if within
                        .iter()
                        .any(|&(wp, a, b)| wp == p && (a..=b).contains(&n))
                    {
                        counts.entry(p).or_default().0 += binds_in(text, &name);
                    }
                    at = Some(n + 1);
                } else if let Some(text) = line.strip_prefix('-') {
                    counts.entry(p).or_default().1 += binds_in(text, &name);
                }
            }
        }
        if counts.values().any(|&(plus, minus)| plus > minus) {
            adding.insert(hash.to_string());
        }
    }
    Ok(Some(adding))
}

/// How often `text` binds lower-case `name` (ASCII case folded): as a name of its own
/// (not inside a longer identifier, nor a string of its own) that a definition keyword
/// comes before (`def lifespan(`), or that `=` or `:` follows (a parameter's default or
/// type, an assignment, a keyword argument, a field: `lifespan: Callable = None`,
/// `self.lifespan = x`), or `,` or `)` on a definition's line (`def f(self, lifespan):`).
/// A use is no binding: `self.router.lifespan.on_event(...)`, `== "lifespan"`,
/// `self.lifespan_middleware`.
fn binds_in(text: &str, name: &str) -> usize {
    const KEYWORDS: [&str; 9] = [
        "def", "fn", "func", "function", "class", "struct", "const", "let", "var",
    ];
    let text = text.to_ascii_lowercase();
    let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let signature = {
        let t = text.trim_start();
        let t = t.strip_prefix("async ").unwrap_or(t);
        KEYWORDS[..4]
            .iter()
            .any(|k| t.starts_with(&format!("{k} ")))
    };
    text.match_indices(name)
        .filter(|&(at, _)| {
            let (head, tail) = (&text[..at], &text[at + name.len()..]);
            let (before, after) = (head.chars().next_back(), tail.chars().next());
            let quoted = before.is_some_and(|b| matches!(b, '"' | '\'' | '`')) && before == after;
            if part(before) || part(after) || quoted {
                return false;
            }
            let next = tail.trim_start();
            let keyword = head
                .trim_end()
                .rsplit(|c: char| !c.is_alphanumeric())
                .next()
                .is_some_and(|w| head.ends_with(' ') && KEYWORDS.contains(&w));
            keyword
                || (next.starts_with('=') && !next.starts_with("=="))
                || (next.starts_with(':') && !next.starts_with("::"))
                || (signature && (next.starts_with(',') || next.starts_with(')')))
        })
        .count()
}

/// Commit `hash` as the history's own `git log` reads it (as ingestion would store it),
/// with those of its files that are in `paths`; `None` when git does not know it.
fn commit_from_git(
    conn: &Connection,
    root: &Path,
    hash: &str,
    paths: &BTreeSet<&str>,
) -> Result<Option<(i64, LogCommit)>> {
    // With its hunks, for the line counts, unless the clone is partial (as ingestion).
    let partial = super::get_meta(conn, super::meta::PARTIAL)?.is_some();
    let hunks = if partial {
        super::git::Hunks::None
    } else {
        super::git::Hunks::All
    };
    let mut log = super::git::LogStream::start(root, &[hash.to_string()], hunks, None)?;
    let Some(g) = log.next_commit()? else {
        return Ok(None);
    };
    while log.next_commit()?.is_some() {}
    Ok(Some((
        g.author_time,
        LogCommit {
            commit: g.hash,
            date: g.author_iso,
            author: g.author,
            email: g.email,
            subject: g.subject,
            body: g.body,
            parents: g.parents,
            files: g
                .files
                .into_iter()
                .filter(|f| paths.contains(f.path.as_str()))
                .map(|f| LogFile {
                    path: f.path,
                    old_path: f.old_path,
                    status: f.status.to_string(),
                    added: f.added,
                    removed: f.removed,
                })
                .collect(),
            symbols: Vec::new(),
        },
    )))
}

/// `cmd`'s standard output, or `None` when it fails, is still running after `budget` or
/// a stop is asked for (then it is killed).
fn run_within(
    cmd: &mut std::process::Command,
    budget: std::time::Duration,
) -> Result<Option<Vec<u8>>> {
    use std::io::Read;
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()?;
    let Some(mut stdout) = child.stdout.take() else {
        return Ok(None);
    };
    // Drained beside the wait, so a long output never blocks git on a full pipe.
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        stdout.read_to_end(&mut buf).map(|_| buf)
    });
    let waited = crate::interrupt::wait_until(
        &mut child,
        std::time::Instant::now() + budget,
        std::time::Duration::from_millis(5),
    )?;
    let out = reader.join().ok().and_then(|r| r.ok());
    Ok(match waited {
        crate::interrupt::Waited::Exited(s) if s.success() => out,
        _ => None,
    })
}

#[derive(Debug, Default)]
struct Hit {
    paths: BTreeSet<String>,
    symbols: Vec<LogSymbol>,
}

impl Hit {
    fn paths<const N: usize>(p: [String; N]) -> Hit {
        Hit {
            paths: p.into_iter().collect(),
            symbols: Vec::new(),
        }
    }
}

const COMMIT_COLUMNS: &str = "SELECT id, commit_time, hash, author_date, author, email, subject, body, parents, author_time FROM commits";

/// A commit's changed files, in the order git listed them.
const COMMIT_FILES: &str = "SELECT path, old_path, status, added, removed FROM commit_files
    WHERE commit_id = ?1 ORDER BY rowid";

fn file_row(r: &rusqlite::Row) -> rusqlite::Result<LogFile> {
    Ok(LogFile {
        path: r.get(0)?,
        old_path: r.get(1)?,
        status: r.get(2)?,
        added: r.get(3)?,
        removed: r.get(4)?,
    })
}

fn commit_row(r: &rusqlite::Row) -> rusqlite::Result<(i64, i64, LogCommit)> {
    let parents: String = r.get(8)?;
    Ok((
        r.get(0)?,
        r.get(9)?,
        LogCommit {
            commit: r.get(2)?,
            date: r.get(3)?,
            author: r.get(4)?,
            email: r.get(5)?,
            subject: r.get(6)?,
            body: r.get(7)?,
            parents: parents.split_whitespace().map(str::to_string).collect(),
            files: Vec::new(),
            symbols: Vec::new(),
        },
    ))
}

fn keep(c: &LogCommit, author_time: i64, f: &LogFilter) -> bool {
    keep_but_words(c, author_time, f)
        && (f.words.is_empty() || enough_words(&word_places(c, &f.words)))
}

/// [`keep`] without the `words` test, for a caller that has the word places already.
fn keep_but_words(c: &LogCommit, author_time: i64, f: &LogFilter) -> bool {
    if f.since.is_some_and(|s| author_time < s) || f.until.is_some_and(|u| author_time > u) {
        return false;
    }
    if let Some(a) = &f.author {
        let a = a.to_lowercase();
        if !c.author.to_lowercase().contains(&a) && !c.email.to_lowercase().contains(&a) {
            return false;
        }
    }
    if let Some(g) = &f.grep {
        let g = g.to_lowercase();
        if !c.subject.to_lowercase().contains(&g) && !c.body.to_lowercase().contains(&g) {
            return false;
        }
    }
    true
}

/// Whether a message holds enough of the words: two, or every one when fewer are asked.
fn enough_words(places: &[u8]) -> bool {
    places.iter().filter(|&&p| p > 0).count() >= places.len().min(2)
}

/// Whether the commit's message (subject or body) holds every one of `stems`, each at
/// the start of a word.
pub fn message_holds(c: &LogCommit, stems: &[String]) -> bool {
    word_places(c, stems).iter().all(|&p| p > 0)
}

/// How many of `stems` the commit's subject holds, each at the start of a word.
pub fn subject_holds(c: &LogCommit, stems: &[String]) -> usize {
    word_places(c, stems).iter().filter(|&&p| p == 2).count()
}

/// Where the commit's message holds each of `stems`, at the start of a word (so `mov` is
/// in "move" and "moved", not in "remove"): 2 in the subject, 1 in the body only, 0 not.
/// A release number (`3.8`) may follow letters ("py3.8", "v3.8"), but no digit may run on
/// either side of it (`3.1` is not in "3.10").
fn word_places(c: &LogCommit, stems: &[String]) -> Vec<u8> {
    let holds = |text: &str, stem: &str| {
        let number = stem.starts_with(|c: char| c.is_ascii_digit());
        text.match_indices(stem).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            if !number {
                return before.is_none_or(|p| !p.is_alphanumeric());
            }
            let after = text[at + stem.len()..].chars().next();
            before.is_none_or(|p| !(p.is_ascii_digit() || p == '.'))
                && after.is_none_or(|n| !n.is_ascii_digit())
        })
    };
    let (subject, body) = (c.subject.to_lowercase(), c.body.to_lowercase());
    let held = |text: &str, word: &str| word.split('|').any(|s| holds(text, s));
    stems
        .iter()
        .map(|s| {
            if held(&subject, s) {
                2
            } else {
                u8::from(held(&body, s))
            }
        })
        .collect()
}

const SYMBOL_COLUMNS: &str = "SELECT commit_id, path, qualname, name, kind, change, added, removed, start_line, end_line, hunks FROM commit_symbols";
const SYMBOL_ROWS_BY_NAME: &str = "SELECT commit_id, path, qualname, name, kind, change, added, removed, start_line, end_line, hunks FROM commit_symbols WHERE name = ?1";

fn symbol_row(r: &rusqlite::Row) -> rusqlite::Result<(i64, LogSymbol)> {
    let hunks: String = r.get(10)?;
    Ok((
        r.get(0)?,
        LogSymbol {
            path: r.get(1)?,
            symbol: r.get(2)?,
            name: r.get(3)?,
            kind: r.get(4)?,
            change: r.get(5)?,
            added: r.get(6)?,
            removed: r.get(7)?,
            start_line: r.get(8)?,
            end_line: r.get(9)?,
            hunks: hunks
                .split('\n')
                .filter(|h| !h.is_empty())
                .map(str::to_string)
                .collect(),
        },
    ))
}

/// The bare name of a qualified name: `Stack::push` → `push`, `a.b.run` → `run`.
fn last_component(name: &str) -> &str {
    let after_colons = name.rsplit("::").next().unwrap_or(name);
    after_colons.rsplit('.').next().unwrap_or(after_colons)
}

/// `Stack::push` matches `Stack::push` and `outer::Stack::push`; `push` matches any.
pub fn qualname_matches(qualname: &str, wanted: &str) -> bool {
    qualname == wanted
        || qualname
            .strip_suffix(wanted)
            .is_some_and(|head| head.ends_with("::") || head.ends_with('.'))
}

/// Every commit that changed `path`, with the name the file had in it, following renames
/// backwards (like `git log --follow`): before a commit renamed A to `path`, A's commits.
pub fn follow(conn: &Connection, path: &str) -> Result<Vec<(i64, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT commit_id, path, old_path, status FROM commit_files WHERE path = ?1 AND commit_id < ?2
         UNION ALL
         SELECT commit_id, path, old_path, status FROM commit_files WHERE old_path = ?1 AND commit_id < ?2
         ORDER BY 1 DESC",
    )?;
    let mut out = Vec::new();
    let mut seen_names = HashSet::new();
    let mut name = path.to_string();
    let mut bound = i64::MAX;
    loop {
        seen_names.insert(name.clone());
        let rows: Vec<(i64, String, Option<String>, String)> = stmt
            .query_map(params![name, bound], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        let mut next = None;
        for (id, p, old, status) in rows {
            if out
                .last()
                .is_none_or(|(last, _): &(i64, String)| *last != id)
            {
                out.push((id, name.clone()));
            }
            if status == "R"
                && p == name
                && let Some(o) = old
                && !seen_names.contains(&o)
            {
                next = Some((id, o));
                break;
            }
        }
        match next {
            Some((id, o)) => {
                name = o;
                bound = id;
            }
            None => break,
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_counted_where_it_is_bound() {
        let cases = [
            ("    def __init__(self, lifespan=None):", 1),
            ("        lifespan: typing.Callable[[App], Any] = None,", 1),
            ("    def __init__(self, debug, lifespan):", 1),
            ("    async def lifespan(self, scope):", 1),
            ("        self.lifespan = Lifespan(lifespan)", 1),
            ("        self.router = Router(routes, lifespan=lifespan)", 1),
            ("        self.lifespan_middleware = Stack()", 0),
            (
                "        return self.router.lifespan.on_event(event_type)",
                0,
            ),
            ("from starlette.middleware.lifespan import x", 0),
            ("        if scope[\"type\"] == \"lifespan\":", 0),
            ("        assert lifespan is None or lifespan == 1", 0),
            ("    lifespans = []", 0),
            ("", 0),
        ];
        for (text, n) in cases {
            assert_eq!(binds_in(text, "lifespan"), n, "{text}");
        }
        let new_start = |line: &str| super::super::git::parse_hunk(line).map(|h| h.new_start);
        assert_eq!(new_start("@@ -12,0 +13,2 @@ class App:"), Some(13));
        assert_eq!(new_start("@@ -1 +1 @@"), Some(1));
        assert_eq!(new_start("garbage"), None);
    }

    #[test]
    fn qualified_names_match_on_component_boundaries() {
        assert!(qualname_matches("Stack::push", "push"));
        assert!(qualname_matches("Stack::push", "Stack::push"));
        assert!(qualname_matches("a.Scheduler.run", "Scheduler.run"));
        assert!(!qualname_matches("Stack::repush", "push"));
        assert_eq!(last_component("a::B::c"), "c");
        assert_eq!(last_component("x.y"), "y");
    }

    #[test]
    fn paths_are_normalized() {
        assert_eq!(normalize_path("./src/"), "src");
        assert_eq!(normalize_path("."), "");
    }
}
