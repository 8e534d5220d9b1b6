//! Words of a question and of source text, compared loosely: lower-cased, identifiers
//! split into their parts, crude suffixes stripped. Used to build retrieval queries and
//! to check evidence against the question. Pure.

use super::classify::{Classification, EntityKind, Intent};
use crate::search::tokenize;

/// Words that carry no subject in a question about code: question words, function words
/// and the cue verbs of the intents themselves.
const STOP: &[&str] = &[
    "a",
    "about",
    "after",
    "ago",
    "all",
    "also",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "been",
    "before",
    "being",
    "between",
    "both",
    "but",
    "by",
    "call",
    "called",
    "callee",
    "callees",
    "caller",
    "callers",
    "calling",
    "calls",
    "can",
    "change",
    "changed",
    "changes",
    "code",
    "commit",
    "commits",
    "could",
    "day",
    "days",
    "define",
    "defined",
    "definition",
    "describe",
    "did",
    "difference",
    "differences",
    "do",
    "does",
    "doing",
    "done",
    "each",
    "explain",
    "file",
    "files",
    "find",
    "for",
    "from",
    "function",
    "functions",
    "get",
    "gets",
    "had",
    "happened",
    "happens",
    "has",
    "have",
    "how",
    "i",
    "if",
    "implement",
    "implemented",
    "implements",
    "import",
    "imported",
    "imports",
    "in",
    "into",
    "is",
    "it",
    "its",
    "last",
    "latest",
    "let",
    "like",
    "list",
    "located",
    "logic",
    "look",
    "made",
    "me",
    "method",
    "methods",
    "modified",
    "module",
    "modules",
    "month",
    "months",
    "most",
    "my",
    "need",
    "of",
    "on",
    "one",
    "or",
    "other",
    "our",
    "part",
    "parts",
    "recent",
    "recently",
    "repo",
    "repository",
    "should",
    "show",
    "since",
    "so",
    "some",
    "stuff",
    "tell",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "thing",
    "things",
    "this",
    "those",
    "through",
    "to",
    "today",
    "touched",
    "use",
    "used",
    "uses",
    "using",
    "versus",
    "vs",
    "was",
    "we",
    "week",
    "weeks",
    "were",
    "what",
    "whats",
    "when",
    "where",
    "whether",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "work",
    "works",
    "would",
    "wrote",
    "year",
    "years",
    "yesterday",
    "you",
    "your",
];

/// Stop words that cue another intent (callers, history, imports, a file to locate), and
/// are the subject of a concept or how-to question. Sorted.
const SUBJECT_IN_PROSE: &[&str] = &[
    "call", "called", "calling", "calls", "change", "changed", "changes", "commit", "commits",
    "define", "defined", "file", "files", "import", "imported", "imports", "modified", "module",
    "modules", "touched",
];

/// Units of time: stop words in a question about the history ("what changed last
/// week?"), subject words in any other.
const TIME_UNITS: &[&str] = &[
    "day", "days", "week", "weeks", "month", "months", "year", "years",
];

/// Words that name the import statement itself. Sorted.
const IMPORT_FORM: &[&str] = &[
    "clause",
    "clauses",
    "declaration",
    "declarations",
    "directive",
    "directives",
    "statement",
    "statements",
];

/// Whether a lower-case word names an import statement itself ("declarations").
pub fn is_import_form(word: &str) -> bool {
    IMPORT_FORM.binary_search(&word).is_ok()
}

/// Whether a lower-case word is a stop word.
pub fn is_stop(word: &str) -> bool {
    STOP.binary_search(&word).is_ok()
}

/// Everyday verbs a question says how something is done with ("how are retry statistics
/// recorded?", "how does httpx pick up proxies?"), and none names a feature: a
/// repository need not hold them, so their absence says nothing about whether it deals
/// with the question. Still searched for; not counted as missing or unknown. Sorted.
const EVERYDAY: &[&str] = &[
    "achieve",
    "answered",
    "calculate",
    "choose",
    "compute",
    "decide",
    "decision",
    "determine",
    "ensure",
    "figure",
    "happen",
    "keep",
    "notice",
    "obtain",
    "occur",
    "perform",
    "pick",
    "record",
    "remember",
];

