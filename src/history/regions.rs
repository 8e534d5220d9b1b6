//! An older version of a Python file read from its successor's definitions, parsing only
//! the statements a commit changed.
//!
//! tree-sitter reuses little of a Python tree when it reparses after an edit: its
//! indentation scanner is consulted in nearly every state, so most tokens of the
//! unchanged statements are lexed again. On pallets/werkzeug a reparse through one
//! commit's edits cost 25–34 % of a parse from scratch, and one changed signature 92 %.
//! A top-level Python statement parses the same alone as in its file, and a class's
//! member the same in any class: the region around a commit's hunks, bounded by blank
//! lines, is parsed on its own (a class's members inside a stand-in class), and every
//! definition outside it is the successor's, moved by the lines the hunks added or
//! removed before it.

use super::git::Hunk;
use super::touch::Def;
use crate::syntax::FieldExt;

/// One top-level statement of a version: its first and last row (from 0), and for a
/// class, the first row and the last row that is not a comment of each statement of its
/// body (comments are left out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Top {
    pub rows: (u32, u32),
    pub members: Vec<(u32, u32)>,
}

/// The top-level statements of a version, in order.
pub type Tops = Vec<Top>;

/// The stand-in class a class's members are parsed in, and the rows it adds above them.
/// Members that open the class open the stand-in; others come after a member of its own
/// and a blank line, as in the class (a comment first in a class's body would be the
/// class's, not the block's).
fn stand_in(indent: &str, text: &str, opens: bool) -> (String, i64) {
    if opens {
        (format!("class _:\n{text}"), 1)
    } else {
        (format!("class _:\n{indent}pass\n\n{text}"), 3)
    }
}

/// The top-level statements of `tree`.
pub fn tops(tree: &tree_sitter::Tree) -> Tops {
    let root = tree.root_node();
    let mut cursor = root.walk();
    root.children(&mut cursor)
        .map(|n| {
            let class = match n.kind() {
                "class_definition" => Some(n),
                "decorated_definition" => n
                    .field("definition")
                    .filter(|d| d.kind() == "class_definition"),
                _ => None,
            };
            // Each member to its last line that is not a comment, as a definition ends.
            let members = class
                .and_then(|c| c.field("body"))
                .map(|body| {
                    let mut c = body.walk();
                    body.children(&mut c)
                        .filter(|m| m.kind() != "comment")
                        .map(|m| {
                            let end = crate::syntax::defs::content_end_line(m) - 1;
                            (m.start_position().row as u32, end)
                        })
                        .collect()
                })
                .unwrap_or_default();
            Top {
                rows: rows(n),
                members,
            }
        })
        .collect()
}

fn rows(n: tree_sitter::Node) -> (u32, u32) {
    (
        n.start_position().row as u32,
        crate::syntax::defs::end_line(n) - 1,
    )
}

/// One region parsed again: its rows in the newer version and in the older (from 0,
/// inclusive; `old.1 < old.0` when the older version has none of its lines), its bytes
/// in the older, and the top-level statement whose members it holds, if it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    new: (i64, i64),
    old: (i64, i64),
    bytes: (usize, usize),
    class: Option<usize>,
}

impl Span {
    /// Rows the older version has more than the newer in this region.
    fn grows(&self) -> i64 {
        (self.old.1 - self.old.0) - (self.new.1 - self.new.0)
    }
}

