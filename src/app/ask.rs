//! `llmc ask`: resolves the arguments, asks through `ask::ask_fresh` (which makes sure
//! the index is there and fresh), prints the answer.

use std::fmt::Write as _;

use anyhow::Result;

use super::pages::{self, Next};
use super::style::Style;
use super::{Ctx, fixed, json_text, print_json, print_out};
use crate::ask::fresh::{Fresh, Notice};
use crate::ask::{self, AskRequest, Outcome, Status};
use crate::budget::{JsonPages, Shape};
use crate::cli::AskArgs;
use crate::error::{Exit, LlmcError};
use crate::progress::{Bar, Progress};

/// Answers one question and prints it; exit code 1 when llmc abstains.
pub fn cmd_ask(ctx: &Ctx, args: &AskArgs) -> Result<Exit> {
    let question = args.question.join(" ");
    if question.trim().is_empty() {
        return Err(LlmcError::Config(
            "the question is empty: llmc ask \"who calls main?\"".into(),
        )
        .into());
    }
    let req = AskRequest {
        question,
        k: args.k,
        no_cache: args.no_cache,
        no_llm: args.no_llm,
        scope: llmc_scope(ctx, args),
    };
    let progress = || bar(ctx, !args.json);
    let say = |n: Notice| notice(ctx, n);
    let fresh = Fresh {
        refresh: !args.no_refresh,
        progress: &progress,
        say: &say,
    };
    let outcome = ask::ask_fresh(&ctx.root, &ctx.config, &req, &fresh)?;
    // A history read in part goes on in the background, so the next answer reaches
    // further back.
    super::index::continue_if_partial(ctx);
    if let Some(max) = args.max_tokens {
        if !args.json {
            for w in &outcome.warnings {
                ctx.warn(w);
            }
        }
        print_budgeted(ctx, args, &outcome, max)?;
    } else if args.json {
        print_json(serde_json::to_value(&outcome)?)?;
    } else {
        for w in &outcome.warnings {
            ctx.warn(w);
        }
        print_out(&render(&outcome, args.trace, ctx.out))?;
        if ctx.verbose {
            for t in &outcome.trace {
                ctx.detail(&format!("{}: {:.2} ms", t.stage, t.ms));
            }
        }
    }
    Ok(if outcome.status == Status::Answered {
        Exit::Ok
    } else {
        Exit::NotFound
    })
}

/// The `--max-tokens` output: the answer's head, the lines, rows and sources that fit from
/// `--offset`, and the manifest.
fn print_budgeted(ctx: &Ctx, args: &AskArgs, outcome: &Outcome, max: usize) -> Result<()> {
    let next = |offset: usize| next_command(args, offset, max);
    let next_json = |offset: usize, max: usize| next_command(args, offset, max);
    let fitted = if args.json {
        pages::json_page(
            json_pages(outcome, args.trace)?,
            max,
            args.offset,
            None,
            &Next::Command(&next_json),
            &|_, _| {},
            &json_text,
        )
    } else {
        let lines = answer_lines(outcome);
        let nearest: &[ask::Candidate] = outcome
            .abstention
            .as_ref()
            .map_or(&[], |a| a.nearest.as_slice());
        let trace: &[ask::StageTrace] = if args.trace { &outcome.trace } else { &[] };
        let style = ctx.out;
        pages::human_page(
            vec![
                lines.len(),
                nearest.len(),
                outcome.sources.len(),
                trace.len(),
            ],
            &["answer lines", "nearest", "sources", "trace stages"],
            max,
            args.offset,
            None,
            &next,
            &mut |w| {
                let mut page = outcome.clone();
                if let Some(a) = &mut page.answer {
                    a.text = lines.get(w.range(0)).unwrap_or_default().concat();
                }
                if let Some(ab) = &mut page.abstention {
                    ab.nearest = nearest.get(w.range(1)).unwrap_or_default().to_vec();
                }
                page.sources = outcome.sources.get(w.range(2)).unwrap_or_default().to_vec();
                page.trace = trace.get(w.range(3)).unwrap_or_default().to_vec();
                let first = w.range(2).start;
                render_from(&page, !page.trace.is_empty(), style, first)
            },
        )
    };
    print_out(&fitted.text)
}

