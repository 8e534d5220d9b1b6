//! Reading the repository's files, trusting nothing about them: every read of a source
//! file (the index, `llmc status`, the lines an answer shows) goes through [`read`],
//! which refuses what is not a regular file inside the root *as opened*, not as the
//! walk saw it. Between the walk and the read a file can become a FIFO (a plain read
//! would block forever, holding the index's write lock) or a symlink to a file outside
//! the repository (which would be indexed under the repository's path).
//!
//! Also here: what makes bytes look binary, and the one way llmc splits text into lines
//! (a file with old Mac line endings, `\r` alone, is lines, not one line).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::File;
use std::io::Read as _;
use std::path::{Path, PathBuf};

/// Why a file could not be read as a source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// It does not exist or cannot be opened (permissions).
    Unreadable,
    /// It is not a regular file as opened: a symlink, a FIFO, a device, a socket or a
    /// directory (it changed type since the walk, or was never a file).
    NotAFile,
    /// As opened, it lies outside the root (a directory on its path became a symlink).
    Outside,
    /// Larger than the limit.
    TooLarge,
}

/// Reads the file at `root/rel`: opened without following a final symlink and without
/// blocking on a FIFO, checked to be a regular file of at most `max` bytes and (on
/// Linux) to lie inside `root` (the canonical root).
pub fn read(root: &Path, rel: &str, max: u64) -> Result<Vec<u8>, Refused> {
    let path = root.join(rel);
    let file = open_nofollow(&path).map_err(|e| match e.raw_os_error() {
        // ELOOP: the last component is a symlink. ENXIO: a FIFO with no writer.
        Some(code) if code == libc::ELOOP || code == libc::ENXIO => Refused::NotAFile,
        _ => Refused::Unreadable,
    })?;
    let meta = file.metadata().map_err(|_| Refused::Unreadable)?;
    if !meta.file_type().is_file() {
        return Err(Refused::NotAFile);
    }
    if meta.len() > max {
        return Err(Refused::TooLarge);
    }
    if !inside(root, &file) {
        return Err(Refused::Outside);
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // At most one byte past the limit: a file that grew since its stat is still bounded.
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|_| Refused::Unreadable)?;
    if bytes.len() as u64 > max {
        return Err(Refused::TooLarge);
    }
    Ok(bytes)
}

#[cfg(unix)]
fn open_nofollow(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
}

#[cfg(not(unix))]
fn open_nofollow(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

/// Whether the opened `file` lies inside `root`, by the path the kernel has for it. Where
/// the kernel does not say (no `/proc`), the final-component check of the open stands.
#[cfg(target_os = "linux")]
fn inside(root: &Path, file: &File) -> bool {
    use std::os::fd::AsRawFd as _;
    let Ok(real) = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())) else {
        return true;
    };
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    real.starts_with(root)
}

#[cfg(not(target_os = "linux"))]
fn inside(_root: &Path, _file: &File) -> bool {
    true
}

/// Whether a file name is a build's output by its name: a source map (`axios.js.map`,
/// `app.css.map`) or a minified file (`axios.min.js`, `site.min.css`), in any case; a
/// path's name is its last segment.
pub fn is_generated_name(name: &str) -> bool {
    const MAPPED: [&str; 7] = [
        ".js.map", ".cjs.map", ".mjs.map", ".css.map", ".ts.map", ".jsx.map", ".tsx.map",
    ];
    const MINIFIED: [&str; 4] = [".min.js", ".min.cjs", ".min.mjs", ".min.css"];
    let name = name.as_bytes();
    MAPPED.iter().chain(&MINIFIED).any(|end| {
        name.len() >= end.len()
            && name[name.len() - end.len()..].eq_ignore_ascii_case(end.as_bytes())
    })
}

/// Whether a file's content ends with the comment a bundler or a compiler writes after its
/// output (`//# sourceMappingURL=axios.js.map`, `/*# sourceMappingURL=… */` in CSS, the
/// older `//@`): the file is a build of sources kept elsewhere (axios commits its
/// `dist/` bundles, each a copy of `lib/`).
pub fn marked_generated(bytes: &[u8]) -> bool {
    let tail = &bytes[bytes.len().saturating_sub(512)..];
    let Some(last) = tail
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .rfind(|l| !l.is_empty())
    else {
        return false;
    };
    [
        "//# sourceMappingURL=",
        "//@ sourceMappingURL=",
        "/*# sourceMappingURL=",
    ]
    .iter()
    .any(|m| last.starts_with(m.as_bytes()))
}

