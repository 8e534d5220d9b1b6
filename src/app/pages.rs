//! Output sized for a budget ([`crate::budget`]): the page that fits, with its manifest
//! (what was left out, and how to get the next page), as JSON for `--json` and
//! `llmc mcp`, or as human text.

use serde_json::{Value, json};

use crate::budget::{self, Fitted, JsonPages, Shape, Window};

/// The lists of a JSON answer to page: `(name, JSON pointer, shape)`.
pub type Lists = Vec<(String, String, Shape)>;

/// A list named as its JSON field is.
pub fn list(name: &str, pointer: &str, shape: Shape) -> (String, String, Shape) {
    (name.to_string(), pointer.to_string(), shape)
}

/// How another page is asked for, given where it starts and its budget.
pub enum Next<'a> {
    /// A command line (`--json` and human output): `next_command` in JSON.
    Command(&'a dyn Fn(usize, usize) -> String),
    /// A call of an MCP tool: `next` is `{"tool", "arguments"}`.
    Tool(&'a dyn Fn(usize, usize) -> Value),
}

impl Next<'_> {
    /// The manifest's key for the next page, and its value for a page at `offset`.
    fn at(&self, offset: usize, max_tokens: usize) -> (&'static str, Value) {
        match self {
            Next::Command(f) => ("next_command", Value::from(f(offset, max_tokens))),
            Next::Tool(f) => ("next", f(offset, max_tokens)),
        }
    }
}

/// Pages a JSON document ([`JsonPages`]): the largest page from `offset` (at most `limit`
/// items) whose text, as `text` writes it, fits `max_tokens`, with the manifest under
/// `omitted`. `adjust` sets what a page's own fields say (e.g. `truncated`) before it is
/// measured.
///
/// A first item too large for a page of its own is shown cut to the most that fits
/// ([`budget::shrink`]); the manifest's `cut` names the parts cut and the call (or
/// command) that returns the item whole. Only a head too large for the budget is
/// returned over it, and says so (`over_budget`).
pub fn json_page(
    pages: JsonPages,
    max_tokens: usize,
    offset: usize,
    limit: Option<usize>,
    next: &Next,
    adjust: &dyn Fn(&mut Value, &Window),
    text: &dyn Fn(Value) -> String,
) -> Fitted {
    // `cut`: the cut item's manifest entry, when the page shows one cut.
    let render = |w: &Window, doc: Value, extra: Option<(&str, Value)>| {
        let mut v = doc;
        adjust(&mut v, w);
        let mut m = pages.manifest(w, max_tokens);
        let (key, value) = next.at(w.end(), max_tokens);
        m.insert(key.into(), if w.complete() { Value::Null } else { value });
        if let Some((k, x)) = extra {
            m.insert(k.into(), x);
        }
        if let Value::Object(o) = &mut v {
            o.insert("omitted".into(), Value::Object(m));
        }
        text(v)
    };
    // The manifest is about 250 bytes; the guess only decides where the search starts.
    let guess = pages.guess(offset, max_tokens, 250);
    let mut fitted = budget::fit(max_tokens, offset, pages.lens(), limit, Some(guess), |w| {
        render(w, pages.page(w), None)
    });
    if !fitted.over_budget {
        return fitted;
    }
    // One item, too large: cut it to the most that fits, if the head leaves room.
    let w = fitted.window.clone();
    let whole = budget::tokens(&fitted.text);
    let item_level = pages.item(&w).map_or(0, budget::whole_level);
    let cut_entry = |cuts: &budget::Cuts| {
        let (list, index) = pages.first_item(&w).unwrap_or((0, 0));
        let parts: serde_json::Map<String, Value> = cuts
            .iter()
            .map(|(at, shown, total)| (at.clone(), json!({"shown": shown, "total": total})))
            .collect();
        // The same page with room for the item whole (and its manifest).
        let (_, call) = next.at(w.offset, whole + 64);
        json!({"list": pages.name(list), "item": index, "parts": parts, "whole": call})
    };
    let try_level = |k: usize| {
        let (doc, cuts) = pages.page_cut(&w, k);
        let t = render(&w, doc, Some(("cut", cut_entry(&cuts))));
        (budget::tokens(&t) <= max_tokens, t)
    };
    let (fits, t) = try_level(0);
    if !fits {
        fitted.text = render(&w, pages.page(&w), Some(("over_budget", true.into())));
        return fitted;
    }
    let (mut good, mut good_text, mut bad) = (0, t, item_level.max(1));
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        let (fits, t) = try_level(mid);
        if fits {
            (good, good_text) = (mid, t);
        } else {
            bad = mid;
        }
    }
    fitted.text = good_text;
    fitted.over_budget = false;
    fitted
}

