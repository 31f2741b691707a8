;; Hostile bot: loops forever in its start function, during instantiation (expect out_of_fuel)
(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func $spin (loop $l (br $l)))
  (start $spin)
  (func (export "arena_call") (param i32 i32) (result i64) (i64.const 0)))
