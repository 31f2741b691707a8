//! A Bot Arena bot in Zig (ABI v1, docs/abi.md): plays `battle` and refuses every other
//! mode at start. Fields Glass, Stealth and Nurse; uses a unit's skill whenever it is
//! ready, otherwise attacks the last legal target.
//!
//! Build (Zig 0.13; `pip install ziglang==0.13.0` provides it as `python -m ziglang`):
//!
//!   zig build-exe bot.zig -target wasm32-freestanding -fno-entry -rdynamic -O ReleaseSmall
//!
//! `wasm32-freestanding` and `-fno-entry` keep WASI and a `_start` out of the module: the
//! bot imports only `arena.log` (the arena offers `arena.fuel_left` and `arena.fuel_budget`
//! too, and WASI preview 1: docs/abi.md; `tests/thinkers/zig` reads its budget).

extern "arena" fn log(ptr: [*]const u8, len: usize) void;

var input: [64 * 1024]u8 = undefined;
var output: [256]u8 = undefined;

export fn arena_abi_version() i32 {
    return 1;
}

export fn arena_alloc(len: i32) i32 {
    if (len < 0 or len > input.len) return 0;
    return @intCast(@intFromPtr(&input));
}

fn respond(text: []const u8) i64 {
    const ptr: u64 = @intFromPtr(text.ptr);
    return @bitCast((ptr << 32) | text.len);
}

/// The index just after `needle` in `haystack`, if it occurs.
fn after(haystack: []const u8, needle: []const u8) ?usize {
    if (haystack.len < needle.len) return null;
    var i: usize = 0;
    while (i + needle.len <= haystack.len) : (i += 1) {
        if (eql(haystack[i .. i + needle.len], needle)) return i + needle.len;
    }
    return null;
}

fn eql(a: []const u8, b: []const u8) bool {
    for (a, b) |x, y| if (x != y) return false;
    return true;
}

fn write(parts: []const []const u8) []const u8 {
    var n: usize = 0;
    for (parts) |part| {
        @memcpy(output[n .. n + part.len], part);
        n += part.len;
    }
    return output[0..n];
}

export fn arena_call(ptr: i32, len: i32) i64 {
    const base: [*]const u8 = @ptrFromInt(@as(usize, @intCast(ptr)));
    const req = base[0..@intCast(len)];
    // The request's kind is its first key: {"start" {"setup" {"turn" {"end".
    if (after(req, "{\"start\"") != null) {
        if (after(req, "\"mode\":\"battle\"") == null) {
            return respond("{\"error\":\"zig-bot plays battle only\"}");
        }
        const hello = "zig-bot: ready";
        log(hello, hello.len);
        return respond("");
    }
    if (after(req, "{\"setup\"") != null) {
        return respond("{\"team\":[\"glass\",\"stealth\",\"nurse\"]}");
    }
    if (after(req, "{\"turn\"") == null) return respond("");
    if (after(req, "\"skill_ready\":true") != null) return respond("\"skill\"");
    const start = after(req, "\"legal_targets\":[") orelse return respond("\"skill\"");
    if (start >= req.len or req[start] == ']') return respond("\"skill\"");
    // The last number of the list.
    var last = start;
    var i = start;
    while (i < req.len and req[i] != ']') : (i += 1) {
        if (req[i] == ',') last = i + 1;
    }
    var end = last;
    while (end < req.len and req[end] >= '0' and req[end] <= '9') end += 1;
    return respond(write(&.{ "{\"attack\":{\"target\":", req[last..end], "}}" }));
}
