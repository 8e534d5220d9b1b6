//! Colour for human output: whether to colour each stream (`--color`, `NO_COLOR`, whether
//! the stream is a terminal) and the few styles llmc uses, as plain ANSI escapes. JSON is
//! never styled: its renderers do not take a [`Style`].
//!
//! Terminal safety lives here too: text from the repository (paths, code lines, commit
//! subjects) and from a language model reaches a terminal, where control characters
//! could rewrite what is shown, set the window title or write the clipboard. Styled
//! pieces are one line ([`one_line`]); everything printed passes [`terminal_safe`].

use std::borrow::Cow;
use std::io::IsTerminal as _;

use crate::cli::ColorChoice;

/// The most characters of a source line a row shows.
pub const CODE_WIDTH: usize = 120;

/// Styles for one output stream; all of them are the identity when colour is off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    on: bool,
}

/// Which stream a [`Style`] is for.
#[derive(Debug, Clone, Copy)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl Style {
    /// No colour.
    pub const PLAIN: Style = Style { on: false };

    /// The style for `stream` under `choice`, reading `NO_COLOR` and asking whether the
    /// stream is a terminal.
    pub fn for_stream(choice: ColorChoice, stream: Stream) -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let terminal = match stream {
            Stream::Stdout => std::io::stdout().is_terminal(),
            Stream::Stderr => std::io::stderr().is_terminal(),
        };
        Style::decide(choice, no_color, terminal)
    }

    /// The rule: `always` and `never` win; `auto` colours a terminal unless `NO_COLOR`.
    pub fn decide(choice: ColorChoice, no_color: bool, terminal: bool) -> Style {
        let on = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal && !no_color,
        };
        Style { on }
    }

    /// Whether this style colours anything.
    pub fn is_on(self) -> bool {
        self.on
    }

    /// Headings and labels: bold.
    pub fn header(self, s: &str) -> String {
        self.paint("1", s)
    }

    /// File paths (and `path:line` locations): cyan.
    pub fn path(self, s: &str) -> String {
        self.paint("36", s)
    }

    /// Commit hashes: yellow, as git shows them.
    pub fn commit(self, s: &str) -> String {
        self.paint("33", s)
    }

    /// Secondary detail (scores, resolutions, dates): dim.
    pub fn dim(self, s: &str) -> String {
        self.paint("2", s)
    }

    /// The `warning:` label: bold yellow.
    pub fn warn(self, s: &str) -> String {
        self.paint("1;33", s)
    }

    /// The `error:` label: bold red.
    pub fn error(self, s: &str) -> String {
        self.paint("1;31", s)
    }

    /// A line of source as a row shows it, as `rg` does: trimmed, tabs as spaces, at most
    /// [`CODE_WIDTH`] characters, and each whole-word occurrence of `name` in bold red
    /// when this style is on.
    pub fn code(self, line: &str, name: Option<&str>) -> String {
        let line = crate::source::row_text(line, CODE_WIDTH);
        let Some(name) = name.filter(|n| self.on && !n.is_empty()) else {
            return one_line(&line).into_owned();
        };
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        let mut out = String::with_capacity(line.len() + 16);
        let mut rest = line.as_str();
        while let Some(at) = rest.find(name) {
            let (before, after) = (&rest[..at], &rest[at + name.len()..]);
            if word(before.chars().next_back()) || word(after.chars().next()) {
                out.push_str(&one_line(&rest[..at + name.len()]));
            } else {
                out.push_str(&one_line(before));
                out.push_str(&self.paint("1;31", name));
            }
            rest = after;
        }
        out.push_str(&one_line(rest));
        out
    }

    /// `s` as one line (see [`one_line`]), coloured when this style is on.
    fn paint(self, code: &str, s: &str) -> String {
        let s = one_line(s);
        if self.on && !s.is_empty() {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.into_owned()
        }
    }
}

