//! Standard input one line at a time, with an optional time limit (`arena play --clock`).
//!
//! A reader thread owns standard input and hands its lines over a channel, so a wait can
//! give up when the clock runs out. On a terminal, what was typed after a timeout and before
//! the next question is thrown away, so a late answer never answers the next question;
//! piped input (scripts, tests) is read as it comes.
//! Everything that reads the terminal (a person's answers, `--step`'s Enter) reads here, so
//! no line is lost between two readers.

use std::io::{BufRead, IsTerminal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// What a wait for a line gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A line, without its end of line.
    Text(String),
    /// Standard input ended (Ctrl-D, a closed pipe) or cannot be read.
    End,
    /// The deadline passed first.
    Late,
}

/// The last wait ran out of time: lines typed since were meant for that question.
static LATE: AtomicBool = AtomicBool::new(false);

fn lines() -> &'static Mutex<Receiver<String>> {
    static LINES: OnceLock<Mutex<Receiver<String>>> = OnceLock::new();
    LINES.get_or_init(|| {
        let (send, receive) = channel();
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            let mut line = Vec::new();
            loop {
                line.clear();
                // End of input or a read error drops the sender: the reader sees `End`.
                // Bytes that are not UTF-8 are a typo to answer, not the end of the game:
                // they become U+FFFD and the prompt says the answer is not understood.
                match stdin.lock().read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line)
                            .trim_end_matches(['\n', '\r'])
                            .to_owned();
                        if send.send(text).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Mutex::new(receive)
    })
}

/// The next line of standard input, waiting until `deadline` at most (`None`: forever).
pub fn read_line(deadline: Option<Instant>) -> Line {
    // A poisoned lock only means another reader panicked: the channel is still sound.
    let receiver = lines().lock().unwrap_or_else(|e| e.into_inner());
    if LATE.swap(false, Ordering::Relaxed) && std::io::stdin().is_terminal() {
        while receiver.try_recv().is_ok() {}
    }
    match deadline {
        None => receiver.recv().map_or(Line::End, Line::Text),
        Some(deadline) => {
            let left = deadline.saturating_duration_since(Instant::now());
            match receiver.recv_timeout(left) {
                Ok(text) => Line::Text(text),
                Err(RecvTimeoutError::Timeout) => {
                    LATE.store(true, Ordering::Relaxed);
                    Line::Late
                }
                Err(RecvTimeoutError::Disconnected) => Line::End,
            }
        }
    }
}

/// On a terminal, throw away what was typed and not yet read (whole lines, and the line
/// being typed): called when a new question is shown, so keys pressed while the other
/// seat's moves scrolled by never answer it. Piped input (scripts, tests) is kept.
pub fn drop_typed_ahead() {
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return;
    }
    let _ = rustix::termios::tcflush(&stdin, rustix::termios::QueueSelector::IFlush);
    let receiver = lines().lock().unwrap_or_else(|e| e.into_inner());
    while receiver.try_recv().is_ok() {}
}
