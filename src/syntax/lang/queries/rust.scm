; Definitions in Rust. `@def.KIND` marks the definition node, `@name` its name.
; A function directly inside an impl or trait becomes a method (decided by the extractor);
; `@def.signature` (a body-less declaration) is kept only inside a trait.

(function_item name: (identifier) @name) @def.function
(function_signature_item name: (identifier) @name) @def.signature
(struct_item name: (type_identifier) @name) @def.struct
(union_item name: (type_identifier) @name) @def.struct
(enum_item name: (type_identifier) @name) @def.enum
(trait_item name: (type_identifier) @name) @def.trait
(impl_item type: (_) @name) @def.impl
(mod_item name: (identifier) @name body: (declaration_list)) @def.module
(const_item name: (identifier) @name) @def.constant
(static_item name: (identifier) @name) @def.constant
(type_item name: (type_identifier) @name) @def.type
(macro_definition name: (identifier) @name) @def.macro
