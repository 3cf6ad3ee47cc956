package jsonarg

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/toolreg/toolreg/internal/clip"
)

// Map reads an object of any keys, the value of a map[string]T field,
// calling entry with each key to read its value; an error entry returns is
// located at the key. A key given twice is refused, as in any object.
func (d *Decoder) Map(entry func(key string) error) error {
	if err := d.ObjectStart(); err != nil {
		return err
	}
	// seen holds the keys read: a set, so that a map of many keys, in
	// whatever order, is checked in time linear in their number (a sorted
	// slice took a copy of it for each key sent in descending order).
	var seen map[string]struct{}
	for {
		key, more, err := d.NextField()
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
		k := string(key)
		if _, found := seen[k]; found {
			return Duplicate(clip.String(k, maxShown))
		}
		if seen == nil {
			seen = map[string]struct{}{}
		}
		seen[k] = struct{}{}
		if err := entry(k); err != nil {
			return At(err, clip.String(k, maxShown))
		}
	}
}

// SetAny reads any JSON value, null included, into p as encoding/json
// reads it into an interface value: an object as map[string]any, an array
// as []any, a number as float64.
func SetAny(d *Decoder, p *any) error {
	start, end, err := d.Skip()
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(d.data[start:end], &v); err != nil {
		return Errorf("expected a JSON value: %v", err) // Skip has checked it
	}
	*p = v
	return nil
}

// SetRaw reads any JSON value, null included, into p as its text, a copy
// of the bytes sent. A value nested more deeply than encoding/json reads
// (10,000 arrays and objects) is refused, as json.Unmarshal refuses it.
func SetRaw[T ~[]byte](d *Decoder, p *T) error {
	start, end, err := d.skip(rawMaxDepth)
	if err != nil {
		return err
	}
	*p = T(slices.Clone(d.data[start:end]))
	return nil
}

// Quoted reads a string that holds a number or a boolean, the value of a
// field tagged json:",string" as encoding/json reads it ("42" for 42),
// and reads that value from the string's text with read. The text must
// be the value alone, without spaces.
func Quoted(d *Decoder, read func(*Decoder) error) error {
	if d.peek() != '"' {
		return d.mismatch(`a string that holds the value, such as "42"`)
	}
	s, err := d.String()
	if err != nil {
		return err
	}
	if s == "" || strings.TrimSpace(s) != s {
		return Errorf(`expected a string that holds the value alone, such as "42", got %q`, clip.String(s, maxShown))
	}
	// The value is read from s where it is, by d itself, which then
	// goes on after the string: a decoder of its own would be one more
	// allocation.
	outer := *d
	*d = NewStringDecoder(s)
	err = read(d)
	trailing := err == nil && d.End() != nil
	*d = outer
	if err != nil {
		var e *Error
		if errors.As(err, &e) && !e.syntax {
			return Errorf("%s, in the string %q", e.Msg, clip.String(s, maxShown))
		}
		return Errorf(`expected a string that holds the value alone, such as "42", got %q`, clip.String(s, maxShown))
	}
	if trailing {
		return Errorf(`expected a string that holds the value alone, such as "42", got %q`, clip.String(s, maxShown))
	}
	return nil
}
