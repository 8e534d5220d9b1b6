//! The retrieve stage: each retriever of the plan turns the question into a ranked list
//! of chunk ids (for fusion) and, for the graph and history, the structured facts the
//! answer is read from. Indexes are opened lazily: a structural question never loads
//! the vectors.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use rusqlite::Connection;

use super::classify::Intent;
pub use super::outcome::{GraphFact, HistoryFact};
use crate::config::Config;
use crate::error::LlmcError;
use crate::graph::{self, GraphQuery, Relation};
use crate::history::query::{self as hq, LogFilter, Target};
use crate::model::DefKind;
use crate::model::Memory;
use crate::search::embed::Embedder;
use crate::search::fuse::RankedList;
use crate::search::lexical::LexicalIndex;
use crate::search::vectors::VectorIndex;
use crate::search::{IdFilter, Indexes, Opened, OtherEmbedder, embedder_for, out_of_step};

use crate::store::lookups;
pub use crate::store::lookups::{is_defined, neighbours, vocabulary};

/// Files read as text only that a question's graph lookup reads for its names, at most.
const TEXT_ONLY_READ_MOST: usize = 256;

/// Whether `bytes` hold `word` with no identifier character on either side.
fn holds_word(bytes: &[u8], word: &str) -> bool {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    memchr::memmem::find_iter(bytes, word.as_bytes()).any(|at| {
        let end = at + word.len();
        (at == 0 || !ident(bytes[at - 1])) && bytes.get(end).is_none_or(|&b| !ident(b))
    })
}

/// The vectors of a generation and the embedder that reads queries for them.
type Semantic = (Arc<VectorIndex>, Box<dyn Embedder>);

/// The memories of one repository, opened as needed.
pub struct Memories<'a> {
    pub root: &'a Path,
    pub config: &'a Config,
    /// The store at its generation, what it was built with, and the search indexes'
    /// opener.
    pub indexes: Indexes,
    lexical: Option<Option<Arc<LexicalIndex>>>,
    vectors: Option<Option<Semantic>>,
    /// The lists already retrieved for this question, by retriever, text and length: a
    /// refine attempt that searches the same text again reads them from here.
    lists: HashMap<(Memory, String, usize), Hits>,
    /// The chunks of files that are no test, example or benchmark, once read
    /// ([`Memories::search_code`]).
    code: Option<IdFilter>,
    /// Warnings for the answer (an index out of step, a missing memory).
    pub warnings: Vec<String>,
    /// Files of languages this build reads as text only, once counted: the note that says
    /// so, and their share of the files.
    text_only: Option<Option<(String, f64)>>,
    /// A file read as text only holds a name the question's graph lookup is about
    /// ([`Memories::text_only_holds`]).
    text_only_hit: bool,
}

