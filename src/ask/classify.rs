//! The first stage of `ask`: what the question asks (one or more intents) and what it
//! names (identifiers, paths, quoted strings, dates), by rules — zero cost and
//! deterministic. The result carries a confidence; a low one means the router should
//! widen the plan, never guess narrower.

use serde::Serialize;

/// What a question asks for.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Intent {
    /// Who calls X.
    Callers,
    /// What X calls.
    Callees,
    /// Where X is defined, what it is.
    Definition,
    /// What X imports, or who imports X.
    Imports,
    /// When, who and why X changed.
    History,
    /// How or why something works.
    Concept,
    /// How do I do something.
    Howto,
    /// Where is the code that does something.
    Locate,
    /// A versus B.
    Compare,
}

impl Intent {
    /// Every intent, in a stable order.
    pub const ALL: [Intent; 9] = [
        Intent::Callers,
        Intent::Callees,
        Intent::Definition,
        Intent::Imports,
        Intent::History,
        Intent::Concept,
        Intent::Howto,
        Intent::Locate,
        Intent::Compare,
    ];

    /// The lower-case name used in JSON and the labelled sets.
    pub fn as_str(self) -> &'static str {
        match self {
            Intent::Callers => "callers",
            Intent::Callees => "callees",
            Intent::Definition => "definition",
            Intent::Imports => "imports",
            Intent::History => "history",
            Intent::Concept => "concept",
            Intent::Howto => "howto",
            Intent::Locate => "locate",
            Intent::Compare => "compare",
        }
    }

    /// Parses [`Intent::as_str`].
    pub fn parse(s: &str) -> Option<Intent> {
        Intent::ALL.into_iter().find(|i| i.as_str() == s)
    }
}

/// What kind of thing an entity is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EntityKind {
    /// A code identifier: `backticked`, CamelCase, snake_case, dotted or `::` paths.
    Identifier,
    /// A file or directory path.
    Path,
    /// A quoted string (an error message, a config key).
    Quoted,
    /// A date or a relative time ("last week", "2024-03-01").
    Date,
}

/// Something the question names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Entity {
    pub text: String,
    pub kind: EntityKind,
}

/// The classifier's answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Classification {
    /// At least one intent, in the order the question asks them.
    pub intents: Vec<Intent>,
    pub entities: Vec<Entity>,
    /// 0 to 1: how sure the rules are.
    pub confidence: f32,
    /// The question asks about recent changes ("recent", "latest", "since …").
    pub recency: bool,
    /// Which rule decided each intent, for the trace.
    pub reasons: Vec<String>,
}

/// A cue: phrases that signal an intent, and how strongly.
struct Cue {
    intent: Intent,
    phrases: &'static [&'static str],
    strong: bool,
}

