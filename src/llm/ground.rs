//! The grounding check of a synthesized answer, without an LLM: [`check_grounding`].
//!
//! The rules, applied to the answer's Markdown:
//!
//! 1. It cites at least one source, as `[1]`, `[1, 2]`, `[1][2]` or `[1-3]` (citations
//!    inside code spans do not count: `v[0]` is an index).
//! 2. Every citation names one of the given sources.
//! 3. Every sentence that makes a claim carries a citation. A citation standing alone
//!    after a sentence (`… works. [1]`) belongs to it. Exempt as connective: a sentence of
//!    at most [`CONNECTIVE_WORDS`] words that names no identifier and no number ("In
//!    short:", "Here is how."), and a line ending in `:` that names no identifier (the
//!    head of a list whose items cite). Fenced code blocks are not sentences.
//! 4. Every code identifier the answer names occurs in some cited source (its text, path
//!    or symbol). Identifiers are the tokens of code spans and fenced blocks (but language
//!    keywords) and, in prose, words shaped like code: `snake_case`, `CamelCase` or
//!    `camelCase`, dotted, `::` or `/` paths. A path that does not occur whole passes when
//!    one cited source holds all of its parts (`Config::load` for `impl Config { fn load`).
//!
//! Known limits: prose words shaped like code ("JavaScript") are checked like code, and a
//! sentence can cite a source that does not support it: the check sees names, not meaning.

use std::collections::BTreeSet;

use crate::llm::Source;

/// The most words an uncited sentence may have and still count as connective.
pub const CONNECTIVE_WORDS: usize = 5;

