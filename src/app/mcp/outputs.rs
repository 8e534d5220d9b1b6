//! The output schemas of `llmc mcp`'s tools: the documents of the commands' `--json`
//! (README), plus `freshness`, `warnings` and the budget's manifest `omitted`. Written
//! by hand from those documents; every field a tool returns is named with its type (a
//! client may validate against them, as the Python SDK does), new fields may be added.

use serde_json::{Map, Value, json};

fn t(ty: &str, doc: &str) -> Value {
    json!({ "type": ty, "description": doc })
}

fn maybe(ty: &str, doc: &str) -> Value {
    json!({ "type": [ty, "null"], "description": doc })
}

fn list(doc: &str, items: Value) -> Value {
    json!({ "type": "array", "description": doc, "items": items })
}

fn strings(doc: &str) -> Value {
    list(doc, json!({ "type": "string" }))
}

fn obj(doc: &str, props: &[(&str, Value)], required: &[&str]) -> Value {
    let props: Map<String, Value> = props
        .iter()
        .map(|(k, v)| ((*k).to_string(), v.clone()))
        .collect();
    json!({ "type": "object", "description": doc, "properties": props, "required": required })
}

fn int(doc: &str) -> Value {
    t("integer", doc)
}

/// What every tool's answer carries besides its command's document.
fn common(props: &mut Vec<(&str, Value)>) {
    props.push((
        "freshness",
        obj(
            "The index the answer was read from, checked against the files first.",
            &[
                ("generation", int("The index generation read.")),
                (
                    "indexed_at",
                    maybe("string", "When it was written (RFC 3339, UTC)."),
                ),
                (
                    "indexed_at_unix",
                    maybe("integer", "The same, in Unix seconds."),
                ),
                (
                    "refreshed_files",
                    int("Files re-indexed before answering because they changed."),
                ),
                (
                    "built",
                    t("boolean", "There was no index: it was built for this call."),
                ),
                (
                    "stale",
                    t("boolean", "Files changed and could not be re-indexed."),
                ),
                (
                    "note",
                    t("string", "What was done first, when anything was."),
                ),
            ],
            &["generation", "refreshed_files", "stale"],
        ),
    ));
    props.push(("warnings", strings("Things to know about this answer.")));
    props.push((
        "omitted",
        obj(
            "The budget's manifest: which items of the answer's lists this page holds, how \
             many of each list were left out, and the exact call for the next page.",
            &[
                (
                    "offset",
                    int("The first item of this page in the answer's lists, read in order."),
                ),
                ("shown", int("Items on this page.")),
                ("total", int("Items in all the answer's lists.")),
                (
                    "left",
                    json!({
                        "type": "object",
                        "description": "Per list (as its JSON field is named): items after this page.",
                        "additionalProperties": { "type": "integer" },
                    }),
                ),
                ("max_tokens", int("The budget this page was fitted to.")),
                (
                    "next",
                    json!({
                        "type": ["object", "null"],
                        "description": "The call that returns the next page (null on the last): the same tool and arguments with `offset` moved on.",
                        "properties": {
                            "tool": { "type": "string" },
                            "arguments": { "type": "object" },
                        },
                    }),
                ),
                (
                    "cut",
                    json!({
                        "type": "object",
                        "description": "This page's one item was too large for the budget and is shown cut: `list` and `item` say which, `parts` which of its arrays and strings were cut (JSON pointers inside it: shown and total elements or characters), `whole` is the call that returns it whole.",
                        "properties": {
                            "list": { "type": "string" },
                            "item": { "type": "integer" },
                            "parts": { "type": "object" },
                            "whole": { "type": "object" },
                        },
                    }),
                ),
                (
                    "over_budget",
                    t(
                        "boolean",
                        "The answer's head alone is larger than the budget: the page is \
                         returned over it.",
                    ),
                ),
            ],
            &["offset", "shown", "total", "left", "max_tokens", "next"],
        ),
    ));
    props.push(("schema_version", int("The JSON format's version (1).")));
}

