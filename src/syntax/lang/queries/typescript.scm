; Definitions TypeScript and TSX add to javascript.scm.
; `@def.signature` (an interface or abstract method, or a property of a function type) is kept
; only inside an interface, a class or a type alias's object type.

(abstract_class_declaration name: (type_identifier) @name) @def.class
(interface_declaration name: (type_identifier) @name) @def.interface
(type_alias_declaration name: (type_identifier) @name) @def.type
(enum_declaration name: (identifier) @name) @def.enum
(internal_module name: (_) @name) @def.module
(method_signature name: (_) @name) @def.signature
(abstract_method_signature name: (_) @name) @def.signature
(property_signature name: (_) @name type: (type_annotation (function_type))) @def.signature
