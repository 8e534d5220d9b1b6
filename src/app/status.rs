//! `llmc status`: renders [`crate::index::status`] (what the index holds, what changed
//! on disk since) for people or as JSON.

use std::collections::BTreeMap;

use anyhow::Result;

use super::style::Style;
use super::{Ctx, print_json, print_out};
use crate::cli::StatusArgs;
use crate::error::Exit;
use crate::index::status::{Status, status};

/// Prints the status.
pub fn cmd_status(ctx: &Ctx, args: &StatusArgs) -> Result<Exit> {
    let s = status(&ctx.root, &ctx.config)?;
    if args.json {
        print_json(serde_json::to_value(&s)?)?;
        return Ok(Exit::Ok);
    }
    let now = jiff::Timestamp::now().as_second();
    print_out(&render(&s, args.max_changed, now, ctx.out))?;
    Ok(Exit::Ok)
}

fn breakdown(m: &BTreeMap<String, u64>) -> String {
    let mut items: Vec<(&String, &u64)> = m.iter().collect();
    items.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    items
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The human form of a status; `now` (seconds since the epoch) says how long ago the
/// index was written.
pub fn render(s: &Status, max_changed: usize, now: i64, style: Style) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    // The labels are 13 columns wide; colour only the word, not its padding.
    let l = |word: &str| format!("{}{}", style.header(word), " ".repeat(13 - word.len()));
    let _ = writeln!(out, "{}{}", l("root"), s.root);
    let indexed = match (&s.indexed_at, s.indexed_at_unix) {
        (Some(at), Some(secs)) => match ago(secs, now) {
            Some(ago) => format!("{at}, {ago}"),
            None => at.clone(),
        },
        (Some(at), None) => at.clone(),
        (None, _) => "never".to_string(),
    };
    let _ = writeln!(
        out,
        "{}{} (indexed {indexed})",
        l("generation"),
        s.generation,
    );
    let _ = writeln!(
        out,
        "{}{} ({})",
        l("files"),
        s.files.total,
        breakdown(&s.files.by_language)
    );
    if let Some(note) = &s.text_only {
        let _ = writeln!(out, "  {note}");
    }
    let _ = writeln!(
        out,
        "{}{} ({})",
        l("definitions"),
        s.definitions.total,
        breakdown(&s.definitions.by_language)
    );
    let _ = writeln!(out, "{}{}", l("chunks"), s.chunks);
    let skipped: u64 = s.skipped.values().sum();
    let _ = writeln!(out, "{}{skipped}{}", l("skipped"), paren(&s.skipped));
    let flagged: BTreeMap<String, u64> = s
        .flagged
        .iter()
        .filter(|(_, v)| **v > 0)
        .map(|(k, v)| (k.to_string(), *v))
        .collect();
    if !flagged.is_empty() {
        let _ = writeln!(out, "{}{}", l("flagged"), breakdown(&flagged));
    }
    let c = &s.changed;
    if c.total() == 0 {
        let _ = writeln!(out, "{}none since the index", l("changed"));
    } else {
        let _ = writeln!(
            out,
            "{}{} since the index ({} modified, {} new, {} deleted): run `llmc index`",
            l("changed"),
            c.total(),
            c.modified.len(),
            c.added.len(),
            c.deleted.len()
        );
        let all = c
            .modified
            .iter()
            .map(|p| ("M", p))
            .chain(c.added.iter().map(|p| ("A", p)))
            .chain(c.deleted.iter().map(|p| ("D", p)));
        for (tag, p) in all.clone().take(max_changed) {
            let _ = writeln!(out, "  {tag} {}", style.path(p));
        }
        if c.total() > max_changed {
            let _ = writeln!(out, "  … and {} more", c.total() - max_changed);
        }
    }
    if let Some(why) = &s.read_again {
        let _ = writeln!(
            out,
            "  every file is read again by the next `llmc ask` or `llmc index`: {why}"
        );
    }
    let memories = if s.memories.is_empty() {
        "none (definitions and chunks only)".to_string()
    } else {
        s.memories.join(", ")
    };
    let _ = writeln!(out, "{}{memories}", l("memories"));
    if !s.memories_switched.is_empty() {
        let _ = writeln!(
            out,
            "  {} since the index: run `llmc index`",
            s.memories_switched.join(", ")
        );
    }
    let h = &s.history;
    match (&h.note, &h.head) {
        (Some(note), _) => {
            let _ = writeln!(out, "{}none ({note})", l("history"));
        }
        (None, Some(head)) => {
            let _ = writeln!(
                out,
                "{}{} commits up to {}{}",
                l("history"),
                h.commits,
                head.get(..10).unwrap_or(head),
                if h.shallow {
                    " (shallow clone: the history stops at its boundary)"
                } else {
                    ""
                }
            );
            if let Some(note) = h.partial_note() {
                let _ = writeln!(
                    out,
                    "  {} ({} commits not read yet; `llmc index --history-only` reads them now)",
                    note.replacen("; ask again later for older", "", 1),
                    h.remaining
                );
            }
            if h.partial {
                let _ = writeln!(out, "  {}", crate::history::PARTIAL_NOTE);
            }
        }
        (None, None) => {
            let _ = writeln!(out, "{}not ingested: run `llmc index`", l("history"));
        }
    }
    if let Some(p) = &s.precise {
        for src in &p.sources {
            let langs: Vec<String> = src
                .languages
                .iter()
                .map(|g| {
                    if g.stale == 0 {
                        format!("{} ({} files)", g.language, g.documents)
                    } else {
                        format!(
                            "{} ({} files, {} changed since: heuristic until the next precise run)",
                            g.language, g.documents, g.stale
                        )
                    }
                })
                .collect();
            let when = ago(src.written_at, now).unwrap_or_else(|| "just now".into());
            let tool = src
                .tool
                .as_deref()
                .map_or_else(String::new, |t| format!(", {t}"));
            let _ = writeln!(
                out,
                "{}{} from {}{tool}, written {when}",
                l("precise"),
                langs.join(", "),
                style.path(&src.index)
            );
        }
        for w in &p.warnings {
            let _ = writeln!(out, "{}{w}", l("precise"));
        }
    }
    let _ = writeln!(out, "{}{}", l("size"), human_bytes(s.size_bytes));
    out
}

