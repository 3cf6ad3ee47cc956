package toolmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolreg/toolreg/internal/clip"
)

// Changed returns a channel that is closed at the next change of the
// mounted tools: a server said its tools changed
// (notifications/tools/list_changed) and listing them again found a tool
// added, removed, or described otherwise. Entries, Tools and Names then
// return the new set. Take the channel before reading the set, so that no
// change falls between the two.
func (m *Mounts) Changed() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.changed
}

// toolsChanged notes that the server said its tools changed; follow lists
// them. Notifications that arrive before it does are one.
func (s *remoteServer) toolsChanged(context.Context, *mcp.ToolListChangedRequest) {
	select {
	case s.listChanged <- struct{}{}:
	default:
	}
}

// follow lists the tools of s again each time it says they changed, at
// most once per m.every, until its session ends.
func (m *Mounts) follow(s *remoteServer) {
	for {
		select {
		case <-s.done:
			return
		case <-s.listChanged:
		}
		m.refresh(s)
		// A server that keeps saying its tools changed is listed once
		// per interval, however often it says so.
		t := time.NewTimer(m.every)
		select {
		case <-s.done:
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// refresh lists the tools of s and puts them in place of those it had.
// A listing that fails keeps the tools it had.
func (m *Mounts) refresh(s *remoteServer) {
	ctx, cancel := context.WithTimeout(context.Background(), m.listTimeout)
	defer cancel()
	tools, err := s.listTools(ctx, m.maxTools)
	if err != nil {
		s.mu.Lock()
		closing := s.closing
		s.mu.Unlock()
		if !closing {
			m.warn.printf("mcp server %q said its tools changed, but listing them failed: %v; its tools stay as they were", s.spec.Name, err)
		}
		return
	}
	m.replace(s, tools)
}

// replace puts tools in place of the tools of s, named by the rules of
// Mount: a name held by a local tool (Reserved) or by another server's
// tool is never taken, so a server cannot shadow another's tool by
// renaming its own. A change is told in one line on the warner, then to
// the watchers of Changed.
func (m *Mounts) replace(s *remoteServer, tools []*mcp.Tool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	taken := map[string]bool{}
	for _, n := range m.reserved {
		taken[n] = true
	}
	old := map[string]RemoteTool{}
	others := m.tools[:0:0]
	for _, rt := range m.tools {
		if rt.srv == s {
			old[rt.info.Name] = rt.info
			delete(m.byName, rt.info.Name)
			continue
		}
		taken[rt.info.Name] = true
		others = append(others, rt)
	}
	m.tools = others
	m.add(s, tools, taken)
	slices.SortFunc(m.tools, func(a, b *remoteTool) int { return strings.Compare(a.info.Name, b.info.Name) })
	var added, altered []string
	for _, rt := range m.tools {
		if rt.srv != s {
			continue
		}
		was, ok := old[rt.info.Name]
		delete(old, rt.info.Name)
		switch {
		case !ok:
			added = append(added, rt.info.Name)
		case !sameTool(was, rt.info):
			altered = append(altered, rt.info.Name)
		}
	}
	removed := slices.Sorted(maps.Keys(old))
	var parts []string
	for _, p := range []struct {
		what  string
		names []string
	}{{"added", added}, {"removed", removed}, {"redescribed", altered}} {
		if len(p.names) > 0 {
			parts = append(parts, p.what+" "+strings.Join(p.names, ", "))
		}
	}
	if len(parts) == 0 {
		return
	}
	m.warn.printf("mcp server %q changed its tools: %s", s.spec.Name, strings.Join(parts, "; "))
	close(m.changed)
	m.changed = make(chan struct{})
}

// sameTool reports whether a and b offer the model the same tool.
func sameTool(a, b RemoteTool) bool {
	ja, _ := json.Marshal(a.Annotations)
	jb, _ := json.Marshal(b.Annotations)
	return a.Remote == b.Remote && a.Description == b.Description &&
		bytes.Equal(a.InputSchema, b.InputSchema) && bytes.Equal(ja, jb)
}

// The most a mounted server's tool may take of every request to the
// model, which carries its spec: a description past MaxRemoteDescription
// bytes is cut, and a tool whose input schema is past MaxRemoteSchema
// bytes is left out, with a warning, so that a server cannot fill the
// model's context (and the user's bill) with one tool. Local tools'
// descriptions are held to 1,024 characters by toolgen's lint.
const (
	MaxRemoteDescription = 4 << 10
	MaxRemoteSchema      = 64 << 10
)

// listTools lists the tools of s that the agent can call: those that need
// task augmentation are left out, and so are those past the first max by
// name; one line on the warner names them, when it differs from the last.
// At most maxListed tools are read, and as many pages, however many a
// server offers. Each page is held to the bounds of a tool as it arrives,
// before the SDK keeps it (see keepPages), so that what is kept of the
// pages read does not grow with what the server sends.
func (s *remoteServer) listTools(ctx context.Context, max int) ([]*mcp.Tool, error) {
	maxListed := 4 * max
	var tools []*mcp.Tool
	rep := &pageReport{}
	s.tasks.reset()
	ctx = context.WithValue(ctx, pageReportKey{}, rep)
	params := &mcp.ListToolsParams{}
	truncated := false
	for pages := 0; ; pages++ {
		if pages > maxListed || len(tools) > maxListed {
			truncated = true
			break
		}
		res, err := s.session.ListTools(ctx, params)
		if err != nil {
			return nil, err
		}
		// keepPages left in res only what is kept of its tools.
		tools = append(tools, res.Tools...)
		if res.NextCursor == "" {
			break
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
	large, notObjects, cut := rep.large, rep.notObjects, rep.cut
	slices.SortFunc(tools, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
	tools = slices.CompactFunc(tools, func(a, b *mcp.Tool) bool { return a.Name == b.Name })
	var needTasks []string
	tools = slices.DeleteFunc(tools, func(t *mcp.Tool) bool {
		if s.tasks.required(t.Name) {
			needTasks = append(needTasks, clipLine(t.Name, maxNameShown))
			return true
		}
		return false
	})
	var notes []string
	if len(large) > 0 {
		notes = append(notes, fmt.Sprintf("left out %s, whose input schema is more than %d bytes (or name more than %d)", strings.Join(large, ", "), MaxRemoteSchema, MaxRemoteDescription))
	}
	if len(notObjects) > 0 {
		notes = append(notes, fmt.Sprintf(`left out %s, whose input schema is not a JSON Schema of type "object"`, strings.Join(notObjects, ", ")))
	}
	if len(cut) > 0 {
		notes = append(notes, fmt.Sprintf("cut the description of %s to %d bytes", strings.Join(cut, ", "), MaxRemoteDescription))
	}
	if len(needTasks) > 0 {
		notes = append(notes, fmt.Sprintf("left out %s, which cannot be called without task augmentation (execution.taskSupport \"required\"), which the agent does not give", strings.Join(needTasks, ", ")))
	}
	if rep.longCursor {
		notes = append(notes, fmt.Sprintf("answered tools/list with a cursor of more than %d bytes: read no further", maxCursor))
	}
	if truncated {
		notes = append(notes, fmt.Sprintf("answered tools/list with more than %d tools or pages: read no further", maxListed))
	}
	if len(tools) > max {
		notes = append(notes, fmt.Sprintf("offers more than %d tools, the most one server may: left out the %d after %s", max, len(tools)-max, clipLine(tools[max-1].Name, maxNameShown)))
		tools = tools[:max]
	}
	note := strings.Join(notes, "; ")
	s.mu.Lock()
	repeat := note == s.leftOut
	s.leftOut = note
	s.mu.Unlock()
	if note != "" && !repeat {
		s.warn.printf("mcp server %q: %s", s.spec.Name, note)
	}
	return tools, nil
}

// maxCursor bounds the cursor of a page of tools/list, in bytes: the SDK
// keeps each page by the cursor that asked for it (protocol 2026-07-28),
// and sends it back whole. A longer one ends the listing.
const maxCursor = 4 << 10

// pageReport is what keepPages found in the pages of one listing: the
// names of the tools left out or cut, and whether a cursor was past
// maxCursor. listTools puts it in the context of its requests under
// pageReportKey.
type pageReport struct {
	mu                     sync.Mutex
	large, notObjects, cut []string
	longCursor             bool
}

type pageReportKey struct{}

// keepPages is a sending middleware of the client that leaves in each
// answer to tools/list only what keep keeps of its tools, and no cursor
// past maxCursor, before the SDK sees it: under protocol 2026-07-28 the
// SDK keeps each page whole, by its cursor, for as long as the session
// lasts, which let a hostile server have the agent hold every page it
// read (up to 4 × MaxTools pages of 16 MiB), whatever listTools kept of
// them. What is left out is told to the pageReport of the context, if
// any.
func keepPages(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		r, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok || r == nil {
			return res, err
		}
		rep, _ := ctx.Value(pageReportKey{}).(*pageReport)
		if rep == nil {
			rep = &pageReport{}
		}
		rep.mu.Lock()
		defer rep.mu.Unlock()
		page := r.Tools
		r.Tools, r.Meta = nil, nil
		for _, t := range page {
			if t == nil {
				continue
			}
			k, wasCut, why := keep(t)
			switch {
			case why == oversized:
				rep.large = append(rep.large, clipLine(t.Name, maxNameShown))
			case why == notObject:
				rep.notObjects = append(rep.notObjects, clipLine(t.Name, maxNameShown))
			case wasCut:
				rep.cut = append(rep.cut, clipLine(t.Name, maxNameShown))
			}
			if why == kept {
				r.Tools = append(r.Tools, k)
			}
		}
		if len(r.NextCursor) > maxCursor {
			rep.longCursor = true
			r.NextCursor = ""
		}
		return r, nil
	}
}

// maxNameShown bounds a remote tool's name in a warning, which shows it
// on one line: a server may name a tool anything.
const maxNameShown = 100

// keep returns what the agent keeps of a listed tool: its name, title,
// description, input schema and annotations, the description and title
// cut to MaxRemoteDescription (cut says so) and copied, so that nothing
// of the page they came in stays alive. why says why a tool is left out,
// kept when it is not: an input schema past MaxRemoteSchema, or a name
// past MaxRemoteDescription (oversized); an input schema that is not a
// JSON object of type "object" (notObject), which the registry refuses,
// failing the whole tool set the tool would join.
func keep(t *mcp.Tool) (k *mcp.Tool, cut bool, why leftOut) {
	if len(t.Name) > MaxRemoteDescription {
		return nil, false, oversized
	}
	b, err := json.Marshal(t.InputSchema)
	if err != nil || len(b) > MaxRemoteSchema {
		return nil, false, oversized // an error: not JSON to send either
	}
	var schema any
	if t.InputSchema != nil {
		if err := json.Unmarshal(b, &schema); err != nil {
			return nil, false, oversized
		}
		if m, ok := schema.(map[string]any); !ok || m["type"] != "object" {
			return nil, false, notObject
		}
	}
	cut = len(t.Description) > MaxRemoteDescription || len(t.Title) > MaxRemoteDescription
	k = &mcp.Tool{
		Name:        strings.Clone(t.Name),
		Title:       strings.Clone(clip.String(t.Title, MaxRemoteDescription)),
		Description: strings.Clone(clip.String(t.Description, MaxRemoteDescription)),
		InputSchema: schema,
	}
	if t.Annotations != nil {
		a := *t.Annotations
		a.Title = strings.Clone(clip.String(a.Title, MaxRemoteDescription))
		k.Annotations = &a
	}
	return k, cut, kept
}

// leftOut says why keep leaves a tool out.
type leftOut int

const (
	kept      leftOut = iota // not left out
	oversized                // its name or schema is too large
	notObject                // its input schema is not an object's
)

// taskTools records which tools of a server need task augmentation: their
// execution.taskSupport is "required" (protocol 2025-11-25). The SDK's
// Tool does not carry the field, so it is read from the answers to
// tools/list as they arrive, before the SDK decodes them. Only the names
// of the tools that need it are kept, none longer than a kept tool's
// (MaxRemoteDescription), at most maxTaskNames of them, and each listing
// starts anew (reset): a server that lists more than that has all its
// tools taken to need task augmentation.
type taskTools struct {
	mu       sync.Mutex
	req      map[string]bool
	overflow bool // more than maxTaskNames tools needed tasks
}

// maxTaskNames bounds the tools that taskTools records as needing task
// augmentation between two listings.
const maxTaskNames = 4 * DefaultMaxTools

// reset forgets what was recorded, at the start of a listing.
func (t *taskTools) reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.req, t.overflow = nil, false
}

// required reports whether the tool named name was last listed as
// needing task augmentation.
func (t *taskTools) required(name string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.overflow || t.req[name]
}

// observe reads the result of a JSON-RPC response; one that lists tools
// updates the record of the tools it lists.
func (t *taskTools) observe(result []byte) {
	if !bytes.Contains(result, []byte(`"inputSchema"`)) {
		return
	}
	var r struct {
		Tools []struct {
			Name      string `json:"name"`
			Execution *struct {
				TaskSupport string `json:"taskSupport"`
			} `json:"execution"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &r) != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, tl := range r.Tools {
		if len(tl.Name) > MaxRemoteDescription {
			continue // keep leaves it out
		}
		if tl.Execution == nil || tl.Execution.TaskSupport != "required" {
			delete(t.req, tl.Name)
			continue
		}
		if t.req[tl.Name] {
			continue
		}
		if len(t.req) >= maxTaskNames {
			t.overflow = true
			continue
		}
		if t.req == nil {
			t.req = map[string]bool{}
		}
		t.req[strings.Clone(tl.Name)] = true
	}
}

// sniffTransport is a transport whose connection shows tasks the
// results it reads (stdio servers).
type sniffTransport struct {
	mcp.Transport
	tasks *taskTools
	conn  atomic.Pointer[sniffConn] // the last connection made
}

func (t *sniffTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	sc := &sniffConn{Connection: c, tasks: t.tasks, replies: newPendingReplies()}
	t.conn.Store(sc)
	return sc, nil
}

// abort closes the connection at once (see closeSession): the SDK
// closes it only once the answers it is writing are written, which a
// server that reads none of them never lets happen. Closing the server's
// stdin ends those writes.
func (t *sniffTransport) abort() {
	if c := t.conn.Load(); c != nil {
		_ = c.Close()
	}
}

// sniffConn is a stdio server's connection: it shows tasks the answers
// of the server, and bounds the server's requests the client has yet to
// answer (see pendingReplies).
type sniffConn struct {
	mcp.Connection
	tasks   *taskTools
	replies *pendingReplies
}

func (c *sniffConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := c.replies.wait(ctx); err != nil {
		return nil, err
	}
	msg, err := c.Connection.Read(ctx)
	switch m := msg.(type) {
	case *jsonrpc.Response:
		if m.Result != nil {
			c.tasks.observe(m.Result)
		}
	case *jsonrpc.Request:
		if m.IsCall() {
			c.replies.add(m.ID)
		}
	}
	return msg, err
}

func (c *sniffConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if r, ok := msg.(*jsonrpc.Response); ok {
		c.replies.done(r.ID)
	}
	return err
}

func (c *sniffConn) Close() error {
	c.replies.close()
	return c.Connection.Close()
}

// maxSniffed bounds the bytes of one message taskSniffer reads for tasks:
// a longer tools list is not read (its tools are offered as they are).
const maxSniffed = 8 << 20

// taskSniffer shows tasks the answers to the tools/list requests of an
// HTTP server (streamable HTTP hides its connection behind an interface
// that cannot be wrapped), as JSON or as server-sent events.
type taskSniffer struct {
	base  http.RoundTripper
	tasks *taskTools
}

func (t *taskSniffer) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || req.Method != http.MethodPost || !listsTools(req) {
		return resp, err
	}
	sse := mediaType(resp.Header) == "text/event-stream"
	resp.Body = &sniffBody{ReadCloser: resp.Body, sse: sse, tasks: t.tasks}
	return resp, nil
}

// listsTools reports whether req sends tools/list, from the start of its
// body.
func listsTools(req *http.Request) bool {
	if req.GetBody == nil {
		return false
	}
	b, err := req.GetBody()
	if err != nil {
		return false
	}
	defer b.Close()
	head, _ := io.ReadAll(io.LimitReader(b, 1024))
	return bytes.Contains(head, []byte(`"tools/list"`))
}

// sniffBody passes a response body on, and reads each JSON-RPC response in
// it (the whole body, or each data line of an event stream) as soon as it
// is complete, before the reader gets its last byte.
type sniffBody struct {
	io.ReadCloser
	sse   bool
	tasks *taskTools
	buf   []byte
	skip  bool // the current message is over maxSniffed
}

func (b *sniffBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	data := p[:n]
	for b.sse && len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			b.keep(data)
			break
		}
		b.keep(data[:i])
		b.message()
		data = data[i+1:]
	}
	if !b.sse {
		b.keep(data)
	}
	if err != nil {
		b.message()
	}
	return n, err
}

func (b *sniffBody) keep(p []byte) {
	if b.skip {
		return
	}
	if len(b.buf)+len(p) > maxSniffed {
		b.buf, b.skip = nil, true
		return
	}
	b.buf = append(b.buf, p...)
}

// message reads the kept bytes as one JSON-RPC message and starts anew.
func (b *sniffBody) message() {
	line, skip := b.buf, b.skip
	b.buf, b.skip = b.buf[:0], false
	if skip {
		return
	}
	if b.sse {
		var ok bool
		if line, ok = bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte("data:")); !ok {
			return
		}
	}
	var r struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(line, &r) == nil && r.Result != nil {
		b.tasks.observe(r.Result)
	}
}
