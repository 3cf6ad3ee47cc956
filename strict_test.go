package toolreg

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/internal/strictrules"
	"github.com/toolreg/toolreg/internal/testbox"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/toolbox"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// TestStrictSpecTable checks the strict spec table of this repository's
// tools and of the test tools: one spec per tool, in the registry's order
// and under its name, each marked strict with the entry's strict
// parameters, valid JSON Schema (draft 2020-12, an independent validator)
// that follows the documented rules of strict mode (package strictrules),
// and the plain table left as it was. The test tools' table, which changes
// only with them, is also the golden file testdata/strict/testbox.json
// (go test -run TestStrictSpecTable -update rewrites it).
func TestStrictSpecTable(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reg    *registry.Registry
		golden bool
	}{
		// The toolbox grows with every tool file, so its table is checked
		// against the rules and its own entries, not a file: adding a tool
		// changes no expectation here.
		{"toolbox", Toolbox(), false},
		{"testbox", testbox.Toolbox(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			specs := tc.reg.WithStrict(true).Specs()
			got, err := json.MarshalIndent(specs, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if len(specs) != len(tc.reg.Tools()) {
				t.Errorf("%d strict specs for %d tools", len(specs), len(tc.reg.Tools()))
			}
			golden := filepath.Join("testdata", "strict", tc.name+".json")
			if !tc.golden {
				golden = ""
			}
			if golden != "" {
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(strings.TrimSuffix(string(want), "\n"), string(got)); diff != "" {
					t.Errorf("strict spec table differs from %s (-want +got):\n%s", golden, diff)
				}
			}
			entries := tc.reg.Tools()
			plain := tc.reg.Specs()
			for i, s := range specs {
				e := entries[i]
				if s.Function.Name != e.Name {
					t.Errorf("strict spec %d is named %q, want %q, the registry's tool %d", i, s.Function.Name, e.Name, i)
				}
				if !s.Function.Strict {
					t.Errorf("%s: the strict spec is not marked strict", e.Name)
				}
				if plain[i].Function.Strict {
					t.Errorf("%s: the plain spec is marked strict", e.Name)
				}
				params, _ := s.Function.Parameters.(json.RawMessage)
				if string(params) != e.StrictParameters {
					t.Errorf("%s: the strict spec's parameters are not the entry's StrictParameters", e.Name)
				}
				compileSchema(t, e.Name, e.StrictParameters)
				if problems := strictrules.Check(e.StrictParameters); len(problems) > 0 {
					t.Errorf("%s: the strict schema breaks strict mode's rules:\n%s", e.Name, strings.Join(problems, "\n"))
				}
			}
		})
	}
	// The rules can fail: a plain schema with an optional field and a
	// default breaks them.
	plain := `{"type":"object","properties":{"days":{"type":"integer","default":3}},"additionalProperties":false}`
	if problems := strictrules.Check(plain); len(problems) == 0 {
		t.Errorf("a plain schema with an optional field passes strict mode's rules: %s", plain)
	}
}

// capture is an Executor that records the arguments it is given, as they
// reach the tool's decoder, and runs nothing.
type capture struct{ args string }

func (c *capture) Execute(ctx context.Context, e registry.Entry, args string) (string, error) {
	c.args = args
	return "ok", nil
}

