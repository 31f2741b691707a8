// A battle bot in C on wasi-libc (`clang --target=wasm32-wasi -mexec-model=reactor`), for the
// WASI subset's tests: it prints (stdout reaches the bot's log), seeds rand() from
// getentropy() (the match seed), reads the monotonic clock (the bot's fuel), and plays
// the first legal target with the libc's own JSON-free string search.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char request[65536];
static char response[256];

__attribute__((export_name("arena_abi_version"))) int abi_version(void) { return 1; }

__attribute__((export_name("arena_alloc"))) char *arena_alloc(int len) {
    return len > 0 && (size_t)len <= sizeof request ? request : NULL;
}

static long long answer(int len) {
    return ((long long)(unsigned long)response << 32) | (unsigned)len;
}

__attribute__((export_name("arena_call"))) long long arena_call(char *at, int len) {
    request[len < (int)sizeof request ? len : (int)sizeof request - 1] = 0;
    unsigned seed = 0;
    if (getentropy(&seed, sizeof seed) != 0) return answer(sprintf(response, "{\"error\":\"no entropy\"}"));
    srand(seed);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    printf("rand %d clock %lld\n", rand(), (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
    fflush(stdout);
    if (strncmp(at, "{\"start\"", 8) == 0) {
        return answer(strstr(at, "\"mode\":\"battle\"") ? 0 : sprintf(response, "{\"error\":\"plays battle only\"}"));
    }
    if (strncmp(at, "{\"setup\"", 8) == 0) {
        return answer(sprintf(response, "{\"team\":[\"aggro\",\"stealth\",\"nurse\"]}"));
    }
    if (strncmp(at, "{\"turn\"", 7) == 0) {
        const char *legal = strstr(at, "\"legal_targets\":[");
        int target = legal ? atoi(legal + 17) : 0;
        return answer(sprintf(response, "{\"attack\":{\"target\":%d}}", target));
    }
    return answer(0);
}
