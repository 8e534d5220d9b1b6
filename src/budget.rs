//! Answers sized for a budget of tokens (`llmc mcp`'s `max_tokens`, the CLI's
//! `--max-tokens N`): the answer first, then as many of its supporting items as fit,
//! and a manifest of what did not fit with the exact call that returns the next page.
//! Nothing is cut silently.
//!
//! **The estimate.** A text of B bytes (UTF-8) is `ceil(B / 4)` tokens ([`tokens`]),
//! counted on exactly the text returned: the JSON document (compact for `llmc mcp`, as
//! printed for `--json`) or the human output, manifest included.
//!
//! **Pages.** An answer is a head (what it says: the question, the target, counts, the
//! confidence) and lists of items (callers, commits, sources, the lines of an answer
//! text) in a fixed order. The lists are read as one sequence; a page is a window over
//! it, from `offset`, holding the most items whose rendering fits the budget ([`fit`]).
//! Each list of a page holds its own items of the window, so the pages of an answer,
//! concatenated list by list, are the whole answer. A page always holds at least one item
//! when any is left, so paging ends. When that one item alone does not fit, a JSON page
//! shows it cut ([`shrink`]: its arrays to their first elements, its long strings to
//! their first characters), says which parts were cut, and gives the call that returns
//! it whole (the same page with a budget it fits); when the head alone does not fit, the
//! page says so (`over_budget`).

use std::ops::Range;

use serde_json::{Map, Value};

/// Bytes per token in the estimate.
pub const BYTES_PER_TOKEN: usize = 4;

/// The smallest budget accepted: a page holds the answer's head and its manifest.
pub const MIN_TOKENS: usize = 100;

/// The budget `llmc mcp` tools use when none is given.
pub const DEFAULT_TOKENS: usize = 2_000;

/// The estimated tokens of `text`: `ceil(bytes / 4)`.
pub fn tokens(text: &str) -> usize {
    text.len().div_ceil(BYTES_PER_TOKEN)
}

/// The items of one page: a window over the lists' items read in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// The first item of the page in the whole sequence.
    pub offset: usize,
    /// Items on the page.
    pub count: usize,
    /// Each list's length, in order.
    pub lens: Vec<usize>,
}

impl Window {
    /// Items in every list.
    pub fn total(&self) -> usize {
        self.lens.iter().sum()
    }

    /// Where the next page starts.
    pub fn end(&self) -> usize {
        self.offset + self.count
    }

    /// Whether nothing is left after this page.
    pub fn complete(&self) -> bool {
        self.end() >= self.total()
    }

    /// The items of list `i` on this page.
    pub fn range(&self, i: usize) -> Range<usize> {
        let start: usize = self.lens.iter().take(i).sum();
        let len = self.lens.get(i).copied().unwrap_or(0);
        let lo = self.offset.clamp(start, start + len) - start;
        let hi = self.end().clamp(start, start + len) - start;
        lo..hi
    }

    /// Items of list `i` after this page.
    pub fn left(&self, i: usize) -> usize {
        let len = self.lens.get(i).copied().unwrap_or(0);
        len - self.range(i).end
    }
}

/// A page that fits (or says it does not).
#[derive(Debug, Clone)]
pub struct Fitted {
    pub window: Window,
    /// The page as rendered.
    pub text: String,
    /// The page holds one item and still exceeds the budget (the item, or the head
    /// alone, is larger than the budget): returned whole rather than cut.
    pub over_budget: bool,
}

