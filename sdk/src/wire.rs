//! A hand-written reader of the binary encoding's turn requests (docs/abi.md, "Binary
//! encoding"), which a bot's [`TypedSession`](crate::abi::TypedSession) decodes each
//! turn's observation with, in place into the last one.
//!
//! The bytes are postcard's format of the SDK types, and postcard with serde's
//! `deserialize_in_place` read them correctly — but in wasm, where every instruction is
//! fuel a bot's turn pays, that path is most of a bot's cost of a turn without thinking:
//! a visitor per value, a `SeqAccess` call per item, a `Result` to test after every field (docs/performance.md, "The SDK's hand-written
//! decoder"). Here each type reads its fields straight from a bounds-checked slice, a
//! vector or string overwrites the last turn's items and bytes instead of reallocating, and
//! a malformed value does not return early: the [`Reader`] keeps the first error, empties
//! itself (so every later read is short and yields zeros) and the caller looks once, at the
//! end. The result is exactly postcard's: the unit tests compare both on every variant and
//! on corrupted bytes, `tests/wire.rs` on every turn of real games of every mode. JSON,
//! start, setup and end requests stay on serde.

use std::fmt;

/// What is wrong with a binary request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireError {
    /// The bytes end in the middle of a value.
    End,
    /// A varint longer than its type allows, or with bits beyond it.
    Varint,
    /// A `bool` other than 0 or 1.
    Bool,
    /// An `option` tag other than 0 or 1.
    Option,
    /// A variant index the enum (named) does not have.
    Variant(&'static str),
    /// A string that is not UTF-8.
    Utf8,
    /// A sequence or string longer than the bytes left could hold.
    Length,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::End => f.write_str("the request ends too early"),
            WireError::Varint => f.write_str("a varint is too long"),
            WireError::Bool => f.write_str("a bool is neither 0 nor 1"),
            WireError::Option => f.write_str("an option tag is neither 0 nor 1"),
            WireError::Variant(ty) => write!(f, "no such variant of `{ty}`"),
            WireError::Utf8 => f.write_str("a string is not UTF-8"),
            WireError::Length => f.write_str("a length exceeds the bytes left"),
        }
    }
}

/// A [`WireError`] and where: the offset, from the start of the bytes given to [`decode`]
/// or [`decode_in_place`], at which the reader stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeError {
    /// What is wrong.
    pub error: WireError,
    /// The byte offset at which reading stopped.
    pub at: usize,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (byte {})", self.error, self.at)
    }
}

impl std::error::Error for DecodeError {}