impl<'a> Memories<'a> {
    pub fn open(root: &'a Path, config: &'a Config) -> Result<Memories<'a>> {
        Ok(Memories::new(root, config, Indexes::open(root)?))
    }

    /// The memories of `indexes` (opened for one question, or kept open).
    pub fn new(root: &'a Path, config: &'a Config, indexes: Indexes) -> Memories<'a> {
        Memories {
            root,
            config,
            indexes,
            lexical: None,
            vectors: None,
            lists: HashMap::new(),
            code: None,
            warnings: Vec::new(),
            text_only: None,
            text_only_hit: false,
        }
    }

    /// The files of languages this build has no grammar for ([`left_out_note`]): the
    /// note, and their share of the indexed files; `None` when there are none.
    ///
    /// [`left_out_note`]: crate::syntax::lang::left_out_note
    pub fn text_only(&mut self) -> Result<Option<(String, f64)>> {
        if let Some(t) = &self.text_only {
            return Ok(t.clone());
        }
        let counts = self.read(crate::store::counts::files_by_language)?;
        let all: u64 = counts.values().sum();
        let left: u64 = counts
            .iter()
            .filter(|(label, _)| crate::syntax::lang::grammar_left_out(label).is_some())
            .map(|(_, n)| n)
            .sum();
        let t = crate::syntax::lang::left_out_note(&counts)
            .map(|note| (note, left as f64 / all.max(1) as f64));
        self.text_only = Some(t.clone());
        Ok(t)
    }

    /// Whether a file read as text only holds one of `names` (the last part of each,
    /// as a word): then what it defines or calls there is missing from the graph's
    /// answer. Reads at most [`TEXT_ONLY_READ_MOST`] such files; with more, they are
    /// taken to hold it. Remembered for [`Self::text_only_share`].
    pub fn text_only_holds(&mut self, names: &[String]) -> Result<bool> {
        let labels = crate::syntax::lang::left_out_labels();
        if labels.is_empty() {
            return Ok(false);
        }
        let paths: Vec<String> = self.read(|c| {
            let sql = format!(
                "SELECT path FROM files WHERE lang IN ({}) LIMIT {}",
                vec!["?"; labels.len()].join(", "),
                TEXT_ONLY_READ_MOST + 1
            );
            let mut stmt = c.prepare(&sql)?;
            let rows = stmt.query_map(rusqlite::params_from_iter(labels.iter()), |r| r.get(0))?;
            rows.collect::<rusqlite::Result<Vec<String>>>()
        })?;
        let words: Vec<&str> = names
            .iter()
            .filter_map(|n| n.rsplit(['.', ':', '#']).next())
            .filter(|w| !w.is_empty())
            .collect();
        let hit = !paths.is_empty()
            && (paths.len() > TEXT_ONLY_READ_MOST
                || paths.iter().any(|p| {
                    crate::source::read(self.root, p, self.config.index.max_file_size)
                        .is_ok_and(|bytes| words.iter().any(|w| holds_word(&bytes, w)))
                }));
        self.text_only_hit |= hit;
        Ok(hit)
    }

    /// The share of the indexed files read as text only, as [`Self::text_only`] last
    /// counted it, once one of them holds a name the question is about
    /// ([`Self::text_only_holds`]); 0 otherwise.
    pub fn text_only_share(&self) -> f64 {
        match &self.text_only {
            Some(Some((_, share))) if self.text_only_hit => *share,
            _ => 0.0,
        }
    }

    /// The generation the answer is read from.
    pub fn generation(&self) -> u64 {
        self.indexes.generation
    }

    /// Warns that the question would have consulted a memory that was not built.
    fn warn_off(&mut self, memory: Memory) {
        self.warn(format!(
            "{}; answered from the other memories",
            LlmcError::MemoryOff(memory)
        ));
    }

    fn warn(&mut self, w: String) {
        if !self.warnings.contains(&w) {
            self.warnings.push(w);
        }
    }

    /// The share of the words of `text` that no chunk holds, weighed by how many chunks
    /// there are (`None` without a lexical index): how much of a question names nothing
    /// in this repository.
    pub fn unknown_share(&mut self, text: &str) -> Result<Option<f64>> {
        Ok(self.unknown_words(text)?.map(|(share, _)| share))
    }

    /// How much a word absent from every chunk says in this repository: 1 from a few
    /// thousand chunks up, less in a small one (where many ordinary words are absent).
    pub fn absence_weight(&mut self) -> Result<f64> {
        let Some(l) = self.lexical_index()? else {
            return Ok(1.0);
        };
        Ok(absence_weight(l.num_docs()?))
    }

    /// [`Self::unknown_share`], and the same weight when any word is unknown (0 when
    /// every word is held somewhere).
    pub fn unknown_words(&mut self, text: &str) -> Result<Option<(f64, f64)>> {
        let Some(l) = self.lexical_index()? else {
            return Ok(None);
        };
        let (dfs, docs) = l.doc_freqs(text)?;
        if dfs.is_empty() {
            return Ok(None);
        }
        let unknown = dfs.iter().filter(|(_, df)| *df == 0).count();
        // A word absent from a few dozen chunks says little; absent from thousands, that
        // the repository does not deal with it: weighed by the size of the corpus.
        let weight = absence_weight(docs);
        let any = if unknown > 0 { weight } else { 0.0 };
        Ok(Some((weight * unknown as f64 / dfs.len() as f64, any)))
    }

    /// How many chunks hold `word` (a single word), and how many chunks there are; `None`
    /// without a lexical index.
    pub fn doc_freq(&mut self, word: &str) -> Result<Option<(u64, u64)>> {
        let Some(l) = self.lexical_index()? else {
            return Ok(None);
        };
        let (dfs, docs) = l.doc_freqs(word)?;
        Ok(dfs.first().map(|(_, df)| (*df, docs)))
    }

    /// How many chunks hold `token` as one token of the code tokenizer (`line_ranges`
    /// whole, not its parts); `None` without a lexical index.
    pub fn token_doc_freq(&mut self, token: &str) -> Result<Option<u64>> {
        let Some(l) = self.lexical_index()? else {
            return Ok(None);
        };
        let (dfs, _) = l.doc_freqs(token)?;
        Ok(Some(
            dfs.iter()
                .find(|(t, _)| t == token)
                .map_or(0, |(_, df)| *df),
        ))
    }

    /// The lexical index, opened on first need; `None` when it was not built or is
    /// missing.
    fn lexical_index(&mut self) -> Result<Option<Arc<LexicalIndex>>> {
        if !self.indexes.built.has(Memory::Lexical) {
            return Ok(None);
        }
        self.open_lexical()?;
        Ok(self.lexical.as_ref().and_then(Option::clone))
    }

    /// BM25 over the chunks.
    pub fn lexical(&mut self, query: &str, k: usize) -> Result<Vec<(i64, f32)>> {
        self.remembered(Memory::Lexical, query, k, Self::lexical_search)
    }

    /// The semantic hits for `query`: the `k` nearest chunks.
    pub fn semantic(&mut self, query: &str, k: usize) -> Result<Vec<(i64, f32)>> {
        self.remembered(Memory::Semantic, query, k, Self::semantic_search)
    }

    /// The `k` best chunks for `query` in `memory` (lexical or semantic) among the chunks
    /// of files that are no test, example or benchmark (by path), read once per set of
    /// memories.
    pub fn search_code(&mut self, memory: Memory, query: &str, k: usize) -> Result<Hits> {
        if self.code.is_none() {
            let ranges = self.read(lookups::chunk_ranges)?;
            let kept = ranges
                .into_iter()
                .filter(|(path, _, _)| !super::pass::is_test_or_example(path))
                .map(|(_, lo, hi)| (lo, hi))
                .collect();
            self.code = Some(IdFilter::ranges(kept));
        }
        let filter = self.code.clone().unwrap_or_default();
        match memory {
            Memory::Lexical => self.lexical_in(query, k, &filter),
            Memory::Semantic => self.semantic_in(query, k, &filter),
            _ => Ok(Vec::new()),
        }
    }

    /// `search`'s list for `query`, from [`Memories::lists`] when this question already
    /// searched the same text.
    fn remembered(
        &mut self,
        memory: Memory,
        query: &str,
        k: usize,
        search: fn(&mut Self, &str, usize) -> Result<Hits>,
    ) -> Result<Hits> {
        let key = (memory, query.to_string(), k);
        if let Some(hits) = self.lists.get(&key) {
            return Ok(hits.clone());
        }
        let hits = search(self, query, k)?;
        self.lists.insert(key, hits.clone());
        Ok(hits)
    }

    fn lexical_search(&mut self, query: &str, k: usize) -> Result<Vec<(i64, f32)>> {
        self.lexical_in(query, k, &IdFilter::default())
    }

    /// BM25 over the chunks `filter` keeps.
    fn lexical_in(&mut self, query: &str, k: usize, filter: &IdFilter) -> Result<Hits> {
        if !self.indexes.built.has(Memory::Lexical) {
            self.warn_off(Memory::Lexical);
            return Ok(Vec::new());
        }
        self.open_lexical()?;
        match self.lexical.as_ref().and_then(Option::as_ref) {
            Some(l) => l.search(query, k, None, filter),
            None => Ok(Vec::new()),
        }
    }

    fn open_lexical(&mut self) -> Result<()> {
        if self.lexical.is_none() {
            let lex = match self.indexes.lexical()? {
                Opened::Ready {
                    index,
                    out_of_step: behind,
                } => {
                    if behind {
                        self.warn(out_of_step());
                    }
                    Some(index)
                }
                Opened::Missing => {
                    self.warn("the lexical index is missing: run `llmc index`".into());
                    None
                }
                Opened::Broken(e) => return Err(e),
            };
            self.lexical = Some(lex);
        }
        Ok(())
    }

    /// Nearest chunks by embedding.
    fn semantic_search(&mut self, query: &str, k: usize) -> Result<Vec<(i64, f32)>> {
        self.semantic_in(query, k, &IdFilter::default())
    }

    /// Nearest chunks by embedding among those `filter` keeps.
    fn semantic_in(&mut self, query: &str, k: usize, filter: &IdFilter) -> Result<Hits> {
        if !self.indexes.built.has(Memory::Semantic) {
            self.warn_off(Memory::Semantic);
            return Ok(Vec::new());
        }
        if self.vectors.is_none() {
            let opened = match self.indexes.vectors()? {
                Opened::Missing => {
                    self.warn("the vector index is missing: run `llmc index`".into());
                    None
                }
                Opened::Broken(e) => return Err(e),
                Opened::Ready {
                    index,
                    out_of_step: behind,
                } => match embedder_for(&index, &self.config.embed)? {
                    Err(OtherEmbedder {
                        made_by,
                        configured,
                    }) => {
                        self.warn(format!(
                                "the vectors were made by `{made_by}`, the configuration asks for `{configured}`: \
                                 semantic retrieval skipped; run `llmc index` to re-embed"
                            ));
                        None
                    }
                    Ok(embedder) => {
                        if behind {
                            self.warn(out_of_step());
                        }
                        Some((index, embedder))
                    }
                },
            };
            self.vectors = Some(opened);
        }
        let Some(Some((index, embedder))) = &self.vectors else {
            return Ok(Vec::new());
        };
        let q = embedder
            .embed(&[query])?
            .pop()
            .context("the embedder returned no vector")?;
        let (hits, _) = index.search(&q, k, &|id| filter.keep(id))?;
        Ok(hits)
    }

    /// Every name the index defines (kept per generation by a long-running reader).
    pub fn vocabulary(&self) -> Result<Arc<Vec<String>>> {
        self.indexes.vocabulary()
    }

    /// Runs `f` on the store's connection.
    pub fn read<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T> {
        self.indexes.store.read(f)
    }
}

