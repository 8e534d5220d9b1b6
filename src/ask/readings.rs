//! How the question's plain words are read against this repository before routing:
//! author names (matched against the repository's own authors, never taken for
//! identifiers), periods in words ("in March 2024", "in 2010"), "when was X added"
//! (the introducing commit) and "why" (commit messages in full). Every reading is kept
//! in `State::readings` and shown in the answer.

use std::time::Instant;

use anyhow::Result;

use super::classify::{Entity, EntityKind, Intent};
use super::pass::is_test_or_example;
use super::{Stage, State};
use crate::history::query as hq;
use crate::store::lookups;

/// Words that only say "a change happened": never the subject of a history question.
const HISTORY_WORDS: &[&str] = &[
    "change",
    "changed",
    "changes",
    "changing",
    "commit",
    "commits",
    "committed",
    "make",
    "made",
    "work",
    "worked",
    "contribute",
    "contributed",
    "contribution",
    "contributions",
    "author",
    "authored",
    "land",
    "landed",
    "touch",
    "touched",
    "show",
    "list",
    "did",
    "done",
    "history",
    "added",
    "introduced",
    "introduce",
    "removed",
    "deleted",
    "dropped",
    "created",
    "written",
    "wrote",
    "happened",
];

/// Reads authors, periods, "introduced" and "why"; narrows the intents to history when
/// the question names an author or a period and no code.
pub fn read(state: &mut State) -> Result<()> {
    let t = Instant::now();
    super::dates(state);
    let lower = state.question.to_lowercase();
    // Authors are looked for in questions about history (or about a period) only.
    let about_history = state.classification.intents.contains(&Intent::History)
        || state.since.is_some()
        || state.until.is_some();
    let author = if about_history {
        author_in(state, &lower)?
    } else {
        None
    };
    if let Some((author, commits, words)) = author {
        state.classification.entities.retain(|e| {
            !(e.kind == EntityKind::Identifier && words.contains(&e.text.to_lowercase()))
        });
        state.terms.retain(|t| !words.contains(&t.to_lowercase()));
        state.readings.push(format!(
            "read `{author}` as an author, of {commits} commit(s)"
        ));
        state.author = Some(author);
    }
    // After the authors: "David Lord" is never corrected into `load`.
    joined_name(state)?;
    spelling(state)?;
    named_alone(state)?;
    let window = state.author.is_some() || state.since.is_some() || state.until.is_some();
    let names_code = state.classification.entities.iter().any(Entity::names_code);
    if window && !names_code {
        state.classification.intents = vec![Intent::History];
        state.classification.confidence = state.classification.confidence.max(0.9);
    } else if state.author.is_some() && !state.classification.intents.contains(&Intent::History) {
        state.classification.intents.push(Intent::History);
    }
    told_by_a_commit(state, &lower)?;
    let history = state.classification.intents.contains(&Intent::History);
    if history {
        state
            .terms
            .retain(|t| !HISTORY_WORDS.contains(&t.to_lowercase().as_str()));
        state.introduced = asks_introduction(&lower);
        state.removed = !state.introduced && asks_removal(&lower);
        state.why = lower.split_whitespace().any(|w| w == "why");
        // "why did X change in \"add typing\"": the commit with that message.
        if let Some(q) = state
            .classification
            .entities
            .iter()
            .find(|e| e.kind == EntityKind::Quoted)
        {
            state.grep = Some(q.text.clone());
            state
                .readings
                .push(format!("read \"{}\" as a commit message", q.text));
        }
        module_over_test_names(state)?;
        if state.introduced {
            let reading = if state.why {
                "read as: why it was introduced (its oldest commit first, with its message)"
            } else {
                "read as: when it was introduced (its oldest commit first)"
            };
            state.readings.push(reading.into());
        }
    }
    if !state.readings.is_empty() {
        let decision = state.readings.join("; ");
        state.record(Stage::Route, t, decision, Vec::new());
    }
    Ok(())
}

