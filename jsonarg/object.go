package jsonarg

import (
	"strconv"
	"strings"
)

// Fields describes the fields of a JSON object as a generated decoder reads
// them: their names in the order of the schema, and which are required.
// Generated code keeps one per object type as static data.
type Fields struct {
	// Names are the JSON names of the fields; a field is known by its
	// index in Names.
	Names []string
	// Required lists the indexes of the required fields, ascending.
	Required []int
	// Match holds the pattern of each field read by StringMatching, and
	// OneOf the values of each read by StringOneOf, by index; nil for the
	// others. They are static data, apart from the Readers, which a
	// decoder makes for each call.
	Match []*Pattern
	OneOf [][]string
}

// known returns the field names quoted and separated by commas, for the
// message of an unknown key.
func (fs *Fields) known() string {
	var b strings.Builder
	for i, n := range fs.Names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(n))
	}
	return b.String()
}

// find returns the index of the field named key, or -1.
func (fs *Fields) find(key []byte) int {
	for i, n := range fs.Names {
		if string(key) == n {
			return i
		}
	}
	return -1
}

// Args reads a whole arguments text: one object with the fields fs, as
// Object does, and nothing after it but white space.
func (d *Decoder) Args(fs *Fields, read []Reader) error {
	if err := d.Object(fs, read); err != nil {
		return err
	}
	return d.End()
}

// Object reads an object with the fields fs. For the key of field k it
// reads the value with read[k]; read has a Reader for each field, in the
// order of fs.Names. An error of a Reader is located at the field's name.
// A key that names no field, a field given twice and a required field left
// out are errors.
func (d *Decoder) Object(fs *Fields, read []Reader) error {
	if len(read) != len(fs.Names) {
		return Errorf("jsonarg: %d readers for the %d fields of the object", len(read), len(fs.Names))
	}
	if err := d.ObjectStart(); err != nil {
		return err
	}
	// seen marks the fields read: a bit each for up to 64 fields, a
	// slice beyond.
	var seen uint64
	var seenMore []bool
	if len(fs.Names) > 64 {
		seenMore = make([]bool, len(fs.Names))
	}
	for {
		key, more, err := d.NextField()
		if err != nil {
			return err
		}
		if !more {
			break
		}
		k := fs.find(key)
		if k < 0 {
			return Unknown(key, fs.known())
		}
		if seenMore != nil {
			if seenMore[k] {
				return Duplicate(fs.Names[k])
			}
			seenMore[k] = true
		} else {
			if seen&(1<<k) != 0 {
				return Duplicate(fs.Names[k])
			}
			seen |= 1 << k
		}
		if err := read[k].read(d, fs, k); err != nil {
			return At(err, fs.Names[k])
		}
	}
	for _, k := range fs.Required {
		if seenMore != nil && !seenMore[k] || seenMore == nil && seen&(1<<k) == 0 {
			return Missing(fs.Names[k])
		}
	}
	return nil
}

// Array reads an array of between minItems and maxItems elements (-1: no
// bound), calling item with the index of each element to read it; an
// error item returns is located at the index. The elements past maxItems
// are skipped, their syntax checked, and counted for the message: item
// is not called for them, so that a list far over its bound is not
// decoded, and its values kept, before it is refused.
func (d *Decoder) Array(minItems, maxItems int, item func(i int) error) error {
	if err := d.ArrayStart(); err != nil {
		return err
	}
	n := 0
	for ; ; n++ {
		more, err := d.NextItem()
		if err != nil {
			return err
		}
		if !more {
			break
		}
		if maxItems >= 0 && n >= maxItems {
			if _, _, err := d.Skip(); err != nil {
				return err
			}
			continue
		}
		if err := item(n); err != nil {
			return At(err, n)
		}
	}
	if minItems >= 0 && n < minItems {
		return Errorf("expected at least %s, got %d", plural(minItems, "item"), n)
	}
	if maxItems >= 0 && n > maxItems {
		return Errorf("expected at most %s, got %d", plural(maxItems, "item"), n)
	}
	return nil
}

// plural writes n and word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
