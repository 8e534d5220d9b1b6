; Definitions C++ adds to c.scm.

(class_specifier name: (_) @name body: (field_declaration_list)) @def.class
(namespace_definition name: (_) @name) @def.module
(alias_declaration name: (type_identifier) @name) @def.type
