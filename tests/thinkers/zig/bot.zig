//! thinker in Zig: every language's thinker (tests/thinkers/) plays battle the same way. It
//! fields Glass, Stealth and Nurse; on each turn it reads its budget, thinks (reads what is
//! left) until no more than a fifth of the budget is left, logs
//! "thinker: budget B, stopped at L left", then uses the skill when it is ready, else
//! attacks the last legal target. Built like sample-bots/zig-bot (tests/build.rs).

extern "arena" fn log(ptr: [*]const u8, len: usize) void;
/// The fuel the current call has left, after paying 100 for this read (docs/abi.md).
extern "arena" fn fuel_left() i64;
/// The fuel the current call started with.
extern "arena" fn fuel_budget() i64;

const std = @import("std");

var input: [64 * 1024]u8 = undefined;
var output: [256]u8 = undefined;
var line: [128]u8 = undefined;

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

fn after(haystack: []const u8, needle: []const u8) ?usize {
    const at = std.mem.indexOf(u8, haystack, needle) orelse return null;
    return at + needle.len;
}

fn logLine(text: []const u8) void {
    log(text.ptr, text.len);
}

export fn arena_call(ptr: i32, len: i32) i64 {
    const base: [*]const u8 = @ptrFromInt(@as(usize, @intCast(ptr)));
    const req = base[0..@intCast(len)];
    if (std.mem.startsWith(u8, req, "{\"start\"")) {
        if (after(req, "\"mode\":\"battle\"") == null) {
            return respond("{\"error\":\"thinker plays battle only\"}");
        }
        return respond("");
    }
    if (std.mem.startsWith(u8, req, "{\"setup\"")) {
        logLine(std.fmt.bufPrint(&line, "thinker: setup budget {d}", .{fuel_budget()}) catch "");
        return respond("{\"team\":[\"glass\",\"stealth\",\"nurse\"]}");
    }
    if (!std.mem.startsWith(u8, req, "{\"turn\"")) return respond("");
    const budget = fuel_budget();
    const stop = @divTrunc(budget, 5);
    var left = fuel_left();
    while (left > stop) left = fuel_left();
    logLine(std.fmt.bufPrint(&line, "thinker: budget {d}, stopped at {d} left", .{ budget, left }) catch "");
    if (after(req, "\"skill_ready\":true") != null) return respond("\"skill\"");
    const start = after(req, "\"legal_targets\":[") orelse return respond("\"skill\"");
    if (start >= req.len or req[start] == ']') return respond("\"skill\"");
    var last = start;
    var i = start;
    while (i < req.len and req[i] != ']') : (i += 1) {
        if (req[i] == ',') last = i + 1;
    }
    var end = last;
    while (end < req.len and req[end] >= '0' and req[end] <= '9') end += 1;
    const text = std.fmt.bufPrint(&output, "{{\"attack\":{{\"target\":{s}}}}}", .{req[last..end]}) catch return respond("\"skill\"");
    return respond(text);
}