/// A name written as words ("when was the mordant help formatter added?" for
/// `MordantHelpFormatter`, "who calls shelf weight" for `shelf_weight`): the longest run of
/// two to four of the question's words that, joined in one of the usual case styles, is a
/// name the repository defines. Only for a question about a name (callers, callees, a
/// definition, imports, history) that names no identifier or path: in a question about
/// how something works, "the progress bar" is a topic, not a lookup of `ProgressBar`
/// (the real set's out-of-scope questions abstain less often otherwise).
///
/// "where is the priority queue implemented?" asks for a definition in words too: a
/// locate question with a definition's verb ([`DEFINITION_WORDS`]) looks for a joined
/// name, and one found makes it a definition question.
fn joined_name(state: &mut State) -> Result<()> {
    let lower = state.question.to_lowercase();
    let asks_definition = state.classification.intents == [Intent::Locate]
        && DEFINITION_WORDS.iter().any(|w| lower.contains(w));
    let about_a_name = asks_definition
        || state
            .classification
            .intents
            .iter()
            .any(|&i| i.is_structural() || i == Intent::History);
    if !about_a_name {
        return Ok(());
    }
    let names_code = state.classification.entities.iter().any(Entity::names_code);
    if names_code {
        return Ok(());
    }
    let words = question_words(&lower);
    let plain = |w: &String| {
        w.chars().all(|c| c.is_ascii_alphanumeric())
            && w.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && !JOIN_STOP.contains(&w.as_str())
            && !HISTORY_WORDS.contains(&w.as_str())
    };
    for len in (2..=4).rev() {
        for run in words.windows(len) {
            if !run.iter().all(plain) {
                continue;
            }
            for name in super::names::joined(run) {
                if !state.memories.read(|c| lookups::is_defined(c, &name))? {
                    continue;
                }
                read_run_as(state, run, &name, "a name this repository defines");
                if asks_definition {
                    state.classification.intents = vec![Intent::Definition];
                }
                return Ok(());
            }
        }
    }
    // "when was line ranges support added?": no definition is named so, but the code
    // writes the words as one name (`line_ranges`, a parameter and an attribute), and
    // that is the subject whose first commit is asked for, not `line` alone (a method
    // elsewhere). A history question reads the longest such run as that name, which
    // git's pickaxe then finds.
    if state.classification.intents.first() != Some(&Intent::History) {
        return Ok(());
    }
    for len in (2..=3).rev() {
        for run in words.windows(len) {
            if !run.iter().all(plain) {
                continue;
            }
            let snake = run.join("_");
            if state.memories.token_doc_freq(&snake)?.unwrap_or(0) == 0 {
                continue;
            }
            read_run_as(state, run, &snake, "a name the code writes");
            return Ok(());
        }
    }
    // "when was the read limit added?" in Go: the code writes `readLimit`, a struct's
    // field, whose lower-cased token no snake_case form meets.
    let runs: Vec<(&[String], String)> = (2..=3)
        .rev()
        .flat_map(|len| words.windows(len))
        .filter(|run| run.iter().all(plain))
        .flat_map(|run| {
            let [pascal, camel, _] = super::names::joined(run);
            [(run, camel), (run, pascal)]
        })
        .collect();
    if runs.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = runs.iter().map(|(_, n)| n.clone()).collect();
    let fields = state.memories.read(|c| lookups::field_names(c, &names))?;
    if let Some((run, name)) = runs.iter().find(|(_, n)| fields.contains(n)) {
        read_run_as(state, run, name, "a field the code declares");
    }
    Ok(())
}

/// Reads the question's words `run` as the identifier `name`: an entity in their place
/// among the terms, and the reading said (`why` the name is one).
fn read_run_as(state: &mut State, run: &[String], name: &str, why: &str) {
    let written = run.join(" ");
    state.terms.retain(|t| !run.contains(&t.to_lowercase()));
    state.classification.entities.push(super::classify::Entity {
        text: name.to_string(),
        kind: EntityKind::Identifier,
    });
    state
        .readings
        .push(format!("read `{written}` as `{name}`, {why}"));
}

