; Definitions in C (also loaded first for C++). A function's name is read from its
; `@declarator` (through pointers, references and qualified names). A struct or enum
; directly inside a typedef is reported once, under the typedef's name.

(function_definition declarator: (_) @declarator) @def.function
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.struct
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @def.enum
(type_definition
  type: [(struct_specifier body: (field_declaration_list)) (union_specifier body: (field_declaration_list))]
  declarator: (type_identifier) @name) @def.struct
(type_definition
  type: (enum_specifier body: (enumerator_list))
  declarator: (type_identifier) @name) @def.enum
(type_definition declarator: (_) @declarator) @def.type
(preproc_def name: (identifier) @name) @def.constant
(preproc_function_def name: (identifier) @name) @def.macro
