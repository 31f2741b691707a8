//! # arena-tournament — bots, games across modes, tournaments, ratings and reports
//!
//! Everything above a single match and below the command line:
//! - [`check`]: what `arena check` verifies (start per mode, a trial game), as a library;
//! - [`bots`]: what a bot spec (`builtin:NAME`, a `.wasm`/`.wat` file, a bot crate) names,
//!   and turning it into a [`bots::Contestant`] (loaded and compiled once);
//! - [`modes`]: the mode registry ([`for_mode!`], the built-ins of a mode);
//! - [`game`]: play one game of any mode between two contestants, verify and render replays;
//!   [`modes`]: which modes a wasm bot accepts;
//! - [`config`]: tournament files; [`plan`]: the numbered games (pure); [`run`]: parallel,
//!   resumable, shardable runs; [`results`]: the append-only results log and merging;
//! - [`ratings`]: Bradley–Terry Elo with error bars; [`report`]: standings and statistics;
//! - [`signing`]: Ed25519 replay signatures (a server signs what it stores).
//!
//! ```no_run
//! use arena_tournament::{config::Tournament, plan::plan};
//! let tournament = Tournament::load("tournaments/demo.toml".as_ref())?;
//! let plan = plan(&tournament);
//! println!("{} games", plan.games.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bot_error;
pub mod bots;
mod build_cache;
pub mod check;
pub mod config;
pub mod game;
pub mod golang;
pub mod index;
pub mod javascript;
pub mod modes;
pub mod plan;
pub mod playable;
pub mod python;
pub mod ratings;
pub mod report;
pub mod results;
pub mod run;
pub mod signing;
pub mod sprt;

pub use arena_engine::Outcome;