/// The answer's text as lines, each with its line break.
fn answer_lines(o: &Outcome) -> Vec<&str> {
    o.answer
        .as_ref()
        .map(|a| a.text.split_inclusive('\n').collect())
        .unwrap_or_default()
}

/// An outcome's JSON (`--json`'s document) paged through its lists, in this order: the
/// answer's text by lines, each graph fact's definitions, rows, references and calls
/// through a trait, each history fact's commits, the abstention's nearest misses, the
/// sources, the refine attempts, and the trace (only with `trace`; without, the trace is
/// left out of the document).
pub fn json_pages(o: &Outcome, trace: bool) -> Result<JsonPages> {
    let (doc, lists) = json_lists(o, trace)?;
    Ok(JsonPages::new(doc, lists))
}

/// [`json_pages`]' document and lists.
pub fn json_lists(o: &Outcome, trace: bool) -> Result<(serde_json::Value, pages::Lists)> {
    let mut doc = serde_json::to_value(o)?;
    if !trace && let serde_json::Value::Object(m) = &mut doc {
        m.remove("trace");
    }
    let mut lists = vec![pages::list("answer", "/answer/text", Shape::Lines)];
    for i in 0..o.graph.len() {
        for field in ["definitions", "rows", "references", "through_trait"] {
            lists.push(pages::list(
                &format!("graph[{i}].{field}"),
                &format!("/graph/{i}/{field}"),
                Shape::Array,
            ));
        }
    }
    for i in 0..o.history.len() {
        lists.push(pages::list(
            &format!("history[{i}].commits"),
            &format!("/history/{i}/commits"),
            Shape::Array,
        ));
    }
    lists.push(pages::list(
        "abstention.nearest",
        "/abstention/nearest",
        Shape::Array,
    ));
    lists.push(pages::list("sources", "/sources", Shape::Array));
    lists.push(pages::list("refine", "/refine", Shape::Array));
    if trace {
        lists.push(pages::list("trace", "/trace", Shape::Array));
    }
    Ok((doc, lists))
}

/// The command line of the page that starts at `offset`.
fn next_command(args: &AskArgs, offset: usize, max_tokens: usize) -> String {
    let mut w: Vec<String> = vec!["llmc".into(), "ask".into()];
    if let Some(k) = args.k {
        w.extend(["-k".into(), k.to_string()]);
    }
    for (flag, on) in [
        ("--trace", args.trace),
        ("--no-refresh", args.no_refresh),
        ("--no-cache", args.no_cache),
        ("--no-llm", args.no_llm),
        ("--no-tests", args.no_tests),
        ("--json", args.json),
    ] {
        if on {
            w.push(flag.into());
        }
    }
    if let Some(p) = &args.path {
        w.extend(["--path".into(), p.clone()]);
    }
    if let Some(l) = &args.lang {
        w.extend(["--lang".into(), l.clone()]);
    }
    w.extend(["--max-tokens".into(), max_tokens.to_string()]);
    w.extend(["--offset".into(), offset.to_string()]);
    let question = args.question.join(" ");
    if question.starts_with('-') {
        w.push("--".into());
    }
    w.push(question);
    pages::command_line(&w)
}

/// The progress bar of an index run made before answering (drawn on a terminal, unless
/// quiet or `visible` is false).
pub fn bar<'a>(ctx: &Ctx, visible: bool) -> Box<dyn Progress + 'a> {
    Box::new(Bar::new(!ctx.quiet && visible, !ctx.quiet))
}

/// Says what the library reports on the way (a note, or a warning).
pub fn notice(ctx: &Ctx, n: Notice) {
    match n {
        Notice::Note(m) => ctx.note(&m),
        Notice::Warn(m) => ctx.warn(&m),
    }
}

/// The human rendering.
pub fn render(o: &Outcome, trace: bool, style: Style) -> String {
    render_from(o, trace, style, 0)
}

