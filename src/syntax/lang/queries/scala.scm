; Definitions in Scala. A `def` in a class, object, trait or enum body is a method (decided
; by the extractor); one at the top level (Scala 3) or inside another `def` is a function.
; An `object` is a class (a singleton: its members are called `Obj.f()`, and it may extend
; classes and traits); a `package object` is a module. A body-less `def` (`@def.signature`)
; is kept only in a trait or class. `@def.caps` is a `val` kept only when it is named in
; upper case directly in an object's body or at the top level (the convention for
; constants).

(class_definition name: (identifier) @name) @def.class
(object_definition name: (identifier) @name) @def.class
(package_object name: (identifier) @name) @def.module
(trait_definition name: (identifier) @name) @def.trait
(enum_definition name: (identifier) @name) @def.enum
(function_definition name: (identifier) @name) @def.function
(function_declaration name: (identifier) @name) @def.signature
(type_definition name: (type_identifier) @name) @def.type
(val_definition pattern: (identifier) @name) @def.caps
