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
use std::fs::File;
use std::io::Read as _;
use std::path::Path;

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

#[cfg(test)]
mod tests {
    use super::*;

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
