;; Hostile bot: a table of 10 million elements (expect a load error naming the table limit)
(module
  (memory (export "memory") 1)
  (table 10000000 funcref)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param i32 i32) (result i64) (i64.const 0))
)
