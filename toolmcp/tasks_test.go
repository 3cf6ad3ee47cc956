package toolmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolreg/toolreg/registry"
)

// taskServer is a server of three tools: research, which requires task
// augmentation, maybe, which takes it optionally, and plain. The SDK's
// Tool has no execution field, so it is written into the answers to
// tools/list by withExecution.
func taskServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "tasks", Version: "v0"}, nil)
	for _, name := range []string{"research", "maybe", "plain"} {
		mcp.AddTool(srv, &mcp.Tool{Name: name, Description: "The tool " + name + "."},
			func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name}}}, nil, nil
			})
	}
	return srv
}

// withExecution adds execution.taskSupport to research and maybe in a
// tools/list answer.
func withExecution(b []byte) []byte {
	b = bytes.Replace(b, []byte(`"name":"research"`), []byte(`"execution":{"taskSupport":"required"},"name":"research"`), 1)
	return bytes.Replace(b, []byte(`"name":"maybe"`), []byte(`"execution":{"taskSupport":"optional"},"name":"maybe"`), 1)
}

// rewriter passes a response on with its body through withExecution.
type rewriter struct {
	http.ResponseWriter
}

func (w rewriter) Write(p []byte) (int, error) {
	if _, err := w.ResponseWriter.Write(withExecution(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w rewriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// TestMountLeavesOutTaskTools: a tool that requires task augmentation is
// left out with one line naming it, over HTTP with JSON answers and with
// event streams; one that takes it optionally is kept.
func TestMountLeavesOutTaskTools(t *testing.T) {
	t.Parallel()
	for _, jsonResponse := range []bool{true, false} {
		srv := taskServer()
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{JSONResponse: jsonResponse})
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Del("Content-Length")
			h.ServeHTTP(rewriter{w}, r)
		}))
		var warn lines
		m, err := Mount(context.Background(), []string{"ev=" + ts.URL}, &MountOptions{Warn: &warn})
		if err != nil {
			t.Fatal(err)
		}
		names := m.Names()
		m.Close()
		ts.Close()
		if diff := cmp.Diff([]string{"ev__maybe", "ev__plain"}, names); diff != "" {
			t.Errorf("JSON answers %v: names (-want +got):\n%s", jsonResponse, diff)
		}
		want := `mcp server "ev": left out research, which cannot be called without task augmentation`
		if got := warn.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, want) {
			t.Errorf("JSON answers %v: warnings %q; want one line with %q", jsonResponse, got, want)
		}
	}
}

// execConn writes the server's answers through withExecution.
type execConn struct{ mcp.Connection }

func (c execConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Response); ok && r.Result != nil {
		r.Result = withExecution(r.Result)
	}
	return c.Connection.Write(ctx, msg)
}

type execTransport struct{ mcp.Transport }

func (t execTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	return execConn{c}, err
}

