;; Hostile bot: answers JSON of the wrong shape to every turn (expect wrong_shape)
(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (data (i32.const 16) "{\22dance\22:true}")
  (func (export "arena_call") (param i32 i32) (result i64)
    ;; {"start" and {"end" get an empty answer; everything else gets {"dance":true}.
    (if (i32.eq (i32.load8_u offset=3 (local.get 0)) (i32.const 0x74)) (then (return (i64.const 0))))
    (if (i32.eq (i32.load8_u offset=2 (local.get 0)) (i32.const 0x65)) (then (return (i64.const 0))))
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 14)))
)