const CUES: &[Cue] = &[
    Cue {
        intent: Intent::Compare,
        phrases: &[
            "difference between",
            "differences between",
            " vs ",
            " vs. ",
            " versus ",
            "compare ",
            "compared to",
            "compared with",
            "differ from",
            "different from",
            "or should i use",
        ],
        strong: true,
    },
    Cue {
        intent: Intent::Callers,
        phrases: &[
            "who calls",
            "what calls",
            "where is {} called",
            "where is {} used",
            "where are {} called",
            "where are {} used",
            "where do we call",
            "where does {} get called",
            "who invokes",
            "which functions call",
            "which code calls",
            "callers of",
            "called from",
            "is called",
            "gets called",
            "are called",
            "get called",
            "call sites",
            "call site",
            "usages of",
            "uses of",
            "who uses",
            "what uses",
            "is used",
            "used by",
            "references to",
            "invoked",
            "invokes",
        ],
        strong: true,
    },
    Cue {
        intent: Intent::Callees,
        phrases: &[
            "what does {} call",
            "what functions does",
            "which functions does",
            "callees of",
            "calls made by",
            "called by",
            "does it call",
            "what it calls",
            "what methods does",
            "depend on internally",
        ],
        strong: true,
    },
    Cue {
        intent: Intent::Imports,
        phrases: &[
            "import",
            "imports",
            "imported",
            "includes",
            "included",
            "what headers",
            "which headers",
            "#include",
            "depends on",
            "dependencies of",
            "which modules",
            "what modules",
        ],
        strong: true,
    },
    Cue {
        intent: Intent::History,
        phrases: &[
            "when was",
            "when did",
            "who changed",
            "did {} change",
            "changes by",
            "changed by",
            "who wrote",
            "who added",
            "who touched",
            "who modified",
            "who last",
            "last changed",
            "last modified",
            "last touched",
            "changed last",
            "history of",
            "commit",
            "commits",
            "changelog",
            "recent change",
            "latest changes",
            "what changed",
            "what has changed",
            "recently",
            "latest change",
            "changed since",
            "since ",
            "blame",
            "introduced",
            "why did",
            "why was",
            "modified",
            "git log",
            "last week",
            "last month",
            "ago",
            "rewritten",
            "refactored",
            "renamed",
            "reverted",
        ],
        strong: true,
    },
    Cue {
        intent: Intent::Definition,
        phrases: &[
            "where is {} defined",
            "defined",
            "definition of",
            "declared",
            "declaration of",
            "signature of",
            "what is the signature",
            "what type",
            "what fields",
            "what arguments",
            "what parameters",
            "what does {} return",
            "show me {}",
            "implementation of",
            "source of",
            "what is {}",
            "what's {}",
        ],
        strong: true,
    },
    Cue {
        intent: Intent::Howto,
        phrases: &[
            "how do i",
            "how can i",
            "how should i",
            "how would i",
            "how to ",
            "how do you",
            "how do we",
            "what's the way to",
            "what is the way to",
            "is there a way to",
            "i want to",
            "i need to",
        ],
        strong: true,
    },
    Cue {
        intent: Intent::Locate,
        phrases: &[
            "where is the code",
            "where's the code",
            "which file",
            "which files",
            "which module",
            "which function",
            "which class",
            "where do we",
            "where does the",
            "where are",
            "where is",
            "find the code",
            "find the",
            "locate",
            "what handles",
            "what code handles",
            "what code",
            "responsible for",
            "is handled",
            "are handled",
        ],
        strong: false,
    },
    Cue {
        intent: Intent::Concept,
        phrases: &[
            "how does",
            "how do ",
            "how is",
            "how are",
            "explain",
            "what happens",
            "why does",
            "why is",
            "purpose of",
            "what does {} do",
            "what do",
            "overview",
            "work?",
            "works",
            "describe",
            "walk me through",
        ],
        strong: false,
    },
];

