;; Hostile bot: answers text that is not JSON (expect not_json)
(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (data (i32.const 16) "{not json")
  (func (export "arena_call") (param i32 i32) (result i64) (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 9)))
)
