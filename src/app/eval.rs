//! `llmc eval`: reads the labelled set, makes sure the index is there, scores every
//! question, prints the table (or the JSON).

use std::fmt::Write as _;

use anyhow::Result;

use super::ask::{bar, notice};
use super::{Ctx, fixed, print_json, print_out, signed};
use crate::ask::fresh::{Fresh, Notice};
use crate::ask::{self, Status};
use crate::cli::EvalArgs;
use crate::error::{Exit, LlmcError};
use crate::eval::{self, EvalOptions, Metrics, QuestionResult, Report};
use crate::index;
use crate::progress::{Bar, Progress};

/// Runs the labelled set and prints the metrics; exit code 0 whatever the scores.
pub fn cmd_eval(ctx: &Ctx, args: &EvalArgs) -> Result<Exit> {
    if args.k == 0 {
        return Err(LlmcError::Config("--k must be 1 or more".into()).into());
    }
    let file = args.file.display().to_string();
    let cases = eval::load(&args.file)?;
    let progress = || bar(ctx, !args.json);
    let say = |n: Notice| notice(ctx, n);
    ask::ensure_index(
        &ctx.root,
        &ctx.config,
        &Fresh {
            refresh: true,
            progress: &progress,
            say: &say,
        },
    )?;
    finish_history(ctx, args.json)?;
    let bar = Bar::new(!ctx.quiet && !args.json, !ctx.quiet);
    bar.start("asking", cases.len() as u64);
    let report = eval::run(
        &ctx.root,
        &ctx.config,
        &file,
        &cases,
        EvalOptions {
            k: args.k,
            compare: args.compare,
        },
        &mut |_| bar.inc(1),
    )?;
    bar.finish();
    if args.json {
        print_json(serde_json::to_value(&report)?)?;
    } else {
        print_out(&render(&report))?;
    }
    Ok(Exit::Ok)
}

/// Reads the history to its end before any question is scored: an index just built reads
/// it in slices, later or in the background, and a score over part of it would measure
/// how far the reading got. Waits for a background reader, or reads in the foreground.
fn finish_history(ctx: &Ctx, json: bool) -> Result<()> {
    let bar = Bar::new(!ctx.quiet && !json, !ctx.quiet);
    let mut waited = 0;
    loop {
        let partial = crate::store::Store::open_existing(&ctx.root)?
            .read(|c| Ok(crate::history::query::partial_note(c)))??;
        let Some(note) = partial else {
            return Ok(());
        };
        match index::continue_history(&ctx.root, &ctx.config, &bar)? {
            // Read to its end, or stopped by an error it reports: score what there is.
            Some(s) if s.remaining == 0 || s.new_commits == 0 || s.error.is_some() => {
                if s.remaining > 0 {
                    ctx.warn(&format!("scoring on a partial history: {note}"));
                }
                return Ok(());
            }
            Some(_) => {}
            // Another `llmc index --history-only` is reading it: wait for that one (for
            // at most ten minutes).
            None if waited < 1200 => {
                if waited == 0 {
                    ctx.note(&format!("waiting for the history to be read ({note})"));
                }
                waited += 1;
                std::thread::sleep(std::time::Duration::from_millis(500));
            }
            None => {
                ctx.warn(&format!("scoring on a partial history: {note}"));
                return Ok(());
            }
        }
    }
}

fn num(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |v| fixed(v, 3))
}

fn ms(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |v| fixed(v, 0))
}

fn row(s: &mut String, name: &str, m: &Metrics) {
    let _ = writeln!(
        s,
        "{name:<12} {:>4} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
        m.questions,
        num(m.recall_at_k),
        num(m.mrr_at_k),
        num(m.ndcg_at_k),
        num(m.structural_precision),
        num(m.structural_recall),
        num(m.routing_accuracy),
        num(m.abstention_rate),
        num(m.false_abstention_rate),
        ms(m.latency_median_ms),
        ms(m.latency_p95_ms),
    );
}