/// Classifies a question by rules.
pub fn classify(question: &str) -> Classification {
    let entities = entities(question);
    // Cues are matched on the question with the entities replaced by `x`, so that an
    // identifier such as `describe_item` never reads as the word "describe".
    let mut masked = question.to_string();
    let mut by_length: Vec<&Entity> = entities.iter().collect();
    by_length.sort_by_key(|e| std::cmp::Reverse(e.text.len()));
    for e in by_length {
        if e.kind != EntityKind::Date {
            masked = masked.replace(&format!("`{}`", e.text), " x ");
            masked = masked.replace(&e.text, " x ");
        }
    }
    let lower = format!(
        " {} ",
        masked
            .to_lowercase()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut hits: Vec<(usize, Intent, bool, &'static str)> = Vec::new();
    for cue in CUES {
        for phrase in cue.phrases {
            if let Some(pos) = find_cue(&lower, phrase) {
                hits.push((pos, cue.intent, cue.strong, phrase));
            }
        }
    }
    let found = |hits: &[(usize, Intent, bool, &str)], i: Intent| hits.iter().any(|h| h.1 == i);
    // Dates alone signal history ("what changed since last week").
    if entities.iter().any(|e| e.kind == EntityKind::Date) && !found(&hits, Intent::History) {
        hits.push((lower.len(), Intent::History, true, "a date"));
    }
    // "include" is an import only of a file ("which files include rpn.h"), not in
    // "does the weight include sub-shelves".
    if !found(&hits, Intent::Imports)
        && entities.iter().any(|e| e.kind == EntityKind::Path)
        && let Some(pos) = find_cue(&lower, "include")
    {
        hits.push((pos, Intent::Imports, true, "include"));
    }
    // The specific reading wins over the generic ones it contains.
    let snapshot = hits.clone();
    let has = |i: Intent| found(&snapshot, i);
    hits.retain(|&(_, intent, _, phrase)| match intent {
        Intent::Callers => !(has(Intent::Callees) && phrase == "called by"),
        Intent::Definition => {
            !has(Intent::Compare)
                && (!matches!(phrase, "what is {}" | "what's {}" | "show me {}")
                    || entities.iter().any(|e| e.kind == EntityKind::Identifier))
        }
        Intent::Locate => {
            !has(Intent::Compare)
                && !(matches!(phrase, "where is" | "where are" | "where does the")
                    && (has(Intent::Definition) || has(Intent::Callers) || has(Intent::Imports)))
        }
        Intent::Concept => {
            let restates_howto = has(Intent::Howto) && matches!(phrase, "how do " | "how does");
            let restates_history = has(Intent::History) && matches!(phrase, "why does" | "why is");
            !has(Intent::Compare) && !restates_howto && !restates_history
        }
        _ => true,
    });
    // One or two words ("describe", "render function") name something to look up: weak
    // cues in them mean nothing.
    if question.split_whitespace().count() <= 2 {
        hits.retain(|h| h.2);
    }
    hits.sort_by_key(|h| (h.0, !h.2));
    let strong_any = hits.iter().any(|h| h.2);
    let mut intents: Vec<Intent> = Vec::new();
    let mut reasons = Vec::new();
    for &(_, intent, strong, phrase) in &hits {
        // A weak reading next to a strong one survives only in its own clause
        // ("what does X do and who changed it").
        if !strong && strong_any && !(intent == Intent::Concept && has_and(&lower)) {
            continue;
        }
        if !intents.contains(&intent) {
            intents.push(intent);
            reasons.push(format!(
                "{}: \"{}\"",
                intent.as_str(),
                phrase.replace("{}", "X").trim()
            ));
        }
    }
    let recency = [
        "recent",
        "latest",
        "lately",
        "newest",
        "last change",
        "since ",
        "this week",
        "today",
        "yesterday",
    ]
    .iter()
    .any(|p| lower.contains(p));
    let mut entities = entities;
    // A bare name or two ("load", "render function") is a lookup of that name.
    let words: Vec<&str> = question.split_whitespace().collect();
    if intents.is_empty() && words.len() <= 2 {
        for w in words {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '_');
            let generic = [
                "function", "method", "class", "struct", "type", "def", "fn", "code",
            ];
            if !w.is_empty() && !generic.contains(&w) && !entities.iter().any(|e| e.text == w) {
                entities.push(Entity {
                    text: w.to_string(),
                    kind: EntityKind::Identifier,
                });
            }
        }
    }
    let identifiers = entities
        .iter()
        .filter(|e| matches!(e.kind, EntityKind::Identifier | EntityKind::Path))
        .count();
    let confidence = if intents.is_empty() {
        intents.push(if identifiers > 0 {
            Intent::Definition
        } else {
            Intent::Locate
        });
        reasons.push("no cue: default by entities".into());
        0.3
    } else if strong_any
        && (identifiers > 0
            || intents.contains(&Intent::Howto)
            || intents.contains(&Intent::History))
    {
        0.9
    } else if strong_any {
        0.7
    } else {
        0.55
    };
    Classification {
        intents,
        entities,
        confidence,
        recency,
        reasons,
    }
}

fn has_and(lower: &str) -> bool {
    lower.contains(" and ") || lower.contains(", ") || lower.contains("; ")
}

/// Finds a cue phrase at a word start; `{}` stands for one to six words.
fn find_cue(lower: &str, phrase: &str) -> Option<usize> {
    let bytes = lower.as_bytes();
    let at_word =
        |pos: usize| pos == 0 || phrase.starts_with(' ') || !bytes[pos - 1].is_ascii_alphanumeric();
    let ends_word = |end: usize| {
        end >= bytes.len()
            || !phrase.ends_with(|c: char| c.is_ascii_alphanumeric())
            || !bytes[end].is_ascii_alphanumeric()
    };
    match phrase.split_once("{}") {
        None => lower
            .match_indices(phrase)
            .map(|(p, _)| p)
            .find(|&p| at_word(p) && ends_word(p + phrase.len())),
        Some((before, after)) => {
            for (start, _) in lower.match_indices(before).filter(|(p, _)| at_word(*p)) {
                let rest = &lower[start + before.len()..];
                let after = after.trim_end();
                if after.is_empty() {
                    if !rest.trim().is_empty() {
                        return Some(start);
                    }
                    continue;
                }
                if let Some(end) = rest.find(after) {
                    let between = rest[..end].trim();
                    if !between.is_empty() && between.split_whitespace().count() <= 6 {
                        return Some(start);
                    }
                }
            }
            None
        }
    }
}

/// The most entities taken from one question (the first ones): each is looked up in
/// the graph, the history and the vocabulary.
pub const MAX_ENTITIES: usize = 32;

/// Identifiers, paths, quoted strings and dates named in the question (at most
/// [`MAX_ENTITIES`]).
pub fn entities(question: &str) -> Vec<Entity> {
    let mut out: Vec<Entity> = Vec::new();
    let mut push = |text: &str, kind: EntityKind| {
        let text =
            text.trim_matches(|c: char| matches!(c, '?' | ',' | '.' | ';' | ':' | '!' | '(' | ')'));
        let text = text.trim_end_matches("()");
        if !text.is_empty() && out.len() < MAX_ENTITIES && !out.iter().any(|e| e.text == text) {
            out.push(Entity {
                text: text.to_string(),
                kind,
            });
        }
    };
    // Backticks and quotes first: what they hold is taken as written.
    let mut rest = question;
    let mut masked = String::with_capacity(question.len());
    while let Some(open) = rest.find(['`', '"', '\'']) {
        let quote = rest[open..].chars().next().unwrap_or('`');
        // An apostrophe inside a word is not a quote.
        if quote == '\'' && open > 0 && rest[..open].ends_with(|c: char| c.is_alphanumeric()) {
            masked.push_str(&rest[..open + 1]);
            rest = &rest[open + 1..];
            continue;
        }
        let after = &rest[open + 1..];
        match after.find(quote) {
            Some(close) if close > 0 => {
                let inner = &after[..close];
                masked.push_str(&rest[..open]);
                masked.push(' ');
                let kind = if quote == '`' || is_identifier_like(inner) {
                    if looks_like_path(inner) {
                        EntityKind::Path
                    } else {
                        EntityKind::Identifier
                    }
                } else {
                    EntityKind::Quoted
                };
                push(inner, kind);
                rest = &after[close + 1..];
            }
            _ => {
                masked.push_str(&rest[..open + 1]);
                rest = after;
            }
        }
    }
    masked.push_str(rest);
    for (i, word) in masked.split_whitespace().enumerate() {
        let w = word
            .trim_matches(|c: char| matches!(c, '?' | ',' | ';' | '!' | '(' | ')' | '\'' | '"'));
        let w = w.strip_suffix("'s").unwrap_or(w);
        let w = w.trim_end_matches('.');
        if w.is_empty() {
            continue;
        }
        if is_date(w) {
            push(w, EntityKind::Date);
        } else if looks_like_path(w) {
            push(w, EntityKind::Path);
        } else if is_code_identifier(w) || (i > 0 && is_proper_name(w)) {
            push(w, EntityKind::Identifier);
        }
    }
    for phrase in relative_dates(&question.to_lowercase()) {
        push(&phrase, EntityKind::Date);
    }
    out
}

fn is_identifier_like(s: &str) -> bool {
    !s.is_empty()
        && !s.contains(' ')
        && s.chars()
            .all(|c| c.is_alphanumeric() || "_.:/-<>".contains(c))
}

fn looks_like_path(w: &str) -> bool {
    const EXT: &[&str] = &[
        "rs", "py", "js", "ts", "tsx", "jsx", "go", "java", "c", "h", "cc", "cpp", "hpp", "md",
        "toml", "json", "yaml", "yml", "txt", "sh",
    ];
    if w.contains("::") || w.starts_with("http") {
        return false;
    }
    (w.contains('/') && w.len() > 1 && !w.starts_with('/')
        || w.starts_with("./")
        || w.starts_with('/'))
        && w.chars().any(|c| c.is_alphanumeric())
        || w.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty() && EXT.contains(&ext) && !stem.contains(['(', ')'])
        })
}

