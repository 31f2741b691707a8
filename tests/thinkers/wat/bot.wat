;; thinker in WebAssembly text: every language's thinker (tests/thinkers/) plays battle the
;; same way. It fields Glass, Stealth and Nurse; on each turn it reads its budget, thinks
;; (reads what is left) until no more than a fifth of the budget is left, logs
;; "thinker: budget B, stopped at L left", then uses the skill when it is ready, else
;; attacks the last legal target.
(module
  (import "arena" "log" (func $log (param i32 i32)))
  ;; The fuel the current call has left (after paying 100 for the read), and the fuel it
  ;; started with (docs/abi.md, "Imports").
  (import "arena" "fuel_left" (func $fuel_left (result i64)))
  (import "arena" "fuel_budget" (func $fuel_budget (result i64)))

  ;; Requests at 64 KiB; responses and log lines built at 1 KiB.
  (memory (export "memory") 2)

  (data (i32.const 16) "{\22team\22:[\22glass\22,\22stealth\22,\22nurse\22]}")  ;; 36 bytes
  (data (i32.const 64) "\22legal_targets\22:[")                               ;; 17 bytes
  (data (i32.const 96) "{\22attack\22:{\22target\22:")                         ;; 20 bytes
  (data (i32.const 128) "\22skill\22")                                          ;; 7 bytes
  (data (i32.const 144) "thinker: setup budget ")                              ;; 22 bytes
  (data (i32.const 176) "thinker: budget ")                                    ;; 16 bytes
  (data (i32.const 192) "\22mode\22:\22battle\22")                              ;; 15 bytes
  (data (i32.const 224) "{\22error\22:\22thinker plays battle only\22}")         ;; 37 bytes
  (data (i32.const 272) "\22skill_ready\22:true")                              ;; 18 bytes
  (data (i32.const 304) ", stopped at ")                                       ;; 13 bytes
  (data (i32.const 320) " left")                                               ;; 5 bytes

  (global $input i32 (i32.const 65536))
  (global $output i32 (i32.const 1024))

  (func (export "arena_abi_version") (result i32) (i32.const 1))

  (func (export "arena_alloc") (param $len i32) (result i32)
    (if (i32.gt_u (local.get $len) (i32.const 65536)) (then (return (i32.const 0))))
    (global.get $input))

  (func $respond (param $ptr i32) (param $len i32) (result i64)
    (i64.or (i64.shl (i64.extend_i32_u (local.get $ptr)) (i64.const 32))
            (i64.extend_i32_u (local.get $len))))

  ;; The position just after the first occurrence of $needle ($n bytes) in the request,
  ;; or 0.
  (func $find (param $ptr i32) (param $len i32) (param $needle i32) (param $n i32) (result i32)
    (local $at i32) (local $i i32) (local $end i32)
    (if (i32.lt_u (local.get $len) (local.get $n)) (then (return (i32.const 0))))
    (local.set $end (i32.sub (i32.add (local.get $ptr) (local.get $len)) (local.get $n)))
    (local.set $at (local.get $ptr))
    (block $no
      (loop $scan
        (br_if $no (i32.gt_u (local.get $at) (local.get $end)))
        (local.set $i (i32.const 0))
        (block $differs
          (loop $next
            (br_if $differs
              (i32.ne (i32.load8_u (i32.add (local.get $at) (local.get $i)))
                      (i32.load8_u (i32.add (local.get $needle) (local.get $i)))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br_if $next (i32.lt_u (local.get $i) (local.get $n))))
          (return (i32.add (local.get $at) (local.get $n))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $scan)))
    (i32.const 0))

  ;; Copy $n bytes from $src to $dst; returns the end.
  (func $put (param $dst i32) (param $src i32) (param $n i32) (result i32)
    (memory.copy (local.get $dst) (local.get $src) (local.get $n))
    (i32.add (local.get $dst) (local.get $n)))

  ;; Write $value in decimal at $dst; returns the end.
  (func $decimal (param $dst i32) (param $value i64) (result i32)
    (local $digits i32) (local $end i32)
    (local.set $digits (i32.const 1))
    ;; Count the digits.
    (block $counted
      (loop $count
        (br_if $counted (i64.lt_u (local.get $value)
          (call $pow10 (local.get $digits))))
        (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
        (br_if $count (i32.lt_u (local.get $digits) (i32.const 19)))))
    (local.set $end (i32.add (local.get $dst) (local.get $digits)))
    (local.set $dst (local.get $end))
    (loop $digit
      (local.set $dst (i32.sub (local.get $dst) (i32.const 1)))
      (i32.store8 (local.get $dst)
        (i32.add (i32.const 0x30) (i32.wrap_i64 (i64.rem_u (local.get $value) (i64.const 10)))))
      (local.set $value (i64.div_u (local.get $value) (i64.const 10)))
      (br_if $digit (i64.ne (local.get $value) (i64.const 0))))
    (local.get $end))

  (func $pow10 (param $n i32) (result i64)
    (local $p i64)
    (local.set $p (i64.const 1))
    (block $done
      (loop $mul
        (br_if $done (i32.eqz (local.get $n)))
        (local.set $p (i64.mul (local.get $p) (i64.const 10)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $mul)))
    (local.get $p))

  (func (export "arena_call") (param $ptr i32) (param $len i32) (result i64)
    (local $at i32) (local $last i32) (local $out i32) (local $c i32)
    (local $budget i64) (local $stop i64) (local $left i64)
    ;; The request's kind is its first key: {"start" {"setup" {"turn" {"end".
    (if (i32.eq (i32.load8_u offset=2 (local.get $ptr)) (i32.const 0x73)) ;; 's'
      (then
        (if (i32.eq (i32.load8_u offset=3 (local.get $ptr)) (i32.const 0x65)) ;; 'e': setup
          (then
            (local.set $out (call $put (global.get $output) (i32.const 144) (i32.const 22)))
            (local.set $out (call $decimal (local.get $out) (call $fuel_budget)))
            (call $log (global.get $output) (i32.sub (local.get $out) (global.get $output)))
            (return (call $respond (i32.const 16) (i32.const 36)))))
        (if (i32.eqz (call $find (local.get $ptr) (local.get $len) (i32.const 192) (i32.const 15)))
          (then (return (call $respond (i32.const 224) (i32.const 37)))))
        (return (call $respond (i32.const 0) (i32.const 0)))))
    (if (i32.ne (i32.load8_u offset=2 (local.get $ptr)) (i32.const 0x74)) ;; not 't': end
      (then (return (call $respond (i32.const 0) (i32.const 0)))))
    ;; A turn: think until a fifth of the budget is left.
    (local.set $budget (call $fuel_budget))
    (local.set $stop (i64.div_u (local.get $budget) (i64.const 5)))
    (local.set $left (call $fuel_left))
    (block $thought
      (loop $think
        (br_if $thought (i64.le_u (local.get $left) (local.get $stop)))
        (local.set $left (call $fuel_left))
        (br $think)))
    (local.set $out (call $put (global.get $output) (i32.const 176) (i32.const 16)))
    (local.set $out (call $decimal (local.get $out) (local.get $budget)))
    (local.set $out (call $put (local.get $out) (i32.const 304) (i32.const 13)))
    (local.set $out (call $decimal (local.get $out) (local.get $left)))
    (local.set $out (call $put (local.get $out) (i32.const 320) (i32.const 5)))
    (call $log (global.get $output) (i32.sub (local.get $out) (global.get $output)))
    (if (call $find (local.get $ptr) (local.get $len) (i32.const 272) (i32.const 18))
      (then (return (call $respond (i32.const 128) (i32.const 7)))))
    (local.set $at (call $find (local.get $ptr) (local.get $len) (i32.const 64) (i32.const 17)))
    (if (i32.eqz (local.get $at))
      (then (return (call $respond (i32.const 128) (i32.const 7)))))
    (if (i32.eq (i32.load8_u (local.get $at)) (i32.const 0x5d)) ;; ']': no legal target
      (then (return (call $respond (i32.const 128) (i32.const 7)))))
    ;; The last number of the list.
    (local.set $last (local.get $at))
    (block $end
      (loop $scan
        (local.set $c (i32.load8_u (local.get $at)))
        (br_if $end (i32.eq (local.get $c) (i32.const 0x5d)))
        (if (i32.eq (local.get $c) (i32.const 0x2c))
          (then (local.set $last (i32.add (local.get $at) (i32.const 1)))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $scan)))
    (local.set $out (call $put (global.get $output) (i32.const 96) (i32.const 20)))
    (block $done
      (loop $digit
        (local.set $c (i32.load8_u (local.get $last)))
        (br_if $done (i32.or (i32.lt_u (local.get $c) (i32.const 0x30))
                             (i32.gt_u (local.get $c) (i32.const 0x39))))
        (i32.store8 (local.get $out) (local.get $c))
        (local.set $out (i32.add (local.get $out) (i32.const 1)))
        (local.set $last (i32.add (local.get $last) (i32.const 1)))
        (br $digit)))
    (i32.store16 (local.get $out) (i32.const 0x7d7d)) ;; "}}"
    (local.set $out (i32.add (local.get $out) (i32.const 2)))
    (call $respond (global.get $output) (i32.sub (local.get $out) (global.get $output))))
)
