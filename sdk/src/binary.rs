//! The writer of the binary encoding ([`Encoding::Binary`](crate::Encoding::Binary)):
//! postcard's wire format, byte for byte (docs/abi.md, "Binary encoding"), written straight
//! into a caller's reused `Vec`.
//!
//! postcard's own serializer writes every varint into a scratch array and appends the used
//! part, whose length is only known at run time: a `memcpy` call per multi-byte varint, a
//! sixth of the host's cost of a battle turn (`perf` of `turn_cost`'s `turn/modes`). Here the
//! common widths are stores of a known size. Checked against postcard in this module's tests
//! and on every request of recorded games of every mode (`tests/encoding.rs`).

use serde::ser::{self, Serialize};

/// The error type of the encoding (postcard's, so callers see one type whichever writes).
type Error = postcard::Error;

/// Appends the binary encoding of values to a `Vec`.
pub(crate) struct Writer<'a>(pub(crate) &'a mut Vec<u8>);

impl Writer<'_> {
    /// An unsigned LEB128 varint: seven bits a byte, low bits first, the top bit set on
    /// every byte but the last.
    #[inline(always)]
    fn varint(&mut self, value: u64) {
        let out = &mut *self.0;
        if value < 1 << 7 {
            out.push(value as u8);
        } else if value < 1 << 14 {
            out.extend_from_slice(&[value as u8 | 0x80, (value >> 7) as u8]);
        } else if value < 1 << 21 {
            out.extend_from_slice(&[
                value as u8 | 0x80,
                (value >> 7) as u8 | 0x80,
                (value >> 14) as u8,
            ]);
        } else {
            Self::long_varint(out, value);
        }
    }

    #[inline(never)]
    fn long_varint(out: &mut Vec<u8>, mut value: u64) {
        while value >= 0x80 {
            out.push(value as u8 | 0x80);
            value >>= 7;
        }
        out.push(value as u8);
    }

    /// A 128-bit varint (postcard's `u128` and `i128`).
    fn varint128(&mut self, mut value: u128) {
        while value >= 0x80 {
            self.0.push(value as u8 | 0x80);
            value >>= 7;
        }
        self.0.push(value as u8);
    }

    #[inline]
    fn length(&mut self, len: Option<usize>) -> Result<(), Error> {
        let len = len.ok_or(Error::SerializeSeqLengthUnknown)?;
        self.varint(len as u64);
        Ok(())
    }
}

/// Zigzag: small magnitudes of either sign get small varints.
#[inline(always)]
fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

impl ser::Serializer for &mut Writer<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn is_human_readable(&self) -> bool {
        false
    }
    #[inline]
    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.0.push(u8::from(v));
        Ok(())
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.0.push(v as u8);
        Ok(())
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.varint(zigzag(v.into()));
        Ok(())
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.varint(zigzag(v.into()));
        Ok(())
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.varint(zigzag(v));
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.varint128(((v << 1) ^ (v >> 127)) as u128);
        Ok(())
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.0.push(v);
        Ok(())
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.varint(v.into());
        Ok(())
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.varint(v.into());
        Ok(())
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.varint(v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.varint128(v);
        Ok(())
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.0.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.0.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.serialize_bytes(v.as_bytes())
    }
    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.varint(v.len() as u64);
        self.0.extend_from_slice(v);
        Ok(())
    }
    #[inline]
    fn serialize_none(self) -> Result<(), Error> {
        self.0.push(0);
        Ok(())
    }
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        self.0.push(1);
        value.serialize(self)
    }
    #[inline]
    fn serialize_unit(self) -> Result<(), Error> {
        Ok(())
    }
    #[inline]
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        Ok(())
    }
    #[inline]
    fn serialize_unit_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
    ) -> Result<(), Error> {
        self.varint(index.into());
        Ok(())
    }
    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    #[inline]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.varint(index.into());
        value.serialize(self)
    }
    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, Error> {
        self.length(len)?;
        Ok(self)
    }
    #[inline]
    fn serialize_tuple(self, _: usize) -> Result<Self, Error> {
        Ok(self)
    }
    #[inline]
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Error> {
        Ok(self)
    }
    #[inline]
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Error> {
        self.varint(index.into());
        Ok(self)
    }
    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Self, Error> {
        self.length(len)?;
        Ok(self)
    }
    #[inline]
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Error> {
        Ok(self)
    }
    #[inline]
    fn serialize_struct_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Error> {
        self.varint(index.into());
        Ok(self)
    }
    fn collect_str<T: ?Sized + std::fmt::Display>(self, value: &T) -> Result<(), Error> {
        // The length comes first: format once, then write. A `Display` that fails is an
        // error, as in postcard (`to_string` would panic).
        use std::fmt::Write as _;
        let mut text = String::new();
        write!(text, "{value}").map_err(|_| Error::CollectStrError)?;
        self.serialize_str(&text)
    }
}

/// Every compound writes its parts one after the other, with nothing around them.
macro_rules! parts {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for &mut Writer<'_> {
            type Ok = ();
            type Error = Error;
            #[inline]
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
                value.serialize(&mut **self)
            }
            #[inline]
            fn end(self) -> Result<(), Error> {
                Ok(())
            }
        }
    )*};
}
parts!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