fn document(doc: &str, mut props: Vec<(&str, Value)>, required: &[&str]) -> Value {
    common(&mut props);
    let mut required = required.to_vec();
    required.extend(["freshness", "omitted", "schema_version"]);
    obj(doc, &props, &required)
}

fn def() -> Value {
    obj(
        "A definition.",
        &[
            ("path", t("string", "File, from the repository root.")),
            ("line", int("First line (1-based).")),
            ("end_line", int("Last line.")),
            ("symbol", t("string", "Qualified name.")),
            (
                "kind",
                t(
                    "string",
                    "function, method, class, struct, constant, file, …",
                ),
            ),
        ],
        &["path", "line", "symbol", "kind"],
    )
}

fn row() -> Value {
    obj(
        "An edge: a call site (or import line) and the symbol at its other end.",
        &[
            ("path", t("string", "Where the call or import is written.")),
            ("line", int("Its line.")),
            (
                "symbol",
                t(
                    "string",
                    "callers: the enclosing caller; callees: the callee; imports: the module.",
                ),
            ),
            (
                "resolution",
                t(
                    "string",
                    "precise (from a SCIP index), exact, import, scope, name-only, external or unresolved.",
                ),
            ),
            ("depth", int("1 for direct edges.")),
            (
                "candidates",
                int("How many definitions the call could have meant."),
            ),
            (
                "target",
                t(
                    "string",
                    "Which definition (`path:symbol`) the row answers for.",
                ),
            ),
            (
                "defined_at",
                t(
                    "string",
                    "callees and imports: where the other end is defined.",
                ),
            ),
            (
                "usage",
                t(
                    "string",
                    "references: how the name is used (decorator, value, macro: called in a macro's body).",
                ),
            ),
            (
                "via",
                t(
                    "string",
                    "Past depth 1: the definition the row continues from.",
                ),
            ),
        ],
        &["path", "line", "symbol", "resolution"],
    )
}

fn commit() -> Value {
    obj(
        "A commit.",
        &[
            ("commit", t("string", "Full hash.")),
            (
                "date",
                t("string", "Author date, ISO 8601 with the author's offset."),
            ),
            ("author", t("string", "")),
            ("email", t("string", "")),
            ("subject", t("string", "")),
            ("body", t("string", "")),
            ("parents", strings("Parent hashes.")),
            (
                "files",
                list(
                    "The files it changed that concern the target (all for every commit).",
                    obj(
                        "",
                        &[
                            ("path", t("string", "")),
                            ("old_path", maybe("string", "Before a rename.")),
                            ("status", t("string", "A, M, D, R…")),
                            ("added", maybe("integer", "Lines added (null: binary).")),
                            ("removed", maybe("integer", "Lines removed.")),
                        ],
                        &["path", "status"],
                    ),
                ),
            ),
            (
                "symbols",
                list(
                    "The definitions it touched that concern the target.",
                    obj(
                        "",
                        &[
                            ("path", t("string", "")),
                            ("symbol", t("string", "")),
                            ("kind", t("string", "")),
                            ("change", t("string", "added, modified or deleted.")),
                            ("hunks", strings("The hunks that overlap it.")),
                        ],
                        &["path", "symbol", "change"],
                    ),
                ),
            ),
        ],
        &["commit", "date", "author", "subject"],
    )
}

fn source() -> Value {
    obj(
        "A chunk of a file that may answer.",
        &[
            ("path", t("string", "")),
            ("start_line", int("")),
            ("end_line", int("")),
            ("symbol", maybe("string", "The definition the chunk holds.")),
            ("kind", t("string", "")),
            ("lang", t("string", "")),
            ("score", t("number", "The fused score.")),
        ],
        &["path", "start_line", "end_line"],
    )
}

