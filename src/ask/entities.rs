//! What a question names: code identifiers, paths, quoted strings and dates, found by
//! rules on the words (backticks, case styles, separators, date shapes). Pure.

use super::classify::{Entity, EntityKind};
use crate::history::dates::MONTHS;

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
                // "`use` declarations", "`import` statements": the language's keyword
                // for an import, named as such, is a word of the question, not a name.
                if quote == '`' && names_import_form(inner, &after[close + 1..]) {
                    masked.push_str(inner);
                    masked.push(' ');
                    rest = &after[close + 1..];
                    continue;
                }
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
        } else if is_long_option(w) {
            push(w, EntityKind::Identifier);
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

/// Whether `word`, followed by `after`, names a kind of import statement: `use`,
/// `import`, `require`, `include`, `using` or `from` before "declaration(s)",
/// "statement(s)", "directive(s)" or "clause(s)".
fn names_import_form(word: &str, after: &str) -> bool {
    let next = after
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())
        .unwrap_or("")
        .to_lowercase();
    matches!(
        word,
        "use" | "import" | "require" | "include" | "#include" | "using" | "from"
    ) && super::text::is_import_form(&next)
}

fn is_identifier_like(s: &str) -> bool {
    !s.is_empty()
        && !s.contains(' ')
        && s.chars()
            .all(|c| c.is_alphanumeric() || "_.:/-<>".contains(c))
}

fn looks_like_path(w: &str) -> bool {
    if w.contains("::") || w.starts_with("http") {
        return false;
    }
    // "HTTP/3", "TCP/IP", "I/O", "CI/CD": a protocol, its version, an acronym pair. A
    // path has a part in lower case or a file's extension.
    if w.contains('/')
        && !w.chars().any(char::is_lowercase)
        && !w
            .rsplit_once('.')
            .is_some_and(|(stem, ext)| !stem.is_empty() && known_extension(w, ext))
    {
        return false;
    }
    (w.contains('/') && w.len() > 1 && !w.starts_with('/')
        || w.starts_with("./")
        || w.starts_with('/'))
        && w.chars().any(|c| c.is_alphanumeric())
        || w.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty() && known_extension(w, ext) && !stem.contains(['(', ')'])
        })
}

/// Whether `ext` names a kind of file the index knows: a parsed language's (from the
/// language specs: `LogEvent.cs`, `item.rb`), Markdown, or a text format it labels
/// (`config.toml`, `index.html`, and `.cs` even in a build without C#).
pub(super) fn known_extension(name: &str, ext: &str) -> bool {
    use crate::syntax::lang::{FileLang, detect};
    ext.eq_ignore_ascii_case("txt")
        || match detect(std::path::Path::new(name), b"") {
            FileLang::Code(_) | FileLang::Markdown => true,
            FileLang::Text(label) => label != "text",
        }
}