/// "what does `Eval.defer` do?", "how does NonEmptyList.fromList work?", "explain
/// `_fetch`": a question about how something works that is only a form around one name the
/// repository defines asks what "what is X?" asks, its definition. Left a concept
/// question, the text retrievers lead and the name's definition loses to chunks that
/// resemble the name (`NonEmptyList.of` above `NonEmptyList.fromList`). A question with
/// words of its own ("how does `Group` look up subcommands?") stays a concept question.
fn named_alone(state: &mut State) -> Result<()> {
    if state.classification.intents != [Intent::Concept] {
        return Ok(());
    }
    let named: Vec<&super::classify::Entity> = state
        .classification
        .entities
        .iter()
        .filter(|e| e.kind != EntityKind::Date)
        .collect();
    let name = match named.as_slice() {
        [entity]
            if entity.kind == EntityKind::Identifier
                && only_a_form_around(&state.question, &entity.text) =>
        {
            entity.text.clone()
        }
        // "how does escape work?": a plain word the form holds alone, when the
        // repository defines it (markupsafe's `escape`), names it as well as backticks.
        [] => {
            let word = super::text::words(&state.question)
                .find(|w| w.len() >= 3 && only_a_form_around(&state.question, w));
            match word {
                Some(w) if w.chars().all(|c| c.is_ascii_lowercase() || c == '_') => w.to_string(),
                _ => return Ok(()),
            }
        }
        _ => return Ok(()),
    };
    if !state.memories.read(|c| lookups::is_defined(c, &name))? {
        return Ok(());
    }
    if !named.iter().any(|e| e.text == name) {
        state.classification.entities.push(super::classify::Entity {
            text: name.clone(),
            kind: EntityKind::Identifier,
        });
    }
    state.classification.intents = vec![Intent::Definition];
    state.readings.push(format!(
        "read as: the definition of `{name}`, which the question names alone"
    ));
    Ok(())
}

/// A history question's name that only tests, examples or benchmarks define, while a
/// module of the implementation is named after it: the question is about the module
/// ("when was the rich integration added?" in tqdm means `tqdm/rich.py`, not the
/// benchmark method `Comparison.rich`). A name the question calls a package or a module
/// ("when was the attrs namespace package added?") is the module or the package's folder
/// whatever else defines the name (attrs's `attrs` function is older than `src/attrs/`).
fn module_over_test_names(state: &mut State) -> Result<()> {
    let names: Vec<String> = state
        .classification
        .identifiers()
        .map(str::to_string)
        .collect();
    for name in names {
        let Some((path, _)) = history_module(state, &name)? else {
            continue;
        };
        for e in &mut state.classification.entities {
            if e.kind == EntityKind::Identifier && e.text == name {
                e.text = path.clone();
                e.kind = EntityKind::Path;
            }
        }
    }
    Ok(())
}

/// The implementation module `name` stands for in a history question, when only tests,
/// examples or benchmarks define `name`; the reading is recorded.
fn module_named(state: &mut State, name: &str) -> Result<Option<String>> {
    if !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return Ok(None);
    }
    let module = state.memories.read(|c| {
        let defined_in = lookups::paths_defining(c, name)?;
        if defined_in.is_empty() || !defined_in.iter().all(|p| is_test_or_example(p)) {
            return Ok(None);
        }
        implementation_module(c, name, |_| true)
    })?;
    if let Some(path) = &module {
        state.readings.push(format!(
            "read `{name}` as the module `{path}` (only tests, examples or benchmarks define `{name}`)"
        ));
    }
    Ok(module)
}

/// The module a history question's `name` stands for, first as [`module_named`] reads it,
/// then as [`module_called_so`] does; with the next word it stands for too ("the fetch
/// adapter").
pub(super) fn history_module(
    state: &mut State,
    name: &str,
) -> Result<Option<(String, Option<String>)>> {
    if let Some(module) = module_named(state, name)? {
        return Ok(Some((module, None)));
    }
    module_called_so(state, name)
}

/// The words that name a definition's kind ("the `Cache` class", "the parse function").
const KIND_WORDS: &[&str] = &[
    "function",
    "method",
    "class",
    "type",
    "struct",
    "trait",
    "interface",
    "module",
    "object",
    "macro",
];

