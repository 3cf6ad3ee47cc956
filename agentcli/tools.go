package agentcli

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/toolreg/toolreg/deferred"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"

	"github.com/toolreg/toolreg/internal/clip"
)

// runTools is agent tools [-v] [-json [-strict]] [NAME].
func (c *cli) runTools(ctx context.Context, args []string) int {
	o, pos, code := c.parseFlags("tools", args)
	if code >= 0 {
		return code
	}
	if len(pos) > 1 {
		fmt.Fprintf(c.stderr, "agent tools: unexpected arguments %q: want at most one tool NAME\n", pos[1:])
		return 2
	}
	strict, err := strictFor(o.strictOn, o.strictOff, "")
	if err != nil {
		fmt.Fprintf(c.stderr, "agent tools: %v\n", err)
		return 2
	}
	o.sel.listOnly = true
	reg, closeTools, err := o.sel.toolSet(ctx, c.stderr, nil)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 2
	}
	defer closeTools()
	reg = reg.WithStrict(strict)
	// The text is written at once: a tool's lines, and tabwriter's
	// cells and padding, would each be a write of their own.
	out := bufio.NewWriter(c.stdout)
	if o.search != "" {
		if len(pos) > 0 {
			fmt.Fprintln(c.stderr, "agent tools: -search takes no tool NAME")
			return 2
		}
		text, err := searchAnswer(reg, o.search)
		if err != nil {
			fmt.Fprintf(c.stderr, "agent tools: %v\n", err)
			return 2
		}
		fmt.Fprint(out, text)
		return c.flushed(out)
	}
	tools := reg.Tools()
	if len(pos) == 1 {
		e, ok := reg.Lookup(pos[0])
		if !ok {
			fmt.Fprintf(c.stderr, "agent tools: %s\n", o.sel.missing(reg, pos[0]))
			return 2
		}
		tools = []registry.Entry{e}
	}
	if o.asJSON {
		specs := reg.Specs()
		if len(pos) == 1 {
			specs = specs[slices.IndexFunc(reg.Tools(), func(e registry.Entry) bool { return e.Name == pos[0] }):][:1]
		}
		b, err := json.MarshalIndent(specs, "", "  ")
		if err != nil {
			fmt.Fprintf(c.stderr, "agent: encode the spec table: %v\n", err)
			return 1
		}
		// The same JSON, with what a terminal would act on escaped.
		fmt.Fprintf(out, "%s\n", clip.JSON(b))
		return c.flushed(out)
	}
	if len(pos) == 1 {
		writeTool(out, tools[0], true, &o.sel)
		return c.flushed(out)
	}
	if o.verbose {
		for i, e := range tools {
			if i > 0 {
				fmt.Fprintln(out)
			}
			writeTool(out, e, false, &o.sel)
		}
		return c.flushed(out)
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	for _, e := range tools {
		if e.Server != "" {
			fmt.Fprintf(tw, "%s\t%s [remote: %s, not audited]\n", e.Name, firstLine(e.Description), e.Server)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\n", e.Name, firstLine(e.Description))
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 1
	}
	return c.flushed(out)
}

// flushed writes what out holds and returns the command's exit code: 1,
// said on stderr, when the output could not be written.
func (c *cli) flushed(out *bufio.Writer) int {
	if err := out.Flush(); err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 1
	}
	return 0
}

// writeTool writes a tool in detail: its description (all of it when
// full), where it comes from, what it may do, where it runs under the
// selection's -isolate mode, and its parameters as a table.
func writeTool(w io.Writer, e registry.Entry, full bool, s *selection) {
	desc := firstLine(e.Description)
	if full {
		// A mounted server's description may hold anything.
		desc = clip.Printable(strings.TrimSpace(e.Description))
	}
	fmt.Fprintf(w, "%s  %s\n", e.Name, strings.ReplaceAll(desc, "\n", "\n    "))
	if e.Server != "" {
		fmt.Fprintf(w, "    server: %s, timeout: %s [remote, not audited: taken to have every capability: %s]\n", e.Server, e.Timeout, e.Capabilities)
	} else {
		fmt.Fprintf(w, "    id: %s, timeout: %s, file: %s\n", e.ID, e.Timeout, cmp.Or(e.File, "(built in)"))
		fmt.Fprintf(w, "    capabilities: %s (found in its code: %s)\n", e.Capabilities, e.Reaches)
		fmt.Fprintf(w, "    isolation: %s\n", s.isolationOf(e))
	}
	params, err := parameters(e.Parameters)
	switch {
	case err != nil:
		fmt.Fprintf(w, "    parameters: %s\n", shownJSON(e.Parameters))
	case len(params) == 0:
		fmt.Fprintln(w, "    parameters: none")
	default:
		fmt.Fprintln(w, "    parameters:")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "      NAME\tTYPE\tREQUIRED\tCONSTRAINTS\tDESCRIPTION")
		for _, p := range params {
			req := "no"
			if p.required {
				req = "yes"
			}
			// A mounted server's schema may hold anything: each cell
			// is shown on one line without control characters.
			fmt.Fprintf(tw, "      %s\t%s\t%s\t%s\t%s\n", clip.Line(p.name, maxLabel), clip.Line(p.typ, maxLabel), req,
				cmpOrDash(clip.Line(p.constraints, maxConstraints)), cmpOrDash(clip.Line(p.description, 80)))
		}
		_ = tw.Flush() // w's errors show at the end
	}
	if full && e.Output != "" {
		fmt.Fprintf(w, "    output: %s\n", shownJSON(e.Output))
	}
}

