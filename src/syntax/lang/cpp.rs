//! C++: C's call shapes (one visitor in [`super::c`] reads both grammars) with C++'s own
//! definition query, `::` names and `template<…>` wrapping the definition it declares.

use super::c::{C_CALLS, OPAQUE};
use super::{CapsConstants, LangSpec, ResolveRules, Wrapper, Wraps, any_comment};

pub(super) const SPEC: LangSpec = LangSpec {
    name: "cpp",
    extensions: &[
        "cc", "cpp", "cxx", "c++", "hpp", "hh", "hxx", "h++", "ipp", "tpp",
    ],
    file_names: &[],
    shebangs: &[],
    separator: "::",
    grammar: || tree_sitter_cpp::LANGUAGE.into(),
    query: concat!(
        include_str!("queries/c.scm"),
        include_str!("queries/cpp.scm")
    ),
    opaque: &OPAQUE,
    doc_comment: any_comment,
    docstrings: false,
    caps_constants: CapsConstants::None,
    wrappers: &[Wrapper {
        parent: "template_declaration",
        when: Wraps::Always,
    }],
    methods_in_classes_only: false,
    typedef_names: true,
    jsdoc_param_types: false,
    calls: C_CALLS,
    resolve: ResolveRules {
        family: 0,
        implicit_this: true,
        file_static: true,
        transitive_includes: true,
        self_receivers: &["*this"],
        std_roots: &["std"],
        ..ResolveRules::PLAIN
    },
};