/// The first module named `name` (shortest path first: `tqdm/rich.py`, a package's
/// `rich/__init__.py`) that is code outside tests and examples and that `keep` takes.
fn implementation_module(
    c: &rusqlite::Connection,
    name: &str,
    keep: impl Fn(&str) -> bool,
) -> rusqlite::Result<Option<String>> {
    Ok(lookups::modules_named(c, name)?
        .into_iter()
        .find(|(p, lang)| {
            crate::syntax::lang::Lang::named(lang).is_some() && !is_test_or_example(p) && keep(p)
        })
        .map(|(p, _)| p))
}

/// The question's words, lower-cased: runs of letters, digits and `_`.
fn lower_words(question: &str) -> Vec<String> {
    question
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// The words that call a name a module: "the attrs package", "the `rich` module".
const MODULE_WORDS: &[&str] = &["package", "module", "namespace", "subpackage", "submodule"];

/// Whether `question` calls `name` a module or a package: the name, in backticks or not,
/// followed by one of [`MODULE_WORDS`] (a word between them allowed: "the attrs
/// namespace package"), in any case.
fn called_a_module(question: &str, name: &str) -> bool {
    let (words, name) = (lower_words(question), name.to_lowercase());
    words.iter().enumerate().any(|(i, w)| {
        *w == name
            && words
                .iter()
                .skip(i + 1)
                .take(2)
                .any(|next| MODULE_WORDS.contains(&next.as_str()))
    })
}

/// The module or package's folder a history question's plain word stands for when the
/// question calls it a package or a module ("when was the attrs namespace package
/// added?"), or when the next word names the module's folder ("when was the fetch
/// adapter added?" in axios: `lib/adapters/fetch.js`); with that next word, which the
/// module stands for too. The reading is recorded.
fn module_called_so(state: &mut State, word: &str) -> Result<Option<(String, Option<String>)>> {
    if !word.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return Ok(None);
    }
    if called_a_module(&state.question, word) {
        return Ok(package_named(state, word)?.map(|p| (p, None)));
    }
    let Some(next) = word_after(&state.question, word) else {
        return Ok(None);
    };
    // "the parse function" asks for a definition, whatever folder `functions/` holds.
    const MORE_KINDS: &[&str] = &["enum", "constant", "variable", "field", "property"];
    if next.len() < 3 || KIND_WORDS.contains(&next.as_str()) || MORE_KINDS.contains(&next.as_str())
    {
        return Ok(None);
    }
    // The folder holding the module is named by the next word, or its plural.
    let plurals = [
        format!("{next}s"),
        format!("{next}es"),
        next.strip_suffix('y')
            .map_or_else(String::new, |s| format!("{s}ies")),
    ];
    let in_folder = |path: &str| {
        path.rsplit('/').nth(1).is_some_and(|dir| {
            let dir = dir.to_lowercase();
            dir == next || plurals.contains(&dir)
        })
    };
    let module = state
        .memories
        .read(|c| implementation_module(c, word, in_folder))?;
    let Some(path) = module else {
        return Ok(None);
    };
    state
        .readings
        .push(format!("read `{word} {next}` as the module `{path}`"));
    Ok(Some((path, Some(next))))
}

/// The word after the first `name` in `question` (lower-cased; words are runs of letters,
/// digits and `_`).
fn word_after(question: &str, name: &str) -> Option<String> {
    let name = name.to_lowercase();
    let mut words = lower_words(question).into_iter();
    words.by_ref().find(|w| *w == name)?;
    words.next()
}

/// The implementation module named `name` (`tqdm/rich.py`), or the folder of the package
/// named so (`src/attrs` for `src/attrs/__init__.py`), outside tests and examples; the
/// reading is recorded.
fn package_named(state: &mut State, name: &str) -> Result<Option<String>> {
    let module = state
        .memories
        .read(|c| implementation_module(c, name, |_| true))?;
    let Some(path) = module else {
        return Ok(None);
    };
    // A package's own file stands for its folder: the folder's first commit added it.
    let folder = path.rsplit_once('/').filter(|(dir, file)| {
        let stem = file.split('.').next().unwrap_or(file);
        matches!(stem, "__init__" | "mod" | "index") && dir.rsplit('/').next() == Some(name)
    });
    let path = folder.map_or(path.clone(), |(dir, _)| dir.to_string());
    state.readings.push(format!(
        "read `{name}` as the module `{path}`, which the question calls a package or module"
    ));
    Ok(Some(path))
}

