//! The answer stage: programmatic first. A structural question is answered exactly
//! from the graph (each call site with its enclosing definition), a history question
//! from commits, others as ranked sources with the lines that matter. When the evidence
//! does not hold, llmc abstains and tells "nothing here matches" apart from "related
//! code found, but not what you asked", with the nearest misses and names to try.

use std::fmt::Write as _;

use super::classify::{EntityKind, Intent};
use super::names::{names_from_words, nearest_names};
use super::retrieve::{GraphFact, HistoryFact};
use super::text::{covered, stems};
use super::{
    AbstainReason, Abstention, AnswerText, Candidate, Freshness, Line, LlmSlot, Outcome, State,
    Status, Synthesized,
};
use crate::graph::{Row, SetAside};
use crate::history::query::LogCommit;
use crate::model::DefKind;
use crate::source::{SourceText, row_text};
use crate::store::lookups;

/// Rows listed per fact before "… and N more".
const ROWS_SHOWN: usize = 20;

/// Builds the outcome from the best pass.
pub fn answer(state: &mut State, k: usize) -> Outcome {
    let Some(best) = state.best.clone() else {
        return abstain(state, Vec::new(), Vec::new(), Vec::new(), k);
    };
    // In a small repository many ordinary words are absent and the signals are thin:
    // abstaining there takes weaker evidence of a question being out of scope.
    let weight = state.memories.absence_weight().unwrap_or(1.0);
    let abstain_below = state.memories.config.ask.abstain_below * weight;
    let mut sources: Vec<Candidate> = best.candidates.iter().take(k).cloned().collect();
    for s in &mut sources {
        s.lines = lines_that_matter(state, s);
    }
    // A question that names a definition the index has is answered with what is known
    // of it (however little: "no proven callers, 1 matched by name only"); abstaining
    // is for questions nothing here answers.
    let named_found = best.graph.iter().any(|f| !f.definitions.is_empty())
        || sources.first().is_some_and(|top| {
            top.loc.symbol.as_deref().is_some_and(|sym| {
                state.classification.entities.iter().any(|e| {
                    e.kind == EntityKind::Identifier
                        && crate::history::query::qualname_matches(sym, &e.text)
                })
            })
        });
    if best.confidence.score < abstain_below && !named_found {
        let mut o = abstain(state, sources, best.graph, best.history, k);
        o.confidence = best.confidence;
        return o;
    }
    let mut kinds: Vec<&str> = Vec::new();
    let mut text = String::new();
    let text_only = state.memories.text_only_share() > 0.0;
    for intent in state.classification.intents.clone() {
        let section = match intent {
            Intent::Callers | Intent::Callees | Intent::Definition | Intent::Imports => {
                let facts: Vec<&GraphFact> =
                    best.graph.iter().filter(|f| f.intent == intent).collect();
                if facts.is_empty() {
                    None
                } else {
                    kinds.push("graph");
                    Some(
                        facts
                            .iter()
                            .map(|f| graph_text(f, &mut state.text, text_only))
                            .collect::<String>(),
                    )
                }
            }
            Intent::Compare => {
                let defs: Vec<&GraphFact> = best
                    .graph
                    .iter()
                    .filter(|f| f.intent == Intent::Definition && !f.definitions.is_empty())
                    .collect();
                if defs.len() < 2 {
                    None
                } else {
                    kinds.push("graph");
                    Some(compare_text(state, &defs))
                }
            }
            Intent::History => {
                let facts: Vec<&HistoryFact> = best.history.iter().collect();
                if facts.is_empty() {
                    None
                } else {
                    kinds.push("history");
                    let why = state.why;
                    Some(
                        facts
                            .iter()
                            .map(|h| history_text(h, why))
                            .collect::<String>(),
                    )
                }
            }
            _ => None,
        };
        match section {
            Some(s) if !text.contains(&s) => {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&s);
            }
            Some(_) => {}
            None if !kinds.contains(&"sources") => {
                kinds.push("sources");
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&sources_text(&sources));
            }
            None => {}
        }
    }
    kinds.dedup();
    Outcome {
        question: state.question.clone(),
        readings: state.readings.clone(),
        status: Status::Answered,
        intents: state.classification.intents.clone(),
        entities: state.classification.entities.clone(),
        answer: Some(AnswerText {
            kind: kinds.join("+"),
            text: text.trim_end().to_string(),
            synthesis: None,
        }),
        sources,
        graph: best.graph,
        history: best.history,
        confidence: best.confidence,
        abstention: None,
        refine: state.attempts.clone(),
        warnings: Vec::new(),
        freshness: Freshness::default(),
        cached: false,
        trace: Vec::new(),
    }
}

