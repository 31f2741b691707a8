;; Hostile bot: arena_alloc answers 0 ("cannot"); the host must not write at address 0
;; (expect memory_limit)
(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 0))
  (func (export "arena_call") (param i32 i32) (result i64) (i64.const 0))
)
