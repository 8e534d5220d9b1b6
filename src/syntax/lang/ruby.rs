//! Call sites and requires in Ruby: the node shapes this language writes calls, receivers,
//! bindings and requires with, recorded by the language-free walk in
//! [`crate::syntax::refs`].
//!
//! A Ruby call is one `call` node naming its method and, when there is one, its receiver
//! (`Shop::Item.new(…)`, `item.describe`, `puts x`). A bare name with neither arguments nor
//! receiver (`total`) may be a local variable: the grammar cannot tell, and it is not
//! recorded. `Foo.new(…)` is recorded as the construction of `Foo` (it resolves to the
//! class, as `new Foo()` does elsewhere), and a value built so types its variable and any
//! call made on it (`Foo.new.bar`). `A::B.m` is the call `m` qualified by `A.B`.

use crate::syntax::FieldExt;
use tree_sitter::Node;

use super::{CallShape, CalleeForm, CapsConstants, LangSpec, ResolveRules, any_comment};
use crate::model::{CallKind, Import, Receiver};
use crate::syntax::refs::*;

pub(super) const SPEC: LangSpec = LangSpec {
    name: "ruby",
    extensions: &["rb", "rake", "gemspec", "ru"],
    file_names: &["Gemfile", "Rakefile", "Guardfile", "Capfile"],
    shebangs: &["ruby"],
    separator: ".",
    grammar: || tree_sitter_ruby::LANGUAGE.into(),
    query: include_str!("queries/ruby.scm"),
    // Not `argument_list`: `private def helper … end` defines inside one.
    opaque: &[
        "method_parameters",
        "string",
        "string_array",
        "symbol_array",
        "regex",
        "heredoc_body",
        "return",
    ],
    doc_comment: any_comment,
    docstrings: false,
    caps_constants: CapsConstants::None,
    wrappers: &[],
    methods_in_classes_only: false,
    typedef_names: false,
    jsdoc_param_types: false,
    calls: &[CallShape {
        node: "call",
        callee: None,
        unwrap: None,
        new: false,
        forms: &[CalleeForm::NamedWithObject {
            name: "method",
            object: "receiver",
        }],
    }],
    resolve: ResolveRules {
        family: 6,
        implicit_this: true,
        transitive_includes: true,
        builtins: BUILTINS,
        global_objects: &[
            "Kernel", "File", "Dir", "IO", "Math", "Time", "Process", "ENV", "STDOUT", "STDERR",
            "JSON", "Struct", "Array", "Hash", "String", "Integer", "Float", "Object",
        ],
        ..ResolveRules::PLAIN
    },
};

/// Kernel methods and class-body macros every Ruby program can call: never a repository
/// definition unless the repository defines one.
const BUILTINS: &[&str] = &[
    "require",
    "require_relative",
    "load",
    "puts",
    "print",
    "p",
    "pp",
    "printf",
    "format",
    "sprintf",
    "raise",
    "fail",
    "loop",
    "lambda",
    "proc",
    "attr_reader",
    "attr_writer",
    "attr_accessor",
    "include",
    "extend",
    "prepend",
    "private",
    "protected",
    "public",
    "module_function",
    "private_constant",
    "define_method",
    "alias_method",
    "freeze",
    "catch",
    "throw",
    "block_given?",
    "gets",
    "exit",
    "abort",
    "sleep",
    "rand",
    "srand",
    "Integer",
    "Float",
    "String",
    "Array",
    "Hash",
];

/// A constant path as a qualified name with the language's separator: `Shop::Item` →
/// `Shop.Item` (a leading `::` dropped).
fn constant_path(text: &str) -> String {
    text.trim_start_matches("::").replace("::", ".")
}

impl Walker<'_> {
    /// The class `Foo.new(…)` builds, when `node` is such a call: its constant path.
    fn constructed(&self, node: Node) -> Option<String> {
        if node.kind() != "call" {
            return None;
        }
        let method = node.field("method")?;
        let recv = node.field("receiver")?;
        (self.text(method) == "new" && matches!(recv.kind(), "constant" | "scope_resolution"))
            .then(|| constant_path(self.text(recv)))
    }

    pub(in crate::syntax) fn ruby(&mut self, node: Node) -> bool {
        match node.kind() {
            "call" => {
                // The walk has just recorded this call (last in `calls`, starting here).
                let start = node.start_byte();
                let recv = node.field("receiver");
                let built = self.constructed(node);
                let recv_built = recv.and_then(|r| self.constructed(r));
                let recv_path = recv
                    .filter(|r| r.kind() == "scope_resolution")
                    .map(|r| constant_path(self.text(r)));
                if let Some((at, call)) = self.calls.last_mut()
                    && *at == start
                {
                    if let Some(path) = built {
                        // `Shop::Item.new(…)`: the construction of `Shop.Item`.
                        let (q, name) = match path.rsplit_once('.') {
                            Some((q, n)) => (Some(q.to_string()), n.to_string()),
                            None => (None, path),
                        };
                        call.name = name;
                        call.qualifier = q;
                        call.kind = if call.qualifier.is_some() {
                            CallKind::Path
                        } else {
                            CallKind::New
                        };
                        call.receiver_type = None;
                    } else if let Some(ty) = recv_built {
                        // `Foo.new.bar`: a method of `Foo`.
                        call.receiver_type = Some(Receiver::Type(ty));
                    } else if let Some(path) = recv_path {
                        // `Shop::Money.price(…)`: a path to a module or class.
                        call.qualifier = Some(path);
                        call.kind = CallKind::Path;
                        call.receiver_type = None;
                    }
                }
                if let Some(imp) = self.require(node) {
                    self.imports.push(imp);
                }
            }
            "assignment" => {
                if let (Some(left), Some(right)) = (node.field("left"), node.field("right"))
                    && matches!(left.kind(), "identifier" | "instance_variable")
                {
                    let var = match left.kind() {
                        // `@items = …`: a field of the instance, read as `self.items`.
                        "instance_variable" => {
                            format!("self.{}", self.text(left).trim_start_matches('@'))
                        }
                        _ => self.text(left).to_string(),
                    };
                    if let Some(ty) = self.constructed(right) {
                        let ty = ty.rsplit('.').next().unwrap_or(&ty).to_string();
                        self.bind(node, &var, Receiver::Type(ty));
                    }
                }
            }
            _ => {}
        }
        true
    }

    /// `require "x"` / `require_relative "x"` with a literal path: an import of that file,
    /// everything it defines visible (a wildcard). `require_relative` paths start with
    /// `./` so the resolver reads them from the requiring file's directory.
    fn require(&self, node: Node) -> Option<Import> {
        if node.field("receiver").is_some() {
            return None;
        }
        let method = self.text(node.field("method")?);
        if method != "require" && method != "require_relative" {
            return None;
        }
        let arg = node.field("arguments")?.named_child(0)?;
        if arg.kind() != "string" || arg.named_child_count() != 1 {
            return None;
        }
        let content = arg.named_child(0)?;
        if content.kind() != "string_content" {
            return None;
        }
        let path = self.text(content);
        if path.is_empty() || path.len() > 512 {
            return None;
        }
        let module = if method == "require_relative" && !path.starts_with('.') {
            format!("./{path}")
        } else {
            path.to_string()
        };
        let line = node.start_position().row as u32 + 1;
        Some(Import::new(line, module).wildcard(true))
    }
}