/// See [`Memories::absence_weight`].
fn absence_weight(docs: u64) -> f64 {
    ((docs.max(1) as f64).ln() / 3000f64.ln()).min(1.0)
}

/// A retriever's ranked chunk ids with its own scores, best first.
pub type Hits = Vec<(i64, f32)>;

/// What the history retriever looks for.
#[derive(Debug, Clone, Default)]
pub struct HistoryAsk<'q> {
    /// Names and paths the question gives.
    pub targets: &'q [String],
    /// Subject words, used when no name is given: file names, definition names, authors.
    pub terms: &'q [String],
    pub since: Option<i64>,
    pub until: Option<i64>,
    /// Only commits by this author (read from the question against the repository's).
    pub author: Option<&'q str>,
    /// The introducing commit first: the question asks when something was added.
    pub oldest_first: bool,
    /// Commits whose message holds this text come first (a message the question quotes).
    pub grep: Option<&'q str>,
    /// A "why" question that names nothing: its subject words, as written and as stems.
    /// The commits whose messages hold two of them or more come first.
    pub message_words: &'q [(String, String)],
    /// Only the commits by their messages: the words are no names of files or
    /// definitions ("why does fzf use a floating pane…?").
    pub by_message_only: bool,
    /// The question asks when something was removed: of the commits its words find, only
    /// those whose message says so (`message_words` holds the verbs), a subject's first.
    pub removed: bool,
}

/// Commits listed for the words of a "why" question.
const COMMITS_BY_WORDS: usize = 5;

/// The graph retriever: definitions, callers, callees or imports of each target, as
/// facts and as one ranked list of chunks (definitions first, then call sites).
pub fn graph_facts(
    m: &mut Memories,
    intents: &[Intent],
    targets: &[String],
    terms: &[String],
    importers: bool,
    limit: usize,
) -> Result<(Vec<GraphFact>, Hits)> {
    // "who calls nextString?" where it is defined in Kotlin, which this build reads as
    // text: the answer must say what it cannot see.
    if let Some((note, _)) = m.text_only()?
        && m.text_only_holds(targets)?
    {
        m.warn(note);
    }
    let mut facts = Vec::new();
    let mut ranked: Vec<(i64, f32)> = Vec::new();
    let mut push = |id: Option<i64>, score: f32| {
        if let Some(id) = id
            && !ranked.iter().any(|(r, _)| *r == id)
        {
            ranked.push((id, score));
        }
    };
    for target in targets {
        for &intent in intents {
            let relation = match intent {
                Intent::Callers => Relation::Callers,
                Intent::Callees => Relation::Callees,
                // A file, a module written as code or a package: the graph finds which.
                Intent::Imports if importers => Relation::Importers,
                Intent::Imports if looks_like_path(target) => Relation::Imports,
                Intent::Imports => Relation::Defs,
                _ => Relation::Defs,
            };
            // Without the code graph only the definitions are known: no edge is claimed,
            // not even "called from nowhere".
            let off = relation != Relation::Defs && !m.indexes.built.has(Memory::Graph);
            let relation = if off {
                m.warn_off(Memory::Graph);
                Relation::Defs
            } else {
                relation
            };
            let answer = graph::query(
                &m.indexes.store,
                &GraphQuery {
                    relation,
                    target: target.clone(),
                    depth: 1,
                    // As `llmc graph`: callers are the edges proven by evidence, name-only
                    // matches and unknown receivers counted apart; callees keep their
                    // external and unresolved rows.
                    min_resolution: None,
                },
            )?;
            let mut answer = answer;
            let mut rows = answer.results;
            if relation == Relation::Defs {
                rows.clear();
                implementation_first(&mut answer.candidates);
                let others: Vec<&String> = targets.iter().filter(|t| *t != target).collect();
                order_by_context(&mut answer.candidates, &others, terms, target);
            }
            // The code's own call sites and importers before those in tests, fixtures and
            // examples (each group in path order): a newcomer asking who calls `load` wants
            // the server's call before thirty tests', and a cut list must not hide it.
            rows.sort_by_key(|r| crate::source::is_test_path(&r.path));
            let total = rows.len();
            rows.truncate(limit);
            // "What does `Command.action` call?" of a method whose calls are all in the
            // closure it builds: "nothing" is true of its own body and useless; the
            // closure's calls are told apart.
            let mut nested = Vec::new();
            if relation == Relation::Callees && rows.is_empty() && !off {
                let inner = m.read(|c| {
                    let mut inner = Vec::new();
                    for d in &answer.candidates {
                        inner.extend(lookups::nested_functions(c, d.id)?);
                    }
                    Ok(inner)
                })?;
                for t in inner {
                    let query = GraphQuery {
                        relation: Relation::Callees,
                        target: t,
                        depth: 1,
                        min_resolution: None,
                    };
                    nested.extend(graph::query(&m.indexes.store, &query)?.results);
                }
                nested.truncate(limit);
            }
            // For callers the call sites are the answer and come first; otherwise the
            // definitions the question names do.
            let sites_first = matches!(relation, Relation::Callers | Relation::Importers);
            m.read(|c| {
                let mut defs = Vec::new();
                for d in &answer.candidates {
                    defs.push(if d.kind == DefKind::File {
                        lookups::first_chunk(c, &d.path)?
                    } else {
                        lookups::def_chunk(c, &d.path, d.id)?
                    });
                }
                let mut sites = Vec::new();
                for r in rows.iter().chain(&nested) {
                    sites.push(lookups::line_chunk(c, &r.path, r.line)?);
                    if let Some((p, l)) = r.defined_at.as_deref().and_then(split_at_line) {
                        sites.push(lookups::line_chunk(c, p, l)?);
                    }
                }
                // The files that import a module are the whole answer; the module's own
                // chunk, which shares its words, would only stand before them.
                if relation == Relation::Importers && !sites.is_empty() {
                    defs.clear();
                }
                let (first, then) = if sites_first {
                    (sites, defs)
                } else {
                    (defs, sites)
                };
                for id in first {
                    push(id, 1.0);
                }
                for id in then {
                    push(id, 0.8);
                }
                Ok(())
            })?;
            if !off && !answer.candidates.is_empty() && !facts_have(&facts, intent, target) {
                facts.push(GraphFact {
                    intent,
                    target: target.clone(),
                    definitions: answer.candidates,
                    rows,
                    total,
                    set_aside: answer.set_aside,
                    references: answer.references,
                    through_trait: answer.through_trait,
                    nested,
                    importers: relation == Relation::Importers,
                });
            }
        }
    }
    Ok((facts, ranked))
}