/// Nouns a question names the parts of any code with ("how does relativedelta normalize
/// its fields?", "where are the values checked?"), singular and plural. Where no chunk
/// holds one, the question still asks about this repository's code, in its own words:
/// such a noun is then neither missing from the evidence nor unknown (see
/// [`crate::ask::verify`]). Sorted.
const GENERIC_NOUNS: &[&str] = &[
    "attribute",
    "attributes",
    "detail",
    "details",
    "element",
    "elements",
    "entries",
    "entry",
    "field",
    "fields",
    "item",
    "items",
    "member",
    "members",
    "part",
    "parts",
    "piece",
    "pieces",
    "properties",
    "property",
    "setting",
    "settings",
    "thing",
    "things",
    "value",
    "values",
];

/// Whether a word is one of [`GENERIC_NOUNS`] (in any case).
pub fn is_generic_noun(word: &str) -> bool {
    GENERIC_NOUNS
        .binary_search(&word.to_ascii_lowercase().as_str())
        .is_ok()
}

/// Whether a word is one of [`EVERYDAY`]'s verbs, in any form ("picked", "decisions");
/// not the thing that does it ("recorder" names a feature).
pub fn is_everyday(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    if lower.ends_with("er") || lower.ends_with("ers") {
        return false;
    }
    let s = stem(&lower);
    EVERYDAY.iter().any(|w| stem(w) == s)
}

/// A crude stem: lower-case, without common English suffixes, so that "parsing",
/// "parsed" and "parser" meet "parse". A word ending in "ss" keeps its last "s":
/// "compress" meets "compressed" and "class" meets "classes".
pub fn stem(word: &str) -> String {
    let w = word.to_ascii_lowercase();
    for suffix in [
        "ations", "ation", "ings", "ing", "ers", "er", "ies", "es", "ed", "ly", "s",
    ] {
        if suffix == "s" && w.ends_with("ss") {
            break;
        }
        if let Some(base) = w.strip_suffix(suffix)
            && base.len() >= 3
        {
            return base.trim_end_matches('e').to_string();
        }
    }
    w.trim_end_matches('e').to_string()
}

/// The stems of the words a question or a commit message names a definition's input with
/// ("the step argument", "Add step keyword to windowed()", "a strict flag"), each at the
/// start of a word: `arg` is in "argument" and "args", `param` in "parameter".
const INPUT_WORDS: [&str; 6] = ["arg", "param", "keyword", "kwarg", "option", "flag"];

/// A word of a commit message for `stem` (see `history::query::LogFilter::words`): a word
/// that names an input stands for any of them, since a commit may call the step argument
/// a keyword; any other stem stands for itself.
pub fn message_stem(stem: &str) -> String {
    if INPUT_FORMS.contains(&stem) {
        INPUT_WORDS.join("|")
    } else {
        stem.to_string()
    }
}

/// The [`stem`]s of the words that name an input ("parameters" → `paramet`).
const INPUT_FORMS: [&str; 9] = [
    "arg",
    "argument",
    "param",
    "paramet",
    "parameter",
    "keyword",
    "kwarg",
    "option",
    "flag",
];

/// Whether a word names a definition's input: "parameter", "options", "args", "flag".
pub fn names_an_input(word: &str) -> bool {
    INPUT_FORMS.contains(&stem(word).as_str())
}

/// The release numbers a text names, dotted and as written: "Python 3.8" and "v2.0.1"
/// give `3.8` and `2.0.1`. A number without a dot is no release.
pub fn versions(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for run in text.split(|c: char| !(c.is_ascii_digit() || c == '.')) {
        let v = run.trim_matches('.');
        let dotted = v.contains('.')
            && v.split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        if dotted && !out.iter().any(|o| o == v) {
            out.push(v.to_string());
        }
    }
    out
}