/// The definitions and top-level statements of `old`, the version before `new`, from
/// those of `new` (`defs`, `tops`) and the `-U0` hunks of the diff from `old` to `new`
/// (checked against both texts by the caller); each text comes with its
/// [`super::line_starts`]. Each changed region is parsed by `parse`,
/// which gets a text and returns its definitions and top-level statements, or `None`
/// when the text does not parse cleanly. `None` when a region cannot be read on its own,
/// or the regions together exceed `most` bytes of `old`: the caller then reparses the
/// whole version.
pub fn older<P>(
    (new, new_starts): (&[u8], &[usize]),
    defs: &[Def],
    tops: &[Top],
    (old, old_starts): (&[u8], &[usize]),
    hunks: &[Hunk],
    most: usize,
    mut parse: P,
) -> Option<(Vec<Def>, Tops)>
where
    P: FnMut(&str) -> Option<(Vec<Def>, Tops)>,
{
    let new_lines = Lines::new(new_starts, new.len());
    let old_lines = Lines::new(old_starts, old.len());
    if new_lines.count() == 0 {
        return None;
    }
    let spans = spans(&new_lines, &old_lines, new, tops, hunks)?;
    if spans.iter().map(|s| s.bytes.1 - s.bytes.0).sum::<usize>() > most {
        return None;
    }
    // Each region parsed: its definitions and statements in rows of `old`.
    let mut own: Vec<(Vec<Def>, Tops)> = Vec::with_capacity(spans.len());
    for s in &spans {
        let text = std::str::from_utf8(&old[s.bytes.0..s.bytes.1]).ok()?;
        let lines = || text.split('\n').filter(|l| !l.trim().is_empty());
        let code = || lines().filter(|l| !l.trim_start().starts_with('#'));
        // It does not continue onto the line after it, nor end in a comment (which, last
        // in a text, tree-sitter can leave inside the statement it follows, and in the
        // file outside).
        if lines()
            .next_back()
            .is_some_and(|l| l.trim_end().ends_with('\\') || l.trim_start().starts_with('#'))
        {
            return None;
        }
        // The code after it starts a statement of its level or an outer one, as in the
        // newer version: tree-sitter takes a line indented deeper than the statements
        // before it without an error, and the older text could then run on into it.
        let level = match s.class {
            None => "",
            Some(t) => leading_space(new_lines.line(new, tops[t].members.first()?.0 as i64)),
        };
        let after = (s.new.1 + 1..new_lines.count())
            .map(|r| new_lines.line(new, r))
            .find(|l| !is_blank(l) && !l.trim_ascii_start().starts_with(b"#"));
        if after.is_some_and(|l| !level.starts_with(leading_space(l))) {
            return None;
        }
        // Its first line and its first line of code open at its level: a line indented
        // deeper could belong to the statement before it (and tree-sitter gives a comment
        // indented so to the block above it).
        let deeper = |l: &str| {
            l.strip_prefix(level)
                .is_none_or(|r| r.starts_with(char::is_whitespace))
        };
        if lines().next().is_some_and(deeper) || code().next().is_some_and(deeper) {
            return None;
        }
        let (defs, tops) = match s.class {
            None => {
                let parsed = if text.trim().is_empty() {
                    (Vec::new(), Vec::new())
                } else {
                    parse(text)?
                };
                shifted(parsed, s.old.0)
            }
            Some(t) => {
                // A class's members: each line of code indented as the class's first
                // member (a line indented less would end the class), parsed inside a
                // stand-in class whose name is then the class's.
                let first = tops[t].members.first()?.0 as i64;
                let indent = leading_space(new_lines.line(new, first));
                if indent.is_empty() || lines().any(|l| !l.starts_with(indent)) {
                    return None;
                }
                let class = defs
                    .iter()
                    .find(|d| d.kind == "class" && in_rows(d, tops[t].rows))?;
                // Lines the older version does not have.
                if lines().next().is_none() {
                    own.push((Vec::new(), Vec::new()));
                    continue;
                }
                let opens = s.new.0 == first;
                let (stand_in, above) = stand_in(indent, text, opens);
                let (mut d, mut t) = parse(&stand_in)?;
                // The stand-in is the one statement, and holds everything.
                if t.len() != 1 || d.first().is_none_or(|c| c.qualname != "_") {
                    return None;
                }
                let mut members = t.pop().map(|t| t.members).unwrap_or_default();
                if !opens {
                    if members.is_empty() {
                        return None;
                    }
                    members.remove(0);
                }
                d.remove(0);
                let d = d
                    .into_iter()
                    .map(|m| {
                        let rest = m.qualname.strip_prefix('_')?;
                        Some(Def {
                            qualname: format!("{}{rest}", class.qualname),
                            ..m
                        })
                    })
                    .collect::<Option<Vec<Def>>>()?;
                let members = members
                    .into_iter()
                    .map(|rows| Top {
                        rows,
                        members: Vec::new(),
                    })
                    .collect();
                shifted((d, members), s.old.0 - above)
            }
        };
        own.push((defs, tops));
    }
    // Rows outside every region, moved by the regions above them.
    let moved = |row: u32| {
        let d: i64 = spans
            .iter()
            .take_while(|s| s.new.1 < row as i64)
            .map(Span::grows)
            .sum();
        (row as i64 + d) as u32
    };
    let inside = |row: u32| {
        spans
            .iter()
            .position(|s| s.new.0 <= row as i64 && row as i64 <= s.new.1)
    };
    // Statements: the successor's outside the regions, moved; each region's own in its
    // place; a class's members the same way, and its last row that of its last member
    // (its members' regions can end it).
    let mut out_tops = Vec::with_capacity(tops.len());
    // The last row of each class whose members changed.
    let mut class_end: Vec<(usize, u32)> = Vec::new();
    let mut k = 0usize;
    for (i, t) in tops.iter().enumerate() {
        let row = t.rows.0;
        while k < spans.len() && spans[k].new.1 < row as i64 {
            if spans[k].class.is_none() {
                out_tops.append(&mut own[k].1);
            }
            k += 1;
        }
        if inside(row).is_some() {
            continue;
        }
        let mut members = Vec::with_capacity(t.members.len());
        let mut changed = false;
        for &(a, b) in &t.members {
            while k < spans.len() && spans[k].class == Some(i) && spans[k].new.1 < a as i64 {
                members.extend(own[k].1.drain(..).map(|m| m.rows));
                changed = true;
                k += 1;
            }
            if inside(a).is_some() {
                continue;
            }
            members.push((moved(a), moved(b)));
        }
        while k < spans.len() && spans[k].class == Some(i) {
            members.extend(own[k].1.drain(..).map(|m| m.rows));
            changed = true;
            k += 1;
        }
        let mut rows = (moved(t.rows.0), moved(t.rows.1));
        if changed {
            // A class whose last rows were parsed again ends where its last member does
            // (such a region does not end in a comment); its definition, always so.
            let end = members.last().map_or(rows.0, |m| m.1);
            class_end.push((i, end));
            if inside(t.rows.1).is_some() {
                rows.1 = end;
            }
        }
        out_tops.push(Top { rows, members });
    }
    for (o, s) in own[k..].iter_mut().zip(&spans[k..]) {
        if s.class.is_none() {
            out_tops.append(&mut o.1);
        }
    }
    // Definitions the same way (they are in order of their first rows). A class whose
    // members changed ends where its last member now does.
    let mut out_defs = Vec::with_capacity(defs.len());
    let mut k = 0usize;
    for d in defs {
        let row = d.start_line - 1;
        while k < spans.len() && spans[k].new.1 < row as i64 {
            out_defs.append(&mut own[k].0);
            k += 1;
        }
        if inside(row).is_some() {
            continue;
        }
        let end = match inside(d.end_line - 1).and_then(|j| spans[j].class) {
            Some(c) => class_end.iter().find(|(i, _)| *i == c)?.1 + 1,
            None => moved(d.end_line - 1) + 1,
        };
        out_defs.push(Def {
            start_line: moved(d.start_line - 1) + 1,
            end_line: end,
            ..d.clone()
        });
    }
    for o in &mut own[k..] {
        out_defs.append(&mut o.0);
    }
    Some((out_defs, out_tops))
}

