;; Hostile bot: picks an encoding the host never offers (bit 2). Expect an instantiation
;; fault at start.
(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_encoding") (param i32) (result i32) (i32.const 4))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param i32 i32) (result i64) (i64.const 0))
)
