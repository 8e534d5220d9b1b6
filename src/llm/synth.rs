//! The prompts of `ask`: [`synthesize`] (a short answer citing numbered sources, checked
//! by [`check_grounding`], repaired once when the budget allows) and [`classify`] (the
//! fallback classifier). Each call takes one unit of the question's [`Budget`] first.

use serde::Serialize;

use crate::llm::{Budget, Llm, LlmError, check_grounding};

/// One retrieved piece of the repository, numbered for citation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Source {
    /// The citation number, 1-based: the answer cites this source as `[n]`.
    pub n: usize,
    pub path: String,
    pub start_line: u32,
    pub end_line: u32,
    pub symbol: Option<String>,
    /// The lines `start_line..=end_line`.
    pub text: String,
}

/// A synthesized answer and its grounding check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Synthesis {
    /// The answer, Markdown, citing sources as `[1]`, `[2]`.
    pub text: String,
    /// The sources it cites that exist, sorted.
    pub cited: Vec<usize>,
    /// Whether it passed [`check_grounding`]. An ungrounded answer must be shown flagged.
    pub grounded: bool,
    /// Why it failed the check; empty when grounded.
    pub problems: Vec<String>,
    /// LLM calls made (1, or 2 with a repair).
    pub calls: u32,
}

const SYNTH_SYSTEM: &str = "You answer a developer's question about their code repository \
using only the numbered sources given. Rules: answer in at most 120 words; after every \
sentence that states a fact, cite the sources that show it as [1] or [2][3]; name code \
exactly as the sources spell it, in backticks; never name a function, type, variable or \
file that the sources do not contain; if the sources do not answer the question, say so \
in one sentence and cite the closest source.";

const CLASSIFY_SYSTEM: &str = "You classify a developer's question about a code repository. \
Reply with the fitting intents from the allowed list, most fitting first, separated by \
commas, and nothing else.";

