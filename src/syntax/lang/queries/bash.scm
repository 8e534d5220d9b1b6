; Definitions in Bash: functions (`f() { … }` and `function f { … }`). Nothing else in a
; shell script is a definition.

(function_definition name: (word) @name) @def.function