/// Definitions and statements parsed from a text that starts at row `at` of the file.
fn shifted((defs, tops): (Vec<Def>, Tops), at: i64) -> (Vec<Def>, Tops) {
    let row = |r: u32| (r as i64 + at).max(0) as u32;
    let defs = defs
        .into_iter()
        .map(|d| Def {
            start_line: row(d.start_line),
            end_line: row(d.end_line),
            ..d
        })
        .collect();
    let move_rows = |(a, b): (u32, u32)| (row(a), row(b));
    let tops = tops
        .into_iter()
        .map(|t| Top {
            rows: move_rows(t.rows),
            members: t.members.into_iter().map(move_rows).collect(),
        })
        .collect();
    (defs, tops)
}

fn in_rows(d: &Def, (a, b): (u32, u32)) -> bool {
    a < d.start_line && d.end_line <= b + 1
}

fn leading_space(line: &[u8]) -> &str {
    let n = line
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    std::str::from_utf8(&line[..n]).unwrap_or_default()
}

/// The regions to parse again, with their rows in both versions and their bytes in the
/// older: around each hunk, the members of a class it lies among, else the top-level
/// statements it touches; grown to a blank line on both sides (or the text's or the
/// class's end) and past a comment that follows, merged where they meet.
fn spans(
    new_lines: &Lines<'_>,
    old_lines: &Lines<'_>,
    new: &[u8],
    tops: &[Top],
    hunks: &[Hunk],
) -> Option<Vec<Span>> {
    let rows = new_lines.count();
    let blank = |r: i64| is_blank(new_lines.line(new, r));
    let comment = |r: i64| new_lines.line(new, r).trim_ascii_start().starts_with(b"#");
    // Grows rows `f..=l` over the statements `units` they touch and to blank lines (or
    // up to `lo`, where a class's first member opens it), within `lo..=hi`; `None` if it
    // would leave them.
    let grow = |(mut f, mut l): (i64, i64), units: &[(u32, u32)], lo: i64, hi: i64| {
        loop {
            for &(a, b) in units {
                let (a, b) = (a as i64, b as i64);
                if a <= l && b >= f {
                    f = f.min(a);
                    l = l.max(b);
                }
            }
            if f < lo || l > hi {
                return None;
            }
            if f > lo && !blank(f - 1) {
                f -= 1;
                continue;
            }
            if l + 1 < rows && !blank(l + 1) {
                l += 1;
                continue;
            }
            // A comment after the region may belong to its last statement.
            match (l + 1..rows).find(|&r| !blank(r)) {
                Some(r) if comment(r) => l = r,
                _ => return Some((f, l)),
            }
        }
    };
    let statements: Vec<(u32, u32)> = tops.iter().map(|t| t.rows).collect();
    // A class's last row and the blank rows after it: a hunk that adds a member at the
    // class's end ends in the blank line it adds after the one before (git places it so).
    let ends: Vec<i64> = tops
        .iter()
        .map(|t| {
            let mut end = t.rows.1 as i64;
            while end + 1 < rows && blank(end + 1) {
                end += 1;
            }
            end
        })
        .collect();
    let mut regions: Vec<(i64, i64, Option<usize>)> = Vec::new();
    for h in hunks {
        let changed = changed_rows(h, rows);
        // Among a class's members: the class its rows lie in, from its first member on.
        let class = tops.iter().zip(&ends).position(|(t, &end)| {
            t.members
                .first()
                .is_some_and(|m| m.0 as i64 <= changed.0 && changed.1 <= end)
        });
        let member_region = class.and_then(|c| {
            let t = &tops[c];
            let first = t.members.first()?.0 as i64;
            // The class's end is a region's end only where a blank line or the text's
            // end follows it.
            let (f, l) = grow(changed, &t.members, first, ends[c] + 1)?;
            (l <= ends[c]).then_some((f, l, Some(c)))
        });
        let region = match member_region {
            Some(r) => r,
            None => {
                let (f, l) = grow(changed, &statements, 0, rows)?;
                (f, l, None)
            }
        };
        regions.push(region);
    }
    // Regions that meet are one: members' regions of one class stay members', any other
    // is top-level, and a top-level region that reaches into a class takes it whole.
    loop {
        regions.sort_unstable_by_key(|r| (r.0, std::cmp::Reverse(r.1)));
        let mut merged: Vec<(i64, i64, Option<usize>)> = Vec::with_capacity(regions.len());
        for r in regions.drain(..) {
            match merged.last_mut() {
                Some(last) if r.0 <= last.1 + 1 => {
                    last.1 = last.1.max(r.1);
                    if last.2 != r.2 {
                        last.2 = None;
                    }
                }
                _ => merged.push(r),
            }
        }
        let mut grew = false;
        for m in merged.iter_mut().filter(|m| m.2.is_none()) {
            for t in tops {
                let (a, b) = (t.rows.0 as i64, t.rows.1 as i64);
                if a <= m.1 && b >= m.0 && (a < m.0 || b > m.1) {
                    m.0 = m.0.min(a);
                    m.1 = m.1.max(b);
                    grew = true;
                }
            }
        }
        regions = merged;
        if !grew {
            break;
        }
    }
    // Each region's rows in `old`: moved by the hunks above it, grown or shrunk by its
    // own (every hunk lies inside one region).
    let mut spans = Vec::with_capacity(regions.len());
    let mut shift = 0i64;
    let mut next = hunks.iter().peekable();
    for (s, e, class) in regions {
        let mut inside = 0i64;
        while let Some(h) = next.peek() {
            if changed_rows(h, rows).0 > e {
                break;
            }
            inside += h.old_len as i64 - h.new_len as i64;
            next.next();
        }
        let old = (s + shift, e + shift + inside);
        shift += inside;
        let bytes = (old_lines.start(old.0)?, old_lines.start(old.1 + 1)?);
        spans.push(Span {
            new: (s, e),
            old,
            bytes,
            class,
        });
    }
    // The text after the last region is the same in both.
    if next.next().is_some() || new_lines.count() + shift != old_lines.count() {
        return None;
    }
    Some(spans)
}

