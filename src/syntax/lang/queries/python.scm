; Definitions in Python. A def directly in a class becomes a method (decided by the
; extractor). `@def.caps` is an assignment kept only at module level (a module global), not
; a dunder. As in every query file, the definition is the root of its pattern.

(function_definition name: (identifier) @name) @def.function
(class_definition name: (identifier) @name) @def.class
(expression_statement (assignment left: (identifier) @name)) @def.caps
