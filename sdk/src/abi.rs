//! The glue between the bot ABI (docs/abi.md) and the [`Bot`](crate::Bot) trait, used by
//! [`export_bot!`](crate::export_bot). Bot authors never call this directly.
#![allow(unsafe_code)]

use crate::Bot;
use crate::protocol::{Encoding, Game, KEPT_BUFFER, Mode, Request, to_binary};
use crate::wire;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// One match's bot, whatever its mode.
pub trait Session {
    /// Handle one request in `encoding` and write the response, in the same encoding, into
    /// `out`.
    fn handle(&mut self, input: &[u8], encoding: Encoding, out: &mut Vec<u8>)
    -> Result<(), String>;
}

/// A [`Session`] that decodes the requests of mode `G` for bot `B`.
#[derive(Debug)]
pub struct TypedSession<G: Game, B> {
    bot: B,
    /// The last turn's observation: in the binary encoding the next one is decoded into
    /// it, reusing its vectors and strings (a fresh decode spent a third of its fuel in
    /// the allocator, and as much again dropping it).
    observation: Option<G::Observation>,
}

impl<G: Game, B: Default> Default for TypedSession<G, B> {
    fn default() -> Self {
        TypedSession {
            bot: B::default(),
            observation: None,
        }
    }
}

/// The binary encoding's first byte of a turn request: `Request::Turn`'s variant index.
const TURN_TAG: u8 = 2;

impl<G: Game, B: Bot<G>> TypedSession<G, B> {
    /// The answer to `request` (`None` for start and end, whose answers are empty).
    fn answer<T>(
        &mut self,
        request: Request<G>,
        write: impl FnOnce(&AnswerOf<G>) -> T,
    ) -> Option<T> {
        match request {
            Request::Start(start) => {
                self.bot.start(&start);
                None
            }
            Request::Setup(setup) => Some(write(&AnswerOf::Setup(self.bot.setup(&setup)))),
            Request::Turn(observation) => Some(write(&AnswerOf::Turn(self.bot.act(&observation)))),
            Request::End(end) => {
                self.bot.end(&end);
                None
            }
        }
    }
}

/// A setup choice or an action, serialized as itself.
#[derive(Serialize)]
#[serde(untagged, bound = "")]
enum AnswerOf<G: Game> {
    Setup(G::SetupChoice),
    Turn(G::Action),
}

impl<G: Game, B: Bot<G>> Session for TypedSession<G, B> {
    fn handle(
        &mut self,
        input: &[u8],
        encoding: Encoding,
        out: &mut Vec<u8>,
    ) -> Result<(), String> {
        match encoding {
            Encoding::Json => {
                let request: Request<G> =
                    serde_json::from_slice(input).map_err(|e| format!("bad request: {e}"))?;
                match self.answer(request, |answer| serde_json::to_writer(&mut *out, answer)) {
                    None => {
                        out.extend_from_slice(b"{}");
                        Ok(())
                    }
                    Some(written) => written.map_err(|e| format!("cannot encode response: {e}")),
                }
            }
            Encoding::Binary => {
                let encoded = |e: postcard::Error| format!("cannot encode response: {e}");
                if let Some((&TURN_TAG, body)) = input.split_first() {
                    // The hand-written reader (`wire`): postcard's serde path took 1.4×
                    // its fuel (docs/performance.md, "The SDK's hand-written decoder").
                    let observation = match &mut self.observation {
                        Some(observation) => {
                            if let Err(e) = wire::decode_in_place(observation, body) {
                                // Half overwritten: the next turn decodes afresh.
                                self.observation = None;
                                return Err(format!("bad request: {e}"));
                            }
                            observation
                        }
                        None => self
                            .observation
                            .insert(wire::decode(body).map_err(|e| format!("bad request: {e}"))?),
                    };
                    // `Ok(answer)`: the tag 0, then the answer.
                    out.push(0);
                    let action = self.bot.act(observation);
                    return to_binary(&AnswerOf::<G>::Turn(action), out).map_err(encoded);
                }
                let request: Request<G> =
                    postcard::from_bytes(input).map_err(|e| format!("bad request: {e}"))?;
                out.push(0);
                // Start and end answer nothing after the tag.
                self.answer(request, |answer| to_binary(answer, out))
                    .unwrap_or(Ok(()))
                    .map_err(encoded)
            }
        }
    }
}

/// The start of a `start` request, enough to pick the session's mode. `abi` is there for
/// the binary encoding, which has no field names: `mode` follows it.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum StartPeek {
    Start {
        #[serde(default)]
        #[allow(dead_code)]
        abi: u32,
        mode: Mode,
    },
}

