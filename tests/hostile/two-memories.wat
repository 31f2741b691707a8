;; Hostile bot: a second memory (expect a load error: the ABI has one memory)
(module
  (memory (export "memory") 1)
  (memory $other 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param i32 i32) (result i64) (i64.const 0))
)