pub fn graph() -> Value {
    document(
        "`llmc graph RELATION TARGET --json`: the definitions the target names and the \
         edges asked for.",
        vec![
            ("target", t("string", "The target as given.")),
            (
                "relation",
                t("string", "callers, callees, defs, imports or importers."),
            ),
            (
                "candidates",
                list("The definitions (or files) the target names.", def()),
            ),
            ("results", list("The edges (definitions, for defs).", row())),
            (
                "truncated",
                t("boolean", "Items are left after this page (see `omitted`)."),
            ),
            ("total", int("Edges in the whole answer.")),
            (
                "offset",
                int("Where this page starts in the answer's lists."),
            ),
            ("limit", maybe("integer", "The most items a page may hold.")),
            (
                "by_file",
                list(
                    "Edges per file, in the whole answer.",
                    obj(
                        "",
                        &[("path", t("string", "")), ("count", int(""))],
                        &["path", "count"],
                    ),
                ),
            ),
            (
                "set_aside",
                obj(
                    "callers: direct call sites not listed (nothing proves they mean the \
                     target): `name_only` matched by name alone, `unresolved` with an \
                     unknown receiver.",
                    &[("name_only", int("")), ("unresolved", int(""))],
                    &["name_only", "unresolved"],
                ),
            ),
            (
                "also_named",
                list(
                    "Other definitions with the bare name asked (ask for them as \
                     `Type.name` or `path:name`).",
                    def(),
                ),
            ),
            (
                "references",
                list(
                    "Uses that are not calls (decorator, value) and calls in a macro's body (macro).",
                    row(),
                ),
            ),
            (
                "through_trait",
                list(
                    "Calls of the trait or interface method the target implements.",
                    row(),
                ),
            ),
        ],
        &["target", "relation", "candidates", "results", "total"],
    )
}

pub fn history() -> Value {
    document(
        "`llmc log [TARGET] --json`: the commits that changed the target, newest first \
         (oldest first with `reverse`).",
        vec![
            (
                "target",
                t("string", "The target as given (empty: every commit)."),
            ),
            (
                "resolved",
                obj(
                    "How the target was read: `kind` all, file, dir or symbol.",
                    &[
                        ("kind", t("string", "")),
                        ("path", maybe("string", "")),
                        ("name", t("string", "")),
                    ],
                    &["kind"],
                ),
            ),
            (
                "matched",
                strings("For a definition: every `path:qualname` it matched in the history."),
            ),
            (
                "total",
                int("Commits that match in all (this page holds some of them)."),
            ),
            ("commits", list("The commits of this page.", commit())),
            (
                "history",
                maybe(
                    "string",
                    "Present while the history is still being read (newest first): how \
                     far back it reaches, e.g. `history read back to 2019-03-02, 41 % of \
                     commits; ask again later for older`.",
                ),
            ),
        ],
        &["target", "resolved", "matched", "total", "commits"],
    )
}

pub fn search() -> Value {
    document(
        "`llmc search QUERY --json`: the best-matching chunks.",
        vec![
            ("query", t("string", "")),
            ("mode", t("string", "lexical, semantic or hybrid (as run).")),
            (
                "hits",
                list(
                    "Best first; `routes` gives each route's rank and score.",
                    source(),
                ),
            ),
            (
                "hnsw",
                t("boolean", "The vector search used its HNSW graph."),
            ),
            (
                "stale_hits",
                int("Hits dropped: their chunk is gone from the store."),
            ),
            (
                "timings_ms",
                json!({"type": "object", "description": "Milliseconds per step."}),
            ),
        ],
        &["query", "mode", "hits"],
    )
}

