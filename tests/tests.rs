//! Bot Arena's integration tests: one binary (ripgrep style) so everything links once.

mod check;
mod play;
mod sandbox;
mod tournament;