/// CamelCase, snake_case, dotted or `::` paths, calls like `f()`.
fn is_code_identifier(w: &str) -> bool {
    let w = w.trim_end_matches("()");
    if w.len() < 2
        || !w
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
    {
        return false;
    }
    if !w.chars().all(|c| c.is_alphanumeric() || "_.:".contains(c)) {
        return false;
    }
    let snake = w.contains('_') && w.chars().any(|c| c.is_alphabetic());
    let path = (w.contains("::") || w.contains('.'))
        && w.split(['.', ':']).filter(|p| !p.is_empty()).all(|p| {
            p.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
        })
        && w.split(['.', ':']).filter(|p| !p.is_empty()).count() >= 2;
    let mut chars = w.chars();
    let first_upper = chars.next().is_some_and(|c| c.is_uppercase());
    let inner_upper = w.chars().skip(1).any(|c| c.is_uppercase());
    let inner_lower = w.chars().any(|c| c.is_lowercase());
    // camelCase or CamelCase with a hump; a capitalised English word is not enough.
    let camel = inner_upper && inner_lower;
    let acronym_word = first_upper
        && !inner_lower
        && w.len() >= 2
        && w.chars()
            .all(|c| c.is_uppercase() || c.is_ascii_digit() || c == '_');
    snake || path || camel || (acronym_word && w.contains('_'))
}

