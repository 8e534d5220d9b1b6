//! Definitions from source text with tree-sitter: bytes in, [`Symbol`]s out. The
//! per-language queries (`queries/*.scm`) find candidate definition nodes; this module
//! decides ranges, parents, qualified names, kinds, signatures and doc comments.

use crate::syntax::FieldExt;
use std::collections::HashMap;

use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, Parser, QueryCursor, Tree};

use super::docs::{doc_and_lead, signature};
use super::lang::{CapsConstants, Lang, Wraps};
use crate::model::{Symbol, SymbolKind};

/// The result of parsing one file.
#[derive(Debug, Default)]
pub struct Parsed {
    pub symbols: Vec<Symbol>,
    /// Call sites and imports (see [`super::refs`]).
    pub refs: super::refs::FileRefs,
    /// The tree had syntax errors (definitions outside them are still found).
    pub has_errors: bool,
    /// Definitions left out because they are nested deeper than [`MAX_DEFINITION_DEPTH`]
    /// or their qualified name is longer than [`MAX_QUALNAME`], and subtrees of the
    /// syntax tree deeper than [`super::refs::MAX_WALK_DEPTH`] not searched: bounds that
    /// keep one pathological file (20,000 nested `mod` blocks, an expression nested a
    /// million deep) from costing quadratic time or memory.
    pub dropped: u32,
}

/// Definitions nested deeper than this (counting enclosing definitions) are not kept.
pub const MAX_DEFINITION_DEPTH: usize = 64;
/// Definitions whose qualified name is longer than this (bytes) are not kept.
pub const MAX_QUALNAME: usize = 1024;

/// Parses `text` as `lang`: its definitions, and its call sites and imports when `refs`
/// is set (the code graph's; a second walk of the tree). Returns `None` only if
/// tree-sitter gives up (it does not on syntax errors).
pub fn parse(parser: &mut Parser, lang: Lang, text: &str, refs: bool) -> Option<Parsed> {
    parser.set_language(&lang.grammar()).ok()?;
    let tree = parser.parse(text, None)?;
    let mut parsed = extract(lang, &tree, text);
    if refs {
        parsed.refs = super::refs::extract(lang, &tree, text, &parsed.symbols);
    }
    Some(parsed)
}

/// The definitions of `text`, reparsed from `old`: the tree of another text of the same
/// language, already edited ([`Tree::edit`]) to match this one, so tree-sitter reuses
/// what did not change. Returns the new tree too, for the next reparse, and the memo of
/// this walk.
///
/// With `old` come the old walk's memo and the edits from the old text to `text`
/// (in order): the definitions inside a node whose text and structure did not change
/// are taken from the memo instead of walking the node again. The symbols taken so have
/// no signature and no doc comment; the history, the one caller, reads neither.
pub fn reparse(
    parser: &mut Parser,
    lang: Lang,
    text: &str,
    old: Option<(&Tree, &Memo, &[Changed])>,
) -> Option<(Parsed, Tree, Memo)> {
    parser.set_language(&lang.grammar()).ok()?;
    let tree = parser.parse(text, old.map(|o| o.0))?;
    let reuse = old.map(|(old_tree, memo, edits)| {
        // Where the text changed, and where tree-sitter says the structure did (text
        // outside the edits can parse differently, as inside a string an edit opened).
        let mut changed: Vec<(usize, usize)> = edits.iter().map(|c| c.new).collect();
        changed.extend(
            old_tree
                .changed_ranges(&tree)
                .map(|r| (r.start_byte, r.end_byte)),
        );
        changed.sort_unstable();
        let reach = changed
            .iter()
            .scan(0, |far, r| {
                *far = r.1.max(*far);
                Some(*far)
            })
            .collect();
        let shift = std::iter::once(0)
            .chain(edits.iter().scan(0isize, |total, e| {
                *total += (e.old.1 - e.old.0) as isize - (e.new.1 - e.new.0) as isize;
                Some(*total)
            }))
            .collect();
        Reuse {
            memo,
            changed,
            reach,
            edits,
            shift,
        }
    });
    let mut memo = Memo::default();
    let parsed = walk(lang, &tree, text, reuse.as_ref(), Some(&mut memo));
    Some((parsed, tree, memo))
}

/// One edit between two texts: the bytes `old` of the old text became the bytes `new`
/// of the new one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Changed {
    pub old: (usize, usize),
    pub new: (usize, usize),
}

/// The definitions a walk found inside the larger nodes of a tree, by each node's place,
/// kept for the walk of a tree reparsed from it.
#[derive(Default, Clone)]
pub struct Memo {
    /// Every candidate of the walk, in walk order, without signature and doc.
    candidates: Vec<Candidate>,
    /// The nodes whose candidates can be taken again, in post-order.
    nodes: Vec<MemoNode>,
    /// Node by start byte and kind.
    at: HashMap<(usize, u16), usize>,
    /// How many nodes this walk took from the old walk's memo instead of walking them.
    taken: usize,
}

