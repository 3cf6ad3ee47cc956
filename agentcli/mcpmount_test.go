package agentcli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolreg/toolreg/deferred"
	"github.com/toolreg/toolreg/registry"
)

// changingServer is an MCP server over HTTP whose tools a test adds while
// it is mounted.
func changingServer(t *testing.T, tools ...string) (*mcp.Server, string) {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "live", Version: "v0"}, nil)
	for _, name := range tools {
		addTool(srv, name)
	}
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	return srv, ts.URL
}

func addTool(srv *mcp.Server, name string) {
	mcp.AddTool(srv, &mcp.Tool{Name: name, Description: "The tool " + name + ".", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + " ran"}}}, nil, nil
		})
}

// TestLiveToolsNextRequest: the tool a mounted server adds after the start
// is in the specs of the next request to the model, and can be called;
// -deny still leaves out what it names; with tool search, the tools the
// model loaded stay loaded.
func TestLiveToolsNextRequest(t *testing.T) {
	for _, search := range []string{"off", "on"} {
		t.Run("search="+search, func(t *testing.T) {
			remote, url := changingServer(t, "a")
			o, _, code := (&cli{tools: testTools, stderr: io.Discard, getenv: func(string) string { return "" }}).parseFlags("chat",
				[]string{"-tools", "calculator", "-isolate", "none", "-tool-search", search, "-mcp", "s=" + url})
			if code >= 0 {
				t.Fatalf("flags: exit %d", code)
			}
			reg, closeTools, err := o.sel.toolSet(context.Background(), io.Discard, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer closeTools()
			derive := func(r *registry.Registry) *registry.Registry { return r.WithStrict(true) }
			offered, err := o.offeredLive(derive(reg), derive, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			names := func() []string {
				var out []string
				for _, s := range offered.Specs() {
					out = append(out, s.Function.Name)
				}
				return out
			}
			want := []string{"calculator", "s__a"}
			if search == "on" {
				want = []string{deferred.SearchToolName}
				// The model loads s__a.
				if res := offered.Call(context.Background(), deferred.SearchToolName, `{"query":"the tool a"}`); res.Failed() {
					t.Fatal(res.Text)
				}
				want = append(want, "s__a")
			}
			if diff := cmp.Diff(want, names()); diff != "" {
				t.Fatalf("specs at start (-want +got):\n%s", diff)
			}

			ch := o.sel.mounted.mounts.Changed()
			addTool(remote, "b")
			<-ch
			got := names()
			if search == "on" {
				// Still loaded after the change; b is found by a search.
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("specs after the change (-want +got):\n%s", diff)
				}
				if res := offered.Call(context.Background(), deferred.SearchToolName, `{"query":"the tool b"}`); !strings.Contains(res.Text, "s__b") {
					t.Errorf("search after the change: %s", res.Text)
				}
			} else if diff := cmp.Diff([]string{"calculator", "s__a", "s__b"}, got); diff != "" {
				t.Errorf("specs after the change (-want +got):\n%s", diff)
			}
			if res := offered.Call(context.Background(), "s__b", `{}`); res.Text != "b ran" {
				t.Errorf("s__b: %q", res.Text)
			}
			// Strict mode applies to the new set too.
			if r, ok := offered.(*liveToolSet).cur.(*registry.Registry); ok && !r.Strict() {
				t.Error("the changed tool set lost strict mode")
			}
		})
	}
}

// TestLiveToolsDeny: a tool added after the start that has a -deny
// capability is left out like those at the start.
func TestLiveToolsDeny(t *testing.T) {
	remote, url := changingServer(t, "a")
	o, _, code := (&cli{tools: testTools, stderr: io.Discard, getenv: func(string) string { return "" }}).parseFlags("chat",
		[]string{"-tools", "calculator", "-isolate", "none", "-deny", "exec", "-mcp", "s=" + url})
	if code >= 0 {
		t.Fatalf("flags: exit %d", code)
	}
	reg, closeTools, err := o.sel.toolSet(context.Background(), io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeTools()
	offered, err := o.offeredLive(reg, func(r *registry.Registry) *registry.Registry { return r }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ch := o.sel.mounted.mounts.Changed()
	// Not read-only: taken to run programs.
	mcp.AddTool(remote, &mcp.Tool{Name: "rm", Description: "Remove."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, nil
		})
	addTool(remote, "b")
	<-ch
	for _, s := range offered.Specs() {
		if s.Function.Name == "s__rm" {
			t.Errorf("s__rm offered under -deny exec")
		}
	}
}

// TestMCPServesMountedChanges: agent mcp over stdio tells its client when
// a mounted server's tools change, and serves the new set; the test waits
// for the client's notification.
func TestMCPServesMountedChanges(t *testing.T) {
	remote, url := changingServer(t, "a")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr lockedBuffer
	c := &cli{tools: testTools, stdin: inR, stdout: outW, stderr: &stderr, getenv: func(string) string { return "" }}
	exit := make(chan int, 1)
	go func() {
		exit <- c.run(context.Background(), []string{"mcp", "-tools", "calculator", "-isolate", "none", "-mcp", "s=" + url})
		outW.Close()
	}()
	changed := make(chan struct{}, 1)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
	cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr %s", err, stderr.String())
	}
	list := func() []string {
		t.Helper()
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tl := range res.Tools {
			names = append(names, tl.Name)
		}
		slices.Sort(names)
		return names
	}
	if caps := cs.InitializeResult().Capabilities; caps.Tools == nil || !caps.Tools.ListChanged {
		t.Errorf("tools capability %+v; want listChanged", caps.Tools)
	}
	if diff := cmp.Diff([]string{"calculator", "s__a"}, list()); diff != "" {
		t.Errorf("tools at start (-want +got):\n%s", diff)
	}
	addTool(remote, "b")
	<-changed
	if diff := cmp.Diff([]string{"calculator", "s__a", "s__b"}, list()); diff != "" {
		t.Errorf("tools after the change (-want +got):\n%s", diff)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "s__b", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != "b ran" {
		t.Errorf("s__b answered %+v", res.Content)
	}
	// The end of stdin ends the server.
	inW.Close()
	if code := <-exit; code != 0 {
		t.Errorf("agent mcp exited %d: %s", code, stderr.String())
	}
	cs.Close()
}

// TestSearchOffWarnsPastTheLimit: with -tool-search off, a conversation
// offering more tools than OpenAI takes in a request (128) is warned
// about at its start, at 129 and not at 128; under auto, search takes
// over instead. Before, every request of such a conversation was refused
// by the endpoint, and nothing said why.
func TestSearchOffWarnsPastTheLimit(t *testing.T) {
	base := registry.MustNew(&registry.Table{Index: func(string) int { return -1 }})
	tools := func(n int) *registry.Registry {
		es := make([]registry.Entry, n)
		for i := range es {
			es[i] = registry.Entry{ID: fmt.Sprintf("t%d", i), Name: fmt.Sprintf("s__t%d", i), Description: "A tool.", Server: "s", Timeout: time.Second,
				Parameters: `{"type":"object","properties":{}}`,
				Bind: func(string) (registry.Run, error) {
					return func(context.Context) (string, error) { return "", nil }, nil
				}}
		}
		reg, err := base.With(es...)
		if err != nil {
			t.Fatal(err)
		}
		return reg
	}
	type answer struct {
		Mode   searchMode
		Tools  int
		Warned bool
	}
	var got []answer
	for _, tc := range []answer{{"off", maxRequestTools - 1, false}, {"off", maxRequestTools, false}, {"off", maxRequestTools + 1, true}, {"auto", maxRequestTools + 1, false}} {
		var warn bytes.Buffer
		o := &options{toolSearch: tc.Mode}
		if _, err := o.offeredLive(tools(tc.Tools), func(r *registry.Registry) *registry.Registry { return r }, &warn); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("agent: -tool-search off offers all %d tools with every request; OpenAI refuses more than 128: use -tool-search auto, or fewer tools (-tools, -disable)\n", tc.Tools)
		if warn.Len() > 0 && warn.String() != want {
			t.Errorf("%s, %d tools: warned %q, want %q", tc.Mode, tc.Tools, warn.String(), want)
		}
		got = append(got, answer{tc.Mode, tc.Tools, warn.Len() > 0})
	}
	want := []answer{{"off", 127, false}, {"off", 128, false}, {"off", 129, true}, {"auto", 129, false}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}
