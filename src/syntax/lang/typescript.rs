//! TypeScript and TSX: JavaScript's call shapes (the grammar extends JavaScript's, and one
//! visitor in [`super::javascript`] reads both) with TypeScript's own definition query and
//! wrappers (`declare …`, `namespace` in an expression statement).

use super::javascript::{JS_CALLS, JS_RESOLVE, JS_WRAPPERS, OPAQUE};
use super::{CapsConstants, LangSpec, Wrapper, Wraps, any_comment};

/// JavaScript's wrappers and TypeScript's own.
const TS_WRAPPERS: &[Wrapper] = &[
    JS_WRAPPERS[0],
    JS_WRAPPERS[1],
    JS_WRAPPERS[2],
    Wrapper {
        parent: "ambient_declaration",
        when: Wraps::Always,
    },
    Wrapper {
        parent: "expression_statement",
        when: Wraps::Child("internal_module"),
    },
];

const QUERY: &str = concat!(
    include_str!("queries/javascript.scm"),
    include_str!("queries/typescript.scm")
);

pub(super) const TYPESCRIPT: LangSpec = LangSpec {
    name: "typescript",
    extensions: &["ts", "mts", "cts"],
    file_names: &[],
    shebangs: &[],
    separator: ".",
    grammar: || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
    query: QUERY,
    opaque: &OPAQUE,
    doc_comment: any_comment,
    docstrings: false,
    caps_constants: CapsConstants::TopLevelConst,
    wrappers: TS_WRAPPERS,
    methods_in_classes_only: true,
    typedef_names: false,
    jsdoc_param_types: false,
    calls: JS_CALLS,
    resolve: JS_RESOLVE,
};

pub(super) const TSX: LangSpec = LangSpec {
    name: "tsx",
    extensions: &["tsx"],
    grammar: || tree_sitter_typescript::LANGUAGE_TSX.into(),
    ..TYPESCRIPT
};
