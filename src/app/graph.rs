//! `llmc graph`: callers, callees, definitions, imports and importers from the code
//! graph, as text or JSON. A long answer is summarized by file and paged, never cut
//! silently.

use anyhow::Result;
use serde_json::json;

use super::style::Style;
use super::{Ctx, print_json, print_out};
use crate::cli::{GraphArgs, GraphRelation};
use crate::error::{Exit, LlmcError};
use crate::graph::{self, Answer, GraphQuery, Relation};
use crate::source::SourceText;
use crate::store::Store;

/// Answers a graph question.
pub fn cmd_graph(ctx: &Ctx, args: &GraphArgs) -> Result<Exit> {
    let store = Store::open_existing(&ctx.root)?;
    let relation = match args.relation {
        GraphRelation::Callers => Relation::Callers,
        GraphRelation::Callees => Relation::Callees,
        GraphRelation::Defs => Relation::Defs,
        GraphRelation::Imports => Relation::Imports,
        GraphRelation::Importers => Relation::Importers,
    };
    // Definitions need only the foundation; the edges need the code graph.
    if relation != Relation::Defs && !store.memories()?.graph {
        return Err(LlmcError::MemoryOff(crate::model::Memory::Graph).into());
    }
    let ask = |target: &str| {
        graph::query(
            &store,
            &GraphQuery {
                relation,
                target: target.to_string(),
                depth: args.depth.max(1),
                min_resolution: args.resolution,
            },
        )
    };
    // A path (imports, importers, `path:name`) is read from the directory llmc was started
    // in first, then from the root.
    let names_path = matches!(relation, Relation::Imports | Relation::Importers)
        || graph::split_path_target(&args.target).0.is_some();
    let from_start = match ctx.from_start(&args.target) {
        Some(t) if names_path => Some(ask(&t)?).filter(|a| !a.candidates.is_empty()),
        _ => None,
    };
    let answer = match from_start {
        Some(a) => a,
        None => ask(&args.target)?,
    };
    let total = answer.results.len();
    let page_end = (args.offset + args.limit).min(total);
    let page = answer
        .results
        .get(args.offset.min(total)..page_end)
        .unwrap_or_default();
    let truncated = page.len() < total;
    // A function only applied as a decorator or handed on as a value is used: found.
    let exit = if answer.candidates.is_empty()
        || (answer.results.is_empty()
            && answer.references.is_empty()
            && answer.through_trait.is_empty())
    {
        Exit::NotFound
    } else {
        Exit::Ok
    };
    if args.json {
        let by_file: Vec<_> = graph::by_file(&answer.results)
            .into_iter()
            .map(|(path, count)| json!({ "path": path, "count": count }))
            .collect();
        print_json(json!({
            "target": answer.target,
            "relation": relation_name(relation),
            "candidates": answer.candidates,
            "results": page,
            "truncated": truncated,
            "total": total,
            "offset": args.offset,
            "limit": args.limit,
            "by_file": by_file,
            "set_aside": answer.set_aside,
            "also_named": answer.also_named,
            "references": answer.references,
            "through_trait": answer.through_trait,
        }))?;
        return Ok(exit);
    }
    // Rows show their line as the working tree has it, read no further than an index would.
    let mut text = SourceText::new(&ctx.root, ctx.config.index.max_file_size);
    print_out(&render(
        &answer, relation, args, page, total, ctx.out, &mut text,
    ))?;
    Ok(exit)
}

fn relation_name(r: Relation) -> &'static str {
    match r {
        Relation::Callers => "callers",
        Relation::Callees => "callees",
        Relation::Defs => "defs",
        Relation::Imports => "imports",
        Relation::Importers => "importers",
    }
}

