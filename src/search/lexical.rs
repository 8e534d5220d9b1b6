//! The lexical index under `.llmc/lexical/`: a tantivy BM25 index with one document per
//! chunk, tokenized by [`CodeTokenizer`]. Documents carry the chunk's id; every other
//! fact about a hit comes from the SQLite store. Each commit carries the index
//! generation it belongs to as its payload.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use tantivy::collector::{FilterCollector, TopDocs};
use tantivy::directory::error::{DeleteError, OpenReadError, OpenWriteError};
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STRING, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::{Index, IndexWriter, ReloadPolicy, Term, doc};

use super::IdFilter;
use super::embed::is_stop;
use super::tokenize::{CodeTokenizer, abbreviation, singular_of_ies, tokens, without_endings};

/// The lexical index directory of a store directory.
pub fn lexical_dir(store_dir: &Path) -> PathBuf {
    store_dir.join("lexical")
}

/// Field weights: a match in a symbol name counts most, then the path.
const BOOSTS: [(&str, f32); 4] = [("symbol", 3.0), ("path", 1.5), ("doc", 1.0), ("body", 1.0)];

/// The weight of a query word's stem in the repository ([`LexicalIndex::stem`]), relative
/// to the word's own.
const STEM_BOOST: f32 = 0.5;

/// The fields of the schema.
#[derive(Clone, Copy)]
struct Fields {
    id: Field,
    path: Field,
    symbol: Field,
    doc: Field,
    body: Field,
    kind: Field,
    lang: Field,
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let text = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(CodeTokenizer::NAME)
            .set_index_option(IndexRecordOption::WithFreqs),
    );
    let fields = Fields {
        id: b.add_u64_field("id", INDEXED | FAST),
        path: b.add_text_field("path", text.clone()),
        symbol: b.add_text_field("symbol", text.clone()),
        doc: b.add_text_field("doc", text.clone()),
        body: b.add_text_field("body", text),
        kind: b.add_text_field("kind", STRING),
        lang: b.add_text_field("lang", STRING),
    };
    (b.build(), fields)
}

fn fields_of(schema: &Schema) -> Result<Fields> {
    let f = |name: &str| {
        schema
            .get_field(name)
            .with_context(|| format!("the lexical index has no `{name}` field"))
    };
    Ok(Fields {
        id: f("id")?,
        path: f("path")?,
        symbol: f("symbol")?,
        doc: f("doc")?,
        body: f("body")?,
        kind: f("kind")?,
        lang: f("lang")?,
    })
}

fn open_index(dir: &Path) -> Result<Index> {
    let index = Index::open_in_dir(dir).with_context(|| format!("opening {}", dir.display()))?;
    index
        .tokenizers()
        .register(CodeTokenizer::NAME, CodeTokenizer::default());
    Ok(index)
}

/// A published generation's directory as readers see it: nothing in it changes once it
/// is published (see `super::generations`), so a reader takes no lock. tantivy would
/// otherwise create `.tantivy-meta.lock` to read the meta file, which fails in an index
/// this user cannot write.
#[derive(Debug, Clone)]
struct Published(tantivy::directory::MmapDirectory);

impl tantivy::Directory for Published {
    fn get_file_handle(
        &self,
        path: &Path,
    ) -> Result<std::sync::Arc<dyn tantivy::directory::FileHandle>, OpenReadError> {
        self.0.get_file_handle(path)
    }

    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        self.0.delete(path)
    }

    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.0.exists(path)
    }

    fn open_write(&self, path: &Path) -> Result<tantivy::directory::WritePtr, OpenWriteError> {
        self.0.open_write(path)
    }

    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        self.0.atomic_read(path)
    }

    fn atomic_write(&self, path: &Path, data: &[u8]) -> std::io::Result<()> {
        self.0.atomic_write(path, data)
    }

    fn sync_directory(&self) -> std::io::Result<()> {
        Ok(())
    }

    fn acquire_lock(
        &self,
        _lock: &tantivy::directory::Lock,
    ) -> Result<tantivy::directory::DirectoryLock, tantivy::directory::error::LockError> {
        Ok(tantivy::directory::DirectoryLock::from(Box::new(())))
    }

    fn watch(
        &self,
        callback: tantivy::directory::WatchCallback,
    ) -> tantivy::Result<tantivy::directory::WatchHandle> {
        self.0.watch(callback)
    }
}