impl Memo {
    /// How many nodes the walk took from the old walk's memo instead of walking them.
    pub fn taken(&self) -> usize {
        self.taken
    }
}

/// A node of a memo: where it was, and the candidates found below it.
#[derive(Clone, Copy)]
struct MemoNode {
    start_byte: usize,
    end_byte: usize,
    start_row: usize,
    kind: u16,
    depth: usize,
    /// The kinds of its nearest ancestors (filters read up to four).
    ancestors: [u16; 4],
    /// Its candidates, in [`Memo::candidates`]: `first..end`.
    first: usize,
    end: usize,
    /// How many memo nodes just before it lie inside it.
    nested: usize,
    /// Subtrees under it too deep to search.
    deep: u32,
}

/// The memo of the tree a walk's tree was reparsed from, and what changed since.
struct Reuse<'m> {
    memo: &'m Memo,
    /// Byte ranges of the new text that changed, sorted (they may overlap).
    changed: Vec<(usize, usize)>,
    /// For each of `changed`, the furthest end of it and those before it.
    reach: Vec<usize>,
    /// The edits, in order.
    edits: &'m [Changed],
    /// For each count of edits from the first, how far they move what follows them in the
    /// old text (one more than `edits`).
    shift: Vec<isize>,
}

/// Nodes smaller than this are walked again rather than looked up.
const MEMO_MIN_BYTES: usize = 256;

/// Candidate ids given to candidates taken from a memo start here: above any address,
/// so they never equal a node's id.
const TAKEN_IDS: usize = 1 << 62;

impl Reuse<'_> {
    /// The memo node that `node` (at `depth`, under `ancestors`) was in the old tree, if
    /// neither its text nor its structure changed.
    fn unchanged(&self, node: Node, depth: usize, ancestors: [u16; 4]) -> Option<usize> {
        let (start, end) = (node.start_byte(), node.end_byte());
        // Closed intervals: an edit touching either end counts.
        let before_end = self.changed.partition_point(|r| r.0 <= end);
        if before_end > 0 && self.reach[before_end - 1] >= start {
            return None;
        }
        // The old start: shifted by the edits before it.
        let before = self.edits.partition_point(|e| e.new.1 <= start);
        let old_start = start as isize + self.shift[before];
        let i = *self
            .memo
            .at
            .get(&(usize::try_from(old_start).ok()?, node.kind_id()))?;
        let m = &self.memo.nodes[i];
        (m.end_byte - m.start_byte == end - start && m.depth == depth && m.ancestors == ancestors)
            .then_some(i)
    }
}

/// The kinds of the nearest four ancestors of the node at the end of `path`.
fn ancestor_kinds(path: &[Node]) -> [u16; 4] {
    let mut kinds = [u16::MAX; 4];
    for (k, n) in path.iter().rev().skip(1).take(4).enumerate() {
        kinds[k] = n.kind_id();
    }
    kinds
}

/// A definition candidate before parents and kinds are settled.
#[derive(Clone)]
struct Candidate {
    /// The definition node's id and bytes (for containment).
    id: usize,
    start_byte: usize,
    end_byte: usize,
    /// The bytes of the node the definition spans (the node, or a wrapper such as
    /// `export_statement` or `template_declaration`).
    range_start: usize,
    range_end: usize,
    tag: Tag,
    name: String,
    /// Extra scope from the name itself (C++ `Foo::bar`) or a Go receiver.
    scope: Option<String>,
    pattern: usize,
    start_line: u32,
    end_line: u32,
    lead_line: u32,
    signature: String,
    doc: String,
}

/// Where the walk stands: the current node (last) and its ancestors, and for each depth
/// the comments and attributes just before the node at that depth.
pub(super) struct Ctx<'a, 't> {
    pub(super) path: &'a [Node<'t>],
    pub(super) leading: &'a [Vec<Node<'t>>],
}

impl<'t> Ctx<'_, 't> {
    /// The ancestor `up` levels above the node at depth `depth`.
    fn ancestor(&self, depth: usize, up: usize) -> Option<Node<'t>> {
        depth.checked_sub(up).map(|d| self.path[d])
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
    Kind(SymbolKind),
    /// A body-less method declaration: kept only inside a trait, interface or class.
    Signature,
    /// Kept only when the name is ALL_CAPS.
    Caps,
    /// A Java field kept only when `static` and `final`.
    StaticFinal,
    /// A Go method: the parent is the receiver type.
    GoMethod,
}

fn tag_for(capture: &str) -> Option<Tag> {
    let kind = capture.strip_prefix("def.")?;
    Some(match kind {
        "signature" => Tag::Signature,
        "caps" => Tag::Caps,
        "static_final" => Tag::StaticFinal,
        "method" => Tag::GoMethod,
        other => Tag::Kind(SymbolKind::parse(other)?),
    })
}

fn extract(lang: Lang, tree: &Tree, text: &str) -> Parsed {
    walk(lang, tree, text, None, None)
}