/// Checks `text` against `sources` (rules in the module docs). Returns the valid citations
/// (sorted, once each) and the problems, empty when the answer is grounded.
pub fn check_grounding(text: &str, sources: &[Source]) -> (Vec<usize>, Vec<String>) {
    let sentences = scan(text);
    let known: BTreeSet<usize> = sources.iter().map(|s| s.n).collect();
    let mut problems = Vec::new();
    let mut cited = BTreeSet::new();
    let mut bad = BTreeSet::new();
    for s in &sentences {
        for &n in &s.cites {
            if known.contains(&n) {
                cited.insert(n);
            } else {
                bad.insert(n);
            }
        }
    }
    for n in bad {
        problems.push(format!(
            "[{n}] cites no source (the sources are {})",
            known
                .iter()
                .map(|n| format!("[{n}]"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if cited.is_empty() && !sentences.iter().any(|s| !s.cites.is_empty()) {
        problems.push("the answer cites no source".to_string());
    }
    for s in &sentences {
        if s.block || !s.cites.is_empty() || is_connective(s) {
            continue;
        }
        problems.push(format!("no citation for \"{}\"", shorten(s.raw.trim(), 80)));
    }
    let cited_sources: Vec<Haystack> = sources
        .iter()
        .filter(|s| cited.contains(&s.n))
        .map(Haystack::new)
        .collect();
    let mut seen = BTreeSet::new();
    for s in &sentences {
        for id in &s.idents {
            if seen.insert(id.clone()) && !cited_sources.iter().any(|h| h.holds(id)) {
                problems.push(format!("`{id}` occurs in none of the cited sources"));
            }
        }
    }
    (cited.into_iter().collect(), problems)
}

/// One sentence of prose (or one fenced code block), with what it cites and names.
#[derive(Debug, Default)]
struct Sentence {
    /// As written, for messages.
    raw: String,
    /// The prose outside code spans and citations.
    prose: String,
    cites: Vec<usize>,
    idents: Vec<String>,
    /// A fenced code block: names identifiers, needs no citation.
    block: bool,
}

fn is_connective(s: &Sentence) -> bool {
    if !s.idents.is_empty() {
        return false;
    }
    let prose = s.prose.trim();
    if prose.ends_with(':') {
        return true;
    }
    let words = prose
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count();
    words <= CONNECTIVE_WORDS && !prose.chars().any(|c| c.is_ascii_digit())
}

/// The answer as sentences: fenced blocks apart, list items and headings as their own
/// paragraphs, paragraphs split at `.`, `!` or `?` before a space.
fn scan(text: &str) -> Vec<Sentence> {
    let mut out = Vec::new();
    let mut paragraph = String::new();
    let mut fence: Option<String> = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(block) = fence.as_mut() {
            if t.starts_with("```") {
                out.push(Sentence {
                    raw: block.clone(),
                    idents: code_idents(block),
                    block: true,
                    ..Sentence::default()
                });
                fence = None;
            } else {
                block.push_str(line);
                block.push('\n');
            }
            continue;
        }
        if t.starts_with("```") {
            flush(&mut paragraph, &mut out);
            fence = Some(String::new());
            continue;
        }
        let item = strip_marker(t);
        if t.is_empty() || item.len() != t.len() || t.starts_with('|') {
            flush(&mut paragraph, &mut out);
        }
        if !paragraph.is_empty() {
            paragraph.push(' ');
        }
        paragraph.push_str(item);
        if t.starts_with('#') || t.starts_with('|') {
            flush(&mut paragraph, &mut out);
        }
    }
    if let Some(block) = fence {
        out.push(Sentence {
            raw: block.clone(),
            idents: code_idents(&block),
            block: true,
            ..Sentence::default()
        });
    }
    flush(&mut paragraph, &mut out);
    out
}

/// A list marker or heading marker removed (`- `, `* `, `+ `, `1. `, `2) `, `## `).
fn strip_marker(t: &str) -> &str {
    let t2 = t.trim_start_matches('#');
    if t2.len() != t.len() && t2.starts_with(' ') {
        return t2.trim_start();
    }
    for m in ["- ", "* ", "+ "] {
        if let Some(rest) = t.strip_prefix(m) {
            return rest.trim_start();
        }
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        let rest = &t[digits..];
        if let Some(r) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")) {
            return r.trim_start();
        }
    }
    t
}

fn flush(paragraph: &mut String, out: &mut Vec<Sentence>) {
    if !paragraph.trim().is_empty() {
        split_sentences(paragraph, out);
    }
    paragraph.clear();
}

fn split_sentences(par: &str, out: &mut Vec<Sentence>) {
    let chars: Vec<char> = par.chars().collect();
    let mut cur = Sentence::default();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '`' {
            let run = chars[i..].iter().take_while(|&&c| c == '`').count();
            if let Some(close) = find_run(&chars, i + run, run) {
                let code: String = chars[i + run..close].iter().collect();
                cur.idents.extend(code_idents(&code));
                cur.raw.extend(&chars[i..close + run]);
                cur.prose.push_str(" code ");
                i = close + run;
                continue;
            }
        }
        if c == '['
            && let Some((nums, end)) = parse_citation(&chars, i)
        {
            cur.cites.extend(nums);
            cur.raw.extend(&chars[i..end]);
            cur.prose.push(' ');
            i = end;
            continue;
        }
        cur.raw.push(c);
        cur.prose.push(c);
        i += 1;
        let at_end = i == chars.len() || chars[i].is_whitespace();
        if matches!(c, '.' | '!' | '?') && at_end && !ends_with_abbreviation(&cur.prose) {
            finish(std::mem::take(&mut cur), out);
        }
    }
    finish(cur, out);
}

/// Ends a sentence; one with no words (a citation after the full stop) joins the one
/// before.
fn finish(mut s: Sentence, out: &mut Vec<Sentence>) {
    s.idents.extend(prose_idents(&s.prose));
    let wordless = !s.prose.chars().any(char::is_alphanumeric) && s.idents.is_empty();
    if wordless {
        if let Some(prev) = out.last_mut().filter(|p| !p.block) {
            prev.cites.extend(s.cites);
            prev.raw.push(' ');
            prev.raw.push_str(s.raw.trim());
        } else if !s.cites.is_empty() {
            out.push(s);
        }
        return;
    }
    out.push(s);
}

fn ends_with_abbreviation(prose: &str) -> bool {
    let last = prose
        .split_whitespace()
        .last()
        .unwrap_or("")
        .trim_start_matches(['(', '"', '\''])
        .to_ascii_lowercase();
    matches!(
        last.as_str(),
        "e.g." | "i.e." | "etc." | "vs." | "cf." | "approx."
    )
}

/// The closing run of `len` backticks at or after `from`.
fn find_run(chars: &[char], from: usize, len: usize) -> Option<usize> {
    let mut j = from;
    while j < chars.len() {
        if chars[j] == '`' {
            let run = chars[j..].iter().take_while(|&&c| c == '`').count();
            if run == len {
                return Some(j);
            }
            j += run;
        } else {
            j += 1;
        }
    }
    None
}

/// `[1]`, `[1, 2]`, `[1-3]`, `[source 2]` at `start`: the numbers and the index after `]`.
fn parse_citation(chars: &[char], start: usize) -> Option<(Vec<usize>, usize)> {
    let close = start + chars[start..].iter().take(40).position(|&c| c == ']')?;
    let inner: String = chars[start + 1..close].iter().collect();
    let lower = inner.trim().to_ascii_lowercase();
    let body = lower
        .strip_prefix("sources")
        .or_else(|| lower.strip_prefix("source"))
        .unwrap_or(&lower);
    let mut nums = Vec::new();
    for part in body.split([',', ';']) {
        let part = part.trim();
        if let Some((a, b)) = part.split_once(['-', '–']) {
            let (a, b) = (
                a.trim().parse::<usize>().ok()?,
                b.trim().parse::<usize>().ok()?,
            );
            if a > b || b - a > 50 {
                return None;
            }
            nums.extend(a..=b);
        } else {
            nums.push(part.parse::<usize>().ok()?);
        }
    }
    (!nums.is_empty()).then_some((nums, close + 1))
}

/// Words that are keywords or literals in common languages, never checked as identifiers.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "case", "catch", "class", "const", "continue", "def", "del",
    "do", "elif", "else", "enum", "except", "false", "fn", "for", "from", "func", "function", "if",
    "impl", "import", "in", "is", "let", "loop", "match", "mut", "new", "nil", "none", "not",
    "null", "or", "and", "pub", "raise", "return", "self", "static", "struct", "super", "switch",
    "this", "throw", "trait", "true", "try", "type", "use", "var", "void", "while", "with",
    "yield", "Self", "None", "True", "False", "Some", "Ok", "Err",
];

/// Identifiers in a code span or block: the span whole when it is one name or path, else
/// each name token of two characters or more that is not a keyword.
fn code_idents(code: &str) -> Vec<String> {
    let code = code.trim();
    let whole = code.trim_end_matches("()");
    if !whole.is_empty()
        && whole
            .chars()
            .all(|c| c.is_alphanumeric() || "_.:/-".contains(c))
        && whole
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '.')
    {
        if KEYWORDS.contains(&whole) {
            return Vec::new();
        }
        return vec![whole.to_string()];
    }
    name_tokens(code)
        .filter(|t| t.len() >= 2 && !KEYWORDS.contains(t))
        .map(str::to_string)
        .collect()
}

