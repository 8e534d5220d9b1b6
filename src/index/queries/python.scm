; Definitions in Python. A def directly in a class becomes a method (decided by the
; extractor). `@def.caps` is a module-level assignment kept only when its name is ALL_CAPS.

(function_definition name: (identifier) @name) @def.function
(class_definition name: (identifier) @name) @def.class
(module
  (expression_statement
    (assignment left: (identifier) @name)) @def.caps)
