;; Hostile bot: grows memory a page at a time until refused, then traps (expect memory_limit)
(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param i32 i32) (result i64)
    (loop $grow (br_if $grow (i32.ne (memory.grow (i32.const 1)) (i32.const -1))))
    unreachable)
)
