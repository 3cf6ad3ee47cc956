package registry

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sashabaranov/go-openai"

	"github.com/toolreg/toolreg/internal/clip"
	"github.com/toolreg/toolreg/jsonarg"
	"github.com/toolreg/toolreg/tool"
	"github.com/toolreg/toolreg/toolsearch"
)

// Entry is one tool. Generated code fills a table of them; a mounted
// server's tools are Entries too (see [Registry.With]). A Registry hands out
// copies: changing one changes nothing in the Registry.
type Entry struct {
	// ID, Name, Description and Timeout are the values of the tool's
	// Definition, read at generate time; Timeout is never zero.
	ID          string
	Name        string
	Description string
	Timeout     time.Duration
	// Parameters is the JSON Schema of the tool's arguments, as JSON text.
	Parameters string
	// StrictParameters is the strict variant of Parameters, for strict
	// function calling (every property required, optional ones nullable,
	// additionalProperties false, unsupported keywords told in the
	// descriptions); toolgen writes it. "" for a tool that has none, such
	// as a mounted one: a strict registry offers such a tool with its
	// Parameters, not as strict.
	StrictParameters string
	// Output is the JSON Schema of the tool's result when Execute returns
	// a struct, as JSON text; "" for tools that answer text.
	Output string
	// File is the tool's source file, relative to its module root; "" for
	// a mounted tool.
	File string
	// Capabilities are those the tool's Definition declares; Reaches
	// those toolgen found its code to reach (never more than declared). A
	// mounted tool was not audited: it declares every capability.
	Capabilities tool.Capability
	Reaches      tool.Capability
	// Server names the mounted server a remote tool belongs to; "" for a
	// compiled-in tool.
	Server string
	// Bind decodes and validates the arguments and returns the call of
	// the tool with them, ready to run; for bad arguments, it returns an
	// error that ArgumentError made, and no Run. Bind never runs the tool:
	// checking arguments is binding them and dropping the Run, so nothing
	// that only checks can run a tool. Registry.Call binds on the
	// caller's goroutine (a panic in Bind is a KindPanic failure; the
	// timeout does not cover Bind, which must only decode and check), so
	// that bad arguments are answered without a hand-over, then runs the
	// Run with the limits, the timeout and the panic protection; a wrapper
	// (tracing, a timeout) wraps the Run it returns. toolgen writes one
	// per tool; a mounted tool's checks little (its server checks its
	// arguments) and its Run calls the server. The arguments are the JSON
	// text the model sent, as Call takes it: a generated Bind hands the
	// tool strings that are parts of it, not copies, where they had no
	// escapes.
	Bind func(args string) (Run, error)
	// Shape tells the argument repair which properties take arrays or
	// objects, so that one a model sent as a JSON string can be mended.
	// toolgen writes it for tools with such properties; nil repairs only
	// arguments sent whole as a string. It is shared by the copies of the
	// entry and must not be changed.
	Shape *Shape
}

// AllCapabilities returns the capabilities e declares or was found to
// reach: those the confirmation, WithoutCapabilities and a sandbox go by.
func (e *Entry) AllCapabilities() tool.Capability { return e.Capabilities | e.Reaches }

// Run is a call of a tool with arguments Bind decoded and validated: it
// runs the tool under ctx and returns its answer, text for the model, or
// its error.
type Run func(ctx context.Context) (string, error)

// Table is what toolgen generates: the entries sorted by name and a lookup
// from name to index. A hand-made table may also bring the OpenAI tools
// spec of each entry; without them, the spec of an entry is its Name,
// Description and Parameters (StrictParameters, with strict set, for a
// strict registry), as toolgen would write it.
type Table struct {
	Entries []Entry
	// Specs are the entries' specs, in the same order; nil to derive them.
	Specs []openai.Tool
	// StrictSpecs are the specs for strict function calling, with the
	// entries' StrictParameters and Strict set (same order); nil when the
	// table has none, and then a strict registry sends Specs (or, when
	// Specs too is nil, the derived strict specs).
	StrictSpecs []openai.Tool
	// Index returns the position of the named entry, or -1.
	Index func(name string) int
	// Checked says that the entries' schemas were checked where the
	// table was made: toolgen writes each one from a Go type and checks
	// it there. New then does not read them again, which is most of its
	// work for a large table; it checks the rest as for any table. Nor
	// does it copy Entries: the table must not change after New, as a
	// generated one, static data, never does.
	Checked bool
	// Search is the search index of Entries, in the same order (see
	// Registry.Search), which toolgen writes; nil to build it at the first
	// search.
	Search *toolsearch.Index
}