impl StartPeek {
    /// Whether `input` can be a start request, without parsing it: a turn request then
    /// skips the trial parse (in JSON its failure formats an error message, every turn).
    fn may_be(input: &[u8], encoding: Encoding) -> bool {
        match encoding {
            // The variant index of `start` is 0.
            Encoding::Binary => input.first() == Some(&0),
            Encoding::Json => {
                let text = input.trim_ascii_start();
                let key = text.strip_prefix(b"{").map(<[u8]>::trim_ascii_start);
                key.is_none_or(|key| key.starts_with(b"\"start\"") || key.starts_with(b"\"\\"))
            }
        }
    }

    fn read(input: &[u8], encoding: Encoding) -> Option<Mode> {
        let peek = match encoding {
            Encoding::Json => serde_json::from_slice::<StartPeek>(input).ok(),
            Encoding::Binary => postcard::from_bytes::<StartPeek>(input).ok(),
        };
        peek.map(|StartPeek::Start { mode, .. }| mode)
    }
}

struct State {
    input: Vec<u8>,
    output: Vec<u8>,
    encoding: Encoding,
    session: Option<Box<dyn Session>>,
}

thread_local! {
    static STATE: RefCell<State> = const {
        RefCell::new(State {
            input: Vec::new(),
            output: Vec::new(),
            encoding: Encoding::Json,
            session: None,
        })
    };
}

/// `arena_encoding`: pick the fastest encoding the host offers (a bitmask of
/// [`Encoding::bit`]s); every later request and response of the match uses it. Takes the
/// [`KEPT_BUFFER`] flag when offered: [`alloc`]'s buffer stays where it is until the next
/// `arena_alloc`, which is all the flag promises.
pub fn choose_encoding(offered: i32) -> i32 {
    let chosen = Encoding::ALL
        .into_iter()
        .rev()
        .find(|e| offered & e.bit() != 0)
        .unwrap_or(Encoding::Json);
    STATE.with_borrow_mut(|state| state.encoding = chosen);
    chosen.bit() | (offered & KEPT_BUFFER)
}

/// `arena_alloc`: hand the host a buffer of `len` bytes for the next request (and, under
/// [`KEPT_BUFFER`], for every later one that fits, until the next `arena_alloc`: the
/// buffer moves only here).
pub fn alloc(len: i32) -> i32 {
    let Ok(len) = usize::try_from(len) else {
        return 0;
    };
    STATE.with_borrow_mut(|state| {
        // Zeroed only when it grows: the host overwrites the first `len` bytes before
        // `arena_call`, so clearing the whole buffer on every request is wasted fuel.
        if state.input.len() < len {
            state.input.resize(len, 0);
        }
        state.input.as_mut_ptr() as usize as i32
    })
}

/// `arena_call`: handle the request in the input buffer; returns `ptr << 32 | len` of the
/// response.
pub fn call(len: i32, new_session: fn(Mode) -> Option<Box<dyn Session>>) -> i64 {
    STATE.with_borrow_mut(|state| {
        let State {
            input,
            output,
            encoding,
            session,
        } = state;
        let encoding = *encoding;
        output.clear();
        let len = usize::try_from(len).unwrap_or(0).min(input.len());
        let input = &input[..len];
        if StartPeek::may_be(input, encoding)
            && let Some(mode) = StartPeek::read(input, encoding)
        {
            install_panic_hook();
            *session = new_session(mode);
            if session.is_none() {
                write_error(
                    output,
                    encoding,
                    &format!("this bot does not play mode `{mode}`"),
                );
            }
        }
        match session {
            Some(session) => {
                if let Err(message) = session.handle(input, encoding, output) {
                    output.clear();
                    write_error(output, encoding, &message);
                }
            }
            None if output.is_empty() => {
                write_error(output, encoding, "the first request must be `start`")
            }
            None => {}
        }
        ((output.as_ptr() as usize as i64) << 32) | output.len() as i64
    })
}

fn write_error(out: &mut Vec<u8>, encoding: Encoding, message: &str) {
    match encoding {
        Encoding::Json => {
            let body = serde_json::json!({ "error": message });
            serde_json::to_writer(out, &body).expect("serializing a json value cannot fail");
        }
        Encoding::Binary => {
            // `Err(message)`: the tag 1, then the message as a string.
            out.push(1);
            to_binary(message, out).expect("writing to a Vec cannot fail");
        }
    }
}

fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| log(&format!("panic: {info}"))));
}