/// Identifier parts, lower-cased: `parseConfig` → `parse`, `config`; `Stack::push` →
/// `stack`, `push`.
pub fn split_identifier(ident: &str) -> Vec<String> {
    words(ident)
        .flat_map(|w| {
            tokenize::split_identifier(w)
                .into_iter()
                .map(move |(a, b)| w[a..b].to_lowercase())
        })
        .collect()
}

/// The words of a text, as written (identifiers whole).
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    tokenize::words(text).map(|(_, w)| w)
}

/// The subject words of a question: not stop words, not dates, at least two letters,
/// identifiers kept whole. In question order, without repeats.
pub fn content_terms(question: &str, c: &Classification) -> Vec<String> {
    let dates: Vec<String> = c
        .entities
        .iter()
        .filter(|e| e.kind == EntityKind::Date)
        .flat_map(|e| words(&e.text).map(str::to_lowercase).collect::<Vec<_>>())
        .collect();
    // In a question about how something works, the words that cue other intents are
    // its subject: "how does it reload when files change?", "how are imports resolved?".
    let prose = matches!(c.intents.first(), Some(Intent::Concept | Intent::Howto));
    // In an imports question, the statement's name is no subject ("`use` declarations").
    let imports = c.intents.contains(&Intent::Imports);
    // Outside a question about the history, a unit of time is what the code deals with
    // ("where is the number of days in a month computed?"), not when something changed.
    let about_time = !c.intents.contains(&Intent::History);
    let mut out: Vec<String> = Vec::new();
    let versioned = versioned_names(question);
    for w in words(question) {
        // "HTTP/3": one name, as code writes it (`http3`, `Http3`).
        if let Some((_, joined)) = versioned.iter().find(|(name, _)| name == w) {
            if !out.iter().any(|o| o.eq_ignore_ascii_case(joined)) {
                out.push(joined.clone());
            }
            continue;
        }
        let lower = w.to_lowercase();
        let stop = (is_stop(&lower)
            && !(prose && SUBJECT_IN_PROSE.binary_search(&lower.as_str()).is_ok())
            && !(about_time && TIME_UNITS.contains(&lower.as_str())))
            || (imports && is_import_form(&lower));
        if lower.len() < 2 || stop || dates.contains(&lower) {
            continue;
        }
        if lower.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        if !out.iter().any(|o| o.eq_ignore_ascii_case(w)) {
            out.push(w.to_string());
        }
    }
    out
}

/// The names written with a version after a slash, "HTTP/3" or "HTTP/1.1", each with
/// the one word code writes for it: the name and the major version joined (`HTTP3`,
/// `HTTP1`). An acronym followed by a number ("RFC 3339", "ISO 8601", "SHA 256") is one
/// name too, which code writes joined (`parse_rfc3339`, `Sha256`): the number alone
/// would be dropped as no word.
fn versioned_names(question: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let words: Vec<&str> = question
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '/'))
        .collect();
    for pair in words.windows(2) {
        let (name, number) = (pair[0], pair[1]);
        let acronym = (2..=6).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_uppercase());
        let numeric = (1..=5).contains(&number.len()) && number.bytes().all(|b| b.is_ascii_digit());
        if acronym && numeric {
            out.push((name.to_string(), format!("{name}{number}")));
        }
    }
    for word in words {
        let word = word.trim_matches(|c: char| !c.is_alphanumeric());
        let Some((name, version)) = word.split_once('/') else {
            continue;
        };
        let major = version.split('.').next().unwrap_or("");
        let is_version = !major.is_empty()
            && version
                .split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        if name.len() >= 2 && name.bytes().all(|b| b.is_ascii_alphabetic()) && is_version {
            out.push((name.to_string(), format!("{name}{major}")));
        }
    }
    out
}