/// The largest page from `offset` (at most `limit` items) whose rendering fits in
/// `max_tokens`, and its text. `lens` are the lists' lengths; `render` renders a window,
/// manifest included. At least one item is shown when any is left after `offset`.
///
/// The search starts from `guess` (1 without one), doubles its step away from it until
/// a rendering fits on one side and not on the other, then bisects: a good guess costs
/// two or three renderings, none about 2 log2(n) for a page of n, whatever the lists'
/// length.
pub fn fit(
    max_tokens: usize,
    offset: usize,
    lens: Vec<usize>,
    limit: Option<usize>,
    guess: Option<usize>,
    mut render: impl FnMut(&Window) -> String,
) -> Fitted {
    let total: usize = lens.iter().sum();
    let offset = offset.min(total);
    let cap = limit.map_or(total - offset, |l| l.min(total - offset));
    let window = |count: usize| Window {
        offset,
        count,
        lens: lens.clone(),
    };
    let mut try_count = |count: usize| -> (bool, String) {
        let text = render(&window(count));
        (tokens(&text) <= max_tokens, text)
    };
    if cap == 0 {
        let (fits, text) = try_count(0);
        return Fitted {
            window: window(0),
            over_budget: !fits,
            text,
        };
    }
    // `good` fits; `bad` does not (or is past the cap).
    let start = guess.unwrap_or(1).clamp(1, cap);
    let (fits, text) = try_count(start);
    let (mut good, mut good_text, mut bad);
    if fits {
        (good, good_text, bad) = (start, text, cap + 1);
        let mut step = 1;
        while good + step <= cap {
            let (fits, text) = try_count(good + step);
            if !fits {
                bad = good + step;
                break;
            }
            (good, good_text) = (good + step, text);
            step *= 2;
        }
    } else {
        bad = start;
        let mut found = None;
        let mut n = start / 2;
        while n >= 1 {
            let (fits, text) = try_count(n);
            if fits {
                found = Some((n, text));
                break;
            }
            bad = n;
            n /= 2;
        }
        match found {
            Some(f) => (good, good_text) = f,
            None => {
                // Not even one item fits.
                let text = if start == 1 { text } else { try_count(1).1 };
                return Fitted {
                    window: window(1),
                    text,
                    over_budget: true,
                };
            }
        }
    }
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        let (fits, text) = try_count(mid);
        if fits {
            (good, good_text) = (mid, text);
        } else {
            bad = mid;
        }
    }
    // The last page's manifest is shorter (no next call): all the rest may fit where
    // fewer did not.
    if good < cap && bad <= cap {
        let (fits, text) = try_count(cap);
        if fits {
            (good, good_text) = (cap, text);
        }
    }
    Fitted {
        window: window(good),
        text: good_text,
        over_budget: false,
    }
}

/// How a list sits in a JSON document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// An array: its elements are the items.
    Array,
    /// A string: its lines (each with its line break) are the items.
    Lines,
}

/// A JSON document whose lists are paged: the head (the document with every list
/// emptied) and the items of each list, which [`JsonPages::page`] puts back for a window.
#[derive(Debug, Clone)]
pub struct JsonPages {
    head: Value,
    /// Name (as the manifest says it), JSON pointer, shape, items.
    lists: Vec<(String, String, Shape, Vec<Value>)>,
    /// Per list: the position of its first item held, and its whole length (a list read
    /// from a store one window at a time holds only that window: [`JsonPages::part`]).
    spans: Vec<(usize, usize)>,
    /// The head's size and each item's (compact JSON bytes), for [`JsonPages::guess`].
    head_bytes: usize,
    sizes: Vec<Vec<usize>>,
}

impl JsonPages {
    /// Pages `doc` through the lists at `lists` (name, JSON pointer, shape), in that
    /// order; a pointer that names nothing of that shape is an empty list.
    pub fn new(doc: Value, lists: Vec<(String, String, Shape)>) -> JsonPages {
        let mut head = doc;
        let lists = lists
            .into_iter()
            .map(|(name, pointer, shape)| {
                let items = match (head.pointer_mut(&pointer), shape) {
                    (Some(Value::Array(a)), Shape::Array) => std::mem::take(a),
                    (Some(Value::String(s)), Shape::Lines) => std::mem::take(s)
                        .split_inclusive('\n')
                        .map(|l| Value::String(l.to_string()))
                        .collect(),
                    _ => Vec::new(),
                };
                (name, pointer, shape, items)
            })
            .collect::<Vec<_>>();
        let spans = lists.iter().map(|l| (0, l.3.len())).collect();
        let sizes = lists
            .iter()
            .map(|l| l.3.iter().map(|v| v.to_string().len() + 1).collect())
            .collect();
        JsonPages {
            head_bytes: head.to_string().len(),
            head,
            lists,
            spans,
            sizes,
        }
    }