/// A graph answer: what the target is, then its rows, each with the line it stands on.
/// `text_only`: some files are read as text only (no grammar in this build), so a name
/// defined in none of the parsed files may be defined there.
fn graph_text(f: &GraphFact, text: &mut SourceText, text_only: bool) -> String {
    let mut s = String::new();
    let mut code = |r: &Row| code_of(text, &r.path, r.line);
    let defs: Vec<String> = f
        .definitions
        .iter()
        .map(|d| {
            if d.kind == DefKind::File {
                d.path.clone()
            } else if d.kind == DefKind::Package {
                format!("the package `{}`", d.symbol)
            } else if d.kind == DefKind::External && text_only {
                format!(
                    "`{}` (defined in none of the files this build parses: maybe in those \
                     it reads as text only, or a builtin or a library's name)",
                    d.symbol
                )
            } else if d.kind == DefKind::External {
                format!(
                    "`{}` (defined outside this repository: a builtin or a library's name)",
                    d.symbol
                )
            } else {
                format!(
                    "{} ({} at {}:{}-{})",
                    d.symbol, d.kind, d.path, d.line, d.end_line
                )
            }
        })
        .collect();
    let what = if defs.len() == 1 {
        defs[0].clone()
    } else {
        format!("`{}` ({} definitions)", f.target, defs.len())
    };
    // The rows there are in all: a list longer than an answer holds was cut, and says how
    // to see the rest.
    let total = f.total.max(f.rows.len());
    let relation = match f.intent {
        Intent::Callers => "callers",
        Intent::Callees => "callees",
        Intent::Imports if f.importers => "importers",
        _ => "imports",
    };
    let more = |n: usize| {
        if n > ROWS_SHOWN {
            format!(
                "  … and {} more: llmc graph {relation} {} --limit {n}\n",
                n - ROWS_SHOWN,
                f.target
            )
        } else {
            String::new()
        }
    };
    match f.intent {
        Intent::Callers
            if f.rows.is_empty()
                && f.references.is_empty()
                && f.through_trait.is_empty()
                && f.set_aside == SetAside::default() =>
        {
            let _ = writeln!(
                s,
                "{what} is not called anywhere in the repository (an entry point, called only \
                 from outside, or unused)."
            );
        }
        Intent::Callers => {
            if f.rows.is_empty() && !(f.references.is_empty() && f.through_trait.is_empty()) {
                let _ = writeln!(s, "{what} is not called directly.");
            } else if f.rows.is_empty() {
                let _ = writeln!(s, "No call of {what} is proven.");
            } else {
                let _ = writeln!(
                    s,
                    "{what} is called from {total} place(s){}:",
                    provenance(&f.rows)
                );
            }
            for r in f.rows.iter().take(ROWS_SHOWN) {
                let through = r
                    .through
                    .as_ref()
                    .map(|m| format!(" (through {m})"))
                    .unwrap_or_default();
                let _ = writeln!(
                    s,
                    "  {}:{}  in {}{through}{}{}",
                    r.path,
                    r.line,
                    r.symbol,
                    precise_mark(&f.rows, r),
                    code(r)
                );
            }
            s.push_str(&more(total));
            // Rows listed apart from the callers, each with what it is.
            let mut apart = |header: String, rows: &[Row], label: &dyn Fn(&Row) -> String| {
                if rows.is_empty() {
                    return;
                }
                let _ = writeln!(s, "{header}");
                for r in rows.iter().take(ROWS_SHOWN) {
                    let _ = writeln!(
                        s,
                        "  {}:{}  in {} ({}){}",
                        r.path,
                        r.line,
                        r.symbol,
                        label(r),
                        code(r)
                    );
                }
                if rows.len() > ROWS_SHOWN {
                    let _ = writeln!(s, "  … and {} more", rows.len() - ROWS_SHOWN);
                }
            };
            apart(
                format!(
                    "Called through the trait or interface method it implements in {} place(s) \
                     (dispatch may reach this implementation or another):",
                    f.through_trait.len()
                ),
                &f.through_trait,
                &|r| format!("through {}", r.target_symbol()),
            );
            let heading = crate::graph::references_heading(&f.references);
            apart(
                format!(
                    "{}{} ({} place(s)):",
                    heading[..1].to_uppercase(),
                    &heading[1..],
                    f.references.len()
                ),
                &f.references,
                &|r| r.usage.label().to_string(),
            );
            s.push_str(&set_aside_text(&f.target, f.set_aside));
        }
        Intent::Callees if f.rows.is_empty() && f.nested.is_empty() => {
            let _ = writeln!(s, "{what} calls nothing.");
        }
        Intent::Callees => {
            let (rows, nested) = if f.rows.is_empty() {
                (&f.nested, true)
            } else {
                (&f.rows, false)
            };
            if nested {
                let mut inner: Vec<&str> = Vec::new();
                for r in rows {
                    if !inner.contains(&r.target_symbol()) {
                        inner.push(r.target_symbol());
                    }
                }
                let _ = writeln!(
                    s,
                    "{what} makes no call itself; the function(s) defined in it ({}) make {} \
                     call(s){}:",
                    inner
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    rows.len(),
                    provenance(rows)
                );
            } else {
                let _ = writeln!(s, "{what} makes {total} call(s){}:", provenance(rows));
            }
            for r in rows.iter().take(ROWS_SHOWN) {
                let at = r
                    .defined_at
                    .as_deref()
                    .map_or_else(|| format!(" ({})", r.resolution), |d| format!(" → {d}"));
                let mark = precise_mark(rows, r);
                let _ = writeln!(
                    s,
                    "  {}:{}  {}{at}{mark}{}",
                    r.path,
                    r.line,
                    r.symbol,
                    code(r)
                );
            }
            s.push_str(&more(if nested { rows.len() } else { total }));
        }
        // A file, a package, or a name a file defines that import lines name.
        Intent::Imports
            if f.importers
                && (!f.rows.is_empty()
                    || f.definitions
                        .iter()
                        .any(|d| matches!(d.kind, DefKind::File | DefKind::Package))) =>
        {
            let files: std::collections::BTreeSet<&str> =
                f.rows.iter().map(|r| r.path.as_str()).collect();
            let in_files = if total > f.rows.len() {
                format!("in {} file(s) or more", files.len())
            } else {
                format!("in {} file(s)", files.len())
            };
            let _ = writeln!(s, "{what} is imported by {total} line(s) {in_files}:");
            for r in f.rows.iter().take(ROWS_SHOWN) {
                let _ = writeln!(s, "  {}:{}  {}{}", r.path, r.line, r.symbol, code(r));
            }
            s.push_str(&more(total));
        }
        Intent::Imports if f.definitions.iter().any(|d| d.kind == DefKind::File) => {
            let _ = writeln!(s, "{what}: {total} import line(s):");
            for r in f.rows.iter().take(ROWS_SHOWN) {
                let _ = writeln!(s, "  {}:{}  {}{}", r.path, r.line, r.symbol, code(r));
            }
            s.push_str(&more(total));
        }
        _ => {
            for d in &f.definitions {
                let _ = writeln!(
                    s,
                    "{} is a {} defined at {}:{}-{}",
                    d.symbol, d.kind, d.path, d.line, d.end_line
                );
            }
        }
    }
    s
}