/// Whether `c` would act on a terminal rather than show: C0 and C1 controls, DEL, and the
/// bidirectional overrides that make text read otherwise than it is stored.
fn is_control(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
        c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
    }
}

/// Text from outside llmc as one line: every control character (newlines included) is
/// shown as an escape (`\n`, `\x1b`, `\u{202e}`), so a file name cannot forge a row.
pub fn one_line(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_control) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_control(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// What llmc prints, made safe for a terminal: newlines and tabs stay, llmc's own colour
/// sequences (`ESC [ digits ; m`) stay, and every other control character is shown as an
/// escape.
pub fn terminal_safe(s: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| is_control(c) && c != '\n' && c != '\t';
    if !s.chars().any(unsafe_char) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if c == '\x1b'
            && let Some(len) = sgr_len(rest)
        {
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        }
        if unsafe_char(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

/// The length of a colour sequence (`ESC [ 1;33 m`) at the start of `s`, if there is one.
fn sgr_len(s: &str) -> Option<usize> {
    let body = s.strip_prefix("\x1b[")?;
    let digits = body
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b';')
        .count();
    (body.as_bytes().get(digits) == Some(&b'm')).then_some(2 + digits + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_colours_only_a_terminal_without_no_color() {
        assert!(Style::decide(ColorChoice::Auto, false, true).is_on());
        assert!(!Style::decide(ColorChoice::Auto, false, false).is_on());
        assert!(!Style::decide(ColorChoice::Auto, true, true).is_on());
        assert!(Style::decide(ColorChoice::Always, true, false).is_on());
        assert!(!Style::decide(ColorChoice::Never, false, true).is_on());
    }

    #[test]
    fn plain_is_the_identity_and_colour_wraps_and_resets() {
        assert_eq!(Style::PLAIN.path("src/a.rs"), "src/a.rs");
        let on = Style::decide(ColorChoice::Always, false, false);
        assert_eq!(on.path("src/a.rs"), "\x1b[36msrc/a.rs\x1b[0m");
        assert_eq!(on.path(""), "");
    }

    #[test]
    fn code_is_trimmed_clipped_and_its_name_marked_as_a_whole_word() {
        let plain = Style::PLAIN.code("\t  return apply_vat(x)  ", Some("apply_vat"));
        assert_eq!(plain, "return apply_vat(x)");
        let on = Style { on: true };
        assert_eq!(
            on.code("vat = apply_vat(vat)", Some("vat")),
            "\x1b[1;31mvat\x1b[0m = apply_vat(\x1b[1;31mvat\x1b[0m)"
        );
        let long = "x".repeat(CODE_WIDTH + 10);
        assert_eq!(plain_len(&Style::PLAIN.code(&long, None)), CODE_WIDTH + 1);
        assert!(Style::PLAIN.code(&long, None).ends_with('…'));
    }

    fn plain_len(s: &str) -> usize {
        s.chars().count()
    }

    #[test]
    fn control_characters_never_reach_the_terminal() {
        // A title change (OSC), a clipboard write, a cursor move, a carriage return and a
        // right-to-left override: each shown, none acting.
        let hostile = "a\x1b]0;pwned\x07b\x1b]52;c;ZXZpbA==\x07c\x1b[2Jd\re\u{202e}f\u{9b}g";
        let safe = terminal_safe(hostile);
        assert!(
            !safe.chars().any(|c| c.is_control() && c != '\n'),
            "{safe:?}"
        );
        assert_eq!(
            safe,
            "a\\x1b]0;pwned\\x07b\\x1b]52;c;ZXZpbA==\\x07c\\x1b[2Jd\\re\\u{202e}f\\x9bg"
        );
        // llmc's own colours and line breaks stay.
        let ours = format!("{}\n\tx", Style { on: true }.path("src/a.rs"));
        assert_eq!(terminal_safe(&ours), ours);
        // A styled piece is one line, coloured or not.
        assert_eq!(Style::PLAIN.path("a\nb"), "a\\nb");
        assert_eq!(one_line("plain"), "plain");
    }
}
