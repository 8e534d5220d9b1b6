//! `llmc search`: raw retrieval from the lexical and semantic indexes.

use anyhow::Result;

use super::style::Style;
use super::{Ctx, fixed, print_json, print_out};
use crate::cli::SearchArgs;
use crate::error::{Exit, LlmcError};
use crate::search::{self, Mode, SearchRequest, SearchResult};
use crate::source::SourceText;

/// Searches and prints the hits (exit 1 when there are none).
pub fn cmd_search(ctx: &Ctx, args: &SearchArgs) -> Result<Exit> {
    let mode = match args.mode.as_deref() {
        Some(m) => Mode::parse(m)?,
        // Checked when the configuration loaded.
        None => ctx.config.search.mode,
    };
    let query = args.query.join(" ");
    if query.trim().is_empty() {
        return Err(
            LlmcError::Usage("the query is empty: llmc search \"parse config\"".into()).into(),
        );
    }
    let k = args.k.unwrap_or(ctx.config.search.k);
    if k == 0 {
        return Err(match args.k {
            Some(_) => LlmcError::Usage("-k 0: ask for at least 1 hit".into()),
            None => LlmcError::Config(
                "`search.k` is 0 (llmc.toml, LLMC_SEARCH_K or --config): set it to at least 1"
                    .into(),
            ),
        }
        .into());
    }
    let req = SearchRequest {
        query,
        mode,
        k,
        lang: args.lang.clone(),
        path_glob: args.path.as_deref().map(|g| ctx.scope_glob(g)),
        no_tests: args.no_tests,
    };
    let result = search::search(&ctx.root, &ctx.config, &req)?;
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
    if args.json {
        print_json(serde_json::json!({
            "query": result.query,
            "mode": result.mode,
            "hits": result.hits,
            "hnsw": result.hnsw,
            "stale_hits": result.stale_hits,
            "timings_ms": result.timings.iter().map(|(k, v)| (k.to_string(), serde_json::Value::from(*v))).collect::<serde_json::Map<_, _>>(),
        }))?;
    } else {
        let mut text = SourceText::new(&ctx.root, ctx.config.index.max_file_size);
        print_out(&render(&result, ctx.out, &mut text))?;
        if result.hits.is_empty() {
            ctx.note(&format!("nothing found for {:?}", result.query));
        }
    }
    if result.hits.is_empty()
        && let Some(lang) = &args.lang
    {
        let langs = search::indexed_languages(&ctx.root)?;
        if !langs.contains(lang) {
            ctx.warn(&format!(
                "--lang {lang}: no indexed file is in that language (the index has: {})",
                langs.join(", ")
            ));
        }
    }
    Ok(if result.hits.is_empty() {
        Exit::NotFound
    } else {
        Exit::Ok
    })
}

/// How many of a hit's lines the human form shows.
const LINES_SHOWN: usize = 2;

/// The human form: one line per hit, `path:start-end  symbol  (kind)`, then its rank and
/// score in each route, then the hit's best lines ([`search::best_lines`]) as the working
/// tree has them.
pub fn render(r: &SearchResult, style: Style, text: &mut SourceText) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let width = r.hits.len().to_string().len();
    for (i, h) in r.hits.iter().enumerate() {
        let _ = write!(
            out,
            "{:>width$}. {}",
            i + 1,
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
