//! The global allocator of a Rust bot (wasm only, feature `allocator`, on by default):
//! dlmalloc, the allocator of Rust's own wasm standard library, whose first region is a
//! static arena inside the module's initial memory instead of memory grown at run time.
//!
//! Why: Rust's standard allocator grows a bot's memory (`memory.grow`) on its first
//! allocation in every match. The arena hands each match a fresh instance from a pool
//! slot whose memory it resets to the module's initial size, and taking grown pages away
//! is an `mprotect` that interrupts every other core running the arena (a TLB shootdown),
//! which slows every game played at once (docs/performance.md, "Scaling"). A bot whose heap fits in the arena never grows its memory, so its slot is
//! reused as it is. A bot that needs more grows as before, beyond the arena.
//!
//! The arena costs nothing until used: it is zero-initialized memory (no bytes in the
//! module), and pages a bot never touches are never given memory. A bot that wants its own
//! `#[global_allocator]` turns the feature off (`default-features = false`).

#![allow(unsafe_code)]

use core::alloc::{GlobalAlloc, Layout};
use core::cell::{Cell, UnsafeCell};
use dlmalloc::{Allocator, Dlmalloc};

/// Bytes of heap a bot gets before its memory grows. The sample bots use well under this
/// in a match; it adds as much to a module's initial memory.
pub const ARENA_BYTES: usize = 1 << 20;

const WASM_PAGE: usize = 64 * 1024;

#[repr(C, align(65536))]
struct Arena([u8; ARENA_BYTES]);

static mut ARENA: Arena = Arena([0; ARENA_BYTES]);

/// Where dlmalloc gets its memory from: the arena once, then `memory.grow`.
struct Source {
    arena_given: Cell<bool>,
}

// SAFETY: the trait's contract is that returned regions are valid, unused memory of the
// size reported. The arena is handed out at most once and nothing else refers to it; grown
// pages are fresh. wasm32-unknown-unknown without the `atomics` feature has one thread, so
// `Send` (required by the trait) cannot be misused.
unsafe impl Allocator for Source {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        if !self.arena_given.get() && size <= ARENA_BYTES {
            self.arena_given.set(true);
            return ((&raw mut ARENA).cast::<u8>(), ARENA_BYTES, 0);
        }
        let pages = size.div_ceil(WASM_PAGE);
        let previous = core::arch::wasm32::memory_grow(0, pages);
        if previous == usize::MAX {
            return (core::ptr::null_mut(), 0, 0);
        }
        let (base, size) = (previous * WASM_PAGE, pages * WASM_PAGE);
        // Memory grown up to the top of the 4 GiB address space (a bot with a 4096 MiB
        // limit): a region may not end at address 0 in Rust, so its last bytes are left out,
        // as dlmalloc's own wasm source does.
        if base.wrapping_add(size) == 0 {
            return (base as *mut u8, size - 16, 0);
        }
        (base as *mut u8, size, 0)
    }

    fn remap(&self, _: *mut u8, _: usize, _: usize, _: bool) -> *mut u8 {
        core::ptr::null_mut()
    }

    fn free_part(&self, _: *mut u8, _: usize, _: usize) -> bool {
        false
    }

    fn free(&self, _: *mut u8, _: usize) -> bool {
        false
    }

    fn can_release_part(&self, _: u32) -> bool {
        false
    }

    fn allocates_zeros(&self) -> bool {
        // The arena is zero until dlmalloc uses it, and grown pages are zero.
        true
    }

    fn page_size(&self) -> usize {
        WASM_PAGE
    }
}

/// The allocator `#[global_allocator]` installs in every bot built with the SDK.
pub struct BotAllocator(UnsafeCell<Dlmalloc<Source>>);

// SAFETY: one thread (see `Source`): no two calls can overlap.
unsafe impl Sync for BotAllocator {}

// SAFETY: every call forwards to dlmalloc with the layout it was given, as Rust's own wasm
// allocator does; only one call runs at a time (one thread).
unsafe impl GlobalAlloc for BotAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { (*self.0.get()).malloc(layout.size(), layout.align()) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        unsafe { (*self.0.get()).calloc(layout.size(), layout.align()) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { (*self.0.get()).free(ptr, layout.size(), layout.align()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        unsafe { (*self.0.get()).realloc(ptr, layout.size(), layout.align(), new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: BotAllocator =
    BotAllocator(UnsafeCell::new(Dlmalloc::new_with_allocator(Source {
        arena_given: Cell::new(false),
    })));