/// How long before `now` the instant `then` was, in its largest whole unit ("just now",
/// "3 minutes ago", "2 days ago"); `None` when it is in the future (a clock set back).
fn ago(then: i64, now: i64) -> Option<String> {
    let secs = now.checked_sub(then).filter(|d| *d >= 0)?;
    if secs < 60 {
        return Some("just now".to_string());
    }
    let (n, unit) = match secs {
        s if s < 3_600 => (s / 60, "minute"),
        s if s < 86_400 => (s / 3_600, "hour"),
        s => (s / 86_400, "day"),
    };
    Some(format!("{n} {unit}{} ago", if n == 1 { "" } else { "s" }))
}

fn paren(m: &BTreeMap<String, u64>) -> String {
    if m.values().all(|v| *v == 0) {
        String::new()
    } else {
        format!(" ({})", breakdown(m))
    }
}

fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    use super::ago;

    #[test]
    fn ago_says_how_long_in_the_largest_whole_unit() {
        let now = 1_800_000_000;
        assert_eq!(ago(now - 5, now).as_deref(), Some("just now"));
        assert_eq!(ago(now - 60, now).as_deref(), Some("1 minute ago"));
        assert_eq!(
            ago(now - 3 * 60 - 59, now).as_deref(),
            Some("3 minutes ago")
        );
        assert_eq!(ago(now - 2 * 3_600, now).as_deref(), Some("2 hours ago"));
        assert_eq!(
            ago(now - 400 * 86_400, now).as_deref(),
            Some("400 days ago")
        );
        assert_eq!(ago(now + 10, now), None, "a clock set back");
        assert_eq!(ago(i64::MIN, now), None, "no overflow");
    }
}
