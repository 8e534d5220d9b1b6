//! The git subprocesses history ingestion needs, and the parser of their output: one
//! `git log` stream carries every new commit with its raw file changes and its `-U0`
//! hunks (see [`Hunks`]); one `git cat-file --batch` process serves the blobs.
//! Nothing here touches the store.

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use anyhow::{Context, Result, bail};

mod merges;
pub use merges::{MergeChange, MergeFile, merge_changes};

/// One commit as `git log` reports it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GitCommit {
    pub hash: String,
    pub parents: Vec<String>,
    pub author: String,
    pub email: String,
    /// Author date, strict ISO 8601 with the author's offset.
    pub author_iso: String,
    /// Author date, seconds since the epoch.
    pub author_time: i64,
    /// Committer date, seconds since the epoch.
    pub commit_time: i64,
    pub subject: String,
    pub body: String,
    /// Files changed relative to the first parent (none for merges).
    pub files: Vec<FileChange>,
    /// The `-U0` hunks of each changed text file.
    pub patches: Vec<Patch>,
}

/// One file changed by a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// `A`, `M`, `D`, `R`, `C` or `T`.
    pub status: char,
    /// The path after the commit (before it, for a deletion).
    pub path: String,
    /// The path before a rename or copy.
    pub old_path: Option<String>,
    pub old_blob: String,
    pub new_blob: String,
    pub old_mode: String,
    pub new_mode: String,
    /// Lines added and removed; `None` for a binary file.
    pub added: Option<u32>,
    pub removed: Option<u32>,
}

/// The hunks of one file in a commit's patch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Patch {
    /// `None` for an added file.
    pub old_path: Option<String>,
    /// `None` for a deleted file.
    pub new_path: Option<String>,
    pub hunks: Vec<Hunk>,
}

/// A `-U0` hunk: `@@ -old_start,old_len +new_start,new_len @@`. A zero length is a pure
/// insertion or deletion, and its start is then the line *before* the change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hunk {
    pub old_start: u32,
    pub old_len: u32,
    pub new_start: u32,
    pub new_len: u32,
}

impl Hunk {
    /// The hunk as git prints it, without the function context.
    pub fn header(&self) -> String {
        format!(
            "@@ -{},{} +{},{} @@",
            self.old_start, self.old_len, self.new_start, self.new_len
        )
    }
}

/// A `git` command run in `root` with settings that make its output parseable whatever
/// the user's configuration says.
pub fn git(root: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(root)
        .args([
            "-c",
            "core.quotePath=false",
            "-c",
            "diff.noprefix=false",
            "-c",
            "diff.mnemonicPrefix=false",
            "-c",
            "log.showSignature=false",
            // The root commit's files, and hunks never fused across unchanged lines.
            "-c",
            "log.showRoot=true",
            "-c",
            "diff.interHunkContext=0",
            "-c",
            "diff.relative=false",
        ])
        // The repository at `root`, whatever a surrounding git process exported.
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .env("GIT_PAGER", "cat")
        .env("LC_ALL", "C")
        // A partial clone's missing objects are never fetched from its remote: llmc
        // reads what is on this machine and nothing else (git 2.44 and later).
        .env("GIT_NO_LAZY_FETCH", "1")
        .stdin(Stdio::null());
    cmd
}

/// Whether the repository whose git directory is `git_dir` is a partial clone (objects
/// left on a promisor remote, `git clone --filter=...`): its old file versions are not on
/// this machine. Git's own test: `extensions.partialClone` is set, or a remote is marked
/// `promisor`. A `.promisor` pack alone is not enough: a plain `git clone` of a partial
/// clone copies those files and has every object it can reach locally.
pub fn is_partial_clone(git_dir: &Path) -> bool {
    let common = std::fs::read_to_string(git_dir.join("commondir"))
        .map(|c| git_dir.join(c.trim()))
        .unwrap_or_else(|_| git_dir.to_path_buf());
    let out = Command::new("git")
        .arg("--git-dir")
        .arg(&common)
        .args([
            "config",
            "--get-regexp",
            r"^(extensions\.partialclone|remote\..*\.promisor)$",
        ])
        .env_remove("GIT_DIR")
        .env_remove("GIT_CONFIG_PARAMETERS")
        .env("LC_ALL", "C")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output();
    let Ok(out) = out else {
        return false;
    };
    String::from_utf8_lossy(&out.stdout).lines().any(|line| {
        let mut kv = line.splitn(2, ' ');
        let key = kv.next().unwrap_or_default();
        let value = kv.next().unwrap_or_default().trim();
        if key.ends_with(".promisor") {
            matches!(
                value.to_ascii_lowercase().as_str(),
                "true" | "yes" | "on" | "1"
            )
        } else {
            !value.is_empty()
        }
    })
}