// TestListToolsTasksStdio: the connection of a stdio server (here an
// in-memory one) reads which tools require task augmentation.
func TestListToolsTasksStdio(t *testing.T) {
	t.Parallel()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := taskServer().Connect(context.Background(), execTransport{st}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	tasks := &taskTools{}
	cs, err := newMountClient(nil).Connect(context.Background(), &sniffTransport{Transport: ct, tasks: tasks}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var warn lines
	s := &remoteServer{spec: Spec{Name: "ev"}, session: cs, tasks: tasks, warn: &warner{w: &warn}}
	tools, err := s.listTools(context.Background(), DefaultMaxTools)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	if diff := cmp.Diff([]string{"maybe", "plain"}, names); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if !strings.Contains(warn.String(), "left out research") {
		t.Errorf("warnings %q", warn.String())
	}
}

// TestListToolsBounded: a mounted server's tool whose input schema is
// past MaxRemoteSchema bytes is left out, and a description (or a title)
// past MaxRemoteDescription bytes is cut, each with one warning naming the
// tools; at the bounds they are kept whole.
func TestListToolsBounded(t *testing.T) {
	t.Parallel()
	schema := func(n int) map[string]any { // a schema of n bytes as the client reads it
		pad := n - len(`{"description":"","type":"object"}`)
		return map[string]any{"type": "object", "description": strings.Repeat("s", pad)}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "big", Version: "v0"}, nil)
	for _, tl := range []*mcp.Tool{
		{Name: "schema_at", InputSchema: schema(MaxRemoteSchema)},
		{Name: "schema_past", InputSchema: schema(MaxRemoteSchema + 1)},
		{Name: "desc_at", Description: strings.Repeat("d", MaxRemoteDescription)},
		{Name: "desc_past", Description: strings.Repeat("d", MaxRemoteDescription+1)},
		{Name: "title_past", Title: strings.Repeat("t", MaxRemoteDescription+1)},
	} {
		if tl.InputSchema == nil {
			tl.InputSchema = map[string]any{"type": "object"}
		}
		srv.AddTool(tl, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	}
	var warn lines
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := newMountClient(nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	s := &remoteServer{spec: Spec{Name: "big"}, session: cs, tasks: &taskTools{}, warn: &warner{w: &warn}}
	tools, err := s.listTools(context.Background(), DefaultMaxTools)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][3]int{} // name: schema, description and title bytes
	for _, tl := range tools {
		b, _ := json.Marshal(tl.InputSchema)
		got[tl.Name] = [3]int{len(b), len(tl.Description), len(tl.Title)}
	}
	cut := MaxRemoteDescription + len("…")
	want := map[string][3]int{
		"schema_at":  {MaxRemoteSchema, 0, 0},
		"desc_at":    {len(`{"type":"object"}`), MaxRemoteDescription, 0},
		"desc_past":  {len(`{"type":"object"}`), cut, 0},
		"title_past": {len(`{"type":"object"}`), 0, cut},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	for _, w := range []string{
		fmt.Sprintf("left out schema_past, whose input schema is more than %d bytes (or name more than %d)", MaxRemoteSchema, MaxRemoteDescription),
		fmt.Sprintf("cut the description of desc_past, title_past to %d bytes", MaxRemoteDescription),
	} {
		if !strings.Contains(warn.String(), w) {
			t.Errorf("warnings %q; want %q", warn.String(), w)
		}
	}
}

// rawToolsServer is an MCP server over HTTP, by hand, whose tools/list
// answers tools, the JSON text of a list of tools as it stands, whatever
// the SDK's server would refuse to send.
func rawToolsServer(tools string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.NewDecoder(r.Body).Decode(&req) != nil || req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		result := json.RawMessage(`{}`)
		switch req.Method {
		case "initialize":
			result, _ = json.Marshal(map[string]any{"protocolVersion": req.Params.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "raw", "version": "v0"}})
		case "tools/list":
			result = json.RawMessage(`{"tools":` + tools + `}`)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	})
}

// TestMountToolsTheRegistryTakes mounts a server one of whose tools has a
// blank description and others an input schema that is not of type
// "object": the registry refuses such entries, and one of them made the
// agent's whole tool set fail (agent, agent mcp and agent call did not
// start; after a change, the new set was not offered). The blank
// description is replaced as an empty one is; the tools whose schema is
// not an object's are left out, with a line naming them.
func TestMountToolsTheRegistryTakes(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(rawToolsServer(`[
		{"name":"ok","description":"Fine.","inputSchema":{"type":"object"}},
		{"name":"blank","description":" \n","inputSchema":{"type":"object"}},
		{"name":"none","description":"No schema."},
		{"name":"notype","description":"x","inputSchema":{"properties":{}}},
		{"name":"string","description":"x","inputSchema":{"type":"string"}},
		{"name":"types","description":"x","inputSchema":{"type":["object","null"]}},
		{"name":"list","description":"x","inputSchema":[1]}
	]`))
	defer ts.Close()
	var warn lines
	m, err := Mount(context.Background(), []string{"h=" + ts.URL}, &MountOptions{Warn: &warn})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	reg, err := registry.MustNew(&registry.Table{Index: func(string) int { return -1 }}).With(m.Entries()...)
	if err != nil {
		t.Fatalf("the mounted tools do not join a tool set: %v", err)
	}
	if diff := cmp.Diff([]string{"h__blank", "h__none", "h__ok"}, reg.Names()); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if e, _ := reg.Lookup("h__blank"); e.Description != "The tool blank of the MCP server h." {
		t.Errorf("h__blank's description %q", e.Description)
	}
	if want := `left out notype, string, types, list, whose input schema is not a JSON Schema of type "object"`; !strings.Contains(warn.String(), want) {
		t.Errorf("warnings %q; want %q", warn.String(), want)
	}
}
