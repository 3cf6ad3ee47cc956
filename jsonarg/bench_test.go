package jsonarg

import (
	"encoding/json"
	"strings"
	"testing"
)

// weatherArgs has the shape of the dispatch benchmark's tool: a required
// string, a bounded integer and an enum.
type weatherArgs struct {
	City  string `json:"city"`
	Days  int    `json:"days,omitempty"`
	Units string `json:"units,omitempty"`
}

// decodeWeather is what toolgen emits for weatherArgs, written out by hand.
func decodeWeather(data []byte, v *weatherArgs) error {
	d := NewDecoder(data)
	if err := d.ObjectStart(); err != nil {
		return err
	}
	var seen [3]bool
	for {
		key, more, err := d.NextField()
		if err != nil {
			return err
		}
		if !more {
			break
		}
		switch string(key) {
		case "city":
			if seen[0] {
				return Duplicate("city")
			}
			seen[0] = true
			x, err := d.String()
			if err != nil {
				return At(err, "city")
			}
			v.City = x
		case "days":
			if seen[1] {
				return Duplicate("days")
			}
			seen[1] = true
			x, err := d.Int(64)
			if err != nil {
				return At(err, "days")
			}
			if x < 1 || x > 16 {
				return At(Errorf("expected integer from 1 to 16, got %v", x), "days")
			}
			v.Days = int(x)
		case "units":
			if seen[2] {
				return Duplicate("units")
			}
			seen[2] = true
			b, err := d.StringBytes()
			if err != nil {
				return At(err, "units")
			}
			var x string
			switch string(b) {
			case "celsius":
				x = "celsius"
			case "fahrenheit":
				x = "fahrenheit"
			default:
				return At(Errorf("expected one of \"celsius\", \"fahrenheit\", got %q", b), "units")
			}
			v.Units = x
		default:
			return Unknown(key, `"city", "days", "units"`)
		}
	}
	if !seen[0] {
		return Missing("city")
	}
	return d.End()
}

// textArgs is one long string, as word_count or a file writer takes.
type textArgs struct {
	Text string `json:"text"`
}

func decodeText(data []byte, v *textArgs) error {
	d := NewDecoder(data)
	if err := d.ObjectStart(); err != nil {
		return err
	}
	for {
		key, more, err := d.NextField()
		if err != nil {
			return err
		}
		if !more {
			break
		}
		if string(key) != "text" {
			return Unknown(key, `"text"`)
		}
		if v.Text, err = d.String(); err != nil {
			return At(err, "text")
		}
	}
	return d.End()
}

var (
	prose      = strings.Repeat("The quick brown fox jumps over the lazy dog, again and again. ", 64)
	benchCases = []struct {
		name string
		data string
	}{
		{"weather", `{"city":"Berlin","days":3,"units":"celsius"}`},
		{"weather-spaced", "{\n  \"city\": \"Berlin\",\n  \"days\": 3,\n  \"units\": \"celsius\"\n}"},
		{"text-4KB", `{"text":"` + prose + `"}`},
		{"text-escaped", `{"text":"` + strings.Repeat(`line\tone\nline \"two\" \u00e9\u00e8 `, 100) + `"}`},
	}
)

// BenchmarkDecode compares a Decoder, driven as generated code drives it,
// with encoding/json decoding the same text into the same struct (which
// checks less: no strictness, no constraints).
func BenchmarkDecode(b *testing.B) {
	for _, c := range benchCases {
		data := []byte(c.data)
		var jsonarg, std func() error
		switch {
		case strings.HasPrefix(c.name, "weather"):
			jsonarg = func() error { var v weatherArgs; return decodeWeather(data, &v) }
			std = func() error { var v weatherArgs; return json.Unmarshal(data, &v) }
		case strings.HasPrefix(c.name, "text"):
			jsonarg = func() error { var v textArgs; return decodeText(data, &v) }
			std = func() error { var v textArgs; return json.Unmarshal(data, &v) }
		}
		for _, impl := range []struct {
			name string
			f    func() error
		}{{"jsonarg", jsonarg}, {"encoding-json", std}} {
			b.Run(c.name+"/"+impl.name, func(b *testing.B) {
				if err := impl.f(); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					impl.f()
				}
			})
		}
	}
}

// BenchmarkNumber reads one number of each kind.
func BenchmarkNumber(b *testing.B) {
	for _, c := range []struct {
		name, lit string
		read      func(data []byte) error
	}{
		{"int", "1234567", func(data []byte) error { d := NewDecoder(data); _, err := d.Int(64); return err }},
		{"int-exp", "1.5e3", func(data []byte) error { d := NewDecoder(data); _, err := d.Int(64); return err }},
		{"uint8", "200", func(data []byte) error { d := NewDecoder(data); _, err := d.Uint(8); return err }},
		{"float", "-12.375e-2", func(data []byte) error { d := NewDecoder(data); _, err := d.Float(64); return err }},
	} {
		data := []byte(c.lit)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.read(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
