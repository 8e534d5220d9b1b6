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
    let mut iter = text.char_indices().peekable();
    std::iter::from_fn(move || {
        loop {
            let (start, c) = iter.next()?;
            if !is_word_char(c) {
                continue;
            }
            let mut end = start + c.len_utf8();
            while let Some(&(i, c)) = iter.peek() {
                if !is_word_char(c) {
                    break;
                }
                end = i + c.len_utf8();
                iter.next();
            }
            return Some((start, &text[start..end]));
        }
    })
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The parts of one identifier: split on `_`, lower→upper (`parseConfig`), the last
/// capital of a run before a lower-case letter (`HTTPServer` → `HTTP`, `Server`) and
/// letter/digit boundaries. Returns byte ranges into `word`.
pub fn split_identifier(word: &str) -> Vec<(usize, usize)> {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut parts = Vec::new();
    let mut start: Option<usize> = None;
    for (n, &(i, c)) in chars.iter().enumerate() {
        if c == '_' {
            if let Some(s) = start.take() {
                parts.push((s, i));
            }
            continue;
        }
        if let Some(s) = start {
            let (_, prev) = chars[n - 1];
            let next = chars.get(n + 1).map(|&(_, c)| c);
            let boundary = (prev.is_lowercase() && c.is_uppercase())
                || (prev.is_uppercase()
                    && c.is_uppercase()
                    && next.is_some_and(|nc| nc.is_lowercase()))
                || (prev.is_numeric() != c.is_numeric());
            if boundary {
                parts.push((s, i));
                start = Some(i);
            }
        } else {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        parts.push((s, word.len()));
    }
    parts
}

/// Every token of `text`, in order: for each identifier its lower-cased whole form, its
/// joined form when that differs, then its parts when there is more than one.
pub fn tokens(text: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut position = 0;
    for (start, word) in words(text) {
        if word.len() > MAX_TOKEN_BYTES || word.bytes().all(|b| b == b'_') {
            continue;
        }
        let whole = word.to_lowercase();
        let parts = split_identifier(word);
        out.push(Tok {
            text: whole.clone(),
            from: start,
            to: start + word.len(),
            position,
        });
        if parts.len() > 1 {
            let joined: String = parts
                .iter()
                .map(|&(a, b)| word[a..b].to_lowercase())
                .collect();
            if joined != whole {
                out.push(Tok {
                    text: joined,
                    from: start,
                    to: start + word.len(),
                    position,
                });
            }
            for &(a, b) in &parts {
                out.push(Tok {
                    text: word[a..b].to_lowercase(),
                    from: start + a,
                    to: start + b,
                    position,
                });
                position += 1;
            }
        } else {
            if let Some(&(a, b)) = parts.first()
                && b - a != word.len()
            {
                out.push(Tok {
                    text: word[a..b].to_lowercase(),
                    from: start + a,
                    to: start + b,
                    position,
                });
            }
            position += 1;
        }
    }
    out
}

/// The tantivy tokenizer over [`tokens`], registered as [`CodeTokenizer::NAME`].
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
    toks: std::vec::IntoIter<Tok>,
    token: &'a mut tantivy::tokenizer::Token,
}

impl tantivy::tokenizer::Tokenizer for CodeTokenizer {
    type TokenStream<'a> = CodeTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> CodeTokenStream<'a> {
        self.token.reset();
        CodeTokenStream {
            toks: tokens(text).into_iter(),
            token: &mut self.token,
        }
    }
}

impl tantivy::tokenizer::TokenStream for CodeTokenStream<'_> {
    fn advance(&mut self) -> bool {
        match self.toks.next() {
            Some(t) => {
                self.token.text = t.text;
                self.token.offset_from = t.from;
                self.token.offset_to = t.to;
                self.token.position = t.position;
                self.token.position_length = 1;
                true
            }
            None => false,
        }
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
    fn offsets_point_into_the_text() {
        let s = "let fooBar = 1;";
        for t in tokens(s) {
            assert!(s[t.from..t.to].to_lowercase().contains(&t.text) || t.text == "foobar");
        }
    }
}
