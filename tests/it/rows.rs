//! What a human row shows: the line it stands on (as `rg` does), the parent chain of a
//! `--depth` answer, definitions as definitions, and a search hit's best lines.

use crate::util::{Scratch, json, stdout};

fn indexed_python() -> Scratch {
    let repo = Scratch::git_fixture("python");
    let out = repo.llmc(&["index", "-q"]);
    assert!(out.status.success(), "{}", crate::util::stderr(&out));
    repo
}

/// The row of `out` that starts with `at`.
fn row<'a>(out: &'a str, at: &str) -> &'a str {
    out.lines()
        .find(|l| l.trim_start_matches(['└', ' ']).starts_with(at))
        .unwrap_or_else(|| panic!("no row at {at} in:\n{out}"))
}

#[test]
fn graph_rows_show_the_line_they_stand_on_with_the_name_marked_under_colour() {
    let repo = indexed_python();
    let out = stdout(&repo.llmc(&["graph", "callers", "shelf_weight"]));
    let r = row(&out, "app/report.py:19");
    assert!(r.contains("shelf_report"), "{r}");
    assert!(
        r.ends_with(r#"| lines.append(f"weight: {shelf_weight(shelf):.1f}")"#),
        "{r}"
    );
    let callees = stdout(&repo.llmc(&["graph", "callees", "shelf_total"]));
    assert!(
        row(&callees, "inventory/pricing.py:16")
            .ends_with("| return apply_vat(net) if with_vat else net"),
        "{callees}"
    );
    let coloured = stdout(&repo.llmc(&["graph", "callers", "shelf_weight", "--color", "always"]));
    assert!(
        coloured.contains("total += \x1b[1;31mshelf_weight\x1b[0m(child)"),
        "{coloured:?}"
    );
    // The line text is for people: JSON rows stay as they were.
    let j = json(&repo.llmc(&["graph", "callers", "shelf_weight", "--json"]));
    assert!(j["results"][0].get("text").is_none());
}

#[test]
fn a_deeper_row_sits_under_the_row_it_continues_from_and_names_it() {
    let repo = indexed_python();
    let out = stdout(&repo.llmc(&["graph", "callers", "apply_vat", "--depth", "3"]));
    let lines: Vec<&str> = out.lines().collect();
    let at = |p: &str| {
        lines
            .iter()
            .position(|l| l.contains(p))
            .unwrap_or_else(|| panic!("no {p} in:\n{out}"))
    };
    let (total, report, main) = (
        at("inventory/pricing.py:16"),
        at("app/report.py:18"),
        at("app/cli.py:19"),
    );
    assert!(total < report && report < main, "{out}");
    assert!(lines[report].starts_with("└ "), "{out}");
    assert!(lines[main].starts_with("  └ "), "{out}");
    // The call site of a deeper row is marked with the name it calls there.
    let coloured = stdout(&repo.llmc(&[
        "graph",
        "callers",
        "apply_vat",
        "--depth",
        "2",
        "--color",
        "always",
    ]));
    assert!(
        coloured.contains("pr.\x1b[1;31mshelf_total\x1b[0m(shelf)"),
        "{coloured:?}"
    );

    let j = json(&repo.llmc(&["graph", "callers", "apply_vat", "--depth", "3", "--json"]));
    let rows = j["results"].as_array().expect("rows");
    // Every row past depth 1 follows its parent and names it in `via`.
    for (i, r) in rows.iter().enumerate() {
        let depth = r["depth"].as_u64().expect("depth");
        if depth == 1 {
            assert!(r.get("via").is_none(), "{r}");
            continue;
        }
        let parent = rows[..i]
            .iter()
            .rev()
            .find(|p| p["depth"].as_u64() == Some(depth - 1))
            .unwrap_or_else(|| panic!("row {i} has no parent before it: {j}"));
        assert_eq!(r["via"], parent["symbol"], "{j}");
    }
    assert_eq!(rows.len(), 3, "{j}");
}

#[test]
fn graph_defs_lists_definitions_as_what_they_are() {
    let repo = indexed_python();
    let out = stdout(&repo.llmc(&["graph", "defs", "Item"]));
    assert_eq!(
        out.lines().next(),
        Some("inventory/models.py:9-29  class Item  | class Item:"),
        "{out}"
    );
    assert!(
        !out.contains("[exact]") && !out.contains("inventory/models.py:Item:"),
        "{out}"
    );
    // A name defined several times: one row each, no headers.
    repo.write("app/extra.py", "class Item:\n    pass\n");
    assert!(repo.llmc(&["index", "-q"]).status.success());
    let out = stdout(&repo.llmc(&["graph", "defs", "Item"]));
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(rows[0].starts_with("app/extra.py:1-2  class Item"), "{out}");
}

#[test]
fn search_hits_show_their_best_lines() {
    let repo = indexed_python();
    let out = stdout(&repo.llmc(&["search", "VAT rate", "-k", "2"]));
    let lines: Vec<&str> = out.lines().collect();
    let hit = lines
        .iter()
        .position(|l| l.contains("inventory/pricing.py:19-21"))
        .unwrap_or_else(|| panic!("apply_vat is a hit:\n{out}"));
    // Its lines follow it, numbered, the one with both words among them.
    let shown: Vec<&str> = lines[hit + 1..]
        .iter()
        .take_while(|l| l.contains(" | "))
        .copied()
        .collect();
    assert!(!shown.is_empty() && shown.len() <= 2, "{out}");
    assert!(
        shown.iter().any(|l| l
            .trim_start()
            .starts_with("21 | return round(amount * (1 + VAT_RATE), 2)")),
        "{out}"
    );
}
