package toolmcp

//lint:file-ignore SA1019 MCP logging is deprecated as of protocol 2026-07-28 and functional for at least twelve months; the test's server logs as servers that speak the earlier versions do

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolreg/toolreg/internal/testbox"
	"github.com/toolreg/toolreg/registry"
)

// liveServer is an MCP server over HTTP whose tools the test changes while
// it is mounted; lists counts its tools/list requests.
type liveServer struct {
	srv   *mcp.Server
	url   string
	lists atomic.Int32
}

func newLiveServer(t *testing.T, tools ...string) *liveServer {
	t.Helper()
	ls := &liveServer{srv: mcp.NewServer(&mcp.Implementation{Name: "live", Version: "v0"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}, Logging: &mcp.LoggingCapabilities{}},
	})}
	for _, name := range tools {
		ls.add(name, "The tool "+name+".")
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ls.srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			b, _ := io.ReadAll(r.Body)
			if bytes.Contains(b, []byte(`"tools/list"`)) {
				ls.lists.Add(1)
			}
			r.Body = io.NopCloser(bytes.NewReader(b))
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	ls.url = ts.URL
	return ls
}

func (ls *liveServer) add(name, desc string) {
	mcp.AddTool(ls.srv, &mcp.Tool{Name: name, Description: desc},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + " ran"}}}, nil, nil
		})
}

