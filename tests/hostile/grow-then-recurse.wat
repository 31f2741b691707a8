;; Hostile bot: a refused memory.grow, then unbounded recursion (expect trap: the stack's
;; limit, not memory_limit)
(module
  (memory (export "memory") 1)
  (func $deeper (param i64) (result i64) (call $deeper (i64.add (local.get 0) (i64.const 1))))
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param i32 i32) (result i64)
    (drop (memory.grow (i32.const 2000)))
    (call $deeper (i64.const 0)))
)
