//! Which definitions a change touched: each `-U0` hunk is laid over the definitions of
//! the file as it was before the commit (its removed lines) and as it is after (its added
//! lines). Pure: definitions and hunks in, touched definitions out.

use std::collections::BTreeMap;

use super::git::Hunk;

/// A definition of one version of a file, as far as history needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Def {
    pub name: String,
    pub qualname: String,
    pub kind: &'static str,
    /// 1-based inclusive, from the first line of its doc comment or attributes to its end.
    pub start_line: u32,
    pub end_line: u32,
}

/// How a commit changed a definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    Added,
    Modified,
    Deleted,
}

impl Change {
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Modified => "modified",
            Change::Deleted => "deleted",
        }
    }
}

/// One definition a commit touched in one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Touch {
    pub name: String,
    pub qualname: String,
    pub kind: &'static str,
    pub change: Change,
    /// Lines of the definition added and removed by the commit.
    pub added: u32,
    pub removed: u32,
    /// The definition's lines after the commit (before it, when deleted).
    pub start_line: u32,
    pub end_line: u32,
    /// The hunks that overlap it, as git prints their headers.
    pub hunks: Vec<String>,
}

/// The definitions that `hunks` touch, given the file's definitions before (`old`) and
/// after (`new`) the commit. A definition is matched across the two versions by kind and
/// qualified name; one present only after was added, only before was deleted. Ordered by
/// position in the new file (deleted ones by their old position, after the rest).
pub fn touched(old: &[Def], new: &[Def], hunks: &[Hunk]) -> Vec<Touch> {
    type Key<'a> = (&'a str, &'a str);
    let mut out: BTreeMap<Key, Touch> = BTreeMap::new();
    let mut order: Vec<Key> = Vec::new();
    let old_keys: std::collections::HashSet<Key> =
        old.iter().map(|d| (d.qualname.as_str(), d.kind)).collect();
    let new_keys: std::collections::HashSet<Key> =
        new.iter().map(|d| (d.qualname.as_str(), d.kind)).collect();

    for d in new {
        let key = (d.qualname.as_str(), d.kind);
        let mut added = 0;
        let mut hs = Vec::new();
        for h in hunks {
            let o = overlap(h.new_start, h.new_len, d.start_line, d.end_line);
            if o > 0 {
                added += o;
                hs.push(h.header());
            }
        }
        if hs.is_empty() {
            continue;
        }
        let change = if old_keys.contains(&key) {
            Change::Modified
        } else {
            Change::Added
        };
        let t = out.entry(key).or_insert_with(|| {
            order.push(key);
            Touch {
                name: d.name.clone(),
                qualname: d.qualname.clone(),
                kind: d.kind,
                change,
                added: 0,
                removed: 0,
                start_line: d.start_line,
                end_line: d.end_line,
                hunks: Vec::new(),
            }
        });
        t.added += added;
        merge_hunks(&mut t.hunks, hs);
    }
    let mut deleted_order = Vec::new();
    for d in old {
        let key = (d.qualname.as_str(), d.kind);
        let mut removed = 0;
        let mut hs = Vec::new();
        for h in hunks {
            let o = overlap(h.old_start, h.old_len, d.start_line, d.end_line);
            if o > 0 {
                removed += o;
                hs.push(h.header());
            }
        }
        if hs.is_empty() {
            continue;
        }
        let gone = !new_keys.contains(&key);
        let t = out.entry(key).or_insert_with(|| {
            if gone {
                deleted_order.push(key);
            } else {
                order.push(key);
            }
            Touch {
                name: d.name.clone(),
                qualname: d.qualname.clone(),
                kind: d.kind,
                change: if gone {
                    Change::Deleted
                } else {
                    Change::Modified
                },
                added: 0,
                removed: 0,
                start_line: d.start_line,
                end_line: d.end_line,
                hunks: Vec::new(),
            }
        });
        t.removed += removed;
        merge_hunks(&mut t.hunks, hs);
    }
    // A definition that exists on both sides but only its old lines were hit keeps the
    // line range of the new version.
    for d in new {
        let key = (d.qualname.as_str(), d.kind);
        if let Some(t) = out.get_mut(&key)
            && t.change == Change::Modified
        {
            t.start_line = d.start_line;
            t.end_line = d.end_line;
        }
    }
    order
        .into_iter()
        .chain(deleted_order)
        .filter_map(|k| out.remove(&k))
        .collect()
}

/// Lines of `start..start+len` (a hunk side) within `lo..=hi` (a definition).
fn overlap(start: u32, len: u32, lo: u32, hi: u32) -> u32 {
    if len == 0 {
        return 0;
    }
    let end = start + len - 1;
    let a = start.max(lo);
    let b = end.min(hi);
    if a > b { 0 } else { b - a + 1 }
}

fn merge_hunks(into: &mut Vec<String>, more: Vec<String>) {
    for h in more {
        if !into.contains(&h) {
            into.push(h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(q: &str, s: u32, e: u32) -> Def {
        Def {
            name: q.rsplit('.').next().unwrap_or(q).to_string(),
            qualname: q.to_string(),
            kind: "function",
            start_line: s,
            end_line: e,
        }
    }

    fn hunk(os: u32, ol: u32, ns: u32, nl: u32) -> Hunk {
        Hunk {
            old_start: os,
            old_len: ol,
            new_start: ns,
            new_len: nl,
        }
    }

    #[test]
    fn a_hunk_inside_one_function_touches_only_it() {
        let old = [def("a", 1, 3), def("b", 5, 8)];
        let new = [def("a", 1, 3), def("b", 5, 9)];
        let t = touched(&old, &new, &[hunk(6, 1, 6, 2)]);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].qualname, "b");
        assert_eq!(t[0].change, Change::Modified);
        assert_eq!((t[0].added, t[0].removed), (2, 1));
        assert_eq!((t[0].start_line, t[0].end_line), (5, 9));
        assert_eq!(t[0].hunks, ["@@ -6,1 +6,2 @@"]);
    }

    #[test]
    fn additions_and_deletions_of_whole_functions() {
        let old = [def("a", 1, 3), def("gone", 5, 7)];
        let new = [def("a", 1, 3), def("fresh", 5, 6)];
        let t = touched(&old, &new, &[hunk(5, 3, 5, 2)]);
        let got: Vec<(&str, Change)> = t.iter().map(|t| (t.qualname.as_str(), t.change)).collect();
        assert_eq!(got, [("fresh", Change::Added), ("gone", Change::Deleted)]);
    }

    #[test]
    fn a_pure_deletion_inside_a_function_is_seen_on_the_old_side() {
        let old = [def("a", 1, 6)];
        let new = [def("a", 1, 4)];
        let t = touched(&old, &new, &[hunk(3, 2, 2, 0)]);
        assert_eq!(t.len(), 1);
        assert_eq!((t[0].added, t[0].removed), (0, 2));
        assert_eq!((t[0].start_line, t[0].end_line), (1, 4));
    }

    #[test]
    fn lines_between_definitions_touch_nothing() {
        let defs = [def("a", 1, 3), def("b", 6, 8)];
        assert!(touched(&defs, &defs, &[hunk(4, 1, 4, 1)]).is_empty());
    }
}