/// The rows of the newer version (from 0, inclusive, within its `rows`) a hunk changed;
/// for lines only the older version has, the rows on either side of where they were.
fn changed_rows(h: &Hunk, rows: i64) -> (i64, i64) {
    let (f, l) = if h.new_len == 0 {
        (h.new_start as i64 - 1, h.new_start as i64)
    } else {
        (
            h.new_start as i64 - 1,
            h.new_start as i64 + h.new_len as i64 - 2,
        )
    };
    let f = f.clamp(0, rows - 1);
    (f, l.clamp(f, rows - 1))
}

/// Where the lines of a text start.
struct Lines<'a> {
    starts: &'a [usize],
    len: usize,
}

impl<'a> Lines<'a> {
    /// From the text's [`super::line_starts`] and its length. Those end with the text's
    /// length (an empty text's, with its 0): here, only where lines start.
    fn new(starts: &'a [usize], len: usize) -> Lines<'a> {
        Lines {
            starts: starts.split_last().map_or(starts, |(_, s)| s),
            len,
        }
    }

    fn count(&self) -> i64 {
        self.starts.len() as i64
    }

    /// Where row `row` starts; the text's end for the row after the last.
    fn start(&self, row: i64) -> Option<usize> {
        let r = usize::try_from(row).ok()?;
        match r.cmp(&self.starts.len()) {
            std::cmp::Ordering::Less => Some(self.starts[r]),
            std::cmp::Ordering::Equal => Some(self.len),
            std::cmp::Ordering::Greater => None,
        }
    }

    /// The text of row `row` (without its line break).
    fn line<'b>(&self, bytes: &'b [u8], row: i64) -> &'b [u8] {
        match (self.start(row), self.start(row + 1)) {
            (Some(a), Some(b)) => {
                let l = &bytes[a..b];
                l.strip_suffix(b"\n").unwrap_or(l)
            }
            _ => &[],
        }
    }
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|b| b.is_ascii_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::lang::Lang;

    fn parsed(text: &str) -> Option<(Vec<Def>, Tops)> {
        let mut parser = tree_sitter::Parser::new();
        let (p, tree, _) = crate::syntax::defs::reparse(&mut parser, Lang::Python, text, None)?;
        (!p.has_errors).then(|| (crate::history::defs_of(&p.symbols), tops(&tree)))
    }

    /// The older version read through the regions, checked against a parse of it whole
    /// whenever it is read so; whether it was.
    fn read(new: &str, old: &str) -> bool {
        let hunks = crate::history::line_hunks(old.as_bytes(), new.as_bytes());
        read_through(new, old, &hunks)
    }

    fn read_through(new: &str, old: &str, hunks: &[Hunk]) -> bool {
        read_within(new, old, hunks, usize::MAX)
    }

    /// As [`read_through`], the regions parsed holding at most `most` bytes of `old`.
    fn read_within(new: &str, old: &str, hunks: &[Hunk], most: usize) -> bool {
        let (defs, tops) = parsed(new).expect("the newer version parses");
        let starts = |t: &str| crate::history::line_starts(t.as_bytes());
        let got = older(
            (new.as_bytes(), &starts(new)),
            &defs,
            &tops,
            (old.as_bytes(), &starts(old)),
            hunks,
            most,
            parsed,
        );
        match got {
            Some(got) => {
                assert_eq!(
                    got,
                    parsed(old).expect("the older version parses"),
                    "newer:\n{new}\nolder:\n{old}"
                );
                true
            }
            None => false,
        }
    }

    const NEW: &str = "import os


