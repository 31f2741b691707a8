/* A Bot Arena bot in C: plays `battle` (and refuses other modes at start). Fields Glass, Stealth and Nurse, uses a unit's
 * skill whenever it is ready, otherwise attacks the LAST legal target (the list is in
 * unit order, so this prefers the back of the enemy line).
 *
 *   clang --target=wasm32 -O2 -nostdlib -Wl,--no-entry -I ../../sdk/c -o bot.wasm bot.c
 *
 * (or `zig cc --target=wasm32-freestanding` with the same flags: `pip install ziglang`
 * brings a clang and wasm-ld as `python -m ziglang cc`). */
#include "arena.h"

static char input[64 * 1024];
static char output[256];

ARENA_EXPORT("arena_abi_version") int32_t arena_abi_version(void) { return ARENA_ABI_VERSION; }

ARENA_EXPORT("arena_alloc") int32_t arena_alloc(int32_t len) {
    return len <= (int32_t)sizeof input ? (int32_t)(uintptr_t)input : 0;
}

static size_t copy(char *dst, const char *src) {
    size_t n = 0;
    while (src[n]) { dst[n] = src[n]; n++; }
    return n;
}

/* Position just after `needle` in req[0..len), or -1. */
static long find(const char *req, size_t len, const char *needle) {
    size_t n = 0;
    while (needle[n]) n++;
    for (size_t i = 0; i + n <= len; i++) {
        size_t j = 0;
        while (j < n && req[i + j] == needle[j]) j++;
        if (j == n) return (long)(i + n);
    }
    return -1;
}

ARENA_EXPORT("arena_call") uint64_t arena_call(int32_t ptr, int32_t len32) {
    const char *req = (const char *)(uintptr_t)ptr;
    size_t len = (size_t)len32;
    switch (arena_request_kind(req, len)) {
    case ARENA_START: {
        if (find(req, len, "\"mode\":\"battle\"") < 0) {
            size_t n = copy(output, "{\"error\":\"c-bot plays battle only\"}");
            return arena_response(output, n);
        }
        static const char hello[] = "c-bot: ready";
        arena_log(hello, sizeof hello - 1);
        return arena_response(output, 0);
    }
    case ARENA_SETUP: {
        size_t n = copy(output, "{\"team\":[\"glass\",\"stealth\",\"nurse\"]}");
        return arena_response(output, n);
    }
    case ARENA_TURN: {
        if (find(req, len, "\"skill_ready\":true") >= 0) {
            size_t n = copy(output, "\"skill\"");
            return arena_response(output, n);
        }
        long at = find(req, len, "\"legal_targets\":[");
        if (at < 0 || req[at] == ']') {
            size_t n = copy(output, "\"skill\"");
            return arena_response(output, n);
        }
        /* Walk to the last number of the list. */
        long last = at;
        for (long i = at; i < (long)len && req[i] != ']'; i++)
            if (req[i] == ',') last = i + 1;
        size_t n = copy(output, "{\"attack\":{\"target\":");
        for (long i = last; i < (long)len && req[i] >= '0' && req[i] <= '9'; i++) output[n++] = req[i];
        output[n++] = '}';
        output[n++] = '}';
        return arena_response(output, n);
    }
    default:
        return arena_response(output, 0);
    }
}
