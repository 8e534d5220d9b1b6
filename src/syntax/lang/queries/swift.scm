; Definitions in Swift. `class`, `struct`, `enum`, `actor` and `extension` are all a
; `class_declaration` told apart by their keyword; an extension is an `impl` named after
; the type it extends (its methods are that type's, as in a Rust impl). A function in a
; type, an extension or a protocol is a method (decided by the extractor); `init` is a
; method named `init`. `@def.caps` is a `let` kept only at the top level of the file or
; as a `static let` in a type.

(class_declaration declaration_kind: "class" name: (type_identifier) @name) @def.class
(class_declaration declaration_kind: "actor" name: (type_identifier) @name) @def.class
(class_declaration declaration_kind: "struct" name: (type_identifier) @name) @def.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name) @def.enum
(class_declaration declaration_kind: "extension" name: (user_type) @name) @def.impl
(protocol_declaration name: (type_identifier) @name) @def.interface
(typealias_declaration name: (type_identifier) @name) @def.type
(function_declaration name: (simple_identifier) @name) @def.function
(init_declaration "init" @name) @def.function
(protocol_function_declaration name: (simple_identifier) @name) @def.signature
(property_declaration
  (modifiers)? @modifiers
  (value_binding_pattern mutability: "let")
  name: (pattern bound_identifier: (simple_identifier) @name)) @def.caps
