package chat

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/registry"
)

// The fuzz input of FuzzAssemble is a small program that makes tool-call
// deltas. Its first byte chooses how the rest is read:
//
//   - 0 and 1, any deltas: each delta is a header byte whose bit pairs
//     choose its index, id, name and arguments (absent, from a pool, or
//     bytes of the input), followed by the bytes those choices read. The
//     assembler is checked against its documented invariants.
//   - 2, an OpenAI-style stream of indexed deltas, interleaved, in one of
//     the documented variants: continuations without an id, repeating the
//     id, or with a fresh id on each delta (and optionally repeating the
//     name). The assembled calls must be exactly the planned ones.
//   - 3, calls without an index: Ollama's whole calls in one delta each,
//     with no index or with index 0 reused, or calls split into deltas
//     without an index. The assembled calls must be exactly the planned
//     ones.
//
// Reading past the end of the input reads zeros, so every input is a
// program.
const (
	fuzzModeAny       = 0
	fuzzModeIndexed   = 2
	fuzzModeUnindexed = 3
)

// Pools the programs draw from.
var (
	fuzzIDs   = []string{"call_a", "call_b", "call_c", "0", "42", " "}
	fuzzNames = []string{"calculator", "word_count", "now", "echo"}
	fuzzFrags = []string{
		`{`, `}`, `"`, `{"text":`, `"a"}`, `{}`, ` `, `[`, `]`, `,`, `\`, `{"a":1}`,
		`null`, "\xff", `1`, `"\ud800"`, "\x00", `{"text":"a"} x`,
	}
	fuzzObjects = []string{
		`{}`, `{"text":"a"}`, `{"expression":"1+1"}`, `{"a":[1,{"b":null}],"c":"}"}`,
		`{"text":"日本語 \u00e9\ud83d\ude00"}`, `{"text":"{\"nested\":1}"}`,
	}
)

// fuzzProgram reads a fuzz input.
type fuzzProgram struct {
	data []byte
	pos  int
}

func (p *fuzzProgram) byte() byte {
	if p.pos >= len(p.data) {
		p.pos++ // So that more() ends loops that read past the end.
		return 0
	}
	b := p.data[p.pos]
	p.pos++
	return b
}

func (p *fuzzProgram) more() bool { return p.pos < len(p.data) }

// bytes reads a length byte (up to 15) and that many bytes.
func (p *fuzzProgram) bytes() string {
	n := int(p.byte() % 16)
	var b []byte
	for range n {
		b = append(b, p.byte())
	}
	return string(b)
}

func (p *fuzzProgram) pick(pool []string) string {
	return pool[int(p.byte())%len(pool)]
}

// maxFuzzDeltas bounds the deltas of one program, and maxFuzzProgram its
// length in bytes, enough for dozens of deltas. Longer inputs are skipped:
// the engine minimizes each new input in time quadratic in its length,
// and stalls for a minute on one of a few kilobytes.
const (
	maxFuzzDeltas  = 64
	maxFuzzProgram = 512
)

// anyDeltas reads deltas of mode 0 and 1.
func anyDeltas(p *fuzzProgram) []wireToolCall {
	var out []wireToolCall
	for p.more() && len(out) < maxFuzzDeltas {
		h := p.byte()
		var d wireToolCall
		switch h & 3 {
		case 1:
			d.Index = ptr(int(p.byte() % 4))
		case 2:
			d.Index = ptr(-1 - int(p.byte()%2))
		case 3:
			d.Index = ptr(int(p.byte()))
		}
		switch h >> 2 & 3 {
		case 1:
			d.ID = flexString(p.pick(fuzzIDs))
		case 2:
			d.ID = flexString(p.bytes())
		case 3:
			d.ID = flexString(fuzzIDs[0])
		}
		switch h >> 4 & 3 {
		case 1:
			d.Function.Name = p.pick(fuzzNames)
		case 2:
			d.Function.Name = p.bytes()
		case 3:
			d.Function.Name = fuzzNames[0]
		}
		switch h >> 6 & 3 {
		case 1:
			d.Function.Arguments = argumentText(p.pick(fuzzFrags))
		case 2:
			d.Function.Arguments = argumentText(p.bytes())
		case 3:
			d.Function.Arguments = argumentText(p.pick(fuzzObjects))
		}
		out = append(out, d)
	}
	return out
}

func ptr(i int) *int { return &i }

// plannedCall is a call of a mode 2 or 3 program, with the pieces its
// arguments are sent in.
type plannedCall struct {
	id, name string
	args     string
	pieces   []string
}

// planCalls reads 1 to 4 calls with distinct ids (or none, when noIDs),
// names from the pool, and arguments that are a whole JSON object, or
// empty when allowEmpty, split into up to maxPieces pieces. Each call gets
// its own id and name so that the plan is unambiguous.
func planCalls(p *fuzzProgram, noIDs, allowEmpty bool, maxPieces int) []plannedCall {
	calls := make([]plannedCall, 1+p.byte()%4)
	for i := range calls {
		c := &calls[i]
		if !noIDs {
			c.id = fmt.Sprintf("call_%d", i)
		}
		c.name = p.pick(fuzzNames)
		b := p.byte()
		if allowEmpty && b%8 == 7 {
			c.args = ""
		} else {
			c.args = fuzzObjects[int(b)%len(fuzzObjects)]
		}
		// Cut points, sorted; equal cuts make empty pieces.
		cuts := make([]int, int(p.byte())%maxPieces)
		for j := range cuts {
			cuts[j] = int(p.byte()) % (len(c.args) + 1)
		}
		slices.Sort(cuts)
		last := 0
		for _, cut := range cuts {
			c.pieces = append(c.pieces, c.args[last:cut])
			last = cut
		}
		c.pieces = append(c.pieces, c.args[last:])
	}
	return calls
}

// The variants of mode 2.
const (
	continueWithoutID = iota
	continueWithSameID
	continueWithFreshID
)

// indexedDeltas reads a mode 2 program: calls streamed by index, their
// deltas interleaved. It returns the deltas and the calls in the order the
// assembler must return them (that of their first deltas).
func indexedDeltas(p *fuzzProgram) ([]wireToolCall, []plannedCall) {
	flags := p.byte()
	variant := int(flags % 3)
	repeatName := flags&4 != 0
	noIDs := flags&8 != 0 && variant == continueWithoutID
	base, step := int(p.byte()%3), 1+int(p.byte()%2)
	calls := planCalls(p, noIDs, true, 5)
	if variant == continueWithFreshID {
		// A fresh id after the arguments are whole starts a new call, as
		// documented: no empty piece may follow the last non-empty one.
		for i := range calls {
			c := &calls[i]
			for len(c.pieces) > 1 && c.pieces[len(c.pieces)-1] == "" {
				c.pieces = c.pieces[:len(c.pieces)-1]
			}
		}
	}
	next := make([]int, len(calls)) // next piece of each call
	var deltas []wireToolCall
	var order []plannedCall
	for {
		var open []int
		for i, c := range calls {
			if next[i] < len(c.pieces) {
				open = append(open, i)
			}
		}
		if len(open) == 0 {
			break
		}
		i := open[int(p.byte())%len(open)]
		c := calls[i]
		d := wireToolCall{Index: ptr(base + step*i)}
		d.Function.Arguments = argumentText(c.pieces[next[i]])
		if next[i] == 0 {
			d.ID, d.Function.Name, d.Type = flexString(c.id), c.name, "function"
			order = append(order, c)
		} else {
			switch variant {
			case continueWithSameID:
				d.ID = flexString(c.id)
			case continueWithFreshID:
				d.ID = flexString(fmt.Sprintf("%s_%d", c.id, next[i]))
			}
			if repeatName {
				d.Function.Name = c.name
			}
		}
		next[i]++
		deltas = append(deltas, d)
	}
	return deltas, order
}

// The variants of mode 3.
const (
	wholeWithoutIndex = iota
	wholeAtIndexZero
	splitWithoutIndex
)

// unindexedDeltas reads a mode 3 program: calls one after the other, each
// whole in one delta (without an index, or all at index 0, as Ollama
// sends them) or split into deltas without an index.
func unindexedDeltas(p *fuzzProgram) ([]wireToolCall, []plannedCall) {
	flags := p.byte()
	variant := int(flags % 3)
	// Calls without ids are told apart by their complete arguments only
	// when they come whole and without an index.
	noIDs := flags&4 != 0 && variant == wholeWithoutIndex
	maxPieces := 1
	if variant == splitWithoutIndex {
		maxPieces = 5
	}
	calls := planCalls(p, noIDs, false, maxPieces)
	var deltas []wireToolCall
	for _, c := range calls {
		for j, piece := range c.pieces {
			d := wireToolCall{}
			if variant == wholeAtIndexZero {
				d.Index = ptr(0)
			}
			if j == 0 {
				d.ID, d.Function.Name = flexString(c.id), c.name
			}
			d.Function.Arguments = argumentText(piece)
			deltas = append(deltas, d)
		}
	}
	return deltas, calls
}

// snapshot is the state of one partial call.
type snapshot struct{ id, name, args string }

func snapshotOf(a *assembler) []snapshot {
	out := make([]snapshot, len(a.calls))
	for i, p := range a.calls {
		out[i] = snapshot{p.id, p.name, p.args.String()}
	}
	return out
}

var generatedID = regexp.MustCompile(`^call_[a-zA-Z0-9]{24}$`)

// FuzzAssemble feeds sequences of tool-call deltas to the assembler of a
// streamed answer. The assembler never panics; each delta goes to exactly
// one call, the last one or a new one, without changing any other; a
// known id or name is never overwritten; a continuation (no id, no name)
// at a known position never starts a call; a call whose position holds a
// complete call and whose name or id differs always does. The calls
// returned are all the calls assembled, in order, none dropped, each with
// a unique non-empty id (a generated one for a missing or repeated id),
// type "function", the name as sent (possibly empty: the registry answers
// an unknown tool), and the arguments as sent, or "{}" for blank ones.
// Well-formed streams of the documented provider variants are assembled
// into exactly the calls sent.
func FuzzAssemble(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || len(data) > maxFuzzProgram {
			return
		}
		p := &fuzzProgram{data: data[1:]}
		switch data[0] % 4 {
		case fuzzModeIndexed:
			deltas, want := indexedDeltas(p)
			checkPlan(t, deltas, want)
		case fuzzModeUnindexed:
			deltas, want := unindexedDeltas(p)
			checkPlan(t, deltas, want)
		default:
			checkInvariants(t, anyDeltas(p))
		}
	})
}

// checkInvariants feeds deltas to an assembler one by one, checking the
// effect of each, then checks the calls it returns.
func checkInvariants(t *testing.T, deltas []wireToolCall) {
	var a assembler
	for k, d := range deltas {
		before := snapshotOf(&a)
		key := noIndex
		if d.Index != nil && *d.Index >= 0 {
			key = *d.Index
		}
		// The call at the delta's position, if any, as add finds it.
		at := -1
		if key != noIndex {
			if pos, ok := a.active[key]; ok {
				at = pos
			}
		} else if len(a.calls) > 0 {
			at = len(a.calls) - 1
			for i, c := range a.calls {
				if d.ID != "" && c.id == string(d.ID) {
					at = i
					break
				}
			}
		}
		var complete bool
		if at >= 0 {
			complete = a.calls[at].complete()
		}

		a.add(d)
		after := snapshotOf(&a)
		id, name, args := string(d.ID), d.Function.Name, string(d.Function.Arguments)
		desc := func() string {
			return fmt.Sprintf("delta %d (index %v, id %q, name %q, arguments %q)", k, showIndex(d.Index), id, name, args)
		}
		switch len(after) {
		case len(before):
			changed := -1
			for i := range before {
				if before[i] != after[i] {
					if changed >= 0 {
						t.Fatalf("%s changed calls %d and %d", desc(), changed, i)
					}
					changed = i
				}
			}
			if changed < 0 {
				if args != "" {
					t.Fatalf("%s changed no call", desc())
				}
				break
			}
			b, got := before[changed], after[changed]
			want := b
			if want.id == "" {
				want.id = id
			}
			if want.name == "" {
				want.name = name
			}
			want.args += args
			if got != want {
				t.Fatalf("%s made call %d %+v of %+v, want %+v", desc(), changed, got, b, want)
			}
			if at >= 0 && changed != at {
				t.Fatalf("%s went to call %d, not to call %d at its position", desc(), changed, at)
			}
			if at >= 0 && complete && (name != "" && name != b.name || id != "" && b.id != "" && id != b.id) {
				t.Fatalf("%s continued the complete call %d %+v, want a new call", desc(), changed, b)
			}
		case len(before) + 1:
			if !slices.Equal(before, after[:len(before)]) {
				t.Fatalf("%s started a call and changed others:\nbefore %+v\nafter  %+v", desc(), before, after)
			}
			if got, want := after[len(before)], (snapshot{id, name, args}); got != want {
				t.Fatalf("%s started call %+v, want %+v", desc(), got, want)
			}
			if at >= 0 && id == "" && name == "" {
				t.Fatalf("%s, a continuation, started a call instead of continuing call %d %+v", desc(), at, before[at])
			}
		default:
			t.Fatalf("%s made %d calls of %d", desc(), len(after), len(before))
		}
	}

	state := snapshotOf(&a)
	got := a.toolCalls()
	if len(got) != len(state) || (got == nil) != (len(state) == 0) {
		t.Fatalf("toolCalls returned %d calls (nil: %v) for %d assembled", len(got), got == nil, len(state))
	}
	seen := map[string]bool{}
	for i, c := range got {
		s := state[i]
		wantArgs := s.args
		if registry.EmptyArgs(wantArgs) { // JSON white space only: "\f" is not
			wantArgs = "{}"
		}
		switch {
		case c.ID == "":
			t.Errorf("call %d has no id", i)
		case seen[c.ID]:
			t.Errorf("call %d has the id %q of an earlier call", i, c.ID)
		case c.ID != s.id && !generatedID.MatchString(c.ID):
			t.Errorf("call %d has id %q: want %q or a generated id", i, c.ID, s.id)
		case c.ID != s.id && s.id != "" && !slices.ContainsFunc(got[:i], func(e ToolCall) bool { return e.ID == s.id }):
			t.Errorf("call %d: its id %q was replaced by %q, but no earlier call has it", i, s.id, c.ID)
		}
		seen[c.ID] = true
		if c.Type != "function" || c.Function.Name != s.name || c.Function.Arguments != wantArgs {
			t.Errorf("call %d = %+v, want type function, name %q and arguments %q", i, c, s.name, wantArgs)
		}
	}
}

func showIndex(i *int) any {
	if i == nil {
		return "none"
	}
	return *i
}

// checkPlan feeds a well-formed stream to an assembler and checks that it
// returns exactly the planned calls.
func checkPlan(t *testing.T, deltas []wireToolCall, want []plannedCall) {
	var a assembler
	for _, d := range deltas {
		a.add(d)
	}
	got := a.toolCalls()
	wantCalls := make([]ToolCall, len(want))
	for i, c := range want {
		args := c.args
		if args == "" {
			args = "{}"
		}
		wantCalls[i] = ToolCall{ID: c.id, Type: "function", Function: FunctionCall{Name: c.name, Arguments: args}}
		if c.id == "" && i < len(got) {
			if !generatedID.MatchString(got[i].ID) {
				t.Errorf("call %d has id %q, want a generated one", i, got[i].ID)
			}
			got[i].ID = ""
		}
	}
	if diff := cmp.Diff(wantCalls, got); diff != "" {
		var b strings.Builder
		for _, d := range deltas {
			fmt.Fprintf(&b, "\tindex %v, id %q, name %q, arguments %q\n", showIndex(d.Index), d.ID, d.Function.Name, d.Function.Arguments)
		}
		t.Errorf("deltas:\n%sassembled calls (-want +got):\n%s", b.String(), diff)
	}
}

// fuzzSeeds are the seeds written in code; testdata/fuzz/FuzzAssemble
// holds more.
func fuzzSeeds() [][]byte {
	big := strings.Repeat("x", 15)
	return [][]byte{
		// Any deltas: an index, a pooled id, a pooled name and an object.
		{fuzzModeAny, 1 | 1<<2 | 1<<4 | 3<<6, 0, 0, 0, 1},
		// The same call continued, then a new index.
		{fuzzModeAny, 1 | 1<<2 | 1<<4 | 1<<6, 0, 0, 0, 3, 1 | 1<<6, 0, 4, 1 | 1<<6, 1, 5},
		// Bytes of the input as id, name and arguments.
		append([]byte{fuzzModeAny, 3 | 2<<2 | 2<<4 | 2<<6, 200, 3, 'a', 0xff, 'b', 2, 0, 0, 15}, big...),
		// Each mode and variant with a few calls.
		{fuzzModeIndexed, 0, 0, 1, 3, 0, 1, 2, 3, 5, 1, 0, 2, 2, 9, 0, 1, 0, 1, 0, 1, 0},
		{fuzzModeIndexed, 1, 1, 0, 2, 1, 2, 3, 3, 5, 1, 0, 2, 2, 9, 0, 1, 0, 1, 0, 1, 0},
		{fuzzModeIndexed, 2 | 4, 2, 1, 2, 1, 3, 4, 1, 2, 3, 5, 7, 1, 0, 2, 2, 9, 0, 1, 0, 1, 0, 1, 0},
		{fuzzModeIndexed, 8, 0, 0, 1, 0, 7, 0, 1, 0},
		{fuzzModeUnindexed, 0, 3, 0, 1, 0, 1, 0, 3, 0, 2, 0, 1, 0},
		{fuzzModeUnindexed, 4, 3, 0, 1, 0, 0, 1, 0, 3, 0, 2, 0, 1, 0},
		{fuzzModeUnindexed, 1, 2, 3, 1, 0, 3, 4, 0},
		{fuzzModeUnindexed, 2, 2, 1, 1, 3, 2, 5, 9, 2, 3, 4, 1, 7},
	}
}