/// Tokens shaped like names: a letter or `_`, then letters, digits or `_`.
fn name_tokens(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| {
            t.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
        })
}

/// Words of prose shaped like code.
fn prose_idents(prose: &str) -> Vec<String> {
    prose
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| "()[]{},;:\"'!?*<>“”‘’".contains(c))
                .trim_end_matches('.')
                .trim_end_matches("()")
        })
        .filter(|w| looks_like_code(w))
        .map(str::to_string)
        .collect()
}

fn looks_like_code(w: &str) -> bool {
    if w.len() < 3
        || !w
            .chars()
            .all(|c| c.is_alphanumeric() || "_.:/-".contains(c))
    {
        return false;
    }
    if !w
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
    {
        return false;
    }
    if w.contains("::") || (w.contains('_') && w.chars().any(char::is_alphabetic)) {
        return true;
    }
    if w.contains('/') || w.contains('.') {
        let parts: Vec<&str> = w.split(['/', '.']).collect();
        return parts.len() > 1
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.chars().any(char::is_alphabetic) && !p.contains(':'))
            && !matches!(w.to_ascii_lowercase().as_str(), "e.g" | "i.e" | "and/or");
    }
    if w.contains('-') || w.contains(':') {
        return false;
    }
    // CamelCase or camelCase: an upper-case letter after a lower-case one.
    let chars: Vec<char> = w.chars().collect();
    chars
        .windows(2)
        .any(|p| p[0].is_lowercase() && p[1].is_uppercase())
}

