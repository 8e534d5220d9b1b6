//! Code-aware tokens: identifiers are kept whole (lower-cased), joined (`parse_config` and
//! `ParseConfig` both give `parseconfig`) and split into their parts on `_`, camelCase and
//! letter/digit boundaries; everything that is not a letter, digit or `_` separates, so
//! paths split on `/` and `.`. The lexical index and the built-in embedder share it.

/// One token with its byte range in the text and its word position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tok {
    pub text: String,
    pub from: usize,
    pub to: usize,
    pub position: usize,
}

/// Longer tokens are dropped (minified code, base64 blobs).
const MAX_TOKEN_BYTES: usize = 64;

/// The identifier-like runs of `text` (letters, digits, `_`) with their byte offsets.
pub fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    std::iter::from_fn(move || {
        loop {
            if at >= text.len() {
                return None;
            }
            let (word, n) = char_at(text, at);
            if word {
                break;
            }
            at += n;
        }
        let start = at;
        while at < text.len() {
            let (word, n) = char_at(text, at);
            if !word {
                break;
            }
            at += n;
        }
        Some((start, &text[start..at]))
    })
}

/// Whether the character at byte `at` (a character boundary) belongs to a word, and its
/// length in bytes; ASCII without decoding.
#[inline]
fn char_at(text: &str, at: usize) -> (bool, usize) {
    let b = text.as_bytes()[at];
    if b < 0x80 {
        return (b.is_ascii_alphanumeric() || b == b'_', 1);
    }
    text[at..]
        .chars()
        .next()
        .map_or((false, 1), |c| (is_word_char(c), c.len_utf8()))
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Words code writes short, by their long form in prose: a question says
/// "authentication" where the code says `DigestAuth`. Sorted by the long form, which is
/// lower-case and in the singular. Not "package": an imports question's kind word, and
/// `pkg` a folder name in half the Go repositories (it put `math`'s import 5th, not 3rd).
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("allocation", "alloc"),
    ("argument", "arg"),
    ("attribute", "attr"),
    ("authentication", "auth"),
    ("authorization", "auth"),
    ("buffer", "buf"),
    ("certificate", "cert"),
    ("command", "cmd"),
    ("configuration", "config"),
    ("connection", "conn"),
    ("context", "ctx"),
    ("database", "db"),
    ("dictionary", "dict"),
    ("directory", "dir"),
    ("environment", "env"),
    ("expression", "expr"),
    ("implementation", "impl"),
    ("information", "info"),
    ("initialization", "init"),
    ("initialize", "init"),
    ("iterator", "iter"),
    ("message", "msg"),
    ("parameter", "param"),
    ("pointer", "ptr"),
    ("repository", "repo"),
    ("request", "req"),
    ("response", "resp"),
    ("specification", "spec"),
    ("statistic", "stat"),
    ("synchronization", "sync"),
    ("temporary", "tmp"),
    ("transaction", "txn"),
    ("utility", "util"),
];

/// The short form code writes for a lower-case word of prose, in the singular or plural
/// ("parameters" → `param`), if it has one.
pub fn abbreviation(word: &str) -> Option<&'static str> {
    let find = |w: &str| {
        ABBREVIATIONS
            .binary_search_by(|(long, _)| (*long).cmp(w))
            .ok()
            .map(|i| ABBREVIATIONS[i].1)
    };
    if let Some(short) = find(word) {
        return Some(short);
    }
    if let Some(singular) = singular_of_ies(word) {
        return find(&singular);
    }
    word.strip_suffix('s')
        .filter(|_| !word.ends_with("ss"))
        .and_then(find)
}

/// The singular of a plural in "-ies" ("bodies" → "body"), which no prefix of it is.
pub fn singular_of_ies(word: &str) -> Option<String> {
    let base = word.strip_suffix("ies")?;
    (base.len() >= 2).then(|| format!("{base}y"))
}

