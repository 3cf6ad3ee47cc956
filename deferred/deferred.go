// Package deferred offers a model a large tool set a few tools at a time.
// Instead of the spec of every tool with every request, the model is given
// one tool, search_tools, and the tools pinned for it; a search answers
// with the best matches (see registry.Registry.Search), each with its
// description and parameters, and loads them: from the next request on,
// their specs are sent too and they can be called. A loaded tool stays
// loaded until the set holds Options.MaxLoaded tools and a search needs
// room: then the tools used least recently are unloaded, and the answer
// says which. The specs are sent in the order the tools were loaded, so
// until then the tools part of every request begins with that of the one
// before, which keeps providers' prompt caches hitting. A call of a tool
// that is not loaded is answered as a call of an unknown tool, with the
// search suggested.
//
// A *Set is one conversation's view of a registry: give each
// chat.Conversation its own. It implements registry.ToolSet.
package deferred

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sashabaranov/go-openai"

	"github.com/toolreg/toolreg/internal/clip"
	"github.com/toolreg/toolreg/registry"
)

// SearchToolName is the name of the tool that searches the others.
const SearchToolName = "search_tools"

// DefaultResults is how many tools a search returns when Options say
// nothing.
const DefaultResults = 5

// DefaultMaxLoaded is how many tools stay loaded at most, the pinned ones
// included, when Options say nothing. OpenAI refuses a request with more
// than 128 tools, and every loaded tool's spec is paid again with every
// request: a conversation that searched for long would otherwise end with
// every request refused.
const DefaultMaxLoaded = 32

// maxQuery bounds the query a search reads, in bytes.
const maxQuery = 1000

// minShare is the least share of the best match's score that another
// match needs to be returned.
const minShare = 0.3

// Options configure a Set.
type Options struct {
	// Pin names the tools loaded from the start, in this order.
	Pin []string
	// Results is how many tools a search returns at most;
	// DefaultResults when zero or less.
	Results int
	// MaxLoaded is how many tools stay loaded at most, the pinned ones
	// included: a search that loads more unloads those used least
	// recently (found by a search or called), never a pinned one. It is
	// DefaultMaxLoaded when zero or less, raised to the pinned tools
	// and one search's results when it is the default; a MaxLoaded
	// under those is an error.
	MaxLoaded int
}

// Set is a registry offered through search_tools: a tool set whose
// tools load as the model finds them. It is safe for concurrent use.
type Set struct {
	reg       *registry.Registry
	results   int
	maxLoaded int
	pinned    int // the first pinned of loaded are pinned

	mu     sync.Mutex
	loaded []string
	specs  []openai.Tool // search_tools', then the loaded tools', in order
	// used is when each loaded tool was last found or called, on the
	// clock now, which counts those events.
	used map[string]uint64
	now  uint64
}

// New returns the deferred view of reg, with the tools of opts.Pin loaded.
// A pinned name that reg has no tool of is an error.
func New(reg *registry.Registry, opts Options) (*Set, error) {
	if _, ok := reg.Lookup(SearchToolName); ok {
		return nil, fmt.Errorf("deferred: the registry has a tool named %s already", SearchToolName)
	}
	t := &Set{reg: reg, results: opts.Results, maxLoaded: opts.MaxLoaded, used: map[string]uint64{}}
	if t.results <= 0 {
		t.results = DefaultResults
	}
	pins := len(slices.Compact(slices.Sorted(slices.Values(opts.Pin))))
	switch least := pins + t.results; {
	case t.maxLoaded <= 0:
		t.maxLoaded = max(DefaultMaxLoaded, least)
	case t.maxLoaded < least:
		return nil, fmt.Errorf("deferred: MaxLoaded %d is less than the %d pinned tools and one search's %d results", t.maxLoaded, pins, t.results)
	}
	t.specs = []openai.Tool{searchSpec(reg.Strict())}
	var unknown []string
	for _, name := range opts.Pin {
		if !t.load(name) {
			if _, ok := reg.Lookup(name); !ok {
				unknown = append(unknown, fmt.Sprintf("%q", name))
			}
		}
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("deferred: pinned tools not found: %s", strings.Join(unknown, ", "))
	}
	t.pinned = len(t.loaded)
	return t, nil
}