/// The human rendering: one row per intent and the overall row, then the misses.
pub fn render(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} questions from {}, k = {}\n",
        r.overall.questions, r.file, r.k
    );
    let k = r.k;
    let _ = writeln!(
        s,
        "{:<12} {:>4} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "intent",
        "n",
        format!("R@{k}"),
        format!("MRR@{k}"),
        format!("nDCG@{k}"),
        "str.P",
        "str.R",
        "route",
        "abst",
        "f.abst",
        "p50 ms",
        "p95 ms"
    );
    for (name, m) in &r.intents {
        row(&mut s, name, m);
    }
    row(&mut s, "overall", &r.overall);
    let _ = writeln!(
        s,
        "\nR, MRR, nDCG: answerable questions with gold; str.P/str.R: precision and recall of \
         call sites and import lines; route: intents as labelled; abst: abstentions on \
         out-of-scope questions; f.abst: abstentions on answerable ones"
    );
    if r.overall.compare.values().next().is_some() {
        compared(&mut s, r);
    }
    reliability(&mut s, r);
    let misses: Vec<String> = r.results.iter().filter_map(|q| miss(&r.file, q)).collect();
    if !misses.is_empty() {
        let _ = writeln!(s, "\nMisses ({}):", misses.len());
        for m in misses {
            let _ = writeln!(s, "  {m}");
        }
    }
    s
}

/// MRR@k of ask beside `llmc search` and each single route, per intent.
fn compared(s: &mut String, r: &Report) {
    let k = r.k;
    let _ = writeln!(s, "\nask beside its parts, MRR@{k} on the same questions:");
    let mut head = format!("{:<12} {:>4} {:>7}", "intent", "n", "ask");
    for name in eval::COMPARED {
        let _ = write!(head, " {name:>8}");
    }
    let _ = writeln!(s, "{head} {:>8}", "ask-best");
    let line = |s: &mut String, name: &str, m: &Metrics| {
        let mut out = format!("{name:<12} {:>4} {:>7}", m.ranked, num(m.mrr_at_k));
        for part in eval::COMPARED {
            let _ = write!(out, " {:>8}", num(m.compare.get(part).copied()));
        }
        let best = m
            .compare
            .values()
            .copied()
            .fold(None, |b: Option<f64>, v| Some(b.map_or(v, |b| b.max(v))));
        let gap = match (m.mrr_at_k, best) {
            (Some(a), Some(b)) => signed(a - b, 3),
            _ => "-".into(),
        };
        let _ = writeln!(s, "{out} {gap:>8}");
    };
    for (name, m) in &r.intents {
        if m.ranked > 0 {
            line(s, name, m);
        }
    }
    line(s, "overall", &r.overall);
    let _ = writeln!(
        s,
        "search: llmc search --mode hybrid; graph, history, lexical, semantic: ask with that \
         retriever alone; ask-best: ask minus the best of them"
    );
}

/// How often each confidence label's answers have a right first source, and the ECE.
fn reliability(s: &mut String, r: &Report) {
    let c = &r.calibration;
    let _ = writeln!(
        s,
        "\nreliability ({} answers; abstentions and questions without gold aside):",
        c.answers
    );
    let _ = writeln!(
        s,
        "{:<10} {:>7} {:>7} {:>9} {:>10}",
        "label", "answers", "right", "accuracy", "mean conf"
    );
    for l in &c.labels {
        let _ = writeln!(
            s,
            "{:<10} {:>7} {:>7} {:>9} {:>10}",
            l.label,
            l.answers,
            l.right,
            num(l.accuracy),
            num(l.mean_confidence)
        );
    }
    let _ = writeln!(
        s,
        "expected calibration error {} (ten bins of the score); right: the first source or \
         commit is a gold item, an answered out-of-scope question never is",
        num(c.ece)
    );
}

/// What went wrong with one question, if anything.
fn miss(file: &str, q: &QuestionResult) -> Option<String> {
    let mut why = Vec::new();
    if q.routed == Some(false) {
        let names = |v: &[crate::ask::classify::Intent]| {
            v.iter().map(|i| i.as_str()).collect::<Vec<_>>().join("+")
        };
        why.push(format!(
            "routed {} (expected {})",
            names(&q.intents),
            names(&q.expected_intents)
        ));
    }
    match (q.answerable, q.status) {
        (true, Status::Abstained) => why.push("abstained".into()),
        (false, Status::Answered) => why.push("answered an out-of-scope question".into()),
        _ => {}
    }
    if q.recall.is_some_and(|r| r < 1.0) {
        let missing = q.ranks.iter().filter(|r| r.is_none()).count();
        why.push(format!(
            "{missing} of {} gold item(s) not in the top k",
            q.ranks.len()
        ));
    }
    if let Some(st) = &q.structural {
        if st.found < st.gold {
            why.push(format!("{} of {} gold line(s) found", st.found, st.gold));
        }
        if st.correct_rows < st.rows {
            why.push(format!(
                "{} of {} row(s) off gold",
                st.rows - st.correct_rows,
                st.rows
            ));
        }
    }
    (!why.is_empty()).then(|| format!("{file}:{}: {:?}: {}", q.line, q.question, why.join("; ")))
}