/// The walk of [`extract`]; with `memo`, also records what it found inside the larger
/// nodes, and with `reuse`, takes it from the old tree's memo where nothing changed.
fn walk(
    lang: Lang,
    tree: &Tree,
    text: &str,
    reuse: Option<&Reuse>,
    mut memo: Option<&mut Memo>,
) -> Parsed {
    let src = text.as_bytes();
    let query = lang.query();
    let names = query.capture_names();
    let tables = lang.kind_tables();
    let mut cursor = QueryCursor::new();
    // Each pattern is tried only at the nodes it starts with; the walk below visits
    // those and skips subtrees that cannot hold a definition.
    cursor.set_max_start_depth(Some(0));

    let mut candidates: Vec<Candidate> = Vec::new();
    let mut walker = tree.walk();
    // The current node and its ancestors, and for each depth the run of comments and
    // attributes just before the node at that depth: parents and doc comments come from
    // here, not from `Node::parent`/`prev_sibling`, which cost a walk from the root each.
    let mut path: Vec<Node> = vec![walker.node()];
    let mut leading: Vec<Vec<Node>> = vec![Vec::new()];
    // Subtrees below the walk's depth bound (see `refs::MAX_WALK_DEPTH`), not searched.
    let mut deep_subtrees = 0u32;
    // For each depth, when the node there is walked into and recorded in the memo: the
    // candidates, memo nodes and deep subtrees counted when its children began.
    let mut opened: Vec<Option<(usize, usize, u32)>> = vec![None];
    let mut taken_ids = TAKEN_IDS;
    'walk: loop {
        let node = walker.node();
        let kind = node.kind_id() as usize;
        if tables.root.get(kind).copied().unwrap_or(false) {
            let ctx = Ctx {
                path: &path,
                leading: &leading,
            };
            let mut matches = cursor.matches(query, node, src);
            while let Some(m) = matches.next() {
                collect_match(lang, m, names, src, &ctx, &mut candidates);
            }
        }
        let opaque = tables.opaque.get(kind).copied().unwrap_or(false);
        let large = memo.is_some() && node.end_byte() - node.start_byte() >= MEMO_MIN_BYTES;
        let d = path.len() - 1;
        let taken = match reuse {
            Some(r) if large && !opaque && node.child_count() > 0 => {
                r.unchanged(node, d, ancestor_kinds(&path))
            }
            _ => None,
        };
        if let (Some(i), Some(r), Some(memo)) = (taken, reuse, memo.as_deref_mut()) {
            take_from_memo(r.memo, i, node, &mut candidates, memo, &mut taken_ids);
            memo.taken += 1;
            deep_subtrees += r.memo.nodes[i].deep;
        } else if !opaque && path.len() > super::refs::MAX_WALK_DEPTH && node.child_count() > 0 {
            deep_subtrees += 1;
        } else if !opaque && walker.goto_first_child() {
            if let Some(memo) = memo.as_deref()
                && large
            {
                opened[d] = Some((candidates.len(), memo.nodes.len(), deep_subtrees));
            }
            path.push(walker.node());
            leading.push(Vec::new());
            opened.push(None);
            continue;
        }
        loop {
            let d = path.len() - 1;
            let cur = path[d];
            // `cur` and all below it are walked.
            if let Some(open) = opened[d].take()
                && let Some(memo) = memo.as_deref_mut()
            {
                record(memo, open, cur, &path, &candidates, deep_subtrees);
            }
            if walker.goto_next_sibling() {
                if LEADING_KINDS.contains(&cur.kind()) && cur.kind() != "annotation" {
                    leading[d].push(cur);
                } else {
                    leading[d].clear();
                }
                path[d] = walker.node();
                continue 'walk;
            }
            if !walker.goto_parent() {
                break 'walk;
            }
            path.pop();
            leading.pop();
            opened.pop();
        }
    }
    if let Some(memo) = memo {
        memo.candidates = candidates
            .iter()
            .map(|c| Candidate {
                signature: String::new(),
                doc: String::new(),
                ..c.clone()
            })
            .collect();
        memo.at = memo
            .nodes
            .iter()
            .enumerate()
            .map(|(i, m)| ((m.start_byte, m.kind), i))
            .collect();
    }
    // One definition per node and name: the first pattern wins (e.g. a Go struct before the
    // general type, a JS function before a caps constant).
    candidates.sort_by(|a, b| (a.id, &a.name, a.pattern).cmp(&(b.id, &b.name, b.pattern)));
    candidates.dedup_by(|b, a| a.id == b.id && a.name == b.name);
    // Document order, outer before inner.
    candidates.sort_by_key(|c| (c.range_start, std::cmp::Reverse(c.range_end), c.pattern));

    // Parents by containment.
    let mut parents: Vec<Option<usize>> = Vec::with_capacity(candidates.len());
    let mut stack: Vec<usize> = Vec::new();
    for (i, c) in candidates.iter().enumerate() {
        while let Some(&top) = stack.last() {
            let t = &candidates[top];
            if t.start_byte <= c.start_byte && c.end_byte <= t.end_byte {
                break;
            }
            stack.pop();
        }
        parents.push(stack.last().copied());
        stack.push(i);
    }

    // Kinds that depend on the parent; drop what is not a definition.
    let mut kinds: Vec<Option<SymbolKind>> = Vec::with_capacity(candidates.len());
    for (i, c) in candidates.iter().enumerate() {
        let parent_kind = parents[i].and_then(|p| kinds[p]);
        let kind = match c.tag {
            Tag::Kind(SymbolKind::Function) => {
                if parent_kind.is_some_and(SymbolKind::is_type_container) || c.scope.is_some() {
                    Some(SymbolKind::Method)
                } else {
                    Some(SymbolKind::Function)
                }
            }
            Tag::Kind(k) => Some(k),
            Tag::Signature => match parent_kind {
                Some(
                    SymbolKind::Trait
                    | SymbolKind::Interface
                    | SymbolKind::Class
                    | SymbolKind::Type,
                ) => Some(SymbolKind::Method),
                _ => None,
            },
            Tag::Caps | Tag::StaticFinal => Some(SymbolKind::Constant),
            Tag::GoMethod => Some(SymbolKind::Method),
        };
        kinds.push(kind);
    }

    // Symbols, re-indexing parents over the kept ones.
    let sep = lang.separator();
    let mut new_index: Vec<Option<usize>> = vec![None; candidates.len()];
    let mut symbols: Vec<Symbol> = Vec::with_capacity(candidates.len());
    let mut scoped: Vec<bool> = Vec::with_capacity(candidates.len());
    // Each kept symbol's depth (1 at the top level).
    let mut depths: Vec<usize> = Vec::with_capacity(candidates.len());
    let mut gone = vec![false; candidates.len()];
    let mut dropped = 0u32;
    for (i, c) in candidates.into_iter().enumerate() {
        let Some(kind) = kinds[i] else { continue };
        // The nearest kept ancestor. A definition inside one dropped for the limits is
        // dropped with it: it has nothing to hang from, and is deeper still.
        let mut p = parents[i];
        let mut lost = false;
        while let Some(pi) = p {
            if new_index[pi].is_some() {
                break;
            }
            if gone[pi] {
                lost = true;
                break;
            }
            p = parents[pi];
        }
        let parent = p.and_then(|pi| new_index[pi]);
        let depth = parent.map_or(1, |pi| depths[pi] + 1);
        if lost || depth > MAX_DEFINITION_DEPTH {
            gone[i] = true;
            dropped += 1;
            continue;
        }
        let prefix = parent.map(|pi| symbols[pi].qualname.as_str());
        let qualname = match (prefix, &c.scope) {
            (Some(pre), Some(scope)) if c.tag != Tag::GoMethod => {
                format!("{pre}{sep}{scope}{sep}{}", c.name)
            }
            (_, Some(scope)) => format!("{scope}{sep}{}", c.name),
            (Some(pre), None) => format!("{pre}{sep}{}", c.name),
            (None, None) => c.name.clone(),
        };
        if qualname.len() > MAX_QUALNAME {
            gone[i] = true;
            dropped += 1;
            continue;
        }
        new_index[i] = Some(symbols.len());
        depths.push(depth);
        scoped.push(c.scope.is_some());
        symbols.push(Symbol {
            name: c.name,
            qualname,
            kind,
            start_line: c.start_line,
            end_line: c.end_line,
            signature: c.signature,
            doc: c.doc,
            parent,
            lead_line: c.lead_line,
        });
    }

    // A Go method's or C++ out-of-line method's parent is its type, where the file
    // declares it.
    let by_qualname: HashMap<String, usize> = symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind.is_type_container())
        .map(|(i, s)| (s.qualname.clone(), i))
        .collect();
    for (s, scoped) in symbols.iter_mut().zip(scoped) {
        if scoped
            && let Some(p) = s
                .qualname
                .rsplit_once(sep)
                .and_then(|(scope, _)| by_qualname.get(scope))
        {
            s.parent = Some(*p);
        }
    }

    Parsed {
        symbols,
        refs: Default::default(),
        has_errors: tree.root_node().has_error(),
        dropped: dropped + deep_subtrees,
    }
}