// TestStrictNulls checks how a strict registry reads null: as the field
// left out exactly where the strict schema allows it, so that the
// decoder's default applies; and that the plain registry refuses null as
// before.
func TestStrictNulls(t *testing.T) {
	tests := []struct {
		name, args string
		strict     bool
		want       *toolbox.WeatherArgs // nil: refused
		wantErr    string
	}{
		{name: "nulls for the optional fields", args: `{"city":"Paris","days":null,"units":null}`, strict: true,
			want: &toolbox.WeatherArgs{City: "Paris", Days: 3, Units: "celsius"}},
		{name: "values for the optional fields", args: `{"city":"Paris","days":5,"units":"fahrenheit"}`, strict: true,
			want: &toolbox.WeatherArgs{City: "Paris", Days: 5, Units: "fahrenheit"}},
		{name: "optional fields left out", args: `{"city":"Paris"}`, strict: true,
			want: &toolbox.WeatherArgs{City: "Paris", Days: 3, Units: "celsius"}},
		{name: "null first, white space kept", args: ` { "days" : null , "city" : "Paris" } `, strict: true,
			want: &toolbox.WeatherArgs{City: "Paris", Days: 3, Units: "celsius"}},
		{name: "null for the required field", args: `{"city":null,"days":null,"units":null}`, strict: true,
			wantErr: `Error: weather: bad arguments: field "city": expected string, got null`},
		{name: "null for an unknown field", args: `{"city":"Paris","country":null}`, strict: true,
			wantErr: `Error: weather: bad arguments: field "country": unknown field`},
		{name: "a key twice is refused, null or not", args: `{"city":"Paris","days":null,"days":4}`, strict: true,
			wantErr: `Error: weather: bad arguments: field "days": expected integer`},
		{name: "the bounds still hold", args: `{"city":"Paris","days":17,"units":null}`, strict: true,
			wantErr: `Error: weather: bad arguments: field "days": expected integer from 1 to 16, got 17`},
		{name: "the lengths still hold", args: `{"city":"","days":null,"units":null}`, strict: true,
			wantErr: `Error: weather: bad arguments: field "city": expected a string of at least 1 character, got 0`},
		{name: "plain registry refuses null", args: `{"city":"Paris","days":null}`, strict: false,
			wantErr: `Error: weather: bad arguments: field "days": expected integer`},
	}
	// Should a refused call run the tool after all, it reaches nothing
	// but a closed port on loopback.
	t.Setenv("OPEN_METEO_GEOCODING_URL", "http://127.0.0.1:1")
	t.Setenv("OPEN_METEO_FORECAST_URL", "http://127.0.0.1:1")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := Toolbox().WithStrict(tc.strict)
			checkErr := reg.Check("weather", tc.args)
			if tc.want == nil {
				// Decoding fails before the tool would run.
				res := reg.Call(context.Background(), "weather", tc.args)
				if !errors.Is(res.Err, registry.ErrArguments) || !strings.HasPrefix(res.Text, tc.wantErr) {
					t.Errorf("Call answered %q (%v), want a text beginning %q", res.Text, res.Err, tc.wantErr)
				}
				if checkErr == nil || registry.Text(checkErr) != res.Text {
					t.Errorf("Check = %v, want Call's error %q", checkErr, res.Text)
				}
				return
			}
			c := &capture{}
			res := reg.WithExecutor(c).Call(context.Background(), "weather", tc.args)
			if res.Err != nil || checkErr != nil {
				t.Fatalf("Call answered %q (%v), Check %v; want both to accept", res.Text, res.Err, checkErr)
			}
			// What the tool got must pass the plain registry's decoder,
			// which refuses null; its values are read over the defaults
			// of weather's tags, as that decoder reads them.
			if err := Toolbox().Check("weather", c.args); err != nil {
				t.Fatalf("the arguments the tool got, %q, do not decode: %v", c.args, err)
			}
			got := toolbox.WeatherArgs{Days: 3, Units: "celsius"}
			if err := json.Unmarshal([]byte(c.args), &got); err != nil {
				t.Fatalf("the arguments the tool got, %q: %v", c.args, err)
			}
			if diff := cmp.Diff(*tc.want, got); diff != "" {
				t.Errorf("arguments the tool got (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStrictNullsNested checks nulls in a nested object and in the
// objects of its own optional fields, with the test tools: tag's target
// is an optional object whose labels are optional.
func TestStrictNullsNested(t *testing.T) {
	reg := testbox.Toolbox().WithStrict(true)
	for _, tc := range []struct{ args, want string }{
		{`{"tags":["a","b"],"target":null}`, "a,b"},
		{`{"tags":["a"],"target":{"name":"x","labels":null}}`, "a for x []"},
		{`{"tags":["a"],"target":{"name":"x","labels":["l"]}}`, "a for x [l]"},
		{`{"tags":["a"],"target":{"name":null,"labels":null}}`, `Error: tag: bad arguments: field "target.name": expected string, got null`},
		{`{"tags":null,"target":null}`, `Error: tag: bad arguments: field "tags": expected array, got null`},
		{`{"tags":["a",null]}`, `Error: tag: bad arguments: field "tags[1]": expected string, got null`},
	} {
		res := reg.Call(context.Background(), "tag", tc.args)
		if !strings.HasPrefix(res.Text, tc.want) || len(tc.want) < len(res.Text) && !strings.HasPrefix(tc.want, "Error:") {
			t.Errorf("Call(tag, %s) = %q, want %q", tc.args, res.Text, tc.want)
		}
		if strings.HasPrefix(tc.want, "Error:") != errors.Is(res.Err, registry.ErrArguments) {
			t.Errorf("Call(tag, %s): error %v", tc.args, res.Err)
		}
	}
}
