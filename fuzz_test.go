package toolreg

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolreg/toolreg/internal/testbox"
	"github.com/toolreg/toolreg/jsonarg"
	"github.com/toolreg/toolreg/registry"
)

// The fuzz targets of this file take their seeds from testdata/fuzz/<name>
// (the nasty cases, each small) and from addGeneratedSeeds: the inputs too
// big to commit and the per-tool ones derived from the schemas. Run one
// for longer with, for example,
//
//	go test -run '^$' -fuzz '^FuzzDecoders$' -fuzztime 5m .

// pureTools are the tools FuzzCall runs through Registry.Call: they
// compute from their arguments alone. The others reach the network
// (ping_url, weather, web_search) or the disks (disk_usage), so FuzzCall
// only checks their arguments (by binding them: Entry.Bind) and never runs them.
var pureTools = []string{"calculator", "now", "word_count"}

// bigSeed is the length of the big string of hugeSeeds: twice the
// registry's argument limit (DefaultMaxArgs, the largest limit of the
// argument path), so that every limit is passed, and small enough that
// the seeds take seconds under -race, not a minute. -bigseed makes it
// bigger (the seeds were 10 MB).
var bigSeed = flag.Int("bigseed", 2*registry.DefaultMaxArgs, "the `bytes` of the big string of the fuzz targets' generated seeds")

// hugeSeeds returns the nasty inputs that are too big for a committed
// corpus file: 100 000 nested arrays, at the top and in a field, and a
// string of bigSeed bytes, as a key and as values.
//
// They are seeds of go test only, not of fuzzing (-fuzz): the engine
// would spend most of its time mutating and minimizing them (minimizing
// one new input derived from 100 kB stalls it for up to a minute). The
// committed corpus has smaller versions of them for fuzzing.
func hugeSeeds() [][]byte {
	if fuzzing() {
		return nil
	}
	deep := strings.Repeat("[", 100_000)
	big := strings.Repeat("a", *bigSeed)
	return [][]byte{
		[]byte(deep),
		[]byte(`{"text":` + deep),
		[]byte(`{"text":` + deep + strings.Repeat("]", 100_000) + `}`),
		[]byte(`{"text":"` + big + `"}`),
		[]byte(`{"expression":"` + big + `"}`),
		[]byte(`{"` + big + `":1}`),
	}
}

