; Definitions in Swift. `class`, `struct`, `enum`, `actor` and `extension` are all a
; `class_declaration` told apart by their keyword; an extension is an `impl` named after
; the type it extends (its methods are that type's, as in a Rust impl). A function in a
; type, an extension or a protocol is a method (decided by the extractor); `init` is a
; method named `init`. `@def.caps` is a `let` kept only at the top level of the file or
; as a `static let` in a type (the extractor reads its modifiers).
;
; Compiling a query costs by the parse states its child patterns can be in: a
; function's name written as `name: (simple_identifier) @name` made this query take
; 120 ms to compile, a fifth of indexing a 1 MB Swift tree. Without a `@name` the
; extractor takes the first child in the `name` field when it is an identifier (the
; field also holds the return type, and an operator function's name is no identifier).

(class_declaration declaration_kind: "class" name: (type_identifier) @name) @def.class
(class_declaration declaration_kind: "actor" name: (type_identifier) @name) @def.class
(class_declaration declaration_kind: "struct" name: (type_identifier) @name) @def.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name) @def.enum
(class_declaration declaration_kind: "extension" name: (user_type) @name) @def.impl
(protocol_declaration name: (type_identifier) @name) @def.interface
(typealias_declaration name: (type_identifier) @name) @def.type
(function_declaration) @def.function
(init_declaration "init" @name) @def.function
(protocol_function_declaration name: (simple_identifier) @name) @def.signature
(property_declaration
  (value_binding_pattern mutability: "let")
  name: (pattern bound_identifier: (simple_identifier) @name)) @def.caps