    /// About how many items from `offset` fit in `max_tokens` with the head and a
    /// manifest of `manifest_bytes`, from their compact sizes: where [`fit`] starts.
    pub fn guess(&self, offset: usize, max_tokens: usize, manifest_bytes: usize) -> usize {
        let mut room =
            (max_tokens * BYTES_PER_TOKEN).saturating_sub(self.head_bytes + manifest_bytes);
        let mut at = 0;
        let mut n = 0;
        for (i, sizes) in self.sizes.iter().enumerate() {
            let (start, len) = self.spans.get(i).copied().unwrap_or((0, sizes.len()));
            for pos in 0..len {
                if at + pos < offset {
                    continue;
                }
                let Some(size) = pos.checked_sub(start).and_then(|p| sizes.get(p)) else {
                    return n.max(1);
                };
                if *size > room {
                    return n.max(1);
                }
                room -= size;
                n += 1;
            }
            at += len;
        }
        n.max(1)
    }

    /// Says that list `i` holds only its items from `start` of the `len` it has: a page
    /// must then stay within them (`fit`'s limit).
    pub fn part(mut self, i: usize, start: usize, len: usize) -> JsonPages {
        if let Some(span) = self.spans.get_mut(i) {
            *span = (start, len);
        }
        self
    }

    /// The lists' lengths, in order.
    pub fn lens(&self) -> Vec<usize> {
        self.spans.iter().map(|s| s.1).collect()
    }

    /// The lists' names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.lists.iter().map(|l| l.0.as_str()).collect()
    }

    /// The document holding only the window's items in each list.
    pub fn page(&self, w: &Window) -> Value {
        let mut doc = self.head.clone();
        for (i, (_, pointer, shape, items)) in self.lists.iter().enumerate() {
            let start = self.spans.get(i).map_or(0, |s| s.0);
            let r = w.range(i);
            let kept = items
                .get(r.start.saturating_sub(start)..r.end.saturating_sub(start))
                .unwrap_or_default();
            if let Some(slot) = doc.pointer_mut(pointer) {
                *slot = match shape {
                    Shape::Array => Value::Array(kept.to_vec()),
                    Shape::Lines => Value::String(
                        kept.iter()
                            .filter_map(Value::as_str)
                            .collect::<Vec<_>>()
                            .concat(),
                    ),
                };
            }
        }
        doc
    }

    /// Which list holds the window's first item, and its index there.
    pub fn first_item(&self, w: &Window) -> Option<(usize, usize)> {
        (0..self.lists.len())
            .find(|&i| !w.range(i).is_empty())
            .map(|i| (i, w.range(i).start))
    }

    /// The page of a one-item window with that item cut to level `k` ([`shrink`]), and
    /// the parts cut.
    pub fn page_cut(&self, w: &Window, k: usize) -> (Value, Cuts) {
        let mut doc = self.page(w);
        let Some((i, _)) = self.first_item(w) else {
            return (doc, Vec::new());
        };
        let (_, pointer, shape, _) = &self.lists[i];
        let mut cuts = Vec::new();
        if *shape == Shape::Array
            && let Some(Value::Array(a)) = doc.pointer_mut(pointer)
            && let Some(item) = a.first_mut()
        {
            let (cut, c) = shrink(item, k);
            *item = cut;
            cuts = c;
        }
        (doc, cuts)
    }

    /// The name of list `i`.
    pub fn name(&self, i: usize) -> &str {
        self.lists.get(i).map_or("", |l| l.0.as_str())
    }

    /// The window's first item, whole.
    pub fn item(&self, w: &Window) -> Option<&Value> {
        let (i, at) = self.first_item(w)?;
        let start = self.spans.get(i).map_or(0, |s| s.0);
        self.lists.get(i)?.3.get(at.checked_sub(start)?)
    }

    /// The manifest of a page: where it starts, how many items it shows of how many,
    /// how many of each list are left after it (lists with none left are not named), and
    /// the budget. The caller adds how to get the next page.
    pub fn manifest(&self, w: &Window, max_tokens: usize) -> Map<String, Value> {
        manifest(w, &self.names(), max_tokens)
    }
}

/// The parts of an item [`shrink`] cut: JSON pointer (inside the item), shown, total
/// (elements of an array, characters of a string).
pub type Cuts = Vec<(String, usize, usize)>;

/// The characters a string keeps at cut level `k`.
fn chars_kept(k: usize) -> usize {
    64 * (k + 1)
}

