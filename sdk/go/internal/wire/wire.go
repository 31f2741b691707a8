// Package wire holds the JSON helpers the generated types.go files of the mode packages
// call: serde's externally tagged form of an enum with data, and JSON written as
// serde_json writes it. It is internal: bots use the mode packages' types, not this.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// OneSet fails unless exactly one of the variants of the enum what (e.g. "battle.Action")
// is set.
func OneSet(what string, set ...bool) error {
	n := 0
	for _, s := range set {
		if s {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("%s: %d variants set, want 1", what, n)
	}
	return nil
}

// MarshalVariant writes a variant with data: {"name":data}.
func MarshalVariant(name string, data any) ([]byte, error) {
	body, err := MarshalPlain(data)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(name)+len(body)+5)
	out = append(append(append(out, `{"`...), name...), `":`...)
	return append(append(out, body...), '}'), nil
}

// UnmarshalVariant reads a variant of the enum what: "name" (no data) or {"name":data}.
func UnmarshalVariant(what string, data []byte) (string, json.RawMessage, error) {
	name, body, err := unmarshalVariant(data)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", what, err)
	}
	return name, body, nil
}

func unmarshalVariant(data []byte) (string, json.RawMessage, error) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		var name string
		err := json.Unmarshal(data, &name)
		return name, nil, err
	}
	var object map[string]json.RawMessage
	if err := json.Unmarshal(data, &object); err != nil {
		return "", nil, err
	}
	if len(object) != 1 {
		return "", nil, fmt.Errorf("want a variant's name or an object of one key, not %s", data)
	}
	for name, body := range object {
		return name, body, nil
	}
	return "", nil, nil
}

// UnmarshalData reads the data of a variant that has some.
func UnmarshalData(body json.RawMessage, into any) error {
	if body == nil {
		return errors.New("the variant needs its data")
	}
	return json.Unmarshal(body, into)
}

// UnknownVariant is the error for a variant name the enum what does not have.
func UnknownVariant(what, name string) error {
	return fmt.Errorf("%s: unknown variant %q", what, name)
}

// MarshalPlain writes JSON as serde_json does: no HTML escapes, no newline.
func MarshalPlain(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// MarshalUint8s writes the numbers as a JSON array, as serde writes a Vec<u8>
// (encoding/json would write a []byte as a base64 string).
func MarshalUint8s(s []uint8) []byte {
	out := append(make([]byte, 0, 2+4*len(s)), '[')
	for i, v := range s {
		if i > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendUint(out, uint64(v), 10)
	}
	return append(out, ']')
}

// EqualPtr compares two optional values.
func EqualPtr[T comparable](x, y *T) bool {
	return x == y || x != nil && y != nil && *x == *y
}

// EqualBy compares two optional values with their Equal method.
func EqualBy[T any](x, y *T, equal func(T, T) bool) bool {
	return x == y || x != nil && y != nil && equal(*x, *y)
}