/// The stems a text covers: every word, every identifier part, stemmed.
pub fn stems(text: &str) -> std::collections::HashSet<String> {
    let mut out = std::collections::HashSet::new();
    for w in words(text) {
        if w.len() > 64 {
            continue;
        }
        out.insert(stem(w));
        for p in split_identifier(w) {
            out.insert(stem(&p));
        }
    }
    out
}

/// Whether a term (a word or an identifier) is covered by a text's stems: all of its
/// parts are, as written or in the short form code writes ("authentication" by `auth`).
pub fn covered(term: &str, stems: &std::collections::HashSet<String>) -> bool {
    let parts = split_identifier(term);
    !parts.is_empty()
        && parts.iter().all(|p| {
            stems.contains(&stem(p))
                || tokenize::abbreviation(p).is_some_and(|short| stems.contains(&stem(short)))
                || other_number(p).is_some_and(|o| stems.contains(&stem(&o)))
        })
}

/// A word in "-y" in the plural, or one in "-ies" in the singular: [`stem`] cuts "bodies"
/// to "bod" (the prefix a commit message's "body" and "bodies" share) and leaves "body",
/// so the two forms meet only so.
fn other_number(word: &str) -> Option<String> {
    let lower = word.to_ascii_lowercase();
    if lower.ends_with("ies") {
        return tokenize::singular_of_ies(&lower);
    }
    let base = lower.strip_suffix('y')?;
    (base.len() >= 2 && !base.ends_with(['a', 'e', 'o', 'u'])).then(|| format!("{base}ies"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plural_in_ies_covers_its_singular_and_back() {
        let held = |text: &str| stems(text);
        assert!(covered("bodies", &held("$request->getParsedBody()")));
        assert!(covered("body", &held("parse the request bodies")));
        assert!(covered("queries", &held("def run_query(q):")));
        assert!(!covered("bodies", &held("the bodyguard")));
        assert!(!covered("keys", &held("the monkey")));
    }

    #[test]
    fn an_everyday_verb_is_known_in_its_forms_and_a_feature_is_not() {
        for w in [
            "picked",
            "Picks",
            "recorded",
            "computed",
            "decisions",
            "determines",
            "answered",
            "answering",
        ] {
            assert!(is_everyday(w), "{w}");
        }
        // "the answer" names a thing a repository may hold (llmc's own answers).
        for w in [
            "answer",
            "retry",
            "encrypt",
            "compress",
            "record_id",
            "logging",
            "stop",
        ] {
            assert!(!is_everyday(w), "{w}");
        }
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        for list in [STOP, SUBJECT_IN_PROSE, IMPORT_FORM, EVERYDAY, GENERIC_NOUNS] {
            let mut sorted = list.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted, list);
        }
        // Each subject-in-prose word is a stop word elsewhere.
        assert!(SUBJECT_IN_PROSE.iter().all(|w| is_stop(w)));
    }

    #[test]
    fn a_concept_question_keeps_the_words_that_cue_other_intents() {
        let q = "how does uvicorn reload the server when files change?";
        let c = super::super::classify::classify(q);
        assert_eq!(
            content_terms(q, &c),
            ["uvicorn", "reload", "server", "files", "change"]
        );
        let q = "who changed the server files?";
        let c = super::super::classify::classify(q);
        assert_eq!(content_terms(q, &c), ["server"]);
    }

    /// "whether" joins a clause as "if" does: no word a chunk is found by (afero's "how
    /// does the cache layer decide whether a cached file is stale?" counted it missing).
    #[test]
    fn whether_is_no_subject() {
        let q = "how does the cache layer decide whether a cached file is stale?";
        let c = super::super::classify::classify(q);
        assert!(!content_terms(q, &c).contains(&"whether".to_string()));
    }

    #[test]
    fn the_name_of_an_import_statement_is_no_subject() {
        let q = "where is `semver` used in `use` declarations?";
        let c = super::super::classify::classify(q);
        assert_eq!(content_terms(q, &c), ["semver"]);
        // Elsewhere it is: a parser's declarations are its subject.
        let q = "how does the parser read variable declarations?";
        let c = super::super::classify::classify(q);
        assert!(content_terms(q, &c).contains(&"declarations".to_string()));
    }

    #[test]
    fn identifiers_split_on_case_digits_and_underscores() {
        assert_eq!(split_identifier("parseConfig"), ["parse", "config"]);
        assert_eq!(split_identifier("HTTPServer"), ["http", "server"]);
        assert_eq!(split_identifier("MAX_LEN2"), ["max", "len", "2"]);
        assert_eq!(split_identifier("Stack::push"), ["stack", "push"]);
    }

    #[test]
    fn an_input_is_named_in_any_number() {
        for w in [
            "parameter",
            "Parameters",
            "option",
            "options",
            "args",
            "flag",
            "kwargs",
        ] {
            assert!(names_an_input(w), "{w}");
        }
        for w in ["optional", "flagged", "mode", "partial"] {
            assert!(!names_an_input(w), "{w}");
        }
    }

    #[test]
    fn a_word_naming_an_input_stands_for_the_others() {
        let any = message_stem(&stem("arguments"));
        for word in [
            "parameter",
            "params",
            "keyword",
            "kwargs",
            "option",
            "flags",
        ] {
            assert_eq!(message_stem(&stem(word)), any, "{word}");
        }
        assert!(any.split('|').any(|s| s == "arg"), "{any}");
        for word in ["step", "optional", "argon", "flagship"] {
            assert_eq!(message_stem(&stem(word)), stem(word), "{word}");
        }
    }

    #[test]
    fn releases_are_dotted_numbers() {
        assert_eq!(
            versions("why was Python 3.8 support dropped in v2.0.1?"),
            ["3.8", "2.0.1"]
        );
        assert_eq!(
            versions("version 3. or 42 or 1..2 or .5"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn stems_meet_across_inflections() {
        assert_eq!(stem("parsing"), stem("parse"));
        assert_eq!(stem("parsed"), stem("parser"));
        assert_eq!(stem("configs"), stem("config"));
        assert_eq!(stem("compressed"), stem("compress"));
        assert_eq!(stem("classes"), stem("class"));
        assert_eq!(stem("processing"), stem("process"));
        let s = stems("fn load_config(path: &Path) -> Config");
        assert!(covered("parseConfig", &stems("parse the config")));
        assert!(covered("configs", &s));
        assert!(!covered("kubernetes", &s));
    }

    #[test]
    fn content_terms_drop_question_words_and_dates() {
        let q = "who changed `parse_config` since last week and why?";
        let c = super::super::classify::classify(q);
        assert_eq!(content_terms(q, &c), ["parse_config"]);
    }

    #[test]
    fn a_protocol_and_its_version_are_one_term_as_code_writes_them() {
        let terms = |q: &str| content_terms(q, &super::super::classify::classify(q));
        assert_eq!(
            terms("when was HTTP/3 support added?")[..2],
            ["HTTP3", "support"]
        );
        assert_eq!(terms("how is HTTP/1.1 keep-alive done?")[0], "HTTP1");
        // Two names are no version.
        assert_eq!(terms("how is TCP/IP handled?")[..2], ["TCP", "IP"]);
        // An acronym and its number, as `parse_rfc3339` writes them.
        assert_eq!(
            terms("how are RFC 3339 timestamps parsed?")[..2],
            ["RFC3339", "timestamps"]
        );
        // A count after a word is no part of a name.
        assert_eq!(terms("why does Read 4096 bytes?")[..2], ["Read", "bytes"]);
    }

    #[test]
    fn a_unit_of_time_is_a_subject_outside_the_history() {
        let terms = |q: &str| content_terms(q, &super::super::classify::classify(q));
        assert_eq!(
            terms("where is the number of days in a month computed?"),
            ["number", "days", "month", "computed"]
        );
        assert_eq!(terms("what changed in the last few days?"), ["few"]);
    }
}