/// A cursor over a request's bytes. Every read checks the bytes left; a malformed value
/// records a [`WireError`] (the first one is kept) and empties the reader, so that the
/// rest of a decode runs short, reading zeros, and never panics.
///
/// Everything that takes a reader is `#[inline(always)]`, down to the vectors' loops: a
/// whole observation is then decoded in one function where the reader never leaves
/// registers (wasm locals). A reader passed to a call lives in memory, and every byte read
/// became loads and stores.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    /// The bytes left: an iterator is a pointer and an end, so a byte read is a compare,
    /// a load and an increment (a slice's pointer and length both change on every read).
    bytes: std::slice::Iter<'a, u8>,
    /// The first error, with the number of bytes that were left.
    error: Option<(WireError, usize)>,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader {
            bytes: bytes.iter(),
            error: None,
        }
    }

    /// How many bytes are left.
    #[inline(always)]
    pub fn remaining(&self) -> usize {
        self.bytes.len()
    }

    /// Whether a read has failed.
    #[inline(always)]
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// Record `error` (unless one came first) and stop reading.
    #[inline(always)]
    pub fn fail(&mut self, error: WireError) {
        if self.error.is_none() {
            self.error = Some((error, self.bytes.len()));
        }
        self.bytes = [].iter();
    }

    /// The outcome of reading the `total` bytes the reader started with.
    fn finish(&self, total: usize) -> Result<(), DecodeError> {
        match self.error {
            None => Ok(()),
            Some((error, left)) => Err(DecodeError {
                error,
                at: total - left,
            }),
        }
    }

    /// One byte (a `u8`, a `bool`'s or an option's tag).
    #[inline(always)]
    pub fn byte(&mut self) -> u8 {
        match self.bytes.next() {
            Some(&byte) => byte,
            None => {
                self.fail(WireError::End);
                0
            }
        }
    }

    /// The next `n` bytes.
    #[inline(always)]
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        match self.bytes.as_slice().split_at_checked(n) {
            Some((taken, rest)) => {
                self.bytes = rest.iter();
                taken
            }
            None => {
                self.fail(WireError::End);
                &[]
            }
        }
    }

    /// A `u32` varint: at most 5 bytes, the last at most `0x0f` (postcard's rule; a longer
    /// encoding of a small value is accepted, as there). Most values of a request fit one
    /// byte (counts, ids, small amounts), so that case comes first.
    #[inline(always)]
    pub fn u32(&mut self) -> u32 {
        let low = self.byte();
        if low < 0x80 {
            return u32::from(low);
        }
        let mut value = u32::from(low & 0x7f);
        for shift in [7, 14, 21, 28] {
            let byte = self.byte();
            value |= u32::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                if shift == 28 && byte > 0x0f {
                    break;
                }
                return value;
            }
        }
        self.fail(WireError::Varint);
        0
    }

    /// A `u64` varint: at most 10 bytes, the last at most 1.
    #[inline(always)]
    pub fn u64(&mut self) -> u64 {
        let mut value = 0;
        for shift in (0..64).step_by(7) {
            let byte = self.byte();
            value |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                if shift == 63 && byte > 0x01 {
                    break;
                }
                return value;
            }
        }
        self.fail(WireError::Varint);
        0
    }

    /// An `i32`: zigzag, then a varint.
    #[inline(always)]
    pub fn i32(&mut self) -> i32 {
        let n = self.u32();
        (n >> 1) as i32 ^ -((n & 1) as i32)
    }

    /// A sequence's or string's length, which the bytes left must be able to hold (every
    /// item is at least one byte), so a hostile length cannot make a decode loop longer
    /// than the request; a vector also reserves at most [`MAX_RESERVE`] bytes up front.
    /// A `usize` varint, as wide as the platform's `usize`.
    #[inline(always)]
    pub fn length(&mut self) -> usize {
        let len = if usize::BITS <= 32 {
            usize::try_from(self.u32()).unwrap_or(usize::MAX)
        } else {
            usize::try_from(self.u64()).unwrap_or(usize::MAX)
        };
        if len > self.bytes.len() {
            self.fail(WireError::Length);
            return 0;
        }
        len
    }
}

/// The most a vector reserves before its items are read, in bytes (as serde's cautious
/// size hint): a hostile length in a short request cannot reserve much more than that.
pub const MAX_RESERVE: usize = 1 << 20;

/// A value the binary encoding's reader can decode, fresh or into an existing value.
/// Implemented for every type a turn request carries; each is at least one byte long on
/// the wire, which [`Reader::length`]'s bound on sequence lengths relies on.
///
/// A malformed value is recorded in the reader ([`Reader::fail`]), not returned: the value
/// then decoded is valid but meaningless, and [`decode`] and [`decode_in_place`] report the
/// error instead of it.
pub trait Decode: Sized {
    /// A new value from `reader`.
    fn decode(reader: &mut Reader<'_>) -> Self;

    /// Overwrite `self` with the value from `reader`, reusing its vectors and strings.
    #[inline(always)]
    fn decode_in_place(&mut self, reader: &mut Reader<'_>) {
        *self = Self::decode(reader);
    }
}

/// A value decoded from the start of `bytes`. Bytes after it are ignored, as postcard does.
pub fn decode<T: Decode>(bytes: &[u8]) -> Result<T, DecodeError> {
    let mut reader = Reader::new(bytes);
    let value = T::decode(&mut reader);
    reader.finish(bytes.len()).map(|()| value)
}

/// Overwrite `value` with the value at the start of `bytes`, reusing its memory. On an
/// error `value` is partly overwritten, but valid.
pub fn decode_in_place<T: Decode>(value: &mut T, bytes: &[u8]) -> Result<(), DecodeError> {
    let mut reader = Reader::new(bytes);
    value.decode_in_place(&mut reader);
    reader.finish(bytes.len())
}

impl Decode for u8 {
    #[inline(always)]
    fn decode(reader: &mut Reader<'_>) -> Self {
        reader.byte()
    }
}

impl Decode for u32 {
    #[inline(always)]
    fn decode(reader: &mut Reader<'_>) -> Self {
        reader.u32()
    }
}

impl Decode for u64 {
    #[inline(always)]
    fn decode(reader: &mut Reader<'_>) -> Self {
        reader.u64()
    }
}

impl Decode for i32 {
    #[inline(always)]
    fn decode(reader: &mut Reader<'_>) -> Self {
        reader.i32()
    }
}

impl Decode for bool {
    #[inline(always)]
    fn decode(reader: &mut Reader<'_>) -> Self {
        match reader.byte() {
            0 => false,
            1 => true,
            _ => {
                reader.fail(WireError::Bool);
                false
            }
        }
    }
}

impl Decode for String {
    #[inline(always)]
    fn decode(reader: &mut Reader<'_>) -> Self {
        let mut text = String::new();
        text.decode_in_place(reader);
        text
    }