/// A command-line option as written on the command line, `--dry-run` or `--offline`: a
/// name the code holds as text, never a word of the question.
fn is_long_option(w: &str) -> bool {
    w.strip_prefix("--").is_some_and(|name| {
        name.chars().filter(|c| c.is_alphabetic()).count() >= 2
            && name.starts_with(|c: char| c.is_alphanumeric())
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_'))
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
        && !MONTHS.contains(&w.to_lowercase().as_str())
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
    let is_month = |w: &str| MONTHS.contains(&w);
    let is_year = |w: &str| {
        w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()) && matches!(&w[..2], "19" | "20")
    };
    for (i, w) in words.iter().enumerate() {
        match *w {
            "yesterday" | "today" => out.push((*w).to_string()),
            "last" | "this" | "past" if words.get(i + 1).is_some_and(|u| UNITS.contains(u)) => {
                out.push(format!("{w} {}", words[i + 1]));
            }
            "ago" if i >= 2 && UNITS.contains(&words[i - 1]) => {
                out.push(format!("{} {} ago", words[i - 2], words[i - 1]));
            }
            // "since March 2024", "before 2020", "until June".
            "since" | "after" | "before" | "until" => {
                if let Some(next) = words.get(i + 1)
                    && (is_month(next) || is_year(next))
                {
                    match words.get(i + 2) {
                        Some(y) if is_month(next) && is_year(y) => {
                            out.push(format!("{w} {next} {y}"));
                        }
                        _ => out.push(format!("{w} {next}")),
                    }
                }
            }
            // "in March 2024", "December 2018", "in 2010", "during June".
            m if is_month(m) => {
                let bound = i > 0 && matches!(words[i - 1], "since" | "after" | "before" | "until");
                match words.get(i + 1) {
                    Some(y) if is_year(y) && !bound => out.push(format!("{m} {y}")),
                    _ if !bound
                        && i > 0
                        && matches!(words[i - 1], "in" | "during" | "throughout" | "of") =>
                    {
                        out.push(m.to_string());
                    }
                    _ => {}
                }
            }
            y if is_year(y)
                && i > 0
                && matches!(
                    words[i - 1],
                    "in" | "during" | "throughout" | "of" | "from" | "for"
                ) =>
            {
                out.push(y.to_string());
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ents(q: &str) -> Vec<String> {
        entities(q).into_iter().map(|e| e.text).collect()
    }

    #[test]
    fn entities_of_every_kind() {
        assert_eq!(
            ents("who calls `load` in app/cli.py"),
            ["load", "app/cli.py"]
        );
        assert_eq!(ents("where is Scheduler::plan used"), ["Scheduler::plan"]);
        // An import keyword named as the statement is a word; `use` alone is a name.
        assert_eq!(
            ents("where is `std::io` used in `use` declarations?"),
            ["std::io"]
        );
        assert_eq!(ents("where is `use` defined?"), ["use"]);
        assert_eq!(ents("what calls os.path.join"), ["os.path.join"]);
        // A bare file name of any language the index knows is a path.
        assert_eq!(ents("who changed LogEvent.cs last?"), ["LogEvent.cs"]);
        assert_eq!(ents("when was lib/item.rb added"), ["lib/item.rb"]);
        assert_eq!(
            ents("where does \"unknown command\" come from"),
            ["unknown command"]
        );
        assert_eq!(ents("what changed since 2024-03-01"), ["2024-03-01"]);
        assert_eq!(ents("what changed 3 months ago"), ["3 months ago"]);
        assert_eq!(
            ents("what did Jo Kim change in March 2024?"),
            ["Kim", "march 2024"]
        );
        assert_eq!(ents("commits from December 2018"), ["december 2018"]);
        assert_eq!(ents("what changed in 2010"), ["2010"]);
        assert_eq!(ents("what changed since March 2024"), ["since march 2024"]);
        assert_eq!(ents("what landed during June?"), ["june"]);
        assert!(ents("read 2010 lines").is_empty());
        assert_eq!(ents("How does the Scheduler work?"), ["Scheduler"]);
        assert_eq!(ents("How does retry work?"), Vec::<String>::new());
        assert_eq!(ents("who calls parseArgs"), ["parseArgs"]);
        // A long option is named as written; dashes alone are none.
        assert_eq!(ents("when was the --offline option added?"), ["--offline"]);
        assert_eq!(ents("where is --dry-run handled"), ["--dry-run"]);
        assert!(ents("what does -- mean").is_empty());
        assert!(ents("what does --- do").is_empty());
        // A protocol's version or a pair of acronyms is no path; a path in capitals with
        // a file's extension is.
        assert!(!ents("when was HTTP/3 support added?").contains(&"HTTP/3".to_string()));
        assert!(ents("how is TCP/IP or I/O handled?").is_empty());
        assert_eq!(ents("who changed docs/README.md?"), ["docs/README.md"]);
        assert_eq!(
            ents("who changed LICENSE/NOTICE.TXT?"),
            ["LICENSE/NOTICE.TXT"]
        );
    }
}