/// A cited source, searchable: its path, symbol and text, and the names in them.
struct Haystack {
    all: String,
    names: BTreeSet<String>,
}

impl Haystack {
    fn new(s: &Source) -> Haystack {
        let all = format!(
            "{}\n{}\n{}",
            s.path,
            s.symbol.as_deref().unwrap_or(""),
            s.text
        );
        let names = all
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect();
        Haystack { all, names }
    }

    /// Whether `id` is a name here, or a path here, or a path whose parts are all here.
    fn holds(&self, id: &str) -> bool {
        let is_name = id.chars().all(|c| c.is_alphanumeric() || c == '_');
        if is_name {
            return self.names.contains(id);
        }
        self.all.contains(id)
            || id
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|p| !p.is_empty())
                .all(|p| self.names.contains(p))
    }
}

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let cut: String = s.chars().take(max).collect();
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(n: usize, path: &str, symbol: &str, text: &str) -> Source {
        Source {
            n,
            path: path.into(),
            start_line: 1,
            end_line: 10,
            symbol: (!symbol.is_empty()).then(|| symbol.to_string()),
            text: text.into(),
        }
    }

    fn sources() -> Vec<Source> {
        vec![
            src(
                1,
                "src/config.rs",
                "load",
                "pub fn load(root: &Path) -> Result<Config> {\n    let table = read_table(root)?;\n    check_keys(&table)?;\n}",
            ),
            src(
                2,
                "src/retry.py",
                "RetryPolicy.backoff",
                "class RetryPolicy:\n    def backoff(self, attempt):\n        return min(self.max_delay, 2 ** attempt)",
            ),
            src(3, "README.md", "", "Run `llmc index` before asking."),
        ]
    }

    fn check(text: &str) -> (Vec<usize>, Vec<String>) {
        check_grounding(text, &sources())
    }

    #[test]
    fn a_cited_answer_naming_only_cited_identifiers_is_grounded() {
        let (cited, problems) = check(
            "`load` reads the table with `read_table` and then checks its keys [1]. \
             Retries wait `2 ** attempt` seconds, capped by `max_delay`, in \
             `RetryPolicy.backoff` [2].",
        );
        assert_eq!(cited, vec![1, 2]);
        assert!(problems.is_empty(), "{problems:?}");
    }

    #[test]
    fn citation_forms_are_all_understood() {
        for text in [
            "It reads the table and checks the keys [1, 2].",
            "It reads the table and checks the keys [1][2].",
            "It reads the table and checks the keys [1-2].",
            "It reads the table and checks the keys [source 1], [Source 2].",
            "It reads the table and checks the keys. [1] [2]",
        ] {
            let (cited, problems) = check(text);
            assert_eq!(cited, vec![1, 2], "{text}");
            assert!(problems.is_empty(), "{text}: {problems:?}");
        }
    }

    #[test]
    fn a_citation_of_a_missing_source_is_a_problem() {
        let (cited, problems) = check("The loader reads the table [1] and retries [7].");
        assert_eq!(cited, vec![1]);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("[7] cites no source"),
            "{problems:?}"
        );
        let (cited, problems) = check("[0] says nothing.");
        assert!(cited.is_empty());
        assert!(problems[0].starts_with("[0]"), "{problems:?}");
    }

    #[test]
    fn an_answer_without_citations_fails() {
        let (cited, problems) = check("The loader reads the table and checks its keys.");
        assert!(cited.is_empty());
        assert!(
            problems.contains(&"the answer cites no source".to_string()),
            "{problems:?}"
        );
        let (_, problems) = check("");
        assert_eq!(problems, vec!["the answer cites no source".to_string()]);
    }

    #[test]
    fn a_claim_without_a_citation_is_named() {
        let (_, problems) =
            check("The loader reads the table [1]. It then retries three times on failure.");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].contains("It then retries three times on failure."),
            "{problems:?}"
        );
    }

    #[test]
    fn short_connectives_and_list_heads_need_no_citation() {
        let text = "In short:\n\n- The loader reads the table [1].\n- Retries back off [2].\n\n\
                    Here is how it works.\n\nThe steps are as follows:\n1. It checks keys [1].";
        let (cited, problems) = check(text);
        assert_eq!(cited, vec![1, 2]);
        assert!(problems.is_empty(), "{problems:?}");
        // Short, but it names an identifier or a number: a claim.
        let (_, problems) = check("It reads the table [1]. `load` is slow.");
        assert!(
            problems
                .iter()
                .any(|p| p.contains("no citation for \"`load` is slow.\"")),
            "{problems:?}"
        );
        let (_, problems) = check("It reads the table [1]. It tries 3 times.");
        assert_eq!(problems.len(), 1, "{problems:?}");
    }

    #[test]
    fn identifiers_absent_from_the_cited_sources_are_named() {
        let (_, problems) = check("`load` calls `parse_yaml` and `YamlLoader` [1].");
        assert_eq!(
            problems,
            vec![
                "`parse_yaml` occurs in none of the cited sources".to_string(),
                "`YamlLoader` occurs in none of the cited sources".to_string(),
            ]
        );
        // Unquoted but shaped like code: snake_case, CamelCase, dotted and :: paths.
        let (_, problems) = check(
            "It calls validate_schema, then ConfigBuilder, then os.path.join and std::fs::read [1].",
        );
        assert_eq!(problems.len(), 4, "{problems:?}");
        // Present, but only in a source that is not cited.
        let (_, problems) = check("`load` is helped by `RetryPolicy` [1].");
        assert_eq!(
            problems,
            vec!["`RetryPolicy` occurs in none of the cited sources".to_string()]
        );
    }

    #[test]
    fn paths_and_qualified_names_match_by_their_parts() {
        let (_, problems) = check(
            "`Config::load` in `src/config.rs` calls `check_keys()` [1], and \
             RetryPolicy.backoff caps the delay [2]. See README.md for `llmc index` [3].",
        );
        assert!(problems.is_empty(), "{problems:?}");
        // A name is matched whole, not inside another: `read` is not `read_table`.
        let (_, problems) = check("`load` calls `read` [1].");
        assert_eq!(
            problems,
            vec!["`read` occurs in none of the cited sources".to_string()]
        );
    }

    #[test]
    fn code_blocks_name_identifiers_but_need_no_citation() {
        let text = "It reads and checks the table [1]:\n\n```rust\nlet table = read_table(root)?;\ncheck_keys(&table)?;\n```\n";
        let (_, problems) = check(text);
        assert!(problems.is_empty(), "{problems:?}");
        let text = "It reads the table [1]:\n\n```rust\nlet t = parse_toml(root)?;\n```\n";
        let (_, problems) = check(text);
        assert_eq!(
            problems,
            vec!["`parse_toml` occurs in none of the cited sources".to_string()]
        );
    }

    #[test]
    fn brackets_inside_code_and_abbreviations_are_not_citations_or_stops() {
        let (cited, problems) = check("It returns `args[0]`, e.g. the root, and checks keys [1].");
        assert_eq!(cited, vec![1]);
        assert_eq!(
            problems,
            vec!["`args` occurs in none of the cited sources".to_string()]
        );
    }

    #[test]
    fn ordinary_prose_words_are_not_identifiers() {
        let (_, problems) = check(
            "The loader, i.e. the entry point, reads a TOML table (version 2.0) and/or JSON [1].",
        );
        assert!(problems.is_empty(), "{problems:?}");
    }
}
