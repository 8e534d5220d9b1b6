//! Calls and requires in Lua: `f()`, `t.f()` and `t:m()` are calls; `require("a.b")` (or
//! `require "a.b"`) imports the module file `a/b.lua` (or `a/b/init.lua`), under the
//! local name it is assigned to (`local b = require("a.b")`), or all of it when the call
//! is a statement of its own (not `require("a").f`). A value
//! built by `T.new(…)`, `T:new(…)` or `m.T.new(…)` is a `T` (the constructor convention), which types
//! the calls made on its variable.

use crate::syntax::FieldExt;
use tree_sitter::Node;

use super::{CallShape, CalleeForm, CapsConstants, LangSpec, ResolveRules, any_comment};
use crate::model::{Import, Receiver};
use crate::syntax::refs::*;

pub(super) const SPEC: LangSpec = LangSpec {
    name: "lua",
    extensions: &["lua"],
    file_names: &[],
    shebangs: &["lua", "luajit"],
    separator: ".",
    grammar: || tree_sitter_lua::LANGUAGE.into(),
    query: include_str!("queries/lua.scm"),
    opaque: &["string", "parameters"],
    doc_comment: any_comment,
    docstrings: false,
    caps_constants: CapsConstants::None,
    wrappers: &[],
    methods_in_classes_only: false,
    typedef_names: false,
    jsdoc_param_types: false,
    calls: &[CallShape {
        node: "function_call",
        callee: Some("name"),
        unwrap: None,
        new: false,
        forms: &[
            CalleeForm::Name("identifier"),
            CalleeForm::Member {
                node: "dot_index_expression",
                object: "table",
                name: "field",
                unwrap_name: None,
            },
            CalleeForm::Member {
                node: "method_index_expression",
                object: "table",
                name: "method",
                unwrap_name: None,
            },
        ],
    }],
    resolve: ResolveRules {
        family: 9,
        builtins: BUILTINS,
        global_objects: &[
            "string",
            "table",
            "math",
            "io",
            "os",
            "coroutine",
            "debug",
            "utf8",
            "package",
        ],
        ..ResolveRules::PLAIN
    },
};

/// Functions of the base library: never a repository definition unless the repository
/// defines one.
const BUILTINS: &[&str] = &[
    "assert",
    "collectgarbage",
    "dofile",
    "error",
    "getmetatable",
    "ipairs",
    "load",
    "loadfile",
    "next",
    "pairs",
    "pcall",
    "print",
    "rawequal",
    "rawget",
    "rawlen",
    "rawset",
    "require",
    "select",
    "setmetatable",
    "tonumber",
    "tostring",
    "type",
    "unpack",
    "xpcall",
];

impl Walker<'_> {
    pub(in crate::syntax) fn lua(&mut self, node: Node) -> bool {
        if node.kind() != "function_call" {
            return true;
        }
        let target = self.lua_assigned_to(node);
        if let Some(module) = self.lua_require(node) {
            let line = node.start_position().row as u32 + 1;
            // Assigned: the module under a local name; a statement of its own: all of it
            // (its globals); used otherwise (`require "a".f`): nothing read here.
            let statement = node
                .parent()
                .is_some_and(|p| matches!(p.kind(), "chunk" | "block"));
            match target {
                Some(local) => self
                    .imports
                    .push(Import::new(line, module).aliased(Some(local))),
                None if statement => self.imports.push(Import::new(line, module).wildcard(true)),
                None => {}
            }
        } else if let (Some(var), Some(ty)) = (target, self.lua_constructed(node)) {
            self.bind(node, &var, Receiver::Type(ty));
        }
        true
    }

    /// The local or global `x` in `local x = <node>` / `x = <node>` (the first value).
    fn lua_assigned_to(&self, node: Node) -> Option<String> {
        let list = node.parent().filter(|p| p.kind() == "expression_list")?;
        if list.named_child(0) != Some(node) {
            return None;
        }
        let assign = list
            .parent()
            .filter(|p| p.kind() == "assignment_statement")?;
        let mut c = assign.walk();
        let vars = assign
            .named_children(&mut c)
            .find(|n| n.kind() == "variable_list")?;
        let first = vars.named_child(0)?;
        (first.kind() == "identifier").then(|| self.text(first).to_string())
    }

    /// `require("a.b")` / `require "a.b"`: the module name.
    fn lua_require(&self, node: Node) -> Option<String> {
        let name = node.field("name")?;
        if name.kind() != "identifier" || self.text(name) != "require" {
            return None;
        }
        let arg = node.field("arguments")?;
        let s = if arg.kind() == "string" {
            arg
        } else {
            arg.named_child(0).filter(|a| a.kind() == "string")?
        };
        let content = self.text(s.field("content")?);
        (!content.is_empty() && content.len() <= 512).then(|| content.to_string())
    }

    /// `T.new(…)` / `T:new(…)`: `T`.
    fn lua_constructed(&self, node: Node) -> Option<String> {
        let callee = node.field("name")?;
        let (table, method) = match callee.kind() {
            "dot_index_expression" => (callee.field("table")?, callee.field("field")?),
            "method_index_expression" => (callee.field("table")?, callee.field("method")?),
            _ => return None,
        };
        // `shop.Item.new(…)`: the table's last name.
        let t = self.text(table);
        (self.text(method) == "new"
            && matches!(table.kind(), "identifier" | "dot_index_expression"))
        .then(|| t.rsplit('.').next().unwrap_or(t).to_string())
    }
}
