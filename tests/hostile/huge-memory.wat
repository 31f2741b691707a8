;; Hostile bot: asks for 2000 pages (125 MiB) of initial memory (expect rejection at load)
(module
  (memory (export "memory") 2000)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param i32 i32) (result i64) (i64.const 0)))