/// A capitalised word inside a sentence, like `Scheduler`: probably a type name (the
/// retriever checks it against the index). Common capitalised words are not.
fn is_proper_name(w: &str) -> bool {
    const COMMON: &[&str] = &[
        "I",
        "A",
        "The",
        "An",
        "If",
        "In",
        "On",
        "Is",
        "It",
        "And",
        "Or",
        "Not",
        "Why",
        "How",
        "What",
        "Where",
        "When",
        "Who",
        "Which",
        "Python",
        "Rust",
        "Go",
        "Java",
        "JavaScript",
        "TypeScript",
        "C",
        "JSON",
        "API",
        "CLI",
        "HTTP",
        "URL",
        "SQL",
        "Git",
        "OK",
        "README",
    ];
    w.len() >= 3
        && w.chars().next().is_some_and(|c| c.is_uppercase())
        && w.chars()
            .skip(1)
            .all(|c| c.is_lowercase() || c.is_ascii_digit())
        && !COMMON.contains(&w)
}

fn is_date(w: &str) -> bool {
    let b = w.as_bytes();
    // 2024-03-01 or 2024-03
    (b.len() == 10 || b.len() == 7)
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && (b.len() == 7 || (b[7] == b'-' && b[8..10].iter().all(u8::is_ascii_digit)))
}

