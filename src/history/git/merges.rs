//! What a merge commit itself changed: `git diff-tree --cc` of each merge, read into
//! files and line ranges (the log stream shows merges without their diffs).

use super::*;

/// What a merge changed beyond taking one parent's version: the files and `-U0` hunks of
/// git's dense combined diff (`--cc`), as lines of the merged result.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MergeChange {
    pub hash: String,
    pub files: Vec<MergeFile>,
}

/// One file of a merge's combined diff.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MergeFile {
    pub path: String,
    /// The merged result's blob (all zeros when the merge deleted the file).
    pub blob: String,
    /// Hunks as ranges of the merged result (`old_*` unused: zero).
    pub hunks: Vec<Hunk>,
    /// Result lines not in some parent, and parent lines not in the result.
    pub added: u32,
    pub removed: u32,
}

/// The dense combined diffs of `merges`, in one `git log --no-walk --cc` run.
pub fn merge_changes(root: &Path, merges: &[String]) -> Result<Vec<MergeChange>> {
    if merges.is_empty() {
        return Ok(Vec::new());
    }
    let mut child = git(root)
        .args([
            "log",
            "--no-walk=unsorted",
            "--stdin",
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "--cc",
            "--raw",
            "-U0",
            "--no-abbrev",
            "--src-prefix=a/",
            "--dst-prefix=b/",
            "--format=%x01%H",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("starting git log --cc")?;
    let mut stdin = child.stdin.take().context("git log stdin")?;
    let input = merges.join("\n") + "\n";
    std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut out = BufReader::new(child.stdout.take().context("git log stdout")?);
    let stderr = drain(child.stderr.take());
    let mut result: Vec<MergeChange> = Vec::new();
    let mut line = Vec::new();
    // The file whose hunks are being read, as an index into the current merge's files.
    let mut current: Option<usize> = None;
    let mut columns = 0usize;
    loop {
        line.clear();
        if out.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        trim_newline(&mut line);
        if let Some(hash) = line.strip_prefix(&[0x01]) {
            result.push(MergeChange {
                hash: String::from_utf8_lossy(hash).trim().to_string(),
                files: Vec::new(),
            });
            current = None;
            continue;
        }
        let Some(merge) = result.last_mut() else {
            continue;
        };
        let text = String::from_utf8_lossy(&line);
        if let Some(rest) = text.strip_prefix("::") {
            // `::mode… sha… STATUS\tpath`: the result's blob is the last sha.
            let rest = rest.trim_start_matches(':');
            if let Some((meta, path)) = rest.split_once('\t') {
                let fields: Vec<&str> = meta.split(' ').collect();
                let n = fields.len().saturating_sub(1) / 2;
                merge.files.push(MergeFile {
                    path: unquote(path),
                    blob: (2 * n)
                        .checked_sub(1)
                        .and_then(|i| fields.get(i))
                        .unwrap_or(&"")
                        .to_string(),
                    ..MergeFile::default()
                });
            }
            continue;
        }
        if let Some(p) = text
            .strip_prefix("diff --cc ")
            .or(text.strip_prefix("diff --combined "))
        {
            let p = unquote(p);
            current = merge.files.iter().position(|f| f.path == p);
            columns = 0;
            continue;
        }
        let Some(i) = current else {
            continue;
        };
        if text.starts_with("@@@") {
            let ats = text.chars().take_while(|&c| c == '@').count();
            columns = ats - 1;
            // `@@@ -a,b -c,d +e,f @@@`: the result's range is the `+` one.
            if let Some(plus) = text.split(' ').find(|w| w.starts_with('+')) {
                let r = &plus[1..];
                let (s, l) = match r.split_once(',') {
                    Some((s, l)) => (s.parse().unwrap_or(0), l.parse().unwrap_or(0)),
                    None => (r.parse().unwrap_or(0), 1),
                };
                merge.files[i].hunks.push(Hunk {
                    old_start: 0,
                    old_len: 0,
                    new_start: s,
                    new_len: l,
                });
            }
            continue;
        }
        if columns > 0 && line.len() >= columns {
            let marks = &line[..columns];
            if marks.contains(&b'-') {
                merge.files[i].removed += 1;
            } else if marks.contains(&b'+') {
                merge.files[i].added += 1;
            }
        }
    }
    let status = child.wait().context("waiting for git log --cc")?;
    let err = stderr.join().unwrap_or_default();
    if !status.success() {
        bail!("git log --cc failed: {}", err.trim());
    }
    for m in &mut result {
        m.files
            .retain(|f| !f.hunks.is_empty() || f.blob.chars().all(|c| c == '0'));
    }
    Ok(result)
}