// fuzzing reports whether the test binary was asked to fuzz (-fuzz), not
// just to run the seeds.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// toolSeeds returns, for each tool of entries, arguments built from its
// schema: every property null, every property an empty string, every
// property a large number, and each property given twice.
func toolSeeds(tb testing.TB, entries []registry.Entry) [][]byte {
	tb.Helper()
	var out [][]byte
	for _, e := range entries {
		var s struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal([]byte(e.Parameters), &s); err != nil {
			tb.Fatalf("%s: parameters: %v", e.Name, err)
		}
		names := make([]string, 0, len(s.Properties))
		for name := range s.Properties {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, value := range []string{`null`, `""`, `1e999`, `-0`, `3.0`, `"\ud800"`, `[]`, `{}`} {
			parts := make([]string, len(names))
			for i, name := range names {
				parts[i] = strconv.Quote(name) + ":" + value
			}
			out = append(out, []byte("{"+strings.Join(parts, ",")+"}"))
		}
		for _, name := range names {
			q := strconv.Quote(name)
			out = append(out, []byte("{"+q+`:"a",`+q+`:"b"}`), []byte("{"+q+":1,"+q+":1}"))
		}
	}
	return out
}

// FuzzCall calls the registry with any tool name and any argument bytes.
// Every tool's Check is tried; only the pure tools are run. The properties:
// nothing panics (neither Check, nor a tool: Call would answer registry.ErrPanic),
// no pure tool times out; every failure is a text beginning "Error:" that
// names the tool, or the unknown name quoted; Call answers exactly Check's
// error for arguments Check refuses (unless repairArgs repairs them into
// arguments Check accepts), refuses arguments over its size limit, and
// runs the tool for arguments Check accepts.
func FuzzCall(f *testing.F) {
	all := Toolbox()
	pure, err := all.Select(pureTools, nil)
	if err != nil {
		f.Fatalf("select the pure tools: %v", err)
	}
	// The body runs every pure tool whatever the name, so each seed comes
	// with one name only.
	atLimit := func(n int) []byte { // {"text":"aaa…"} of n bytes
		return []byte(`{"text":"` + strings.Repeat("a", n-len(`{"text":""}`)) + `"}`)
	}
	var limits [][]byte
	if !fuzzing() {
		limits = [][]byte{atLimit(registry.DefaultMaxArgs), atLimit(registry.DefaultMaxArgs + 1), []byte(strings.Repeat(" ", registry.DefaultMaxArgs+1))}
	}
	for i, args := range slices.Concat(hugeSeeds(), limits, toolSeeds(f, all.Tools())) {
		f.Add(pureTools[i%len(pureTools)], args)
	}
	f.Fuzz(func(t *testing.T, name string, args []byte) {
		for _, e := range all.Tools() {
			if err := checkArgs(e, args); err != nil {
				checkArgumentError(t, e.Name, args, err)
			}
		}

		text := string(args)
		res := pure.Call(context.Background(), name, text)
		checkResult(t, name, args, res)
		if _, ok := pure.Lookup(name); !ok {
			var re *registry.Error
			if !errors.As(res.Err, &re) || re.Kind != registry.KindUnknownTool || !strings.HasPrefix(name, strings.TrimSuffix(re.Tool, "…")) || !strings.Contains(res.Text, strconv.Quote(re.Tool)) {
				t.Errorf("tool %q is not in the registry, but Call answered %q (%v)", name, res.Text, res.Err)
			}
		}

		for _, e := range pure.Tools() {
			res := pure.Call(context.Background(), e.Name, text)
			checkResult(t, e.Name, args, res)
			// Call reads blank arguments as an empty object, and refuses
			// arguments over its size limit before decoding them.
			effective := args
			if strings.Trim(text, " \t\r\n") == "" {
				effective = []byte("{}")
			}
			if len(effective) > registry.DefaultMaxArgs {
				if want := fmt.Sprintf("Error: %s: bad arguments: ", e.Name); !errors.Is(res.Err, registry.ErrArguments) || !strings.HasPrefix(res.Text, want) {
					t.Errorf("%s: arguments of %d bytes, over the limit: Call answered %.200q, want a text beginning %q", e.Name, len(args), res.Text, want)
				}
				continue
			}
			checkErr := checkArgs(e, effective)
			switch {
			case checkErr != nil && !errors.Is(res.Err, registry.ErrArguments):
				// Only arguments that repairArgs makes acceptable may be
				// run, once the registry repairs arguments.
				if ae := (*jsonarg.Error)(nil); errors.As(checkErr, &ae) && ae.SentAsString() {
					break
				}
				t.Errorf("%s: arguments %.200q: Check refuses them (%v), but Call did not: %.200q", e.Name, args, checkErr, res.Text)
			case checkErr != nil:
				var ce *registry.Error
				if !errors.As(checkErr, &ce) {
					t.Fatalf("%s: Check's error %v is not a *registry.Error", e.Name, checkErr)
				}
				named := *ce
				named.Tool = e.Name
				want := registry.Text(&named)
				got := res.Text
				if len(want) > registry.DefaultMaxResult { // cut: compare what both keep
					want, got = want[:1000], got[:min(len(got), 1000)]
				}
				if got != want {
					t.Errorf("%s: arguments %.200q: Call answered\n%.300q\nwant Check's error\n%.300q", e.Name, args, res.Text, want)
				}
			case errors.Is(res.Err, registry.ErrArguments):
				t.Errorf("%s: arguments %.200q: Check accepts them, but Call refused them: %.200q", e.Name, args, res.Text)
			}
		}
	})
}

// checkArgumentError checks an error of an Entry's Bind.
func checkArgumentError(t *testing.T, tool string, args []byte, err error) {
	t.Helper()
	if !errors.Is(err, registry.ErrArguments) {
		t.Errorf("%s: Check(%.200q) = %v, which does not match registry.ErrArguments", tool, args, err)
	}
	msg := err.Error()
	if msg == "" {
		t.Errorf("%s: Check(%.200q) returned an empty error", tool, args)
	}
	if utf8.Valid(args) && !utf8.ValidString(msg) {
		t.Errorf("%s: Check(%.200q): the error is not UTF-8: %q", tool, args, msg)
	}
}

// checkResult checks the answer of one Call of the named tool.
func checkResult(t *testing.T, name string, args []byte, res registry.Result) {
	t.Helper()
	if res.Text == "" {
		t.Errorf("Call(%q, %.200q) answered an empty text (%v)", name, args, res.Err)
	}
	if utf8.ValidString(name) && utf8.Valid(args) && !utf8.ValidString(res.Text) {
		t.Errorf("Call(%q, %.200q) answered text that is not UTF-8: %q", name, args, res.Text)
	}
	if len(res.Text) > registry.DefaultMaxResult {
		t.Errorf("Call(%.80q, %.200q) answered %d bytes, over the result limit", name, args, len(res.Text))
	}
	if res.Err == nil {
		return
	}
	switch {
	case errors.Is(res.Err, registry.ErrPanic):
		t.Errorf("Call(%q, %.200q) panicked: %s", name, args, res.Text)
	case errors.Is(res.Err, registry.ErrTimeout):
		t.Errorf("Call(%q, %.200q) timed out: %s", name, args, res.Text)
	case errors.Is(res.Err, registry.ErrUnknownTool):
		var re *registry.Error
		if !errors.As(res.Err, &re) || !strings.HasPrefix(res.Text, fmt.Sprintf("Error: unknown tool %q", re.Tool)) {
			t.Errorf("Call(%q, %.200q) = %.300q (%v), want a text beginning Error: unknown tool and its name", name, args, res.Text, res.Err)
		}
	default:
		if want := "Error: " + name; !strings.HasPrefix(res.Text, want) {
			t.Errorf("Call(%q, %.200q) = %.300q (%v), want a text beginning %q", name, args, res.Text, res.Err, want)
		}
	}
}

// FuzzDecoders is differential: for every tool, Check must accept exactly
// the arguments that the tool's JSON Schema accepts, as judged by an
// independent validator (santhosh-tekuri/jsonschema, draft 2020-12), and
// whatever Check accepts encoding/json must read as an object too.
//
// The deliberate differences, written down in package jsonarg, are allowed
// in one direction only: the schema accepts and Check refuses a key given
// twice, or an integer beyond the int64 range. Arguments the validator's
// parser (encoding/json) refuses must be refused by Check too.
//
// The strict variant is held to the same: a strict registry's Check
// (which reads null as a field left out where the strict schema allows
// it) must accept exactly what the tool's StrictParameters accept, with
// two things the decoder keeps from the plain schema put back (see
// enforcedStrict): an optional field may still be left out, and the
// keywords moved into the descriptions still hold.
func FuzzDecoders(f *testing.F) {
	// The test tools join in for a nested object with optional fields;
	// they come through With, as a mounted server's tools do.
	reg, err := Toolbox().With(testbox.Toolbox().Tools()...)
	if err != nil {
		f.Fatal(err)
	}
	strict := reg.WithStrict(true)
	entries := reg.Tools()
	schemas := make([]*jsonschema.Schema, len(entries))
	strictSchemas := make([]*jsonschema.Schema, len(entries))
	for i, e := range entries {
		sch, err := compileToolSchema(e.Name, e.Parameters)
		if err != nil {
			f.Fatal(err)
		}
		schemas[i] = sch
		if strictSchemas[i], err = compileToolSchema(e.Name+"-strict", enforcedStrict(f, e)); err != nil {
			f.Fatal(err)
		}
	}
	for _, args := range slices.Concat(hugeSeeds(), toolSeeds(f, entries)) {
		f.Add(args)
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		doc, parseErr := jsonschema.UnmarshalJSON(bytes.NewReader(args))
		for i, e := range entries {
			checkErr := checkArgs(e, args)
			if checkErr != nil {
				checkArgumentError(t, e.Name, args, checkErr)
			}
			if checkErr == nil {
				if parseErr != nil {
					t.Errorf("%s: Check accepts %.300q, which the schema validator cannot parse: %v", e.Name, args, parseErr)
					continue
				}
				var m map[string]any
				if err := json.Unmarshal(args, &m); err != nil || m == nil {
					t.Errorf("%s: Check accepts %.300q, which encoding/json does not read as an object: %v", e.Name, args, err)
				}
			}
			if parseErr != nil {
				continue // Both refuse.
			}
			valErr := schemas[i].Validate(doc)
			if (checkErr == nil) == (valErr == nil) {
				continue
			}
			if checkErr != nil && (hasDuplicateKey(args) || hasIntegerBeyondInt64(args)) {
				continue // A deliberate difference.
			}
			t.Errorf("%s: arguments %.300q:\nschema accepts: %v (%v)\nCheck accepts: %v (%v)",
				e.Name, args, valErr == nil, valErr, checkErr == nil, checkErr)
		}
		if registry.EmptyArgs(string(args)) {
			return // Registry.Check reads blank arguments as {}.
		}
		for i, e := range entries {
			checkErr := strict.Check(e.Name, string(args))
			if checkErr != nil {
				checkArgumentError(t, e.Name, args, checkErr)
			}
			if checkErr == nil && parseErr != nil {
				t.Errorf("%s: strict Check accepts %.300q, which the schema validator cannot parse: %v", e.Name, args, parseErr)
			}
			if parseErr != nil {
				continue
			}
			valErr := strictSchemas[i].Validate(doc)
			if (checkErr == nil) == (valErr == nil) {
				continue
			}
			if checkErr != nil && (hasDuplicateKey(args) || hasIntegerBeyondInt64(args)) {
				continue // A deliberate difference.
			}
			t.Errorf("%s: arguments %.300q:\nstrict schema accepts: %v (%v)\nstrict Check accepts: %v (%v)",
				e.Name, args, valErr == nil, valErr, checkErr == nil, checkErr)
		}
	})
}