/// True when the first 8 KiB look like binary data rather than text: a NUL byte, or more
/// than 3 % control characters that text does not use (random bytes have about 10 %;
/// text in any 8-bit encoding has none: tab, newlines, form feed and escape are allowed).
pub fn looks_binary(bytes: &[u8]) -> bool {
    let sample = &bytes[..bytes.len().min(8192)];
    if sample.contains(&0) {
        return true;
    }
    let controls = sample
        .iter()
        .filter(|&&b| matches!(b, 0x01..=0x08 | 0x0e..=0x1a | 0x1c..=0x1f | 0x7f))
        .count();
    controls * 100 > sample.len() * 3
}

/// Markers of a secret in a file's content, found in one pass; each is confirmed by
/// [`confirm`] (a word that merely starts like a token is not one).
const SECRET_MARKERS: &[&str] = &[
    // PEM private keys of every kind (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted).
    "PRIVATE KEY-----",
    // PuTTY private keys.
    "PuTTY-User-Key-File-",
    // A Google Cloud service-account key file.
    "\"private_key_id\"",
    // Cloud and service tokens: AWS access key ids, GitHub, Slack, Stripe, GitLab.
    "AKIA",
    "ASIA",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "github_pat_",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "sk_live_",
    "rk_live_",
    "glpat-",
    // A kubeconfig's client key, a Docker config's registry auth.
    "client-key-data:",
    "\"auths\"",
];

/// Whether `bytes` hold a secret: a private key block, a service-account key, a cloud
/// or service token, a kubeconfig client key or a Docker registry login. Files that do
/// are not indexed unless `index.include_secrets` (and then never cached).
pub fn holds_secret(bytes: &[u8]) -> bool {
    static MATCHER: std::sync::OnceLock<Option<aho_corasick::AhoCorasick>> =
        std::sync::OnceLock::new();
    let Some(ac) = MATCHER
        .get_or_init(|| aho_corasick::AhoCorasick::new(SECRET_MARKERS).ok())
        .as_ref()
    else {
        return false;
    };
    ac.find_overlapping_iter(bytes).any(|m| {
        let marker = SECRET_MARKERS[m.pattern().as_usize()];
        confirm(marker, &bytes[m.start()..], &bytes[..m.start()])
    })
}

/// Whether the text at a marker (`at` starts with it; `before` is what precedes it) is
/// the secret the marker announces.
fn confirm(marker: &str, at: &[u8], before: &[u8]) -> bool {
    let after = &at[marker.len()..];
    let run = |set: fn(u8) -> bool| after.iter().take_while(|&&b| set(b)).count();
    let upper_digit = |b: u8| b.is_ascii_uppercase() || b.is_ascii_digit();
    let token = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    // A token starts a word: `xAKIA...` is not an AWS key id.
    let word_start = !before.last().is_some_and(|&b| b.is_ascii_alphanumeric());
    match marker {
        "PRIVATE KEY-----" => {
            before.ends_with(b"-----BEGIN ") || {
                // `-----BEGIN RSA PRIVATE KEY-----`, `-----BEGIN ENCRYPTED PRIVATE KEY-----`.
                let line_start = before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                before[line_start..].starts_with(b"-----BEGIN ")
            }
        }
        "PuTTY-User-Key-File-" => true,
        "\"private_key_id\"" => {
            let window = &at[..at.len().min(4096)];
            window.windows(13).any(|w| w == b"\"private_key\"")
        }
        "AKIA" | "ASIA" => word_start && run(upper_digit) == 16,
        "ghp_" | "gho_" | "ghu_" | "ghs_" => word_start && run(token) >= 36,
        "github_pat_" => word_start && run(token) >= 40,
        "xoxb-" | "xoxp-" | "xoxa-" => word_start && run(token) >= 20,
        "sk_live_" | "rk_live_" => word_start && run(token) >= 16,
        "glpat-" => word_start && run(token) >= 20,
        "client-key-data:" => {
            let value = after.iter().skip_while(|&&b| b == b' ').take(40);
            value.filter(|b| b.is_ascii_alphanumeric()).count() >= 40
        }
        "\"auths\"" => {
            let window = &after[..after.len().min(4096)];
            window.windows(7).any(|w| w == b"\"auth\":")
        }
        _ => false,
    }
}

