/* A Bot Arena bot in C: plays `battle` (and refuses other modes at start). Fields Glass, Stealth and Nurse, uses a unit's
 * skill whenever it is ready, otherwise attacks the LAST legal target (the list is in
 * unit order, so this prefers the back of the enemy line).
 *
 * It speaks both encodings: the binary one when the host offers it (arena_encoding), read
 * with nothing but docs/abi.md's byte layouts, and JSON otherwise.
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

static int binary; /* whether this match speaks the binary encoding */

ARENA_EXPORT("arena_encoding") int32_t arena_encoding(int32_t offered) {
    binary = (offered & ARENA_ENCODING_BINARY) != 0;
    /* `input` is static: every request may go straight into it. */
    return (binary ? ARENA_ENCODING_BINARY : ARENA_ENCODING_JSON) | (offered & ARENA_KEPT_BUFFER);
}

/* The answer in the binary encoding: `00` then the value; `01` then a string: an error. */
static uint64_t binary_call(const uint8_t *req, size_t len) {
    arena_reader r = {req, req + len, 0};
    size_t n = 0;
    switch (arena_read_byte(&r)) {
    case 0: /* start: abi (u32), mode (enum: battle is 0) */
        arena_read_varint(&r);
        if (arena_read_varint(&r) != 0 || r.bad) {
            static const char refusal[] = "c-bot plays battle only";
            output[n++] = 1;
            output[n++] = sizeof refusal - 1;
            n += copy(output + n, refusal);
            return arena_response(output, n);
        }
        static const char hello[] = "c-bot: ready";
        arena_log(hello, sizeof hello - 1);
        return arena_response(output, 0);
    case 1: /* setup: answer TeamChoice = seq<BotType>: glass (2), stealth (1), nurse (6) */
        output[n++] = 0;
        output[n++] = 3;
        output[n++] = 2;
        output[n++] = 1;
        output[n++] = 6;
        return arena_response(output, n);
    case 2: { /* turn: read the Observation up to skill_ready */
        arena_read_varint(&r); /* turn */
        arena_read_varint(&r); /* turn_cap */
        arena_read_byte(&r);   /* seat */
        arena_read_byte(&r);   /* acting */
        uint64_t units = arena_read_varint(&r);
        for (uint64_t u = 0; u < units && !r.bad; u++) {
            arena_read_byte(&r);    /* id */
            arena_read_byte(&r);    /* owner */
            arena_read_varint(&r);  /* kind */
            for (int i = 0; i < 8 + 6; i++) arena_read_signed(&r); /* base Stats, integrity … turn_meter */
            arena_read_varint(&r);  /* cooldown */
            arena_read_byte(&r);    /* has_skill */
            uint64_t effects = arena_read_varint(&r);
            for (uint64_t e = 0; e < effects && !r.bad; e++) {
                arena_read_varint(&r); /* effect */
                arena_read_varint(&r); /* turns_left */
                arena_read_signed(&r); /* magnitude */
            }
            arena_read_byte(&r);    /* destroyed */
        }
        uint64_t targets = arena_read_varint(&r);
        uint8_t last = 0;
        for (uint64_t t = 0; t < targets && !r.bad; t++) last = arena_read_byte(&r);
        uint8_t skill_ready = arena_read_byte(&r);
        output[n++] = 0;
        if (r.bad || skill_ready || targets == 0) {
            output[n++] = 1; /* Action::Skill */
        } else {
            output[n++] = 0; /* Action::Attack { target } */
            output[n++] = last;
        }
        return arena_response(output, n);
    }
    default: /* end */
        return arena_response(output, 0);
    }
}

ARENA_EXPORT("arena_call") uint64_t arena_call(int32_t ptr, int32_t len32) {
    const char *req = (const char *)(uintptr_t)ptr;
    size_t len = (size_t)len32;
    if (binary) return binary_call((const uint8_t *)req, len);
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