fn render(
    answer: &Answer,
    relation: Relation,
    args: &GraphArgs,
    page: &[graph::Row],
    total: usize,
    style: Style,
    text: &mut SourceText,
) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    if answer.candidates.is_empty() {
        let what = match relation {
            Relation::Imports | Relation::Importers => "no indexed file matches",
            _ => "no definition named",
        };
        let _ = writeln!(out, "{what} `{}`", answer.target);
        return out;
    }
    if relation == Relation::Defs {
        render_defs(&mut out, answer, args, style, text);
        return out;
    }
    if answer.candidates.len() > 1 {
        let _ = writeln!(
            out,
            "{}",
            style.header(&format!(
                "`{}` names {} definitions; answering for each:",
                answer.target,
                answer.candidates.len()
            ))
        );
        for d in &answer.candidates {
            let at = format!("{}:{}", d.path, d.line);
            let _ = writeln!(out, "  {}  {} ({})", style.path(&at), d.symbol, d.kind);
        }
    }
    if total > args.limit {
        let _ = writeln!(
            out,
            "{}",
            style.header(&format!(
                "{total} {} in these files:",
                relation_name(relation)
            ))
        );
        for (path, n) in graph::by_file(&answer.results) {
            let _ = writeln!(out, "  {n:>5}  {}", style.path(&path));
        }
    }
    let mut group: Option<&str> = None;
    for (i, r) in page.iter().enumerate() {
        if answer.candidates.len() > 1 && group != Some(r.target.as_str()) {
            let _ = writeln!(out, "{}", style.header(&format!("{}:", r.target)));
            group = Some(r.target.as_str());
        }
        // Deeper rows sit under the row they continue from; a page that starts inside a
        // branch names it.
        if i == 0
            && let Some(via) = &r.via
        {
            let _ = writeln!(out, "{}", style.dim(&format!("(continuing under {via})")));
        }
        let indent = match r.depth {
            0 | 1 => String::new(),
            d => format!("{}└ ", "  ".repeat(d as usize - 2)),
        };
        let extra = match (&r.defined_at, relation) {
            (Some(at), Relation::Callees | Relation::Imports) => format!("  -> {at}"),
            _ => String::new(),
        };
        let at = format!("{}:{}", r.path, r.line);
        let _ = writeln!(
            out,
            "{indent}{}  {}  {}{extra}{}",
            style.path(&at),
            r.symbol,
            style.dim(&format!("[{}]", r.resolution)),
            code_of(text, style, r, relation)
        );
    }
    let aside = answer.set_aside;
    if total == 0 {
        let _ = writeln!(
            out,
            "{}",
            match relation {
                Relation::Callers
                    if !answer.references.is_empty() || !answer.through_trait.is_empty() =>
                {
                    "no direct calls".to_string()
                }
                Relation::Callers if aside.name_only + aside.unresolved > 0 =>
                    "no callers proven".to_string(),
                Relation::Callers => "not called anywhere in the repository".to_string(),
                _ => format!("no {} found", relation_name(relation)),
            }
        );
    } else if page.len() < total {
        let shown_to = args.offset + page.len();
        let _ = writeln!(
            out,
            "showing {}-{shown_to} of {total}; see more with --offset {shown_to} (or --limit {total})",
            args.offset + 1
        );
    }
    let (n, u) = (aside.name_only, aside.unresolved);
    let s = |n: usize| if n == 1 { "" } else { "s" };
    if !answer.through_trait.is_empty() {
        let rows = &answer.through_trait;
        let mut traits: Vec<&str> = rows.iter().map(graph::Row::target_symbol).collect();
        traits.dedup();
        let traits: Vec<String> = traits.iter().map(|t| format!("`{t}`")).collect();
        let header = format!(
            "called through {} ({} place{}; dispatch may reach this implementation or another):",
            traits.join(", "),
            rows.len(),
            s(rows.len())
        );
        list_apart(&mut out, style, text, &header, rows, args.limit, |r| {
            format!("through trait, {}", r.resolution)
        });
    }
    if !answer.references.is_empty() {
        let refs = &answer.references;
        let header = format!(
            "also used without being called ({} place{}):",
            refs.len(),
            s(refs.len())
        );
        list_apart(&mut out, style, text, &header, refs, args.limit, |r| {
            format!("{} {}", r.usage.as_str(), r.resolution)
        });
    }
    if !answer.also_named.is_empty() {
        let others = &answer.also_named;
        let mut names: Vec<&str> = others.iter().map(|d| d.symbol.as_str()).collect();
        names.dedup();
        let shown = names.iter().take(4).copied().collect::<Vec<_>>().join(", ");
        let more = match names.len().saturating_sub(4) {
            0 => String::new(),
            k => format!(" and {k} more"),
        };
        let line = format!(
            "not included: {} other definition{} with this name ({shown}{more}); name one as `Type.name` or `path:name`",
            others.len(),
            s(others.len())
        );
        let _ = writeln!(out, "{}", style.dim(&line));
    }
    if n > 0 {
        let them = if n == 1 { "it" } else { "them" };
        let line = format!(
            "{n} more possible call site{} matched by name only: `--resolution name-only` lists {them}",
            s(n)
        );
        let _ = writeln!(out, "{}", style.dim(&line));
    }
    if u > 0 {
        let line = format!(
            "{u} call site{} with this name and an unknown receiver could not be resolved: `--resolution unresolved` lists {}",
            s(u),
            if u == 1 { "it" } else { "them" }
        );
        let _ = writeln!(out, "{}", style.dim(&line));
    }
    out
}

