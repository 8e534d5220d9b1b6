//! `llmc graph`: callers, callees, definitions, imports and importers from the code
//! graph, as text or JSON. A long answer is summarized by file and paged, never cut
//! silently.

use anyhow::Result;
use serde_json::json;

use super::pages::{self, Next};
use super::style::Style;
use super::{Ctx, json_text, print_json, print_out};
use crate::budget::{JsonPages, Shape, Window};
use crate::cli::{GraphArgs, GraphRelation};
use crate::error::{Exit, LlmcError};
use crate::graph::{self, Answer, GraphQuery, Relation};
use crate::source::SourceText;
use crate::store::Store;

/// Answers a graph question.
pub fn cmd_graph(ctx: &Ctx, args: &GraphArgs) -> Result<Exit> {
    let store = Store::open_existing(&ctx.root)?;
    let relation = relation_of(args.relation);
    check_memory(&store, relation)?;
    let answer = answer(
        ctx,
        &store,
        relation,
        &args.target,
        args.depth,
        args.resolution,
    )?;
    let exit = if found(&answer) {
        Exit::Ok
    } else {
        Exit::NotFound
    };
    if let Some(max) = args.max_tokens {
        print_budgeted(ctx, args, &answer, relation, max)?;
        return Ok(exit);
    }
    let total = answer.results.len();
    let page_end = (args.offset + args.limit).min(total);
    let page = answer
        .results
        .get(args.offset.min(total)..page_end)
        .unwrap_or_default();
    let truncated = page.len() < total;
    if args.json {
        let mut doc = to_json(&answer, relation);
        doc["results"] = serde_json::to_value(page)?;
        doc["truncated"] = truncated.into();
        doc["offset"] = args.offset.into();
        doc["limit"] = args.limit.into();
        print_json(doc)?;
        return Ok(exit);
    }
    // Rows show their line as the working tree has it, read no further than an index would.
    let mut text = SourceText::new(&ctx.root, ctx.config.index.max_file_size);
    let shown = Shown {
        results: page,
        references: &answer.references,
        through_trait: &answer.through_trait,
        limit: args.limit,
        offset: args.offset,
        paged: false,
    };
    print_out(&render(&answer, relation, &shown, ctx.out, &mut text))?;
    Ok(exit)
}

/// The `--max-tokens` output: a page of the answer's lists and its manifest.
fn print_budgeted(
    ctx: &Ctx,
    args: &GraphArgs,
    answer: &Answer,
    relation: Relation,
    max: usize,
) -> Result<()> {
    let next = |offset: usize| next_command(args, offset, max);
    let next_json = |offset: usize, max: usize| next_command(args, offset, max);
    let limit = Some(args.limit);
    if args.json {
        let fitted = pages::json_page(
            JsonPages::new(to_json(answer, relation), json_lists()),
            max,
            args.offset,
            limit,
            &Next::Command(&next_json),
            &|v, w| paged_fields(v, w, limit),
            &json_text,
        );
        return print_out(&fitted.text);
    }
    let mut text = SourceText::new(&ctx.root, ctx.config.index.max_file_size);
    let style = ctx.out;
    let fitted = if relation == Relation::Defs {
        pages::human_page(
            vec![answer.candidates.len()],
            &["definitions"],
            max,
            args.offset,
            limit,
            &next,
            &mut |w| {
                let mut out = String::new();
                let defs = answer.candidates.get(w.range(0)).unwrap_or_default();
                render_defs(&mut out, defs, style, &mut text);
                out
            },
        )
    } else {
        let rows = relation_name(relation);
        pages::human_page(
            vec![
                answer.results.len(),
                answer.references.len(),
                answer.through_trait.len(),
            ],
            &[rows, "references", "calls through a trait"],
            max,
            args.offset,
            limit,
            &next,
            &mut |w| {
                let shown = Shown {
                    results: answer.results.get(w.range(0)).unwrap_or_default(),
                    references: answer.references.get(w.range(1)).unwrap_or_default(),
                    through_trait: answer.through_trait.get(w.range(2)).unwrap_or_default(),
                    limit: usize::MAX,
                    offset: w.offset,
                    paged: true,
                };
                render(answer, relation, &shown, style, &mut text)
            },
        )
    };
    print_out(&fitted.text)
}