// enforcedStrict returns the strict schema of e as the strict decoder
// enforces it: the StrictParameters, with each object's required list and
// each value's keywords that the strict variant leaves out (minLength,
// maxLength; default says nothing of validity) taken back from the plain
// Parameters, which sit at the same places.
func enforcedStrict(tb testing.TB, e registry.Entry) string {
	tb.Helper()
	var strict, plain map[string]any
	if err := json.Unmarshal([]byte(e.StrictParameters), &strict); err != nil {
		tb.Fatalf("%s: strict parameters: %v", e.Name, err)
	}
	if err := json.Unmarshal([]byte(e.Parameters), &plain); err != nil {
		tb.Fatalf("%s: parameters: %v", e.Name, err)
	}
	var merge func(s, p map[string]any)
	merge = func(s, p map[string]any) {
		for k, v := range p {
			if _, ok := s[k]; !ok && k != "default" && k != "required" {
				s[k] = v
			}
		}
		if _, ok := s["properties"]; ok {
			s["required"] = p["required"]
			if p["required"] == nil {
				delete(s, "required")
			}
			sp, pp := s["properties"].(map[string]any), p["properties"].(map[string]any)
			for name, sub := range sp {
				merge(sub.(map[string]any), pp[name].(map[string]any))
			}
		}
		if items, ok := s["items"].(map[string]any); ok {
			merge(items, p["items"].(map[string]any))
		}
	}
	merge(strict, plain)
	b, err := json.Marshal(strict)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// compileToolSchema compiles a tool's parameters as a draft 2020-12 JSON
// Schema.
func compileToolSchema(name, schema string) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("%s: parameters are not JSON: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "mem:///" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("%s: add schema: %w", name, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("%s: compile schema: %w", name, err)
	}
	return sch, nil
}

