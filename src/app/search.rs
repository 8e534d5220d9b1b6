//! `llmc search`: raw retrieval from the lexical and semantic indexes.

use anyhow::Result;

use super::pages::{self, Next};
use super::style::Style;
use super::{Ctx, fixed, json_text, print_json, print_out};
use crate::budget::{JsonPages, Shape};
use crate::cli::SearchArgs;
use crate::error::{Exit, LlmcError};
use crate::search::{self, Mode, SearchRequest, SearchResult};
use crate::source::SourceText;

/// Searches and prints the hits (exit 1 when there are none).
pub fn cmd_search(ctx: &Ctx, args: &SearchArgs) -> Result<Exit> {
    let req = request(
        ctx,
        &args.query.join(" "),
        args.mode.as_deref(),
        args.k,
        args.lang.clone(),
        args.path.as_deref(),
        args.no_tests,
    )?;
    let mut result = search::search(&ctx.root, &ctx.config, &req)?;
    if let Some(w) = &result.warning {
        ctx.warn(w);
    }
    if ctx.verbose {
        let timings: Vec<String> = result
            .timings
            .iter()
            .map(|(stage, ms)| format!("{stage} {ms:.1}ms"))
            .collect();
        ctx.detail(&format!("search timings: {}", timings.join(", ")));
    }
    let none = result.hits.is_empty();
    if let Some(max) = args.max_tokens {
        print_budgeted(ctx, args, &result, max)?;
    } else {
        result.hits.drain(..args.offset.min(result.hits.len()));
        if args.json {
            print_json(to_json(&result))?;
        } else {
            let mut text = SourceText::new(&ctx.root, ctx.config.index.max_file_size);
            print_out(&render(&result, ctx.out, &mut text, args.offset))?;
        }
    }
    if none && !args.json {
        ctx.note(&format!("nothing found for {:?}", result.query));
    }
    if none && let Some(lang) = &args.lang {
        let langs = search::indexed_languages(&ctx.root)?;
        if !langs.contains(lang) {
            ctx.warn(&format!(
                "--lang {lang}: no indexed file is in that language (the index has: {})",
                langs.join(", ")
            ));
        }
    }
    Ok(if none { Exit::NotFound } else { Exit::Ok })
}

/// A search request from its arguments: the mode and `k` default to `[search]`; an empty
/// query is a usage error; a `--path` glob is read from where llmc was started, too.
pub fn request(
    ctx: &Ctx,
    query: &str,
    mode: Option<&str>,
    k: Option<usize>,
    lang: Option<String>,
    path: Option<&str>,
    no_tests: bool,
) -> Result<SearchRequest> {
    let mode = match mode {
        Some(m) => Mode::parse(m)?,
        // Checked when the configuration loaded.
        None => ctx.config.search.mode,
    };
    if query.trim().is_empty() {
        return Err(
            LlmcError::Usage("the query is empty: llmc search \"parse config\"".into()).into(),
        );
    }
    let k_used = k.unwrap_or(ctx.config.search.k);
    if k_used == 0 {
        return Err(match k {
            Some(_) => LlmcError::Usage("-k 0: ask for at least 1 hit".into()),
            None => LlmcError::Config(
                "`search.k` is 0 (llmc.toml, LLMC_SEARCH_K or --config): set it to at least 1"
                    .into(),
            ),
        }
        .into());
    }
    Ok(SearchRequest {
        query: query.to_string(),
        mode,
        k: k_used,
        lang,
        path_glob: path.map(|g| ctx.scope_glob(g)),
        no_tests,
    })
}

/// `llmc search --json`.
pub fn to_json(result: &SearchResult) -> serde_json::Value {
    serde_json::json!({
        "query": result.query,
        "mode": result.mode,
        "hits": result.hits,
        "hnsw": result.hnsw,
        "stale_hits": result.stale_hits,
        "timings_ms": result.timings.iter().map(|(k, v)| (k.to_string(), serde_json::Value::from(*v))).collect::<serde_json::Map<_, _>>(),
    })
}