/// When a SCIP index decided some of the edges: how many are `precise` and how many are
/// llmc's own (heuristic); nothing otherwise (every edge is then heuristic).
fn provenance(rows: &[Row]) -> String {
    let precise = rows
        .iter()
        .filter(|r| r.resolution == crate::model::Resolution::Precise)
        .count();
    if precise == 0 {
        return String::new();
    }
    format!(
        " ({precise} precise from a SCIP index, {} heuristic)",
        rows.len() - precise
    )
}

/// ` [precise]` or ` [heuristic]` on a row, when the answer mixes SCIP edges in.
fn precise_mark(rows: &[Row], r: &Row) -> String {
    if rows
        .iter()
        .any(|r| r.resolution == crate::model::Resolution::Precise)
    {
        format!(" [{}]", r.resolution.provenance())
    } else {
        String::new()
    }
}

/// The call sites a callers answer does not list, said so that "none proven" is never
/// read as "not called".
fn set_aside_text(target: &str, aside: SetAside) -> String {
    let name = target.rsplit(['.', ':']).next().unwrap_or(target);
    let s = |n: usize| if n == 1 { "" } else { "s" };
    let them = |n: usize| if n == 1 { "it" } else { "them" };
    let mut out = String::new();
    if aside.unresolved > 0 {
        let n = aside.unresolved;
        let _ = writeln!(
            out,
            "  Not counted: {n} call site{} named `{name}` whose receiver could not be typed \
             (`llmc graph callers {target} --resolution unresolved` lists {}).",
            s(n),
            them(n)
        );
    }
    if aside.name_only > 0 {
        let n = aside.name_only;
        let _ = writeln!(
            out,
            "  Not counted: {n} possible call site{} matched by name only \
             (`llmc graph callers {target} --resolution name-only` lists {}).",
            s(n),
            them(n)
        );
    }
    out
}

