//! Every hand-checked definition in the nine fixtures is found with its exact range and
//! kind, and nothing else is.

use crate::util::{LANGS, Scratch, definitions, testdata};

fn expected(lang: &str) -> Vec<String> {
    let text = std::fs::read_to_string(testdata().join("expected").join(format!("{lang}.defs")))
        .expect("expected defs");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_fixture_definition_is_found_exactly() {
    let mut report = String::new();
    for lang in LANGS {
        let repo = Scratch::fixture(lang);
        repo.index();
        let mut got = definitions(&repo.store());
        let mut want = expected(lang);
        got.sort();
        want.sort();
        let missing: Vec<_> = want.iter().filter(|w| !got.contains(w)).collect();
        let spurious: Vec<_> = got.iter().filter(|g| !want.contains(g)).collect();
        for m in &missing {
            report.push_str(&format!("{lang}: missing  {m}\n"));
        }
        for s in &spurious {
            report.push_str(&format!("{lang}: spurious {s}\n"));
        }
    }
    assert!(
        report.is_empty(),
        "definitions differ from testdata/expected:\n{report}"
    );
}

#[test]
fn definitions_carry_signatures_docs_and_parents() {
    let repo = Scratch::fixture("rust");
    repo.index();
    let store = repo.store();
    let rows: Vec<(String, String, String, Option<String>)> = store
        .read(|c| {
            let mut stmt = c.prepare(
                "SELECT s.qualname, s.signature, s.doc, p.qualname FROM symbols s
                 LEFT JOIN symbols p ON p.id = s.parent_id WHERE s.kind = 'method'",
            )?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
            rows.collect()
        })
        .expect("query");
    assert!(!rows.is_empty());
    for (qualname, signature, _doc, parent) in &rows {
        assert!(signature.contains("fn "), "{qualname}: {signature}");
        let parent = parent.as_deref().unwrap_or_default();
        assert!(
            qualname.starts_with(&format!("{parent}::")),
            "{qualname} should sit under its parent {parent}"
        );
    }
    let documented = rows.iter().filter(|r| !r.2.is_empty()).count();
    assert!(
        documented * 2 >= rows.len(),
        "most fixture methods have doc comments"
    );
    assert!(
        rows.iter().all(|r| !r.2.contains("///")),
        "doc comment markers are stripped"
    );
}

#[test]
fn every_definition_has_a_chunk_that_covers_it() {
    for lang in LANGS {
        let repo = Scratch::fixture(lang);
        repo.index();
        let uncovered: i64 = repo
            .store()
            .read(|c| {
                c.query_row(
                    "SELECT count(*) FROM symbols s WHERE NOT EXISTS (
                       SELECT 1 FROM chunks c WHERE c.symbol_id = s.id
                         AND c.start_line <= s.start_line AND c.kind = 'definition')",
                    [],
                    |r| r.get(0),
                )
            })
            .expect("query");
        assert_eq!(uncovered, 0, "{lang}: definitions without a chunk");
    }
}

#[test]
fn markdown_is_split_by_heading() {
    let repo = Scratch::fixture("python");
    repo.index();
    let sections: Vec<(String, i64, i64)> = repo
        .store()
        .read(|c| {
            let mut stmt = c.prepare(
                "SELECT coalesce(c.symbol, ''), c.start_line, c.end_line FROM chunks c
                 JOIN files f ON f.id = c.file_id WHERE f.path = 'README.md' ORDER BY c.start_line",
            )?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            rows.collect()
        })
        .expect("query");
    let readme = std::fs::read_to_string(repo.path().join("README.md")).expect("readme");
    let headings: Vec<usize> = readme
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with('#'))
        .map(|(i, _)| i + 1)
        .collect();
    assert!(headings.len() >= 2, "the fixture README has sections");
    for h in headings {
        assert!(
            sections.iter().any(|(_, s, _)| *s as usize == h),
            "a section starts at heading line {h}: {sections:?}"
        );
    }
}
