// A Bot Arena bot in AssemblyScript (ABI v1, docs/abi.md): plays `battle` and refuses
// every other mode at start. Fields Glass, Stealth and Nurse; uses a unit's skill
// whenever it is ready, otherwise attacks the last legal target.
//
// Build (npm ci installs the pinned compiler):
//
//   npx asc bot.ts --outFile bot.wasm --optimize --runtime stub --use abort=
//
// `--use abort=` drops the `env.abort` import AssemblyScript adds for failed assertions
// (the arena rejects imports that are not its own or WASI preview 1's: docs/abi.md);
// `--runtime stub` needs no GC. The bot works on raw bytes in static buffers: no strings
// are allocated.

@external("arena", "log")
declare function arena_log(ptr: usize, len: usize): void;

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

/** Write ASCII text at the end of the output buffer. */
function emit(text: string): void {
  for (let i = 0; i < text.length; i++) {
    store<u8>(output + outLen++, <u8>text.charCodeAt(i));
  }
}

function reply(text: string): i64 {
  outLen = 0;
  emit(text);
  return respond(output, outLen);
}

/** The index just after `needle` in the request, or -1. */
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
  // The request's kind is its first key: {"start" {"setup" {"turn" {"end".
  if (after(req, len, '{"start"') == 8) {
    if (after(req, len, '"mode":"battle"') < 0) {
      return reply('{"error":"as-bot plays battle only"}');
    }
    outLen = 0;
    emit("as-bot: ready");
    arena_log(output, outLen);
    return respond(output, 0);
  }
  if (after(req, len, '{"setup"') == 8) {
    return reply('{"team":["glass","stealth","nurse"]}');
  }
  if (after(req, len, '{"turn"') != 7) return respond(output, 0);
  if (after(req, len, '"skill_ready":true') >= 0) return reply('"skill"');
  const start = after(req, len, '"legal_targets":[');
  if (start < 0 || load<u8>(req + start) == 0x5d) return reply('"skill"'); // ']'
  // The last number of the list.
  let last = start;
  for (let i = start; i < len && load<u8>(req + i) != 0x5d; i++) {
    if (load<u8>(req + i) == 0x2c) last = i + 1; // ','
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