/// Both sides of a comparison: what each is, where, and its first line.
fn compare_text(state: &mut State, facts: &[&GraphFact]) -> String {
    let names: Vec<String> = facts.iter().map(|f| format!("`{}`", f.target)).collect();
    let mut s = format!("Comparing {}:\n", names.join(" and "));
    for f in facts {
        for d in f.definitions.iter().take(3) {
            let _ = writeln!(
                s,
                "  {} — {} at {}:{}-{} ({} lines)",
                d.symbol,
                d.kind,
                d.path,
                d.line,
                d.end_line,
                d.end_line.saturating_sub(d.line) + 1
            );
            if let Some(first) = state.text.lines(&d.path, d.line, d.line).first() {
                let _ = writeln!(s, "      {}", clip(first.trim()));
            }
        }
    }
    s
}

/// Commits listed per history fact.
const COMMITS_SHOWN: usize = 10;

fn history_text(h: &HistoryFact, why: bool) -> String {
    let mut s = String::new();
    let what = if h.target == "*" {
        "the repository".to_string()
    } else {
        format!("`{}`", h.target)
    };
    let mut window = String::new();
    if let Some(a) = &h.author {
        let _ = write!(window, " by {a}");
    }
    match (&h.since, &h.until) {
        (Some(a), Some(b)) => {
            let _ = write!(window, " from {a} to {b}");
        }
        (Some(a), None) => {
            let _ = write!(window, " since {a}");
        }
        (None, Some(b)) => {
            let _ = write!(window, " until {b}");
        }
        (None, None) => {}
    }
    let total = h.total.max(h.commits.len());
    if h.commits.is_empty() {
        let _ = writeln!(s, "No commit touched {what}{window}.");
        return s;
    }
    if h.oldest_first && !h.message_words.is_empty() && h.target != "*" {
        // `retrieve::introduced_first`: the oldest commit whose message names what the
        // question asks about, or whose changes add it, then the target's log from its
        // start.
        let words = h.message_words.join(", ");
        let _ = match &h.added_name {
            Some(n) => writeln!(
                s,
                "The oldest commit of {what}{window} whose changes add `{n}` to it is {}",
                commit_line_words(&h.commits[0])
            ),
            None => writeln!(
                s,
                "The oldest commit of {what}{window} whose message holds words of the \
                 question ({words}) is {}",
                commit_line_words(&h.commits[0])
            ),
        };
        if let Some(note) = &h.partial {
            let _ = writeln!(s, "({note}: an older one may not be read yet)");
        }
        if total > 1 {
            let _ = writeln!(
                s,
                "{total} commit(s) touched {what}{window}; that one first, then oldest first:"
            );
        }
    } else if !h.message_words.is_empty() && h.target != "*" {
        let _ = writeln!(
            s,
            "{total} commit(s) touched {what}{window}; those whose subject holds words of the \
             question ({}) first:",
            h.message_words.join(", ")
        );
    } else if !h.message_words.is_empty() {
        let _ = writeln!(
            s,
            "{total} commit(s){window} whose message holds words of the question ({}), best \
             match first:",
            h.message_words.join(", ")
        );
    } else if let (true, Some(note)) = (h.oldest_first, &h.partial) {
        let c = &h.commits[0];
        let _ = writeln!(
            s,
            "{what}'s oldest commit in the history read so far is {}",
            commit_line_words(c)
        );
        let _ = writeln!(s, "({note}: the commit that introduced it may be older)");
        if total > 1 {
            let _ = writeln!(s, "{total} commit(s) touched it{window}, oldest first:");
        }
    } else if h.oldest_first {
        let c = &h.commits[0];
        let _ = writeln!(s, "{what} was introduced in {}", commit_line_words(c));
        if h.pickaxe {
            let _ = writeln!(
                s,
                "(no definition or file is named so: the commits whose changes add or remove \
                 the text, as `git log -S{}` finds)",
                shell_word(&h.target)
            );
            if total > 1 {
                let _ = writeln!(
                    s,
                    "{total} commit(s) added or removed it{window}, oldest first:"
                );
            }
        } else if total > 1 {
            let _ = writeln!(s, "{total} commit(s) touched it{window}, oldest first:");
        }
    } else {
        let _ = writeln!(s, "{total} commit(s) touched {what}{window}, newest first:");
    }
    for c in h.commits.iter().take(COMMITS_SHOWN) {
        let _ = writeln!(s, "  {}", commit_line(c));
        if why {
            for line in c
                .body
                .lines()
                .map(str::trim_end)
                .filter(|l| !l.trim().is_empty())
                .take(6)
            {
                let _ = writeln!(s, "      {}", clip(line.trim()));
            }
        }
    }
    let shown = h.commits.len().min(COMMITS_SHOWN);
    if total > shown {
        let _ = writeln!(
            s,
            "  … and {} more: {}",
            total - shown,
            log_command(h, total)
        );
    }
    s
}

