//! SCIP indexes for compiler-precise edges ([`crate::graph::scip`]): which ones an index
//! run reads, and running the indexers found on PATH (`llmc index --precise`,
//! `graph.precise = "auto"`).
//!
//! An indexer runs in a thread beside the index run, under `graph.precise_timeout_secs`,
//! in the repository (it only reads there) and writes to `.llmc/scip/NAME.scip` through a
//! temporary name, with its output in `.llmc/scip/NAME.log`. Just before it starts, the
//! content hash of every file of its languages is recorded in `.llmc/scip/NAME.json`: a
//! document is used only while its file still has that hash. An index someone else wrote
//! (`index.scip` at the root, `graph.scip`) covers the files modified no later than it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::graph::scip::{Freshness, ScipSource};

/// Where llmc's own SCIP indexes live, under `.llmc/`.
const DIR: &str = "scip";

/// One indexer llmc knows how to run.
struct Indexer {
    /// The program on PATH.
    program: &'static str,
    /// The file extensions of the languages it indexes.
    extensions: &'static [&'static str],
    /// Its arguments, with `{out}` for the output file.
    args: &'static [&'static str],
    /// A file at the root it needs (else it is not run, with a note why).
    needs: Option<(&'static [&'static str], &'static str)>,
}

const INDEXERS: &[Indexer] = &[
    Indexer {
        program: "scip-typescript",
        extensions: &["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"],
        args: &["index", "--no-progress-bar", "--output", "{out}"],
        // `--infer-tsconfig` would write a tsconfig.json into the tree.
        needs: Some((
            &["tsconfig.json", "jsconfig.json"],
            "it needs a tsconfig.json or jsconfig.json at the root",
        )),
    },
    Indexer {
        program: "scip-python",
        extensions: &["py", "pyi"],
        // An empty environment: no `pip` calls, the repository's own code is what counts.
        // A version of its own: without one it asks git for HEAD and fails without commits.
        args: &[
            "index",
            "--quiet",
            "--project-name",
            "{name}",
            "--project-version",
            "0",
            "--environment",
            "{env}",
            "--output",
            "{out}",
        ],
        needs: None,
    },
    Indexer {
        program: "rust-analyzer",
        extensions: &["rs"],
        args: &["scip", ".", "--output", "{out}"],
        needs: Some((&["Cargo.toml"], "it needs a Cargo.toml at the root")),
    },
    Indexer {
        program: "scip-go",
        extensions: &["go"],
        args: &["--output", "{out}"],
        needs: Some((&["go.mod"], "it needs a go.mod at the root")),
    },
];

/// What llmc recorded when it ran an indexer.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Manifest {
    tool: String,
    /// Seconds since the epoch, when the indexer started.
    written_at: i64,
    /// Content hashes of the files of its languages just before it started.
    hashes: HashMap<String, String>,
}

/// What running the indexers did: one line per indexer, for the user.
#[derive(Debug, Clone, Default)]
pub struct PreciseRun {
    pub notes: Vec<String>,
}

fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// An indexer to run: what it is, the program found on PATH, the files it covers.
type Planned = (&'static Indexer, PathBuf, Vec<String>);

/// The programs `run_indexers` would start for `root`'s files, found on PATH, and a note
/// for each language whose indexer is missing.
fn plan(root: &Path, config: &Config) -> (Vec<Planned>, Vec<String>) {
    let (files, _) = super::walk::walk(root, &super::walk_config(&config.index));
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for ix in INDEXERS {
        let mine: Vec<String> = files
            .iter()
            .filter(|f| {
                f.rel
                    .rsplit_once('.')
                    .is_some_and(|(_, e)| ix.extensions.contains(&e))
            })
            .map(|f| f.rel.clone())
            .collect();
        if mine.is_empty() {
            continue;
        }
        let Some(program) = on_path(ix.program) else {
            notes.push(format!(
                "precise: {} is not on PATH; {} file(s) keep heuristic edges",
                ix.program,
                mine.len()
            ));
            continue;
        };
        if let Some((names, why)) = ix.needs
            && !names.iter().any(|n| root.join(n).is_file())
        {
            notes.push(format!("precise: {} not run: {why}", ix.program));
            continue;
        }
        out.push((ix, program, mine));
    }
    (out, notes)
}

/// Runs the SCIP indexers found on PATH for `root`'s languages, one after the other,
/// each under the configured timeout; meant for a thread beside the index run. Never
/// fails: what went wrong is a note.
pub fn run_indexers(root: &Path, config: &Config) -> PreciseRun {
    let mut run = PreciseRun::default();
    let dir = crate::store::store_dir(root).join(DIR);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        run.notes
            .push(format!("precise: cannot create {}: {e}", dir.display()));
        return run;
    }
    let (plan, notes) = plan(root, config);
    run.notes.extend(notes);
    let timeout = Duration::from_secs(config.graph.precise_timeout_secs);
    for (ix, program, files) in plan {
        if crate::interrupt::requested() {
            break;
        }
        run.notes
            .push(run_one(root, &dir, ix, &program, &files, config, timeout));
    }
    run
}