/// "why does fzf use a floating pane instead of a popup on tmux 3.7?": a question about
/// why the code is as it is, naming nothing, whose words a commit's subject states (3 of
/// them or more, and three in five), is asked of the history too, so the commit that made
/// it so answers beside the code; the reading is recorded.
fn told_by_a_commit(state: &mut State, lower: &str) -> Result<()> {
    let intents = &state.classification.intents;
    let names_code = state.classification.entities.iter().any(Entity::names_code);
    if !lower.starts_with("why ")
        || intents.first() != Some(&Intent::Concept)
        || intents.contains(&Intent::History)
        || names_code
    {
        return Ok(());
    }
    let stems: Vec<String> = super::pass::message_words(&state.terms)
        .into_iter()
        .map(|(_, stem)| stem)
        .collect();
    let need = (stems.len() * 3).div_ceil(5).max(3);
    if stems.len() < need {
        return Ok(());
    }
    let filter = hq::LogFilter {
        words: stems.clone(),
        limit: Some(1),
        ..hq::LogFilter::default()
    };
    let log = state
        .memories
        .read(|c| Ok(hq::log(c, &hq::Target::All, &filter)))??;
    if let Some(c) = log.commits.first()
        && hq::subject_holds(c, &stems) >= need
    {
        state.classification.intents.push(Intent::History);
        state.why_by_message = true;
        state.readings.push(format!(
            "read as: why the code is so, also from the history (commit {} says so)",
            c.commit.get(..10).unwrap_or(&c.commit)
        ));
    }
    Ok(())
}

/// The imported packages whose last segment is the plain word `name` (or whose last
/// segments are `name`, two words joined by `/` or `.`), for an imports question that
/// names no definition and no module as written; the reading is recorded.
pub(super) fn packages_ending(state: &mut State, name: &str) -> Result<Vec<String>> {
    let word = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() || c == '_');
    if !name.split(['/', '.']).all(word) {
        return Ok(Vec::new());
    }
    let modules = state
        .memories
        .read(|c| lookups::imported_modules_ending(c, name, 3))?;
    if !modules.is_empty() {
        let list: Vec<String> = modules.iter().map(|m| format!("`{m}`")).collect();
        state.readings.push(format!(
            "read `{name}` as the package {}",
            list.join(" and ")
        ));
    }
    Ok(modules)
}

/// Whether `question` is one of the forms of "what does X do?" around `name` (written
/// plain or in backticks, with an optional "the" before it and a kind after it).
fn only_a_form_around(question: &str, name: &str) -> bool {
    const FORMS: &[(&str, &str)] = &[
        ("what does ", " do"),
        ("how does ", " work"),
        ("explain ", ""),
        ("describe ", ""),
        ("what is ", " for"),
        ("what's ", " for"),
        ("what is the purpose of ", ""),
    ];
    let masked = question
        .replace(&format!("`{name}`"), " \u{0} ")
        .replace(name, " \u{0} ")
        .to_lowercase();
    let q = masked.split_whitespace().collect::<Vec<_>>().join(" ");
    let q = q.trim_end_matches(['?', '.', '!']).trim_end();
    FORMS.iter().any(|(before, after)| {
        q.strip_prefix(before)
            .and_then(|rest| rest.strip_suffix(after))
            .is_some_and(|mid| {
                let mid = mid.strip_prefix("the ").unwrap_or(mid);
                let mid = KIND_WORDS
                    .iter()
                    .find_map(|k| mid.strip_suffix(k)?.strip_suffix(' '))
                    .unwrap_or(mid);
                mid == "\u{0}"
            })
    })
}

/// What a question asking where something is defined says (`where is the X implemented?`).
const DEFINITION_WORDS: &[&str] = &[
    "implemented",
    "implementation of",
    "defined",
    "definition of",
    "declared",
];

