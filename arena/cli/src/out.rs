//! Standard output that never panics: `println!` panics when the reader has gone away
//! (`arena replay show … | head -1`); these return the error instead, and `main` turns a
//! closed pipe into a quiet exit 0 — the reader has seen all it wanted.

use std::io::Write;

/// The reader closed the pipe: stop printing, exit 0.
#[derive(Debug, thiserror::Error)]
#[error("standard output was closed")]
pub struct Closed;

/// Write `text` to standard output.
pub fn write(text: std::fmt::Arguments<'_>) -> Result<(), anyhow::Error> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(Closed.into()),
        Err(e) => Err(anyhow::Error::new(e).context("cannot write to standard output")),
    }
}

/// Write one line to standard error. A closed standard error drops the text: there is no
/// one left to tell.
pub fn error_line(text: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// `eprintln!` that never panics ([`error_line`]).
macro_rules! errln {
    ($($arg:tt)*) => { $crate::out::error_line(format_args!($($arg)*)) };
}

/// `print!` that returns an error (use with `?`).
macro_rules! out {
    ($($arg:tt)*) => { $crate::out::write(format_args!($($arg)*)) };
}

/// `println!` that returns an error (use with `?`).
macro_rules! outln {
    () => { $crate::out::write(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::out::write(format_args!("{}\n", format_args!($($arg)*))) };
}