/// `text` with every line break as `\n`: a `\r` not followed by `\n` (old Mac line
/// endings) becomes `\n`, so that tree-sitter's rows, the chunks' lines and the lines an
/// answer shows agree. `\r\n` is left as it is (`str::lines` splits it).
pub fn unify_line_breaks(text: &str) -> Cow<'_, str> {
    let b = text.as_bytes();
    let lone = |i: usize| b[i] == b'\r' && b.get(i + 1) != Some(&b'\n');
    if !(0..b.len()).any(lone) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() != Some(&'\n') {
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The lines of a file's text as llmc numbers them (1-based by position).
pub fn lines(text: &str) -> Vec<String> {
    unify_line_breaks(text)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Whether a path is a type stub that declares what another file implements: Python's
/// `.pyi`, TypeScript's `.d.ts`.
pub fn is_type_stub(path: &str) -> bool {
    path.ends_with(".pyi") || path.ends_with(".d.ts")
}

/// Whether a path is a test, a test fixture or test data by the usual layouts: a `test`,
/// `tests`, `__tests__`, `spec`, `testdata`, `fixtures` or `test_*` directory, `conftest.py`,
/// `test_*.py`, `*_test.py`, `*_test.go`, `*.test.ts`, `*.spec.js`, `*Test.java`.
pub fn is_test_path(path: &str) -> bool {
    let mut segments = path.split('/').peekable();
    while let Some(seg) = segments.next() {
        let last = segments.peek().is_none();
        if !last {
            if matches!(
                seg,
                "test"
                    | "tests"
                    | "Tests"
                    | "testing"
                    | "__tests__"
                    | "spec"
                    | "specs"
                    | "testdata"
                    | "test_data"
                    | "fixtures"
                    | "__fixtures__"
            ) || test_source_set(seg)
                // A folder named as a test module is (`test_max_level_features/main.rs`,
                // a crate of tests beside log's `src/`).
                || seg.starts_with("test_")
            {
                return true;
            }
            continue;
        }
        let stem = seg.split('.').next().unwrap_or(seg);
        let ext = seg.rsplit_once('.').map_or("", |(_, e)| e);
        // JVM, .NET, Swift and PHP name a test class after what it tests (`BufferTest.kt`,
        // `ChainSuite.scala`, `LoggerTests.cs`); Ruby's RSpec files end in `_spec`.
        let class_named = matches!(
            ext,
            "java" | "kt" | "kts" | "scala" | "groovy" | "cs" | "swift" | "php"
        ) && ["Test", "Tests", "Spec", "Suite"]
            .iter()
            .any(|s| stem.len() > s.len() && stem.ends_with(s));
        return seg == "conftest.py"
            || stem.starts_with("test_")
            || stem.ends_with("_test")
            || stem.ends_with("_tests")
            || stem.ends_with("_spec")
            || seg.contains(".test.")
            || seg.contains(".spec.")
            || class_named;
    }
    false
}

/// A folder of tests by a build tool's naming: Gradle's and Kotlin Multiplatform's source
/// sets (`jvmTest`, `commonTest`, `androidUnitTest`, `testFixtures`) and .NET's test
/// projects (`Serilog.Tests`).
fn test_source_set(seg: &str) -> bool {
    let camel = ["Test", "Tests", "UnitTest"].iter().any(|s| {
        seg.strip_suffix(s)
            .is_some_and(|head| head.ends_with(|c: char| c.is_ascii_lowercase()))
    });
    camel || seg == "testFixtures" || seg.ends_with(".Tests") || seg.ends_with(".Test")
}

/// A file's content hash as the store keeps it (`files.hash`): xxh3-128 of the raw bytes,
/// in hex.
pub fn content_hash(bytes: &[u8]) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(bytes))
}

/// A source line as an answer row shows it, as `rg` does: trimmed, tabs as spaces, at
/// most `width` characters (then `…`).
pub fn row_text(line: &str, width: usize) -> String {
    let line = line.trim().replace('\t', " ");
    match line.char_indices().nth(width) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}

/// The text of repository files by line range, each file read (with [`read`]) once and
/// at most `max` bytes; an unreadable file has no lines.
#[derive(Debug)]
pub struct SourceText {
    root: PathBuf,
    max: u64,
    files: HashMap<String, Option<Vec<String>>>,
}

impl SourceText {
    pub fn new(root: &Path, max: u64) -> SourceText {
        SourceText {
            root: root.to_path_buf(),
            max,
            files: HashMap::new(),
        }
    }

    /// Lines `start..=end` (1-based) of `path`, or nothing when the file is unreadable.
    pub fn lines(&mut self, path: &str, start: u32, end: u32) -> &[String] {
        let (root, max) = (&self.root, self.max);
        let lines = self.files.entry(path.to_string()).or_insert_with(|| {
            let bytes = read(root, path, max).ok()?;
            Some(lines(&String::from_utf8_lossy(&bytes)))
        });
        match lines {
            Some(l) => {
                let lo = (start.max(1) as usize - 1).min(l.len());
                let hi = (end as usize).clamp(lo, l.len());
                &l[lo..hi]
            }
            None => &[],
        }
    }

