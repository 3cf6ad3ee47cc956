package chat

import (
	"encoding/json"
	"math/rand/v2"
	"strings"

	"github.com/toolreg/toolreg/registry"
)

// noIndex is the key of tool-call deltas that carry no index.
const noIndex = -1

// partialCall is a tool call being assembled from stream deltas.
type partialCall struct {
	id, name string
	args     strings.Builder
	shape    argsShape
}

// complete reports whether the call has a name and arguments that are a
// whole JSON value: a later delta that names another call cannot be its
// continuation.
func (p *partialCall) complete() bool {
	return p.name != "" && p.args.Len() > 0 && p.shape.whole(p.args.String())
}

// write appends a piece of the arguments.
func (p *partialCall) write(piece string) {
	p.args.WriteString(piece)
	p.shape.feed(piece)
}

// maxScalarArgs bounds the arguments that are a bare number or literal
// which whole still validates: past it they are never whole (arguments
// are an object).
const maxScalarArgs = 1 << 10

// argsShape follows the arguments of a call as their pieces arrive, so
// that whether they are a whole JSON value is known without reading them
// again at each delta: an endpoint that sent a fresh id on every delta of
// a call whose arguments never closed had each delta validate all the
// arguments so far (a stream of 2.6 MB took 7.4 s, quadratic).
type argsShape struct {
	started  bool // a byte other than white space was seen
	scalar   bool // the value is a bare number or literal
	inString bool
	escape   bool
	depth    int  // open objects and arrays
	ended    bool // the top-level object, array or string closed
	junk     bool // something other than white space followed it
	checked  bool // valid holds json.Valid of the value that ended
	valid    bool
	// validated counts the bytes json.Valid read, which must stay within
	// the size of the arguments whatever the deltas.
	validated int
}

func (a *argsShape) feed(piece string) {
	if a.junk || a.scalar {
		return
	}
	for i := 0; i < len(piece); i++ {
		c := piece[i]
		switch {
		case a.ended:
			if !isSpace(c) {
				a.junk = true
				return
			}
		case a.inString:
			switch {
			case a.escape:
				a.escape = false
			case c == '\\':
				a.escape = true
			case c == '"':
				a.inString = false
				a.ended = a.depth == 0
			}
		case !a.started:
			if isSpace(c) {
				continue
			}
			a.started = true
			switch c {
			case '{', '[':
				a.depth++
			case '"':
				a.inString = true
			default:
				a.scalar = true
				return
			}
		case c == '"':
			a.inString = true
		case c == '{' || c == '[':
			a.depth++
		case c == '}' || c == ']':
			a.depth--
			a.ended = a.depth == 0
		}
	}
}

// whole reports whether args, the text fed so far, is one JSON value.
// json.Valid reads it once, when its top-level value has closed: white
// space after it changes nothing, and anything else makes it never whole.
func (a *argsShape) whole(args string) bool {
	switch {
	case a.junk:
		return false
	case a.scalar:
		if len(args) > maxScalarArgs {
			return false
		}
		a.validated += len(args)
		return json.Valid([]byte(args))
	case !a.ended:
		return false
	}
	if !a.checked {
		a.validated += len(args)
		a.checked, a.valid = true, json.Valid([]byte(args))
	}
	return a.valid
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// assembler builds the tool calls of one answer from its deltas.
//
// The OpenAI rule is: the first delta of a call carries its index, id and
// name; the following ones carry the index and a piece of the arguments.
// Providers differ:
//   - Qwen repeats the id as "" on continuation deltas; an empty id or name
//     never overwrites a known one.
//   - Ollama sends each call whole in one delta, without an index, or reuses
//     index 0 for every call of a batch: a delta with a different id or name
//     at a position whose call is already complete starts a new call.
//   - Some servers send a fresh id on every delta of one call: a different
//     id starts a new call only when the current one is complete.
//   - Deltas without an index continue the last call.
type assembler struct {
	calls  []*partialCall
	active map[int]int // delta index -> position in calls
	// tooMany is set when a delta would start a call past
	// MaxAnswerToolCalls; it is not added.
	tooMany bool
}

func (a *assembler) add(d wireToolCall) {
	key := noIndex
	if d.Index != nil && *d.Index >= 0 {
		key = *d.Index
	}
	id, name := string(d.ID), d.Function.Name
	pos, ok := -1, false
	if key == noIndex {
		if id != "" {
			for i, p := range a.calls {
				if p.id == id {
					pos, ok = i, true
					break
				}
			}
		}
		if !ok && len(a.calls) > 0 {
			pos, ok = len(a.calls)-1, true
		}
	} else {
		pos, ok = a.active[key]
	}
	if ok && startsNew(a.calls[pos], id, name, string(d.Function.Arguments), key == noIndex) {
		ok = false
	}
	if !ok {
		if len(a.calls) >= MaxAnswerToolCalls {
			a.tooMany = true
			return
		}
		pos = len(a.calls)
		a.calls = append(a.calls, &partialCall{})
		if key != noIndex {
			if a.active == nil {
				a.active = make(map[int]int)
			}
			a.active[key] = pos
		}
	}
	p := a.calls[pos]
	if p.id == "" && id != "" {
		p.id = id
	}
	if p.name == "" && name != "" {
		p.name = name
	}
	p.write(string(d.Function.Arguments))
}

// startsNew reports whether a delta with the given id, name and arguments,
// at the position of p, is the start of another call rather than a
// continuation of p.
func startsNew(p *partialCall, id, name, args string, noIndex bool) bool {
	switch {
	case name != "" && p.name != "" && name != p.name:
		return true
	case id != "" && p.id != "" && id != p.id:
		return p.complete()
	case noIndex && name != "" && args != "":
		return p.complete()
	}
	return false
}

// toolCalls returns the assembled calls: empty arguments become "{}", and a
// missing or repeated id is replaced by a generated one.
func (a *assembler) toolCalls() []ToolCall {
	if len(a.calls) == 0 {
		return nil
	}
	out := make([]ToolCall, 0, len(a.calls))
	seen := make(map[string]bool, len(a.calls))
	for _, p := range a.calls {
		out = append(out, ToolCall{ID: p.id, Type: "function", Function: FunctionCall{Name: p.name, Arguments: p.args.String()}})
	}
	for i := range out {
		normalizeCall(&out[i], seen)
	}
	return out
}

// normalizeCall gives c an id if it has none or one already in seen, and
// arguments "{}" if they are blank.
func normalizeCall(c *ToolCall, seen map[string]bool) {
	if c.ID == "" || seen[c.ID] {
		c.ID = newCallID()
	}
	seen[c.ID] = true
	if c.Type == "" {
		c.Type = "function"
	}
	if registry.EmptyArgs(c.Function.Arguments) {
		c.Function.Arguments = "{}"
	}
}

const idAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// newCallID returns a tool-call id for a call the model sent without one,
// of the form OpenAI uses.
func newCallID() string {
	b := make([]byte, 5+24)
	copy(b, "call_")
	for i := 5; i < len(b); i++ {
		b[i] = idAlphabet[rand.IntN(len(idAlphabet))]
	}
	return string(b)
}