// load loads the named tool, unless it is loaded already or unknown; it
// reports whether it loaded it. t.mu is held or t not yet shared.
func (t *Set) load(name string) bool {
	if slices.Contains(t.loaded, name) {
		return false
	}
	spec, ok := t.reg.Spec(name)
	if !ok {
		return false
	}
	t.loaded = append(t.loaded, name)
	t.specs = append(t.specs, spec)
	t.touch(name)
	return true
}

// touch marks the loaded tool name used now. t.mu is held or t not yet
// shared.
func (t *Set) touch(name string) {
	t.now++
	t.used[name] = t.now
}

// unloadOldest unloads the tool not pinned that was used least recently,
// and returns its name. t.mu is held.
func (t *Set) unloadOldest() string {
	oldest := -1
	for i := t.pinned; i < len(t.loaded); i++ {
		if oldest < 0 || t.used[t.loaded[i]] < t.used[t.loaded[oldest]] {
			oldest = i
		}
	}
	name := t.loaded[oldest]
	t.loaded = slices.Delete(t.loaded, oldest, oldest+1)
	t.specs = slices.Delete(t.specs, oldest+1, oldest+2) // after search_tools'
	delete(t.used, name)
	return name
}

// Rebase returns the view of reg, a registry that takes the place of t's
// (the tools of a mounted server changed), with t's options: the tools
// t has pinned and loaded that reg still has stay pinned and loaded, in
// the same order, with their use remembered.
func (t *Set) Rebase(reg *registry.Registry) (*Set, error) {
	if _, ok := reg.Lookup(SearchToolName); ok {
		return nil, fmt.Errorf("deferred: the registry has a tool named %s already", SearchToolName)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	n := &Set{reg: reg, results: t.results, maxLoaded: t.maxLoaded, used: map[string]uint64{}, now: t.now}
	n.specs = []openai.Tool{searchSpec(reg.Strict())}
	for i, name := range t.loaded {
		spec, ok := reg.Spec(name)
		if !ok {
			continue
		}
		n.loaded = append(n.loaded, name)
		n.specs = append(n.specs, spec)
		n.used[name] = t.used[name]
		if i < t.pinned {
			n.pinned++
		}
	}
	return n, nil
}

// Specs returns the spec of search_tools, then those of the loaded tools
// in the order they were loaded: what the next request offers the model.
// A later call returns the same list, with any tools loaded since at its
// end.
func (t *Set) Specs() []openai.Tool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.specs)
}

// Loaded returns the names of the loaded tools, in the order they were
// loaded.
func (t *Set) Loaded() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.loaded)
}

// Call runs search_tools or a loaded tool. A tool that is not loaded is
// refused as an unknown tool, with the search suggested; it does not run.
func (t *Set) Call(ctx context.Context, name, args string) registry.Result {
	if name == SearchToolName {
		start := time.Now()
		res := t.callSearch(args)
		res.Duration = time.Since(start)
		return res
	}
	t.mu.Lock()
	ok := slices.Contains(t.loaded, name)
	if ok {
		t.touch(name)
	}
	t.mu.Unlock()
	if !ok {
		return registry.Fail(&registry.Error{Tool: clip.String(name, 80), Kind: registry.KindUnknownTool,
			Err: fmt.Errorf("no such tool is loaded; call %s with what you want to do, and then call one of the tools it finds", SearchToolName)})
	}
	return t.reg.Call(ctx, name, args)
}

// searchArgs are the arguments of search_tools.
type searchArgs struct {
	Query string `json:"query"`
}