/// The command line of the page that starts at `offset`.
fn next_command(args: &GraphArgs, offset: usize, max_tokens: usize) -> String {
    let mut w: Vec<String> = vec![
        "llmc".into(),
        "graph".into(),
        relation_name(relation_of(args.relation)).into(),
        args.target.clone(),
    ];
    if args.depth != 1 {
        w.extend(["--depth".into(), args.depth.to_string()]);
    }
    if let Some(r) = args.resolution {
        w.extend(["--resolution".into(), r.to_string()]);
    }
    if args.limit != 50 {
        w.extend(["--limit".into(), args.limit.to_string()]);
    }
    w.extend(["--max-tokens".into(), max_tokens.to_string()]);
    w.extend(["--offset".into(), offset.to_string()]);
    if args.json {
        w.push("--json".into());
    }
    pages::command_line(&w)
}

/// The relation a command-line word asks for.
pub fn relation_of(r: GraphRelation) -> Relation {
    match r {
        GraphRelation::Callers => Relation::Callers,
        GraphRelation::Callees => Relation::Callees,
        GraphRelation::Defs => Relation::Defs,
        GraphRelation::Imports => Relation::Imports,
        GraphRelation::Importers => Relation::Importers,
    }
}

/// Definitions need only the foundation; the edges need the code graph.
pub fn check_memory(store: &Store, relation: Relation) -> Result<()> {
    if relation != Relation::Defs && !store.memories()?.graph {
        return Err(LlmcError::MemoryOff(crate::model::Memory::Graph).into());
    }
    Ok(())
}

/// Asks the graph about `target`: a path (imports, importers, `path:name`) is read from
/// the directory llmc was started in first, then from the root.
pub fn answer(
    ctx: &Ctx,
    store: &Store,
    relation: Relation,
    target: &str,
    depth: u32,
    resolution: Option<crate::model::Resolution>,
) -> Result<Answer> {
    let ask = |target: &str| {
        graph::query(
            store,
            &GraphQuery {
                relation,
                target: target.to_string(),
                depth: depth.max(1),
                min_resolution: resolution,
            },
        )
    };
    let names_path = matches!(relation, Relation::Imports | Relation::Importers)
        || graph::split_path_target(target).0.is_some();
    let from_start = match ctx.from_start(target) {
        Some(t) if names_path => Some(ask(&t)?).filter(|a| !a.candidates.is_empty()),
        _ => None,
    };
    match from_start {
        Some(a) => Ok(a),
        None => ask(target),
    }
}

/// Whether the answer found something: a definition, and (for edges) a row, a
/// reference or a call through a trait (a function only applied as a decorator or
/// handed on as a value is used: found).
pub fn found(answer: &Answer) -> bool {
    !answer.candidates.is_empty()
        && (!answer.results.is_empty()
            || !answer.references.is_empty()
            || !answer.through_trait.is_empty())
}

/// The whole answer as `--json` prints it (every row; the paging fields say so).
pub fn to_json(answer: &Answer, relation: Relation) -> serde_json::Value {
    let by_file: Vec<_> = graph::by_file(&answer.results)
        .into_iter()
        .map(|(path, count)| json!({ "path": path, "count": count }))
        .collect();
    json!({
        "target": answer.target,
        "relation": relation_name(relation),
        "candidates": answer.candidates,
        "results": answer.results,
        "truncated": false,
        "total": answer.results.len(),
        "offset": 0,
        "limit": null,
        "by_file": by_file,
        "set_aside": answer.set_aside,
        "also_named": answer.also_named,
        "references": answer.references,
        "through_trait": answer.through_trait,
    })
}