/// Words never part of a name written as words: what a question says around the name.
const JOIN_STOP: &[&str] = &[
    "a",
    "an",
    "the",
    "of",
    "in",
    "on",
    "to",
    "for",
    "and",
    "or",
    "is",
    "was",
    "are",
    "were",
    "be",
    "been",
    "what",
    "which",
    "who",
    "whom",
    "where",
    "when",
    "why",
    "how",
    "does",
    "do",
    "calls",
    "call",
    "called",
    "added",
    "introduced",
    "removed",
    "defined",
    "define",
    "function",
    "method",
    "class",
    "file",
    "code",
    "it",
    "its",
    "this",
    "that",
    "by",
    "with",
    "from",
    "first",
    "last",
    "recently",
];

/// Names the index lacks, read as the nearest defined name ("`jsonfy`" as `jsonify`,
/// "Flaks" as `Flask`) when no chunk holds the word as written: the identifiers the
/// question gives and, for a question about names (callers, callees, a definition,
/// imports) that gives none, its plain words.
fn spelling(state: &mut State) -> Result<()> {
    let structural = state
        .classification
        .intents
        .iter()
        .any(|i| i.is_structural());
    let mut asked: Vec<(Option<usize>, String)> = state
        .classification
        .entities
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind == EntityKind::Identifier)
        .map(|(i, e)| (Some(i), e.text.clone()))
        .collect();
    if asked.is_empty() && structural {
        asked = state.terms.iter().map(|t| (None, t.clone())).collect();
    }
    if asked.is_empty() {
        return Ok(());
    }
    let mut vocab: Option<std::sync::Arc<Vec<String>>> = None;
    for (entity, word) in asked {
        if word.chars().count() < 4
            || state.memories.read(|c| lookups::is_defined(c, &word))?
            || state
                .memories
                .unknown_share(&word)?
                .is_none_or(|u| u == 0.0)
        {
            continue;
        }
        if vocab.is_none() {
            vocab = Some(state.memories.vocabulary()?);
        }
        let Some(name) = vocab
            .as_deref()
            .and_then(|v| super::names::nearest_names(&word, v, 1).into_iter().next())
        else {
            continue;
        };
        match entity {
            Some(i) => state.classification.entities[i].text = name.clone(),
            None => {
                state.terms.retain(|t| *t != word);
                state.classification.entities.push(super::classify::Entity {
                    text: name.clone(),
                    kind: EntityKind::Identifier,
                });
            }
        }
        state.readings.push(format!(
            "read `{word}` as `{name}`, a name this repository defines"
        ));
    }
    Ok(())
}

/// The longest author name of the repository the question contains as whole words,
/// with its commit count and its words (lowercase). A name of one word is taken only
/// when the question writes it capitalised ("what did Bob change") and it is not a
/// history word, so that "make" or "work" never become authors.
fn author_in(state: &State, lower: &str) -> Result<Option<(String, u64, Vec<String>)>> {
    let authors = state.memories.read(lookups::authors)?;
    let q: Vec<String> = question_words(lower);
    let capitalised: Vec<String> = question_words(&state.question)
        .into_iter()
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
        .map(|w| w.to_lowercase())
        .collect();
    let mut best: Option<(String, u64, Vec<String>)> = None;
    for (name, commits) in authors {
        let words: Vec<String> = question_words(&name.to_lowercase());
        if words.is_empty() || !contains_run(&q, &words) {
            continue;
        }
        if words.len() == 1
            && (words[0].chars().count() < 3
                || !capitalised.contains(&words[0])
                || HISTORY_WORDS.contains(&words[0].as_str()))
        {
            continue;
        }
        let longer = best.as_ref().is_none_or(|(_, c, w)| {
            words.len() > w.len() || (words.len() == w.len() && commits > *c)
        });
        if longer {
            best = Some((name, commits, words));
        }
    }
    Ok(best)
}

/// The words of a text, possessives dropped ("Lord's" is "lord").
fn question_words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .map(|w| w.trim_matches(|c: char| c == '\'' || c == '-'))
        .map(|w| w.strip_suffix("'s").unwrap_or(w))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether `words` occur in `q` one after the other.
fn contains_run(q: &[String], words: &[String]) -> bool {
    q.windows(words.len()).any(|w| w == words)
}