// Confirm decides whether a call of a tool that changes things (see
// tool.Capability.Changes) may run; a non-nil error refuses it and is told
// to the model. It is called concurrently.
type Confirm func(ctx context.Context, e Entry, args string) error

// Executor runs the calls of compiled-in tools somewhere other than the
// calling goroutine, such as a sandboxed worker process. Execute gets
// arguments that passed the size limit and the confirmation, under a
// context that ends at the tool's timeout; it returns what the Run that
// e.Bind returns would, or an *Error of its own kind (KindCrashed, say).
// It is called concurrently.
type Executor interface {
	Execute(ctx context.Context, e Entry, args string) (string, error)
}

// An Isolator is an Executor that runs some calls in another process,
// where ending the call's context ends the call (the process is killed).
// The registry calls Execute for the entries it Isolates on the caller's
// goroutine, under a context that ends at the tool's timeout, instead of
// handing the call to a call goroutine of its own: no tool runs in this
// process to ignore its context. Package sandbox's Executor is one.
type Isolator interface {
	Executor
	// Isolates reports whether Execute runs e out of this process and
	// returns as soon as its context ends.
	Isolates(e Entry) bool
}

// Limits bound the size of what flows through a call.
type Limits struct {
	// MaxArgs is the largest arguments text, in bytes, that is decoded;
	// larger ones are refused before decoding.
	MaxArgs int
	// MaxResult is the largest result text, in bytes, passed on; a longer
	// one is cut, with a note saying how much was left out.
	MaxResult int
}

// The limits of a new Registry.
const (
	DefaultMaxArgs   = 1 << 20
	DefaultMaxResult = 64 << 10
)

// set is the tools a Registry can select from. It is never changed once
// made, and shared by the Registries derived from one another.
type set struct {
	entries []Entry
	// specs and strictSpecs are the specs of a table that came with them,
	// in the order of entries (strictSpecs are those a strict registry
	// sends); nil when the specs are derived from the entries, as for a
	// generated table. nulls reads each entry's StrictParameters once,
	// when a strict call first needs it.
	specs       []openai.Tool
	strictSpecs []openai.Tool
	nulls       []lazyNulls
	// index finds the entries of the generated table (the first
	// tableLen); extra finds those added by With.
	index    func(name string) int
	tableLen int
	extra    map[string]int
	// calls runs the calls of these tools.
	calls *runner
	// search is the search index of entries.
	search *searchIndex
}

func (s *set) find(name string) int {
	if i := s.index(name); i >= 0 && i < s.tableLen {
		return i
	}
	if i, ok := s.extra[name]; ok {
		return i
	}
	return -1
}

// Registry is a selection of tools. It is never modified after it is made;
// its methods are safe for concurrent use.
type Registry struct {
	set *set
	// on lists the selected entries by index, ascending.
	on       []int
	logger   *slog.Logger
	confirm  Confirm
	limits   Limits
	executor Executor
	redact   func(string) string
	// strict sends the strict specs and reads null as a field left out
	// where the strict schema allows it.
	strict bool
}

// NamePattern is the regular expression a tool's name and ID match: 1 to
// 64 ASCII letters, digits, '_' and '-', as OpenAI-compatible endpoints
// accept.
const NamePattern = `^[a-zA-Z0-9_-]{1,64}$`

