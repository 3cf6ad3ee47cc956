package jsonarg

// Skip reads the next value, whatever it is, checking its syntax as the
// other methods do, and returns the offsets in the input where it begins
// and ends. Nesting is followed without recursion, so any depth is safe.
// The registry's argument repair uses it to find the members of an object
// and the elements of an array.
func (d *Decoder) Skip() (start, end int, err error) {
	return d.skip(0)
}

// rawMaxDepth is the deepest nesting of arrays and objects encoding/json
// reads (its scanner's maxNestingDepth): SetRaw refuses a value nested
// deeper, which json.Unmarshal and json.Marshal of the json.RawMessage
// would refuse.
const rawMaxDepth = 10000

// skip is Skip with at most limit arrays and objects open at once, any
// number when limit is 0.
func (d *Decoder) skip(limit int) (start, end int, err error) {
	d.skipSpace()
	start = d.pos
	var open []byte // the containers entered, innermost last: '{' or '['
	for {
		switch c := d.peek(); c {
		case '{', '[':
			if limit > 0 && len(open) == limit {
				return 0, 0, Errorf("expected a JSON value nested at most %d levels deep, as encoding/json reads it: send a shallower value", limit)
			}
			d.pos++
			d.first = true
			open = append(open, c)
		case '"':
			if err := d.skipString(); err != nil {
				return 0, 0, err
			}
		case 't', 'f', 'n':
			if !d.literal("true") && !d.literal("false") && !d.literal("null") {
				return 0, 0, d.syntax("invalid literal")
			}
		default:
			if _, _, err := d.number("a value"); err != nil {
				return 0, 0, err
			}
		}
		// Move on to the next value, closing the containers that end.
		for len(open) > 0 {
			var more bool
			if open[len(open)-1] == '{' {
				_, more, err = d.NextField()
			} else {
				more, err = d.NextItem()
			}
			if err != nil {
				return 0, 0, err
			}
			if more {
				break
			}
			open = open[:len(open)-1]
		}
		if len(open) == 0 {
			return start, d.pos, nil
		}
	}
}

// Valid reports whether data is one JSON value, with white space around it
// allowed, as encoding/json's Valid does; unlike it, Valid sets no limit to
// the nesting.
func Valid(data []byte) bool {
	d := NewDecoder(data)
	if _, _, err := d.Skip(); err != nil {
		return false
	}
	return d.End() == nil
}