pub fn status() -> Value {
    let counted = |doc: &str| {
        obj(
            doc,
            &[
                ("total", int("")),
                (
                    "by_language",
                    json!({"type": "object", "additionalProperties": {"type": "integer"}}),
                ),
            ],
            &["total"],
        )
    };
    document(
        "`llmc status --json`: what the index holds and what changed on disk since.",
        vec![
            ("root", t("string", "The repository root.")),
            ("generation", int("")),
            ("indexed_at", maybe("string", "RFC 3339, UTC.")),
            ("indexed_at_unix", maybe("integer", "")),
            ("files", counted("Indexed files.")),
            ("definitions", counted("Definitions.")),
            ("chunks", int("")),
            (
                "skipped",
                json!({"type": "object", "description": "Files skipped, by reason."}),
            ),
            (
                "flagged",
                json!({"type": "object", "description": "Files flagged, by flag."}),
            ),
            (
                "changed",
                obj(
                    "Files changed on disk since the index.",
                    &[
                        ("modified", strings("")),
                        ("added", strings("")),
                        ("deleted", strings("")),
                    ],
                    &["modified", "added", "deleted"],
                ),
            ),
            ("size_bytes", int("Bytes on disk under .llmc/.")),
            (
                "history",
                json!({"type": "object", "description": "commits, head, shallow, partial, note; \
                    remaining (commits not read yet, 0 when the history is whole) and \
                    read_back_to (the date of the oldest commit read, while some are left)."}),
            ),
            ("memories", strings("The memories built.")),
            (
                "memories_switched",
                strings("Memories switched on or off since the index."),
            ),
            (
                "read_again",
                t(
                    "string",
                    "Why the next ask or index reads every file again though none changed \
                     (absent when nothing asks it).",
                ),
            ),
        ],
        &["root", "generation", "files", "changed"],
    )
}

pub fn ask() -> Value {
    document(
        "`llmc ask --json`: the answer, what supports it, the confidence. The trace only \
         with `trace`.",
        vec![
            ("question", t("string", "The question as asked.")),
            ("readings", strings("How the question's words were read.")),
            (
                "status",
                json!({"type": "string", "enum": ["answered", "abstained"]}),
            ),
            ("intents", strings("What the question asks, in order.")),
            (
                "entities",
                list(
                    "Names, paths, quotes and dates in the question.",
                    obj(
                        "",
                        &[("text", t("string", "")), ("kind", t("string", ""))],
                        &["text", "kind"],
                    ),
                ),
            ),
            (
                "answer",
                json!({
                    "type": ["object", "null"],
                    "description": "null when abstained. `kind`: graph, history, sources or several joined by +; `text`: the answer (a page holds some of its lines); `synthesis`: an LLM's prose, with `llm`.",
                    "properties": {
                        "kind": {"type": "string"},
                        "text": {"type": "string"},
                        "synthesis": {"type": "object"},
                    },
                }),
            ),
            (
                "sources",
                list(
                    "Ranked chunks, each with `evidence` (route, rank, score) and the \
                     `lines` that matter.",
                    source(),
                ),
            ),
            (
                "graph",
                list(
                    "Per named target and structural intent: `definitions`, `rows` (call \
                     sites or import lines), `set_aside`, `references`, `through_trait`.",
                    json!({"type": "object"}),
                ),
            ),
            (
                "history",
                list(
                    "Per target: `commits` (newest first), `total`, the window and author \
                     read from the question.",
                    json!({"type": "object"}),
                ),
            ),
            (
                "confidence",
                obj(
                    "`score`: the estimated probability that the first source is right; \
                     `label` High (≥ 0.90), Medium (≥ 0.70) or Low; and its signals.",
                    &[("score", t("number", "")), ("label", t("string", ""))],
                    &["score", "label"],
                ),
            ),
            (
                "abstention",
                obj(
                    "When abstained: `reason` (no_match, off_target, not_defined), `message`, the \
                     `nearest` misses and `try_identifiers`.",
                    &[
                        ("reason", t("string", "")),
                        ("message", t("string", "")),
                        ("nearest", list("", source())),
                        ("try_identifiers", strings("")),
                    ],
                    &["reason", "message"],
                ),
            ),
            (
                "refine",
                list(
                    "Extra attempts when the first was weak.",
                    json!({"type": "object"}),
                ),
            ),
            (
                "cached",
                t("boolean", "The answer came from the answer cache."),
            ),
            (
                "trace",
                list(
                    "With `trace`: each stage's decision, reasons and milliseconds.",
                    json!({"type": "object"}),
                ),
            ),
        ],
        &["question", "status", "answer", "sources", "confidence"],
    )
}