/// Several definitions of one name: the implementation before a type stub that only
/// declares it (`__init__.pyi`, `index.d.ts`), and a class or function before the
/// constant that rebinds its name in the same file (`Attribute = _add_hash(Attribute)`);
/// otherwise in their order.
fn implementation_first(defs: &mut [graph::query::Def]) {
    use crate::model::SymbolKind;
    if defs.len() < 2 {
        return;
    }
    let keys = stub_or_rebinding(defs.iter().map(|d| {
        let constant = matches!(d.kind, DefKind::Symbol(SymbolKind::Constant));
        (d.path.as_str(), Some(d.symbol.as_str()), constant)
    }));
    let mut keyed: Vec<((bool, bool), graph::query::Def)> =
        keys.into_iter().zip(defs.iter().cloned()).collect();
    keyed.sort_by_key(|(k, _)| *k);
    for (slot, (_, d)) in defs.iter_mut().zip(keyed) {
        *slot = d;
    }
}

/// For each definition of one name (its path, qualified name and whether it is a
/// constant): whether it is a type stub (`.pyi`, `.d.ts`), and whether it is a constant
/// that rebinds the name of a class or function of its file (`Attribute =
/// _add_hash(Attribute)`). Both stand behind the implementation.
pub(super) fn stub_or_rebinding<'a>(
    defs: impl Iterator<Item = (&'a str, Option<&'a str>, bool)> + Clone,
) -> Vec<(bool, bool)> {
    let defining: Vec<(&str, &str)> = defs
        .clone()
        .filter(|d| !d.2)
        .filter_map(|(path, symbol, _)| Some((path, symbol?)))
        .collect();
    defs.map(|(path, symbol, constant)| {
        let rebinds = constant && symbol.is_some_and(|s| defining.contains(&(path, s)));
        (crate::source::is_type_stub(path), rebinds)
    })
    .collect()
}

/// Several definitions of one name ("where is tailRecM implemented for Option?"): those
/// the question's other names and words name come first, in their order otherwise. A word
/// that is the file's stem or a whole segment of the qualified name (`option.scala`,
/// `Option.tailRecM`) counts 3; one that is only a word inside them (`OptionT.scala`,
/// `OptionInstances`) counts 1.
fn order_by_context(
    defs: &mut [graph::query::Def],
    others: &[&String],
    terms: &[String],
    target: &str,
) {
    if defs.len() < 2 {
        return;
    }
    let own = super::text::split_identifier(target);
    let mut words: Vec<String> = others
        .iter()
        .map(|t| t.to_lowercase())
        .chain(terms.iter().map(|t| t.to_lowercase()))
        .filter(|w| w.len() >= 3 && !own.contains(w) && *w != target.to_lowercase())
        .collect();
    words.sort();
    words.dedup();
    if words.is_empty() {
        return;
    }
    let score = |d: &graph::query::Def| -> u32 {
        let file = d.path.rsplit('/').next().unwrap_or(&d.path);
        let stem = file.split('.').next().unwrap_or(file).to_lowercase();
        let segments: Vec<String> = d
            .symbol
            .split(['.', ':'])
            .filter(|s| !s.is_empty())
            .map(str::to_lowercase)
            .collect();
        let parts: Vec<String> = super::text::split_identifier(&stem)
            .into_iter()
            .chain(super::text::split_identifier(&d.symbol))
            .collect();
        words
            .iter()
            .map(|w| {
                if stem == *w || segments.contains(w) {
                    3
                } else if parts.contains(w) {
                    1
                } else {
                    0
                }
            })
            .sum()
    };
    defs.sort_by_key(|d| std::cmp::Reverse(score(d)));
}

/// Whether an imports question asks who imports the file (rather than what it imports).
pub fn asks_importers(question: &str) -> bool {
    let q = question.to_lowercase().replace('`', "");
    [
        "who imports",
        "what imports",
        "which files import",
        "what files import",
        "files that import",
        "which modules import",
        "which packages import",
        "what packages import",
        "which files include",
        "what includes",
        "who includes",
        "imported by",
        "included by",
        "importers",
        "imported from",
        "is imported",
        "is included",
        "depend on",
        "depends on it",
        "uses it",
        "who uses",
        "which files use",
        // "where is `semver` used in `use` declarations?"
        "used in use ",
        "used in import ",
        "used in using ",
        "used in require ",
    ]
    .iter()
    .any(|p| q.contains(p))
        // "where is `click.exceptions` imported?", "in which files is it included?"
        || ([" imported", " included"].iter().any(|w| q.contains(w))
            && !["what does", "what do ", "what is imported by"]
                .iter()
                .any(|w| q.contains(w)))
}

fn facts_have(facts: &[GraphFact], intent: Intent, target: &str) -> bool {
    facts
        .iter()
        .any(|f| f.intent == intent && f.target == target)
}

/// A path, or a file name with an extension the index knows ([`super::entities`]).
fn looks_like_path(t: &str) -> bool {
    t.contains('/')
        || t.rsplit_once('.')
            .is_some_and(|(stem, ext)| !stem.is_empty() && super::entities::known_extension(t, ext))
}

fn split_at_line(s: &str) -> Option<(&str, u32)> {
    let (p, l) = s.rsplit_once(':')?;
    Some((p, l.parse().ok()?))
}