/// Records in `memo` the node `cur` (the end of `path`), walked from `open` on, unless
/// one of its candidates reaches outside it (its range, or a doc comment above it):
/// those depend on more than the node.
fn record(
    memo: &mut Memo,
    (first, first_node, deep): (usize, usize, u32),
    cur: Node,
    path: &[Node],
    candidates: &[Candidate],
    deep_now: u32,
) {
    let (start, end) = (cur.start_byte(), cur.end_byte());
    let row = cur.start_position().row;
    let inside = candidates[first..].iter().all(|c| {
        start <= c.range_start
            && c.range_end <= end
            && (c.range_start, c.range_end) != (start, end)
            && c.lead_line as usize > row
    });
    if !inside {
        return;
    }
    memo.nodes.push(MemoNode {
        start_byte: start,
        end_byte: end,
        start_row: row,
        kind: cur.kind_id(),
        depth: path.len() - 1,
        ancestors: ancestor_kinds(path),
        first,
        end: candidates.len(),
        nested: memo.nodes.len() - first_node,
        deep: deep_now - deep,
    });
}

/// Takes the candidates below `node` from memo node `i` of the old walk's memo `old`,
/// moved to where `node` is, and its memo nodes into the new `memo`.
fn take_from_memo(
    old: &Memo,
    i: usize,
    node: Node,
    candidates: &mut Vec<Candidate>,
    memo: &mut Memo,
    taken_ids: &mut usize,
) {
    let m = old.nodes[i];
    let at = node.start_byte();
    let bytes = |b: usize| b - m.start_byte + at;
    let row = node.start_position().row;
    let line = |l: u32| (l as usize - m.start_row + row) as u32;
    let first = candidates.len();
    // Fresh ids, one per node as before: they only tell candidates of one node apart.
    let mut ids: HashMap<usize, usize> = HashMap::new();
    for c in &old.candidates[m.first..m.end] {
        let id = *ids.entry(c.id).or_insert_with(|| {
            *taken_ids += 1;
            *taken_ids
        });
        candidates.push(Candidate {
            id,
            start_byte: bytes(c.start_byte),
            end_byte: bytes(c.end_byte),
            range_start: bytes(c.range_start),
            range_end: bytes(c.range_end),
            start_line: line(c.start_line),
            end_line: line(c.end_line),
            lead_line: line(c.lead_line),
            ..c.clone()
        });
    }
    for n in &old.nodes[i - m.nested..=i] {
        memo.nodes.push(MemoNode {
            start_byte: bytes(n.start_byte),
            end_byte: bytes(n.end_byte),
            start_row: n.start_row - m.start_row + row,
            first: n.first - m.first + first,
            end: n.end - m.first + first,
            ..*n
        });
    }
}

