//! The glue between the bot ABI (docs/abi.md) and the [`Bot`](crate::Bot) trait, used by
//! [`export_bot!`](crate::export_bot). Bot authors never call this directly.
#![allow(unsafe_code)]

use crate::Bot;
use crate::protocol::{Game, Mode, Request};
use serde::Deserialize;
use std::cell::RefCell;

/// One match's bot, whatever its mode.
pub trait Session {
    /// Handle one request (JSON) and write the response (JSON) into `out`.
    fn handle(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), String>;
}

/// A [`Session`] that decodes the requests of mode `G` for bot `B`.
#[derive(Debug, Default)]
pub struct TypedSession<G, B> {
    bot: B,
    _mode: std::marker::PhantomData<G>,
}

impl<G: Game, B: Bot<G>> Session for TypedSession<G, B> {
    fn handle(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
        let request: Request<G> =
            serde_json::from_slice(input).map_err(|e| format!("bad request: {e}"))?;
        let written = match request {
            Request::Start(start) => {
                self.bot.start(&start);
                out.extend_from_slice(b"{}");
                Ok(())
            }
            Request::Setup(setup) => serde_json::to_writer(&mut *out, &self.bot.setup(&setup)),
            Request::Turn(observation) => {
                serde_json::to_writer(&mut *out, &self.bot.act(&observation))
            }
            Request::End(end) => {
                self.bot.end(&end);
                out.extend_from_slice(b"{}");
                Ok(())
            }
        };
        written.map_err(|e| format!("cannot encode response: {e}"))
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum StartPeek {
    Start { mode: Mode },
}

struct State {
    input: Vec<u8>,
    output: Vec<u8>,
    session: Option<Box<dyn Session>>,
}

thread_local! {
    static STATE: RefCell<State> = const {
        RefCell::new(State { input: Vec::new(), output: Vec::new(), session: None })
    };
}

/// `arena_alloc`: hand the host a buffer of `len` bytes for the next request.
pub fn alloc(len: i32) -> i32 {
    let Ok(len) = usize::try_from(len) else {
        return 0;
    };
    STATE.with_borrow_mut(|state| {
        state.input.clear();
        state.input.resize(len, 0);
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
            session,
        } = state;
        output.clear();
        let len = usize::try_from(len).unwrap_or(0).min(input.len());
        let input = &input[..len];
        if let Ok(StartPeek::Start { mode }) = serde_json::from_slice::<StartPeek>(input) {
            install_panic_hook();
            *session = new_session(mode);
            if session.is_none() {
                write_error(output, &format!("this bot does not play mode `{mode}`"));
            }
        }
        match session {
            Some(session) => {
                if let Err(message) = session.handle(input, output) {
                    output.clear();
                    write_error(output, &message);
                }
            }
            None if output.is_empty() => write_error(output, "the first request must be `start`"),
            None => {}
        }
        ((output.as_ptr() as usize as i64) << 32) | output.len() as i64
    })
}

fn write_error(out: &mut Vec<u8>, message: &str) {
    let body = serde_json::json!({ "error": message });
    serde_json::to_writer(out, &body).expect("serializing a json value cannot fail");
}

fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| log(&format!("panic: {info}"))));
}

#[cfg(target_arch = "wasm32")]
mod host {
    #[link(wasm_import_module = "arena")]
    unsafe extern "C" {
        pub fn log(ptr: *const u8, len: usize);
    }
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

/// Export a bot type as a wasm module speaking ABI v1.
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
}
