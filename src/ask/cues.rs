//! The intent cues of the classifier, as data: phrases that signal an intent, and
//! whether one alone decides it. Adding a way of asking is a line here, not code.

use super::classify::Intent;

/// A cue: phrases that signal an intent, and how strongly.
pub struct Cue {
    pub intent: Intent,
    pub phrases: &'static [&'static str],
    pub strong: bool,
}

/// An import statement named by its keyword ("where is `semver` used in `use`
/// declarations?"): an imports cue, and the name's uses it asks for are its imports.
pub const IMPORT_STATEMENTS: &[&str] = &[
    "use declaration",
    "use declarations",
    "use statement",
    "use statements",
    "using directive",
    "using directives",
    "require statement",
    "require statements",
];

pub const CUES: &[Cue] = &[
    Cue {
        intent: Intent::Compare,
        phrases: &[
            "difference between",
            "differences between",
            " vs ",
            " vs. ",
            " versus ",
            "compare ",
            "compared to",
            "compared with",
            "differ from",
            "different from",
            "or should i use",
        ],
        strong: true,
    },
    Cue {
        intent: Intent::Callers,
        phrases: &[
            "who calls",
            "what calls",
            "where is {} called",
            "where is {} used",
            "where are {} called",
            "where are {} used",
            "where do we call",
            "where does {} get called",
            "who invokes",
            "which functions call",
            "which code calls",
            "callers of",
            "called from",
            "is called",
            "gets called",
            "are called",
            "get called",
            "call sites",
            "call site",
            "usages of",
            "uses of",
            "who uses",
            "what uses",
            "is used",
            "used by",
            "references to",
            "invoked",
            "invokes",
            // An exception is raised by calling it: its raisers are its callers.
            "which functions raise",
            "which methods raise",
            "which functions throw",
            "which methods throw",
            "what raises",
            "who raises",
            "what throws",
            "who throws",
            "where is {} raised",
            "where are {} raised",
            "where is {} thrown",
            "where are {} thrown",
        ],
        strong: true,
    },
    Cue {
        intent: Intent::Callees,
        phrases: &[
            "what does {} call",
            "what functions does",
            "which functions does",
            "callees of",
            "calls made by",
            "calls made inside",
            "calls made in",
            "calls inside",
            "calls within",
            "functions called inside",
            "functions called within",
            "methods called inside",
            "called by",
            "does it call",
            "what it calls",
            "what methods does",
            "depend on internally",
        ],
        strong: true,
    },
    Cue {
        intent: Intent::Imports,
        phrases: &[
            "import",
            "imports",
            "imported",
            "includes",
            "included",
            "what headers",
            "which headers",
            "#include",
            "depends on",
            "dependencies of",
            "which modules",
            "what modules",
        ],
        strong: true,
    },
    Cue {
        intent: Intent::Imports,
        phrases: IMPORT_STATEMENTS,
        strong: true,
    },
    Cue {
        intent: Intent::History,
        phrases: &[
            "when was",
            "when did",
            "who changed",
            "did {} change",
            "changes by",
            "changed by",
            "who wrote",
            "who added",
            "who touched",
            "who modified",
            "who last",
            "last changed",
            "last modified",
            "last touched",
            "changed last",
            "history of",
            "commit",
            "commits",
            "changelog",
            "recent change",
            "latest changes",
            "what changed",
            "what has changed",
            "recently",
            "latest change",
            "changed since",
            "since ",
            "blame",
            "introduced",
            "why did",
            "why was",
            "why were",
            // Not "modified" alone: "returns a new, modified request" describes code.
            "was modified",
            "were modified",
            "been modified",
            "modified by",
            "modified in",
            "git log",
            "last week",
            "last month",
            "ago",
            "rewritten",
            "refactored",
            "renamed",
            "reverted",
        ],
        strong: true,
    },
    Cue {
        intent: Intent::Definition,
        phrases: &[
            "where is {} defined",
            "defined",
            "definition of",
            "declared",
            "declaration of",
            "signature of",
            "what is the signature",
            "what type",
            "what fields",
            "what arguments",
            "what parameters",
            "what does {} return",
            "show me {}",
            "implementation of",
            "implemented",
            "find the method",
            "find the function",
            "find the class",
            "find the struct",
            "find the type",
            "find the interface",
            "find the trait",
            "find the enum",
            "source of",
            "what is {}",
            "what's {}",
        ],
        strong: true,
    },
    Cue {
        intent: Intent::Howto,
        phrases: &[
            "how do i",
            "how can i",
            "how should i",
            "how would i",
            "how to ",
            "how do you",
            "how do we",
            "what's the way to",
            "what is the way to",
            "is there a way to",
            "i want to",
            "i need to",
        ],
        strong: true,
    },
    Cue {
        intent: Intent::Locate,
        phrases: &[
            "where is the code",
            "where's the code",
            "which file",
            "which files",
            "which module",
            "which function",
            "which class",
            "where do we",
            "where does the",
            "where are",
            "where is",
            "find the code",
            "find the",
            "locate",
            "what handles",
            "what code handles",
            "what code",
            "responsible for",
            "is handled",
            "are handled",
        ],
        strong: false,
    },
    Cue {
        intent: Intent::Concept,
        phrases: &[
            "how does",
            "how do ",
            "how is",
            "how are",
            "explain",
            "what happens",
            "why does",
            "why is",
            "why are",
            "why do ",
            "purpose of",
            "what does {} do",
            "what do",
            "overview",
            "work?",
            "works",
            "describe",
            "walk me through",
        ],
        strong: false,
    },
];

/// Finds a cue phrase at a word start; `{}` stands for one to six words.
pub fn find_cue(lower: &str, phrase: &str) -> Option<usize> {
    let bytes = lower.as_bytes();
    let at_word =
        |pos: usize| pos == 0 || phrase.starts_with(' ') || !bytes[pos - 1].is_ascii_alphanumeric();
    let ends_word = |end: usize| {
        end >= bytes.len()
            || !phrase.ends_with(|c: char| c.is_ascii_alphanumeric())
            || !bytes[end].is_ascii_alphanumeric()
    };
    match phrase.split_once("{}") {
        None => lower
            .match_indices(phrase)
            .map(|(p, _)| p)
            .find(|&p| at_word(p) && ends_word(p + phrase.len())),
        Some((before, after)) => {
            for (start, _) in lower.match_indices(before).filter(|(p, _)| at_word(*p)) {
                let rest = &lower[start + before.len()..];
                let after = after.trim_end();
                if after.is_empty() {
                    if !rest.trim().is_empty() {
                        return Some(start);
                    }
                    continue;
                }
                if let Some(end) = rest.find(after) {
                    let between = rest[..end].trim();
                    if !between.is_empty() && between.split_whitespace().count() <= 6 {
                        return Some(start);
                    }
                }
            }
            None
        }
    }
}