/// Opens a published generation for reading, without locks.
fn open_published(dir: &Path) -> Result<Index> {
    let mmap = tantivy::directory::MmapDirectory::open(dir)
        .with_context(|| format!("opening {}", dir.display()))?;
    let index =
        Index::open(Published(mmap)).with_context(|| format!("opening {}", dir.display()))?;
    index
        .tokenizers()
        .register(CodeTokenizer::NAME, CodeTokenizer::default());
    Ok(index)
}

/// The indexing arena of each tantivy thread, in bytes. Each full arena becomes a segment
/// whose term dictionary is built on its own and later merged: on the cargo registry's
/// 165 MB of text, 48 MB gives 8 segments instead of 12 and a lexical index made 15 %
/// sooner, with no higher peak.
const ARENA_PER_THREAD: usize = 48_000_000;

/// One chunk as the lexical index stores it.
pub struct LexDoc<'a> {
    pub id: i64,
    pub path: &'a str,
    pub symbol: &'a str,
    pub doc: &'a str,
    pub body: &'a str,
    pub kind: &'a str,
    pub lang: &'a str,
}

/// Changes the lexical index during an index run.
pub struct LexicalWriter {
    writer: IndexWriter,
    fields: Fields,
}

impl LexicalWriter {
    /// Opens the index in `dir` (a scratch copy, see `super::generations`) for writing
    /// (`fresh`: the copy is empty and a new index is created in it).
    pub fn open(dir: &Path, fresh: bool, threads: usize) -> Result<LexicalWriter> {
        let index = if !fresh && dir.join("meta.json").is_file() {
            open_index(dir)?
        } else {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            let (schema, _) = schema();
            let index = Index::create_in_dir(dir, schema)
                .with_context(|| format!("creating {}", dir.display()))?;
            index
                .tokenizers()
                .register(CodeTokenizer::NAME, CodeTokenizer::default());
            index
        };
        let fields = fields_of(&index.schema())?;
        // Each indexing thread fills its own arena before it flushes a segment; tantivy
        // wants at least 15 MB per thread. Two threads keep up with the write loop, and a
        // modest arena keeps the index run's memory flat (more, smaller segments, which
        // tantivy merges in the background).
        let threads = threads.clamp(1, 2);
        let writer = index
            .writer_with_num_threads(threads, threads * ARENA_PER_THREAD)
            .context("opening the lexical index for writing")?;
        Ok(LexicalWriter { writer, fields })
    }

    /// Removes chunk `id`'s document (documents added later in this run stay).
    pub fn delete(&self, id: i64) {
        self.writer
            .delete_term(Term::from_field_u64(self.fields.id, id as u64));
    }

    /// Adds a chunk.
    pub fn add(&self, d: &LexDoc) -> Result<()> {
        let f = &self.fields;
        self.writer
            .add_document(doc!(
                f.id => d.id as u64,
                f.path => d.path,
                f.symbol => d.symbol,
                f.doc => d.doc,
                f.body => d.body,
                f.kind => d.kind,
                f.lang => d.lang,
            ))
            .context("adding to the lexical index")?;
        Ok(())
    }

    /// Commits everything with `generation` as the payload and waits for merges.
    pub fn commit(mut self, generation: u64) -> Result<()> {
        let mut prepared = self
            .writer
            .prepare_commit()
            .context("committing the lexical index")?;
        prepared.set_payload(&generation.to_string());
        prepared.commit().context("committing the lexical index")?;
        self.writer
            .wait_merging_threads()
            .context("merging the lexical index")?;
        Ok(())
    }
}

