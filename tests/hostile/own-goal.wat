;; Hostile bot (battle): picks a legal team, then answers every turn with an attack on a
;; unit that does not exist — an answer that decodes but is always rejected. Start and end
;; get an empty answer.
(module
  (memory (export "memory") 1)
  (data (i32.const 16) "{\"team\":[\"aggro\",\"tank\",\"nurse\"]}")
  (data (i32.const 64) "{\"attack\":{\"target\":255}}")
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param $ptr i32) (param $len i32) (result i64)
    (local $c i32)
    ;; The request's fourth byte: `e` in {"setup": …}, `u` in {"turn": …}.
    (local.set $c (i32.load8_u (i32.add (local.get $ptr) (i32.const 3))))
    (if (i32.eq (local.get $c) (i32.const 101))
      (then (return (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 33)))))
    (if (i32.eq (local.get $c) (i32.const 117))
      (then (return (i64.or (i64.shl (i64.const 64) (i64.const 32)) (i64.const 25)))))
    (i64.const 0))
)
