; Definitions in Java. Methods and constructors inside a class, interface, enum or record
; are methods (decided by the extractor). `@def.static_final` is a field kept only when
; its modifiers say both `static` and `final`.

(class_declaration name: (identifier) @name) @def.class
(record_declaration name: (identifier) @name) @def.class
(interface_declaration name: (identifier) @name) @def.interface
(annotation_type_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(method_declaration name: (identifier) @name) @def.function
(constructor_declaration name: (identifier) @name) @def.function
(field_declaration
  (modifiers) @modifiers
  declarator: (variable_declarator name: (identifier) @name)) @def.static_final
