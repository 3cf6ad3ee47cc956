package registry

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sashabaranov/go-openai"
)

// strictTable is a table of one tool with a strict schema, "opt", whose
// Run answers the arguments it was bound to, and one without, "plain".
func strictTable() *Table {
	answer := func(ctx context.Context, args string) (string, error) { return string(args), nil }
	tab := tableOf([]Entry{
		{Name: "opt", Bind: runs(answer), Timeout: time.Second,
			Parameters:       `{"type":"object","properties":{"a":{"type":"string"},"n":{"type":"integer"}},"required":["a"],"additionalProperties":false}`,
			StrictParameters: `{"type":"object","properties":{"a":{"type":"string"},"n":{"type":["integer","null"]}},"required":["a","n"],"additionalProperties":false}`},
		{Name: "plain", Bind: runs(answer), Timeout: time.Second},
	})
	tab.StrictSpecs = []openai.Tool{strictSpecOf(tab.Entries[0]), strictSpecOf(tab.Entries[1])}
	return tab
}

// TestNewStrictSpecs checks that New refuses strict specs that do not
// match the entries, and that a table without them serves its plain specs
// when strict.
func TestNewStrictSpecs(t *testing.T) {
	short := strictTable()
	short.StrictSpecs = short.StrictSpecs[:1]
	if _, err := New(short); err == nil || !strings.Contains(err.Error(), "2 entries and 1 strict specs") {
		t.Errorf("New with too few strict specs: %v", err)
	}
	misnamed := strictTable()
	misnamed.StrictSpecs[1].Function.Name = "other"
	if _, err := New(misnamed); err == nil || !strings.Contains(err.Error(), "its strict spec does not name it") {
		t.Errorf("New with a misnamed strict spec: %v", err)
	}
	none := strictTable()
	none.StrictSpecs = nil
	reg := mustNew(t, none).WithStrict(true)
	if diff := cmp.Diff(none.Specs, reg.Specs()); diff != "" {
		t.Errorf("strict specs of a table without them (-want +got):\n%s", diff)
	}
}

// TestWithStrict checks what a strict registry sends and how it reads
// null, for a compiled-in tool and for one added with With.
func TestWithStrict(t *testing.T) {
	base := mustNew(t, strictTable())
	mounted := Entry{Name: "remote", ID: "remote", Description: "d", Timeout: time.Second, Server: "srv",
		Parameters:       `{"type":"object","properties":{"b":{"type":"boolean"}},"additionalProperties":false}`,
		StrictParameters: `{"type":"object","properties":{"b":{"type":["boolean","null"]}},"required":["b"],"additionalProperties":false}`,
		Bind:             runs(func(ctx context.Context, args string) (string, error) { return string(args), nil })}
	reg, err := base.With(mounted)
	if err != nil {
		t.Fatal(err)
	}
	if reg.Strict() || !reg.WithStrict(true).Strict() {
		t.Error("Strict does not report WithStrict")
	}
	strict := reg.WithStrict(true)
	type sent struct {
		Name   string
		Strict bool
		Params string
	}
	summary := func(specs []openai.Tool) []sent {
		var out []sent
		for _, s := range specs {
			p, _ := s.Function.Parameters.(json.RawMessage)
			out = append(out, sent{s.Function.Name, s.Function.Strict, string(p)})
		}
		return out
	}
	entries := reg.Tools()
	want := []sent{
		{"opt", true, entries[0].StrictParameters},
		{"plain", false, entries[1].Parameters},
		{"remote", true, entries[2].StrictParameters},
	}
	if diff := cmp.Diff(want, summary(strict.Specs())); diff != "" {
		t.Errorf("strict specs (-want +got):\n%s", diff)
	}
	for _, s := range reg.Specs() {
		if s.Function.Strict {
			t.Errorf("%s: the plain registry sends a strict spec", s.Function.Name)
		}
	}

	for _, tc := range []struct {
		reg              *Registry
		tool, args, want string
	}{
		{strict, "opt", `{"a":"x","n":null}`, `{"a":"x"}`},
		{strict, "opt", ` {"n" : null, "a":"x"} `, ` { "a":"x"} `},    // white space kept
		{strict, "opt", `{"a":null,"n":null}`, `{"a":null}`},          // a is not nullable: the decoder refuses it
		{strict, "opt", `{"a":"x","z":null}`, `{"a":"x","z":null}`},   // z is unknown: kept for the decoder to refuse
		{strict, "opt", `{"n":null,"n":null}`, `{"n":null,"n":null}`}, // a key twice: kept for the decoder to refuse
		{strict, "opt", `{"a":"x","n":nul`, `{"a":"x","n":nul`},       // not JSON: kept for the decoder to explain
		{strict, "plain", `{"a":null}`, `{"a":null}`},                 // no strict schema: nothing dropped
		{strict, "remote", `{"b":null}`, `{}`},
		{reg, "opt", `{"a":"x","n":null}`, `{"a":"x","n":null}`}, // not strict: nothing dropped
	} {
		if res := tc.reg.Call(context.Background(), tc.tool, tc.args); res.Text != tc.want {
			t.Errorf("Call(%s, %s) with strict %v got the arguments %q, want %q", tc.tool, tc.args, tc.reg.Strict(), res.Text, tc.want)
		}
	}
}