/// `item` cut to level `k`: every array inside it to its first `k` elements, every string
/// to its first `64 (k + 1)` characters (then `…`); and the parts cut. The larger `k`, the
/// more is kept; a level past every array's length and string's size keeps it whole.
pub fn shrink(item: &Value, k: usize) -> (Value, Cuts) {
    fn walk(v: &Value, k: usize, at: &mut String, cuts: &mut Cuts) -> Value {
        let len = at.len();
        match v {
            Value::Array(a) => {
                let kept = a
                    .iter()
                    .take(k)
                    .enumerate()
                    .map(|(i, x)| {
                        at.push_str(&format!("/{i}"));
                        let x = walk(x, k, at, cuts);
                        at.truncate(len);
                        x
                    })
                    .collect();
                if a.len() > k {
                    cuts.push((at.clone(), k, a.len()));
                }
                Value::Array(kept)
            }
            Value::Object(m) => Value::Object(
                m.iter()
                    .map(|(key, x)| {
                        at.push('/');
                        at.push_str(&key.replace('~', "~0").replace('/', "~1"));
                        let x = walk(x, k, at, cuts);
                        at.truncate(len);
                        (key.clone(), x)
                    })
                    .collect(),
            ),
            Value::String(text) => {
                let n = text.chars().count();
                let keep = chars_kept(k);
                if n > keep {
                    cuts.push((at.clone(), keep, n));
                    let mut cut: String = text.chars().take(keep).collect();
                    cut.push('…');
                    Value::String(cut)
                } else {
                    v.clone()
                }
            }
            other => other.clone(),
        }
    }
    let mut cuts = Vec::new();
    let v = walk(item, k, &mut String::new(), &mut cuts);
    (v, cuts)
}

/// The cut level that keeps `item` whole.
pub fn whole_level(item: &Value) -> usize {
    match item {
        Value::Array(a) => a.iter().map(whole_level).max().unwrap_or(0).max(a.len()),
        Value::Object(m) => m.values().map(whole_level).max().unwrap_or(0),
        Value::String(s) => s.chars().count() / 64,
        _ => 0,
    }
}

