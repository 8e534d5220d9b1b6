//! Colour for human output: whether to colour each stream (`--color`, `NO_COLOR`, whether
//! the stream is a terminal) and the few styles llmc uses, as plain ANSI escapes. JSON is
//! never styled: its renderers do not take a [`Style`].

use std::io::IsTerminal as _;

use crate::cli::ColorChoice;

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

    fn paint(self, code: &str, s: &str) -> String {
        if self.on && !s.is_empty() {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
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
}
