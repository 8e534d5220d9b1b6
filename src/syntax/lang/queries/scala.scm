; Definitions in Scala. A `def` in a class, object, trait or enum body is a method (decided
; by the extractor); one at the top level (Scala 3) or inside another `def` is a function.
; An `object` is a class (a singleton: its members are called `Obj.f()`, and it may extend
; classes and traits); a `package object` is a module. A body-less `def` (`@def.signature`)
; is kept only in a trait or class. `@def.caps` is a `val` kept only when it is named in
; upper case directly in an object's body or at the top level (the convention for
; constants).
;
; A pattern without `@name` is named by the first identifier in the node's `name` field
; (see queries/swift.scm): `name: (identifier) @name` costs more to compile.

(class_definition) @def.class
(object_definition) @def.class
(package_object) @def.module
(trait_definition) @def.trait
(enum_definition) @def.enum
(function_definition) @def.function
(function_declaration) @def.signature
(type_definition) @def.type
(val_definition pattern: (identifier) @name) @def.caps
