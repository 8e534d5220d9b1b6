; Definitions in Ruby. A `def` in a class body becomes a method (decided by the extractor);
; `def self.x` is a singleton method wherever it is (in a class or a module). A `def` in a
; module body or at the top level is a function. Constants are assignments to a constant.

(class name: (constant) @name) @def.class
(class name: (scope_resolution name: (constant) @name)) @def.class
(module name: (constant) @name) @def.module
(module name: (scope_resolution name: (constant) @name)) @def.module
(method name: (_) @name) @def.function
(singleton_method name: (_) @name) @def.method
(assignment left: (constant) @name) @def.constant
