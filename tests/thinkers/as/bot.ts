// thinker in AssemblyScript: every language's thinker (tests/thinkers/) plays battle the
// same way. It fields Glass, Stealth and Nurse; on each turn it reads its budget, thinks
// (reads what is left) until no more than a fifth of the budget is left, logs
// "thinker: budget B, stopped at L left", then uses the skill when it is ready, else
// attacks the last legal target. Built like sample-bots/as-bot, with its compiler
// (tests/build.rs).

@external("arena", "log")
declare function arena_log(ptr: usize, len: usize): void;
/** The fuel the current call has left, after paying 100 for this read (docs/abi.md). */
@external("arena", "fuel_left")
declare function fuel_left(): i64;
/** The fuel the current call started with. */
@external("arena", "fuel_budget")
declare function fuel_budget(): i64;

const INPUT_SIZE: i32 = 64 * 1024;
const input: usize = memory.data(INPUT_SIZE);
const output: usize = memory.data(256);
let outLen: i32 = 0;

export function arena_abi_version(): i32 {
  return 1;
}

export function arena_alloc(len: i32): i32 {
  return len <= INPUT_SIZE ? <i32>input : 0;
}

function respond(ptr: usize, len: i32): i64 {
  return (<i64>ptr << 32) | <i64>len;
}

function emit(text: string): void {
  for (let i = 0; i < text.length; i++) {
    store<u8>(output + outLen++, <u8>text.charCodeAt(i));
  }
}

function emitNumber(n: i64): void {
  emit(n.toString());
}

function reply(text: string): i64 {
  outLen = 0;
  emit(text);
  return respond(output, outLen);
}

function after(ptr: usize, len: i32, needle: string): i32 {
  const n = needle.length;
  for (let i = 0; i + n <= len; i++) {
    let j = 0;
    while (j < n && load<u8>(ptr + i + j) == <u8>needle.charCodeAt(j)) j++;
    if (j == n) return i + n;
  }
  return -1;
}

export function arena_call(ptr: i32, len: i32): i64 {
  const req = <usize>ptr;
  if (after(req, len, '{"start"') == 8) {
    if (after(req, len, '"mode":"battle"') < 0) {
      return reply('{"error":"thinker plays battle only"}');
    }
    return respond(output, 0);
  }
  if (after(req, len, '{"setup"') == 8) {
    outLen = 0;
    emit("thinker: setup budget ");
    emitNumber(fuel_budget());
    arena_log(output, outLen);
    return reply('{"team":["glass","stealth","nurse"]}');
  }
  if (after(req, len, '{"turn"') != 7) return respond(output, 0);
  const budget = fuel_budget();
  const stop = budget / 5;
  let left = fuel_left();
  while (left > stop) left = fuel_left();
  outLen = 0;
  emit("thinker: budget ");
  emitNumber(budget);
  emit(", stopped at ");
  emitNumber(left);
  emit(" left");
  arena_log(output, outLen);
  if (after(req, len, '"skill_ready":true') >= 0) return reply('"skill"');
  const start = after(req, len, '"legal_targets":[');
  if (start < 0 || load<u8>(req + start) == 0x5d) return reply('"skill"');
  let last = start;
  for (let i = start; i < len && load<u8>(req + i) != 0x5d; i++) {
    if (load<u8>(req + i) == 0x2c) last = i + 1;
  }
  outLen = 0;
  emit('{"attack":{"target":');
  for (let i = last; i < len; i++) {
    const c = load<u8>(req + i);
    if (c < 0x30 || c > 0x39) break;
    store<u8>(output + outLen++, c);
  }
  emit("}}");
  return respond(output, outLen);
}
