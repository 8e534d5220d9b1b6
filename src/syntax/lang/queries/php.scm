; Definitions in PHP. A method declared in a class, interface, trait or enum is a method
; (decided by the extractor); a function outside one is a function. Namespaces are not
; definitions (a `namespace X;` statement has no body): names are qualified by their
; classes only. Constants are `const` declarations, in a class or at the top level.

(class_declaration name: (name) @name) @def.class
(interface_declaration name: (name) @name) @def.interface
(trait_declaration name: (name) @name) @def.trait
(enum_declaration name: (name) @name) @def.enum
(function_definition name: (name) @name) @def.function
(method_declaration name: (name) @name) @def.function
(const_declaration (const_element (name) @name)) @def.constant
