; Definitions in Go. A method's parent is its receiver type (`@receiver`), wherever
; that type is declared. The first pattern that matches a node wins, so struct and
; interface come before the general type.

(function_declaration name: (identifier) @name) @def.function
(method_declaration receiver: (parameter_list) @receiver name: (field_identifier) @name) @def.method
(type_spec name: (type_identifier) @name type: (struct_type)) @def.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @def.interface
(type_spec name: (type_identifier) @name) @def.type
(type_alias name: (type_identifier) @name) @def.type
(const_spec name: (identifier) @name) @def.constant
(method_elem name: (field_identifier) @name) @def.signature
