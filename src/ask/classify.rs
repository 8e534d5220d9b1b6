//! The first stage of `ask`: what the question asks (one or more intents) and what it
//! names (identifiers, paths, quoted strings, dates), by rules — zero cost and
//! deterministic. The result carries a confidence; a low one means the router should
//! widen the plan, never guess narrower.

use serde::Serialize;

use super::cues::{CUES, IMPORT_STATEMENTS, find_cue};
pub use super::entities::{MAX_ENTITIES, entities};
// Intent lives in `model` so that the configuration (the `[route]` table) can name it
// without importing `ask`; `ask::classify::Intent` stays its usual path.
pub use crate::model::Intent;

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

impl Entity {
    /// Whether the entity names code: an identifier or a path.
    pub fn names_code(&self) -> bool {
        matches!(self.kind, EntityKind::Identifier | EntityKind::Path)
    }
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

impl Classification {
    /// The identifiers the question names, in its order.
    pub fn identifiers(&self) -> impl Iterator<Item = &str> {
        self.entities
            .iter()
            .filter(|e| e.kind == EntityKind::Identifier)
            .map(|e| e.text.as_str())
    }
}

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
            // A keyword left in backticks ("in `use` declarations") reads as a word.
            .replace('`', " ")
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
    // "compare A and B", "how does A compare to B" set two sides against each other; "how
    // does packaging compare two versions?" asks how the code compares things.
    hits.retain(|&(pos, _, _, phrase)| phrase != "compare " || names_two_sides(&lower[pos..]));
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
    // "is X called by anything": X's callers, though "called by" is a callees cue.
    if let Some(at) = find_cue(&lower, "called by")
        && lower[..at].contains(" x ")
        && !lower[at..].contains(" x ")
        && !found(&hits, Intent::Callers)
    {
        hits.push((at, Intent::Callers, true, "x called by"));
    }
    // "what is used by X" asks what X uses: X's callees.
    let used_by_name = find_cue(&lower, "used by")
        .filter(|&at| lower[at..].contains(" x ") && !lower[..at].contains(" x "));
    if let Some(at) = used_by_name
        && !found(&hits, Intent::Callees)
    {
        hits.push((at, Intent::Callees, true, "used by x"));
    }
    // The specific reading wins over the generic ones it contains.
    let snapshot = hits.clone();
    let has = |i: Intent| found(&snapshot, i);
    // "what is called by X" asks what X calls; "is X called by anything" who calls X: the
    // side of "called by" the name is on decides.
    let called_by = find_cue(&lower, "called by");
    // (Named things are masked as ` x ` in `lower`.)
    let named_after_by = called_by.is_some_and(|at| lower[at..].contains(" x "));
    let named = entities.iter().any(Entity::names_code);
    // A passive cue in a sentence that names nothing ("a base class that is used to
    // provide ...", "an uploaded file included as part of the request") describes code;
    // it does not ask for a name's callers or importers.
    let passive = |phrase: &str| {
        matches!(
            phrase,
            "is used"
                | "used by"
                | "is called"
                | "are called"
                | "gets called"
                | "get called"
                | "invoked"
                | "invokes"
                | "included"
                | "includes"
                | "imported"
        )
    };
    // "where is X used in `use` declarations": X's uses are its imports.
    let import_statement = snapshot.iter().any(|h| IMPORT_STATEMENTS.contains(&h.3));
    // So does one in a statement, as a doc comment reads ("MatcherFunc is the function
    // signature used by custom matchers."), where a question asks.
    let described = describes(question);
    // "how does marshmallow return the fields declared on the class?" asks how: a
    // participle in what it describes ("declared", "defined") asks for no definition.
    let asks_how = snapshot
        .iter()
        .any(|h| h.1 == Intent::Concept && h.0 <= 1 && matches!(h.3, "how does" | "how do "));
    // "how does a node that represents the import tag work?": "import" after an article
    // is a noun, what the code handles, in a question that names nothing to import.
    let import_noun = |pos: usize, phrase: &str| {
        phrase == "import"
            && [" the ", " a ", " an "]
                .iter()
                .any(|a| lower[..pos].ends_with(a))
    };
    hits.retain(|&(pos, intent, _, phrase)| match intent {
        Intent::Definition if asks_how && DESCRIBING_PARTICIPLES.contains(&phrase) => false,
        Intent::Imports if !named && import_noun(pos, phrase) => false,
        Intent::Callers | Intent::Imports if (!named || described) && passive(phrase) => false,
        Intent::Callers if import_statement => false,
        // "which functions raise X", "where is X thrown": the name is what is raised;
        // a sentence in which it is not ("where is the code for raised by `.url_for()`
        // …") is located instead.
        Intent::Callers if phrase.contains("raise") || phrase.contains("throw") => [
            " x raised",
            " x thrown",
            "raise x ",
            "raises x ",
            "throw x ",
            "throws x ",
        ]
        .iter()
        .any(|p| lower.contains(p)),
        Intent::Callers => {
            !(has(Intent::Callees) && (phrase == "called by" || named_after_by))
                && !(matches!(phrase, "used by" | "is used") && used_by_name.is_some())
        }
        Intent::Callees => {
            !(phrase == "called by" && called_by.is_some() && named && !named_after_by)
        }
        // A definition is looked up by name: a sentence that names nothing ("the name of the
        // shell function defined by the completion script") is located instead.
        Intent::Definition => {
            !has(Intent::Compare)
                && (named || phrase.contains("{}"))
                && (!matches!(phrase, "what is {}" | "what's {}" | "show me {}")
                    || entities.iter().any(|e| e.kind == EntityKind::Identifier))
        }
        Intent::Locate => {
            !has(Intent::Compare)
                && !(matches!(phrase, "where is" | "where are" | "where does the")
                    && ((has(Intent::Definition) && named)
                        || has(Intent::Callers)
                        || has(Intent::Imports)))
        }
        Intent::Concept => {
            let restates_howto = has(Intent::Howto) && matches!(phrase, "how do " | "how does");
            let restates_history = has(Intent::History)
                && matches!(phrase, "why does" | "why is" | "why are" | "why do ");
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
    let identifiers = entities.iter().filter(|e| e.names_code()).count();
    // Words besides the names: a name with a word or two ("the `Lexer` struct") is a
    // lookup of the name; a sentence that mentions one ("Add a `--version` option whose
    // output is produced by `callback`") describes code to locate.
    let other_words = question
        .split(|c: char| c.is_whitespace() || c == '`')
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '_'))
        .filter(|w| !w.is_empty() && !entities.iter().any(|e| e.text == *w))
        .count();
    let confidence = if intents.is_empty() {
        intents.push(if identifiers > 0 && other_words <= 3 {
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

/// Definition cues that, inside a "how does …" question, describe the thing asked about.
const DESCRIBING_PARTICIPLES: &[&str] = &["defined", "declared", "implemented"];

/// Whether the text is a statement of six words or more, not a question or a request:
/// no question mark, and its first word neither asks ("where", "is", "does"…) nor bids
/// ("show", "find", "list"…).
pub(crate) fn describes(text: &str) -> bool {
    const ASKS_OR_BIDS: &[&str] = &[
        "are", "can", "could", "describe", "did", "display", "do", "does", "explain", "find",
        "get", "give", "has", "have", "how", "is", "list", "locate", "print", "search", "should",
        "show", "tell", "trace", "was", "were", "what", "what's", "when", "where", "where's",
        "which", "who", "who's", "whom", "whose", "why", "will", "would",
    ];
    let text = text.trim();
    let first = text
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
        .to_lowercase();
    !text.ends_with('?')
        && text.split_whitespace().count() >= 6
        && !ASKS_OR_BIDS.contains(&first.as_str())
}

/// Whether `tail` (the question from "compare" on) sets a second side against the first:
/// "compare A and B", "A compare to B", "compare A with B", "A against B", "A or B".
fn names_two_sides(tail: &str) -> bool {
    [" and ", " with ", " to ", " against ", " or ", ", "]
        .iter()
        .any(|p| tail.contains(p))
}

fn has_and(lower: &str) -> bool {
    lower.contains(" and ") || lower.contains(", ") || lower.contains("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intents(q: &str) -> Vec<&'static str> {
        classify(q).intents.iter().map(|i| i.as_str()).collect()
    }

    #[test]
    fn a_how_question_about_declared_things_asks_how() {
        assert_eq!(
            intents("how does marshmallow return the `Field` pairs declared on the class?"),
            ["concept"]
        );
        assert_eq!(intents("where is `Field` declared?"), ["definition"]);
        assert_eq!(
            intents("how does `load` work and where is it defined?"),
            ["concept", "definition"]
        );
    }

    #[test]
    fn a_name_alone_is_a_lookup_and_a_sentence_naming_one_is_located() {
        assert_eq!(intents("`FloatParamType`"), ["definition"]);
        assert_eq!(intents("the `Lexer` struct"), ["definition"]);
        assert_eq!(
            intents("Add a `--version` option whose output is produced by `callback`."),
            ["locate"]
        );
    }

    #[test]
    fn structural_questions() {
        assert_eq!(intents("where is parse_config called?"), ["callers"]);
        assert_eq!(
            intents("which functions raise PathAccessError?"),
            ["callers"]
        );
        assert_eq!(intents("where is `ConfigError` thrown?"), ["callers"]);
        assert_eq!(intents("what raises ValueError in parse_url?"), ["callers"]);
        assert_eq!(
            intents("why were the classes split into separate files?"),
            ["history"]
        );
        assert_eq!(intents("why are options parsed twice?"), ["concept"]);
        assert_ne!(
            intents("where is the code for raised by `.url_for(name)` if no route matches?"),
            ["callers"]
        );
        assert_eq!(intents("who calls `Scheduler::plan`"), ["callers"]);
        assert_eq!(intents("what does load_config call"), ["callees"]);
        assert_eq!(intents("where is ParseConfig defined"), ["definition"]);
        assert_eq!(intents("what does src/main.rs import"), ["imports"]);
        // The name's side of "called by" tells callees from callers.
        assert_eq!(
            intents("what functions are called by `print_entry`?"),
            ["callees"]
        );
        assert_eq!(intents("is `print_entry` called by anything?"), ["callers"]);
        assert_eq!(
            intents("which function is used by VarP to add a flag?"),
            ["callees"]
        );
        assert_eq!(intents("is `VarP` used by anything?"), ["callers"]);
        assert_eq!(
            intents("list the calls made inside `Path.convert`"),
            ["callees"]
        );
        // A definition is looked up by name; a sentence that names nothing is located.
        assert_eq!(
            intents("the name of the shell function defined by the completion script."),
            ["locate"]
        );
        assert_eq!(intents("where is clamp defined?"), ["definition"]);
        assert_eq!(
            intents("find the method `AsyncClient.options`"),
            ["definition"]
        );
        assert_eq!(
            intents("where is the `TrustedHostMiddleware` class implemented?"),
            ["definition"]
        );
        assert_eq!(intents("where is the retry logic implemented?"), ["locate"]);
    }

    #[test]
    fn words_of_a_description_are_not_cues() {
        // Passive structural words in a sentence that names nothing describe code.
        assert_eq!(
            intents("A base class for incoming HTTP connections, that is used to provide it"),
            ["locate"]
        );
        assert_eq!(
            intents("where is the code for an uploaded file included as part of the request?"),
            ["locate"]
        );
        assert_eq!(intents("where is `parse_config` used?"), ["callers"]);
        // A statement that names something describes it, as a doc comment does; the same
        // words asked, or short, still ask.
        assert_eq!(
            intents("MatcherFunc is the function signature used by custom matchers."),
            ["locate"]
        );
        assert_eq!(
            intents("is MatcherFunc the function signature used by custom matchers"),
            ["callers"]
        );
        assert_eq!(intents("MatcherFunc used by"), ["callers"]);
        assert_eq!(intents("which files include rpn.h"), ["imports"]);
        // "import" after an article is the thing the code handles, not a verb.
        assert_eq!(
            intents("how does a node that represents the import tag work?"),
            ["concept"]
        );
        assert_eq!(intents("how is an import resolved?"), ["concept"]);
        assert_eq!(
            intents("which files import the config module?"),
            ["imports"]
        );
        // The import statement named by its keyword is a cue, not a name.
        assert_eq!(
            intents("where is `semver` used in `use` declarations?"),
            ["imports"]
        );
        assert_eq!(
            intents("which using directives name System.IO?"),
            ["imports"]
        );
        // "modified" as an adjective is no history question.
        assert_eq!(
            intents(
                "where is the code that takes the request and returns a new, modified request?"
            ),
            ["locate"]
        );
        assert_eq!(intents("when was `visit` last modified"), ["history"]);
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
        assert_eq!(
            intents("compare Item.describe and Shelf.describe"),
            ["compare"]
        );
        assert_eq!(intents("how does httpx compare to requests?"), ["compare"]);
        // Comparing things is what the code does here, not what the question does.
        assert_eq!(
            intents("how does packaging compare two versions?"),
            ["concept"]
        );
        assert_eq!(
            intents("how does cli compare strings alphabetically considering case?"),
            ["concept"]
        );
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