/// Turns one query match into a definition candidate, unless a rule filters it out. The
/// definition node is the pattern's root, which is the walk's current node.
fn collect_match(
    lang: Lang,
    m: &tree_sitter::QueryMatch<'_, '_>,
    names: &[&str],
    src: &[u8],
    ctx: &Ctx,
    candidates: &mut Vec<Candidate>,
) {
    let mut def = None;
    let mut name_node = None;
    let mut declarator = None;
    let mut receiver = None;
    let mut modifiers = None;
    for cap in m.captures {
        match names[cap.index as usize] {
            "name" => name_node = Some(cap.node),
            "declarator" => declarator = Some(cap.node),
            "receiver" => receiver = Some(cap.node),
            "modifiers" => modifiers = Some(cap.node),
            other => {
                if let Some(tag) = tag_for(other) {
                    def = Some((cap.node, tag));
                }
            }
        }
    }
    let Some((node, tag)) = def else { return };
    let depth = ctx.path.len() - 1;
    // Every pattern captures its own root as the definition (see queries/*.scm).
    if ctx.path[depth].id() != node.id() {
        return;
    }
    let (name, mut scope) = if let Some(d) = declarator {
        match declarator_name(d, src) {
            Some(x) => x,
            None => return,
        }
    } else if let Some(n) = name_node {
        if tag == Tag::Kind(SymbolKind::Impl) {
            (type_name(n, src), None)
        } else {
            (node_text(n, src).to_string(), None)
        }
    } else if let Some(n) = node.field("name").filter(|n| {
        matches!(
            n.kind(),
            "identifier" | "simple_identifier" | "type_identifier"
        )
    }) {
        // A pattern without `@name` (cheaper to compile, see queries/swift.scm): the
        // first child in the node's `name` field, when it is an identifier.
        (node_text(n, src).to_string(), None)
    } else {
        return;
    };
    if name.is_empty() {
        return;
    }
    if !keep_candidate(lang, node, tag, &name, modifiers, src, ctx, depth) {
        return;
    }
    if let Some(r) = receiver {
        // A Go receiver's type; a Lua table named by a plain identifier (`function M.f`).
        scope = first_descendant(r, "type_identifier")
            .or_else(|| (r.kind() == "identifier").then_some(r))
            .map(|t| node_text(t, src).to_string());
    }
    let range_depth = range_depth(lang, ctx, depth);
    let range = ctx.path[range_depth];
    let start = effective_start(range);
    let start_line = start.start_position().row as u32 + 1;
    let end_line = content_end_line(range).max(start_line);
    let (doc, lead_line) = doc_and_lead(lang, node, ctx, range_depth, start_line, src);
    let signature = signature(node, start.start_byte(), range, src);
    candidates.push(Candidate {
        id: node.id(),
        start_byte: node.start_byte(),
        end_byte: node.end_byte(),
        range_start: range.start_byte(),
        range_end: range.end_byte(),
        tag,
        name,
        scope,
        pattern: m.pattern_index,
        start_line,
        end_line,
        lead_line,
        signature,
        doc,
    });
}

