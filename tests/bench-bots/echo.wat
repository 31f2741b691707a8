;; Benchmark bot: answers every request with the battle action "skill" without reading it,
;; so a call through the sandbox costs only the host side (JSON encoding of the request,
;; copying it into the bot's memory, the call, reading and decoding the 7-byte answer).
;; Requests up to 63 KiB fit in its one page of memory (a battle turn is ~2 KiB).
(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  ;; Every request goes to the same buffer at 1024; the answer lives at 16.
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (data (i32.const 16) "\"skill\"")
  (func (export "arena_call") (param i32 i32) (result i64)
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 7)))
)