#[cfg(target_arch = "wasm32")]
mod host {
    #[link(wasm_import_module = "arena")]
    unsafe extern "C" {
        pub fn log(ptr: *const u8, len: usize);
        pub fn fuel_left() -> i64;
        pub fn fuel_budget() -> i64;
    }
}

/// The fuel the current call has left (`arena::fuel_left`, 100 fuel a read); 0 outside wasm.
pub fn fuel_left() -> u64 {
    #[cfg(target_arch = "wasm32")]
    // SAFETY: a host function without arguments.
    return unsafe { host::fuel_left() } as u64;
    #[cfg(not(target_arch = "wasm32"))]
    0
}

/// The fuel the current call started with (`arena::fuel_budget`, 100 fuel a read); 0
/// outside wasm.
pub fn fuel_budget() -> u64 {
    #[cfg(target_arch = "wasm32")]
    // SAFETY: a host function without arguments.
    return unsafe { host::fuel_budget() } as u64;
    #[cfg(not(target_arch = "wasm32"))]
    0
}

/// Send a line to the host's per-turn log.
pub fn log(message: &str) {
    #[cfg(target_arch = "wasm32")]
    // SAFETY: the host reads `len` bytes at `ptr` from this module's memory, which
    // `message` keeps alive for the duration of the call.
    unsafe {
        host::log(message.as_ptr(), message.len())
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = message;
}

/// Export a bot type as a wasm module speaking ABI v1, in the binary encoding when the host
/// offers it (JSON otherwise).
///
/// `export_bot!(battle: MyBot)` or, for a bot that plays several modes,
/// `export_bot!(battle: MyBattleBot, grid: MyGridBot)`. Each type implements
/// `Bot<Mode>` and `Default`.
#[macro_export]
macro_rules! export_bot {
    ($($mode:ident : $bot:ty),+ $(,)?) => {
        #[allow(unsafe_code)]
        #[unsafe(no_mangle)]
        pub extern "C" fn arena_abi_version() -> i32 {
            $crate::ABI_VERSION as i32
        }

        #[allow(unsafe_code)]
        #[unsafe(no_mangle)]
        pub extern "C" fn arena_encoding(offered: i32) -> i32 {
            $crate::abi::choose_encoding(offered)
        }

        #[allow(unsafe_code)]
        #[unsafe(no_mangle)]
        pub extern "C" fn arena_alloc(len: i32) -> i32 {
            $crate::abi::alloc(len)
        }

        #[allow(unsafe_code)]
        #[unsafe(no_mangle)]
        pub extern "C" fn arena_call(_ptr: i32, len: i32) -> i64 {
            fn new_session(mode: $crate::Mode) -> Option<Box<dyn $crate::abi::Session>> {
                $(
                    if mode == <$crate::export_bot!(@game $mode) as $crate::Game>::MODE {
                        return Some(Box::new($crate::abi::TypedSession::<
                            $crate::export_bot!(@game $mode),
                            $bot,
                        >::default()));
                    }
                )+
                None
            }
            $crate::abi::call(len, new_session)
        }
    };
    (@game battle) => { $crate::battle::Battle };
    (@game tcg) => { $crate::tcg::Tcg };
    (@game grid) => { $crate::grid::Grid };
    (@game dungeon) => { $crate::dungeon::Dungeon };
    (@game conquest) => { $crate::conquest::Conquest };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kept_buffer_is_taken_only_when_offered() {
        assert_eq!(choose_encoding(3 | KEPT_BUFFER), 2 | KEPT_BUFFER);
        assert_eq!(choose_encoding(1 | KEPT_BUFFER), 1 | KEPT_BUFFER);
        assert_eq!(choose_encoding(3), 2);
        assert_eq!(choose_encoding(1), 1);
    }
    use crate::battle::{self, Battle};
    use crate::protocol::{MatchEnd, MatchResult, MatchStart, RequestRef};
    use crate::tcg::Tcg;

    fn encoded(request: &impl Serialize, encoding: Encoding) -> Vec<u8> {
        let mut out = Vec::new();
        match encoding {
            Encoding::Json => serde_json::to_writer(&mut out, &request).unwrap(),
            Encoding::Binary => to_binary(&request, &mut out).unwrap(),
        }
        out
    }

    /// A battle bot that keeps a copy of every observation it is given.
    #[derive(Default)]
    struct Keeper {
        seen: Vec<battle::Observation>,
    }

    impl Bot<Battle> for Keeper {
        fn setup(&mut self, _: &battle::SetupRequest) -> battle::TeamChoice {
            battle::TeamChoice { team: Vec::new() }
        }
        fn act(&mut self, observation: &battle::Observation) -> battle::Action {
            self.seen.push(observation.clone());
            battle::Action::Attack {
                target: observation.units.len() as u8,
            }
        }
    }

    /// Turns that differ in every way decoding in place could get wrong: fewer and more
    /// units, effects added and dropped, a rejection message present, longer, then gone.
    fn varied_turns() -> Vec<battle::Observation> {
        let unit = crate::wire::tests::unit;
        let turn = |n: u32, units: Vec<battle::Unit>, rejected: Option<&str>| battle::Observation {
            turn: n,
            turn_cap: 300,
            seat: 0,
            acting: 1,
            legal_targets: (0..units.len() as u8).step_by(2).collect(),
            units,
            skill_ready: n.is_multiple_of(2),
            last_rejected: rejected.map(str::to_owned),
        };
        vec![
            turn(1, (0..6).map(|i| unit(i, 0)).collect(), None),
            turn(
                2,
                (0..6).map(|i| unit(i, usize::from(i))).collect(),
                Some("no"),
            ),
            turn(
                3,
                (0..3).map(|i| unit(i, 1)).collect(),
                Some("a longer message"),
            ),
            turn(
                4,
                (0..8).map(|i| unit(i, 7 - usize::from(i))).collect(),
                None,
            ),
            turn(5, Vec::new(), Some("")),
            turn(6, (0..6).map(|i| unit(i, 2)).collect(), None),
        ]
    }

    /// The session's turn path: the tag dispatch, the kept observation, a failed decode
    /// resetting it. The same code runs in wasm (`tests/encoding.rs` and its digest bot
    /// check it there); the reader itself is checked in `wire`'s tests.
    #[test]
    fn turns_decoded_in_place_equal_fresh_decodes() {
        let mut session = TypedSession::<Battle, Keeper>::default();
        let turns = varied_turns();
        let mut out = Vec::new();
        for (i, observation) in turns.iter().enumerate() {
            let request = encoded(&RequestRef::<Battle>::Turn(observation), Encoding::Binary);
            assert_eq!(request[0], TURN_TAG, "a turn request's first byte");
            out.clear();
            session
                .handle(&request, Encoding::Binary, &mut out)
                .unwrap();
            let answer = encoded(
                &battle::Action::Attack {
                    target: observation.units.len() as u8,
                },
                Encoding::Binary,
            );
            assert_eq!(out[0], 0, "turn {i}: an answer, not an error");
            assert_eq!(out[1..], answer[..], "turn {i}");
            if i == 2 {
                // A request cut short fails, and the turn after it still decodes whole.
                let cut = &request[..request.len() / 2];
                let error = session.handle(cut, Encoding::Binary, &mut out).unwrap_err();
                assert!(error.starts_with("bad request"), "{error}");
            }
        }
        assert!(session.observation.is_some(), "the last turn was kept");
        let seen: Vec<String> = session.bot.seen.iter().map(|o| format!("{o:?}")).collect();
        let sent: Vec<String> = turns.iter().map(|o| format!("{o:?}")).collect();
        assert_eq!(seen, sent);
    }

    #[test]
    fn only_a_start_request_is_peeked_at() {
        let start = MatchStart::<Tcg> {
            abi: crate::ABI_VERSION,
            mode: Mode::Tcg,
            seat: 1,
            seed: 7,
            rules: Default::default(),
        };
        let end = MatchEnd {
            result: MatchResult::Loss,
            reason: "start".to_owned(),
        };
        for encoding in Encoding::ALL {
            let start = encoded(&RequestRef::Start(&start), encoding);
            assert!(StartPeek::may_be(&start, encoding), "{encoding}");
            assert_eq!(StartPeek::read(&start, encoding), Some(Mode::Tcg));
            // An end request whose reason says "start" is not one.
            let end = encoded(&RequestRef::<Tcg>::End(&end), encoding);
            assert!(!StartPeek::may_be(&end, encoding), "{encoding}");
        }
        // JSON from another host: spaces, an escaped key and garbage are parsed to decide.
        for text in [" { \"start\": {} }", "{\"\\u0073tart\": {}}", "[1]", ""] {
            assert!(StartPeek::may_be(text.as_bytes(), Encoding::Json), "{text}");
        }
        assert!(!StartPeek::may_be(b"{\"turn\": {}}", Encoding::Json));
        assert!(!StartPeek::may_be(&[2, 0], Encoding::Binary));
        assert!(!StartPeek::may_be(&[], Encoding::Binary));
    }
}