/// Runs git and returns its stdout, or an error with its stderr.
pub fn output(root: &Path, args: &[&str]) -> Result<Vec<u8>> {
    let out = git(root)
        .args(args)
        .stderr(Stdio::piped())
        .output()
        .with_context(|| format!("running git {}", args.join(" ")))?;
    if !out.status.success() {
        bail!(
            "git {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(out.stdout)
}

/// Runs git; `Ok(None)` when it exits non-zero (a question answered "no").
pub fn try_output(root: &Path, args: &[&str]) -> Result<Option<Vec<u8>>> {
    let out = git(root)
        .args(args)
        .stderr(Stdio::null())
        .output()
        .with_context(|| format!("running git {}", args.join(" ")))?;
    Ok(out.status.success().then_some(out.stdout))
}

/// The flags of the one `git log` run that feeds ingestion. Merges carry no diff (as in
/// plain `git log -p`): their changes are those of the commits they merge.
pub const LOG_ARGS: &[&str] = &[
    "log",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--diff-merges=off",
    // The commits given, in the order given (newest first), each against its first parent.
    "--no-walk=unsorted",
    "-M",
    "--raw",
    "-p",
    "-U0",
    "--no-abbrev",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "--format=%x01%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%at%x1f%ct%x1f%s%x1f%b%x02",
    "--stdin",
];

/// Which `-U0` hunks a [`LogStream`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hunks {
    /// None (a partial clone: they would need file versions that are not on this
    /// machine). Files have no line counts.
    None,
    /// Every text file's.
    All,
    /// Those of files in no language llmc parses. Code files are shown as binary (no
    /// hunks, no line counts): history reads both of their versions anyway and diffs
    /// them itself ([`super::code_hunks`]) rather than have git read them a second time.
    /// A repository's own attributes take precedence (a `*.py diff=python` there brings
    /// git's hunks back, and they are used).
    ButCode,
    /// None from git, which then reads no file version: files have no line counts but
    /// code files, whose hunks are made as for `ButCode`. For a repository that lacks a
    /// version git log would read (it stops there otherwise).
    NoneFromGit,
}

/// The name of the git attributes file that shows code files to the history's `git log`
/// as binary ([`Hunks::ButCode`]).
const ATTRIBUTES_FILE: &str = "history.gitattributes";

/// Writes the attributes file for [`Hunks::ButCode`] in `dir` (the index's directory)
/// when it is missing there or says something else, and returns its path. A file kept
/// there, not a temporary one: each run killed while reading (a SIGKILL, a machine going
/// down) left its temporary file behind.
pub fn code_attributes(dir: &Path) -> Result<PathBuf> {
    let path = dir.join(ATTRIBUTES_FILE);
    let want: String = crate::syntax::lang::code_path_patterns()
        .iter()
        .map(|p| format!("{p} -diff\n"))
        .collect();
    if std::fs::read(&path).ok().as_deref() != Some(want.as_bytes()) {
        // Written whole under another name and renamed over it, so a git log that
        // reads it never sees it half written.
        let mut file = tempfile::Builder::new()
            .prefix(".history.gitattributes.")
            .tempfile_in(dir)
            .with_context(|| format!("writing git attributes in {}", dir.display()))?;
        file.write_all(want.as_bytes())?;
        file.persist(&path)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(path)
}

/// A running `git log` whose commits are read one at a time, in the order given.
pub struct LogStream {
    child: Child,
    out: BufReader<ReadAhead>,
    /// Collects git's stderr (so warnings can never fill the pipe and stall git).
    stderr: Option<std::thread::JoinHandle<String>>,
    /// Files' line counts are not known from git ([`Hunks::NoneFromGit`]).
    counts_unknown: bool,
    /// A header read ahead while finishing the previous commit.
    pending: Option<GitCommit>,
    /// Commits read and given back ([`LogStream::unread`]), served first.
    unread: std::collections::VecDeque<GitCommit>,
    done: bool,
}

impl LogStream {
    /// Starts `git log` over the commits in `revs` (full hashes), shown in that order,
    /// with the hunks `hunks` asks for; [`Hunks::ButCode`] needs the file
    /// [`code_attributes`] wrote (`attributes`).
    pub fn start(
        root: &Path,
        revs: &[String],
        hunks: Hunks,
        attributes: Option<&Path>,
    ) -> Result<LogStream> {
        let mut args: Vec<String> = Vec::new();
        if hunks == Hunks::ButCode {
            let file = attributes.context("code files' hunks without their attributes file")?;
            args.push("-c".into());
            args.push(format!("core.attributesFile={}", file.display()));
        }
        args.extend(
            LOG_ARGS
                .iter()
                .filter(|a| {
                    matches!(hunks, Hunks::All | Hunks::ButCode) || !matches!(**a, "-p" | "-U0")
                })
                .map(|a| a.to_string()),
        );
        let mut child = git(root)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .context("starting git log")?;
        let mut stdin = child.stdin.take().context("git log stdin")?;
        let input = revs.join("\n") + "\n";
        // The revision list is small next to a pipe buffer only for short lists: write it
        // from a thread so a long one cannot deadlock against git's output.
        std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let out = BufReader::new(ReadAhead::start(
            child.stdout.take().context("git log stdout")?,
        ));
        let stderr = drain(child.stderr.take());
        Ok(LogStream {
            child,
            counts_unknown: hunks == Hunks::NoneFromGit,
            out,
            stderr: Some(stderr),
            pending: None,
            unread: Default::default(),
            done: false,
        })
    }

    /// The next commit, or `None` at the end of the log.
    pub fn next_commit(&mut self) -> Result<Option<GitCommit>> {
        if let Some(c) = self.unread.pop_front() {
            return Ok(Some(c));
        }
        if self.done {
            return Ok(None);
        }
        let mut commit = match self.pending.take() {
            Some(c) => c,
            None => match self.read_header()? {
                Some(c) => c,
                None => return self.finish(),
            },
        };
        let mut line = Vec::new();
        let mut section: Option<Section> = None;
        loop {
            line.clear();
            let n = self.out.read_until(b'\n', &mut line)?;
            if n == 0 {
                self.done = true;
                break;
            }
            if line.first() == Some(&0x01) {
                self.pending = Some(parse_header(&mut self.out, &line[1..])?);
                break;
            }
            trim_newline(&mut line);
            parse_diff_line(&line, &mut commit, &mut section);
        }
        close_section(&mut commit, section.take());
        settle_counts(&mut commit);
        if self.counts_unknown {
            for f in &mut commit.files {
                (f.added, f.removed) = (None, None);
            }
        }
        if self.done {
            self.finish()?;
        }
        Ok(Some(commit))
    }

    fn read_header(&mut self) -> Result<Option<GitCommit>> {
        let mut line = Vec::new();
        loop {
            line.clear();
            if self.out.read_until(b'\n', &mut line)? == 0 {
                return Ok(None);
            }
            if line.first() == Some(&0x01) {
                return Ok(Some(parse_header(&mut self.out, &line[1..])?));
            }
        }
    }

    fn finish(&mut self) -> Result<Option<GitCommit>> {
        self.done = true;
        let status = self.child.wait().context("waiting for git log")?;
        let err = self
            .stderr
            .take()
            .and_then(|h| h.join().ok())
            .unwrap_or_default();
        if !status.success() {
            bail!("git log failed: {}", err.trim());
        }
        Ok(None)
    }
}

impl LogStream {
    /// Whether every commit was read.
    pub fn finished(&self) -> bool {
        self.done && self.unread.is_empty()
    }

    /// Up to `n` next commits (fewer at the end of the log).
    pub fn next_commits(&mut self, n: usize) -> Result<Vec<GitCommit>> {
        let mut commits = Vec::with_capacity(n.min(4096));
        while commits.len() < n {
            match self.next_commit()? {
                Some(c) => commits.push(c),
                None => break,
            }
        }
        Ok(commits)
    }

    /// Gives back `commits`, read from this stream in order: the next calls return them
    /// first.
    pub fn unread(&mut self, commits: Vec<GitCommit>) {
        for c in commits.into_iter().rev() {
            self.unread.push_front(c);
        }
    }
}

impl Drop for LogStream {
    fn drop(&mut self) {
        if !self.done {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// A child's output read on a thread into memory, up to [`ReadAhead::CHUNKS`] chunks
/// ahead: `git log` works out the next commits' diffs while this process is busy with
/// the last ones, instead of waiting on a full pipe.
struct ReadAhead {
    rx: std::sync::mpsc::Receiver<std::io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    at: usize,
}

impl ReadAhead {
    const CHUNK: usize = 1 << 16;
    /// 16 MiB at most read ahead.
    const CHUNKS: usize = 256;

    fn start(mut from: ChildStdout) -> ReadAhead {
        let (tx, rx) = std::sync::mpsc::sync_channel(Self::CHUNKS);
        std::thread::spawn(move || {
            loop {
                let mut chunk = vec![0; Self::CHUNK];
                let read = match from.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => {
                        chunk.truncate(n);
                        Ok(chunk)
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => Err(e),
                };
                let failed = read.is_err();
                // The reader gone (the stream dropped) or the output broken: stop.
                if tx.send(read).is_err() || failed {
                    break;
                }
            }
        });
        ReadAhead {
            rx,
            chunk: Vec::new(),
            at: 0,
        }
    }
}

impl Read for ReadAhead {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.chunk.len() {
            match self.rx.recv() {
                Ok(chunk) => {
                    self.chunk = chunk?;
                    self.at = 0;
                }
                // The thread ended: the output is at its end.
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Reads the rest of a header (the body may span lines) up to `\x02`.
fn parse_header(out: &mut impl BufRead, first: &[u8]) -> Result<GitCommit> {
    let mut raw = first.to_vec();
    while !raw.contains(&0x02) {
        if out.read_until(b'\n', &mut raw)? == 0 {
            bail!("git log ended inside a commit header");
        }
    }
    let end = raw.iter().position(|&b| b == 0x02).unwrap_or(raw.len());
    let text = String::from_utf8_lossy(&raw[..end]);
    let f: Vec<&str> = text.split('\x1f').collect();
    if f.len() < 9 {
        bail!("unexpected git log header: {text:?}");
    }
    Ok(GitCommit {
        hash: f[0].to_string(),
        parents: f[1].split_whitespace().map(str::to_string).collect(),
        author: f[2].to_string(),
        email: f[3].to_string(),
        // Git versions differ on a zero offset (`+00:00` or `Z`): always `Z`.
        author_iso: match f[4].strip_suffix("+00:00") {
            Some(head) => format!("{head}Z"),
            None => f[4].to_string(),
        },
        author_time: f[5].trim().parse().unwrap_or(0),
        commit_time: f[6].trim().parse().unwrap_or(0),
        subject: f[7].to_string(),
        body: f[8..].join("\x1f").trim().to_string(),
        files: Vec::new(),
        patches: Vec::new(),
    })
}

/// The patch section being read: its header until the first hunk.
struct Section {
    patch: Patch,
    in_hunks: bool,
    binary: bool,
    header: String,
}

fn parse_diff_line(line: &[u8], commit: &mut GitCommit, section: &mut Option<Section>) {
    if let Some(rest) = line.strip_prefix(b":") {
        if let Some(fc) = parse_raw(&String::from_utf8_lossy(rest)) {
            commit.files.push(fc);
        }
        return;
    }
    if line.starts_with(b"diff --git ") {
        close_section(commit, section.take());
        *section = Some(Section {
            patch: Patch::default(),
            in_hunks: false,
            binary: false,
            header: String::from_utf8_lossy(line).into_owned(),
        });
        return;
    }
    let Some(sec) = section.as_mut() else {
        return;
    };
    if line.starts_with(b"@@ ") {
        sec.in_hunks = true;
        if let Some(h) = parse_hunk(&String::from_utf8_lossy(line)) {
            sec.patch.hunks.push(h);
        }
        return;
    }
    if sec.in_hunks {
        return;
    }
    let text = String::from_utf8_lossy(line);
    if let Some(p) = text.strip_prefix("--- ") {
        sec.patch.old_path = side_path(p, "a/");
    } else if let Some(p) = text.strip_prefix("+++ ") {
        sec.patch.new_path = side_path(p, "b/");
    } else if text.starts_with("Binary files ") || text == "GIT binary patch" {
        sec.binary = true;
    }
}

fn close_section(commit: &mut GitCommit, section: Option<Section>) {
    let Some(sec) = section else {
        return;
    };
    if sec.binary {
        // Which file: the one whose paths the `diff --git` line names.
        for f in &mut commit.files {
            let old = f.old_path.as_deref().unwrap_or(&f.path);
            if sec.header == format!("diff --git a/{old} b/{}", f.path) {
                f.added = None;
                f.removed = None;
            }
        }
        return;
    }
    if !sec.patch.hunks.is_empty() {
        commit.patches.push(sec.patch);
    }
}

/// Line counts from the hunks (what `--numstat` would print), binary files excepted.
fn settle_counts(commit: &mut GitCommit) {
    for f in &mut commit.files {
        if f.added.is_none() {
            continue;
        }
        let (mut add, mut del) = (0, 0);
        for p in &commit.patches {
            let same = p.new_path.as_deref() == Some(f.path.as_str())
                || (p.new_path.is_none() && p.old_path.as_deref() == Some(f.path.as_str()));
            if same {
                for h in &p.hunks {
                    add += h.new_len;
                    del += h.old_len;
                }
            }
        }
        f.added = Some(add);
        f.removed = Some(del);
    }
}

/// `100644 100644 <sha> <sha> M\tpath` (or `R086\told\tnew`), the leading `:` removed.
fn parse_raw(rest: &str) -> Option<FileChange> {
    let (meta, paths) = rest.split_once('\t')?;
    let m: Vec<&str> = meta.split(' ').collect();
    if m.len() < 5 {
        return None;
    }
    let status = m[4].chars().next()?;
    let mut ps = split_paths(paths);
    let (path, old_path) = match (status, ps.len()) {
        ('R' | 'C', 2) => {
            let new = ps.pop()?;
            (new, ps.pop())
        }
        (_, 1) => (ps.pop()?, None),
        _ => return None,
    };
    Some(FileChange {
        status,
        path,
        old_path,
        old_mode: m[0].to_string(),
        new_mode: m[1].to_string(),
        old_blob: m[2].to_string(),
        new_blob: m[3].to_string(),
        added: Some(0),
        removed: Some(0),
    })
}

/// Tab-separated paths, each possibly C-quoted.
fn split_paths(s: &str) -> Vec<String> {
    s.split('\t').map(unquote).collect()
}

/// `a/path`, `"a/pa\"th"` or `/dev/null` → the path without its prefix.
fn side_path(p: &str, prefix: &str) -> Option<String> {
    if p == "/dev/null" {
        return None;
    }
    let p = unquote(p);
    Some(p.strip_prefix(prefix).unwrap_or(&p).to_string())
}

/// Undoes git's C-style quoting of a path (`core.quotePath=false` still quotes control
/// characters, `"` and `\`).
pub fn unquote(s: &str) -> String {
    let Some(inner) = s.strip_prefix('"').and_then(|r| r.strip_suffix('"')) else {
        return s.to_string();
    };
    let bytes = inner.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b != b'\\' || i + 1 >= bytes.len() {
            out.push(b);
            i += 1;
            continue;
        }
        let c = bytes[i + 1];
        i += 2;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'v' => out.push(11),
            b'0'..=b'7' => {
                let mut v = u32::from(c - b'0');
                let mut k = 0;
                while k < 2 && i < bytes.len() && (b'0'..=b'7').contains(&bytes[i]) {
                    v = v * 8 + u32::from(bytes[i] - b'0');
                    i += 1;
                    k += 1;
                }
                out.push(v as u8);
            }
            other => out.push(other),
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `@@ -a[,b] +c[,d] @@ …`.
pub fn parse_hunk(line: &str) -> Option<Hunk> {
    let rest = line.strip_prefix("@@ -")?;
    let (old, rest) = rest.split_once(" +")?;
    let (new, _) = rest.split_once(" @@")?;
    let range = |r: &str| -> Option<(u32, u32)> {
        match r.split_once(',') {
            Some((s, l)) => Some((s.parse().ok()?, l.parse().ok()?)),
            None => Some((r.parse().ok()?, 1)),
        }
    };
    let (old_start, old_len) = range(old)?;
    let (new_start, new_len) = range(new)?;
    Some(Hunk {
        old_start,
        old_len,
        new_start,
        new_len,
    })
}

fn trim_newline(line: &mut Vec<u8>) {
    if line.last() == Some(&b'\n') {
        line.pop();
    }
}

/// Reads a child's stderr to the end on a thread.
fn drain(stderr: Option<std::process::ChildStderr>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut err = String::new();
        if let Some(mut e) = stderr {
            let _ = e.read_to_string(&mut err);
        }
        err
    })
}

/// A `git cat-file --batch` process: blobs by id, one at a time.
pub struct Blobs {
    child: Child,
    input: BufWriter<ChildStdin>,
    out: BufReader<ChildStdout>,
}

impl Blobs {
    pub fn start(root: &Path) -> Result<Blobs> {
        let mut child = git(root)
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("starting git cat-file")?;
        let input = BufWriter::new(child.stdin.take().context("git cat-file stdin")?);
        let out = BufReader::new(child.stdout.take().context("git cat-file stdout")?);
        Ok(Blobs { child, input, out })
    }

    /// The content of blob `id`; `None` when git does not have it (or it is no blob).
    pub fn get(&mut self, id: &str) -> Result<Option<Vec<u8>>> {
        writeln!(self.input, "{id}")?;
        self.input.flush().context("writing to git cat-file")?;
        self.read_one()
    }

    /// The contents of blobs `ids`, in order, asked for a few dozen at a time: one round
    /// trip to git for each group rather than for each blob.
    pub fn get_many(&mut self, ids: &[&str]) -> Result<Vec<Option<Vec<u8>>>> {
        // A group's requests (at most 65 bytes each) fit in the smallest pipe buffer a
        // system gives (one 4 KiB page), so writing them all before reading can never
        // block on git, whose own writes wait for our reads.
        const GROUP: usize = 48;
        let mut out = Vec::with_capacity(ids.len());
        for group in ids.chunks(GROUP) {
            for id in group {
                writeln!(self.input, "{id}")?;
            }
            self.input.flush().context("writing to git cat-file")?;
            for _ in group {
                out.push(self.read_one()?);
            }
        }
        Ok(out)
    }

    /// The next object git prints.
    fn read_one(&mut self) -> Result<Option<Vec<u8>>> {
        let mut header = String::new();
        if self.out.read_line(&mut header)? == 0 {
            bail!("git cat-file ended early");
        }
        let parts: Vec<&str> = header.split_whitespace().collect();
        if parts.len() == 2 && parts[1] == "missing" {
            return Ok(None);
        }
        if parts.len() < 3 {
            bail!("unexpected git cat-file header: {header:?}");
        }
        let size: usize = parts[2]
            .parse()
            .with_context(|| format!("git cat-file size in {header:?}"))?;
        let mut buf = vec![0; size + 1];
        self.out
            .read_exact(&mut buf)
            .context("reading from git cat-file")?;
        buf.pop();
        Ok((parts[1] == "blob").then_some(buf))
    }
}

impl Drop for Blobs {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The commits a shallow clone cuts the history at (empty when it is complete).
pub fn shallow_boundary(git_dir: Option<PathBuf>) -> Vec<String> {
    let Some(dir) = git_dir else {
        return Vec::new();
    };
    let mut v: Vec<String> = std::fs::read_to_string(dir.join("shallow"))
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    v.sort();
    v
}

/// HEAD's commit read from the files under `.git` (loose or packed ref), without running
/// git: `llmc log` checks it on every call. `None` when it cannot tell (then no check).
pub fn head_from_files(root: &Path) -> Option<String> {
    let dir = crate::root::worktree_git_dir(root)?;
    let common = crate::root::common_dir(&dir);
    let head = std::fs::read_to_string(dir.join("HEAD")).ok()?;
    let head = head.trim();
    let Some(name) = head.strip_prefix("ref:").map(str::trim) else {
        return is_hash(head).then(|| head.to_string());
    };
    for base in [&dir, &common] {
        if let Ok(v) = std::fs::read_to_string(base.join(name)) {
            let v = v.trim();
            return is_hash(v).then(|| v.to_string());
        }
    }
    let packed = std::fs::read_to_string(common.join("packed-refs")).ok()?;
    packed.lines().find_map(|l| {
        let (hash, r) = l.split_once(' ')?;
        (r == name && is_hash(hash)).then(|| hash.to_string())
    })
}

fn is_hash(s: &str) -> bool {
    (s.len() == 40 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hunk_headers_with_and_without_lengths() {
        assert_eq!(
            parse_hunk("@@ -3,0 +4,2 @@ fn main() {"),
            Some(Hunk {
                old_start: 3,
                old_len: 0,
                new_start: 4,
                new_len: 2
            })
        );
        assert_eq!(
            parse_hunk("@@ -7 +7 @@"),
            Some(Hunk {
                old_start: 7,
                old_len: 1,
                new_start: 7,
                new_len: 1
            })
        );
    }

    #[test]
    fn parses_raw_lines_with_renames_and_quoted_paths() {
        let r = parse_raw("100644 100644 aaa bbb R086\told/a.rs\tnew/b.rs").expect("raw");
        assert_eq!(r.status, 'R');
        assert_eq!(r.path, "new/b.rs");
        assert_eq!(r.old_path.as_deref(), Some("old/a.rs"));
        let q = parse_raw("000000 100644 000 ccc A\t\"we\\\"ird\\tname.py\"").expect("raw");
        assert_eq!(q.path, "we\"ird\tname.py");
        assert_eq!(unquote("\"caf\\303\\251.rs\""), "café.rs");
    }

    /// Commits read ahead and given back are read again, in order, before the rest; the
    /// stream is not finished while any are left.
    #[test]
    fn commits_given_back_are_read_again_first() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        let run = |args: &[&str]| {
            let ok = git(root)
                .args(args)
                .env("GIT_AUTHOR_DATE", "2024-01-01T00:00:00Z")
                .env("GIT_COMMITTER_DATE", "2024-01-01T00:00:00Z")
                .output()
                .expect("git runs")
                .status
                .success();
            assert!(ok, "git {args:?}");
        };
        run(&["init", "-q"]);
        for i in 0..4 {
            std::fs::write(root.join("a.py"), format!("x = {i}\n")).expect("write");
            run(&["add", "a.py"]);
            run(&[
                "-c",
                "user.name=T",
                "-c",
                "user.email=t@e",
                "commit",
                "-q",
                "-m",
                &format!("c{i}"),
            ]);
        }
        let out = git(root)
            .args(["rev-list", "HEAD"])
            .output()
            .expect("rev-list");
        let revs: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect();
        let subjects = |cs: &[GitCommit]| cs.iter().map(|c| c.subject.clone()).collect::<Vec<_>>();
        let mut stream = LogStream::start(root, &revs, Hunks::All, None).expect("git log");
        let first = stream.next_commits(1).expect("read");
        let ahead = stream.next_commits(10).expect("read ahead");
        assert_eq!(subjects(&ahead), ["c2", "c1", "c0"]);
        // The log is read to its end, but three commits are given back.
        assert!(stream.finished());
        stream.unread(ahead);
        assert!(!stream.finished());
        let rest = stream.next_commits(10).expect("read again");
        assert_eq!(subjects(&first), ["c3"]);
        assert_eq!(subjects(&rest), ["c2", "c1", "c0"]);
        assert!(stream.next_commit().expect("end").is_none());
        assert!(stream.finished());
    }
}