/// A reader of the lexical index.
pub struct LexicalIndex {
    index: Index,
    fields: Fields,
    dir: PathBuf,
    /// One reader for every query of this handle (made on the first).
    reader: std::sync::OnceLock<tantivy::IndexReader>,
}

impl LexicalIndex {
    /// Opens the index in `dir`; `None` when there is none.
    pub fn open(dir: &Path) -> Result<Option<LexicalIndex>> {
        if !dir.join("meta.json").is_file() {
            return Ok(None);
        }
        let index = open_published(dir)?;
        let fields = fields_of(&index.schema())?;
        Ok(Some(LexicalIndex {
            index,
            fields,
            dir: dir.to_path_buf(),
            reader: std::sync::OnceLock::new(),
        }))
    }

    /// The generation this index was committed at, after checking that every file its
    /// segments need is there (a damaged index fails here, not in a search).
    pub fn check(&self) -> Result<Option<u64>> {
        let metas = self
            .index
            .load_metas()
            .context("reading the lexical index")?;
        use tantivy::index::SegmentComponent as C;
        for segment in self.index.searchable_segment_metas()? {
            let mut needed = vec![
                C::Postings,
                C::FastFields,
                C::FieldNorms,
                C::Terms,
                C::Store,
            ];
            if segment.has_deletes() {
                needed.push(C::Delete);
            }
            for component in needed {
                let p = self.dir.join(segment.relative_path(component));
                if !p.is_file() {
                    anyhow::bail!("{} is missing", p.display());
                }
            }
        }
        Ok(metas.payload.and_then(|p| p.parse().ok()))
    }

    /// The generation of the commit this reader sees.
    pub fn generation(&self) -> Option<u64> {
        self.index
            .load_metas()
            .ok()
            .and_then(|m| m.payload)
            .and_then(|p| p.parse().ok())
    }

    /// The reader of this handle, made on first use.
    fn reader(&self) -> Result<&tantivy::IndexReader> {
        if let Some(r) = self.reader.get() {
            return Ok(r);
        }
        let r: tantivy::IndexReader = self
            .index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .context("reading the lexical index")?;
        Ok(self.reader.get_or_init(|| r))
    }

    /// How many chunks the index holds.
    pub fn num_docs(&self) -> Result<u64> {
        Ok(self.reader()?.searcher().num_docs())
    }

    /// How many chunks hold each token of `text` (in any field), and how many chunks
    /// there are: a word of a question that no chunk holds names nothing here.
    pub fn doc_freqs(&self, text: &str) -> Result<(Vec<(String, u64)>, u64)> {
        let mut terms: Vec<String> = tokens(text).into_iter().map(|t| t.text).collect();
        terms.sort();
        terms.dedup();
        let searcher = self.reader()?.searcher();
        let f = &self.fields;
        let mut out = Vec::with_capacity(terms.len());
        let df_of = |t: &str| -> Result<u64> {
            let mut df = 0;
            for field in [f.symbol, f.path, f.doc, f.body] {
                df = df.max(searcher.doc_freq(&Term::from_field_text(field, t))?);
            }
            Ok(df)
        };
        for t in terms {
            let mut df = df_of(&t)?;
            // A word the code writes short is held by its short form.
            if df == 0
                && let Some(short) = abbreviation(&t)
            {
                df = df_of(short)?;
            }
            // A plural in "-ies" by its singular ("bodies", "body").
            if df == 0
                && let Some(singular) = singular_of_ies(&t)
            {
                df = df_of(&singular)?;
            }
            // A plural by its singular ("traces", `trace`).
            if df == 0 {
                for singular in without_endings(&t, &["s", "es"]) {
                    if singular.len() >= 3 {
                        df = df.max(df_of(singular)?);
                    }
                }
            }
            out.push((t, df));
        }
        Ok((out, searcher.num_docs()))
    }

