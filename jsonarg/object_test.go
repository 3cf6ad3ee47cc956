package jsonarg

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// span and query are what a generated decoder would read: an object with
// a required string, an optional list and an optional nested object.
type span struct {
	From string
	Days uint16
}

type query struct {
	Text   string
	Labels []string
	Span   *span
}

var (
	queryFields = Fields{Names: []string{"text", "labels", "span"}, Required: []int{0}}
	spanFields  = Fields{Names: []string{"from", "days"}, Required: []int{0}}
)

// decodeQuery is the decoder toolgen writes for query, by hand.
func decodeQuery(data []byte, v *query) error {
	d := NewDecoder(data)
	return d.Args(&queryFields, []Reader{
		String(&v.Text, 1, -1),
		ReadFunc(func() error {
			v.Labels = []string{}
			return d.Array(1, 2, func(i int) error {
				v.Labels = append(v.Labels, "")
				return SetString(&d, &v.Labels[i], -1, 3)
			})
		}),
		ReadFunc(func() error {
			v.Span = new(span)
			return d.Object(&spanFields, []Reader{
				String(&v.Span.From, -1, -1),
				Uint(&v.Span.Days, 0, 366),
			})
		}),
	})
}

func TestObject(t *testing.T) {
	cases := []struct {
		in      string
		want    *query
		wantErr string
	}{
		{in: `{"text":"a"}`, want: &query{Text: "a"}},
		{in: ` {"text" : "a" } `, want: &query{Text: "a"}},
		{in: `{"text":"a","labels":["x"],"span":{"from":"mon","days":366}}`,
			want: &query{Text: "a", Labels: []string{"x"}, Span: &span{From: "mon", Days: 366}}},
		{in: `{"labels":["x","y"],"text":"a"}`, want: &query{Text: "a", Labels: []string{"x", "y"}}},
		{in: `{}`, wantErr: `field "text": required, but missing`},
		{in: `{"labels":["x"]}`, wantErr: `field "text": required, but missing`},
		{in: `{"text":"a","text":"b"}`, wantErr: `field "text": given more than once`},
		{in: `{"text":"a","span":{"from":"x"},"span":{"from":"y"}}`, wantErr: `field "span": given more than once`},
		{in: `{"text":"a","Text":"b"}`, wantErr: `field "Text": unknown field; expected one of "text", "labels", "span"`},
		{in: `{"text":""}`, wantErr: `field "text": expected a string of at least 1 character, got 0`},
		{in: `{"text":"a","labels":[]}`, wantErr: `field "labels": expected at least 1 item, got 0`},
		{in: `{"text":"a","labels":["x","y","z"]}`, wantErr: `field "labels": expected at most 2 items, got 3`},
		{in: `{"text":"a","labels":["x","long"]}`, wantErr: `field "labels[1]": expected a string of at most 3 characters, got 4`},
		{in: `{"text":"a","labels":"x"}`, wantErr: `field "labels": expected array, got string "x"`},
		{in: `{"text":"a","span":{}}`, wantErr: `field "span.from": required, but missing`},
		{in: `{"text":"a","span":{"from":"x","days":367}}`, wantErr: `field "span.days": expected integer of at most 366, got 367`},
		{in: `{"text":"a","span":{"from":"x","to":1}}`, wantErr: `field "span.to": unknown field; expected one of "from", "days"`},
		{in: `{"text":"a","span":{"from":"x","from":"y"}}`, wantErr: `field "span.from": given more than once`},
		{in: `{"text":"a","span":[]}`, wantErr: `field "span": expected object, got array`},
		{in: `[]`, wantErr: `expected object, got array`},
		{in: `{"text":"a"} {}`, wantErr: `invalid JSON at offset 13: unexpected data after the arguments object`},
		{in: `{"text":"a",}`, wantErr: `invalid JSON at offset 12: expected a string key`},
		{in: `{"text":"a","labels":["x",]}`, wantErr: `field "labels[1]": expected string, got invalid character ']'`},
	}
	for _, c := range cases {
		var got query
		err := decodeQuery([]byte(c.in), &got)
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("%s: error %v, want %q", c.in, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if diff := cmp.Diff(c.want, &got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.in, diff)
		}
	}
}

