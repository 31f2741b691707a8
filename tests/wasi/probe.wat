;; A bot that reports what the WASI subset shows it: on every request it writes one line to
;; standard output — random bytes, both clocks, the argument and environment counts, and
;; the errno of calls that must fail — then answers with an empty response (fine for
;; `start`). `_initialize` counts its calls, so the line shows it ran exactly once.
(module
  (import "wasi_snapshot_preview1" "random_get" (func $random_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "clock_time_get" (func $clock_time_get (param i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_sizes_get" (func $args_sizes_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "environ_sizes_get" (func $environ_sizes_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_prestat_get" (func $fd_prestat_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "sock_accept" (func $sock_accept (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "poll_oneoff" (func $poll_oneoff (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (global $inits (mut i32) (i32.const 0))
  (global $out (mut i32) (i32.const 0))
  (data (i32.const 3000) "0123456789abcdef")

  (func (export "_initialize") (global.set $inits (i32.add (global.get $inits) (i32.const 1))))
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 8192))

  ;; Append a byte, a label of 4 bytes ("xxx="), a value in 16 hex digits.
  (func $byte (param $b i32)
    (i32.store8 (global.get $out) (local.get $b))
    (global.set $out (i32.add (global.get $out) (i32.const 1))))
  (func $label (param $word i32)
    (i32.store (global.get $out) (local.get $word))
    (global.set $out (i32.add (global.get $out) (i32.const 4))))
  (func $hex (param $v i64) (local $i i32)
    (loop $digits
      (call $byte (i32.load8_u offset=3000
        (i32.wrap_i64 (i64.and (i64.shr_u (local.get $v)
          (i64.extend_i32_u (i32.sub (i32.const 60) (i32.mul (local.get $i) (i32.const 4)))))
          (i64.const 15)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $digits (i32.lt_u (local.get $i) (i32.const 16))))
    (call $byte (i32.const 32)))

  (func (export "arena_call") (param i32 i32) (result i64)
    (global.set $out (i32.const 4096))
    ;; rand=: 8 random bytes
    (drop (call $random_get (i32.const 2048) (i32.const 8)))
    (call $label (i32.const 0x3d646e72)) ;; "rnd="
    (call $hex (i64.load (i32.const 2048)))
    ;; mon=, rea=: the monotonic and realtime clocks
    (drop (call $clock_time_get (i32.const 1) (i64.const 0) (i32.const 2056)))
    (call $label (i32.const 0x3d6e6f6d)) ;; "mon="
    (call $hex (i64.load (i32.const 2056)))
    (drop (call $clock_time_get (i32.const 0) (i64.const 0) (i32.const 2056)))
    (call $label (i32.const 0x3d616572)) ;; "rea="
    (call $hex (i64.load (i32.const 2056)))
    ;; arg=, env=: counts
    (drop (call $args_sizes_get (i32.const 2064) (i32.const 2068)))
    (drop (call $environ_sizes_get (i32.const 2072) (i32.const 2076)))
    (call $label (i32.const 0x3d677261)) ;; "arg="
    (call $hex (i64.extend_i32_u (i32.add (i32.load (i32.const 2064)) (i32.load (i32.const 2072)))))
    ;; pre=: fd_prestat_get(3) (8, EBADF: no preopens); opn=: path_open (52, ENOSYS);
    ;; sck=: sock_accept (52); flt=: random_get out of bounds (21, EFAULT)
    (call $label (i32.const 0x3d657270)) ;; "pre="
    (call $hex (i64.extend_i32_u (call $fd_prestat_get (i32.const 3) (i32.const 2080))))
    (call $label (i32.const 0x3d6e706f)) ;; "opn="
    (call $hex (i64.extend_i32_u (call $path_open (i32.const 3) (i32.const 0) (i32.const 0)
      (i32.const 0) (i32.const 0) (i64.const 0) (i64.const 0) (i32.const 0) (i32.const 2080))))
    (call $label (i32.const 0x3d6b6373)) ;; "sck="
    (call $hex (i64.extend_i32_u (call $sock_accept (i32.const 3) (i32.const 0) (i32.const 2080))))
    (call $label (i32.const 0x3d746c66)) ;; "flt="
    (call $hex (i64.extend_i32_u (call $random_get (i32.const 0xfffffff0) (i32.const 100))))
    ;; inp=: bytes read from standard input (0: it is empty)
    (i32.store (i32.const 2088) (i32.const 2100))
    (i32.store (i32.const 2092) (i32.const 16))
    (drop (call $fd_read (i32.const 0) (i32.const 2088) (i32.const 1) (i32.const 2096)))
    (call $label (i32.const 0x3d706e69)) ;; "inp="
    (call $hex (i64.extend_i32_u (i32.load (i32.const 2096))))
    ;; slp=: the monotonic clock after a poll_oneoff sleep of 1 s, minus before it
    (drop (call $clock_time_get (i32.const 1) (i64.const 0) (i32.const 2056)))
    (i64.store (i32.const 2200) (i64.const 7))        ;; userdata
    (i32.store8 (i32.const 2208) (i32.const 0))       ;; clock
    (i32.store (i32.const 2216) (i32.const 1))        ;; monotonic
    (i64.store (i32.const 2224) (i64.const 1000000000)) ;; 1 s, relative
    (i32.store16 (i32.const 2240) (i32.const 0))
    (drop (call $poll_oneoff (i32.const 2200) (i32.const 2300) (i32.const 1) (i32.const 2400)))
    (drop (call $clock_time_get (i32.const 1) (i64.const 0) (i32.const 2064)))
    (call $label (i32.const 0x3d706c73)) ;; "slp="
    (call $hex (i64.sub (i64.load (i32.const 2064)) (i64.load (i32.const 2056))))
    ;; ini=: how often _initialize ran
    (call $label (i32.const 0x3d696e69)) ;; "ini="
    (call $hex (i64.extend_i32_u (global.get $inits)))
    (call $byte (i32.const 10))
    ;; one iovec: 4096 .. out
    (i32.store (i32.const 2500) (i32.const 4096))
    (i32.store (i32.const 2504) (i32.sub (global.get $out) (i32.const 4096)))
    (drop (call $fd_write (i32.const 1) (i32.const 2500) (i32.const 1) (i32.const 2508)))
    (i64.const 0)))
