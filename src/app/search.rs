//! `llmc search`: raw retrieval from the lexical and semantic indexes.

use anyhow::Result;

use super::{Ctx, print_json, print_out};
use crate::cli::SearchArgs;
use crate::error::{Exit, LlmcError};
use crate::search::{self, Mode, SearchRequest, SearchResult};

/// Searches and prints the hits (exit 1 when there are none).
pub fn cmd_search(ctx: &Ctx, args: &SearchArgs) -> Result<Exit> {
    let mode = Mode::parse(args.mode.as_deref().unwrap_or(&ctx.config.search.mode))?;
    let k = args.k.unwrap_or(ctx.config.search.k);
    if k == 0 {
        return Err(LlmcError::Config("--k must be at least 1".into()).into());
    }
    let req = SearchRequest {
        query: args.query.join(" "),
        mode,
        k,
        lang: args.lang.clone(),
        path_glob: args.path.clone(),
    };
    let result = search::search(&ctx.root, &ctx.config, &req)?;
    if let Some(w) = &result.warning {
        ctx.note(&format!("warning: {w}"));
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
        print_out(&render(&result))?;
        if result.hits.is_empty() {
            ctx.note(&format!("nothing found for {:?}", result.query));
        }
    }
    Ok(if result.hits.is_empty() {
        Exit::NotFound
    } else {
        Exit::Ok
    })
}

/// The human form: one line per hit, `path:start-end  symbol  (kind)`, then its rank and
/// score in each route.
pub fn render(r: &SearchResult) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let width = r.hits.len().to_string().len();
    for (i, h) in r.hits.iter().enumerate() {
        let _ = write!(
            out,
            "{:>width$}. {}:{}-{}",
            i + 1,
            h.path,
            h.start_line,
            h.end_line
        );
        if let Some(s) = &h.symbol {
            let _ = write!(out, "  {s}");
        }
        let routes: Vec<String> = h
            .routes
            .iter()
            .map(|rt| format!("{} #{} {:.3}", rt.route, rt.rank, rt.score))
            .collect();
        let _ = writeln!(
            out,
            "  ({})  score {:.4}  [{}]",
            h.kind,
            h.score,
            routes.join(", ")
        );
    }
    out
}
