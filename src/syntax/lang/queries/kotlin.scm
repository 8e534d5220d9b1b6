; Definitions in Kotlin. `class`, `interface`, `enum class` and `object` declarations
; (an object is a class with one instance); functions, methods when declared in one of
; those (decided by the extractor), and extension functions (`fun Item.label()`), which
; are methods of the type they extend: the receiver type qualifies the name
; (`Item.label`), or the bound of the type parameter it extends
; (`fun <T : Command> T.parse()` is `Command.parse`). A companion object is not a
; definition of its own: its members are the class's (`Item.create`, called as
; `Item.create()`). `typealias` is a type; a `const val` is a constant. Earlier patterns
; win for the same node (an interface is not also a class). A pattern without `@name` is
; named by the first identifier in the node's `name` field (see queries/swift.scm).

(class_declaration "interface") @def.interface
(class_declaration
  (modifiers (class_modifier) @_enum (#eq? @_enum "enum"))) @def.enum
(class_declaration) @def.class
(object_declaration) @def.class
(function_declaration
  (type_parameters
    (type_parameter . (identifier) @_param (user_type . (identifier) @receiver)))
  (user_type . (identifier) @_extended)
  .
  name: (identifier) @name
  (#eq? @_param @_extended)) @def.function
(function_declaration
  (user_type . (identifier) @receiver) . name: (identifier) @name) @def.function
(function_declaration
  (nullable_type (user_type . (identifier) @receiver)) . name: (identifier) @name) @def.function
(function_declaration) @def.function
(type_alias type: (identifier) @name) @def.type
(property_declaration
  (modifiers (property_modifier) @_const (#eq? @_const "const"))
  (variable_declaration (identifier) @name)) @def.constant
