package jsonarg

import (
	"encoding/json"
	"slices"

	"github.com/toolreg/toolreg/internal/clip"
)

// Map reads an object of any keys, the value of a map[string]T field,
// calling entry with each key to read its value; an error entry returns is
// located at the key. A key given twice is refused, as in any object.
func (d *Decoder) Map(entry func(key string) error) error {
	if err := d.ObjectStart(); err != nil {
		return err
	}
	var seen []string
	for {
		key, more, err := d.NextField()
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
		k := string(key)
		i, found := slices.BinarySearch(seen, k)
		if found {
			return Duplicate(clip.String(k, maxShown))
		}
		seen = slices.Insert(seen, i, k)
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
// of the bytes sent.
func SetRaw[T ~[]byte](d *Decoder, p *T) error {
	start, end, err := d.Skip()
	if err != nil {
		return err
	}
	*p = T(slices.Clone(d.data[start:end]))
	return nil
}