    #[inline(always)]
    fn decode_in_place(&mut self, reader: &mut Reader<'_>) {
        let len = reader.length();
        let bytes = reader.take(len);
        // Names and card ids repeat from turn to turn: comparing 8 bytes at a time is
        // cheaper than checking the UTF-8 and copying (what equals a `String` is UTF-8).
        // Not `==`: in wasm that is `memcmp`, a byte at a time, dearer than the check.
        if same(self.as_bytes(), bytes) {
            return;
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                self.clear();
                self.push_str(text);
            }
            Err(_) => reader.fail(WireError::Utf8),
        }
    }
}

/// Whether `a` and `b` are equal, compared 8 bytes at a time (the last 8 bytes as one more
/// word, overlapping the one before; shorter slices folded into one word).
#[inline(always)]
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let word = |w: &[u8; 8]| u64::from_le_bytes(*w);
    match (a.last_chunk::<8>(), b.last_chunk::<8>()) {
        (Some(a_last), Some(b_last)) => {
            let (a_words, b_words) = (a.as_chunks::<8>().0, b.as_chunks::<8>().0);
            word(a_last) == word(b_last)
                && a_words.iter().zip(b_words).all(|(a, b)| word(a) == word(b))
        }
        _ => {
            let fold = |s: &[u8]| s.iter().fold(0_u64, |w, &byte| w << 8 | u64::from(byte));
            fold(a) == fold(b)
        }
    }
}

impl<T: Decode> Decode for Option<T> {
    #[inline(always)]
    fn decode(reader: &mut Reader<'_>) -> Self {
        match reader.byte() {
            0 => None,
            1 => Some(T::decode(reader)),
            _ => {
                reader.fail(WireError::Option);
                None
            }
        }
    }

    #[inline(always)]
    fn decode_in_place(&mut self, reader: &mut Reader<'_>) {
        match reader.byte() {
            0 => *self = None,
            1 => match self {
                Some(value) => value.decode_in_place(reader),
                None => *self = Some(T::decode(reader)),
            },
            _ => {
                reader.fail(WireError::Option);
                *self = None;
            }
        }
    }
}

impl<T: Decode> Decode for Vec<T> {
    #[inline(always)]
    fn decode(reader: &mut Reader<'_>) -> Self {
        let mut items = Vec::new();
        items.decode_in_place(reader);
        items
    }

    /// The items the last value had are overwritten in place (their own vectors and
    /// strings kept), extra ones dropped, missing ones decoded afresh.
    #[inline(always)]
    fn decode_in_place(&mut self, reader: &mut Reader<'_>) {
        let len = reader.length();
        if len <= self.len() {
            self.truncate(len);
            for item in self.iter_mut() {
                item.decode_in_place(reader);
            }
        } else {
            for item in self.iter_mut() {
                item.decode_in_place(reader);
            }
            // Items are many bytes in memory for one on the wire: the reservation is
            // capped, and a failed read ends the growth (the decode is an error anyway).
            let cap = MAX_RESERVE / std::mem::size_of::<T>().max(1);
            self.reserve((len - self.len()).min(cap));
            while self.len() < len && !reader.failed() {
                self.push(T::decode(reader));
            }
        }
    }
}

