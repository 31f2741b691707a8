//! The request envelope every mode shares, and the [`Game`] trait that names a mode's types.
//!
//! On the wire (ABI v1) a request is one JSON object with exactly one key naming its kind:
//! `{"start": {...}}`, `{"setup": {...}}`, `{"turn": {...}}` or `{"end": {...}}`. The
//! response to `setup` is the mode's setup choice, to `turn` the mode's action; the
//! responses to `start` and `end` are ignored (an empty response is fine).
//!
//! A bot that exports `arena_encoding` may be spoken to in the compact [`Encoding::Binary`]
//! instead (postcard's wire format of these same types; docs/abi.md, "Binary encoding").

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// The ABI version this SDK speaks; sent in every `start` request.
pub const ABI_VERSION: u32 = 1;

/// How requests and responses travel over the ABI, chosen per bot and match: the host
/// offers the encodings it will speak as a bitmask to the bot's optional
/// `arena_encoding(offered) -> chosen` export, which returns one of them. A bot without
/// that export is spoken to in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Encoding {
    /// JSON text (UTF-8), every bot's default.
    #[default]
    Json,
    /// Binary version 1: postcard's wire format of the SDK types; a response is a
    /// `Result<T, String>` (first byte 0: the answer follows; 1: an error message).
    Binary,
}

impl Encoding {
    /// Every encoding, fastest last.
    pub const ALL: [Encoding; 2] = [Encoding::Json, Encoding::Binary];

    /// The encoding's bit in `arena_encoding`'s argument and result.
    pub const fn bit(self) -> i32 {
        match self {
            Encoding::Json => 1,
            Encoding::Binary => 2,
        }
    }

    /// The encoding whose bit is `bit`, if any (exactly one bit set).
    pub fn from_bit(bit: i32) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.bit() == bit)
    }

    /// The encoding's name on the command line and in messages.
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Json => "json",
            Encoding::Binary => "binary",
        }
    }
}

/// The flag of `arena_encoding`'s argument and result for a **kept request buffer**
/// (docs/abi.md, "Encodings"). Offered, the host may write each request into the buffer
/// the bot's last `arena_alloc` returned, as long as the request fits in the length asked
/// for then, without calling `arena_alloc` again; answered, the bot promises to leave that
/// buffer to the host until its next `arena_alloc`. A turn is then one call into the bot
/// instead of two.
pub const KEPT_BUFFER: i32 = 1 << 16;

/// The bits of `arena_encoding`'s argument and result that name encodings
/// ([`Encoding::bit`]); the bits above are flags such as [`KEPT_BUFFER`].
pub const ENCODING_BITS: i32 = 0xffff;

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A player's seat: 0 moves first where order matters; tournaments play every pairing
/// from both seats.
pub type Seat = u8;

/// The game modes of the arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Bot Wars: teams of three robots.
    Battle,
    /// Trading card game: heroes, mana and a 20-card deck.
    Tcg,
    /// JS Battle: teams of heroes on a board with mines and wells.
    Grid,
    /// RPG battle system: a hero party against seeded waves of monsters.
    Dungeon,
    /// Little Battle: resources, recruiting, rock-paper-scissors armies, home bases.
    Conquest,
}

impl Mode {
    /// Every mode, in a fixed order.
    pub const ALL: [Mode; 5] = [
        Mode::Battle,
        Mode::Tcg,
        Mode::Grid,
        Mode::Dungeon,
        Mode::Conquest,
    ];

    /// The mode's name as used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Battle => "battle",
            Mode::Tcg => "tcg",
            Mode::Grid => "grid",
            Mode::Dungeon => "dungeon",
            Mode::Conquest => "conquest",
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Mode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                format!("unknown mode `{s}`; modes are battle, tcg, grid, dungeon, conquest")
            })
    }
}

/// The types that make up one game mode's protocol.
pub trait Game: Sized + Copy + Debug + Default + PartialEq + Send + Sync + 'static {
    /// Which mode this is.
    const MODE: Mode;
    /// The mode's rules configuration (variations, caps, map …), sent at match start.
    type Rules: Serialize + DeserializeOwned + Clone + Debug + Default + PartialEq + Send + Sync;
    /// What a bot is asked before play.
    type SetupRequest: Serialize + DeserializeOwned + Clone + Debug + Send;
    /// A bot's answer to the setup request.
    type SetupChoice: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send;
    /// What a bot sees on its turn.
    type Observation: Serialize + DeserializeOwned + crate::wire::Decode + Clone + Debug + Send;
    /// A bot's answer on its turn.
    type Action: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send;
}

/// Sent once when a match begins.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct MatchStart<G: Game> {
    /// ABI version of the host.
    pub abi: u32,
    /// The mode being played.
    pub mode: Mode,
    /// This bot's seat (0 or 1).
    pub seat: Seat,
    /// A seed for the bot's own randomness (bots have no other source of randomness).
    pub seed: u64,
    /// The rules in force.
    pub rules: G::Rules,
}

/// How a match ended, from one bot's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchResult {
    /// This bot won.
    Win,
    /// Nobody won.
    Draw,
    /// This bot lost.
    Loss,
}

/// Sent once when a match is over.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MatchEnd {
    /// The result for the receiving bot.
    pub result: MatchResult,
    /// Why the match ended, in words (e.g. "team destroyed", "turn cap").
    pub reason: String,
}

/// A request from the host, as it travels over the ABI.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", bound = "")]
pub enum Request<G: Game> {
    /// The match begins.
    Start(MatchStart<G>),
    /// Choose a setup (team, deck …); answer with `G::SetupChoice`.
    Setup(G::SetupRequest),
    /// Act; answer with `G::Action`.
    Turn(G::Observation),
    /// The match is over.
    End(MatchEnd),
}

/// A borrowed request, for serializing without cloning the observation.
#[derive(Debug, Serialize)]
#[serde(rename_all = "snake_case", bound = "")]
pub enum RequestRef<'a, G: Game> {
    /// See [`Request::Start`].
    Start(&'a MatchStart<G>),
    /// See [`Request::Setup`].
    Setup(&'a G::SetupRequest),
    /// See [`Request::Turn`].
    Turn(&'a G::Observation),
    /// See [`Request::End`].
    End(&'a MatchEnd),
}

/// Append the binary encoding ([`Encoding::Binary`]) of `value` to `out`: postcard's wire
/// format, written by [`crate::binary`]'s writer. On an error (a sequence of unknown length,
/// a failing `Display`) what was written before it stays in `out`: truncate it to discard.
pub fn to_binary<T: Serialize + ?Sized>(
    value: &T,
    out: &mut Vec<u8>,
) -> Result<(), postcard::Error> {
    value.serialize(&mut crate::binary::Writer(out))
}