/// The lists a budget pages through, in order.
pub fn json_lists() -> pages::Lists {
    [
        "candidates",
        "results",
        "references",
        "through_trait",
        "also_named",
        "by_file",
    ]
    .iter()
    .map(|n| pages::list(n, &format!("/{n}"), Shape::Array))
    .collect()
}

/// A page's own paging fields: `truncated` (something is left after it), `offset`
/// (where it starts in the answer's lists) and `limit`.
pub fn paged_fields(v: &mut serde_json::Value, w: &Window, limit: Option<usize>) {
    v["truncated"] = (!w.complete()).into();
    v["offset"] = w.offset.into();
    v["limit"] = limit.into();
}

pub fn relation_name(r: Relation) -> &'static str {
    match r {
        Relation::Callers => "callers",
        Relation::Callees => "callees",
        Relation::Defs => "defs",
        Relation::Imports => "imports",
        Relation::Importers => "importers",
    }
}

/// What a rendering shows of the answer's lists.
struct Shown<'a> {
    results: &'a [graph::Row],
    references: &'a [graph::Row],
    through_trait: &'a [graph::Row],
    /// Rows listed apart (references, calls through a trait) before "… and N more".
    limit: usize,
    /// Where `results` starts in the answer.
    offset: usize,
    /// A page of `--max-tokens`: no summary by file, no "showing" line (the manifest
    /// says what was left out).
    paged: bool,
}

fn render(
    answer: &Answer,
    relation: Relation,
    shown: &Shown,
    style: Style,
    text: &mut SourceText,
) -> String {
    let page = shown.results;
    let total = answer.results.len();
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
        let defs = &answer.candidates;
        let end = (shown.offset + shown.limit).min(defs.len());
        let start = shown.offset.min(end);
        render_defs(
            &mut out,
            defs.get(start..end).unwrap_or_default(),
            style,
            text,
        );
        if end - start < defs.len() {
            let _ = writeln!(
                out,
                "showing {}-{end} of {}; see more with --offset {end} (or --limit {})",
                start + 1,
                defs.len(),
                defs.len()
            );
        }
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
    if total > shown.limit && !shown.paged {
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
        let extra = match (&r.defined_at, relation, &r.through) {
            (Some(at), Relation::Callees | Relation::Imports, _) => format!("  -> {at}"),
            (_, Relation::Callers, Some(macros)) => format!("  (through {macros})"),
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
    } else if page.len() < total && !shown.paged {
        let shown_to = shown.offset + page.len();
        let _ = writeln!(
            out,
            "showing {}-{shown_to} of {total}; see more with --offset {shown_to} (or --limit {total})",
            shown.offset + 1
        );
    }
    let (n, u) = (aside.name_only, aside.unresolved);
    let s = |n: usize| if n == 1 { "" } else { "s" };
    // A page of --max-tokens shows a list's header only beside some of its rows.
    if !shown.through_trait.is_empty() || (!shown.paged && !answer.through_trait.is_empty()) {
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
        list_apart(
            &mut out,
            style,
            text,
            &header,
            shown.through_trait,
            shown.limit,
            |r| format!("through trait, {}", r.resolution),
        );
    }
    if !shown.references.is_empty() || (!shown.paged && !answer.references.is_empty()) {
        let refs = &answer.references;
        let header = format!(
            "also {} ({} place{}):",
            graph::references_heading(refs),
            refs.len(),
            s(refs.len())
        );
        list_apart(
            &mut out,
            style,
            text,
            &header,
            shown.references,
            shown.limit,
            |r| format!("{} {}", r.usage.label(), r.resolution),
        );
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
fn render_defs(out: &mut String, defs: &[graph::Def], style: Style, text: &mut SourceText) {
    use std::fmt::Write as _;
    for d in defs {
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
}