impl<T: Decode> Decode for [T; 2] {
    #[inline(always)]
    fn decode(reader: &mut Reader<'_>) -> Self {
        [T::decode(reader), T::decode(reader)]
    }

    #[inline(always)]
    fn decode_in_place(&mut self, reader: &mut Reader<'_>) {
        for item in self.iter_mut() {
            item.decode_in_place(reader);
        }
    }
}

/// `Decode` for a struct: its fields read in the order listed, which must be the order of
/// declaration (the struct literal checks that none is missing; the tests, the order).
macro_rules! decode_struct {
    ($ty:path { $($field:ident),+ $(,)? }) => {
        impl Decode for $ty {
            #[inline(always)]
            fn decode(reader: &mut Reader<'_>) -> Self {
                Self { $($field: Decode::decode(reader)),+ }
            }

            #[inline(always)]
            fn decode_in_place(&mut self, reader: &mut Reader<'_>) {
                $(self.$field.decode_in_place(reader);)+
            }
        }
    };
}

/// `Decode` for an enum without fields: its variants listed in declaration order (the
/// match checks that none is missing), the variant index a varint. `other = V` names the
/// variant serde's `#[serde(other)]` gives any index beyond the list.
macro_rules! decode_enum {
    ($ty:ident { $first:ident $(, $variant:ident)* $(,)? } $(other = $other:ident)?) => {
        impl Decode for $ty {
            #[inline(always)]
            fn decode(reader: &mut Reader<'_>) -> Self {
                const ALL: &[$ty] = &[$ty::$first $(, $ty::$variant)*];
                // Every variant is listed.
                const _: fn($ty) = |value| match value { $ty::$first $(| $ty::$variant)* => {} };
                match ALL.get(reader.u32() as usize) {
                    Some(&value) => value,
                    None => decode_enum!(@beyond reader $ty $first $($other)?),
                }
            }
        }
    };
    (@beyond $reader:ident $ty:ident $first:ident) => {{
        $reader.fail(WireError::Variant(stringify!($ty)));
        $ty::$first
    }};
    (@beyond $reader:ident $ty:ident $first:ident $other:ident) => { $ty::$other };
}

