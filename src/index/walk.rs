//! Finds the files to index: an `ignore` walk that honours `.gitignore`, `.ignore` and
//! `.llmcignore`, never follows a symlink, and sets aside (with a count per reason)
//! secrets, binaries, oversized files and anything it cannot read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::UNIX_EPOCH;

use ignore::{WalkBuilder, WalkState};
use serde::Serialize;

/// Why a file was not indexed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// Looks like a secret (`.env*`, keys, certificates, credentials).
    Secret,
    /// A known binary extension, or a NUL byte in the first 8 KiB.
    Binary,
    /// Larger than `index.max_file_size`.
    TooLarge,
    /// Symbolic links are never followed (their target, if inside the root, is indexed
    /// under its own path).
    Symlink,
    /// Could not be read (permissions, vanished during the walk, a path that is not UTF-8).
    Unreadable,
    /// Not a regular file: a FIFO, a device or a socket (never opened).
    Special,
    /// Changed type between the walk and the read (became a symlink, a FIFO or a
    /// directory), or lay outside the root when opened: not read (see `crate::source`).
    Changed,
    /// A build's output, a copy of sources kept elsewhere: a source map, a minified file,
    /// or a file that ends with a `sourceMappingURL` comment (see
    /// `crate::source::marked_generated`).
    Generated,
}

impl SkipReason {
    /// The name used in summaries and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::Secret => "secret",
            SkipReason::Binary => "binary",
            SkipReason::TooLarge => "too_large",
            SkipReason::Symlink => "symlink",
            SkipReason::Unreadable => "unreadable",
            SkipReason::Special => "special",
            SkipReason::Changed => "changed_type",
            SkipReason::Generated => "generated",
        }
    }
}

/// Counts of skipped files by reason.
pub type SkipCounts = BTreeMap<SkipReason, u64>;

/// A file the walk found worth indexing.
#[derive(Debug, Clone)]
pub struct WalkedFile {
    /// Relative to the root, with `/` separators.
    pub rel: String,
    pub abs: PathBuf,
    pub size: u64,
    pub mtime_ns: i64,
}

/// What the walk needs to know.
#[derive(Debug, Clone)]
pub struct WalkConfig {
    pub max_file_size: u64,
    pub include_secrets: bool,
    pub include_hidden: bool,
    pub include_generated: bool,
    pub threads: usize,
}

/// Walks `root`. The result is sorted by path.
pub fn walk(root: &Path, cfg: &WalkConfig) -> (Vec<WalkedFile>, SkipCounts) {
    let files = Mutex::new(Vec::new());
    let skipped = Mutex::new(SkipCounts::new());
    let skip = |r: SkipReason| {
        if let Ok(mut s) = skipped.lock() {
            *s.entry(r).or_insert(0) += 1;
        }
    };
    WalkBuilder::new(root)
        .hidden(!cfg.include_hidden)
        .follow_links(false)
        .require_git(false)
        .add_custom_ignore_filename(".llmcignore")
        .threads(cfg.threads)
        .filter_entry(|e| {
            let name = e.file_name();
            !(e.depth() > 0 && (name == ".git" || name == ".llmc"))
        })
        .build_parallel()
        .run(|| {
            Box::new(|entry| {
                let Ok(entry) = entry else {
                    skip(SkipReason::Unreadable);
                    return WalkState::Continue;
                };
                let Some(ft) = entry.file_type() else {
                    return WalkState::Continue;
                };
                if ft.is_symlink() {
                    skip(SkipReason::Symlink);
                    return WalkState::Continue;
                }
                if !ft.is_file() {
                    if !ft.is_dir() {
                        skip(SkipReason::Special);
                    }
                    return WalkState::Continue;
                }
                let path = entry.path();
                let Some(rel) = relative(root, path) else {
                    skip(SkipReason::Unreadable);
                    return WalkState::Continue;
                };
                let name = entry.file_name().to_string_lossy().to_ascii_lowercase();
                if !cfg.include_secrets && is_secret_path(&rel) {
                    skip(SkipReason::Secret);
                    return WalkState::Continue;
                }
                if is_binary_name(&name) {
                    skip(SkipReason::Binary);
                    return WalkState::Continue;
                }
                if !cfg.include_generated && crate::source::is_generated_name(&name) {
                    skip(SkipReason::Generated);
                    return WalkState::Continue;
                }
                let Ok(meta) = entry.metadata() else {
                    skip(SkipReason::Unreadable);
                    return WalkState::Continue;
                };
                if meta.len() > cfg.max_file_size {
                    skip(SkipReason::TooLarge);
                    return WalkState::Continue;
                }
                let mtime_ns = mtime_ns(&meta);
                if let Ok(mut f) = files.lock() {
                    f.push(WalkedFile {
                        rel,
                        abs: path.to_path_buf(),
                        size: meta.len(),
                        mtime_ns,
                    });
                }
                WalkState::Continue
            })
        });
    let mut files = files.into_inner().unwrap_or_default();
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    (files, skipped.into_inner().unwrap_or_default())
}

fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let mut out = String::new();
    for part in rel.components() {
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(part.as_os_str().to_str()?);
    }
    (!out.is_empty()).then_some(out)
}

/// Whether the file at `rel` (relative to the root) looks like a secret by its name or
/// where it lies (`.docker/config.json`, `.kube/config`).
pub fn is_secret_path(rel: &str) -> bool {
    let lower = rel.to_ascii_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    is_secret_name(name)
        || lower == ".docker/config.json"
        || lower.ends_with("/.docker/config.json")
        || lower == ".kube/config"
        || lower.ends_with("/.kube/config")
}

/// File names that look like secrets. `name` is lower-cased. Content is checked too, by
/// the index run (`crate::source::holds_secret`).
pub fn is_secret_name(name: &str) -> bool {
    const EXACT: &[&str] = &[
        "kubeconfig",
        "htpasswd",
        "docker-config.json",
        "terraform.tfstate",
        "terraform.tfstate.backup",
        "service-account.json",
        "service_account.json",
        "serviceaccount.json",
        "private_key.txt",
        "private-key.txt",
        "credentials",
        "credentials.json",
        "credentials.yml",
        "credentials.yaml",
        "credentials.xml",
        ".git-credentials",
        ".netrc",
        ".pgpass",
        ".htpasswd",
        ".npmrc",
        ".pypirc",
        "secrets.json",
        "secrets.yml",
        "secrets.yaml",
        "secrets.toml",
    ];
    const SUFFIX: &[&str] = &[
        ".env",
        ".ppk",
        ".tfstate",
        ".tfstate.backup",
        ".tfvars",
        "_key",
        "_rsa",
        "_dsa",
        "_ecdsa",
        "_ed25519",
        ".kubeconfig",
        "-service-account.json",
        "_service_account.json",
        ".pem",
        ".key",
        ".p12",
        ".pfx",
        ".keystore",
        ".jks",
        ".crt",
        ".der",
    ];
    const PREFIX: &[&str] = &[".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"];
    EXACT.contains(&name)
        || SUFFIX.iter().any(|s| name.ends_with(s))
        || PREFIX.iter().any(|p| name.starts_with(p))
}

/// File names whose extension says binary, so they are not even opened.
fn is_binary_name(name: &str) -> bool {
    const EXT: &[&str] = &[
        "png",
        "jpg",
        "jpeg",
        "gif",
        "bmp",
        "ico",
        "webp",
        "tiff",
        "psd",
        "pdf",
        "zip",
        "gz",
        "tgz",
        "bz2",
        "xz",
        "zst",
        "7z",
        "rar",
        "tar",
        "jar",
        "war",
        "class",
        "o",
        "a",
        "so",
        "dylib",
        "dll",
        "exe",
        "lib",
        "obj",
        "pyc",
        "pyo",
        "wasm",
        "rlib",
        "ttf",
        "otf",
        "woff",
        "woff2",
        "eot",
        "mp3",
        "mp4",
        "wav",
        "ogg",
        "flac",
        "avi",
        "mov",
        "mkv",
        "webm",
        "db",
        "sqlite",
        "sqlite3",
        "bin",
        "dat",
        "pack",
        "idx",
        "npy",
        "npz",
        "pkl",
        "parquet",
        "safetensors",
        "onnx",
        "pt",
        "whl",
        "deb",
        "rpm",
        "dmg",
        "iso",
    ];
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| EXT.contains(&ext))
}

pub use crate::source::looks_binary;

/// A file's modification time in nanoseconds since the epoch (0 when unknown).
pub fn mtime_ns(meta: &std::fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_names() {
        for n in [
            ".env",
            ".env.local",
            "server.pem",
            "tls.key",
            "id_rsa",
            "id_rsa.pub",
            "a.p12",
            "credentials.json",
        ] {
            assert!(is_secret_name(n), "{n}");
        }
        for n in [
            "prod.env",
            "deploy_key",
            "ssh_host_ed25519_key",
            "putty.ppk",
            "terraform.tfstate",
            "kubeconfig",
            "docker-config.json",
            "htpasswd",
            "my-project-service-account.json",
        ] {
            assert!(is_secret_name(n), "{n}");
        }
        for n in [
            "env.rs",
            "keys.py",
            "key.rs",
            "credentials.rs",
            "README.md",
            "monkey.py",
            "primary_key.rs",
            "environment.ts",
        ] {
            assert!(!is_secret_name(n), "{n}");
        }
    }
}