/// The manifest of a human page, as lines after it: nothing when the page is the whole
/// answer, else which items it shows, how many of each list were left out and the
/// command that prints the next page.
pub fn human_manifest(
    w: &Window,
    names: &[&str],
    next: &dyn Fn(usize) -> String,
    over_budget: bool,
) -> String {
    if w.offset == 0 && w.complete() && !over_budget {
        return String::new();
    }
    let mut out = if w.count == 0 {
        format!("(nothing left past item {} of {})", w.offset, w.total())
    } else {
        format!(
            "(showing items {}-{} of {}",
            w.offset + 1,
            w.end(),
            w.total()
        )
    };
    let left: Vec<String> = names
        .iter()
        .enumerate()
        .filter(|(i, _)| w.left(*i) > 0)
        .map(|(i, name)| format!("{name} {}", w.left(i)))
        .collect();
    if w.count > 0 {
        if !left.is_empty() {
            out.push_str(&format!("; left out: {}", left.join(", ")));
        }
        out.push(')');
    }
    if over_budget {
        out.push_str(" (this item alone is larger than the budget: shown whole)");
    }
    out.push('\n');
    if !w.complete() {
        out.push_str(&format!("next page: {}\n", next(w.end())));
    }
    out
}

/// Pages a human rendering: the largest page from `offset` (at most `limit` items)
/// whose text, `render(window)` followed by its manifest, fits `max_tokens`.
pub fn human_page(
    lens: Vec<usize>,
    names: &[&str],
    max_tokens: usize,
    offset: usize,
    limit: Option<usize>,
    next: &dyn Fn(usize) -> String,
    render: &mut dyn FnMut(&Window) -> String,
) -> Fitted {
    let mut whole = |w: &Window, over: bool| {
        let mut s = render(w);
        s.push_str(&human_manifest(w, names, next, over));
        super::style::terminal_safe(&s).into_owned()
    };
    let mut fitted = budget::fit(max_tokens, offset, lens, limit, None, |w| whole(w, false));
    if fitted.over_budget {
        fitted.text = whole(&fitted.window, true);
    }
    fitted
}

/// A word as a POSIX shell reads it back: quoted unless it is plain.
pub fn shell_word(w: &str) -> String {
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:@=,".contains(c))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// A command line from its words, each quoted as a shell needs.
pub fn command_line(words: &[String]) -> String {
    words
        .iter()
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_when_a_shell_needs_it() {
        assert_eq!(shell_word("src/a.rs:parse"), "src/a.rs:parse");
        assert_eq!(shell_word("who calls it?"), "'who calls it?'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word(""), "''");
    }

    #[test]
    fn a_human_manifest_says_what_was_left_and_how_to_get_it() {
        let w = Window {
            offset: 0,
            count: 3,
            lens: vec![5, 2],
        };
        let m = human_manifest(
            &w,
            &["callers", "references"],
            &|n| format!("llmc x --offset {n}"),
            false,
        );
        assert_eq!(
            m,
            "(showing items 1-3 of 7; left out: callers 2, references 2)\nnext page: llmc x --offset 3\n"
        );
        let whole = Window {
            offset: 0,
            count: 7,
            lens: vec![5, 2],
        };
        assert_eq!(
            human_manifest(&whole, &["a", "b"], &|_| String::new(), false),
            ""
        );
        let last = Window {
            offset: 3,
            count: 4,
            lens: vec![5, 2],
        };
        assert_eq!(
            human_manifest(&last, &["a", "b"], &|_| String::new(), false),
            "(showing items 4-7 of 7)\n"
        );
    }
}
