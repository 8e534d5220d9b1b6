; Definitions in C#. Methods, constructors and local functions are functions; inside a
; class, struct, record or interface the extractor makes them methods. A record is a
; class (`record struct` too), a delegate a type. A `const` field, or a `static readonly`
; one, is a constant. Namespaces are not definitions: qualified names start at the type.
; Properties, fields, events, operators, destructors and enum members are not definitions.

(class_declaration name: (identifier) @name) @def.class
(record_declaration name: (identifier) @name) @def.class
(struct_declaration name: (identifier) @name) @def.struct
(interface_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(delegate_declaration name: (identifier) @name) @def.type
(method_declaration name: (identifier) @name) @def.function
(constructor_declaration name: (identifier) @name) @def.function
(local_function_statement name: (identifier) @name) @def.function
(field_declaration (modifier) @const (#eq? @const "const") (variable_declaration (variable_declarator name: (identifier) @name))) @def.constant
(field_declaration (modifier) @static (#eq? @static "static") (modifier) @readonly (#eq? @readonly "readonly") (variable_declaration (variable_declarator name: (identifier) @name))) @def.constant
(field_declaration (modifier) @readonly (#eq? @readonly "readonly") (modifier) @static (#eq? @static "static") (variable_declaration (variable_declarator name: (identifier) @name))) @def.constant
