//! Splits a file into chunks, the unit of retrieval: one per definition (with its doc
//! comment), one per run of code outside any definition, one per Markdown section, and
//! bounded windows over text with no structure.

use crate::model::{Chunk, ChunkKind, Symbol};

/// How chunks are bounded, and whether they carry their text.
#[derive(Debug, Clone, Copy)]
pub struct ChunkConfig {
    /// Lines per window of unstructured text (and of long sections or loose code).
    pub window_lines: usize,
    /// A definition longer than this that contains other definitions keeps only its
    /// head (up to its first inner definition) in its own chunk.
    pub max_chunk_lines: usize,
    /// Chunks carry their text: only the lexical and semantic indexes read it (the store
    /// keeps line ranges).
    pub text: bool,
}

/// Chunks of a parsed source file.
pub fn code_chunks(text: &str, symbols: &[Symbol], cfg: ChunkConfig) -> Vec<Chunk> {
    let lines: Vec<&str> = text.lines().collect();
    let n = lines.len() as u32;
    let mut chunks = Vec::with_capacity(symbols.len() + 4);
    let mut covered = vec![false; lines.len()];
    // Each symbol's first inner definition's leading line, in one pass (not a scan of
    // every symbol per symbol: a file may hold a hundred thousand).
    let mut first_inner: Vec<Option<u32>> = vec![None; symbols.len()];
    for c in symbols {
        if let Some(slot) = c.parent.and_then(|p| first_inner.get_mut(p)) {
            let lead = c.lead_line.min(c.start_line);
            *slot = Some(slot.map_or(lead, |l| l.min(lead)));
        }
    }
    let mut cut = false;
    for (i, s) in symbols.iter().enumerate() {
        let start = s.lead_line.min(s.start_line).max(1);
        let mut end = s.end_line.min(n);
        if (end - start + 1) as usize > cfg.max_chunk_lines {
            // Keep the head: up to the first inner definition's leading line.
            if let Some(first_child) = first_inner[i]
                && first_child > start
            {
                cut |= first_child <= end;
                end = end.min(first_child - 1);
            }
        }
        if start > end {
            continue;
        }
        // Every definition's lines, not only a top-level one's: a Go method's parent is
        // its receiver's type, declared elsewhere, and its lines are inside no
        // top-level definition; as loose code they were a second chunk of each method.
        for l in start..=s.end_line.min(n) {
            covered[(l - 1) as usize] = true;
        }
        chunks.push(Chunk {
            start_line: start,
            end_line: end,
            kind: ChunkKind::Definition,
            symbol: Some(s.qualname.clone()),
            symbol_index: Some(i),
            text: join_lines(&lines, start, end, cfg),
        });
    }
    // Inside a definition cut to its head, the code between and after its inner
    // definitions (a Ruby class's `set :port, 4567` after its methods, a Python class's
    // attributes) is in no chunk yet: in windows too, as loose code, when a line of it
    // holds two words (not a lone `private` or `end`).
    if cut {
        let mut held = vec![false; lines.len()];
        for c in &chunks {
            for l in c.start_line..=c.end_line {
                held[(l - 1) as usize] = true;
            }
        }
        let mut gap_start: Option<u32> = None;
        for l in 1..=n + 1 {
            let gap = l <= n && covered[(l - 1) as usize] && !held[(l - 1) as usize];
            match (gap, gap_start) {
                (true, None) => gap_start = Some(l),
                (false, Some(s)) => {
                    let run = &lines[(s - 1) as usize..(l - 1) as usize];
                    if run.iter().any(|line| has_words(&[line])) {
                        push_windows(&mut chunks, &lines, s, l - 1, ChunkKind::Code, None, cfg);
                    }
                    gap_start = None;
                }
                _ => {}
            }
        }
    }
    // Code outside every top-level definition, in windows.
    let mut run_start: Option<u32> = None;
    for l in 1..=n + 1 {
        let inside = l <= n && !covered[(l - 1) as usize];
        match (inside, run_start) {
            (true, None) => run_start = Some(l),
            (false, Some(s)) => {
                push_windows(&mut chunks, &lines, s, l - 1, ChunkKind::Code, None, cfg);
                run_start = None;
            }
            _ => {}
        }
    }
    chunks.sort_by_key(|c| (c.start_line, std::cmp::Reverse(c.end_line)));
    chunks
}

