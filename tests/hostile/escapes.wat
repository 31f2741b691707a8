;; Hostile bot: terminal escape sequences in its log and its error (expect them shown
;; escaped by `arena check`, never sent to the terminal)
(module
  (import "arena" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "\1b[2J\1b[32mok: the bot is ready\1b[0m")
  (data (i32.const 64) "{\"error\": \"\\u001b[2J\\u001b[32mok\"}")
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param i32 i32) (result i64)
    (call $log (i32.const 16) (i32.const 33))
    (i64.or (i64.shl (i64.const 64) (i64.const 32)) (i64.const 34)))
)