// walkJSON reads the JSON text data with encoding/json's tokenizer and
// calls key for each object key (with the keys already seen in that
// object) and number for each number. It stops when a callback returns
// true, and reports whether one did.
func walkJSON(data []byte, key func(k string, seen map[string]bool) bool, number func(json.Number) bool) bool {
	type frame struct {
		object  bool
		wantKey bool
		seen    map[string]bool
	}
	var stack []*frame
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return false // io.EOF, or invalid JSON, which callers rule out.
		}
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
			if k, ok := tok.(string); ok {
				top := stack[n-1]
				if key != nil && key(k, top.seen) {
					return true
				}
				top.seen[k] = true
				top.wantKey = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, wantKey: true, seen: map[string]bool{}})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			valueDone()
		default:
			if n, ok := tok.(json.Number); ok && number != nil && number(n) {
				return true
			}
			valueDone()
		}
	}
}

// hasDuplicateKey reports whether an object of the JSON text data has a
// key twice (after unescaping, as both decoders compare keys).
func hasDuplicateKey(data []byte) bool {
	return walkJSON(data, func(k string, seen map[string]bool) bool { return seen[k] }, nil)
}

// hasIntegerBeyondInt64 reports whether the JSON text data holds a number
// with an integer value outside the int64 range, such as
// 9223372036854775808 or 1e19.
func hasIntegerBeyondInt64(data []byte) bool {
	minInt, maxInt := big.NewRat(-1<<63, 1), new(big.Rat).SetInt64(1<<63-1)
	return walkJSON(data, nil, func(n json.Number) bool {
		r, ok := new(big.Rat).SetString(string(n))
		return ok && r.IsInt() && (r.Cmp(minInt) < 0 || r.Cmp(maxInt) > 0)
	})
}
