;; Hostile bot: imports arena::fuel_left with the wrong type (expect rejection at load,
;; naming the import and the type the ABI gives it)
(module
  (import "arena" "fuel_left" (func (result i32)))
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param i32 i32) (result i64) (i64.const 0)))