/// The command that lists every commit of a history fact: `llmc log`, or `git log -S`
/// for text the history knows as no definition or file.
fn log_command(h: &HistoryFact, total: usize) -> String {
    if h.pickaxe {
        return format!(
            "git log -S{} --reverse{}",
            shell_word(&h.target),
            window_options(h)
        );
    }
    let mut cmd = String::from("llmc log");
    if h.target != "*" {
        let _ = write!(cmd, " {}", shell_word(&h.target));
    }
    cmd.push_str(&window_options(h));
    if h.oldest_first {
        cmd.push_str(" --reverse");
    }
    let _ = write!(cmd, " -n {total}");
    cmd
}

/// ` --author A --since D --until D`, as far as a history fact has them (`llmc log` and
/// `git log` spell them alike).
fn window_options(h: &HistoryFact) -> String {
    let mut s = String::new();
    if let Some(a) = &h.author {
        let _ = write!(s, " --author {}", shell_word(a));
    }
    if let Some(d) = &h.since {
        let _ = write!(s, " --since {d}");
    }
    if let Some(d) = &h.until {
        let _ = write!(s, " --until {d}");
    }
    s
}

/// A word as a POSIX shell reads it back: quoted unless it is plain.
fn shell_word(w: &str) -> String {
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:@".contains(c))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// `abc1234567 2024-03-01 Ann: subject`
fn commit_line(c: &LogCommit) -> String {
    format!(
        "{} {} {}: {}",
        short(&c.commit),
        day(&c.date),
        c.author,
        c.subject
    )
}

/// `abc1234567 on 2024-03-01 by Ann: subject`
fn commit_line_words(c: &LogCommit) -> String {
    format!(
        "{} on {} by {}: {}",
        short(&c.commit),
        day(&c.date),
        c.author,
        c.subject
    )
}

fn short(commit: &str) -> String {
    commit.chars().take(10).collect()
}

fn day(date: &str) -> String {
    date.chars().take(10).collect()
}

fn sources_text(sources: &[Candidate]) -> String {
    let mut s = String::new();
    if let Some(best) = sources.first() {
        let _ = writeln!(
            s,
            "Best match: {}:{}-{}{}",
            best.loc.path,
            best.loc.start_line,
            best.loc.end_line,
            best.loc
                .symbol
                .as_deref()
                .map(|x| format!("  {x} ({})", best.loc.kind))
                .unwrap_or_default()
        );
        for l in &best.lines {
            let _ = writeln!(s, "  {:>5} | {}", l.line, l.text.trim_end());
        }
    }
    s
}

/// Up to three lines of a source that hold the question's words (else its first line).
fn lines_that_matter(state: &mut State, c: &Candidate) -> Vec<Line> {
    let mut words: Vec<String> = state
        .classification
        .entities
        .iter()
        .filter(|e| e.kind != EntityKind::Date)
        .map(|e| {
            e.text
                .rsplit(['.', ':'])
                .next()
                .unwrap_or(&e.text)
                .to_string()
        })
        .collect();
    words.extend(state.terms.iter().cloned());
    let lines: Vec<String> = state
        .text
        .lines(&c.loc.path, c.loc.start_line, c.loc.end_line)
        .to_vec();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if out.len() >= 3 {
            break;
        }
        let s = stems(l);
        if words.iter().any(|w| covered(w, &s)) {
            out.push(Line {
                line: c.loc.start_line + i as u32,
                text: clip(l),
            });
        }
    }
    if out.is_empty()
        && let Some(l) = lines.first()
    {
        out.push(Line {
            line: c.loc.start_line,
            text: clip(l),
        });
    }
    out
}