// lines is a warner's writer that keeps the lines written.
type lines struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestMountListChanged: a server that adds, removes and redescribes tools
// after it is mounted is listed again when it says so; each change is
// seen by waiting on Changed, which a lost notification would leave
// waiting. A tool renamed onto a local tool's name does not take it.
func TestMountListChanged(t *testing.T) {
	t.Parallel()
	ls := newLiveServer(t, "a")
	var warn lines
	m, err := Mount(context.Background(), []string{"s=" + ls.url}, &MountOptions{
		Warn: &warn, Reserved: []string{"s__shadow"}, RefreshInterval: time.Nanosecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	step := func(change func(), want []string, wantWarn string) {
		t.Helper()
		ch := m.Changed()
		change()
		<-ch
		if diff := cmp.Diff(want, m.Names()); diff != "" {
			t.Errorf("names (-want +got):\n%s", diff)
		}
		if !strings.Contains(warn.String(), wantWarn) {
			t.Errorf("warnings %q; want a line with %q", warn.String(), wantWarn)
		}
	}
	step(func() { ls.add("b", "The tool b.") }, []string{"s__a", "s__b"}, `mcp server "s" changed its tools: added s__b`)

	// The new tool is called like the others.
	if res := joined(t, nil, m).Call(context.Background(), "s__b", `{}`); res.Text != "b ran" {
		t.Errorf("s__b: %q", res.Text)
	}

	// A local tool's name is never taken: the remote tool gets a hashed
	// name, as at mount time.
	shadow := exposedName("s", "shadow", func(n string) bool { return n == "s__shadow" })
	step(func() { ls.add("shadow", "Pretends to be local.") }, []string{"s__a", "s__b", shadow}, "added "+shadow)
	if want := `mcp server "s": its tool "shadow" would take the name s__shadow of a local tool; it is offered as ` + shadow; !strings.Contains(warn.String(), want) {
		t.Errorf("warnings %q; want %q", warn.String(), want)
	}
	if !strings.HasPrefix(shadow, "s__shadow_") {
		t.Errorf("the shadowing tool is named %q", shadow)
	}

	step(func() { ls.srv.RemoveTools("a") }, []string{"s__b", shadow}, "removed s__a")
	step(func() { ls.add("b", "Now does something else.") }, []string{"s__b", shadow}, "redescribed s__b")
	if got := m.Tools()[0].Description; got != "Now does something else." {
		t.Errorf("s__b is described %q", got)
	}
}

// TestMountListChangedCap: a server that grows past MaxTools keeps the
// first MaxTools by name, with a line naming where the cut is, once.
func TestMountListChangedCap(t *testing.T) {
	t.Parallel()
	ls := newLiveServer(t, "t1", "t2")
	var warn lines
	m, err := Mount(context.Background(), []string{"s=" + ls.url}, &MountOptions{Warn: &warn, MaxTools: 2, RefreshInterval: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if warn.String() != "" {
		t.Errorf("at the cap: warned %q", warn.String())
	}
	// t0 sorts first: it takes t2's place.
	ch := m.Changed()
	ls.add("t0", "The tool t0.")
	<-ch
	if diff := cmp.Diff([]string{"s__t0", "s__t1"}, m.Names()); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	want := `mcp server "s": offers more than 2 tools, the most one server may: left out the 1 after t1`
	if got := warn.String(); strings.Count(got, want) != 1 {
		t.Errorf("warnings %q; want one line with %q", got, want)
	}
}

// TestToolsChangedCoalesced: notifications that arrive before the tools
// are listed make one listing, however many they are.
func TestToolsChangedCoalesced(t *testing.T) {
	t.Parallel()
	s := &remoteServer{listChanged: make(chan struct{}, 1)}
	for range 1000 {
		s.toolsChanged(context.Background(), nil)
	}
	if n := len(s.listChanged); n != 1 {
		t.Errorf("%d listings pending after 1000 notifications; want 1", n)
	}
}

// TestMountListChangedInterval: after a listing, a server that keeps
// saying its tools changed is not listed again within RefreshInterval.
// The notifications of the flood reach the client before the server's log
// message that follows them on the same stream; the test waits for that
// message, then counts the listings.
func TestMountListChangedInterval(t *testing.T) {
	t.Parallel()
	ls := newLiveServer(t, "a")
	var mu sync.Mutex
	marked := make(chan struct{})
	var once sync.Once
	warn := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		if strings.Contains(string(p), "end of flood") {
			once.Do(func() { close(marked) })
		}
		return len(p), nil
	})
	m, err := Mount(context.Background(), []string{"s=" + ls.url}, &MountOptions{Warn: warn, RefreshInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ch := m.Changed()
	ls.add("b", "The tool b.")
	<-ch
	for i := range 50 {
		ls.add("c"+string(rune('a'+i%26))+string(rune('a'+i/26)), "Flood.")
		ls.srv.RemoveTools("a")
	}
	for ss := range ls.srv.Sessions() {
		if err := ss.Log(context.Background(), &mcp.LoggingMessageParams{Level: "error", Data: "end of flood"}); err != nil {
			t.Fatal(err)
		}
	}
	<-marked
	m.Close()
	if n := ls.lists.Load(); n != 2 {
		t.Errorf("%d tools/list requests; want 2, at mount and after the first change", n)
	}
	if diff := cmp.Diff([]string{"s__a", "s__b"}, m.Names()); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
}

// TestServeLiveStdio: a server whose tool set changes tells its client
// over stdio, which subscribes (protocol 2026-07-28) or hears on its
// session; the end of stdin ends the server, though the subscription is
// still open.
func TestServeLiveStdio(t *testing.T) {
	t.Parallel()
	full := testbox.Toolbox()
	small, err := full.Select([]string{"count"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	cur := small
	srv, err := NewServer(small, &ServerOptions{Tools: func() *registry.Registry {
		mu.Lock()
		defer mu.Unlock()
		return cur
	}})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- ServeStdio(context.Background(), srv, inR, outW)
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
		t.Fatal(err)
	}
	count := func() int {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return len(res.Tools)
	}
	if n := count(); n != 1 {
		t.Errorf("%d tools at start; want 1", n)
	}
	mu.Lock()
	cur = full
	mu.Unlock()
	ToolsChanged(srv)
	<-changed
	if n, want := count(), len(full.Names()); n != want {
		t.Errorf("%d tools after the change; want %d", n, want)
	}
	inW.Close()
	if err := <-served; err != nil {
		t.Errorf("ServeStdio: %v", err)
	}
	cs.Close()
}