/// The lists a budget pages through.
pub fn json_lists() -> pages::Lists {
    vec![pages::list("hits", "/hits", Shape::Array)]
}

/// The `--max-tokens` output: the hits that fit from `--offset`, and the manifest.
fn print_budgeted(ctx: &Ctx, args: &SearchArgs, result: &SearchResult, max: usize) -> Result<()> {
    let next = |offset: usize| next_command(args, offset, max);
    let next_json = |offset: usize, max: usize| next_command(args, offset, max);
    let fitted = if args.json {
        pages::json_page(
            JsonPages::new(to_json(result), json_lists()),
            max,
            args.offset,
            None,
            &Next::Command(&next_json),
            &|_, _| {},
            &json_text,
        )
    } else {
        let mut text = SourceText::new(&ctx.root, ctx.config.index.max_file_size);
        let style = ctx.out;
        pages::human_page(
            vec![result.hits.len()],
            &["hits"],
            max,
            args.offset,
            None,
            &next,
            &mut |w| {
                let page = SearchResult {
                    hits: result.hits.get(w.range(0)).unwrap_or_default().to_vec(),
                    ..result.clone()
                };
                render(&page, style, &mut text, w.offset)
            },
        )
    };
    print_out(&fitted.text)
}

/// The command line of the page that starts at `offset`.
fn next_command(args: &SearchArgs, offset: usize, max_tokens: usize) -> String {
    let mut w: Vec<String> = vec!["llmc".into(), "search".into(), args.query.join(" ")];
    if let Some(m) = &args.mode {
        w.extend(["--mode".into(), m.clone()]);
    }
    if let Some(k) = args.k {
        w.extend(["-k".into(), k.to_string()]);
    }
    if let Some(l) = &args.lang {
        w.extend(["--lang".into(), l.clone()]);
    }
    if let Some(p) = &args.path {
        w.extend(["--path".into(), p.clone()]);
    }
    if args.no_tests {
        w.push("--no-tests".into());
    }
    w.extend(["--max-tokens".into(), max_tokens.to_string()]);
    w.extend(["--offset".into(), offset.to_string()]);
    if args.json {
        w.push("--json".into());
    }
    pages::command_line(&w)
}

/// How many of a hit's lines the human form shows.
const LINES_SHOWN: usize = 2;

/// The human form: one line per hit, `path:start-end  symbol  (kind)`, then its rank and
/// score in each route, then the hit's best lines ([`search::best_lines`]) as the working
/// tree has them.
/// `first` is the rank before the first hit shown (0 unless `--offset`).
pub fn render(r: &SearchResult, style: Style, text: &mut SourceText, first: usize) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let width = (first + r.hits.len()).to_string().len();
    for (i, h) in r.hits.iter().enumerate() {
        let _ = write!(
            out,
            "{:>width$}. {}",
            first + i + 1,
            style.path(&format!(
                "{}:{}-{}",
                h.loc.path, h.loc.start_line, h.loc.end_line
            ))
        );
        if let Some(s) = &h.loc.symbol {
            let _ = write!(out, "  {}", style.header(s));
        }
        let routes: Vec<String> = h
            .routes
            .iter()
            .map(|rt| {
                format!(
                    "{} #{} {}",
                    rt.route,
                    rt.rank,
                    fixed(f64::from(rt.score), 3)
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "  ({})  {}",
            h.loc.kind,
            style.dim(&format!(
                "score {}  [{}]",
                fixed(h.score, 4),
                routes.join(", ")
            ))
        );
        let lines = text.lines(&h.loc.path, h.loc.start_line, h.loc.end_line);
        for (n, line) in search::best_lines(lines, h.loc.start_line, &r.query, LINES_SHOWN) {
            let _ = writeln!(
                out,
                "{:>width$}  {} {} {}",
                "",
                style.dim(&format!("{n:>6}")),
                style.dim("|"),
                style.code(&line, None)
            );
        }
    }
    out
}