// maxConstraints bounds the constraints of a parameter shown in its row.
const maxConstraints = 1000

// shownJSON returns a schema's JSON text on one line without control
// characters, C1 and the controls of bidirectional text, which JSON
// leaves as they are, written as \u escapes.
func shownJSON(s string) string { return clip.Line(string(clip.JSON([]byte(s))), len(s)) }

func cmpOrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// param is one row of a tool's parameter table.
type param struct {
	name, typ, constraints, description string
	required                            bool
}

// parameters reads the rows of the parameter table from a tool's JSON
// Schema, in the order the schema lists the properties.
func parameters(schema string) ([]param, error) {
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal([]byte(schema), &s); err != nil {
		return nil, err
	}
	if len(s.Properties) == 0 {
		return nil, nil
	}
	names, props, err := orderedObject(s.Properties)
	if err != nil {
		return nil, err
	}
	out := make([]param, 0, len(names))
	for _, n := range names {
		var p map[string]any
		if err := json.Unmarshal(props[n], &p); err != nil {
			return nil, fmt.Errorf("property %q: %w", n, err)
		}
		desc, _ := p["description"].(string)
		out = append(out, param{name: n, typ: schemaType(p), constraints: constraints(p), description: desc, required: slices.Contains(s.Required, n)})
	}
	return out, nil
}

// orderedObject returns the keys of a JSON object in their order, and
// their values.
func orderedObject(raw json.RawMessage) ([]string, map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, fmt.Errorf("properties: not an object")
	}
	var keys []string
	vals := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, fmt.Errorf("property %q: %w", k, err)
		}
		keys = append(keys, k)
		vals[k] = v
	}
	return keys, vals, nil
}

// schemaType names the type of a property: "string", "array of integer",
// "string|null".
func schemaType(p map[string]any) string {
	var t string
	switch v := p["type"].(type) {
	case string:
		t = v
	case []any:
		var ts []string
		for _, x := range v {
			ts = append(ts, fmt.Sprint(x))
		}
		t = strings.Join(ts, "|")
	default:
		t = "any"
	}
	if items, ok := p["items"].(map[string]any); ok && strings.HasPrefix(t, "array") {
		t = "array of " + schemaType(items)
	}
	return t
}

// constraints describes the limits a property's schema sets.
func constraints(p map[string]any) string {
	var out []string
	num := func(k string) (string, bool) {
		v, ok := p[k]
		if !ok {
			return "", false
		}
		return fmt.Sprint(v), true
	}
	if e, ok := p["enum"].([]any); ok {
		var vs []string
		for _, v := range e {
			b, _ := json.Marshal(v)
			vs = append(vs, string(b))
		}
		out = append(out, "one of "+strings.Join(vs, ", "))
	}
	for _, r := range []struct{ lo, hi, what string }{
		{"minimum", "maximum", ""},
		{"minLength", "maxLength", " characters"},
		{"minItems", "maxItems", " items"},
	} {
		lo, hasLo := num(r.lo)
		hi, hasHi := num(r.hi)
		switch {
		case hasLo && hasHi:
			out = append(out, lo+"…"+hi+r.what)
		case hasLo:
			out = append(out, "≥ "+lo+r.what)
		case hasHi:
			out = append(out, "≤ "+hi+r.what)
		}
	}
	if v, ok := num("exclusiveMinimum"); ok {
		out = append(out, "> "+v)
	}
	if v, ok := num("exclusiveMaximum"); ok {
		out = append(out, "< "+v)
	}
	if v, ok := p["pattern"].(string); ok {
		out = append(out, "matches "+v)
	}
	if v, ok := p["format"].(string); ok {
		out = append(out, "format "+v)
	}
	if v, ok := p["default"]; ok {
		b, _ := json.Marshal(v)
		out = append(out, "default "+string(b))
	}
	return strings.Join(out, "; ")
}

// firstLine returns the first sentence or line of a description.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	// A mounted server's description may hold anything: it is shown
	// without the control characters that would drive the terminal.
	return clip.Printable(s)
}

