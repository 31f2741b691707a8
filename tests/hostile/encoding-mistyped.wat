;; Hostile bot: exports `arena_encoding` without its parameter. Expect a load rejection.
(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_encoding") (result i32) (i32.const 2))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param i32 i32) (result i64) (i64.const 0))
)