// Each mode's types get their `Decode` beside them, in the mode's module.
pub(crate) use decode_enum;
pub(crate) use decode_struct;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pos::Pos;
    use crate::protocol::to_binary;
    use crate::{battle, conquest, dungeon, grid, tcg};
    use battle::{ActiveEffect, BotType, Effect, Stats as BattleStats, Unit};
    use conquest::{Army, Kind, Resources};
    use dungeon::{Ability, Class, Family, Monster, MonsterKind, Score};
    use grid::Mine;
    use serde::Serialize;
    use serde::de::DeserializeOwned;
    use tcg::{Card, CardInstance, CardKind, Minion, PlayAs};

    fn binary(value: &(impl Serialize + ?Sized)) -> Vec<u8> {
        let mut out = Vec::new();
        to_binary(value, &mut out).unwrap();
        out
    }

    /// Decodes `bytes` fresh and into each of `previous`, and checks every outcome against
    /// postcard's: both fail, or both give the same value (compared by its encoding, as not
    /// every observation type has `PartialEq`).
    fn agrees<T>(bytes: &[u8], previous: &[T]) -> bool
    where
        T: Decode + Serialize + DeserializeOwned + Clone,
    {
        let theirs = postcard::from_bytes::<T>(bytes).ok().map(|v| binary(&v));
        let ours = decode::<T>(bytes).ok().map(|v| binary(&v));
        assert_eq!(ours, theirs, "fresh, bytes {bytes:02x?}");
        for previous in previous {
            let mut value = previous.clone();
            let ours = decode_in_place(&mut value, bytes)
                .ok()
                .map(|()| binary(&value));
            assert_eq!(ours, theirs, "in place, bytes {bytes:02x?}");
        }
        theirs.is_some()
    }

    /// `values` decode exactly, each into every other; every proper prefix of each fails;
    /// and every byte replaced by values that break varints, tags and lengths gives what
    /// postcard gives (an error or the same value), never a panic.
    fn check_all<T>(values: &[T])
    where
        T: Decode + Serialize + DeserializeOwned + Clone,
    {
        for value in values {
            let bytes = binary(value);
            assert!(agrees(&bytes, values));
            let mut fresh: T = decode(&bytes).unwrap();
            assert_eq!(binary(&fresh), bytes);
            for end in 0..bytes.len() {
                assert!(decode::<T>(&bytes[..end]).is_err(), "prefix of {end} bytes");
                assert!(decode_in_place(&mut fresh, &bytes[..end]).is_err());
                fresh = value.clone();
            }
            for at in 0..bytes.len() {
                for byte in [0x00, 0x01, 0x02, 0x0f, 0x13, 0x7f, 0x80, 0xc3, 0xff] {
                    let mut corrupt = bytes.clone();
                    corrupt[at] = byte;
                    agrees(&corrupt, values);
                }
            }
        }
    }

    #[test]
    fn varints_read_as_postcard_reads_them() {
        for n in [0, 1, 127, 128, 255, 300, 16_383, 16_384, 1 << 28, u32::MAX] {
            assert_eq!(decode::<u32>(&binary(&n)), Ok(n));
            assert!(agrees::<u64>(&binary(&u64::from(n)), &[7]));
        }
        for n in [0, -1, 1, -64, 64, 1400, -70, i32::MIN, i32::MAX] {
            assert_eq!(decode::<i32>(&binary(&n)), Ok(n));
        }
        assert!(agrees::<u64>(&binary(&u64::MAX), &[]));
        let cases: [&[u8]; 9] = [
            &[0x80, 0x00],                         // 0, overlong: accepted
            &[0xff, 0xff, 0xff, 0xff, 0x0f],       // u32::MAX
            &[0xff, 0xff, 0xff, 0xff, 0x10],       // beyond 32 bits
            &[0x80, 0x80, 0x80, 0x80, 0x80, 0x00], // six bytes
            &[0x80, 0x80],                         // ends inside
            &[],
            &[0xff; 9],
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], // u64::MAX
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02],
        ];
        for bytes in cases {
            agrees::<u32>(bytes, &[5]);
            agrees::<i32>(bytes, &[-5]);
            agrees::<u64>(bytes, &[5]);
            agrees::<Vec<u8>>(bytes, &[vec![1, 2]]);
            agrees::<String>(bytes, &["abc".to_owned()]);
        }
        assert_eq!(
            decode::<u32>(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x00]),
            Err(DecodeError {
                error: WireError::Varint,
                at: 5
            })
        );
    }

    #[test]
    fn a_hostile_length_fails_before_allocating() {
        // Four billion units announced in a 5-byte request: an error, not a reservation.
        let bytes = [0xff, 0xff, 0xff, 0xff, 0x0f];
        let mut units = vec![unit(1, 2)];
        let error = decode_in_place(&mut units, &bytes).unwrap_err();
        assert_eq!(error.error, WireError::Length);
        assert_eq!(
            error.to_string(),
            "a length exceeds the bytes left (byte 5)"
        );
        assert_eq!(
            decode::<String>(&[3, b'a', b'b']).unwrap_err().error,
            WireError::Length
        );
        assert!(decode::<Vec<String>>(&[u8::MAX - 128, 1]).is_err());
    }

    #[test]
    fn a_length_the_bytes_can_hold_reserves_a_bounded_amount() {
        // Twice as many units as `MAX_RESERVE` bytes hold, followed by as many zero bytes:
        // the length passes its check, each unit needs many bytes, and the request ends
        // long before the last. Not 80-odd bytes reserved per byte of the request, and no
        // unit decoded after the first failed read.
        let count = 2 * MAX_RESERVE / std::mem::size_of::<Unit>();
        let mut bytes = Vec::new();
        let mut n = count;
        while n >= 0x80 {
            bytes.push((n as u8) | 0x80);
            n >>= 7;
        }
        bytes.push(n as u8);
        bytes.resize(bytes.len() + count, 0);
        let mut units: Vec<Unit> = Vec::new();
        let error = decode_in_place(&mut units, &bytes).unwrap_err();
        assert_eq!(error.error, WireError::End);
        assert!(
            units.capacity() * std::mem::size_of::<Unit>() <= MAX_RESERVE,
            "{} units reserved",
            units.capacity()
        );
        assert!(units.len() < count / 2, "{} units decoded", units.len());
    }

    #[test]
    fn tags_bools_and_text_are_checked() {
        assert_eq!(decode::<bool>(&[2]).unwrap_err().error, WireError::Bool);
        assert_eq!(
            decode::<Option<u8>>(&[2, 0]).unwrap_err().error,
            WireError::Option
        );
        assert_eq!(
            decode::<String>(&[2, 0xc3, 0x28]).unwrap_err().error,
            WireError::Utf8
        );
        assert_eq!(decode::<String>(&[2, 0xc3, 0xa9]).unwrap(), "é");
        assert_eq!(
            decode::<BotType>(&[8]).unwrap_err(),
            DecodeError {
                error: WireError::Variant("BotType"),
                at: 1
            }
        );
        for bytes in [[2, 0xc3, 0x28], [0, 0, 0], [1, 2, 3], [2, 0x61, 0x62]] {
            agrees::<String>(&bytes, &["previous".to_owned()]);
            agrees::<Option<bool>>(&bytes, &[Some(true), None]);
        }
    }

    #[test]
    fn a_string_decoded_over_another_takes_its_bytes_wherever_they_differ() {
        // Equal lengths that differ in one byte, in every word and in the tail; shorter
        // and longer; equal.
        let mut texts = Vec::new();
        for len in 0..20 {
            let base: String = (0..len).map(|i| char::from(b'a' + i as u8)).collect();
            for at in 0..len {
                let mut changed = base.clone().into_bytes();
                changed[at] = b'Z';
                texts.push(String::from_utf8(changed).unwrap());
            }
            texts.push(base);
        }
        texts.push("é".repeat(9));
        for text in &texts {
            assert!(agrees(&binary(text), &texts));
        }
    }

    /// Every variant index of every enum, and one beyond, as postcard reads it: the order
    /// of the lists in `decode_enum!` is the order of declaration. `Ability` takes any
    /// index beyond its list as `Unknown` (`#[serde(other)]`).
    #[test]
    fn enums_read_their_variants_in_declaration_order() {
        fn indexes<T: Decode + Serialize + DeserializeOwned + Clone>(count: u32, first: T) {
            for index in 0..=count + 1 {
                let known = agrees::<T>(&binary(&index), std::slice::from_ref(&first));
                assert_eq!(known, index < count, "{}", std::any::type_name::<T>());
            }
        }
        indexes(8, BotType::Aggro);
        indexes(13, Effect::Bomb);
        indexes(3, CardKind::Heal);
        indexes(3, PlayAs::Minion);
        indexes(4, Class::Mage);
        indexes(3, Family::Undead);
        indexes(6, MonsterKind::Orc);
        indexes(4, Kind::Scout);
        for index in [18_u32, 19, 300, u32::MAX] {
            assert!(agrees::<Ability>(&binary(&index), &[Ability::Fight]));
            assert_eq!(decode::<Ability>(&binary(&index)), Ok(Ability::Unknown));
        }
        assert!(agrees::<Ability>(&binary(&17_u32), &[Ability::Fight]));
        for bytes in [[0, 7], [1, 9], [2, 0], [3, 0]] {
            agrees::<tcg::Target>(&bytes, &[tcg::Target::Minion(3)]);
            agrees::<dungeon::Target>(&bytes, &[dungeon::Target::Hero(1)]);
        }
        for bytes in [
            [0, 4, 2, 1, 9],
            [1, 3, 0, 0, 0],
            [2, 0, 0, 0, 0],
            [3, 0, 0, 0, 0],
        ] {
            agrees::<tcg::Action>(&bytes, &[tcg::Action::EndTurn]);
        }
    }

    /// A battle unit whose fields all differ from unit to unit or push a limit (extreme
    /// and negative numbers, effects of every kind), for the decoding tests here and in
    /// `abi`.
    pub(crate) fn unit(id: u8, effects: usize) -> Unit {
        Unit {
            id,
            owner: id % 2,
            kind: BotType::ALL[usize::from(id) % 8],
            base: BattleStats {
                integrity: 1400 + i32::from(id),
                power: -5,
                speed: 40,
                armor: 0,
                evasion: 3,
                critical: 1,
                resistance: i32::MIN,
                effectivity: i32::MAX,
            },
            integrity: i32::from(id) * 100,
            armor: 1,
            power: 2,
            speed: 3,
            resistance: 4,
            turn_meter: -1000,
            cooldown: u32::from(id) << 20,
            has_skill: id.is_multiple_of(3),
            effects: (0..effects)
                .map(|i| ActiveEffect {
                    effect: decode(&[(usize::from(id) + i) as u8 % 13]).unwrap(),
                    turns_left: i as u32,
                    magnitude: 70 * i as i32 - 100,
                })
                .collect(),
            destroyed: id == 4,
        }
    }

    #[test]
    fn battle_observations_decode_as_postcard_decodes_them() {
        let turn = |units: Vec<Unit>, rejected: Option<&str>| battle::Observation {
            turn: 130,
            turn_cap: 300,
            seat: 1,
            acting: 2,
            legal_targets: (0..units.len() as u8).step_by(2).collect(),
            units,
            skill_ready: rejected.is_some(),
            last_rejected: rejected.map(str::to_owned),
        };
        check_all(&[
            turn((0..6).map(|id| unit(id, usize::from(id))).collect(), None),
            turn(vec![unit(7, 13), unit(5, 1)], Some("target 9 is not légal")),
            turn(Vec::new(), Some("")),
            turn((0..8).map(|id| unit(id, 2)).collect(), Some("x")),
        ]);
    }

    #[test]
    fn tcg_observations_decode_as_postcard_decodes_them() {
        let hero = |health| tcg::Hero {
            health,
            mana: 3,
            mana_slots: 10,
            deck_size: 200,
            hand_size: 0,
        };
        let minion = |id, card: &str| Minion {
            id,
            owner: (id % 2) as u8,
            card: card.to_owned(),
            attack: 4,
            health: -2,
            asleep: id == 1,
            can_attack: id != 1,
        };
        let target = tcg::Target::Minion(300);
        let observation = |hand: Vec<Card>, board, rejected: Option<&str>| tcg::Observation {
            turn: 4,
            turn_cap: 200,
            seat: 0,
            heroes: [hero(30), hero(-1)],
            hand: hand
                .into_iter()
                .enumerate()
                .map(|(uid, card)| CardInstance {
                    uid: uid as u32 * 50,
                    card,
                })
                .collect(),
            board,
            legal: vec![
                tcg::Action::PlayCard {
                    card: 6,
                    play_as: PlayAs::Heal,
                    target,
                },
                tcg::Action::PlayCard {
                    card: 0,
                    play_as: PlayAs::Minion,
                    target: tcg::Target::Hero,
                },
                tcg::Action::Attack { minion: 2, target },
                tcg::Action::EndTurn,
            ],
            last_rejected: rejected.map(str::to_owned),
        };
        check_all(&[
            observation(
                vec![
                    Card::damage("fireball", 4, 6),
                    Card::heal("mend", 2, 3),
                    Card::drawer("insight", 1, 2),
                ],
                vec![minion(1, "blast"), minion(2, "zap")],
                Some("no card 9"),
            ),
            observation(Vec::new(), Vec::new(), None),
            observation(
                vec![Card::damage("zap", 0, 1)],
                vec![minion(3, "a much longer card name")],
                Some(""),
            ),
        ]);
    }

    #[test]
    fn grid_observations_decode_as_postcard_decodes_them() {
        let hero = |id: u8| grid::Hero {
            id,
            team: id / 4,
            health: u32::from(id) * 40,
            pos: Pos::new(id, 255 - id),
            dead: id == 2,
        };
        let observation = |heroes: u8, rejected: Option<&str>| grid::Observation {
            turn: 1249,
            turn_limit: 1250,
            team: 1,
            acting: 5,
            heroes: (0..heroes).map(hero).collect(),
            mines: (0..heroes)
                .map(|i| Mine {
                    owner: (i % 3 != 0).then_some(i),
                    team: (i % 2 == 0).then_some(i % 2),
                })
                .collect(),
            graves: (0..heroes).map(|i| Pos::new(i, i)).collect(),
            diamonds: 70_000,
            enemy_diamonds: 0,
            last_rejected: rejected.map(str::to_owned),
        };
        check_all(&[
            observation(8, None),
            observation(2, Some("hero 5 cannot move north")),
            observation(0, Some("")),
        ]);
    }

    #[test]
    fn dungeon_observations_decode_as_postcard_decodes_them() {
        let stats = dungeon::Stats {
            strength: 12,
            constitution: 130,
            intelligence: 0,
            speed: 9,
        };
        let hero = |id: u8, name: &str| dungeon::Hero {
            id,
            name: name.to_owned(),
            class: Class::ALL[usize::from(id) % 4],
            level: 3,
            xp: 1000,
            stats,
            hp: 44,
            max_hp: 60,
            mp: 0,
            max_mp: 20,
            dead: id == 3,
        };
        let monster = |id: u8, queue: &[Ability]| Monster {
            id,
            name: format!("monster {id}"),
            kind: MonsterKind::ALL[usize::from(id) % 6],
            family: [Family::Dragon, Family::Undead, Family::Humanoid][usize::from(id) % 3],
            level: 7,
            stats,
            hp: 0,
            max_hp: 200,
            xp_value: 55,
            queue: queue.to_vec(),
            dead: id == 0,
        };
        let all: Vec<Ability> = (0..19)
            .map(|i| decode(&binary(&(i as u32))).unwrap())
            .collect();
        let observation = |size: u8, rejected: Option<&str>| dungeon::Observation {
            wave: 2,
            waves: 5,
            turn: 17,
            acting: 1,
            party: (0..size)
                .map(|id| hero(id, &"hero".repeat(usize::from(id))))
                .collect(),
            monsters: (0..size)
                .map(|id| monster(id, &all[usize::from(id) * 3..]))
                .collect(),
            initiative: (0..size)
                .flat_map(|id| [dungeon::Target::Hero(id), dungeon::Target::Monster(id)])
                .collect(),
            events: (0..size).map(|i| format!("event {i}: ✓")).collect(),
            legal: all
                .iter()
                .map(|&ability| dungeon::Action {
                    ability,
                    target: dungeon::Target::Monster(size),
                })
                .take(usize::from(size) * 4)
                .collect(),
            score: Score {
                waves_cleared: 1,
                xp: u64::MAX - 1,
                turns: 16,
            },
            last_rejected: rejected.map(str::to_owned),
        };
        check_all(&[
            observation(4, None),
            observation(1, Some("no such target")),
            observation(0, Some("")),
        ]);
    }

    #[test]
    fn conquest_observations_decode_as_postcard_decodes_them() {
        let tiles = |n: u8| (0..n).map(|i| Pos::new(i, n - i)).collect::<Vec<_>>();
        let observation = |n: u8, rejected: &[&str]| conquest::Observation {
            year: 3,
            last_year: 80,
            seat: 1,
            width: 10,
            height: 8,
            homes: [Pos::new(0, 0), Pos::new(9, 7)],
            water: tiles(n),
            wood: tiles(n / 2),
            food: tiles(n + 1),
            gold: tiles(1),
            armies: (0..n)
                .map(|i| Army {
                    id: u32::from(i) * 1000,
                    owner: i % 2,
                    kind: Kind::ALL[usize::from(i) % 4],
                    pos: Pos::new(i, 0),
                })
                .collect(),
            resources: Resources::new(1, 200, 30_000),
            prices: conquest::prices(),
            last_rejected: rejected.iter().map(|&s| s.to_owned()).collect(),
        };
        check_all(&[
            observation(6, &[]),
            observation(2, &["recruit at 3,4: off the map", "move: no army"]),
            observation(0, &[""]),
        ]);
    }
}
