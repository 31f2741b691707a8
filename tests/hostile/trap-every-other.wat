;; Hostile bot: answers `"skill"` to a turn, then traps on the next one, and so on — each
;; instance counting its own turns (a fresh instance after a trap starts counting again).
;; Start and end get an empty answer, setup `{}`.
(module
  (memory (export "memory") 1)
  (global $turns (mut i32) (i32.const 0))
  (data (i32.const 16) "\"skill\"")
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param $ptr i32) (param $len i32) (result i64)
    (local $c i32)
    ;; The request's fourth byte: `u` in {"turn": …}.
    (local.set $c (i32.load8_u (i32.add (local.get $ptr) (i32.const 3))))
    (if (i32.ne (local.get $c) (i32.const 117))
      (then (return (i64.const 0))))
    (global.set $turns (i32.add (global.get $turns) (i32.const 1)))
    (if (i32.eqz (i32.and (global.get $turns) (i32.const 1)))
      (then unreachable))
    ;; The answer at 16, 7 bytes long.
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 7)))
)