/// The history retriever: the commits of each target (or of the whole repository when
/// none is named), newest first; the chunks of the definitions they touched, ranked by
/// recency.
pub fn history_facts(
    m: &mut Memories,
    q: &HistoryAsk,
    limit: usize,
) -> Result<(Vec<HistoryFact>, Hits)> {
    if !m.indexes.built.has(Memory::History) {
        m.warn_off(Memory::History);
        return Ok((Vec::new(), Vec::new()));
    }
    let partial = m.read(|c| Ok(hq::partial_note(c)))??;
    if let Some(note) = &partial {
        m.warn(note.clone());
    }
    let shallow = m.read(|c| Ok(hq::shallow(c)))??;
    if let Some(s) = &shallow {
        m.warn(s.note.clone());
    }
    // "when was the partial parameter added?", "when was the unknown option
    // introduced?": an input named by a plain word, which git's pickaxe finds in older
    // prose (`functools.partial`, "an unknown field") long before the input came. Its
    // first binding as a keyword (`partial=`) dates it; the kind word names nothing
    // (`OneOf.options` is not the option asked for).
    let unkinded: Vec<String>;
    let mut bound: Option<String> = None;
    // Only a word and its kind: "the dark mode option" names a subject of two words.
    let q = &if q.oldest_first && q.targets.is_empty() && q.grep.is_none() && q.terms.len() == 2 {
        let kind_at = q.terms.windows(2).position(|pair| {
            super::text::names_an_input(&pair[1])
                && !super::text::names_an_input(&pair[0])
                && pair[0].chars().count() >= 3
                && pair[0].chars().all(|c| c.is_alphanumeric() || c == '_')
        });
        match kind_at {
            Some(i) => {
                bound = Some(format!("{}=", q.terms[i]));
                unkinded = q
                    .terms
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i + 1)
                    .map(|(_, t)| t.clone())
                    .collect();
                HistoryAsk {
                    terms: &unkinded,
                    ..*q
                }
            }
            None => HistoryAsk { ..*q },
        }
    } else {
        HistoryAsk { ..*q }
    };
    if let Some(text) = &bound {
        let filter = LogFilter {
            since: q.since,
            until: q.until,
            author: q.author.map(str::to_string),
            limit: Some(limit),
            oldest_first: true,
            ..LogFilter::default()
        };
        let found =
            m.read(|c| Ok(hq::pickaxe(c, m.root, text, false, &filter, PICKAXE_BUDGET)))??;
        if let Some((commits, total)) = found.filter(|(c, _)| !c.is_empty()) {
            let mut ranked = Vec::new();
            m.read(|c| rank_commit_chunks(c, &commits, &mut ranked))?;
            let mut fact = pickaxe_fact(text.clone(), q, filter.author.clone(), commits, total);
            if let Some(s) = &shallow
                && !introduced_within(&fact, &s.boundary)
            {
                fact.partial = Some(s.note.clone());
            }
            return Ok((vec![fact], ranked));
        }
    }
    // "when was gzip support added?": what was added is gzip. "support" named a folder
    // of test helpers and chose a later commit whose message says "support"; the first
    // gzip decompression says "Add automatic gzip decompression".
    let kept: Vec<String>;
    let q = &HistoryAsk {
        terms: if q.oldest_first {
            kept = without_feature_nouns(q.terms);
            &kept
        } else {
            q.terms
        },
        ..*q
    };
    let mut facts = Vec::new();
    let mut filter = LogFilter {
        since: q.since,
        until: q.until,
        author: q.author.map(str::to_string),
        limit: Some(limit),
        oldest_first: q.oldest_first,
        ..LogFilter::default()
    };
    let mut conn_targets: Vec<(String, Target)> = Vec::new();
    // A rare word of the subject that names no file, for git's pickaxe when nothing else
    // is named.
    let mut subject_word: Option<String> = None;
    // Targets that named no definition but a module: their files stand for them.
    let mut named_modules: Vec<String> = Vec::new();
    if !q.targets.is_empty() {
        for t in q.targets {
            for name in m.read(|c| file_names(c, t))? {
                let target = m.read(|c| Ok(hq::resolve(c, m.root, &name)))?;
                let Ok(target) = target else {
                    continue;
                };
                let modules = match &target {
                    Target::Symbol { name, path: None } => m.read(|c| module_files(c, name))?,
                    _ => Vec::new(),
                };
                if modules.is_empty() {
                    conn_targets.push((t.clone(), target));
                } else {
                    named_modules.push(t.clone());
                    conn_targets.extend(
                        modules
                            .into_iter()
                            .map(|p| (p.clone(), Target::File { path: p })),
                    );
                }
            }
        }
    } else {
        // No name given: the subject words may name an author, files or definitions.
        let mut rest = Vec::new();
        let mut unnamed: Vec<&String> = Vec::new();
        for t in q.terms {
            match m.read(|c| lookups::author_named(c, t))? {
                Some(a) if filter.author.is_none() => filter.author = Some(a),
                _ => rest.push(t.clone()),
            }
        }
        // "when was HTTP/3 support added?": `tests/http3.rs` tests the subject and came
        // two years after it. A word that names only tests, in an introduction that does
        // not ask about tests, is the subject as the code writes it: git's pickaxe finds
        // the commit that first wrote it.
        let about_tests = rest
            .iter()
            .any(|t| super::text::stem(&t.to_lowercase()) == "test");
        let mut tests_only: Vec<&String> = Vec::new();
        for t in &rest {
            let mut named = m.read(|c| lookups::files_named_by_word(c, t))?;
            if named.is_empty() {
                named = m.read(|c| lookups::gone_files_named_by_word(c, t))?;
            }
            if q.oldest_first
                && !about_tests
                && !named.is_empty()
                && named.iter().all(|p| crate::source::is_test_path(p))
            {
                tests_only.push(t);
                continue;
            }
            if named.is_empty() {
                unnamed.push(t);
            }
            for p in named {
                if !conn_targets
                    .iter()
                    .any(|(_, x)| *x == (Target::File { path: p.clone() }))
                {
                    conn_targets.push((p.clone(), Target::File { path: p }));
                }
            }
        }
        // "when was the colorcheck command added?": `commands/colorcheck.rs`, which names
        // both words, before `colorcheck.md` and `command.rs`, which name one each
        // (stable: the order of the words, then the shortest path, within a count).
        conn_targets.sort_by_key(|(p, _)| std::cmp::Reverse(words_named_by_path(p, &rest)));
        // "when was mustermann support introduced?": a rare word that names no file but
        // is written in the code (a library it uses) is the subject, and "support" only
        // names a folder of test helpers. A file named by the other words stands for the
        // subject only when it holds the rare word too; else git's pickaxe finds it. A
        // subject word no chunk holds ("when was the IndexedDB adapter added?") says the
        // repository lacks the subject: then no rare word stands for it.
        if q.oldest_first {
            let mut rare: Vec<(u64, &String)> = Vec::new();
            let mut absent = false;
            for &t in &unnamed {
                let Some((df, docs)) = m.doc_freq(t)? else {
                    continue;
                };
                absent |= df == 0;
                if df > 0
                    && df <= RARE_WORD_CHUNKS.max(docs / 50)
                    && t.chars().count() >= 4
                    && t.chars().all(char::is_alphanumeric)
                {
                    rare.push((df, t));
                }
            }
            if absent {
                rare.clear();
            }
            if !rare.is_empty() {
                let max = m.config.index.max_file_size;
                conn_targets.retain(|(p, _)| {
                    crate::source::read(m.root, p, max).is_ok_and(|bytes| {
                        let text = String::from_utf8_lossy(&bytes).to_lowercase();
                        rare.iter().all(|(_, w)| text.contains(&w.to_lowercase()))
                    })
                });
            }
            rare.sort();
            subject_word = rare.first().map(|(_, w)| (*w).clone());
            if subject_word.is_none() && conn_targets.is_empty() {
                subject_word = tests_only.first().map(|w| (*w).clone());
            }
        }
        // The definitions the words name stand for the subject, unless the subject is a
        // word only tests are named by (a test's helper is named so too: `Http3`).
        let by_tests = subject_word
            .as_ref()
            .is_some_and(|w| tests_only.contains(&w));
        if conn_targets.is_empty() && !rest.is_empty() && !by_tests {
            let vocab = m.vocabulary()?;
            for n in super::names::names_from_words(&rest, &vocab, 2) {
                let parts = super::text::split_identifier(&n);
                let all_words = parts.iter().all(|p| {
                    rest.iter()
                        .any(|r| super::text::stem(r) == super::text::stem(p))
                });
                if all_words {
                    conn_targets.push((
                        n.clone(),
                        Target::Symbol {
                            name: n,
                            path: None,
                        },
                    ));
                }
            }
        }
        // A window (an author, a period) with no other subject is about the repository.
        let window = q.since.is_some() || q.until.is_some() || filter.author.is_some();
        if rest.is_empty() || (conn_targets.is_empty() && window) {
            conn_targets.push(("*".to_string(), Target::All));
        }
    }
    let window = q.since.is_some() || q.until.is_some() || filter.author.is_some();
    let mut ranked: Vec<(i64, f32)> = Vec::new();
    // "why was the remote config support moved?": the commits that say so in their
    // message, before those that only touched a definition one of the words names.
    if q.message_words.len() >= 2 && q.grep.is_none() {
        let wanted = LogFilter {
            words: q.message_words.iter().map(|(_, s)| s.clone()).collect(),
            limit: Some(COMMITS_BY_WORDS),
            offset: 0,
            ..filter.clone()
        };
        let mut log = m.read(|c| Ok(hq::log(c, &Target::All, &wanted)))??;
        if q.removed {
            // "Allow custom generators" holds two of "kapt generator removed"; "Remove
            // KAPT support" says what the question asks.
            let verbs = [REMOVAL_STEMS.to_string()];
            log.commits.retain(|c| hq::message_holds(c, &verbs));
            log.commits
                .sort_by_key(|c| hq::subject_holds(c, &verbs) == 0);
        }
        if !log.commits.is_empty() {
            m.read(|c| rank_commit_chunks(c, &log.commits, &mut ranked))?;
            facts.push(HistoryFact {
                target: "*".to_string(),
                author: filter.author.clone(),
                since: q.since.map(day),
                until: q.until.map(day),
                total: log.commits.len(),
                oldest_first: false,
                commits: log.commits,
                message_words: q.message_words.iter().map(|(w, _)| w.clone()).collect(),
                added_name: None,
                pickaxe: false,
                partial: partial.clone(),
            });
        }
    }
    if q.by_message_only {
        return Ok((facts, ranked));
    }
    for (name, target) in conn_targets {
        let mut log = m.read(|c| Ok(hq::log(c, &target, &filter)))??;
        let (told, added_name) = if q.grep.is_some() {
            (Vec::new(), None)
        } else if q.oldest_first {
            introduced_first(m, &target, &name, q.terms, &filter, &mut log)?
        } else if q.targets.is_empty() {
            (Vec::new(), None)
        } else {
            (
                told_first(m, &target, &name, q.terms, &filter, &mut log)?,
                None,
            )
        };
        if let Some(text) = q.grep {
            let wanted = LogFilter {
                grep: Some(text.to_string()),
                ..filter.clone()
            };
            let first = m.read(|c| Ok(hq::log(c, &target, &wanted)))??;
            let mut commits = first.commits;
            for c in log.commits {
                if !commits.iter().any(|x| x.commit == c.commit) {
                    commits.push(c);
                }
            }
            commits.truncate(limit);
            log.commits = commits;
        }
        // No commit in a window is an answer; no commit at all for a name is not.
        if log.commits.is_empty() && !window {
            continue;
        }
        m.read(|c| rank_commit_chunks(c, &log.commits, &mut ranked))?;
        facts.push(HistoryFact {
            target: name,
            author: filter.author.clone(),
            since: q.since.map(day),
            until: q.until.map(day),
            total: log.total,
            oldest_first: q.oldest_first,
            commits: log.commits,
            message_words: told,
            added_name,
            pickaxe: false,
            partial: partial.clone(),
        });
    }
    // "when was the mode function added to statsutils?": the target whose log the
    // question's words put a commit first in leads (`introduced_first`).
    if q.oldest_first {
        facts.sort_by_key(|f| f.message_words.is_empty());
    }
    // "when was rich_markup_mode added?": a name the history knows as no definition and
    // no file (a parameter, a key, an option) was introduced by the oldest commit whose
    // changes add it, as `git log -S` finds.
    if q.oldest_first {
        // A rare word of the subject, when no file or definition was named.
        let word = subject_word.filter(|_| facts.iter().all(|f| f.target == "*"));
        for t in q.targets.iter().chain(&word) {
            let plain = word.as_ref() == Some(t);
            if facts.iter().any(|f| f.target == *t)
                || named_modules.contains(t)
                || !(plain || pickaxe_text(t))
            {
                continue;
            }
            let found =
                m.read(|c| Ok(hq::pickaxe(c, m.root, t, plain, &filter, PICKAXE_BUDGET)))??;
            let Some((commits, total)) = found else {
                continue;
            };
            if commits.is_empty() {
                continue;
            }
            m.read(|c| rank_commit_chunks(c, &commits, &mut ranked))?;
            facts.push(pickaxe_fact(
                t.clone(),
                q,
                filter.author.clone(),
                commits,
                total,
            ));
        }
        // A shallow clone's oldest commit is only the oldest the clone holds: what it
        // names was introduced there only when its changes add it.
        if let Some(s) = &shallow {
            for f in facts.iter_mut().filter(|f| f.partial.is_none()) {
                if !introduced_within(f, &s.boundary) {
                    f.partial = Some(s.note.clone());
                }
            }
        }
    }
    Ok((facts, ranked))
}