    /// The joined text of a range.
    pub fn text(&mut self, path: &str, start: u32, end: u32) -> String {
        self.lines(path, start, end).join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_builds_output_by_its_name_or_its_last_line() {
        for name in [
            "axios.js.map",
            "dist/app.CSS.map",
            "axios.min.js",
            "site.min.css",
        ] {
            assert!(is_generated_name(name), "{name}");
        }
        for name in ["map.js", "minimal.js", "roadmap", "app.js", "sitemap.xml"] {
            assert!(!is_generated_name(name), "{name}");
        }
        assert!(marked_generated(
            b"var a = 1;\n//# sourceMappingURL=a.js.map\n\n"
        ));
        assert!(marked_generated(b"a{}\n/*# sourceMappingURL=a.css.map */"));
        assert!(marked_generated(b"var a;\n//@ sourceMappingURL=a.js.map"));
        // Only as the last line: a comment about source maps is no build's mark.
        assert!(!marked_generated(
            b"// see //# sourceMappingURL= in the docs\nvar a = 1;\n"
        ));
        assert!(!marked_generated(b""));
    }

    #[test]
    fn binary_is_nul_or_many_controls() {
        assert!(looks_binary(b"ab\0cd"));
        // Bytes 0..=255 over and over: about 10 % controls, no NUL in the sample after
        // the first byte is skipped.
        let random: Vec<u8> = (1..=255u8).cycle().take(8000).collect();
        assert!(looks_binary(&random));
        assert!(!looks_binary(
            "fn main() {\n\tprintln!(\"\x1b[1mhi\");\n}\n".as_bytes()
        ));
        // Latin-1 text is text, not binary.
        assert!(!looks_binary(b"caf\xe9 cr\xe8me br\xfbl\xe9e\n"));
    }

    #[test]
    fn secrets_are_found_in_content_and_look_alikes_are_not() {
        let key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n";
        for secret in [
            key,
            "x = 1\n-----BEGIN RSA PRIVATE KEY-----\nMIIE\n",
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\n",
            "PuTTY-User-Key-File-3: ssh-ed25519\n",
            "{\"type\": \"service_account\", \"private_key_id\": \"1\", \"private_key\": \"k\"}",
            "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n",
            "token: ghp_0123456789abcdefghijklmnopqrstuvwxyz\n",
            "SLACK=xoxb-123456789012-abcdefghijkl\n",
            "stripe = 'sk_live_0123456789abcdef'\n",
            "users:\n- user:\n    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlF\n",
            "{\"auths\": {\"registry.example.com\": {\"auth\": \"dXNlcjpwYXNz\"}}}",
        ] {
            assert!(holds_secret(secret.as_bytes()), "{secret}");
        }
        for innocent in [
            "// Parses a PEM private key: see parse_private_key.\n",
            "if line.starts_with(\"-----BEGIN\") && line.ends_with(\"KEY-----\") {}\n",
            "let akia = \"AKIA\"; // prefix of AWS key ids\n",
            "fn ghp_prefix() {} // ghp_ is GitHub's\n",
            "XAKIAIOSFODNN7EXAMPLE\n",
            "{\"auths\": {}}",
        ] {
            assert!(!holds_secret(innocent.as_bytes()), "{innocent}");
        }
    }

    #[test]
    fn lone_carriage_returns_break_lines() {
        assert_eq!(lines("a\rb\rc"), ["a", "b", "c"]);
        assert_eq!(lines("a\r\nb\r\n"), ["a", "b"]);
        assert_eq!(lines("a\r\rb"), ["a", "", "b"]);
        assert!(matches!(unify_line_breaks("a\r\nb"), Cow::Borrowed(_)));
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_inside_the_root_are_read() {
        let dir = tempfile::tempdir().expect("dir");
        let outside = tempfile::tempdir().expect("dir");
        let root = dir.path();
        std::fs::write(root.join("a.py"), "x = 1\n").expect("write");
        std::fs::write(outside.path().join("secret.txt"), "s").expect("write");
        assert_eq!(read(root, "a.py", 100).as_deref(), Ok(&b"x = 1\n"[..]));
        assert_eq!(read(root, "a.py", 3), Err(Refused::TooLarge));
        assert_eq!(read(root, "missing.py", 100), Err(Refused::Unreadable));
        std::os::unix::fs::symlink(outside.path().join("secret.txt"), root.join("link.py"))
            .expect("symlink");
        assert_eq!(read(root, "link.py", 100), Err(Refused::NotAFile));
        // A directory on the path replaced by a symlink to the outside.
        std::os::unix::fs::symlink(outside.path(), root.join("sub")).expect("symlink");
        assert_eq!(read(root, "sub/secret.txt", 100), Err(Refused::Outside));
        // A FIFO: refused at once, not waited on.
        let fifo = root.join("pipe.py");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        assert_eq!(read(root, "pipe.py", 100), Err(Refused::NotAFile));
    }
}
