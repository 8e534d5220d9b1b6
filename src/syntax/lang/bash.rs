//! Commands and `source` in Bash: a command whose name is a plain word is a call site (a
//! function of the repository, a builtin or a program on the PATH); a name read from a
//! variable (`"$cmd" x`) is not. `source FILE` and `. FILE` with a literal path import
//! that file: its functions are in scope after it.

use crate::syntax::FieldExt;
use tree_sitter::Node;

use super::{CallShape, CalleeForm, CapsConstants, LangSpec, ResolveRules, any_comment};
use crate::model::Import;
use crate::syntax::refs::*;

pub(super) const SPEC: LangSpec = LangSpec {
    name: "bash",
    extensions: &["sh", "bash"],
    file_names: &[".bashrc", ".bash_profile", ".profile"],
    shebangs: &["bash", "sh"],
    separator: ".",
    grammar: || tree_sitter_bash::LANGUAGE.into(),
    query: include_str!("queries/bash.scm"),
    opaque: &[
        "string",
        "raw_string",
        "heredoc_body",
        "variable_assignment",
    ],
    doc_comment: any_comment,
    docstrings: false,
    caps_constants: CapsConstants::None,
    wrappers: &[],
    methods_in_classes_only: false,
    typedef_names: false,
    jsdoc_param_types: false,
    calls: &[CallShape {
        node: "command",
        callee: Some("name"),
        unwrap: Some(("command_name", "")),
        new: false,
        forms: &[CalleeForm::Name("word")],
    }],
    resolve: ResolveRules {
        family: 7,
        transitive_includes: true,
        has_methods: false,
        builtins: BUILTINS,
        ..ResolveRules::PLAIN
    },
};

/// Shell builtins and keywords written as commands: never a repository function unless
/// the repository defines one.
const BUILTINS: &[&str] = &[
    ".",
    "source",
    "echo",
    "printf",
    "read",
    "cd",
    "pwd",
    "exit",
    "return",
    "set",
    "unset",
    "shift",
    "export",
    "eval",
    "exec",
    "trap",
    "wait",
    "true",
    "false",
    "test",
    "[",
    "command",
    "type",
    "hash",
    "getopts",
    "local",
    "declare",
    "readonly",
    "let",
    "builtin",
    "mapfile",
    "readarray",
    "pushd",
    "popd",
    "kill",
    "jobs",
    "umask",
    "ulimit",
    "shopt",
];

impl Walker<'_> {
    pub(in crate::syntax) fn bash(&mut self, node: Node) -> bool {
        if node.kind() == "command"
            && let Some(imp) = self.sourced(node)
        {
            self.imports.push(imp);
        }
        true
    }

    /// `source lib/log.sh` / `. ./lib/log.sh` with a literal path (a word or a quoted
    /// string without expansions): an import of that file, everything in it visible.
    fn sourced(&self, node: Node) -> Option<Import> {
        let name = self.text(node.field("name")?);
        if name != "source" && name != "." {
            return None;
        }
        let arg = node.field("argument")?;
        let path = match arg.kind() {
            "word" => self.text(arg),
            "raw_string" => self.text(arg).trim_matches('\''),
            "string" if arg.named_child_count() == 1 => {
                let c = arg.named_child(0)?;
                (c.kind() == "string_content").then(|| self.text(c))?
            }
            _ => return None,
        };
        if path.is_empty() || path.len() > 512 || path.contains('$') {
            return None;
        }
        let line = node.start_position().row as u32 + 1;
        Some(Import::new(line, path.to_string()).wildcard(true))
    }
}