/// The stems of the verbs that say something was removed, as a message word.
pub const REMOVAL_STEMS: &str = "remov|delet|drop";

/// Words that say a subject is a feature, beside the word that says which: "HTTP/3
/// support", "the retry feature", "the cache functionality".
const FEATURE_NOUNS: [&str; 4] = ["feature", "functionality", "support", "capability"];

/// What git's pickaxe found for `target` (`total` commits, the first `commits` of them),
/// oldest first.
fn pickaxe_fact(
    target: String,
    q: &HistoryAsk,
    author: Option<String>,
    commits: Vec<hq::LogCommit>,
    total: usize,
) -> HistoryFact {
    HistoryFact {
        target,
        author,
        since: q.since.map(day),
        until: q.until.map(day),
        total,
        oldest_first: true,
        commits,
        message_words: Vec::new(),
        added_name: None,
        pickaxe: true,
        // git's own log names the oldest commit, read or not.
        partial: None,
    }
}

/// `terms` without [`FEATURE_NOUNS`] (and their plurals), unless nothing else is left.
fn without_feature_nouns(terms: &[String]) -> Vec<String> {
    let feature = |t: &String| {
        let lower = t.to_lowercase();
        let one = crate::search::tokenize::singular_of_ies(&lower)
            .unwrap_or_else(|| lower.strip_suffix('s').unwrap_or(&lower).to_string());
        FEATURE_NOUNS.contains(&one.as_str())
    };
    if terms.iter().all(feature) {
        return terms.to_vec();
    }
    terms.iter().filter(|t| !feature(t)).cloned().collect()
}