macro_rules! named_parts {
    ($($trait:ident),*) => {$(
        impl ser::$trait for &mut Writer<'_> {
            type Ok = ();
            type Error = Error;
            #[inline]
            fn serialize_field<T: ?Sized + Serialize>(
                &mut self,
                _: &'static str,
                value: &T,
            ) -> Result<(), Error> {
                value.serialize(&mut **self)
            }
            #[inline]
            fn end(self) -> Result<(), Error> {
                Ok(())
            }
        }
    )*};
}
named_parts!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for &mut Writer<'_> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Error> {
        key.serialize(&mut **self)
    }
    #[inline]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut **self)
    }
    #[inline]
    fn end(self) -> Result<(), Error> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::BTreeMap;

    fn ours<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
        let mut out = vec![0xAA]; // appended after what is there
        value.serialize(&mut Writer(&mut out)).unwrap();
        out.remove(0);
        out
    }

    fn theirs<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
        postcard::to_allocvec(value).unwrap()
    }

    #[track_caller]
    fn same<T: Serialize + ?Sized>(value: &T) {
        assert_eq!(ours(value), theirs(value));
    }

    #[derive(Serialize)]
    enum Shape {
        Unit,
        Newtype(i32),
        Tuple(u8, String),
        Struct { a: Option<u64>, b: Vec<i16> },
    }

    #[derive(Serialize)]
    struct Every {
        b: bool,
        c: char,
        i8: i8,
        f32: f32,
        f64: f64,
        i128: i128,
        u128: u128,
        unit: (),
        text: String,
        none: Option<u8>,
        shapes: Vec<Shape>,
        map: BTreeMap<String, u32>,
        tuple: (u16, i64),
    }

    /// The varint widths at their edges, both signs, as postcard writes them: one byte
    /// below 2^7, two below 2^14, three below 2^21, and so on to ten for `u64::MAX`.
    #[test]
    fn varints_are_postcards_at_every_width() {
        assert_eq!(ours(&127u32), [0x7f]);
        assert_eq!(ours(&128u32), [0x80, 0x01]);
        assert_eq!(ours(&300u32), [0xac, 0x02]);
        assert_eq!(ours(&16_384u32), [0x80, 0x80, 0x01]);
        assert_eq!(ours(&-1i32), [0x01]);
        assert_eq!(ours(&1i32), [0x02]);
        for shift in 0..64 {
            for delta in [-1i128, 0, 1] {
                let v = ((1i128 << shift) + delta).clamp(0, u64::MAX as i128) as u64;
                same(&v);
                same(&(v as u32));
                same(&(v as u16));
                same(&(v as i64));
                same(&(v as i32));
                same(&(v as i16));
                same(&(v as i64).wrapping_neg());
            }
        }
        same(&u64::MAX);
        same(&i64::MIN);
        same(&u128::MAX);
        same(&i128::MIN);
    }

    #[test]
    fn every_shape_is_written_as_postcard_writes_it() {
        let every = Every {
            b: true,
            c: 'é',
            i8: -5,
            f32: -0.5,
            f64: f64::NAN,
            i128: -300,
            u128: 1 << 100,
            unit: (),
            text: "naïve ∑".into(),
            none: None,
            shapes: vec![
                Shape::Unit,
                Shape::Newtype(-70_000),
                Shape::Tuple(255, String::new()),
                Shape::Struct {
                    a: Some(1 << 40),
                    b: vec![i16::MIN, 0, i16::MAX],
                },
            ],
            map: [("a".to_string(), 1), ("bb".to_string(), 200)].into(),
            tuple: (65_535, -1),
        };
        same(&every);
        same(&vec![0u8; 200]);
        same("x".repeat(20_000).as_str());
    }

    /// `serialize_bytes`, `serialize_newtype_struct` and `collect_str`, which no type
    /// above reaches.
    #[test]
    fn bytes_newtypes_and_collected_strings_are_postcards() {
        struct Bytes<'a>(&'a [u8]);
        impl Serialize for Bytes<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(self.0)
            }
        }
        #[derive(Serialize)]
        struct Meters(u32);
        struct Shown(f64);
        impl Serialize for Shown {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(&format_args!("{:.2} m", self.0))
            }
        }
        same(&Bytes(&[1, 2, 0xff]));
        same(&Bytes(&[0; 300]));
        same(&Meters(300));
        same(&Shown(1.5));
        assert_eq!(ours(&Shown(1.5)), b"\x061.50 m");
    }

    #[test]
    fn what_postcard_refuses_is_an_error_here_too() {
        // A sequence whose length is not known up front (postcard writes the count first).
        struct Unsized;
        impl Serialize for Unsized {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeSeq;
                let mut seq = s.serialize_seq(None)?;
                seq.serialize_element(&1u8)?;
                seq.end()
            }
        }
        // A `Display` that fails.
        struct Broken;
        impl std::fmt::Display for Broken {
            fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                Err(std::fmt::Error)
            }
        }
        struct Collected;
        impl Serialize for Collected {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(&Broken)
            }
        }
        let mut out = Vec::new();
        assert!(matches!(
            Unsized.serialize(&mut Writer(&mut out)),
            Err(Error::SerializeSeqLengthUnknown)
        ));
        assert!(postcard::to_allocvec(&Unsized).is_err());
        assert!(matches!(
            Collected.serialize(&mut Writer(&mut out)),
            Err(Error::CollectStrError)
        ));
        assert!(postcard::to_allocvec(&Collected).is_err());
    }
}