/// `  | code` for a row: the line it stands on, trimmed and clipped, as `rg` shows it.
fn code_of(text: &mut SourceText, path: &str, line: u32) -> String {
    match text
        .lines(path, line, line)
        .first()
        .map(|l| row_text(l, 100))
    {
        Some(l) if !l.is_empty() => format!("  | {l}"),
        _ => String::new(),
    }
}

fn clip(l: &str) -> String {
    if l.chars().count() > 160 {
        l.chars().take(157).collect::<String>() + "..."
    } else {
        l.to_string()
    }
}

/// For a question to the code graph (callers, callees, a definition; an import names a
/// module, not a definition) that names an identifier no definition of the index has, what to say instead of "not what you
/// asked": that it is defined nowhere, and when the history removed or last changed it.
fn undefined_name(state: &mut State) -> Option<String> {
    let graph = state
        .classification
        .intents
        .iter()
        .any(|i| matches!(i, Intent::Callers | Intent::Callees | Intent::Definition));
    if !graph {
        return None;
    }
    let name = state
        .classification
        .entities
        .iter()
        .find(|e| e.kind == EntityKind::Identifier)?
        .text
        .clone();
    let bare = name.rsplit(['.', ':']).next().unwrap_or(&name).to_string();
    if state
        .memories
        .read(|c| lookups::is_defined(c, &bare))
        .ok()?
    {
        return None;
    }
    let mut message = format!("No definition named `{bare}` in this repository's code.");
    let last = state
        .memories
        .read(|c| lookups::last_touch(c, &bare))
        .ok()
        .flatten();
    if let Some((hash, date, subject, change)) = last {
        let short: String = hash.chars().take(10).collect();
        let day: String = date.chars().take(10).collect();
        let how = if change == "deleted" {
            "removed it"
        } else {
            "last changed it"
        };
        message.push_str(&format!(
            " The history knows it: {short} ({day}, \"{}\") {how}.",
            clip(&subject)
        ));
    }
    Some(message)
}

