; Definitions in JavaScript (also loaded first for TypeScript and TSX).
; `@def.caps` is a declarator kept only at the top level (a module-level variable).
; As in every query file, the definition is the root of its pattern.

(function_declaration name: (identifier) @name) @def.function
(generator_function_declaration name: (identifier) @name) @def.function
(class_declaration name: (_) @name) @def.class
(method_definition name: (_) @name) @def.function
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @def.function
; A named function expression elsewhere: `export default ok && function httpAdapter(c) {…}`,
; `req.setTimeout(t, function handleRequestTimeout() {…})` (one a declarator holds is the
; declarator's, see defs.rs).
(function_expression name: (identifier) @name) @def.function
(variable_declarator name: (identifier) @name) @def.caps