// ValidName reports whether s can name a tool: whether it matches
// NamePattern.
func ValidName(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// New returns a registry of every tool in t, after checking the table: each
// entry has a valid name and ID, a description, a positive timeout,
// parameters that are a JSON object, and Bind;
// names are unique; the specs match the entries; Index finds every entry.
// A generated table always passes.
func New(t *Table) (*Registry, error) {
	if t == nil {
		return nil, errors.New("registry: nil table")
	}
	if t.Index == nil {
		return nil, errors.New("registry: the table has no Index function")
	}
	if t.Specs != nil && len(t.Specs) != len(t.Entries) {
		return nil, fmt.Errorf("registry: the table has %d entries and %d specs", len(t.Entries), len(t.Specs))
	}
	if t.StrictSpecs != nil && t.Specs == nil {
		return nil, errors.New("registry: the table has strict specs but no specs")
	}
	if t.StrictSpecs != nil && len(t.StrictSpecs) != len(t.Entries) {
		return nil, fmt.Errorf("registry: the table has %d entries and %d strict specs", len(t.Entries), len(t.StrictSpecs))
	}
	if t.Search != nil && t.Search.Len() != len(t.Entries) {
		return nil, fmt.Errorf("registry: the table has %d entries and a search index of %d", len(t.Entries), t.Search.Len())
	}
	if !t.Checked {
		if err := t.Search.Check(); err != nil {
			return nil, fmt.Errorf("registry: %w", err)
		}
	}
	var errs []error
	seen := make(map[string]bool, len(t.Entries))
	for i := range t.Entries {
		e := &t.Entries[i]
		if err := checkEntry(e, !t.Checked); err != nil {
			errs = append(errs, fmt.Errorf("entry %d: %w", i, err))
			continue
		}
		if seen[e.Name] {
			errs = append(errs, fmt.Errorf("entry %d: tool name %q is used twice", i, e.Name))
		}
		seen[e.Name] = true
		if t.Specs != nil {
			if s := t.Specs[i]; s.Function == nil || s.Function.Name != e.Name {
				errs = append(errs, fmt.Errorf("entry %d (%s): its spec does not name it", i, e.Name))
			}
		}
		if t.StrictSpecs != nil {
			if s := t.StrictSpecs[i]; s.Function == nil || s.Function.Name != e.Name {
				errs = append(errs, fmt.Errorf("entry %d (%s): its strict spec does not name it", i, e.Name))
			}
		}
		if got := t.Index(e.Name); got != i {
			errs = append(errs, fmt.Errorf("entry %d (%s): Index finds it at %d", i, e.Name, got))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	on := make([]int, len(t.Entries))
	for i := range on {
		on[i] = i
	}
	// A checked table is generated static data that nothing changes: it is
	// used as it is. Any other is copied, so that changing it afterwards
	// changes nothing here.
	entries := t.Entries
	if !t.Checked {
		entries = slices.Clone(t.Entries)
	}
	var specs, strictSpecs []openai.Tool
	if t.Specs != nil {
		specs, strictSpecs = cloneSpecs(t.Specs), cloneSpecs(t.StrictSpecs)
		if t.StrictSpecs == nil {
			strictSpecs = cloneSpecs(t.Specs)
		}
	}
	return &Registry{
		set: &set{
			entries:     entries,
			specs:       specs,
			strictSpecs: strictSpecs,
			nulls:       make([]lazyNulls, len(entries)),
			index:       t.Index,
			tableLen:    len(t.Entries),
			calls:       newRunner(),
			search:      &searchIndex{segs: []*toolsearch.Index{t.Search}},
		},
		on:     on,
		logger: slog.New(slog.DiscardHandler),
		limits: Limits{MaxArgs: DefaultMaxArgs, MaxResult: DefaultMaxResult},
	}, nil
}

// checkEntry says what is wrong with e, or nil. With schema, it reads e.Parameters to check that they are a
// JSON object of type "object".
func checkEntry(e *Entry, schema bool) error {
	var problems []string
	if !ValidName(e.Name) {
		problems = append(problems, fmt.Sprintf("name %q does not match %s", e.Name, NamePattern))
	}
	if !ValidName(e.ID) {
		problems = append(problems, fmt.Sprintf("ID %q does not match %s", e.ID, NamePattern))
	}
	if strings.TrimSpace(e.Description) == "" {
		problems = append(problems, "empty description")
	}
	if e.Timeout <= 0 {
		problems = append(problems, fmt.Sprintf("timeout %s is not positive", e.Timeout))
	}
	if schema {
		if typ, err := schemaType(e.Parameters); err != nil {
			problems = append(problems, "parameters are not a JSON object")
		} else if typ != `"object"` {
			var v any // for the message
			_ = json.Unmarshal([]byte(typ), &v)
			problems = append(problems, fmt.Sprintf(`parameters have type %v, want "object"`, v))
		}
	}
	if e.Bind == nil {
		problems = append(problems, "no Bind function")
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s", cmp.Or(e.Name, e.ID, "unnamed tool"), strings.Join(problems, "; "))
}

// schemaType checks that schema is one JSON object and returns the JSON
// text of its "type" member ("" when it has none; the last one when it has
// several, as encoding/json would read it). It reads the schema once
// without building it: New checks every entry of a table, 1,000 of them
// at the start of a process for a large tool set.
func schemaType(schema string) (string, error) {
	d := jsonarg.NewStringDecoder(schema)
	if err := d.ObjectStart(); err != nil {
		return "", err
	}
	typ := ""
	for {
		key, ok, err := d.NextField()
		if err != nil {
			return "", err
		}
		if !ok {
			break
		}
		isType := string(key) == "type"
		start, end, err := d.Skip()
		if err != nil {
			return "", err
		}
		if isType {
			typ = schema[start:end]
		}
	}
	return typ, d.End()
}

// MustNew is New for tables known to be valid, such as generated ones: it
// panics if New fails.
func MustNew(t *Table) *Registry {
	r, err := New(t)
	if err != nil {
		panic(err)
	}
	return r
}

// With returns a registry that also holds the given tools, such as the
// tools of a mounted MCP server, selected. Their names must be valid and
// not taken by a tool of r, selected or not.
func (r *Registry) With(tools ...Entry) (*Registry, error) {
	s := r.set
	ns := &set{
		entries:  slices.Concat(s.entries, tools),
		index:    s.index,
		tableLen: s.tableLen,
		extra:    make(map[string]int, len(s.extra)+len(tools)),
		calls:    s.calls,
	}
	for k, v := range s.extra {
		ns.extra[k] = v
	}
	on := slices.Clone(r.on)
	var errs []error
	for k := range tools {
		i := len(s.entries) + k
		e := &ns.entries[i]
		if err := checkEntry(e, true); err != nil {
			errs = append(errs, err)
			continue
		}
		if ns.find(e.Name) >= 0 {
			errs = append(errs, fmt.Errorf("%s: the name is taken", e.Name))
			continue
		}
		ns.extra[e.Name] = i
		on = append(on, i)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("registry: add tools: %w", err)
	}
	// The added tools are indexed for Search now, in a segment of their
	// own: the others' index is kept as it is.
	seg, err := buildIndex(tools)
	if err != nil {
		return nil, fmt.Errorf("registry: add tools: %w", err)
	}
	ns.search = &searchIndex{segs: append(slices.Clip(s.search.segs), seg)}
	// A table that came with specs has them for the added tools too, in
	// the same order as entries; derived ones need nothing.
	if s.specs != nil {
		ns.specs = slices.Clip(slices.Clone(s.specs))
		ns.strictSpecs = slices.Clip(slices.Clone(s.strictSpecs))
		for _, e := range tools {
			ns.specs = append(ns.specs, specOf(e))
			ns.strictSpecs = append(ns.strictSpecs, strictSpecOf(e))
		}
	}
	ns.nulls = make([]lazyNulls, len(ns.entries))
	c := *r
	c.set, c.on = ns, on
	return &c, nil
}

// specOf is the OpenAI spec of an entry that has no generated one.
func specOf(e Entry) openai.Tool {
	return openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
		Name:        e.Name,
		Description: e.Description,
		Parameters:  json.RawMessage(e.Parameters),
	}}
}

// WithConfirm returns a copy of r that calls confirm before running any
// tool whose capabilities change things (running processes, writing files;
// mounted tools, which are not audited, always). A nil confirm runs such
// tools like any other.
func (r *Registry) WithConfirm(confirm Confirm) *Registry {
	c := *r
	c.confirm = confirm
	return &c
}

// Redact returns s through the redactor of r (WithRedact), or s when it
// has none: for what a caller passes on of a call besides its result,
// such as the tool's progress messages.
func (r *Registry) Redact(s string) string {
	if r.redact == nil {
		return s
	}
	return r.redact(s)
}

// WithLimits returns a copy of r with other limits; a zero or negative
// field keeps the current one.
func (r *Registry) WithLimits(l Limits) *Registry {
	c := *r
	if l.MaxArgs > 0 {
		c.limits.MaxArgs = l.MaxArgs
	}
	if l.MaxResult > 0 {
		c.limits.MaxResult = l.MaxResult
	}
	return &c
}

// Limits returns the limits of r.
func (r *Registry) Limits() Limits { return r.limits }

// WithExecutor returns a copy of r that runs its compiled-in tools through
// x; nil runs them in the calling process. Mounted tools always run
// through their Bind and Run.
func (r *Registry) WithExecutor(x Executor) *Registry {
	c := *r
	c.executor = x
	return &c
}

// WithRedact returns a copy of r that passes every answer's text, a
// tool's output or an "Error:" text, through redact before it is cut to
// MaxResult and handed on: the place to remove secrets a tool or a
// mounted server let through. nil passes the text as it is. A result's
// Media are passed on as they are: no redactor reads an image.
func (r *Registry) WithRedact(redact func(string) string) *Registry {
	c := *r
	c.redact = redact
	return &c
}

// WithLogger returns a copy of r that logs tool failures (panics with their
// stacks, timeouts, repairs) to l; nil logs nothing.
func (r *Registry) WithLogger(l *slog.Logger) *Registry {
	c := *r
	if l == nil {
		l = slog.New(slog.DiscardHandler)
	}
	c.logger = l
	return &c
}

// WithoutCapabilities returns a copy of r without the tools that declare or
// reach any of caps, for example tool.Exec|tool.WriteFiles.
func (r *Registry) WithoutCapabilities(caps tool.Capability) *Registry {
	on := make([]int, 0, len(r.on))
	for _, i := range r.on {
		if r.set.entries[i].AllCapabilities()&caps == 0 {
			on = append(on, i)
		}
	}
	c := *r
	c.on = on
	return &c
}

func (r *Registry) selected(i int) bool {
	_, ok := slices.BinarySearch(r.on, i)
	return ok
}

// Tools returns copies of the selected entries: the compiled-in tools sorted
// by name, then the added ones in the order they were added.
func (r *Registry) Tools() []Entry {
	out := make([]Entry, len(r.on))
	for k, i := range r.on {
		out[k] = r.set.entries[i]
	}
	return out
}

// Specs returns the OpenAI tools spec of the selected tools, in the order of
// Tools: the exact table that is sent to the model. It is a deep copy. A
// strict registry (see WithStrict) returns the strict variant.
func (r *Registry) Specs() []openai.Tool {
	out := make([]openai.Tool, len(r.on))
	for k, i := range r.on {
		out[k] = r.set.spec(i, r.strict)
	}
	return out
}

// spec returns a deep copy of the spec of entry i, or of its strict one.
func (s *set) spec(i int, strict bool) openai.Tool {
	switch {
	case s.specs == nil && strict:
		return strictSpecOf(s.entries[i])
	case s.specs == nil:
		return specOf(s.entries[i])
	case strict:
		return cloneSpec(s.strictSpecs[i])
	}
	return cloneSpec(s.specs[i])
}

func cloneSpecs(specs []openai.Tool) []openai.Tool {
	out := make([]openai.Tool, len(specs))
	for i, s := range specs {
		out[i] = cloneSpec(s)
	}
	return out
}

// cloneSpec copies s deeply enough that no change to the copy reaches s:
// the function definition and raw JSON parameters are copied.
func cloneSpec(s openai.Tool) openai.Tool {
	if s.Function == nil {
		return s
	}
	f := *s.Function
	switch p := f.Parameters.(type) {
	case json.RawMessage:
		f.Parameters = json.RawMessage(slices.Clone([]byte(p)))
	case []byte:
		f.Parameters = json.RawMessage(slices.Clone(p))
	}
	s.Function = &f
	return s
}

// Spec returns the spec of the selected tool with the given name, as
// Specs has it (the strict variant for a strict registry), without making
// the others'.
func (r *Registry) Spec(name string) (openai.Tool, bool) {
	i := r.lookup(name)
	if i < 0 {
		return openai.Tool{}, false
	}
	return r.set.spec(i, r.strict), true
}

// Lookup returns a copy of the selected tool with the given name. It does
// not allocate.
func (r *Registry) Lookup(name string) (Entry, bool) {
	i := r.lookup(name)
	if i < 0 {
		return Entry{}, false
	}
	return r.set.entries[i], true
}

func (r *Registry) lookup(name string) int {
	i := r.set.find(name)
	if i < 0 || !r.selected(i) {
		return -1
	}
	return i
}

// Names returns the names of the selected tools, in the order of Tools.
func (r *Registry) Names() []string {
	names := make([]string, len(r.on))
	for k, i := range r.on {
		names[k] = r.set.entries[i].Name
	}
	return names
}

// Select returns a registry of the tools of r whose ID is in keep and not
// in drop. A nil keep keeps every tool; an empty but non-nil keep keeps
// none. An ID that names no selected tool is an error, so a typo in a
// configuration does not go unnoticed.
func (r *Registry) Select(keep, drop []string) (*Registry, error) {
	byID := make(map[string]bool, len(r.on))
	for _, i := range r.on {
		byID[r.set.entries[i].ID] = true
	}
	var unknown []string
	for _, id := range slices.Concat(keep, drop) {
		if !byID[id] {
			unknown = append(unknown, fmt.Sprintf("%q", id))
		}
	}
	if len(unknown) > 0 {
		ids := make([]string, 0, len(byID))
		for id := range byID {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return nil, fmt.Errorf("unknown tool id %s; known: %s", strings.Join(unknown, ", "), strings.Join(ids, ", "))
	}
	on := make([]int, 0, len(r.on))
	for _, i := range r.on {
		id := r.set.entries[i].ID
		if keep != nil && !slices.Contains(keep, id) {
			continue
		}
		if slices.Contains(drop, id) {
			continue
		}
		on = append(on, i)
	}
	c := *r
	c.on = on
	return &c, nil
}

// ToolSet is what a conversation or an SDK adapter needs of the tools:
// their spec table and a way to call one. *Registry implements it, as does
// a deferred.Set.
type ToolSet interface {
	// Specs returns the tools spec table sent to the model. It is called
	// before each request, so a tool set may offer more tools from one
	// request to the next.
	Specs() []openai.Tool
	// Call runs the named tool with the model's JSON arguments. It must
	// not panic and is called concurrently; a failure is a Result whose
	// Text begins "Error:".
	Call(ctx context.Context, name, args string) Result
}

var _ ToolSet = (*Registry)(nil)

// Result is the answer of one call. Text is always set: the tool's output,
// or, when Err is not nil, Text(Err): a message beginning "Error:" that
// names the tool and the cause, written for the model so it can correct
// itself. Either is cut to the registry's MaxResult.
type Result struct {
	Text string
	// Media are the images and sounds a tool answered with beside its
	// text, which describes them (see AttachMedia): the tools of mounted
	// MCP servers may. None when the call failed.
	Media []Media
	// Err is the failure, an *Error; nil on success.
	Err error
	// Duration is how long the call took.
	Duration time.Duration
}

// Failed reports whether the call failed.
func (r Result) Failed() bool { return r.Err != nil }

// Fail returns the Result of a failed call.
func Fail(err *Error) Result { return Result{Text: Text(err), Err: err} }

// EmptyArgs reports whether a tool's arguments are empty or JSON white space
// only: some models send nothing for a tool that takes no arguments, which
// is read as {}.
func EmptyArgs(args string) bool {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}

// Call runs the named tool with args, the JSON text the model sent. It never
// panics and never returns a Go error: every failure (an unknown name, bad
// arguments, a refusal, the tool's error, a panic, the tool's timeout or ctx
// ending) is a Result whose Err is an *Error and whose Text begins "Error:".
//
// A compiled-in tool runs in its own goroutine (or through the Executor),
// so that Call answers at the deadline even when the tool ignores its
// context; such a tool's goroutine is left to finish on its own, and that
// is logged.
func (r *Registry) Call(ctx context.Context, name, args string) Result {
	start := time.Now()
	res := r.call(ctx, start, name, args)
	if r.redact != nil {
		res.Text = r.redact(res.Text)
	}
	res.Text = truncate(res.Text, r.limits.MaxResult)
	res.Duration = time.Since(start)
	return res
}

func (r *Registry) call(ctx context.Context, start time.Time, name, args string) Result {
	if EmptyArgs(args) {
		args = "{}"
	}
	i := r.lookup(name)
	if i < 0 {
		return Fail(&Error{Tool: clip.String(name, maxNameShown), Kind: KindUnknownTool,
			Err: fmt.Errorf("available tools: %s", strings.Join(r.Names(), ", "))})
	}
	e := &r.set.entries[i]
	if len(args) > r.limits.MaxArgs {
		return Fail(&Error{Tool: e.Name, Kind: KindArguments,
			Err: fmt.Errorf("%d bytes, more than the limit of %d; send less", len(args), r.limits.MaxArgs)})
	}
	if r.strict {
		args = r.set.dropNulls(i, args)
	}
	if r.confirm != nil && e.AllCapabilities().Changes() {
		if err := r.confirm(ctx, *e, args); err != nil {
			return Fail(&Error{Tool: e.Name, Kind: KindRefused, Err: err})
		}
	}
	res := r.invoke(ctx, start, e, args)
	if res.Err != nil && repairable(res.Err) {
		res = r.retryRepaired(ctx, i, e, args, res)
	}
	return res
}

// repairable reports whether a call failed the way repairArgs can mend:
// an object or array sent as a JSON string. Only then is a repair tried, so
// other bad arguments cost nothing more.
func repairable(err error) bool {
	ae, ok := errors.AsType[*jsonarg.Error](err)
	return ok && ae.SentAsString() && errors.Is(err, ErrArguments)
}

// retryRepaired answers a call whose arguments were refused: when they show
// a mistake that repairArgs mends (an array or object sent as a JSON
// string, the whole arguments sent as a string) and the mended arguments
// pass the check, the tool runs once with them and the repair is logged;
// otherwise the first answer stands. The tool never ran for the first
// answer: decoding failed before it.
func (r *Registry) retryRepaired(ctx context.Context, i int, e *Entry, args string, first Result) Result {
	fixed, notes, ok := repairArgs(e.Shape, []byte(args))
	if !ok || len(fixed) > r.limits.MaxArgs {
		return first
	}
	mended := string(fixed)
	if _, err := e.Bind(mended); err != nil {
		r.logger.DebugContext(ctx, "tool arguments not repaired", "tool", e.Name, "repairs", notes, "error", err)
		return first
	}
	r.logger.WarnContext(ctx, "tool arguments repaired", "tool", e.Name, "repairs", notes)
	return r.invoke(ctx, time.Now(), e, mended)
}

// truncate cuts s to at most max bytes, at a character boundary, and says
// so, so that the model knows it saw only part. The note says how much was
// cut; under a limit too small for it, a short one stands in, and under
// one too small for that, none.
func truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	note := fmt.Sprintf("\n[truncated: showing %%d of %d bytes; %%d bytes cut. Ask for less, or for the part you need.]", len(s))
	// 20 bytes of room for the two numbers the note is missing.
	if keep := max - len(note) - 20; keep >= 0 {
		keep = runeStart(s, keep)
		return s[:keep] + fmt.Sprintf(note, keep, len(s)-keep)
	}
	if keep := max - len(shortNote); keep >= 0 {
		return s[:runeStart(s, keep)] + shortNote
	}
	return s[:runeStart(s, max)]
}

// shortNote marks a result cut under a limit too small for the full note.
const shortNote = "\n[truncated]"

// runeStart moves i back to the start of the character of s it is in.
func runeStart(s string, i int) int {
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// maxNameShown bounds the name of an unknown tool in a message: a model
// can send anything.
const maxNameShown = 80

// errDeadline is the cause of a call's context when the tool's own timeout
// ends it, as opposed to the caller's context ending.
var errDeadline = errors.New("tool timeout")

// invoke runs e with args under the tool's timeout, counted from start,
// on a call goroutine of the call pool (see run.go), through the Executor for
// compiled-in tools when there is one.
func (r *Registry) invoke(ctx context.Context, start time.Time, e *Entry, args string) Result {
	var x Executor
	if e.Server == "" {
		x = r.executor
	}
	if iso, ok := x.(Isolator); ok && iso.Isolates(*e) {
		return r.isolated(ctx, start, e, iso, args)
	}
	o, expired, c := r.set.calls.call(ctx, start, e, x, args)
	if expired {
		_, cause := c.cutShort()
		return r.expired(ctx, e, cause)
	}
	if o.err != nil && c != nil {
		// A tool that gives up when its context ends answers with the
		// context's error: that is the timeout or the cancellation.
		if err, cause := c.cutShort(); err != nil && errors.Is(o.err, err) {
			return r.expired(ctx, e, cause)
		}
	}
	return r.result(ctx, e, o)
}

// isolated runs e through x, which runs it in another process, on the
// calling goroutine: x returns when the context ends, at the tool's
// timeout or the caller's end, so no call goroutine has to wait in its
// place.
func (r *Registry) isolated(ctx context.Context, start time.Time, e *Entry, x Isolator, args string) (res Result) {
	cctx, cancel := context.WithDeadlineCause(ctx, start.Add(e.Timeout), errDeadline)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			res = r.result(ctx, e, outcome{err: &Error{Kind: KindPanic, Err: fmt.Errorf("%v", p)}, stack: debug.Stack()})
		}
	}()
	text, err := x.Execute(cctx, *e, args)
	if err != nil {
		// The call's context ended: that is the timeout or the
		// cancellation, whatever the executor made of it.
		if cerr := cctx.Err(); cerr != nil && errors.Is(err, cerr) {
			return r.expired(ctx, e, context.Cause(cctx))
		}
	}
	return r.result(ctx, e, outcome{text: text, err: err})
}

func (r *Registry) result(ctx context.Context, e *Entry, o outcome) Result {
	if o.err == nil {
		return Result{Text: o.text, Media: o.media}
	}
	err := asError(e.Name, o.err)
	if err.Kind == KindPanic {
		r.logger.ErrorContext(ctx, "tool panicked", "tool", e.Name, "panic", err.Err, "stack", string(o.stack))
	}
	return Fail(err)
}

// expired is the answer of a call cut short, with the cause its context
// ended with: the tool's timeout, or the caller's cause.
func (r *Registry) expired(ctx context.Context, e *Entry, cause error) Result {
	if cause == errDeadline {
		r.logger.WarnContext(ctx, "tool timed out", "tool", e.Name, "timeout", e.Timeout)
		return Fail(&Error{Tool: e.Name, Kind: KindTimeout, Err: fmt.Errorf("after %s", e.Timeout)})
	}
	return Fail(&Error{Tool: e.Name, Kind: KindCancelled, Err: cause})
}
