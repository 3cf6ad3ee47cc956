package jsonarg

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestValidAgreesWithEncodingJSON checks Valid (and so Skip) against
// encoding/json on valid and invalid texts; and that nesting past
// encoding/json's limit is no trouble.
func TestValidAgreesWithEncodingJSON(t *testing.T) {
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000) // encoding/json's limit
	for _, s := range []string{
		``, ` `, `1`, `-0.5e3`, `01`, `-`, `1.`, `"a"`, `"\u00e9\n"`, `"\x"`, `"unterminated`,
		`true`, `tru`, `truex`, `nul`, `null`, `false `, `{}`, `[]`, `{"a":1}`, `{"a":1,}`, `[1,]`,
		`{"a" 1}`, `{1:2}`, `[1 2]`, `{"a":[{"b":"c"}],"d":{"e":null}}`, `{"a":1}}`, `[[]`, `]`,
		" \t{\"a\" : [ 1 , 2 ] }\r\n", deep, "\"\xff\"", "\"\x01\"",
	} {
		if got, want := Valid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("Valid(%.40q) = %v, encoding/json says %v", s, got, want)
		}
	}
}

func TestValidDeep(t *testing.T) {
	deep := strings.Repeat(`{"a":[`, 500000) + strings.Repeat("]}", 500000)
	if !Valid([]byte(deep)) {
		t.Error("Valid refuses a deeply nested value")
	}
	if Valid([]byte(deep[:len(deep)-1])) {
		t.Error("Valid accepts a deeply nested value that is not closed")
	}
}

func TestSkip(t *testing.T) {
	in := []byte(`{"a": [1, {"b": "x"}] , "c" :true,"d":"\"}"}`)
	d := NewDecoder(in)
	if err := d.ObjectStart(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		key, ok, err := d.NextField()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		k := string(key)
		start, end, err := d.Skip()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, k+"="+string(in[start:end]))
	}
	want := []string{`a=[1, {"b": "x"}]`, `c=true`, `d="\"}"`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("members %q, want %q", got, want)
	}
	if err := d.End(); err != nil {
		t.Errorf("End: %v", err)
	}
}

func FuzzValid(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":null}]}`, `"x\u0041"`, `-1e5`, `[`, `{"a"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 20000 {
			return // could nest deeper than encoding/json allows
		}
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Errorf("Valid(%q) = %v, encoding/json says %v", data, got, want)
		}
	})
}
