;; Hostile bot: answers bytes that are not UTF-8 (expect not_utf8)
(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (data (i32.const 16) "\ff\fe\fd")
  (func (export "arena_call") (param i32 i32) (result i64) (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 3)))
)