/// `word` without each of `ends` it ends with, in their order: its forms without a plural's
/// or a past's ending ("renders" → "render"). None for a word ending in "ss": "class" and
/// "process" are no plurals.
pub fn without_endings<'a>(word: &'a str, ends: &[&str]) -> Vec<&'a str> {
    if word.ends_with("ss") {
        return Vec::new();
    }
    ends.iter()
        .filter_map(|end| word.strip_suffix(end))
        .collect()
}

/// The parts of one identifier: split on `_`, lower→upper (`parseConfig`), the last
/// capital of a run before a lower-case letter (`HTTPServer` → `HTTP`, `Server`) and
/// letter/digit boundaries. A run of capitals followed by a lone `s` is an acronym's
/// plural and stays whole (`URLs`, `IDsFor` → `IDs`, `For`). Returns byte ranges into
/// `word`.
pub fn split_identifier(word: &str) -> Vec<(usize, usize)> {
    let mut parts = Vec::new();
    split_identifier_into(word, &mut parts);
    parts
}

/// [`split_identifier`] into a reused buffer; ASCII words (nearly all of them) are split
/// on their bytes.
fn split_identifier_into(word: &str, parts: &mut Vec<(usize, usize)>) {
    parts.clear();
    if word.is_ascii() {
        let b = word.as_bytes();
        split_by(
            b.len(),
            parts,
            |i| {
                let c = b[i];
                (
                    c == b'_',
                    c.is_ascii_lowercase(),
                    c.is_ascii_uppercase(),
                    c.is_ascii_digit(),
                )
            },
            |i| b[i] == b's',
        );
        return;
    }
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    split_by(
        chars.len(),
        parts,
        |n| {
            let c = chars[n].1;
            (c == '_', c.is_lowercase(), c.is_uppercase(), c.is_numeric())
        },
        |n| chars[n].1 == 's',
    );
    // `split_by` works in character positions: back to byte offsets.
    for p in parts.iter_mut() {
        let at = |n: usize| chars.get(n).map_or(word.len(), |&(i, _)| i);
        *p = (at(p.0), at(p.1));
    }
}

/// The splitting rule over `len` characters, `class(n)` telling whether the n-th is
/// (an underscore, lower-case, upper-case, numeric) and `is_s(n)` whether it is `s`;
/// ranges in character positions.
fn split_by(
    len: usize,
    parts: &mut Vec<(usize, usize)>,
    class: impl Fn(usize) -> (bool, bool, bool, bool),
    is_s: impl Fn(usize) -> bool,
) {
    let mut start: Option<usize> = None;
    for n in 0..len {
        let (underscore, _, upper, numeric) = class(n);
        if underscore {
            if let Some(s) = start.take() {
                parts.push((s, n));
            }
            continue;
        }
        if let Some(s) = start {
            let (_, p_lower, p_upper, p_numeric) = class(n - 1);
            // `URLs`: a lone `s` after capitals makes them plural, not a new word.
            let plural = n + 1 < len && is_s(n + 1) && (n + 2 == len || !class(n + 2).1);
            let next_lower = n + 1 < len && class(n + 1).1 && !plural;
            let boundary =
                (p_lower && upper) || (p_upper && upper && next_lower) || (p_numeric != numeric);
            if boundary {
                parts.push((s, n));
                start = Some(n);
            }
        } else {
            start = Some(n);
        }
    }
    if let Some(s) = start {
        parts.push((s, len));
    }
}

/// Every token of `text`, in order: for each identifier its lower-cased whole form, its
/// joined form when that differs, then its parts when there is more than one.
pub fn tokens(text: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut position = 0;
    let mut word_toks = WordTokens::default();
    for (start, word) in words(text) {
        word_toks.fill(start, word, &mut position);
        out.extend(word_toks.spans.iter().map(|t| Tok {
            text: word_toks.text[t.text.0..t.text.1].to_string(),
            from: t.from,
            to: t.to,
            position: t.position,
        }));
    }
    out
}