def top(a):
    return a + 1


class Box:
    \"\"\"A box.\"\"\"

    size = 3

    def open(self):
        return 1

    # Shut it.
    def close(self):
        if self:
            return 2
        return 3


def tail():
    pass
";

    #[test]
    fn a_changed_method_is_read_inside_a_stand_in_class() {
        assert!(read(
            NEW,
            &NEW.replace("return 3", "x = 3\n        return x")
        ));
        // The class's first member, its docstring.
        assert!(read(
            NEW,
            &NEW.replace("\"\"\"A box.\"\"\"", "\"\"\"A box,\n    with a lid.\"\"\"")
        ));
        // The comment that leads a method, changed with it.
        assert!(read(
            NEW,
            &NEW.replace("# Shut it.", "# Close it,\n    # then go.")
        ));
    }

    #[test]
    fn methods_one_version_lacks_are_read_either_way() {
        let without = NEW.replace("    def open(self):\n        return 1\n\n", "");
        assert!(read(NEW, &without));
        assert!(read(&without, NEW));
    }

    /// A method added last in a class, in the hunk git gives for it: the blank line after
    /// the method before it comes first, the one the addition brings last, outside the
    /// class. Only the method is parsed, not the class.
    #[test]
    fn a_method_added_last_in_a_class_is_read_alone() {
        let new = NEW.replace(
            "        return 3\n\n",
            "        return 3\n\n    def grow(self):\n        return 4\n\n",
        );
        let hunk = Hunk {
            old_start: 21,
            old_len: 0,
            new_start: 22,
            new_len: 3,
        };
        assert!(read_within(&new, NEW, &[hunk], 0));
        // The older version with a longer method last reads the same way.
        let longer = NEW.replace("        return 3\n", "        x = 3\n        return x\n");
        let new = longer.replace(
            "        return x\n\n",
            "        return x\n\n    def grow(self):\n        return 4\n\n",
        );
        assert!(read_within(
            &new,
            &longer,
            &[Hunk {
                old_start: 22,
                new_start: 23,
                ..hunk
            }],
            0
        ));
    }

    #[test]
    fn top_level_changes_are_read_as_whole_statements() {
        assert!(read(NEW, &NEW.replace("class Box:", "class Box(object):")));
        assert!(read(
            NEW,
            &NEW.replace("return a + 1", "b = a\n    return b + 1")
        ));
        assert!(read(NEW, &NEW.replace("def tail():\n    pass\n", "")));
        assert!(read(
            NEW,
            &NEW.replace("import os\n", "import os\n\n\ndef first():\n    pass\n")
        ));
    }

    #[test]
    fn what_may_read_differently_alone_is_parsed_whole() {
        // A comment last in the region: tree-sitter leaves it inside the method read
        // alone, and outside the class in the file (the hunk as git gave it for such a
        // change on marshmallow).
        let new = "class A:\n    x = 1\n\n    def f(self):\n        return all(y)\n\n\nz = 2\n";
        let old = "class A:\n    x = 1\n\n    def f(self):\n        for a in y:\n            \
                   return False\n        return True\n\n    # later\n\n\nz = 2\n";
        let hunk = Hunk {
            old_start: 5,
            old_len: 5,
            new_start: 5,
            new_len: 1,
        };
        assert!(!read_through(new, old, &[hunk]));
        assert!(read(new, &new.replace("all(y)", "any(y)")));
        // A line indented less than the members (inside a string) could end the class.
        let string = NEW.replace("return 3", "return \"\"\"\nthree\n\"\"\"");
        assert!(!read(NEW, &string));
        // Code the older version indents where the newer starts a statement.
        let nested = NEW.replace("\n\ndef tail():", "\n\n    def tail():");
        assert!(!read(NEW, &nested));
        // A text that does not parse.
        assert!(!read(NEW, &NEW.replace("return 3", "return (3")));
    }

    /// Versions made by moving, dropping, copying and re-indenting lines of real files:
    /// whenever one is read through regions, it equals a parse of it whole.
    #[test]
    fn versions_read_through_regions_equal_their_parse() {
        let files = [
            include_str!("../../testdata/packages/itsdangerous/src/itsdangerous/serializer.py"),
            include_str!("../../testdata/packages/itsdangerous/src/itsdangerous/signer.py"),
            include_str!("../../testdata/packages/itsdangerous/src/itsdangerous/timed.py"),
            include_str!("../../testdata/repos/python/inventory/models.py"),
        ];
        let extra = [
            "",
            "    # note",
            "# note",
            "def extra():",
            "    return 1",
            "class K:",
            "    x = 1",
            "        y = 2",
            "@staticmethod",
            "    \"\"\"doc",
            "\"\"\"",
            "    def m(self):",
            "        pass",
        ];
        // A fixed linear congruential sequence: the same versions on every run.
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            ((seed >> 33) as usize) % n.max(1)
        };
        let (mut tried, mut read_so) = (0, 0);
        for round in 0..600 {
            let base = files[round % files.len()];
            let mut lines: Vec<String> = base.lines().map(str::to_string).collect();
            for _ in 0..1 + next(3) {
                let at = next(lines.len());
                match next(5) {
                    0 => {
                        let n = (1 + next(3)).min(lines.len() - at);
                        lines.drain(at..at + n);
                    }
                    1 => {
                        let from = lines[next(lines.len())].clone();
                        lines.insert(at, from);
                    }
                    2 => lines.insert(at, extra[next(extra.len())].to_string()),
                    3 => lines[at] = format!("    {}", lines[at]),
                    _ => lines[at] = lines[at].trim_start().to_string(),
                }
            }
            let changed = lines.join("\n") + "\n";
            if parsed(&changed).is_none() {
                continue;
            }
            tried += 2;
            read_so += read(base, &changed) as usize + read(&changed, base) as usize;
        }
        // Most versions that parse are read through regions; each was checked in `read`.
        assert!(tried > 200, "{tried}");
        assert!(read_so * 2 > tried, "{read_so} of {tried}");
    }
}