// TestDerivedSpecs checks the specs of a table that comes without them,
// as a generated one does: each entry's Name, Description and Parameters,
// and for a strict registry its StrictParameters with strict set (its
// Parameters when it has none), also for tools added with With; and that
// strict specs without plain ones are refused.
func TestDerivedSpecs(t *testing.T) {
	tab := strictTable()
	tab.Specs, tab.StrictSpecs = nil, nil
	reg := mustNew(t, tab)
	mounted := Entry{Name: "remote", ID: "remote", Description: "Remote.", Timeout: time.Second, Server: "srv",
		Parameters: `{"type":"object"}`,
		Bind:       runs(func(ctx context.Context, args string) (string, error) { return "", nil })}
	withMounted, err := reg.With(mounted)
	if err != nil {
		t.Fatal(err)
	}
	fn := func(name, desc, params string, strict bool) openai.Tool {
		return openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: name, Description: desc, Parameters: json.RawMessage(params), Strict: strict}}
	}
	opt, plain := tab.Entries[0], tab.Entries[1]
	wantPlain := []openai.Tool{
		fn("opt", opt.Description, opt.Parameters, false),
		fn("plain", plain.Description, plain.Parameters, false),
	}
	wantStrict := []openai.Tool{
		fn("opt", opt.Description, opt.StrictParameters, true),
		fn("plain", plain.Description, plain.Parameters, false),
	}
	remote := fn("remote", "Remote.", `{"type":"object"}`, false)
	for _, c := range []struct {
		name string
		reg  *Registry
		want []openai.Tool
	}{
		{"plain", reg, wantPlain},
		{"strict", reg.WithStrict(true), wantStrict},
		{"plain with a mounted tool", withMounted, append(slices.Clone(wantPlain), remote)},
		{"strict with a mounted tool", withMounted.WithStrict(true), append(slices.Clone(wantStrict), remote)},
	} {
		got := c.reg.Specs()
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
		// A deep copy: changing it changes nothing in the registry.
		got[0].Function.Name = "changed"
		got[0].Function.Parameters.(json.RawMessage)[0] = 'X'
		if diff := cmp.Diff(c.want, c.reg.Specs()); diff != "" {
			t.Errorf("%s after changing a copy (-want +got):\n%s", c.name, diff)
		}
	}

	strictOnly := strictTable()
	strictOnly.Specs = nil
	if _, err := New(strictOnly); err == nil || err.Error() != "registry: the table has strict specs but no specs" {
		t.Errorf("New with strict specs and no specs: %v", err)
	}
}
