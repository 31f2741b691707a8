package wire

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// The binary encoding (docs/abi.md, "Encodings"): postcard's wire format of the SDK
// types. The generated DecodeBinary and EncodeBinary methods of the mode packages' types
// call the primitives below.

// Decoder is a type the binary encoding can read (every type of a request).
type Decoder interface {
	DecodeBinary(r *Reader)
}

// Encoder is a type the binary encoding can write (every type of an answer).
type Encoder interface {
	EncodeBinary(w *Writer)
}

var (
	errEnd    = errors.New("the request ends too soon")
	errVarint = errors.New("a varint does not fit its type")
	errBool   = errors.New("a bool is neither 0 nor 1")
	errUTF8   = errors.New("a string is not UTF-8")
	errCount  = errors.New("a count exceeds the bytes left")
)

// Reader reads values from a binary request. The first error sticks: every later read
// returns a zero value, and Err tells the error. It never panics and never allocates more
// than the bytes left can hold.
type Reader struct {
	data []byte
	err  error
}

// NewReader reads data.
func NewReader(data []byte) *Reader {
	return &Reader{data: data}
}

// Err is the first error met, if any.
func (r *Reader) Err() error {
	return r.err
}

// Left is the number of bytes not read yet.
func (r *Reader) Left() int {
	return len(r.data)
}

// Fail records err unless an error was met before.
func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = err
		r.data = nil
	}
}

// Unknown fails on a variant index the enum what does not have.
func (r *Reader) Unknown(what string, index uint32) {
	r.Fail(fmt.Errorf("%s: unknown variant %d", what, index))
}

// Finish fails if bytes are left after the last value, and returns the error met.
func (r *Reader) Finish() error {
	if r.err == nil && len(r.data) > 0 {
		r.Fail(fmt.Errorf("%d bytes after the request", len(r.data)))
	}
	return r.err
}

// U8 reads one byte.
func (r *Reader) U8() uint8 {
	if len(r.data) == 0 {
		r.Fail(errEnd)
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return b
}

// I8 reads one byte, in two's complement.
func (r *Reader) I8() int8 {
	return int8(r.U8())
}

// Bool reads 0 or 1.
func (r *Reader) Bool() bool {
	b := r.U8()
	if b > 1 {
		r.Fail(errBool)
		return false
	}
	return b == 1
}

// varint reads an unsigned LEB128 of at most size bytes, the last of them at most last.
func (r *Reader) varint(size int, last byte) uint64 {
	var v uint64
	for i := 0; i < size; i++ {
		if len(r.data) == 0 {
			r.Fail(errEnd)
			return 0
		}
		b := r.data[0]
		r.data = r.data[1:]
		if i == size-1 && b > last {
			r.Fail(errVarint)
			return 0
		}
		v |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			return v
		}
	}
	return v
}

// U16 reads a varint.
func (r *Reader) U16() uint16 {
	return uint16(r.varint(3, 0x03))
}

// U32 reads a varint.
func (r *Reader) U32() uint32 {
	return uint32(r.varint(5, 0x0f))
}

// U64 reads a varint.
func (r *Reader) U64() uint64 {
	return r.varint(10, 0x01)
}

// I16 reads a zigzag varint.
func (r *Reader) I16() int16 {
	u := r.U16()
	return int16(u>>1) ^ -int16(u&1)
}

// I32 reads a zigzag varint.
func (r *Reader) I32() int32 {
	u := r.U32()
	return int32(u>>1) ^ -int32(u&1)
}

// I64 reads a zigzag varint.
func (r *Reader) I64() int64 {
	u := r.U64()
	return int64(u>>1) ^ -int64(u&1)
}

// Variant reads an enum's variant index.
func (r *Reader) Variant() uint32 {
	return r.U32()
}

// Option reads the tag of an option: whether a value follows.
func (r *Reader) Option() bool {
	switch r.U8() {
	case 0:
		return false
	case 1:
		return true
	}
	r.Fail(errors.New("an option's tag is neither 0 nor 1"))
	return false
}

// Len reads the count of a sequence whose items take at least a byte each: a count above
// the bytes left is an error (and 0), so a slice made of it is never larger than the
// request.
func (r *Reader) Len() int {
	n := r.U32()
	if uint64(n) > uint64(len(r.data)) {
		r.Fail(errCount)
		return 0
	}
	return int(n)
}

// String reads a length and that many bytes of UTF-8, copied out of the request.
func (r *Reader) String() string {
	n := r.Len()
	b := r.data[:n]
	if !utf8.Valid(b) {
		r.Fail(errUTF8)
		return ""
	}
	r.data = r.data[n:]
	return string(b)
}

// Writer writes values of a binary answer after Buf. The first error sticks.
type Writer struct {
	Buf []byte
	Err error
}

// Fail records err unless an error was met before.
func (w *Writer) Fail(err error) {
	if w.Err == nil {
		w.Err = err
	}
}

// Unknown fails on a value the unit enum what does not have.
func (w *Writer) Unknown(what, value string) {
	w.Fail(fmt.Errorf("%s: unknown variant %q", what, value))
}

// U8 writes one byte.
func (w *Writer) U8(v uint8) {
	w.Buf = append(w.Buf, v)
}

// I8 writes one byte, in two's complement.
func (w *Writer) I8(v int8) {
	w.Buf = append(w.Buf, byte(v))
}

// Bool writes 0 or 1.
func (w *Writer) Bool(v bool) {
	if v {
		w.Buf = append(w.Buf, 1)
	} else {
		w.Buf = append(w.Buf, 0)
	}
}

// U64 writes a varint in its shortest form.
func (w *Writer) U64(v uint64) {
	for v >= 0x80 {
		w.Buf = append(w.Buf, byte(v)|0x80)
		v >>= 7
	}
	w.Buf = append(w.Buf, byte(v))
}

// U16 writes a varint.
func (w *Writer) U16(v uint16) {
	w.U64(uint64(v))
}

// U32 writes a varint.
func (w *Writer) U32(v uint32) {
	w.U64(uint64(v))
}

// I16 writes a zigzag varint.
func (w *Writer) I16(v int16) {
	w.U64(uint64(uint16(v<<1 ^ v>>15)))
}

// I32 writes a zigzag varint.
func (w *Writer) I32(v int32) {
	w.U64(uint64(uint32(v<<1 ^ v>>31)))
}

// I64 writes a zigzag varint.
func (w *Writer) I64(v int64) {
	w.U64(uint64(v<<1 ^ v>>63))
}

// Variant writes an enum's variant index.
func (w *Writer) Variant(index uint32) {
	w.U64(uint64(index))
}

// Len writes the count of a sequence.
func (w *Writer) Len(n int) {
	w.U64(uint64(n))
}

// String writes a length and the bytes.
func (w *Writer) String(v string) {
	w.Len(len(v))
	w.Buf = append(w.Buf, v...)
}