/// "when was X added", "which commit introduced X", "who wrote X", "why was X added",
/// "first appeared".
fn asks_introduction(lower: &str) -> bool {
    let words = words_of(lower);
    let has = |w: &str| words.contains(&w);
    let introduced = has("introduced") || has("introduce") || has("introducing");
    let added = has("added") || has("created") || has("written") || has("wrote");
    let asks = has("when") || has("which") || has("who") || has("what") || has("why");
    let first = lower.contains("first appear") || lower.contains("first added");
    first || introduced || (added && asks && !has("since") && !has("recently"))
}

/// The words of a question: runs of letters, digits and `_` (an identifier is one word,
/// so `drop_table` is no "drop").
fn words_of(lower: &str) -> Vec<&str> {
    lower
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// "when was X removed", "which commit deleted X", "why was X dropped".
fn asks_removal(lower: &str) -> bool {
    let words = words_of(lower);
    let has = |w: &str| words.contains(&w);
    let removed = ["removed", "deleted", "dropped", "remove", "delete", "drop"]
        .iter()
        .any(|w| has(w));
    let asks = has("when") || has("which") || has("who") || has("why");
    removed && asks && !has("since") && !has("recently")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_removal_is_asked_when_a_question_asks_when_or_which_of_removing() {
        for q in [
            "when was the kapt code generator removed?",
            "which commit deleted the jws module?",
            "why was python 2 support dropped?",
        ] {
            assert!(asks_removal(q), "{q}");
        }
        for q in [
            "what does remove_item do?",
            "who calls drop_table?",
            "what was removed since last week?",
            "when was the remove button added?",
        ] {
            assert!(!asks_removal(q) || asks_introduction(q), "{q}");
        }
    }

    #[test]
    fn a_name_alone_in_a_form_of_what_does_it_do() {
        for (q, name) in [
            ("what does Eval.defer do?", "Eval.defer"),
            (
                "how does NonEmptyList.fromList work?",
                "NonEmptyList.fromList",
            ),
            ("What does the `parse_args` function do?", "parse_args"),
            ("explain `_fetch`", "_fetch"),
            ("what is the purpose of HelpFormatter", "HelpFormatter"),
        ] {
            assert!(only_a_form_around(q, name), "{q}");
        }
        for (q, name) in [
            (
                "how does a `Group` that looks up subcommands on other groups work?",
                "Group",
            ),
            (
                "how does the inferred return type of `produce` work?",
                "produce",
            ),
            ("what does parse_args do with an empty list?", "parse_args"),
            ("how does caching work?", "cache"),
        ] {
            assert!(!only_a_form_around(q, name), "{q}");
        }
    }

    #[test]
    fn a_name_called_a_package_or_a_module() {
        assert!(called_a_module(
            "when was the attrs namespace package added?",
            "attrs"
        ));
        assert!(called_a_module("when was the `rich` module added?", "rich"));
        assert!(called_a_module(
            "when was the Shelves package added?",
            "Shelves"
        ));
        assert!(!called_a_module(
            "when was attrs added to the package?",
            "attrs"
        ));
        assert!(!called_a_module(
            "when was the attrs function added?",
            "attrs"
        ));
        assert!(!called_a_module("when was module attrs added?", "attrs"));
    }

    #[test]
    fn introductions_are_told_from_other_history_questions() {
        for q in [
            "when was `Command.format_help_text` added?",
            "which commit introduced `FloatParamType`?",
            "who wrote parse_args?",
            "when did `Lexer` first appear?",
            "what commit added the retry option?",
            "why was `same_file_system` added?",
        ] {
            assert!(asks_introduction(&q.to_lowercase()), "{q}");
        }
        for q in [
            "what changed in `src/termui.py` recently?",
            "who changed `BytesIOCopy` and when?",
            "what was added since last week?",
            "why did `parse` change?",
        ] {
            assert!(!asks_introduction(&q.to_lowercase()), "{q}");
        }
    }

    #[test]
    fn names_are_matched_as_whole_word_runs() {
        let q = question_words("what did david lord's team change?");
        assert!(contains_run(&q, &question_words("david lord")));
        assert!(!contains_run(&q, &question_words("david lordson")));
        assert!(!contains_run(&q, &question_words("lord david")));
        assert!(contains_run(
            &question_words("what did john t. wodder ii work on?"),
            &question_words(&"John T. Wodder II".to_lowercase())
        ));
    }
}
