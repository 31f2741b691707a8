;; Hostile bot: recurses without end (expect trap: stack overflow)
(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func $deeper (param i32) (result i32) (call $deeper (i32.add (local.get 0) (i32.const 1))))
  (func (export "arena_call") (param i32 i32) (result i64) (drop (call $deeper (i32.const 0))) (i64.const 0))
)
