//! What `llmc ask` returns: the JSON contract of `--json`, `llmc eval` and the answer
//! cache. Every name here is part of that contract: the typed values below serialize to
//! exactly the strings earlier versions wrote, and a rename is a breaking change.

use serde::{Deserialize, Serialize};

use crate::model::Memory;

/// An enum of fixed names: each variant's string is written once, and serde, `as_str`
/// and `Display` (which honours width and alignment, as the strings did) all use it.
macro_rules! named {
    ($(#[$m:meta])* pub enum $name:ident { $($(#[$vm:meta])* $v:ident = $s:literal,)* }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vm])* #[serde(rename = $s)] $v,)*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &[$name] = &[$($name::$v,)*];

            /// The name written in JSON and the trace.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$v => $s,)*
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.pad(self.as_str())
            }
        }

        // Scripts and tests compare with the JSON strings.
        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }
    };
}

named! {
    /// Whether llmc answered.
    pub enum Status {
        Answered = "answered",
        Abstained = "abstained",
    }
}

named! {
    /// Why llmc did not answer.
    pub enum AbstainReason {
        /// Nothing in the repository matches.
        NoMatch = "no_match",
        /// Related code was found, but not what was asked.
        OffTarget = "off_target",
    }
}

named! {
    /// Where a candidate's evidence comes from: a memory's list, or graph expansion.
    pub enum Route {
        Graph = "graph",
        History = "history",
        Lexical = "lexical",
        Semantic = "semantic",
        /// Added as a graph neighbour of a better candidate.
        GraphExpand = "graph-expand",
    }
}

impl From<Memory> for Route {
    fn from(m: Memory) -> Route {
        match m {
            Memory::Graph => Route::Graph,
            Memory::History => Route::History,
            Memory::Lexical => Route::Lexical,
            Memory::Semantic => Route::Semantic,
        }
    }
}

named! {
    /// How a refine attempt changes the query, in the order they are tried.
    pub enum Strategy {
        SplitIdentifiers = "split-identifiers",
        RepositoryVocabulary = "repository-vocabulary",
        SwitchLexicalSemantic = "switch-lexical-semantic",
        WidenRoute = "widen-route",
    }
}

named! {
    /// A stage's name in the trace. A refine attempt's pass records its stages under
    /// `refine.` ([`Stage::in_refine`]).
    pub enum Stage {
        Cache = "cache",
        Classify = "classify",
        Route = "route",
        Retrieve = "retrieve",
        Fuse = "fuse",
        Expand = "expand",
        Verify = "verify",
        Refine = "refine",
        Answer = "answer",
        Total = "total",
        RefineRetrieve = "refine.retrieve",
        RefineFuse = "refine.fuse",
        RefineExpand = "refine.expand",
        RefineVerify = "refine.verify",
    }
}

impl Stage {
    /// The name of a pass stage when a refine attempt runs it.
    pub fn in_refine(self) -> Stage {
        match self {
            Stage::Retrieve => Stage::RefineRetrieve,
            Stage::Fuse => Stage::RefineFuse,
            Stage::Expand => Stage::RefineExpand,
            Stage::Verify => Stage::RefineVerify,
            other => other,
        }
    }
}
