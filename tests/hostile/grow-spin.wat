;; Hostile bot: asks for 125 MiB more memory forever, ignoring the refusals (expect
;; out_of_fuel: every refused growth pays fuel)
(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param i32 i32) (result i64)
    (loop $grow (drop (memory.grow (i32.const 2000))) (br $grow))
    unreachable)
)
