/* Bot Arena bot ABI v1 for C (see docs/abi.md).
 *
 * Build a bot with:
 *   clang --target=wasm32 -O2 -nostdlib -Wl,--no-entry -o bot.wasm bot.c
 * (this header defines the memset, memcpy and memmove such a build needs; see below).
 *
 * A bot defines the three functions below (ARENA_EXPORT makes them wasm exports) and
 * may call arena_log, arena_fuel_left and arena_fuel_budget. Requests and responses are
 * JSON; the host writes each request into the buffer arena_alloc returned, then calls
 * arena_call. A bot that also defines arena_encoding may choose the binary encoding
 * instead (docs/abi.md, "Encodings"); the arena_read_* helpers below read its values. */
#ifndef ARENA_H
#define ARENA_H

#include <stddef.h>
#include <stdint.h>

#define ARENA_ABI_VERSION 1
#define ARENA_EXPORT(name) __attribute__((export_name(name)))

/* Write `len` bytes at `msg` to the arena's per-turn log (shown in replays). */
__attribute__((import_module("arena"), import_name("log")))
void arena_log(const char *msg, size_t len);

/* The fuel the current call has left, after paying 100 fuel for this read, and the fuel
 * it started with: the turn's budget in turn and end requests, the setup budget in start and setup
 * (docs/abi.md, "Imports"). A bot that thinks until 80 % of its turn is spent:
 *
 *     int64_t stop = arena_fuel_budget() / 5;
 *     while (arena_fuel_left() > stop && improve(&plan)) {}
 */
__attribute__((import_module("arena"), import_name("fuel_left")))
int64_t arena_fuel_left(void);
__attribute__((import_module("arena"), import_name("fuel_budget")))
int64_t arena_fuel_budget(void);

/* Pack a response for arena_call's return value. */
static inline uint64_t arena_response(const char *ptr, size_t len) {
    return ((uint64_t)(uintptr_t)ptr << 32) | (uint64_t)(uint32_t)len;
}

/* The request kinds, told apart by the request's first key. */
typedef enum { ARENA_START, ARENA_SETUP, ARENA_TURN, ARENA_END, ARENA_UNKNOWN } arena_kind;

static inline arena_kind arena_request_kind(const char *req, size_t len) {
    if (len < 5 || req[0] != '{' || req[1] != '"') return ARENA_UNKNOWN;
    if (req[2] == 's') return req[3] == 't' ? ARENA_START : ARENA_SETUP;
    if (req[2] == 't') return ARENA_TURN;
    if (req[2] == 'e') return ARENA_END;
    return ARENA_UNKNOWN;
}

/* The encodings, as bits of arena_encoding's argument and result. */
#define ARENA_ENCODING_JSON 1
#define ARENA_ENCODING_BINARY 2
/* A flag, not an encoding: offered, the host may write every request that fits into the
 * buffer arena_alloc last returned, without calling arena_alloc again; a bot whose buffer
 * stays put (a static array) adds it to its answer and saves a call per turn. */
#define ARENA_KEPT_BUFFER 0x10000

/* A cursor over a binary request; `bad` is set (and 0 returned) when a read runs past the
 * end or a varint is too long. */
typedef struct {
    const uint8_t *at, *end;
    int bad;
} arena_reader;

static inline uint8_t arena_read_byte(arena_reader *r) {
    if (r->at < r->end) return *r->at++;
    r->bad = 1;
    return 0;
}

/* u16/u32/u64 (and enum variant indexes, sequence lengths): unsigned LEB128. */
static inline uint64_t arena_read_varint(arena_reader *r) {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        uint8_t b = arena_read_byte(r);
        value |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return value;
    }
    r->bad = 1;
    return 0;
}

/* i16/i32/i64: zigzag, then a varint. */
static inline int64_t arena_read_signed(arena_reader *r) {
    uint64_t v = arena_read_varint(r);
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* A string or option<string>'s text: skipped (bots rarely need `last_rejected`). */
static inline void arena_skip_string(arena_reader *r) {
    uint64_t len = arena_read_varint(r);
    if (len > (uint64_t)(r->end - r->at)) r->bad = 1, r->at = r->end;
    else r->at += len;
}

/* memset, memcpy and memmove, which the compiler calls on its own (zero-initialising an
 * array, copying a struct) even under -nostdlib, where nothing else defines them. Only
 * without a libc: a WASI build (--target=wasm32-wasi, __wasi__) links wasi-libc's, and
 * ARENA_NO_MEM_FUNCTIONS leaves them out for a bot that brings its own. Weak, so a
 * definition elsewhere wins; `no_builtin` keeps the compiler from turning these very loops
 * back into calls to themselves. */
#if !defined(__wasi__) && !defined(ARENA_NO_MEM_FUNCTIONS)
__attribute__((weak, no_builtin("memset"))) void *memset(void *dst, int c, size_t n) {
    unsigned char *d = (unsigned char *)dst;
    while (n--) *d++ = (unsigned char)c;
    return dst;
}

__attribute__((weak, no_builtin("memcpy"))) void *memcpy(void *restrict dst,
                                                          const void *restrict src, size_t n) {
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    while (n--) *d++ = *s++;
    return dst;
}

__attribute__((weak, no_builtin("memmove"))) void *memmove(void *dst, const void *src, size_t n) {
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    if (d < s) {
        while (n--) *d++ = *s++;
    } else {
        while (n--) d[n] = s[n];
    }
    return dst;
}
#endif

/* To be defined by the bot (arena_encoding is optional). */
int32_t arena_abi_version(void);
int32_t arena_alloc(int32_t len);
uint64_t arena_call(int32_t ptr, int32_t len);
int32_t arena_encoding(int32_t offered);

#endif