    /// Whether some chunk's body holds token `w`.
    fn body_holds(&self, searcher: &tantivy::Searcher, w: &str) -> Result<bool> {
        Ok(searcher
            .doc_freq(&Term::from_field_text(self.fields.body, w))
            .context("reading the lexical index")?
            > 0)
    }

    /// The repository's stem of a query word: the longest proper prefix of `word` of
    /// three letters or more, one to three letters shorter and no stop word, that some
    /// chunk holds as a token ("removes" → `remove`, "rendering" → `render`, but
    /// "database" is not `data`). A word some chunk holds has a stem only without a
    /// plural's or a past's ending ("merged" → `merge`, "renders" → `render`: a chunk
    /// that says "merged" does not keep `merge_contextvars` from the question "how are
    /// context variables merged?"). None for words under four letters, stop words and
    /// words with digits. Code without comments names what a sentence describes in other
    /// forms of the same words.
    fn stem(&self, searcher: &tantivy::Searcher, word: &str) -> Result<Option<String>> {
        let len = word.chars().count();
        if len < 4 || is_stop(word) || !word.chars().all(char::is_alphabetic) {
            return Ok(None);
        }
        let held = |w: &str| self.body_holds(searcher, w);
        if held(word)? {
            let bare = without_endings(word, &["es", "s", "ed", "d"])
                .into_iter()
                .filter(|w| w.chars().count() >= 3 && !is_stop(w));
            for w in bare {
                if held(w)? {
                    return Ok(Some(w.to_string()));
                }
            }
            return Ok(None);
        }
        // "bodies" is held as "body".
        if let Some(singular) = singular_of_ies(word)
            && held(&singular)?
        {
            return Ok(Some(singular));
        }
        let ends: Vec<usize> = word.char_indices().map(|(i, _)| i).collect();
        for cut in 1..=3.min(len - 3) {
            let prefix = &word[..ends[len - cut]];
            if !is_stop(prefix) && held(prefix)? {
                return Ok(Some(prefix.to_string()));
            }
        }
        Ok(None)
    }

