//! # arena-sdk — write a Bot Arena bot in Rust
//!
//! A bot is a type that implements [`Bot<G>`] for one or more game modes `G`
//! ([`battle::Battle`], [`tcg::Tcg`], [`grid::Grid`], [`dungeon::Dungeon`],
//! [`conquest::Conquest`]). [`export_bot!`] turns it into a
//! WebAssembly module that speaks the arena's bot ABI (see `docs/abi.md`):
//!
//! ```
//! use arena_sdk::battle::{Action, Battle, Observation, SetupRequest, TeamChoice};
//! use arena_sdk::Bot;
//!
//! #[derive(Default)]
//! struct FirstTarget;
//!
//! impl Bot<Battle> for FirstTarget {
//!     fn setup(&mut self, request: &SetupRequest) -> TeamChoice {
//!         TeamChoice { team: request.roster.iter().take(3).copied().collect() }
//!     }
//!     fn act(&mut self, observation: &Observation) -> Action {
//!         Action::Attack { target: observation.legal_targets[0] }
//!     }
//! }
//!
//! // In the bot's crate (a `cdylib` built for wasm32-unknown-unknown):
//! // arena_sdk::export_bot!(battle: FirstTarget);
//! ```
//!
//! The same trait is what the arena's built-in AIs implement, so a built-in strategy and
//! the same strategy compiled to wasm see exactly the same requests.

/// `impl Serialize` for a struct whose `Option` fields marked `: optional` are left out of
/// self-describing formats (JSON) when `None` — so a bot built with an older SDK, whose
/// types deny unknown fields, never sees them unless they are set — but always written in
/// the binary encoding, whose reader expects every field in declaration order
/// (`#[serde(skip_serializing_if)]` would drop them there too). List every field, in order.
macro_rules! serialize_omitting_none_in_text {
    ($ty:ident { $($field:ident $(: $optional:tt)?),+ $(,)? }) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeStruct;
                let text = serializer.is_human_readable();
                let fields = [$(stringify!($field)),+].len();
                let mut out = serializer.serialize_struct(stringify!($ty), fields)?;
                $(serialize_omitting_none_in_text!(@field out, text, self, $field $(, $optional)?);)+
                out.end()
            }
        }
    };
    (@field $out:ident, $text:ident, $this:ident, $field:ident) => {
        $out.serialize_field(stringify!($field), &$this.$field)?;
    };
    (@field $out:ident, $text:ident, $this:ident, $field:ident, optional) => {
        if $text && $this.$field.is_none() {
            $out.skip_field(stringify!($field))?;
        } else {
            $out.serialize_field(stringify!($field), &$this.$field)?;
        }
    };
}

pub mod battle;
mod binary;
pub mod conquest;
pub mod dungeon;
pub mod grid;
mod pos;
pub mod protocol;
pub mod tcg;
pub mod wire;

#[doc(hidden)]
pub mod abi;

#[cfg(all(
    target_arch = "wasm32",
    not(target_feature = "atomics"),
    feature = "allocator"
))]
mod alloc;

pub use protocol::{
    ABI_VERSION, ENCODING_BITS, Encoding, Game, KEPT_BUFFER, MatchEnd, MatchResult, MatchStart,
    Mode, Request, Seat,
};

/// A bot for game mode `G`.
///
/// The arena creates one bot value per match (with `Default` when exported to wasm), calls
/// [`Bot::start`] once, [`Bot::setup`] once, [`Bot::act`] for each of its turns and finally
/// [`Bot::end`]. Everything a bot needs to decide well is in each request: a bot never
/// needs to remember earlier turns, though it may.
///
/// A panic in a wasm bot traps its instance: that turn is a `trap` fault (its log quotes
/// the panic) and the arena answers the bot's next request with a **fresh instance** — a
/// new `Default` bot, sent [`Bot::start`] again but not [`Bot::setup`] —, so what the bot
/// remembered in its fields or statics is gone and it goes on from the next observation
/// (docs/abi.md, Faults). Keep nothing there that a turn cannot do without.
pub trait Bot<G: Game> {
    /// The match begins: seat, the bot's own random seed and the rules in force.
    fn start(&mut self, _start: &MatchStart<G>) {}
    /// Choose what the mode lets a bot choose before play (team, deck, …).
    fn setup(&mut self, request: &G::SetupRequest) -> G::SetupChoice;
    /// Choose an action for the current turn.
    fn act(&mut self, observation: &G::Observation) -> G::Action;
    /// The match is over.
    fn end(&mut self, _end: &MatchEnd) {}
}

impl<G: Game, B: Bot<G> + ?Sized> Bot<G> for Box<B> {
    fn start(&mut self, start: &MatchStart<G>) {
        (**self).start(start)
    }
    fn setup(&mut self, request: &G::SetupRequest) -> G::SetupChoice {
        (**self).setup(request)
    }
    fn act(&mut self, observation: &G::Observation) -> G::Action {
        (**self).act(observation)
    }
    fn end(&mut self, end: &MatchEnd) {
        (**self).end(end)
    }
}

/// Write a line to the arena's per-turn bot log (shown in replays). Outside wasm it is a
/// no-op, so built-in AIs may call it freely.
pub fn log(message: &str) {
    abi::log(message);
}

/// The fuel the current call (a turn, or setup) has left, after paying 100 fuel for this
/// read (`arena::fuel_left`, docs/abi.md). Outside wasm it is 0.
///
/// A bot that thinks until it has spent 80 % of its turn:
///
/// ```
/// # fn improve(plan: &mut u32) -> bool { *plan += 1; *plan < 1000 }
/// # let mut plan = 0;
/// let stop = arena_sdk::fuel_budget() / 5;
/// while arena_sdk::fuel_left() > stop && improve(&mut plan) {}
/// ```
pub fn fuel_left() -> u64 {
    abi::fuel_left()
}

/// The fuel the current call started with: the turn's budget in `act` and `end`, the setup
/// budget in `start` and `setup` (`arena::fuel_budget`, 100 fuel a read). Outside wasm it is 0,
/// so a loop that thinks while fuel is left stops at once.
pub fn fuel_budget() -> u64 {
    abi::fuel_budget()
}