// missing explains why reg has no tool name: a compiled-in tool that the
// selection leaves out, or no such tool.
func (s *selection) missing(reg *registry.Registry, name string) string {
	local, err := compiledIn(s.tools)
	if err != nil {
		return err.Error()
	}
	e, ok := local.Lookup(name)
	if !ok {
		return fmt.Sprintf("unknown tool %q; available tools: %s", name, strings.Join(reg.Names(), ", "))
	}
	if keep := splitList(s.keep); s.keep != "" && !slices.Contains(keep, e.ID) {
		return fmt.Sprintf("tool %q is left out by -tools (or TOOLREG_TOOLS) %q", name, s.keep)
	}
	if slices.Contains(splitList(s.drop), e.ID) {
		return fmt.Sprintf("tool %q is left out by -disable (or TOOLREG_DISABLE) %q", name, s.drop)
	}
	if caps, ok := tool.ParseCapabilities(s.deny); ok && e.AllCapabilities()&caps != 0 {
		return fmt.Sprintf("tool %q is filtered out by -deny (or TOOLREG_DENY) %q: it can %s", name, s.deny, e.AllCapabilities()&caps)
	}
	return fmt.Sprintf("tool %q is not selected", name)
}

// runCall is agent call [-strict] NAME ['JSON' | -]; with -strict the
// arguments are decoded as a strict call's are (null for a field left out).
func (c *cli) runCall(ctx context.Context, args []string) int {
	o, pos, code := c.parseFlags("call", args)
	if code >= 0 {
		return code
	}
	switch {
	case len(pos) == 0:
		fmt.Fprintln(c.stderr, "agent call: which tool? want agent call NAME ['JSON' | -]; agent tools lists the tools")
		return 2
	case len(pos) > 2:
		fmt.Fprintf(c.stderr, "agent call: want a tool NAME and one JSON argument, got %d arguments %q: quote the JSON, as in agent call word_count '{\"text\":\"one two\"}'\n", len(pos), pos)
		return 2
	}
	name, argText := pos[0], "{}"
	if len(pos) == 2 {
		argText = pos[1]
	}
	if argText == "-" {
		// Read one byte past the cap, to know it was passed without
		// reading all of an endless stdin.
		b, err := io.ReadAll(io.LimitReader(c.stdin, registry.DefaultMaxArgs+1))
		if err != nil {
			fmt.Fprintf(c.stderr, "agent: read arguments from stdin: %v\n", err)
			return 1
		}
		if len(b) > registry.DefaultMaxArgs {
			fmt.Fprintf(c.stderr, "agent: the arguments on stdin are longer than %d bytes, the most a tool accepts\n", registry.DefaultMaxArgs)
			return 1
		}
		argText = string(b)
	}
	if t := strings.TrimSpace(argText); !strings.HasPrefix(t, "{") {
		fmt.Fprintf(c.stderr, "agent call: the arguments of %s must be a JSON object such as '{\"name\":\"value\"}', got %q (agent tools %s shows its parameters)\n", name, clip.Line(argText, 80), name)
		return 2
	}
	strict, err := strictFor(o.strictOn, o.strictOff, "")
	if err != nil {
		fmt.Fprintf(c.stderr, "agent call: %v\n", err)
		return 2
	}
	ctx, err = o.sel.withPolicy(ctx)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 2
	}
	reg, closeTools, err := o.sel.toolSet(ctx, c.stderr, nil)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 2
	}
	defer closeTools()
	reg = reg.WithStrict(strict)
	if _, ok := reg.Lookup(name); !ok && name == deferred.SearchToolName {
		// What the model gets from a search; nothing stays loaded.
		d, err := deferred.New(reg, deferred.Options{})
		if err != nil {
			fmt.Fprintf(c.stderr, "agent: %v\n", err)
			return 1
		}
		res := d.Call(ctx, name, argText)
		if res.Failed() {
			fmt.Fprintln(c.stderr, res.Text)
			return 1
		}
		fmt.Fprint(c.stdout, res.Text)
		return 0
	}
	if _, ok := reg.Lookup(name); !ok {
		fmt.Fprintf(c.stderr, "Error: %s\n", o.sel.missing(reg, name))
		return 1
	}
	if !o.yes {
		// The same confirmation as in a conversation: asked on a
		// terminal (unless stdin carries the arguments), refused
		// otherwise.
		_, tin := terminalFile(c.stdin)
		_, terr := terminalFile(c.rawStderr)
		if fromStdin := len(pos) == 2 && pos[1] == "-"; tin && terr && !fromStdin {
			reg = reg.WithConfirm(c.askUser(c.lineReader(), nil))
		} else {
			reg = reg.WithConfirm(refuseUnattended)
		}
	}
	res := reg.Call(ctx, name, argText)
	if res.Failed() {
		// A mounted server's error may hold anything; the result on
		// stdout is the tool's output, byte for byte.
		fmt.Fprintln(c.stderr, clip.Printable(res.Text))
		return 1
	}
	fmt.Fprintln(c.stdout, res.Text)
	return 0
}