/// One token of a word, its text a range of [`WordTokens::text`].
#[derive(Debug, Clone, Copy)]
struct Span {
    text: (usize, usize),
    from: usize,
    to: usize,
    position: usize,
}

/// The tokens of one word, in buffers reused from word to word.
#[derive(Debug, Default)]
struct WordTokens {
    text: String,
    spans: Vec<Span>,
    parts: Vec<(usize, usize)>,
}

impl WordTokens {
    /// Replaces the buffers' content with the tokens of `word` (at byte `start` of the
    /// text); `position` is the word position of its first token, moved past it.
    fn fill(&mut self, start: usize, word: &str, position: &mut usize) {
        self.text.clear();
        self.spans.clear();
        if word.len() > MAX_TOKEN_BYTES || word.bytes().all(|b| b == b'_') {
            return;
        }
        split_identifier_into(word, &mut self.parts);
        let ascii = word.is_ascii();
        let push_lower = |text: &mut String, s: &str| {
            let from = text.len();
            if ascii {
                text.push_str(s);
                text[from..].make_ascii_lowercase();
            } else {
                text.push_str(&s.to_lowercase());
            }
            (from, text.len())
        };
        let (to, pos) = (start + word.len(), *position);
        let whole = push_lower(&mut self.text, word);
        self.spans.push(Span {
            text: whole,
            from: start,
            to,
            position: pos,
        });
        if self.parts.len() > 1 {
            let joined_from = self.text.len();
            for &(a, b) in &self.parts {
                push_lower(&mut self.text, &word[a..b]);
            }
            let joined = (joined_from, self.text.len());
            if self.text[joined.0..joined.1] != self.text[whole.0..whole.1] {
                self.spans.push(Span {
                    text: joined,
                    from: start,
                    to,
                    position: pos,
                });
            }
            for &(a, b) in &self.parts {
                let text = push_lower(&mut self.text, &word[a..b]);
                self.spans.push(Span {
                    text,
                    from: start + a,
                    to: start + b,
                    position: *position,
                });
                *position += 1;
            }
        } else {
            if let Some(&(a, b)) = self.parts.first()
                && b - a != word.len()
            {
                let text = push_lower(&mut self.text, &word[a..b]);
                self.spans.push(Span {
                    text,
                    from: start + a,
                    to: start + b,
                    position: pos,
                });
            }
            *position += 1;
        }
    }
}

/// The tantivy tokenizer over [`tokens`], registered as [`CodeTokenizer::NAME`]. It
/// makes the same tokens without allocating one string per token.
#[derive(Clone, Default)]
pub struct CodeTokenizer {
    token: tantivy::tokenizer::Token,
}

impl CodeTokenizer {
    /// The name the lexical schema refers to.
    pub const NAME: &'static str = "llmc_code";
}

/// The token stream of one text.
pub struct CodeTokenStream<'a> {
    words: Box<dyn Iterator<Item = (usize, &'a str)> + 'a>,
    word: WordTokens,
    next: usize,
    position: usize,
    token: &'a mut tantivy::tokenizer::Token,
}

impl tantivy::tokenizer::Tokenizer for CodeTokenizer {
    type TokenStream<'a> = CodeTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> CodeTokenStream<'a> {
        self.token.reset();
        CodeTokenStream {
            words: Box::new(words(text)),
            word: WordTokens::default(),
            next: 0,
            position: 0,
            token: &mut self.token,
        }
    }
}