/// Filters that need only the node and its ancestors.
#[allow(clippy::too_many_arguments)] // one call site; a struct would only rename them
fn keep_candidate(
    lang: Lang,
    node: Node,
    tag: Tag,
    name: &str,
    modifiers: Option<Node>,
    src: &[u8],
    ctx: &Ctx,
    depth: usize,
) -> bool {
    let kind_up = |up: usize| {
        ctx.ancestor(depth, up)
            .map(|n| n.kind())
            .unwrap_or_default()
    };
    let parent_kind = kind_up(1);
    match tag {
        // Module-level variables and constants (`codes = LookupDict()`, `export const
        // produce = …`): definitions a caller reaches by name. Dunder names (`__all__`)
        // are the module's bookkeeping, not its API.
        Tag::Caps => {
            let top_level = match lang.spec().caps_constants {
                CapsConstants::ModuleLevel => parent_kind == "module",
                CapsConstants::TopLevelConst => {
                    matches!(parent_kind, "lexical_declaration" | "variable_declaration")
                        && (kind_up(2) == "program"
                            || (kind_up(2) == "export_statement" && kind_up(3) == "program"))
                }
                // Swift's `let`: at the top level of the file, or `static` in a type's body.
                CapsConstants::LetConstants => {
                    parent_kind == "source_file"
                        || (matches!(parent_kind, "class_body" | "enum_class_body")
                            && (0..node.named_child_count())
                                .filter_map(|i| node.named_child(i))
                                .any(|m| {
                                    m.kind() == "modifiers"
                                        && node_text(m, src)
                                            .split_whitespace()
                                            .any(|w| w == "static")
                                }))
                }
                #[cfg(feature = "lang-scala")]
                CapsConstants::UpperVals => {
                    name.starts_with(|c: char| c.is_uppercase())
                        && (parent_kind == "compilation_unit"
                            || (parent_kind == "template_body"
                                && matches!(kind_up(2), "object_definition" | "package_object")))
                }
                CapsConstants::None => false,
            };
            top_level && !(name.starts_with("__") && name.ends_with("__"))
        }
        Tag::StaticFinal => modifiers.is_some_and(|m| {
            let words: Vec<&str> = node_text(m, src).split_whitespace().collect();
            words.contains(&"static") && words.contains(&"final")
        }),
        // Object-literal methods are not definitions.
        Tag::Kind(SymbolKind::Function)
            if lang.spec().methods_in_classes_only && node.kind() == "method_definition" =>
        {
            parent_kind == "class_body"
        }
        // A C# method is always in a type's body: one elsewhere is an artefact of a syntax
        // error, and taken for a top-level function it would capture plain calls.
        Tag::Kind(SymbolKind::Function)
            if lang.spec().methods_in_classes_only
                && matches!(
                    node.kind(),
                    "method_declaration" | "constructor_declaration"
                ) =>
        {
            // Conditional members (`#if … #endif`) stand in a preprocessor node in the body.
            let mut up = 1;
            while kind_up(up).starts_with("preproc_") {
                up += 1;
            }
            let owner = ctx.ancestor(depth, up + 1).filter(|o| {
                kind_up(up) == "declaration_list"
                    && matches!(
                        o.kind(),
                        "class_declaration"
                            | "struct_declaration"
                            | "interface_declaration"
                            | "record_declaration"
                    )
            });
            match owner {
                None => false,
                // A constructor is named like its type: one named otherwise is an error's
                // artefact too (`=> new Log()` under an `#if` read as a constructor).
                Some(o) if node.kind() == "constructor_declaration" => {
                    o.field("name").is_some_and(|n| node_text(n, src) == name)
                }
                Some(_) => true,
            }
        }
        // A named function expression a declarator holds is the declarator's definition
        // (`const run = function go() {…}` is `run`).
        Tag::Kind(SymbolKind::Function) if node.kind() == "function_expression" => {
            parent_kind != "variable_declarator"
        }
        // A struct or enum directly in a typedef is reported under the typedef's name.
        Tag::Kind(SymbolKind::Struct | SymbolKind::Enum)
            if lang.spec().typedef_names && node.kind() != "type_definition" =>
        {
            parent_kind != "type_definition"
        }
        _ => true,
    }
}

/// The depth of the node whose lines a definition spans: wrappers that belong to it
/// (`export_statement`, a single-declarator `const`, `template_declaration`, …) are
/// included.
fn range_depth(lang: Lang, ctx: &Ctx, depth: usize) -> usize {
    let mut d = depth;
    while d > 0 {
        let cur = ctx.path[d];
        let p = ctx.path[d - 1];
        let wraps = lang
            .spec()
            .wrappers
            .iter()
            .any(|w| w.parent == p.kind() && wrapper_holds(w.when, p, cur));
        if !wraps {
            break;
        }
        d -= 1;
    }
    d
}

fn wrapper_holds(when: Wraps, parent: Node, cur: Node) -> bool {
    match when {
        Wraps::Always => true,
        Wraps::OnlyChild => count_children(parent, cur.kind()) == 1,
        Wraps::Child(kind) => cur.kind() == kind,
    }
}

