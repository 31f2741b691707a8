;; Hostile bot: imports JavaScript glue (env::) and a WASI function of another version (expect
;; rejection at load, naming both)
(module
  (import "env" "glue_vi" (func (param i32 i32)))
  (import "wasi_unstable" "fd_write" (func (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param i32 i32) (result i64) (i64.const 0)))
