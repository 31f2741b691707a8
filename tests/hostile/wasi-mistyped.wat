;; Hostile bot: imports a WASI preview 1 function with the wrong type (expect rejection at
;; load, naming the import and the type the preview defines)
(module
  (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param i32 i32) (result i64) (i64.const 0)))