/// Markdown split by ATX and setext headings; fenced code blocks are not searched for
/// headings. Each section's symbol is its heading path (`Install > From source`).
pub fn markdown_chunks(text: &str, cfg: ChunkConfig) -> Vec<Chunk> {
    let lines: Vec<&str> = text.lines().collect();
    let mut chunks = Vec::new();
    let mut path: Vec<(usize, String)> = Vec::new();
    let mut section_start = 1u32;
    let mut section_symbol: Option<String> = None;
    let mut fence: Option<&str> = None;
    let n = lines.len() as u32;
    let mut i = 0usize;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        if let Some(f) = fence {
            if trimmed.starts_with(f) {
                fence = None;
            }
            i += 1;
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            i += 1;
            continue;
        }
        let heading = atx_heading(line).or_else(|| {
            let next = lines.get(i + 1)?;
            let level = setext_level(next)?;
            (!line.trim().is_empty()).then(|| (level, line.trim().to_string()))
        });
        if let Some((level, title)) = heading {
            let line_no = i as u32 + 1;
            if line_no > section_start {
                push_windows(
                    &mut chunks,
                    &lines,
                    section_start,
                    line_no - 1,
                    ChunkKind::Section,
                    section_symbol.clone(),
                    cfg,
                );
            }
            while path.last().is_some_and(|(l, _)| *l >= level) {
                path.pop();
            }
            path.push((level, title));
            section_symbol = Some(
                path.iter()
                    .map(|(_, t)| t.as_str())
                    .collect::<Vec<_>>()
                    .join(" > "),
            );
            section_start = line_no;
        }
        i += 1;
    }
    if section_start <= n {
        push_windows(
            &mut chunks,
            &lines,
            section_start,
            n,
            ChunkKind::Section,
            section_symbol,
            cfg,
        );
    }
    chunks
}

/// Bounded windows over a file with no structure.
pub fn text_chunks(text: &str, cfg: ChunkConfig) -> Vec<Chunk> {
    let lines: Vec<&str> = text.lines().collect();
    let mut chunks = Vec::new();
    push_windows(
        &mut chunks,
        &lines,
        1,
        lines.len() as u32,
        ChunkKind::Window,
        None,
        cfg,
    );
    chunks
}

fn atx_heading(line: &str) -> Option<(usize, String)> {
    if line.starts_with("    ") {
        return None;
    }
    let t = line.trim_start();
    let level = t.bytes().take_while(|&b| b == b'#').count();
    if level == 0 || level > 6 {
        return None;
    }
    let rest = &t[level..];
    if !(rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t')) {
        return None;
    }
    let title = rest.trim().trim_end_matches('#').trim().to_string();
    Some((level, title))
}

fn setext_level(line: &str) -> Option<usize> {
    let t = line.trim();
    if t.len() >= 2 && t.bytes().all(|b| b == b'=') {
        Some(1)
    } else if t.len() >= 2 && t.bytes().all(|b| b == b'-') {
        Some(2)
    } else {
        None
    }
}

/// Pushes windows of at most `window_lines` over `start..=end`, dropping blank edges and
/// windows that are blank.
fn push_windows(
    out: &mut Vec<Chunk>,
    lines: &[&str],
    start: u32,
    end: u32,
    kind: ChunkKind,
    symbol: Option<String>,
    cfg: ChunkConfig,
) {
    let window = cfg.window_lines.max(1) as u32;
    let mut s = start;
    while s <= end {
        let e = (s + window - 1).min(end);
        // Trim blank lines at both edges.
        let mut a = s;
        let mut b = e;
        while a <= b && lines[(a - 1) as usize].trim().is_empty() {
            a += 1;
        }
        while b >= a && lines[(b - 1) as usize].trim().is_empty() {
            b -= 1;
        }
        // Loose code with no words (a block's closing `)`, a lone `const (`) answers no
        // question: as a chunk its vector would be its file name's alone.
        let wordless = kind == ChunkKind::Code && !has_words(&lines[(s - 1) as usize..e as usize]);
        if a <= b && !wordless {
            out.push(Chunk {
                start_line: a,
                end_line: b,
                kind,
                symbol: symbol.clone(),
                symbol_index: None,
                text: join_lines(lines, a, b, cfg),
            });
        }
        s = e + 1;
    }
}

/// Whether `lines` hold two words of two letters or digits or more.
fn has_words(lines: &[&str]) -> bool {
    let mut words = 0;
    for line in lines {
        for w in line.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if w.chars().count() >= 2 {
                words += 1;
                if words >= 2 {
                    return true;
                }
            }
        }
    }
    false
}

