; Definitions in JavaScript (also loaded first for TypeScript and TSX).
; `@def.caps` is a top-level const kept only when its name is ALL_CAPS.

(function_declaration name: (identifier) @name) @def.function
(generator_function_declaration name: (identifier) @name) @def.function
(class_declaration name: (_) @name) @def.class
(method_definition name: (_) @name) @def.function
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @def.function
(program
  (lexical_declaration
    (variable_declarator name: (identifier) @name) @def.caps))
(program
  (export_statement
    (lexical_declaration
      (variable_declarator name: (identifier) @name) @def.caps)))
