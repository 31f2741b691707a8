/* A Bot Arena bot in C: plays `battle` (and refuses other modes at start). Fields Glass, Stealth and Nurse, uses a unit's
 * skill whenever it is ready, otherwise attacks the LAST legal target (the list is in
 * unit order, so this prefers the back of the enemy line).
 *
 * It speaks both encodings: the binary one when the host offers it (arena_encoding), read
 * with nothing but docs/abi.md's byte layouts, and JSON otherwise. Each encoding only
 * reads a request into a `turn_view` and writes the answer: the strategy (`team`,
 * `decide`) is written once, so a change to it plays the same in both. `turn_view turn =
 * {0}` zero-initialises; under -nostdlib, arena.h provides the memset that takes.
 *
 *   clang --target=wasm32 -O2 -nostdlib -Wl,--no-entry -I ../../sdk/c -o bot.wasm bot.c
 *
 * (or `zig cc --target=wasm32-freestanding` with the same flags: `pip install ziglang==0.13.0`
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

/* ---- The strategy: written once, whatever the encoding. Change the bot here. ---- */

/* The team: each robot type's JSON name and its index in the binary encoding
 * (docs/abi.md, battle's BotType). */
static const struct { const char *name; uint8_t index; } team[] = {
    {"glass", 2}, {"stealth", 1}, {"nurse", 6},
};
#define TEAM_SIZE (sizeof team / sizeof team[0])

/* What the bot reads of a turn request, from either encoding. */
typedef struct {
    int skill_ready;
    size_t targets; /* how many legal targets there are */
    uint8_t first;  /* the first of them (the list is in unit order) */
    uint8_t last;   /* the last of them */
} turn_view;

/* The answer to a turn: use the skill, or attack `target`. */
typedef struct {
    int skill;
    uint8_t target;
} decision;

static decision decide(const turn_view *turn) {
    decision d = {0};
    if (turn->skill_ready || turn->targets == 0) {
        d.skill = 1;
    } else {
        d.target = turn->last;
    }
    return d;
}

/* ---- The binary encoding: read a turn_view, write the answers. ---- */

/* A turn request's Observation, read up to skill_ready (`bad` set if it is malformed). */
static turn_view binary_turn(arena_reader *r) {
    turn_view turn = {0};
    arena_read_varint(r); /* turn */
    arena_read_varint(r); /* turn_cap */
    arena_read_byte(r);   /* seat */
    arena_read_byte(r);   /* acting */
    uint64_t units = arena_read_varint(r);
    for (uint64_t u = 0; u < units && !r->bad; u++) {
        arena_read_byte(r);    /* id */
        arena_read_byte(r);    /* owner */
        arena_read_varint(r);  /* kind */
        for (int i = 0; i < 8 + 6; i++) arena_read_signed(r); /* base Stats, integrity … turn_meter */
        arena_read_varint(r);  /* cooldown */
        arena_read_byte(r);    /* has_skill */
        uint64_t effects = arena_read_varint(r);
        for (uint64_t e = 0; e < effects && !r->bad; e++) {
            arena_read_varint(r); /* effect */
            arena_read_varint(r); /* turns_left */
            arena_read_signed(r); /* magnitude */
        }
        arena_read_byte(r);    /* destroyed */
    }
    uint64_t targets = arena_read_varint(r);
    for (uint64_t t = 0; t < targets && !r->bad; t++) {
        turn.last = arena_read_byte(r);
        if (t == 0) turn.first = turn.last;
    }
    turn.targets = (size_t)targets;
    turn.skill_ready = arena_read_byte(r);
    return turn;
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
    case 1: /* setup: answer TeamChoice = seq<BotType> */
        output[n++] = 0;
        output[n++] = TEAM_SIZE;
        for (size_t i = 0; i < TEAM_SIZE; i++) output[n++] = (char)team[i].index;
        return arena_response(output, n);
    case 2: { /* turn */
        turn_view turn = binary_turn(&r);
        /* A request this bot cannot read: the skill (the arena's default if not ready). */
        if (r.bad) turn.skill_ready = 1;
        decision d = decide(&turn);
        output[n++] = 0;
        if (d.skill) {
            output[n++] = 1; /* Action::Skill */
        } else {
            output[n++] = 0; /* Action::Attack { target } */
            output[n++] = (char)d.target;
        }
        return arena_response(output, n);
    }
    default: /* end */
        return arena_response(output, 0);
    }
}

/* ---- The JSON encoding: read a turn_view, write the answers. ---- */

/* One more legal target, read from the JSON list. */
static void json_target(turn_view *turn, unsigned value) {
    turn->last = (uint8_t)value;
    if (turn->targets++ == 0) turn->first = turn->last;
}

static turn_view json_turn(const char *req, size_t len) {
    turn_view turn = {0};
    turn.skill_ready = find(req, len, "\"skill_ready\":true") >= 0;
    long at = find(req, len, "\"legal_targets\":[");
    if (at < 0) return turn;
    unsigned value = 0;
    int digits = 0;
    for (long i = at; i < (long)len && req[i] != ']'; i++) {
        if (req[i] >= '0' && req[i] <= '9') {
            value = value * 10 + (unsigned)(req[i] - '0');
            digits = 1;
        } else if (req[i] == ',' && digits) {
            json_target(&turn, value);
            value = 0, digits = 0;
        }
    }
    if (digits) json_target(&turn, value);
    return turn;
}

static size_t write_number(char *dst, unsigned value) {
    char digits[10];
    size_t count = 0, n = 0;
    do digits[count++] = (char)('0' + value % 10); while ((value /= 10) != 0);
    while (count) dst[n++] = digits[--count];
    return n;
}

ARENA_EXPORT("arena_call") uint64_t arena_call(int32_t ptr, int32_t len32) {
    const char *req = (const char *)(uintptr_t)ptr;
    size_t len = (size_t)len32;
    if (binary) return binary_call((const uint8_t *)req, len);
    size_t n = 0;
    switch (arena_request_kind(req, len)) {
    case ARENA_START: {
        if (find(req, len, "\"mode\":\"battle\"") < 0) {
            n = copy(output, "{\"error\":\"c-bot plays battle only\"}");
            return arena_response(output, n);
        }
        static const char hello[] = "c-bot: ready";
        arena_log(hello, sizeof hello - 1);
        return arena_response(output, 0);
    }
    case ARENA_SETUP:
        n = copy(output, "{\"team\":[");
        for (size_t i = 0; i < TEAM_SIZE; i++) {
            if (i > 0) output[n++] = ',';
            output[n++] = '"';
            n += copy(output + n, team[i].name);
            output[n++] = '"';
        }
        n += copy(output + n, "]}");
        return arena_response(output, n);
    case ARENA_TURN: {
        turn_view turn = json_turn(req, len);
        decision d = decide(&turn);
        if (d.skill) {
            n = copy(output, "\"skill\"");
        } else {
            n = copy(output, "{\"attack\":{\"target\":");
            n += write_number(output + n, d.target);
            n += copy(output + n, "}}");
        }
        return arena_response(output, n);
    }
    default:
        return arena_response(output, 0);
    }
}
