/* Bot Arena bot ABI v1 for C (see docs/abi.md).
 *
 * Build a bot with:
 *   clang --target=wasm32 -O2 -nostdlib -Wl,--no-entry -o bot.wasm bot.c
 *
 * A bot defines the three functions below (ARENA_EXPORT makes them wasm exports) and
 * may call arena_log. Requests and responses are JSON; the host writes each request into
 * the buffer arena_alloc returned, then calls arena_call. */
#ifndef ARENA_H
#define ARENA_H

#include <stddef.h>
#include <stdint.h>

#define ARENA_ABI_VERSION 1
#define ARENA_EXPORT(name) __attribute__((export_name(name)))

/* Write `len` bytes at `msg` to the arena's per-turn log (shown in replays). */
__attribute__((import_module("arena"), import_name("log")))
void arena_log(const char *msg, size_t len);

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

/* To be defined by the bot. */
int32_t arena_abi_version(void);
int32_t arena_alloc(int32_t len);
uint64_t arena_call(int32_t ptr, int32_t len);

#endif