/// Whether an introduction's first commit is known to add what it names, in a shallow
/// clone whose `boundary` commits are known only by what they hold: git's pickaxe lists a
/// boundary commit for any text it holds, and a later one only for text the boundary
/// lacked; a definition or file is added when the commit's changes say so. The oldest
/// commit whose message names the target is never known to be the oldest there is.
fn introduced_within(f: &HistoryFact, boundary: &std::collections::HashSet<String>) -> bool {
    let Some(c) = f.commits.first() else {
        return true;
    };
    if boundary.contains(&c.commit) || !f.message_words.is_empty() {
        return false;
    }
    // A file's log lists the definitions its commits touched too: only those the
    // target names (as the log matched them) stand for it.
    f.pickaxe
        || c.files.iter().any(|file| file.status == "A")
        || c.symbols
            .iter()
            .any(|s| s.change == "added" && hq::qualname_matches(&s.symbol, &f.target))
}

/// Every commit of `target`'s log (in `filter`'s window and order) whose message holds
/// enough of `stems` ([`LogFilter::words`]).
fn holding(
    m: &mut Memories,
    target: &Target,
    stems: &[String],
    filter: &LogFilter,
) -> Result<hq::Log> {
    let wanted = LogFilter {
        words: stems.to_vec(),
        limit: None,
        offset: 0,
        ..filter.clone()
    };
    m.read(|c| Ok(hq::log(c, target, &wanted)))?
}

/// The message words of a question ([`super::pass::message_words`]) beside the target
/// `name`: not its name, nor a part of it.
fn words_beside(name: &str, terms: &[String]) -> Vec<(String, String)> {
    let own: Vec<String> = super::text::split_identifier(name)
        .iter()
        .map(|p| super::text::stem(p))
        .collect();
    super::pass::message_words(terms)
        .into_iter()
        .filter(|(w, s)| !own.contains(s) && !w.eq_ignore_ascii_case(name))
        .collect()
}

/// "when did Signer start accepting a list of secret keys?": the question names a
/// definition and says, in words beside its name, what changed. Of the commits that
/// touched the target, those whose subject holds two or more of those words come first,
/// the ones holding more before the others (then in the log's order); the rest follow,
/// up to the log's limit. Returns the words (as written) when it put some first.
fn told_first(
    m: &mut Memories,
    target: &Target,
    name: &str,
    terms: &[String],
    filter: &LogFilter,
    log: &mut hq::Log,
) -> Result<Vec<String>> {
    let words = words_beside(name, terms);
    if words.len() < 2 {
        return Ok(Vec::new());
    }
    let stems: Vec<String> = words.iter().map(|(_, s)| s.clone()).collect();
    let found = holding(m, target, &stems, filter)?;
    let mut told: Vec<(usize, hq::LogCommit)> = found
        .commits
        .into_iter()
        .map(|c| (hq::subject_holds(&c, &stems), c))
        .filter(|(n, _)| *n >= 2)
        .collect();
    if told.is_empty() {
        return Ok(Vec::new());
    }
    told.sort_by_key(|(n, _)| std::cmp::Reverse(*n));
    let limit = filter.limit.unwrap_or(usize::MAX);
    let mut commits: Vec<hq::LogCommit> = told.into_iter().map(|(_, c)| c).collect();
    for c in std::mem::take(&mut log.commits) {
        if !commits.iter().any(|x| x.commit == c.commit) {
            commits.push(c);
        }
    }
    commits.truncate(limit);
    log.commits = commits;
    Ok(words.into_iter().map(|(w, _)| w).collect())
}

/// "when was the mode function added to statsutils?", "when was the jitter argument
/// added to backoff?": the question asks when something was introduced and names, beside
/// the target, what (`mode`, `jitter`): not the target's first commit but the oldest of
/// its commits whose message holds those words (two of them, or every one when fewer are
/// named; those in the subject before those in the body only). That commit comes first,
/// the rest in the log's order. Returns the words (as written) when it put one first.
///
/// One word named so ("when was the lifespan parameter added to Starlette?") must also be
/// added to the target by that commit, bound as a name in its changes
/// ([`hq::adding_name`]): "Lifespan as middleware" only added `lifespan_middleware`. When
/// it is not, the oldest commit that adds it comes first instead, and its name is
/// returned beside the words.
fn introduced_first(
    m: &mut Memories,
    target: &Target,
    name: &str,
    terms: &[String],
    filter: &LogFilter,
    log: &mut hq::Log,
) -> Result<(Vec<String>, Option<String>)> {
    // What was introduced, without the words that say only what kind of thing it is
    // (an argument, an option; a class, a struct).
    let words: Vec<(String, String)> = words_beside(name, terms)
        .into_iter()
        .filter(|(w, s)| !s.contains('|') && !KIND_WORDS.contains(&w.as_str()))
        .collect();
    if words.is_empty() {
        return Ok((Vec::new(), None));
    }
    let stems: Vec<String> = words.iter().map(|(_, s)| s.clone()).collect();
    let found = holding(m, target, &stems, filter)?;
    // A stem stands for too much here ("mod" is in "modules"): the words as written.
    let need = words.len().min(2);
    let held = |text: &str| {
        let text = text.to_lowercase();
        words.iter().filter(|(w, _)| names_word(&text, w)).count()
    };
    let mut first = found
        .commits
        .iter()
        .find(|c| held(&c.subject) >= need)
        .or_else(|| found.commits.iter().find(|c| held(&c.body) >= need))
        .cloned();
    let mut added = None;
    if let [(word, _)] = words.as_slice() {
        let all = LogFilter {
            limit: None,
            offset: 0,
            oldest_first: true,
            ..filter.clone()
        };
        let all = m.read(|c| Ok(hq::log(c, target, &all)))??;
        let oldest = &all.commits[..all.commits.len().min(ADDING_MOST)];
        let adding = hq::adding_name(m.root, oldest, word, ADDING_BUDGET)?;
        if let Some(adding) = adding
            && !first.as_ref().is_some_and(|f| adding.contains(&f.commit))
            && let Some(a) = all.commits.iter().find(|c| adding.contains(&c.commit))
        {
            first = Some(a.clone());
            added = Some(word.clone());
        }
    }
    let Some(first) = first else {
        return Ok((Vec::new(), None));
    };
    let limit = filter.limit.unwrap_or(usize::MAX);
    let mut commits = vec![first];
    for c in std::mem::take(&mut log.commits) {
        if c.commit != commits[0].commit {
            commits.push(c);
        }
    }
    commits.truncate(limit);
    log.commits = commits;
    Ok((words.into_iter().map(|(w, _)| w).collect(), added))
}