fn join_lines(lines: &[&str], start: u32, end: u32, cfg: ChunkConfig) -> String {
    if !cfg.text {
        return String::new();
    }
    lines[(start - 1) as usize..end as usize].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SymbolKind;

    const CFG: ChunkConfig = ChunkConfig {
        window_lines: 3,
        max_chunk_lines: 200,
        text: true,
    };

    /// A definition of lines `line..=end`, with no doc comment.
    fn sym(name: &str, kind: SymbolKind, line: u32, end: u32, parent: Option<usize>) -> Symbol {
        Symbol {
            name: name.into(),
            qualname: name.into(),
            kind,
            start_line: line,
            end_line: end,
            signature: String::new(),
            doc: String::new(),
            parent,
            lead_line: line,
        }
    }

    fn spans(chunks: &[Chunk]) -> Vec<String> {
        chunks
            .iter()
            .map(|c| {
                format!(
                    "{} {}-{} {}",
                    c.kind.as_str(),
                    c.start_line,
                    c.end_line,
                    c.symbol.as_deref().unwrap_or("-")
                )
            })
            .collect()
    }

    #[test]
    fn markdown_sections_follow_headings_but_not_fenced_code() {
        let md = "intro\n\n# Title\ntext\n```\n# not a heading\n```\n## Sub\nmore\nSetext\n------\nlast\n";
        assert_eq!(
            spans(&markdown_chunks(
                md,
                ChunkConfig {
                    window_lines: 50,
                    ..CFG
                }
            )),
            [
                "section 1-1 -",
                "section 3-7 Title",
                "section 8-9 Title > Sub",
                "section 10-12 Title > Setext"
            ]
        );
    }

    #[test]
    fn text_windows_are_bounded_and_skip_blank_edges() {
        let text = "a\nb\nc\nd\n\n\n\ng\n";
        assert_eq!(
            spans(&text_chunks(text, CFG)),
            ["window 1-3 -", "window 4-4 -", "window 8-8 -"]
        );
    }

    #[test]
    fn loose_code_without_words_is_no_chunk() {
        // A Go const block whose constants are definitions leaves `const (` and `)`.
        let text = "package main\n\nconst (\n\tA = 1\n)\n\nfunc init() {\n\tsetup(A)\n}\n";
        let symbols = [
            sym("A", SymbolKind::Constant, 4, 4, None),
            sym("init", SymbolKind::Function, 7, 9, None),
        ];
        let cfg = ChunkConfig {
            window_lines: 1,
            ..CFG
        };
        assert_eq!(
            spans(&code_chunks(text, &symbols, cfg)),
            ["code 1-1 -", "definition 4-4 A", "definition 7-9 init"]
        );
    }

    #[test]
    fn a_method_declared_outside_its_type_is_one_chunk() {
        // Go: the method's parent is the struct, whose lines do not hold it.
        let text = "type Upgrader struct {
	size int
}

func (u *Upgrader) Upgrade(w int) int {
	const bad = \"websocket: bad handshake\"
	if w < 0 {
		return u.fail(bad)
	}
	return w + u.size
}
";
        let symbols = [
            sym("Upgrader", SymbolKind::Struct, 1, 3, None),
            sym("Upgrade", SymbolKind::Method, 5, 11, Some(0)),
            sym("bad", SymbolKind::Constant, 6, 6, Some(1)),
        ];
        assert_eq!(
            spans(&code_chunks(text, &symbols, CFG)),
            [
                "definition 1-3 Upgrader",
                "definition 5-11 Upgrade",
                "definition 6-6 bad"
            ]
        );
        // Cut to its head, its body after the inner constant is loose code, once.
        let cfg = ChunkConfig {
            max_chunk_lines: 5,
            ..CFG
        };
        assert_eq!(
            spans(&code_chunks(text, &symbols, cfg)),
            [
                "definition 1-3 Upgrader",
                "definition 5-5 Upgrade",
                "definition 6-6 bad",
                "code 7-9 -",
                "code 10-11 -"
            ]
        );
    }

    #[test]
    fn code_between_the_methods_of_a_class_cut_to_its_head_is_chunked() {
        // Sinatra's `class Base`: settings after the methods, a lone `private` between.
        let text = "class Base
  def a
    1
  end

  private

  def b
    2
  end

                      set :port, 4567
  set :bind, 'localhost'
end
";
        let symbols = [
            sym("Base", SymbolKind::Class, 1, 14, None),
            sym("a", SymbolKind::Method, 2, 4, Some(0)),
            sym("b", SymbolKind::Method, 8, 10, Some(0)),
        ];
        let cfg = ChunkConfig {
            max_chunk_lines: 5,
            ..CFG
        };
        assert_eq!(
            spans(&code_chunks(text, &symbols, cfg)),
            [
                "definition 1-1 Base",
                "definition 2-4 a",
                "definition 8-10 b",
                "code 12-13 -"
            ]
        );
        // Not cut, the class holds them itself.
        assert_eq!(
            spans(&code_chunks(text, &symbols, CFG)),
            [
                "definition 1-14 Base",
                "definition 2-4 a",
                "definition 8-10 b"
            ]
        );
    }
}