/// [`JsonPages::manifest`] for lists named `names`.
pub fn manifest(w: &Window, names: &[&str], max_tokens: usize) -> Map<String, Value> {
    let mut left = Map::new();
    for (i, name) in names.iter().enumerate() {
        let n = w.left(i);
        if n > 0 {
            left.insert((*name).to_string(), n.into());
        }
    }
    let mut m = Map::new();
    m.insert("offset".into(), w.offset.into());
    m.insert("shown".into(), w.count.into());
    m.insert("total".into(), w.total().into());
    m.insert("left".into(), Value::Object(left));
    m.insert("max_tokens".into(), max_tokens.into());
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_estimate_is_a_quarter_of_the_bytes_rounded_up() {
        assert_eq!(tokens(""), 0);
        assert_eq!(tokens("abc"), 1);
        assert_eq!(tokens("abcd"), 1);
        assert_eq!(tokens("abcde"), 2);
        // Bytes, not characters: "é" is two.
        assert_eq!(tokens("éé"), 1);
        assert_eq!(tokens("ééé"), 2);
    }

    #[test]
    fn shrink_cuts_arrays_and_long_strings_and_says_where() {
        let body = "x".repeat(300);
        let item =
            json!({"commit": "a".repeat(40), "body": body, "files": [1, 2, 3, {"p": [4, 5]}]});
        let (cut, cuts) = shrink(&item, 1);
        assert_eq!(cut["commit"], item["commit"], "short strings stay whole");
        assert_eq!(cut["body"].as_str().map(|b| b.chars().count()), Some(129));
        assert_eq!(cut["files"], json!([1]));
        assert_eq!(
            cuts,
            vec![
                ("/body".to_string(), 128, 300),
                ("/files".to_string(), 1, 4)
            ]
        );
        let k = whole_level(&item);
        assert_eq!(shrink(&item, k), (item.clone(), Vec::new()));
        let (_, deep) = shrink(&item, 3);
        assert_eq!(
            deep,
            vec![
                ("/body".to_string(), 256, 300),
                ("/files".to_string(), 3, 4)
            ]
        );
        let (_, deeper) = shrink(&json!({"a/b": [[1, 2, 3]]}), 2);
        assert_eq!(deeper, vec![("/a~1b/0".to_string(), 2, 3)]);
    }

    #[test]
    fn windows_split_across_lists() {
        let w = Window {
            offset: 2,
            count: 4,
            lens: vec![3, 0, 5],
        };
        assert_eq!(w.total(), 8);
        assert_eq!((w.range(0), w.range(1), w.range(2)), (2..3, 0..0, 0..3));
        assert_eq!((w.left(0), w.left(1), w.left(2)), (0, 0, 2));
        assert!(!w.complete());
        assert_eq!(w.end(), 6);
    }

    fn doc(n: usize) -> Value {
        json!({
            "answer": {"text": "It is called from 3 places:\n  a.py:1\n  b.py:2\n  c.py:3\n"},
            "rows": (0..n).map(|i| json!({"path": format!("f{i}.py"), "line": i})).collect::<Vec<_>>(),
            "sources": ["s1", "s2"],
        })
    }

    fn pages() -> JsonPages {
        JsonPages::new(
            doc(40),
            vec![
                ("answer".into(), "/answer/text".into(), Shape::Lines),
                ("rows".into(), "/rows".into(), Shape::Array),
                ("missing".into(), "/nope".into(), Shape::Array),
                ("sources".into(), "/sources".into(), Shape::Array),
            ],
        )
    }

    fn render(p: &JsonPages, w: &Window, max: usize) -> String {
        let mut v = p.page(w);
        let mut m = p.manifest(w, max);
        m.insert(
            "next".into(),
            if w.complete() {
                Value::Null
            } else {
                json!({"offset": w.end()})
            },
        );
        v["omitted"] = Value::Object(m);
        v.to_string()
    }

    #[test]
    fn pages_fit_and_concatenate_to_the_whole() {
        let p = pages();
        assert_eq!(p.lens(), vec![4, 40, 0, 2]);
        for max in [100, 150, 300, 1000, 100_000] {
            let (mut offset, mut text, mut rows, mut sources) =
                (0, String::new(), Vec::new(), Vec::new());
            let mut n = 0;
            loop {
                let f = fit(max, offset, p.lens(), None, None, |w| render(&p, w, max));
                let g = fit(
                    max,
                    offset,
                    p.lens(),
                    None,
                    Some(p.guess(offset, max, 120)),
                    |w| render(&p, w, max),
                );
                assert_eq!(g.window, f.window, "a guess finds the same page");
                assert!(!f.over_budget, "budget {max}");
                assert!(tokens(&f.text) <= max, "budget {max}: {}", f.text);
                let v: Value = serde_json::from_str(&f.text).expect("json");
                text.push_str(v["answer"]["text"].as_str().expect("text"));
                rows.extend(v["rows"].as_array().expect("rows").iter().cloned());
                sources.extend(v["sources"].as_array().expect("sources").iter().cloned());
                assert!(f.window.count >= 1);
                n += 1;
                if f.window.complete() {
                    assert!(v["omitted"]["next"].is_null());
                    break;
                }
                assert_eq!(v["omitted"]["next"]["offset"], f.window.end());
                offset = f.window.end();
            }
            let whole = doc(40);
            assert_eq!(text, whole["answer"]["text"]);
            assert_eq!(Value::Array(rows), whole["rows"]);
            assert_eq!(Value::Array(sources), whole["sources"]);
            assert_eq!(n > 1, max <= 300, "budget {max}: {n} pages");
        }
    }

    #[test]
    fn a_page_holds_the_most_items_that_fit() {
        let p = pages();
        let f = fit(300, 0, p.lens(), None, None, |w| render(&p, w, 300));
        let one_more = Window {
            count: f.window.count + 1,
            ..f.window.clone()
        };
        assert!(tokens(&render(&p, &one_more, 300)) > 300);
    }

    #[test]
    fn a_limit_caps_the_page_and_an_item_too_large_is_shown_whole_and_said() {
        let p = pages();
        let f = fit(100_000, 1, p.lens(), Some(5), Some(40), |w| {
            render(&p, w, 100_000)
        });
        assert_eq!((f.window.offset, f.window.count), (1, 5));
        let tiny = fit(10, 0, p.lens(), None, Some(7), |w| render(&p, w, 10));
        assert!(tiny.over_budget);
        assert_eq!(tiny.window.count, 1);
        let done = fit(10, 46, p.lens(), None, None, |w| render(&p, w, 10));
        assert_eq!(done.window.count, 0);
        assert!(done.window.complete());
    }
}