/// "last week", "3 months ago", "yesterday", "since March".
fn relative_dates(lower: &str) -> Vec<String> {
    let mut out = Vec::new();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || matches!(c, '?' | ',' | '.' | '!'))
        .filter(|w| !w.is_empty())
        .collect();
    const UNITS: &[&str] = &[
        "day", "days", "week", "weeks", "month", "months", "year", "years", "hour", "hours",
    ];
    const MONTHS: &[&str] = &[
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    for (i, w) in words.iter().enumerate() {
        match *w {
            "yesterday" | "today" => out.push((*w).to_string()),
            "last" | "this" | "past" if words.get(i + 1).is_some_and(|u| UNITS.contains(u)) => {
                out.push(format!("{w} {}", words[i + 1]));
            }
            "ago" if i >= 2 && UNITS.contains(&words[i - 1]) => {
                out.push(format!("{} {} ago", words[i - 2], words[i - 1]));
            }
            "since" | "after" | "before" | "until" => {
                if let Some(next) = words.get(i + 1)
                    && (MONTHS.contains(next)
                        || next.chars().all(|c| c.is_ascii_digit()) && next.len() == 4)
                {
                    out.push(format!("{w} {next}"));
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intents(q: &str) -> Vec<&'static str> {
        classify(q).intents.iter().map(|i| i.as_str()).collect()
    }

    fn ents(q: &str) -> Vec<String> {
        entities(q).into_iter().map(|e| e.text).collect()
    }

    #[test]
    fn structural_questions() {
        assert_eq!(intents("where is parse_config called?"), ["callers"]);
        assert_eq!(intents("who calls `Scheduler::plan`"), ["callers"]);
        assert_eq!(intents("what does load_config call"), ["callees"]);
        assert_eq!(intents("where is ParseConfig defined"), ["definition"]);
        assert_eq!(intents("what does src/main.rs import"), ["imports"]);
    }

    #[test]
    fn history_and_multi_intent() {
        assert_eq!(
            intents("when was shelf_weight last changed and why"),
            ["history"]
        );
        assert_eq!(
            intents("what does shelf_weight do and who changed it last"),
            ["concept", "history"]
        );
        assert!(classify("what changed since last week").recency);
    }

    #[test]
    fn prose_questions() {
        assert_eq!(intents("how does the retry logic work"), ["concept"]);
        assert_eq!(intents("how do I add a new command"), ["howto"]);
        assert_eq!(
            intents("where is the code that parses quoted arguments"),
            ["locate"]
        );
        assert_eq!(
            intents("what is the difference between Item.describe and Shelf.describe"),
            ["compare"]
        );
    }

    #[test]
    fn entities_of_every_kind() {
        assert_eq!(
            ents("who calls `load` in app/cli.py"),
            ["load", "app/cli.py"]
        );
        assert_eq!(ents("where is Scheduler::plan used"), ["Scheduler::plan"]);
        assert_eq!(ents("what calls os.path.join"), ["os.path.join"]);
        assert_eq!(
            ents("where does \"unknown command\" come from"),
            ["unknown command"]
        );
        assert_eq!(ents("what changed since 2024-03-01"), ["2024-03-01"]);
        assert_eq!(ents("what changed 3 months ago"), ["3 months ago"]);
        assert_eq!(ents("How does the Scheduler work?"), ["Scheduler"]);
        assert_eq!(ents("How does retry work?"), Vec::<String>::new());
        assert_eq!(ents("who calls parseArgs"), ["parseArgs"]);
    }
}

#[cfg(test)]
mod labelled {
    use super::*;

    /// The labelled questions in `testdata/ask/questions.jsonl`: how often the rules
    /// alone find exactly the labelled intents.
    #[test]
    fn rules_route_the_labelled_questions() {
        let text = include_str!("../../testdata/ask/questions.jsonl");
        let (mut total, mut exact) = (0, 0);
        let mut misses = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).expect("valid JSON line");
            let question = v["question"].as_str().expect("question");
            let mut gold: Vec<&str> = v["intents"]
                .as_array()
                .expect("intents")
                .iter()
                .filter_map(|i| i.as_str())
                .collect();
            let mut got: Vec<&str> = classify(question)
                .intents
                .iter()
                .map(|i| i.as_str())
                .collect();
            gold.sort();
            got.sort();
            total += 1;
            if gold == got {
                exact += 1;
            } else {
                misses.push(format!("{question:?}: want {gold:?}, got {got:?}"));
            }
        }
        let accuracy = exact as f64 / total as f64;
        println!(
            "rules alone: {exact}/{total} = {:.1}%\n{}",
            accuracy * 100.0,
            misses.join("\n")
        );
        assert!(
            total >= 150,
            "the labelled set holds at least 150 questions"
        );
        assert!(
            accuracy >= 0.90,
            "routing accuracy of the rules fell to {accuracy:.3}:\n{}",
            misses.join("\n")
        );
    }
}