fn run_one(
    root: &Path,
    dir: &Path,
    ix: &Indexer,
    program: &Path,
    files: &[String],
    config: &Config,
    timeout: Duration,
) -> String {
    let name = ix.program;
    let out = dir.join(format!("{name}.scip"));
    let tmp = dir.join(format!("{name}.scip.tmp"));
    let env = dir.join("python-environment.json");
    let log_path = dir.join(format!("{name}.log"));
    // The files as the indexer will see them.
    let hashes: HashMap<String, String> = files
        .iter()
        .filter_map(|rel| {
            let bytes = crate::source::read(root, rel, config.index.max_file_size).ok()?;
            Some((rel.clone(), crate::source::content_hash(&bytes)))
        })
        .collect();
    let written_at = now_secs();
    if name == "scip-python"
        && let Err(e) = std::fs::write(&env, "[]")
    {
        return format!("precise: {name} not run: writing {}: {e}", env.display());
    }
    let project = root.file_name().map_or_else(
        || "repository".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let args: Vec<String> = ix
        .args
        .iter()
        .map(|a| {
            a.replace("{out}", &tmp.to_string_lossy())
                .replace("{env}", &env.to_string_lossy())
                .replace("{name}", &project)
        })
        .collect();
    let log = match std::fs::File::create(&log_path) {
        Ok(f) => f,
        Err(e) => return format!("precise: {name} not run: {}: {e}", log_path.display()),
    };
    let log2 = match log.try_clone() {
        Ok(f) => f,
        Err(e) => return format!("precise: {name} not run: {e}"),
    };
    let _ = std::fs::remove_file(&tmp);
    let started = Instant::now();
    let mut child = match Command::new(program)
        .args(&args)
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(log2)
        .spawn()
    {
        Ok(c) => c,
        Err(e) => return format!("precise: {name} could not start: {e}"),
    };
    use crate::interrupt::Waited;
    let status = match crate::interrupt::wait_until(
        &mut child,
        started + timeout,
        Duration::from_millis(50),
    ) {
        Ok(Waited::Exited(status)) => Ok(status),
        Ok(Waited::Interrupted) => Err("interrupted".to_string()),
        Ok(Waited::TimedOut) => Err(format!(
            "stopped after its timeout of {} s",
            timeout.as_secs()
        )),
        Err(e) => Err(e.to_string()),
    };
    let seconds = started.elapsed().as_secs_f64();
    let failed = |why: String| {
        let _ = std::fs::remove_file(&tmp);
        format!(
            "precise: {name} {why} (see {}); its files keep the edges of its last run or heuristic ones",
            log_path.display()
        )
    };
    match status {
        Err(why) => return failed(why),
        Ok(s) if !s.success() => return failed(format!("failed ({s})")),
        Ok(_) if !tmp.is_file() => return failed("wrote no index".into()),
        Ok(_) => {}
    }
    let manifest = Manifest {
        tool: version_of(program).map_or_else(|| name.to_string(), |v| format!("{name} {v}")),
        written_at,
        hashes,
    };
    let written = serde_json::to_vec(&manifest)
        .map_err(|e| e.to_string())
        .and_then(|json| {
            std::fs::write(dir.join(format!("{name}.json")), json).map_err(|e| e.to_string())
        })
        .and_then(|()| std::fs::rename(&tmp, &out).map_err(|e| e.to_string()));
    match written {
        Ok(()) => format!(
            "precise: {name} indexed {} file(s) in {seconds:.1} s",
            files.len()
        ),
        Err(e) => failed(format!("could not be kept: {e}")),
    }
}

/// `PROGRAM --version`'s last word, when it answers quickly.
fn version_of(program: &Path) -> Option<String> {
    let out = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace().last().map(str::to_string)
}

/// The SCIP indexes an index run of `root` reads: llmc's own (`.llmc/scip/`), an
/// `index.scip` at the root, and the files `graph.scip` names. A named file that is
/// missing is a warning.
pub fn sources(root: &Path, config: &Config) -> (Vec<ScipSource>, Vec<String>) {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    let dir = crate::store::store_dir(root).join(DIR);
    for ix in INDEXERS {
        let path = dir.join(format!("{}.scip", ix.program));
        if !path.is_file() {
            continue;
        }
        let manifest = std::fs::read(dir.join(format!("{}.json", ix.program)))
            .ok()
            .and_then(|b| serde_json::from_slice::<Manifest>(&b).ok());
        match manifest {
            Some(m) => out.push(ScipSource {
                label: format!(".llmc/{DIR}/{}.scip", ix.program),
                path,
                freshness: Freshness::Hashes(m.hashes),
                written_at: m.written_at,
                tool: Some(m.tool),
            }),
            None => warnings.push(format!(
                "SCIP index .llmc/{DIR}/{}.scip has no readable manifest; it is not used \
                 (run `llmc index --precise` again)",
                ix.program
            )),
        }
    }
    let mut named: Vec<(String, bool)> = Vec::new();
    if root.join("index.scip").is_file() {
        named.push(("index.scip".to_string(), false));
    }
    for p in &config.graph.scip {
        if !named.iter().any(|(n, _)| n == p) {
            named.push((p.clone(), true));
        }
    }
    for (name, configured) in named {
        let path = root.join(&name);
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() => {
                let mtime = super::walk::mtime_ns(&meta);
                out.push(ScipSource {
                    label: name,
                    path,
                    freshness: Freshness::Mtime(mtime),
                    written_at: mtime / 1_000_000_000,
                    tool: None,
                });
            }
            Ok(_) => warnings.push(format!("SCIP index {name} is not a file; it is not used")),
            Err(e) if configured => warnings.push(format!(
                "SCIP index {name} (graph.scip) cannot be read ({e}); it is not used"
            )),
            Err(_) => {}
        }
    }
    (out, warnings)
}

/// What identifies the indexes an index run read: a different one next time means the
/// graph is laid again even when no file changed.
pub fn fingerprint(sources: &[ScipSource]) -> String {
    let parts: Vec<String> = sources
        .iter()
        .map(|s| {
            let (len, mtime) =
                std::fs::metadata(&s.path).map_or((0, 0), |m| (m.len(), super::walk::mtime_ns(&m)));
            format!("{}:{len}:{mtime}:{}", s.label, s.written_at)
        })
        .collect();
    parts.join("\n")
}