/// Rows listed apart from the callers (calls through a trait, uses that are not calls): a
/// header, at most `limit` rows each with its `[label]`, and how many more.
fn list_apart(
    out: &mut String,
    style: Style,
    text: &mut SourceText,
    header: &str,
    rows: &[graph::Row],
    limit: usize,
    label: impl Fn(&graph::Row) -> String,
) {
    use std::fmt::Write as _;
    let _ = writeln!(out, "{}", style.header(header));
    for r in rows.iter().take(limit) {
        let at = format!("{}:{}", r.path, r.line);
        let _ = writeln!(
            out,
            "  {}  {}  {}{}",
            style.path(&at),
            r.symbol,
            style.dim(&format!("[{}]", label(r))),
            code_of(text, style, r, Relation::Callers)
        );
    }
    if rows.len() > limit {
        let _ = writeln!(
            out,
            "  … and {} more (--json lists all)",
            rows.len() - limit
        );
    }
}

/// `  | code` for a row: the line it stands on, with the name the row is about marked.
fn code_of(text: &mut SourceText, style: Style, r: &graph::Row, relation: Relation) -> String {
    let Some(line) = text.lines(&r.path, r.line, r.line).first() else {
        return String::new();
    };
    let bare = |s: &str| s.rsplit(['.', ':']).next().unwrap_or(s).to_string();
    let name = match relation {
        // A deeper caller calls the definition it continues from, not the target.
        Relation::Callers => Some(bare(r.via.as_deref().unwrap_or(r.target_symbol()))),
        Relation::Callees => Some(bare(&r.symbol)),
        _ => None,
    };
    let code = style.code(line, name.as_deref());
    if code.is_empty() {
        String::new()
    } else {
        format!("  {} {code}", style.dim("|"))
    }
}

/// `graph defs`: each definition as what it is, where it spans, and its first line.
fn render_defs(
    out: &mut String,
    answer: &Answer,
    args: &GraphArgs,
    style: Style,
    text: &mut SourceText,
) {
    use std::fmt::Write as _;
    let defs = &answer.candidates;
    let end = (args.offset + args.limit).min(defs.len());
    for d in defs.get(args.offset.min(end)..end).unwrap_or_default() {
        let at = format!("{}:{}-{}", d.path, d.line, d.end_line);
        let first = text
            .lines(&d.path, d.line, d.line)
            .first()
            .map(|l| style.code(l, None))
            .filter(|c| !c.is_empty())
            .map(|c| format!("  {} {c}", style.dim("|")))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{}  {} {}{first}",
            style.path(&at),
            style.dim(&d.kind.to_string()),
            style.header(&d.symbol)
        );
    }
    if end - args.offset.min(end) < defs.len() {
        let shown_to = end;
        let _ = writeln!(
            out,
            "showing {}-{shown_to} of {}; see more with --offset {shown_to} (or --limit {})",
            args.offset.min(end) + 1,
            defs.len(),
            defs.len()
        );
    }
}
