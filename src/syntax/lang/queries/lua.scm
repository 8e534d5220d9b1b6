; Definitions in Lua: `function f`, `local function f`, and `function M.f` / `function
; M:f` on a table named by a plain identifier (`@receiver`: the name is qualified by it,
; `M.f`, and is a method of it). Functions assigned to variables or table fields
; (`M.f = function … end`) are not definitions.

(function_declaration name: (identifier) @name) @def.function
(function_declaration name: (dot_index_expression table: (_) @receiver field: (identifier) @name)) @def.function
(function_declaration name: (method_index_expression table: (_) @receiver method: (identifier) @name)) @def.function
