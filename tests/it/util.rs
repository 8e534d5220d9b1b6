//! Scratch repositories and a runner for the built binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use llmc::config::IndexConfig;
use llmc::index::{self, IndexOptions, IndexStats};
use llmc::progress::NoProgress;
use llmc::store::Store;

/// The fixture languages: thirteen, and those of the optional grammars built in.
pub const LANGS: &[&str] = &[
    "rust",
    "python",
    "javascript",
    "typescript",
    "tsx",
    "go",
    "java",
    "c",
    "cpp",
    "ruby",
    "bash",
    "php",
    "lua",
    #[cfg(feature = "lang-csharp")]
    "csharp",
    #[cfg(feature = "lang-kotlin")]
    "kotlin",
    #[cfg(feature = "lang-swift")]
    "swift",
    #[cfg(feature = "lang-scala")]
    "scala",
];

/// The fixtures of the optional grammars (`lang-*` features) and whether each is built in:
/// a test over every fixture skips those that are not.
const OPTIONAL: &[(&str, bool)] = &[
    ("csharp", cfg!(feature = "lang-csharp")),
    ("kotlin", cfg!(feature = "lang-kotlin")),
    ("swift", cfg!(feature = "lang-swift")),
    ("scala", cfg!(feature = "lang-scala")),
];

/// Whether the fixture repository `name` is of a language this build parses.
pub fn built(name: &str) -> bool {
    OPTIONAL.iter().all(|&(lang, on)| lang != name || on)
}

/// `testdata/` in the source tree (never written to).
pub fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

/// A temporary copy of a directory, deleted on drop.
pub struct Scratch {
    pub dir: tempfile::TempDir,
}

impl Scratch {
    /// An empty scratch directory.
    pub fn empty() -> Scratch {
        Scratch {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    /// A copy of `testdata/repos/<lang>`.
    pub fn fixture(lang: &str) -> Scratch {
        let s = Scratch::empty();
        copy_dir(&testdata().join("repos").join(lang), s.path());
        s
    }

    /// A copy of `testdata/packages/<name>`, a real published package's sources (see
    /// testdata/README.md), inside a fresh git repository.
    pub fn package(name: &str) -> Scratch {
        Scratch::git_copy(&testdata().join("packages").join(name))
    }

    /// A copy of a fixture inside a fresh git repository.
    pub fn git_fixture(lang: &str) -> Scratch {
        Scratch::git_copy(&testdata().join("repos").join(lang))
    }

    /// A fresh git repository holding one file, committed and indexed.
    pub fn indexed_file(rel: &str, content: &str) -> Scratch {
        let s = Scratch::empty();
        s.write(rel, content);
        s.git(&["init", "-q"]);
        s.git(&["add", "-A"]);
        s.git(&["commit", "-qm", "one file"]);
        s.index();
        s
    }

    /// A copy of `dir` inside a fresh git repository.
    fn git_copy(dir: &Path) -> Scratch {
        let s = Scratch::empty();
        copy_dir(dir, s.path());
        s.git(&["init", "-q"]);
        s
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes a file (creating directories).
    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) {
        let p = self.path().join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(p, content).expect("write");
    }

    /// Runs git in the repository with a fixed identity.
    pub fn git(&self, args: &[&str]) {
        git_in(self.path(), args);
    }

    /// Commits everything in the work tree with `message`.
    pub fn commit_all(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-qm", message]);
    }

    /// Indexes through the library.
    pub fn index(&self) -> IndexStats {
        self.index_with(&IndexConfig::default(), false)
    }

    pub fn index_with(&self, cfg: &IndexConfig, rebuild: bool) -> IndexStats {
        index::run(
            self.path(),
            cfg,
            &IndexOptions {
                rebuild,
                ..Default::default()
            },
            &NoProgress,
        )
        .expect("index runs")
    }

    pub fn store(&self) -> Store {
        Store::open_existing(self.path()).expect("store opens")
    }

    /// Runs the built binary in the repository.
    pub fn llmc(&self, args: &[&str]) -> Output {
        llmc_in(self.path(), args)
    }
}

/// Runs the built binary in `dir` with a clean `LLMC_*` environment.
pub fn llmc_in(dir: &Path, args: &[&str]) -> Output {
    llmc_env(dir, &[], args)
}

/// Runs the built binary in `dir` with only the given `LLMC_*` variables set.
pub fn llmc_env(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_llmc"));
    cmd.args(args).current_dir(dir);
    for (k, _) in std::env::vars() {
        if k.starts_with("LLMC_") {
            cmd.env_remove(k);
        }
    }
    cmd.envs(env.iter().copied());
    cmd.output().expect("llmc runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The JSON document on stdout (a failure shows what was printed instead).
pub fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("no JSON on stdout ({e}): {}\n{}", stdout(out), stderr(out)))
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read fixture") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Every definition in the store as `path kind qualname start end`, sorted like the
/// expected files.
pub fn definitions(store: &Store) -> Vec<String> {
    store
        .read(|c| {
            let mut stmt = c.prepare(
                "SELECT f.path, s.kind, s.qualname, s.start_line, s.end_line
                 FROM symbols s JOIN files f ON f.id = s.file_id
                 ORDER BY f.path, s.start_line, s.end_line DESC, s.qualname",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(format!(
                    "{}\t{}\t{}\t{}\t{}",
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, i64>(4)?
                ))
            })?;
            rows.collect()
        })
        .expect("definitions query")
}

/// Every call site in the store as `path line caller callee`, like `testdata/expected/*.calls`:
/// the callee is `path:qualname` or `external:NAME`.
pub fn call_edges(store: &Store) -> Vec<String> {
    store
        .read(|c| {
            let mut stmt = c.prepare(
                "SELECT f.path, k.line, coalesce(caller.qualname, '<file>'),
                        CASE WHEN k.callee_id IS NULL THEN 'external:' || coalesce(k.external, k.name)
                             ELSE cf.path || ':' || callee.qualname END
                 FROM calls k JOIN files f ON f.id = k.file_id
                 LEFT JOIN symbols caller ON caller.id = k.caller_id
                 LEFT JOIN symbols callee ON callee.id = k.callee_id
                 LEFT JOIN files cf ON cf.id = callee.file_id
                 WHERE k.usage = 'call'
                 ORDER BY f.path, k.line, k.col",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(format!(
                    "{}\t{}\t{}\t{}",
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?
                ))
            })?;
            rows.collect()
        })
        .expect("calls query")
}

/// Runs git in `dir` with a fixed identity; panics with git's error when it fails.
pub fn git_in(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