func (t *Set) callSearch(args string) registry.Result {
	if registry.EmptyArgs(args) {
		args = "{}"
	}
	var a searchArgs
	dec := json.NewDecoder(strings.NewReader(args))
	dec.DisallowUnknownFields()
	err := dec.Decode(&a)
	switch {
	case err != nil:
		err = fmt.Errorf("want {\"query\": \"what you want to do\"}: %w", err)
	case strings.TrimSpace(a.Query) == "":
		err = errors.New(`"query" is empty: say in a few words what you want to do`)
	case len(a.Query) > maxQuery:
		err = fmt.Errorf(`"query" is %d bytes, more than %d: say it in fewer words`, len(a.Query), maxQuery)
	}
	if err != nil {
		return registry.Fail(&registry.Error{Tool: SearchToolName, Kind: registry.KindArguments, Err: err})
	}
	return registry.Result{Text: t.Search(a.Query)}
}

// Search finds the tools that match query, loads them, and returns what
// search_tools answers the model: each tool's name, description and
// parameters, best first, or that none matched. It returns at most
// Options.Results tools, and none whose score is less than 30% of the
// best one's. To load them within Options.MaxLoaded it unloads the tools
// used least recently, and says which.
func (t *Set) Search(query string) string {
	matches := t.reg.Search(query, t.results)
	// Tools far behind the best are noise that would stay loaded.
	for i, m := range matches {
		if m.Score < minShare*matches[0].Score {
			matches = matches[:i]
			break
		}
	}
	t.mu.Lock()
	var was []bool
	for _, m := range matches {
		loaded := slices.Contains(t.loaded, m.Entry.Name)
		was = append(was, loaded)
		if loaded {
			t.touch(m.Entry.Name)
		}
	}
	// The matches were used last: the tools unloaded to make room for
	// them are older, and New made room for one search's results beside
	// the pinned tools.
	var unloaded []string
	for i, m := range matches {
		if was[i] {
			continue
		}
		if len(t.loaded) >= t.maxLoaded {
			unloaded = append(unloaded, t.unloadOldest())
		}
		t.load(m.Entry.Name)
	}
	t.mu.Unlock()
	return answer(query, matches, was, unloaded, t.maxLoaded)
}

// answer is the text of a search's answer.
func answer(query string, matches []registry.Match, loaded []bool, unloaded []string, maxLoaded int) string {
	if len(matches) == 0 {
		return fmt.Sprintf("No tool matches %q. Search again with other words (what you want done, not how), or answer without a tool.", clip.Line(query, 200))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d tool(s) match %q, best first. They are loaded: call them in your next step, with arguments that follow their parameters.\n", len(matches), clip.Line(query, 200))
	for i, m := range matches {
		e := m.Entry
		note := ""
		if loaded[i] {
			note = " (loaded before)"
		}
		fmt.Fprintf(&b, "\n%d. %s%s\n%s\nparameters: %s\n", i+1, e.Name, note, strings.TrimSpace(e.Description), e.Parameters)
	}
	if len(unloaded) > 0 {
		fmt.Fprintf(&b, "\nAt most %d tools stay loaded: to make room, these were unloaded, the least recently used first: %s. Search again to call them.\n", maxLoaded, strings.Join(unloaded, ", "))
	}
	return b.String()
}

// searchDescription is what search_tools says of itself.
const searchDescription = "Find the tools for a task among the many this agent has: give a short description of what you want done " +
	"(for example \"read a text file\", \"list open pull requests\", \"weather forecast for a city\"). " +
	"Answers with the best matching tools, their descriptions and parameters, and makes them callable from your next step. " +
	"Search before saying you cannot do something; search again with other words if nothing fits."

// searchSchema is the JSON Schema of its arguments, the same for strict
// function calling: its one property is required.
const searchSchema = `{"type":"object","properties":{"query":{"type":"string","description":"What you want to do, in a few words, for example: convert a video to mp4."}},"required":["query"],"additionalProperties":false}`

// searchSpec is the spec of search_tools.
func searchSpec(strict bool) openai.Tool {
	return openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
		Name:        SearchToolName,
		Description: searchDescription,
		Parameters:  json.RawMessage(searchSchema),
		Strict:      strict,
	}}
}
