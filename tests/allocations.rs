//! The host's turn path allocates nothing (a requirement of the binary-encoding work): after warm-up, a wasm bot's turn —
//! encode the observation into the reused request buffer, write it into the bot's memory,
//! call, decode the answer in place, collect the call's report — makes no heap allocation,
//! in the binary encoding and in JSON. Counted by a global allocator that counts the
//! allocations of the measuring thread only, over every turn of a real recorded game.
//!
//! Its own test binary, since a `#[global_allocator]` is one per program.

use arena_engine::Player;
use arena_sandbox::{EncodingPolicy, Limits, Sandbox};
use arena_sdk::Game;
use arena_tests::{Transcript, bots, transcript};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn note() {
    // `try_with`: the allocator also runs while thread-locals are torn down.
    let _ = COUNTING.try_with(|counting| {
        if counting.get() {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        }
    });
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only
// const-initialized thread-locals, which never allocate.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Heap allocations `f` makes on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    ALLOCATIONS.with(|n| n.set(0));
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    ALLOCATIONS.with(Cell::get)
}

/// Allocations per turn of `bot` replaying `recording`, after one warm-up pass.
fn per_turn<G: Game>(bot: &str, recording: &Transcript<G>, encoding: EncodingPolicy) -> f64 {
    let limits = Limits {
        encoding,
        ..Limits::default()
    };
    let sandbox = Sandbox::new(limits, None).unwrap();
    let loaded = sandbox.load(bot.as_ref()).unwrap();
    let mut player = loaded.player(&sandbox);
    Player::<G>::start(&mut player, &recording.start).unwrap();
    Player::<G>::setup(&mut player, &recording.setup).unwrap();
    let turn = |player: &mut arena_sandbox::WasmBot, observation: &G::Observation| {
        // A rejected or faulted answer would allocate its message: these bots answer.
        Player::<G>::act(player, observation).expect("the sample bot answers");
        let report = Player::<G>::last_call(player);
        assert!(report.fuel > 0);
    };
    for (observation, _) in &recording.turns {
        turn(&mut player, observation);
    }
    let n = allocations(|| {
        for (observation, _) in &recording.turns {
            turn(&mut player, observation);
        }
    });
    n as f64 / recording.turns.len() as f64
}

#[test]
fn a_wasm_turn_allocates_nothing_on_the_host() {
    use arena_sdk::{battle::Battle, grid::Grid, tcg::Tcg};
    let battle = transcript::<Battle>("strong", "heuristic", 5);
    let grid = transcript::<Grid>("commander", "random-walker", 5);
    let tcg = transcript::<Tcg>("planner", "random", 5);
    for encoding in [EncodingPolicy::Fastest, EncodingPolicy::Json] {
        let counts = [
            (
                "battle-strong",
                per_turn(bots::BATTLE_STRONG, &battle, encoding),
            ),
            (
                "grid-commander",
                per_turn(bots::GRID_COMMANDER, &grid, encoding),
            ),
            ("tcg-planner", per_turn(bots::TCG_PLANNER, &tcg, encoding)),
        ];
        for (bot, count) in counts {
            assert_eq!(count, 0.0, "{bot} ({encoding:?}): allocations per turn");
        }
    }
}
