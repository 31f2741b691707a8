;; Hostile bot: chooses the binary encoding, then answers every turn with bytes that are no
;; battle action (`00 07`: an answer, variant 7 — battle has two). Expect wrong_shape.
(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_encoding") (param i32) (result i32) (i32.const 2))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (data (i32.const 16) "\00\07")
  (func (export "arena_call") (param i32 i32) (result i64)
    ;; start (00) and end (03) get an empty answer; a turn (02) gets the garbage.
    (if (i32.ne (i32.load8_u (local.get 0)) (i32.const 2)) (then (return (i64.const 0))))
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 2)))
)