impl tantivy::tokenizer::TokenStream for CodeTokenStream<'_> {
    fn advance(&mut self) -> bool {
        while self.next >= self.word.spans.len() {
            let Some((start, word)) = self.words.next() else {
                return false;
            };
            self.word.fill(start, word, &mut self.position);
            self.next = 0;
        }
        let t = self.word.spans[self.next];
        self.next += 1;
        self.token.text.clear();
        self.token
            .text
            .push_str(&self.word.text[t.text.0..t.text.1]);
        self.token.offset_from = t.from;
        self.token.offset_to = t.to;
        self.token.position = t.position;
        self.token.position_length = 1;
        true
    }

    fn token(&self) -> &tantivy::tokenizer::Token {
        self.token
    }

    fn token_mut(&mut self) -> &mut tantivy::tokenizer::Token {
        self.token
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prose_word_has_the_short_form_code_writes() {
        assert!(ABBREVIATIONS.windows(2).all(|w| w[0].0 < w[1].0), "sorted");
        assert_eq!(abbreviation("authentication"), Some("auth"));
        assert_eq!(abbreviation("parameters"), Some("param"));
        assert_eq!(abbreviation("utilities"), Some("util"));
        assert_eq!(abbreviation("statistics"), Some("stat"));
        assert_eq!(abbreviation("auth"), None);
        assert_eq!(abbreviation("address"), None);
    }

    fn texts(s: &str) -> Vec<String> {
        tokens(s).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn identifiers_are_kept_whole_joined_and_split() {
        assert_eq!(
            texts("parse_config"),
            ["parse_config", "parseconfig", "parse", "config"]
        );
        assert_eq!(texts("ParseConfig"), ["parseconfig", "parse", "config"]);
        assert_eq!(texts("parse config"), ["parse", "config"]);
        assert_eq!(
            texts("HTTPServer2x"),
            ["httpserver2x", "http", "server", "2", "x"]
        );
        assert_eq!(texts("__init__"), ["__init__", "init"]);
        assert_eq!(texts("URLs"), ["urls"]);
        assert_eq!(texts("IDsFor"), ["idsfor", "ids", "for"]);
        assert_eq!(texts("HTTPSession"), ["httpsession", "http", "session"]);
    }

    #[test]
    fn non_ascii_identifiers_split_like_ascii_ones() {
        let word = "ÉtatInitial_çaVa2x";
        let got: Vec<&str> = split_identifier(word)
            .into_iter()
            .map(|(a, b)| &word[a..b])
            .collect();
        assert_eq!(got, ["État", "Initial", "ça", "Va", "2", "x"]);
        let ascii = "EtatInitial_caVa2x";
        let got: Vec<&str> = split_identifier(ascii)
            .into_iter()
            .map(|(a, b)| &ascii[a..b])
            .collect();
        assert_eq!(got, ["Etat", "Initial", "ca", "Va", "2", "x"]);
    }

    #[test]
    fn paths_split_on_separators() {
        assert_eq!(
            texts("src/net/http_client.rs"),
            [
                "src",
                "net",
                "http_client",
                "httpclient",
                "http",
                "client",
                "rs"
            ]
        );
    }

    #[test]
    fn the_tantivy_stream_gives_the_tokens_of_tokens() {
        use tantivy::tokenizer::{TokenStream as _, Tokenizer as _};
        let text = "fn parse_config(HTTPServer2x: &Path) -> ΣΑΣ { __init__ __ x._y }";
        let mut tokenizer = CodeTokenizer::default();
        let mut stream = tokenizer.token_stream(text);
        let mut got = Vec::new();
        while stream.advance() {
            let t = stream.token();
            got.push(Tok {
                text: t.text.clone(),
                from: t.offset_from,
                to: t.offset_to,
                position: t.position,
            });
        }
        let want = tokens(text);
        assert!(want.len() > 10, "{want:?}");
        assert_eq!(got, want);
        assert!(want.iter().any(|t| t.text == "σας"), "{want:?}");
    }

    #[test]
    fn offsets_point_into_the_text() {
        let s = "let fooBar = 1;";
        for t in tokens(s) {
            assert!(s[t.from..t.to].to_lowercase().contains(&t.text) || t.text == "foobar");
        }
    }
}