fn count_children(node: Node, kind: &str) -> usize {
    let mut walker = node.walk();
    node.named_children(&mut walker)
        .filter(|c| c.kind() == kind)
        .count()
}

const LEADING_KINDS: &[&str] = &[
    "decorator",
    "annotation",
    "marker_annotation",
    "attribute_item",
    "attribute_declaration",
    // Swift's `@discardableResult`, `@MainActor` (in the declaration's modifiers).
    "attribute",
    "attribute_list",
    "comment",
    "line_comment",
    "block_comment",
    // Swift's `/* … */` and `/** … */`.
    "multiline_comment",
];

/// The first node inside `node` that is part of the declaration proper, skipping
/// decorators, annotations and comments that stand before it.
fn effective_start(node: Node) -> Node {
    let mut walker = node.walk();
    for child in node.children(&mut walker) {
        if LEADING_KINDS.contains(&child.kind()) {
            continue;
        }
        if child.kind() == "modifiers" {
            let mut w2 = child.walk();
            for m in child.children(&mut w2) {
                if !LEADING_KINDS.contains(&m.kind()) {
                    return m;
                }
            }
            continue;
        }
        return child;
    }
    node
}

/// 1-based last line of a definition: its last token that is not a comment (Python
/// blocks take in comment lines that follow them).
pub(crate) fn content_end_line(node: Node) -> u32 {
    let mut cur = node;
    loop {
        let mut last = None;
        let mut i = cur.child_count();
        while i > 0 {
            i -= 1;
            if let Some(c) = cur.child(i)
                && !matches!(
                    c.kind(),
                    "comment" | "line_comment" | "block_comment" | "multiline_comment"
                )
            {
                last = Some(c);
                break;
            }
        }
        match last {
            Some(c) => cur = c,
            None => return end_line(cur),
        }
    }
}

/// 1-based last line of a node (an end at column 0 belongs to the line before).
pub(crate) fn end_line(node: Node) -> u32 {
    let start = node.start_position();
    let end = node.end_position();
    if end.column == 0 && end.row > start.row {
        end.row as u32
    } else {
        end.row as u32 + 1
    }
}

pub(super) fn node_text<'s>(node: Node, src: &'s [u8]) -> &'s str {
    std::str::from_utf8(&src[node.byte_range()]).unwrap_or_default()
}

/// The first node of `kind` in `node`'s subtree, in preorder (a cursor walk: types nest
/// as deep as the file makes them).
fn first_descendant<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    loop {
        let n = cursor.node();
        if n.kind() == kind {
            return Some(n);
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node().id() == node.id() {
                return None;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return None;
            }
        }
    }
}

/// The name of a type without generics or references (`&'a Stack<T>` → `Stack`).
fn type_name(node: Node, src: &[u8]) -> String {
    match first_descendant(node, "type_identifier") {
        Some(t) => node_text(t, src).to_string(),
        None => node_text(node, src).to_string(),
    }
}

/// The name a C/C++ declarator declares, and the scope written in it (`Foo::bar`).
/// Declarators nest as deep as the file makes them (`int ******p`), so this is a loop.
fn declarator_name(node: Node, src: &[u8]) -> Option<(String, Option<String>)> {
    let mut node = node;
    // Scopes from the outside in: `a::b::f` is `a`, then `b`.
    let mut scopes: Vec<String> = Vec::new();
    let name = loop {
        match node.kind() {
            "identifier" | "field_identifier" | "type_identifier" | "destructor_name"
            | "operator_name" | "primitive_type" => break node_text(node, src).to_string(),
            "template_function" => {
                break node_text(node.field("name")?, src).to_string();
            }
            "qualified_identifier" => {
                if let Some(s) = node.field("scope") {
                    scopes.push(strip_generics(node_text(s, src)));
                }
                node = node.field("name")?;
            }
            _ => {
                node = node.field("declarator").or_else(|| {
                    let mut w = node.walk();
                    node.named_children(&mut w).last()
                })?;
            }
        }
    };
    let scope = (!scopes.is_empty()).then(|| scopes.join("::"));
    Some((name, scope))
}