// TestObjectManyFields checks duplicate and missing fields of objects at
// 64 fields (one bit each) and past it (a slice).
func TestObjectManyFields(t *testing.T) {
	for _, n := range []int{63, 64, 65, 130} {
		fs := Fields{Required: []int{0, n - 1}}
		for i := range n {
			fs.Names = append(fs.Names, fmt.Sprintf("f%d", i))
		}
		read := func(in string) ([]int, error) {
			d := NewDecoder([]byte(in))
			var got []int
			read := make([]Reader, n)
			for k := range read {
				read[k] = ReadFunc(func() error {
					got = append(got, k)
					_, err := d.Int(64)
					return err
				})
			}
			err := d.Args(&fs, read)
			return got, err
		}
		var all []string
		for i := range n {
			all = append(all, fmt.Sprintf(`"f%d":%d`, i, i))
		}
		got, err := read("{" + strings.Join(all, ",") + "}")
		if err != nil {
			t.Fatalf("%d fields: %v", n, err)
		}
		if len(got) != n || got[n-1] != n-1 {
			t.Errorf("%d fields: read %v", n, got)
		}
		last := fmt.Sprintf("f%d", n-1)
		for _, c := range []struct{ in, want string }{
			{fmt.Sprintf(`{"f0":0,"%s":1,"%s":2}`, last, last), fmt.Sprintf(`field %q: given more than once`, last)},
			{fmt.Sprintf(`{"f0":0,"f%d":1,"f%d":2}`, n-2, n-2), fmt.Sprintf(`field "f%d": given more than once`, n-2)},
			{`{"f0":0}`, fmt.Sprintf(`field %q: required, but missing`, last)},
			{fmt.Sprintf(`{"%s":0}`, last), `field "f0": required, but missing`},
			{fmt.Sprintf(`{"f0":0,"%s":0,"f%d":0}`, last, n), fmt.Sprintf(`field "f%d": unknown field; expected one of`, n)},
		} {
			_, err := read(c.in)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("%d fields, %s: error %v, want %q", n, c.in, err, c.want)
			}
		}
	}
}

// TestObjectNoFields checks an object that takes none.
func TestObjectNoFields(t *testing.T) {
	var fs Fields
	for _, c := range []struct{ in, want string }{
		{`{}`, ""},
		{`{"a":1}`, `field "a": unknown field; this object takes no fields`},
	} {
		d := NewDecoder([]byte(c.in))
		err := d.Args(&fs, nil)
		if got := fmt.Sprint(err); c.want != "" && got != c.want || c.want == "" && err != nil {
			t.Errorf("%s: error %v, want %q", c.in, err, c.want)
		}
	}
}

// TestArrayBounds checks the item counts at, below and past each bound,
// and bounds left out.
func TestArrayBounds(t *testing.T) {
	items := func(n int) string { return "[" + strings.TrimSuffix(strings.Repeat("0,", n), ",") + "]" }
	for _, c := range []struct {
		min, max, n int
		want        string
	}{
		{2, 3, 1, "expected at least 2 items, got 1"},
		{2, 3, 2, ""},
		{2, 3, 3, ""},
		{2, 3, 4, "expected at most 3 items, got 4"},
		{1, -1, 0, "expected at least 1 item, got 0"},
		{1, -1, 1, ""},
		{-1, 1, 0, ""},
		{-1, 1, 1, ""},
		{-1, 1, 2, "expected at most 1 item, got 2"},
		{-1, 0, 0, ""},
		{-1, 0, 1, "expected at most 0 items, got 1"},
		{-1, -1, 50, ""},
		{0, -1, 0, ""},
	} {
		d := NewDecoder([]byte(items(c.n)))
		seen := 0
		err := d.Array(c.min, c.max, func(i int) error {
			if i != seen {
				t.Errorf("item %d called as %d", seen, i)
			}
			seen++
			_, err := d.Int(64)
			return err
		})
		if got := fmt.Sprint(err); c.want != "" && got != c.want || c.want == "" && err != nil {
			t.Errorf("Array(%d, %d) of %d items: error %v, want %q", c.min, c.max, c.n, err, c.want)
		}
		// The items past maxItems are counted, not read: a list of many
		// small items into a large struct, refused by its bound, was read
		// whole first (416 MB for 1 MiB of {} into a struct of 16 strings).
		want := c.n
		if c.max >= 0 {
			want = min(c.n, c.max)
		}
		if seen != want {
			t.Errorf("Array(%d, %d) of %d items: read %d, want %d", c.min, c.max, c.n, seen, want)
		}
	}
	// Past maxItems, the syntax is still checked.
	d := NewDecoder([]byte(`[0,0,{"a":]`))
	err := d.Array(-1, 1, func(int) error { _, err := d.Int(64); return err })
	if want := "expected a value, got invalid character ']'"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Array(-1, 1) of bad JSON past the bound: error %v, want %q", err, want)
	}
}

// TestObjectDecodeAllocations checks that a generated-style decoder of an
// object with a nested object and a list allocates only for the values it
// keeps: the list's backing array and the nested struct.
func TestObjectDecodeAllocations(t *testing.T) {
	data := []byte(`{"text":"ab","span":{"from":"mon","days":3}}`)
	n := testing.AllocsPerRun(100, func() {
		var v query
		if err := decodeQuery(data, &v); err != nil {
			t.Fatal(err)
		}
	})
	// "ab", "mon" and the span.
	if n != 3 {
		t.Errorf("decodeQuery: %v allocations, want 3", n)
	}
}