/// [`render`], the sources numbered from `first + 1` (a later page's).
fn render_from(o: &Outcome, trace: bool, style: Style, first: usize) -> String {
    let mut s = String::new();
    for r in &o.readings {
        let _ = writeln!(s, "{}", style.dim(&format!("({r})")));
    }
    if !o.readings.is_empty() {
        s.push('\n');
    }
    if let Some(a) = &o.answer {
        if let Some(syn) = &a.synthesis {
            let _ = writeln!(s, "{}", syn.text.trim_end());
            if !syn.grounded {
                let _ = writeln!(
                    s,
                    "\n{} ({}): trust the sources below, not the prose.",
                    style.warn("[!] This answer failed the grounding check"),
                    syn.problems.join("; ")
                );
            }
            let _ = writeln!(s, "\n{}", style.header("From the index:"));
        }
        let _ = writeln!(s, "{}", a.text);
    }
    if let Some(ab) = &o.abstention {
        let _ = writeln!(s, "{} {}", style.warn("Not answered."), ab.message);
        if !ab.nearest.is_empty() {
            let _ = writeln!(s, "\n{}", style.header("Nearest:"));
            for c in &ab.nearest {
                let _ = writeln!(s, "  {}", source_line(c, style));
            }
        }
        if !ab.try_identifiers.is_empty() {
            let _ = writeln!(s, "\nTry asking about: {}", ab.try_identifiers.join(", "));
        }
    }
    if !o.sources.is_empty() {
        let _ = writeln!(s, "\n{}", style.header("Sources:"));
        for (i, c) in o.sources.iter().enumerate() {
            let routes: Vec<String> = c
                .evidence
                .iter()
                .map(|e| format!("{}#{}", e.route, e.rank))
                .collect();
            let _ = writeln!(
                s,
                "  [{}] {}  {}",
                first + i + 1,
                source_line(c, style),
                style.dim(&format!("[{}]", routes.join(" ")))
            );
        }
    }
    let c = &o.confidence;
    let _ = writeln!(
        s,
        "\nConfidence: {} {} (retrieval {}, coverage {}, grounding {})",
        shown_score(c.score),
        c.label,
        fixed(c.retrieval, 2),
        fixed(c.coverage, 2),
        fixed(c.grounding, 2)
    );
    let f = &o.freshness;
    let mut fresh = format!("Index: generation {}", f.generation);
    if f.built {
        fresh.push_str(", built for this question");
    } else if f.refreshed_files > 0 {
        let _ = write!(
            fresh,
            ", {} changed file(s) re-indexed first",
            f.refreshed_files
        );
    }
    if f.stale {
        fresh.push_str(", files changed since (not re-indexed: --no-refresh)");
    }
    if o.cached {
        fresh.push_str(", answer from the cache");
    }
    let _ = writeln!(s, "{fresh}");
    if trace {
        let _ = writeln!(s, "\n{}", style.header("Trace:"));
        for t in &o.trace {
            let _ = writeln!(s, "  {:<16} {:>8.2} ms  {}", t.stage, t.ms, t.decision);
            for r in &t.reasons {
                let _ = writeln!(s, "  {:<16} {:>11}  - {r}", "", "");
            }
        }
    }
    s
}

fn source_line(c: &ask::Candidate, style: Style) -> String {
    let mut s = style.path(&format!(
        "{}:{}-{}",
        c.loc.path, c.loc.start_line, c.loc.end_line
    ));
    if let Some(sym) = &c.loc.symbol {
        let _ = write!(s, "  {sym} ({})", c.loc.kind);
    }
    if let Some(from) = &c.expanded_from {
        let _ = write!(s, "  (neighbour of {from})");
    }
    s
}

fn llmc_scope(ctx: &Ctx, args: &AskArgs) -> crate::ask::Scope {
    crate::ask::Scope {
        path: args.path.as_deref().map(|g| ctx.scope_glob(g)),
        lang: args.lang.clone(),
        no_tests: args.no_tests,
    }
}

/// The confidence as printed beside its label: rounded down, so that a score just under a
/// label's threshold (0.899, Medium) never shows as the threshold (0.90).
fn shown_score(score: f64) -> String {
    // The epsilon keeps 0.29 (28.999… hundredths in binary) at 0.29.
    fixed(((score * 100.0) + 1e-9).floor() / 100.0, 2)
}

#[cfg(test)]
mod tests {
    use super::shown_score;

    #[test]
    fn a_score_never_shows_as_the_threshold_of_a_label_it_did_not_reach() {
        assert_eq!(shown_score(0.8999), "0.89");
        assert_eq!(shown_score(0.90), "0.90");
        assert_eq!(shown_score(0.6999), "0.69");
        assert_eq!(shown_score(0.0), "0.00");
        assert_eq!(shown_score(0.29), "0.29");
    }
}