fn abstain(
    state: &mut State,
    nearest: Vec<Candidate>,
    graph: Vec<GraphFact>,
    history: Vec<HistoryFact>,
    k: usize,
) -> Outcome {
    // Does anything in the repository hold the question's words at all?
    let mut words: Vec<String> = state
        .classification
        .entities
        .iter()
        .filter(|e| e.kind != EntityKind::Date)
        .map(|e| e.text.clone())
        .collect();
    words.extend(state.terms.iter().cloned());
    let mut any = false;
    for c in nearest.iter().take(k) {
        let mut s = stems(
            &state
                .text
                .text(&c.loc.path, c.loc.start_line, c.loc.end_line),
        );
        s.extend(stems(&c.loc.path));
        if words.iter().any(|w| covered(w, &s)) {
            any = true;
            break;
        }
    }
    let vocab = state.memories.vocabulary().unwrap_or_default();
    let mut try_identifiers: Vec<String> = Vec::new();
    for e in &state.classification.entities {
        if e.kind == EntityKind::Identifier {
            try_identifiers.extend(nearest_names(&e.text, &vocab, 3));
        }
    }
    for n in names_from_words(&state.terms, &vocab, 5) {
        if !try_identifiers.contains(&n) {
            try_identifiers.push(n);
        }
    }
    try_identifiers.truncate(5);
    let undefined = undefined_name(state);
    let (reason, message) = if let Some(message) = undefined {
        (AbstainReason::NotDefined, message)
    } else if any {
        (
            AbstainReason::OffTarget,
            "Related code was found, but not what you asked: the evidence does not answer the question.".to_string(),
        )
    } else {
        (
            AbstainReason::NoMatch,
            "Nothing in this repository matches the question.".to_string(),
        )
    };
    let nearest: Vec<Candidate> = nearest.into_iter().take(3).collect();
    Outcome {
        question: state.question.clone(),
        readings: state.readings.clone(),
        status: Status::Abstained,
        intents: state.classification.intents.clone(),
        entities: state.classification.entities.clone(),
        answer: None,
        sources: Vec::new(),
        graph,
        history,
        confidence: super::verify::unverified(),
        abstention: Some(Abstention {
            reason,
            message,
            nearest,
            try_identifiers,
        }),
        refine: state.attempts.clone(),
        warnings: Vec::new(),
        freshness: Freshness::default(),
        cached: false,
        trace: Vec::new(),
    }
}

/// With an LLM configured: a short answer over the sources that cites them, checked
/// against them. A failed check is kept and flagged; a failed call leaves the
/// programmatic answer alone, with a warning.
pub fn synthesize(state: &mut State, outcome: &mut Outcome, slot: &mut LlmSlot) {
    if slot.get().is_none() {
        return;
    }
    let mut sources = Vec::new();
    // The exact answer from the graph or the history is the first source.
    if let Some(a) = &outcome.answer
        && a.kind != "sources"
    {
        sources.push(crate::llm::Source {
            n: 1,
            path: "(index)".into(),
            start_line: 0,
            end_line: 0,
            symbol: Some(a.kind.clone()),
            text: a.text.clone(),
        });
    }
    for c in &outcome.sources {
        let text = state
            .text
            .text(&c.loc.path, c.loc.start_line, c.loc.end_line);
        sources.push(crate::llm::Source {
            n: sources.len() + 1,
            path: c.loc.path.clone(),
            start_line: c.loc.start_line,
            end_line: c.loc.end_line,
            symbol: c.loc.symbol.clone(),
            text,
        });
    }
    let question = state.question.clone();
    let Some((model, result)) = slot.with(|llm, budget| {
        (
            llm.name(),
            crate::llm::synthesize(llm, budget, &question, &sources),
        )
    }) else {
        return;
    };
    match result {
        Ok(s) => {
            if let Some(a) = outcome.answer.as_mut() {
                a.synthesis = Some(Synthesized {
                    model,
                    text: s.text,
                    cited: s.cited,
                    grounded: s.grounded,
                    problems: s.problems,
                    calls: s.calls,
                });
            }
        }
        Err(e) => slot.failed("synthesis", &e),
    }
}