fn strip_generics(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut depth = 0u32;
    for ch in s.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            c if depth == 0 && !c.is_whitespace() => out.push(c),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defs(lang: Lang, text: &str) -> Vec<String> {
        let mut parser = Parser::new();
        let parsed = parse(&mut parser, lang, text, false).expect("parses");
        parsed
            .symbols
            .iter()
            .map(|s| format!("{} {} {}-{}", s.kind, s.qualname, s.start_line, s.end_line))
            .collect()
    }

    #[test]
    fn rust_methods_are_qualified_by_their_impl_type() {
        let src = "/// A stack.\n#[derive(Debug)]\npub struct Stack<T> { items: Vec<T> }\n\nimpl<T> Stack<T> {\n    /// Push.\n    pub fn push(&mut self, t: T) {\n        self.items.push(t);\n    }\n}\n";
        assert_eq!(
            defs(Lang::Rust, src),
            [
                "struct Stack 3-3",
                "impl Stack 5-10",
                "method Stack::push 7-9"
            ]
        );
        let mut parser = Parser::new();
        let p = parse(&mut parser, Lang::Rust, src, false).expect("parses");
        assert_eq!(p.symbols[0].doc, "A stack.");
        assert_eq!(p.symbols[0].lead_line, 1);
        assert_eq!(p.symbols[2].signature, "pub fn push(&mut self, t: T)");
        assert_eq!(p.symbols[2].parent, Some(1));
    }

    #[test]
    fn python_decorators_and_docstrings() {
        // Module globals are definitions; dunders (`__all__`) are not.
        let src = "MAX_SIZE = 10\nlower = 1\n__all__ = []\nclass A:\n    @staticmethod\n    def f():\n        \"\"\"Does f.\"\"\"\n        def g():\n            pass\n        return g\n";
        assert_eq!(
            defs(Lang::Python, src),
            [
                "constant MAX_SIZE 1-1",
                "constant lower 2-2",
                "class A 4-10",
                "method A.f 6-10",
                "function A.f.g 8-9"
            ]
        );
        let mut parser = Parser::new();
        let p = parse(&mut parser, Lang::Python, src, false).expect("parses");
        assert_eq!(p.symbols[3].doc, "Does f.");
        assert_eq!(p.symbols[3].lead_line, 5);
    }

    #[test]
    fn go_methods_take_their_receiver_type() {
        let src = "package x\n\n// Server serves.\ntype Server struct {\n\tport int\n}\n\nfunc (s *Server) Start() error {\n\treturn nil\n}\n\nconst (\n\tA = 1\n\tB = 2\n)\n";
        assert_eq!(
            defs(Lang::Go, src),
            [
                "struct Server 4-6",
                "method Server.Start 8-10",
                "constant A 13-13",
                "constant B 14-14"
            ]
        );
    }

    #[test]
    fn cpp_out_of_line_methods_and_typedef_structs() {
        let src = "namespace geo {\nclass Shape {\npublic:\n  double area() const { return 0; }\n  void draw();\n};\nvoid Shape::draw() {}\n}\ntypedef struct { int x; } Point;\n";
        assert_eq!(
            defs(Lang::Cpp, src),
            [
                "module geo 1-8",
                "class geo::Shape 2-6",
                "method geo::Shape::area 4-4",
                "method geo::Shape::draw 7-7",
                "struct Point 9-9"
            ]
        );
    }

    #[test]
    fn javascript_arrow_functions_and_object_methods() {
        let src = "export const MAX = 3;\nconst helper = (a) => a + 1;\nconst cfg = { load() { return 1; } };\nclass A {\n  run() { return helper(1); }\n}\n";
        assert_eq!(
            defs(Lang::JavaScript, src),
            [
                "constant MAX 1-1",
                "function helper 2-2",
                "constant cfg 3-3",
                "class A 4-6",
                "method A.run 5-5"
            ]
        );
    }

    #[test]
    fn java_annotations_are_not_part_of_the_range() {
        let src = "class A {\n  static final int MAX = 1;\n  int x = 2;\n  /** Runs. */\n  @Override\n  public void run() {\n  }\n}\n";
        assert_eq!(
            defs(Lang::Java, src),
            ["class A 1-8", "constant A.MAX 2-2", "method A.run 6-7"]
        );
    }

    #[test]
    fn definitions_nested_past_the_bound_are_dropped_and_counted() {
        let n = MAX_DEFINITION_DEPTH + 10;
        let src = format!("{}fn f() {{}}{}", "mod m { ".repeat(n), " }".repeat(n));
        let mut parser = Parser::new();
        let p = parse(&mut parser, Lang::Rust, &src, true).expect("parses");
        assert_eq!(p.symbols.len(), MAX_DEFINITION_DEPTH);
        assert_eq!(p.dropped as usize, n + 1 - MAX_DEFINITION_DEPTH);
        // Every kept symbol hangs from a kept parent, with its real qualified name.
        let last = &p.symbols[MAX_DEFINITION_DEPTH - 1];
        assert_eq!(last.qualname, vec!["m"; MAX_DEFINITION_DEPTH].join("::"));
        assert_eq!(last.parent, Some(MAX_DEFINITION_DEPTH - 2));
    }

    #[test]
    fn a_deep_expression_is_walked_to_the_bound_only() {
        let n = 50_000;
        let src = format!("def f():\n    x = {}g(){}\n", "(".repeat(n), ")".repeat(n));
        let mut parser = Parser::new();
        let p = parse(&mut parser, Lang::Python, &src, true).expect("parses");
        assert_eq!(defs(Lang::Python, &src), ["function f 1-2"]);
        assert!(p.refs.deep_subtrees >= 1, "{:?}", p.refs.deep_subtrees);
        assert!(p.refs.calls.is_empty(), "{:?}", p.refs.calls);
    }
}
