//! # arena-tournament — bots, games across modes, tournaments, ratings and reports
//!
//! Everything above a single match and below the command line:
//! - [`bots`]: what a bot spec (`builtin:NAME`, a `.wasm`/`.wat` file, a bot crate) names,
//!   and turning it into a [`bots::Contestant`] (loaded and compiled once);
//! - [`game`]: play one game of any mode between two contestants, verify and render replays.

pub mod bots;
pub mod game;

pub use arena_engine::Outcome;