/// Words that say what kind of definition a question's target is ("when was the
/// ChainableUndefined class added?"), not what was introduced in it.
const KIND_WORDS: &[&str] = &[
    "class",
    "classes",
    "struct",
    "structs",
    "enum",
    "enums",
    "trait",
    "traits",
    "interface",
    "interfaces",
    "type",
    "types",
    "constant",
    "constants",
    "variable",
    "variables",
];

/// How long git may take to show the diffs of a definition's commits
/// ([`hq::adding_name`]), and how many of its oldest commits it is shown.
const ADDING_BUDGET: std::time::Duration = std::time::Duration::from_secs(2);
const ADDING_MOST: usize = 1000;

/// Whether lower-case `text` names `word` as a word of its own, or its plural: "mode" is
/// in "add mode()" and "modes", not in "model" or "modules".
fn names_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let rest = &text[at + word.len()..];
        let run = rest
            .find(|c: char| !c.is_alphanumeric())
            .map_or(rest, |end| &rest[..end]);
        before.is_none_or(|p| !p.is_alphanumeric()) && matches!(run, "" | "s" | "es")
    })
}

/// How long `git log -S` may look for a name's introduction (a long history is left).
const PICKAXE_BUDGET: std::time::Duration = std::time::Duration::from_secs(3);

/// A subject word in at most this many chunks (or a fiftieth of them, in a larger
/// repository) is rare enough to be found by git's pickaxe.
const RARE_WORD_CHUNKS: u64 = 10;

/// Whether `t` is worth looking for as text in the history's changes: an identifier or
/// a dotted or dashed name of three characters or more (a word alone is in too many).
fn pickaxe_text(t: &str) -> bool {
    t.chars().count() >= 3
        && t.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | ':'))
        && (t.contains(['_', '.', '-', ':']) || t.chars().skip(1).any(char::is_uppercase))
}

/// Adds to `ranked` the chunks of what each commit changed (its definitions, else its
/// files' first chunks), the first commit's first, each chunk once.
fn rank_commit_chunks(
    c: &Connection,
    commits: &[hq::LogCommit],
    ranked: &mut Vec<(i64, f32)>,
) -> rusqlite::Result<()> {
    for (i, commit) in commits.iter().enumerate() {
        let score = 1.0 / (1.0 + i as f32);
        for s in &commit.symbols {
            if let Some(id) = lookups::qualname_chunk(c, &s.path, &s.symbol)?
                && !ranked.iter().any(|(r, _)| *r == id)
            {
                ranked.push((id, score));
            }
        }
        if commit.symbols.is_empty() {
            for f in &commit.files {
                if let Some(id) = lookups::first_chunk(c, &f.path)?
                    && !ranked.iter().any(|(r, _)| *r == id)
                {
                    ranked.push((id, score));
                }
            }
        }
    }
    Ok(())
}

/// A Unix time as its UTC date, YYYY-MM-DD.
pub fn day(s: i64) -> String {
    jiff::Timestamp::from_second(s)
        .map(|t| t.strftime("%Y-%m-%d").to_string())
        .unwrap_or_else(|_| s.to_string())
}

/// A bare file name (`eval.c`) as the stored paths ending with it; anything else as is.
/// The files of the module a bare name no definition has names ("when was
/// dependency_groups added?": `src/packaging/dependency_groups.py`, or a package's
/// `__init__.py`), code before documents, up to three. None when a definition has it.
fn module_files(c: &Connection, name: &str) -> rusqlite::Result<Vec<String>> {
    if name.contains(['/', '.', ':']) || lookups::is_defined(c, name)? {
        return Ok(Vec::new());
    }
    let mut files = lookups::modules_named(c, name)?;
    // Stable: shortest path first within code and within the rest.
    files.sort_by_key(|(_, lang)| crate::syntax::lang::Lang::named(lang).is_none());
    Ok(files.into_iter().take(3).map(|(p, _)| p).collect())
}

/// How many of `words` a segment of `path` names, as its stem or its plural
/// (`src/commands/colorcheck.rs` names "colorcheck" and "command"), ASCII case folded as
/// [`lookups::files_named_by_word`] folds it.
fn words_named_by_path(path: &str, words: &[String]) -> usize {
    let path = path.to_ascii_lowercase();
    let stems: Vec<&str> = path
        .split('/')
        .map(|seg| seg.split('.').next().unwrap_or(seg))
        .collect();
    words
        .iter()
        .filter(|w| {
            let w = w.to_ascii_lowercase();
            stems.iter().any(|s| {
                s.strip_prefix(w.as_str())
                    .is_some_and(|end| matches!(end, "" | "s" | "es"))
            })
        })
        .count()
}

fn file_names(c: &Connection, t: &str) -> rusqlite::Result<Vec<String>> {
    if t.contains('/') || !looks_like_path(t) {
        return Ok(vec![t.to_string()]);
    }
    let found = lookups::paths_ending_with(c, t)?;
    Ok(if found.is_empty() {
        vec![t.to_string()]
    } else {
        found
    })
}

/// A list for fusion.
pub fn list(route: Memory, weight: f32, hits: Vec<(i64, f32)>) -> RankedList {
    RankedList {
        route,
        weight: f64::from(weight),
        hits,
    }
}