/// Asks `llm` for a short answer to `question` from `sources` and checks it with
/// [`check_grounding`]. When the check fails and the budget has a call left, the model is
/// shown the problems and asked once to rewrite; the rewrite is kept only if it passes,
/// else the first answer is returned with its problems (a failed rewrite call is not an
/// error then). Fails with `BudgetExhausted` if no call is left, with `Bad` if there are no
/// sources, and with the model's error if the first call fails.
pub fn synthesize(
    llm: &dyn Llm,
    budget: &mut Budget,
    question: &str,
    sources: &[Source],
) -> Result<Synthesis, LlmError> {
    if sources.is_empty() {
        return Err(LlmError::Bad("no sources to answer from".into()));
    }
    budget.try_take()?;
    let prompt = synth_prompt(question, sources, llm.max_source_chars());
    let text = clean(&llm.complete(SYNTH_SYSTEM, &prompt)?);
    let (cited, problems) = check_grounding(&text, sources);
    let first = Synthesis {
        grounded: problems.is_empty(),
        text,
        cited,
        problems,
        calls: 1,
    };
    if first.grounded || budget.try_take().is_err() {
        return Ok(first);
    }
    let repair = format!(
        "{prompt}\n\nYour previous answer was:\n\n{}\n\nIt breaks the rules:\n{}\n\n\
         Write the answer again, following the rules.",
        first.text,
        first
            .problems
            .iter()
            .map(|p| format!("- {p}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let Ok(reply) = llm.complete(SYNTH_SYSTEM, &repair) else {
        return Ok(Synthesis { calls: 2, ..first });
    };
    let text = clean(&reply);
    let (cited, problems) = check_grounding(&text, sources);
    if problems.is_empty() {
        Ok(Synthesis {
            text,
            cited,
            grounded: true,
            problems,
            calls: 2,
        })
    } else {
        Ok(Synthesis { calls: 2, ..first })
    }
}

/// Asks `llm` which of `intents` fit `question`. The reply is read leniently: a line made
/// only of allowed intents wins; otherwise every allowed intent the reply names (not after
/// "not" or "no"), in order. Unknown words are ignored; an empty list means the model gave
/// no usable opinion.
pub fn classify(
    llm: &dyn Llm,
    budget: &mut Budget,
    question: &str,
    intents: &[&str],
) -> Result<Vec<String>, LlmError> {
    budget.try_take()?;
    let prompt = format!(
        "Allowed intents: {}\n\nQuestion: {question}\n\nIntents:",
        intents.join(", ")
    );
    let reply = clean(&llm.complete(CLASSIFY_SYSTEM, &prompt)?);
    Ok(parse_intents(&reply, intents))
}

/// The user prompt of [`synthesize`]: the question, then each source as `[n] path:start-end
/// symbol` and its text, cut to `cap` characters.
fn synth_prompt(question: &str, sources: &[Source], cap: usize) -> String {
    let mut p = format!("Question: {question}\n\nSources:\n");
    for s in sources {
        let text = cut(&s.text, cap);
        let longest_run = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
        let fence = "`".repeat(longest_run.max(2) + 1);
        p.push_str(&format!(
            "\n[{}] {}:{}-{}{}\n{fence}\n{}\n{fence}\n",
            s.n,
            s.path,
            s.start_line,
            s.end_line,
            s.symbol
                .as_deref()
                .map(|sym| format!(" {sym}"))
                .unwrap_or_default(),
            text.trim_end()
        ));
    }
    p.push_str("\nAnswer the question from these sources, citing them as [n].");
    p
}

/// `text` cut to at most `cap` characters, at a line end when one is in the second half,
/// with a note that it was cut.
fn cut(text: &str, cap: usize) -> String {
    if text.chars().count() <= cap {
        return text.to_string();
    }
    let end = text.char_indices().nth(cap).map_or(text.len(), |(i, _)| i);
    let head = &text[..end];
    let head = match head.rfind('\n') {
        Some(nl) if nl >= end / 2 => &head[..nl],
        _ => head,
    };
    format!("{head}\n… (cut)")
}

/// The reply without a reasoning model's `<think>…</think>` preamble, trimmed.
fn clean(reply: &str) -> String {
    let mut s = reply.trim();
    if s.starts_with("<think>")
        && let Some(end) = s.find("</think>")
    {
        s = s[end + "</think>".len()..].trim();
    }
    s.to_string()
}

fn parse_intents(reply: &str, intents: &[&str]) -> Vec<String> {
    let allowed = |w: &str| -> Option<String> {
        intents
            .iter()
            .find(|i| i.eq_ignore_ascii_case(w) || format!("{w}s").eq_ignore_ascii_case(i))
            .map(|i| i.to_string())
    };
    let words = |line: &str| -> Vec<String> {
        line.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect()
    };
    let push = |out: &mut Vec<String>, i: String| {
        if !out.contains(&i) {
            out.push(i);
        }
    };
    const FILLER: &[&str] = &["intent", "intents", "answer", "and"];
    for line in reply.lines() {
        let ws: Vec<String> = words(line)
            .into_iter()
            .filter(|w| !FILLER.contains(&w.as_str()))
            .collect();
        if !ws.is_empty() && ws.iter().all(|w| allowed(w).is_some()) {
            let mut out = Vec::new();
            for w in ws {
                if let Some(i) = allowed(&w) {
                    push(&mut out, i);
                }
            }
            return out;
        }
    }
    let ws = words(reply);
    let mut out = Vec::new();
    for (k, w) in ws.iter().enumerate() {
        let negated = k > 0 && matches!(ws[k - 1].as_str(), "not" | "no");
        if let (Some(i), false) = (allowed(w), negated) {
            push(&mut out, i);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;

    /// Replies in order; records the prompts.
    struct Scripted {
        replies: RefCell<Vec<Result<String, LlmError>>>,
        prompts: RefCell<Vec<String>>,
    }

    impl Scripted {
        fn new(replies: Vec<Result<String, LlmError>>) -> Scripted {
            Scripted {
                replies: RefCell::new(replies.into_iter().rev().collect()),
                prompts: RefCell::new(Vec::new()),
            }
        }
    }

    impl Llm for Scripted {
        fn complete(&self, _system: &str, prompt: &str) -> Result<String, LlmError> {
            self.prompts.borrow_mut().push(prompt.to_string());
            self.replies
                .borrow_mut()
                .pop()
                .unwrap_or_else(|| Err(LlmError::Bad("no more replies".into())))
        }
        fn name(&self) -> String {
            "scripted".into()
        }
        fn max_source_chars(&self) -> usize {
            40
        }
    }

    fn sources() -> Vec<Source> {
        vec![
            Source {
                n: 1,
                path: "src/a.rs".into(),
                start_line: 3,
                end_line: 9,
                symbol: Some("parse_args".into()),
                text: "fn parse_args() {}\n".into(),
            },
            Source {
                n: 2,
                path: "src/b.rs".into(),
                start_line: 1,
                end_line: 80,
                symbol: None,
                text: format!(
                    "fn run() {{}}\n{}\nfn tail_marker() {{}}\n",
                    "x".repeat(200)
                ),
            },
        ]
    }

    #[test]
    fn the_prompt_numbers_the_sources_and_cuts_long_text() {
        let llm = Scripted::new(vec![Ok("`parse_args` parses [1].".into())]);
        let s = synthesize(&llm, &mut Budget::new(8), "what parses?", &sources()).expect("ok");
        assert!(s.grounded, "{s:?}");
        let prompt = llm.prompts.borrow()[0].clone();
        assert!(prompt.contains("Question: what parses?"), "{prompt}");
        assert!(prompt.contains("[1] src/a.rs:3-9 parse_args\n"), "{prompt}");
        assert!(prompt.contains("[2] src/b.rs:1-80\n"), "{prompt}");
        // Cut at 40 characters: no line end in the second half, so mid-line.
        let cut = format!("fn run() {{}}\n{}\n… (cut)\n", "x".repeat(28));
        assert!(prompt.contains(&cut), "{prompt}");
        assert!(!prompt.contains("tail_marker"), "{prompt}");
    }

    #[test]
    fn a_failed_answer_is_repaired_once_within_the_budget() {
        let llm = Scripted::new(vec![
            Ok("`parse_args` calls `tail_marker` [1].".into()),
            Ok("<think>fix it</think>`parse_args` parses [1].".into()),
        ]);
        let mut budget = Budget::new(8);
        let s = synthesize(&llm, &mut budget, "q", &sources()).expect("ok");
        assert_eq!((s.grounded, s.calls, budget.used()), (true, 2, 2), "{s:?}");
        assert_eq!(s.text, "`parse_args` parses [1].");
        assert!(llm.prompts.borrow()[1].contains("`tail_marker` occurs in none"));

        // A rewrite that fails too: the first answer stands, flagged.
        let llm = Scripted::new(vec![Ok("It parses.".into()), Ok("Still [9].".into())]);
        let s = synthesize(&llm, &mut Budget::new(8), "q", &sources()).expect("ok");
        assert_eq!(
            (s.grounded, s.calls, s.text.as_str()),
            (false, 2, "It parses.")
        );
        assert_eq!(s.problems, vec!["the answer cites no source".to_string()]);

        // No call left for a repair: one call, flagged.
        let llm = Scripted::new(vec![Ok("It parses.".into())]);
        let mut budget = Budget::new(1);
        let s = synthesize(&llm, &mut budget, "q", &sources()).expect("ok");
        assert_eq!((s.grounded, s.calls), (false, 1));
        assert!(matches!(
            synthesize(&llm, &mut budget, "q", &sources()),
            Err(LlmError::BudgetExhausted)
        ));
        assert_eq!(llm.prompts.borrow().len(), 1);
    }

    #[test]
    fn classify_reads_intents_from_chatty_replies() {
        let intents = ["callers", "callees", "definition", "history"];
        let cases = [
            ("callers, definition", vec!["callers", "definition"]),
            ("Intents: Callers", vec!["callers"]),
            ("[\"history\"]", vec!["history"]),
            (
                "The user wants to know who calls it, so:\ncaller\n",
                vec!["callers"],
            ),
            (
                "This is about history, not definition; also callees.",
                vec!["history", "callees"],
            ),
            ("I cannot tell.", vec![]),
            ("locate", vec![]),
        ];
        for (reply, want) in cases {
            let llm = Scripted::new(vec![Ok(reply.to_string())]);
            let got = classify(&llm, &mut Budget::new(1), "who calls x?", &intents).expect("ok");
            assert_eq!(got, want, "{reply:?}");
            assert!(llm.prompts.borrow()[0].contains("Allowed intents: callers, callees"));
        }
        let llm = Scripted::new(vec![]);
        assert!(matches!(
            classify(&llm, &mut Budget::new(0), "q", &intents),
            Err(LlmError::BudgetExhausted)
        ));
        assert!(llm.prompts.borrow().is_empty());
    }
}
