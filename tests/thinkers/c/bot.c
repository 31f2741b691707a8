/* thinker in C: every language's thinker (tests/thinkers/) plays battle the same way. It
 * fields Glass, Stealth and Nurse; on each turn it reads its budget, thinks (reads what is
 * left) until no more than a fifth of the budget is left, logs
 * "thinker: budget B, stopped at L left", then uses the skill when it is ready, else
 * attacks the last legal target. Built like sample-bots/c-bot (tests/build.rs). */
#include "arena.h"

static char input[64 * 1024];
static char output[256];
static size_t out_len;

ARENA_EXPORT("arena_abi_version") int32_t arena_abi_version(void) { return ARENA_ABI_VERSION; }

ARENA_EXPORT("arena_alloc") int32_t arena_alloc(int32_t len) {
    return len >= 0 && (size_t)len <= sizeof input ? (int32_t)(uintptr_t)input : 0;
}

/* The index just after `needle` in `req`, or -1. */
static long after(const char *req, size_t len, const char *needle) {
    size_t n = 0;
    while (needle[n]) n++;
    for (size_t i = 0; i + n <= len; i++) {
        size_t j = 0;
        while (j < n && req[i + j] == needle[j]) j++;
        if (j == n) return (long)(i + n);
    }
    return -1;
}

static void emit(const char *text) {
    while (*text && out_len < sizeof output) output[out_len++] = *text++;
}

static void emit_number(uint64_t n) {
    char digits[20];
    int k = 0;
    do digits[k++] = (char)('0' + n % 10), n /= 10; while (n);
    while (k && out_len < sizeof output) output[out_len++] = digits[--k];
}

static uint64_t reply(const char *text) {
    out_len = 0;
    emit(text);
    return arena_response(output, out_len);
}

ARENA_EXPORT("arena_call") uint64_t arena_call(int32_t ptr, int32_t len) {
    const char *req = (const char *)(uintptr_t)ptr;
    size_t n = (size_t)len;
    switch (arena_request_kind(req, n)) {
    case ARENA_START:
        return after(req, n, "\"mode\":\"battle\"") < 0 ? reply("{\"error\":\"thinker plays battle only\"}")
                                                         : reply("");
    case ARENA_SETUP:
        out_len = 0;
        emit("thinker: setup budget ");
        emit_number((uint64_t)arena_fuel_budget());
        arena_log(output, out_len);
        return reply("{\"team\":[\"glass\",\"stealth\",\"nurse\"]}");
    case ARENA_TURN: break;
    default: return reply("");
    }
    int64_t budget = arena_fuel_budget();
    int64_t stop = budget / 5;
    int64_t left = arena_fuel_left();
    while (left > stop) left = arena_fuel_left();
    out_len = 0;
    emit("thinker: budget ");
    emit_number((uint64_t)budget);
    emit(", stopped at ");
    emit_number((uint64_t)left);
    emit(" left");
    arena_log(output, out_len);
    if (after(req, n, "\"skill_ready\":true") >= 0) return reply("\"skill\"");
    long start = after(req, n, "\"legal_targets\":[");
    if (start < 0 || req[start] == ']') return reply("\"skill\"");
    long last = start;
    for (long i = start; i < (long)n && req[i] != ']'; i++)
        if (req[i] == ',') last = i + 1;
    out_len = 0;
    emit("{\"attack\":{\"target\":");
    for (long i = last; i < (long)n && req[i] >= '0' && req[i] <= '9'; i++)
        if (out_len < sizeof output) output[out_len++] = req[i];
    emit("}}");
    return arena_response(output, out_len);
}