    /// The `k` best chunks for `query` by BM25, as (chunk id, score), best first. A
    /// query word no chunk holds counts, at [`STEM_BOOST`], as its stem in the repository,
    /// and a word code writes short ([`abbreviation`]) also as its short form.
    pub fn search(
        &self,
        query: &str,
        k: usize,
        lang: Option<&str>,
        filter: &IdFilter,
    ) -> Result<Vec<(i64, f32)>> {
        let mut terms: Vec<String> = tokens(query).into_iter().map(|t| t.text).collect();
        terms.sort();
        terms.dedup();
        if terms.is_empty() || k == 0 {
            return Ok(Vec::new());
        }
        let searcher = self.reader()?.searcher();
        let mut weighted: Vec<(String, f32)> = terms.iter().map(|t| (t.clone(), 1.0)).collect();
        for t in &terms {
            if let Some(stem) = self.stem(&searcher, t)?
                && !weighted.iter().any(|(w, _)| *w == stem)
            {
                weighted.push((stem, STEM_BOOST));
            }
            // "authentication" asks for `DigestAuth` too.
            if let Some(short) = abbreviation(t)
                && !weighted.iter().any(|(w, _)| w == short)
                && self.body_holds(&searcher, short)?
            {
                weighted.push((short.to_string(), STEM_BOOST));
            }
        }
        let f = &self.fields;
        let field_of = |name: &str| match name {
            "symbol" => f.symbol,
            "path" => f.path,
            "doc" => f.doc,
            _ => f.body,
        };
        let mut should: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for (t, weight) in &weighted {
            for (name, boost) in BOOSTS {
                let q = TermQuery::new(
                    Term::from_field_text(field_of(name), t),
                    IndexRecordOption::WithFreqs,
                );
                should.push((
                    Occur::Should,
                    Box::new(BoostQuery::new(Box::new(q), boost * weight)),
                ));
            }
        }
        let text_query: Box<dyn Query> = Box::new(BooleanQuery::new(should));
        let query: Box<dyn Query> = match lang {
            Some(l) => Box::new(BooleanQuery::new(vec![
                (Occur::Must, text_query),
                (
                    Occur::Must,
                    Box::new(TermQuery::new(
                        Term::from_field_text(f.lang, l),
                        IndexRecordOption::Basic,
                    )),
                ),
            ])),
            None => text_query,
        };
        let filter = filter.clone();
        let collector = FilterCollector::new(
            "id".to_string(),
            move |id: u64| filter.keep(id as i64),
            TopDocs::with_limit(k),
        );
        let top = searcher
            .search(&*query, &collector)
            .context("searching the lexical index")?;
        let mut out = Vec::with_capacity(top.len());
        for (score, addr) in top {
            let column = searcher
                .segment_reader(addr.segment_ord)
                .fast_fields()
                .u64("id")
                .context("reading chunk ids")?;
            if let Some(id) = column.first(addr.doc_id) {
                out.push((id as i64, score));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_no_chunk_holds_also_matches_its_stem() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let w = LexicalWriter::open(dir.path(), true, 1)?;
        let chunks = [
            (
                1,
                "remove_extension",
                "fn remove_extension(p: &Path) -> PathBuf { strip(p) }",
            ),
            (
                2,
                "render",
                "fn render(page: &Page) -> String { page.title.clone() }",
            ),
            (3, "renders", "fn renders() -> usize { 3 }"),
            (4, "database", "fn database() -> Db { connect() }"),
            (
                5,
                "parse_body",
                "fn parse_body(b: &[u8]) -> Json { json(b) }",
            ),
        ];
        for (id, symbol, body) in chunks {
            w.add(&LexDoc {
                id,
                path: "src/lib.rs",
                symbol,
                doc: "",
                body,
                kind: "function",
                lang: "rust",
            })?;
        }
        w.commit(1)?;
        let index = LexicalIndex::open(dir.path())?.context("the index")?;
        let searcher = index.reader()?.searcher();
        assert_eq!(index.stem(&searcher, "removes")?.as_deref(), Some("remove"));
        assert_eq!(
            index.stem(&searcher, "rendering")?.as_deref(),
            Some("render")
        );
        // A word some chunk holds has its stem only without a plural's or a past's
        // ending; no stem of four letters or more off ("databases" is not `data`), none
        // under three letters, none of a stop word.
        assert_eq!(index.stem(&searcher, "renders")?.as_deref(), Some("render"));
        assert_eq!(index.stem(&searcher, "render")?, None);
        assert_eq!(index.stem(&searcher, "databasing")?, None);
        assert_eq!(index.stem(&searcher, "fns")?, None);
        // A plural in "-ies" by its singular, which no prefix of it is.
        assert_eq!(index.stem(&searcher, "bodies")?.as_deref(), Some("body"));
        let (dfs, _) = index.doc_freqs("bodies")?;
        assert_eq!(dfs, [("bodies".to_string(), 1)]);
        // A plural in "-s" or "-es" is known by its singular; a word of neither form
        // whose singular no chunk holds is not.
        let (dfs, _) = index.doc_freqs("pages databases trees")?;
        assert_eq!(
            dfs,
            [
                ("databases".to_string(), 1),
                ("pages".to_string(), 1),
                ("trees".to_string(), 0)
            ]
        );
        // "removes" is in no chunk: only its stem finds remove_extension.
        let hits = index.search("removes the suffix", 10, None, &IdFilter::default())?;
        assert_eq!(hits.first().map(|h| h.0), Some(1), "{hits:?}");
        Ok(())
    }
}
