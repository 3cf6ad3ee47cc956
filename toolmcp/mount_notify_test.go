package toolmcp

//lint:file-ignore SA1019 MCP logging and roots are deprecated as of protocol 2026-07-28 and functional for at least twelve months; toolreg serves and mounts servers that speak the earlier versions

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolreg/toolreg/tool"
)

// notifyServer is a server over HTTP whose "roots" tool lists the
// client's roots, and whose "work" tool reports progress 1 and 2 of 2 and
// logs a warning, then answers once seen is closed (the client handles
// notifications apart from answers: the test waits for them to arrive).
func notifyServer(t *testing.T, seen <-chan struct{}) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "notify", Version: "v0"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Logging: &mcp.LoggingCapabilities{}},
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "roots", Description: "The client's roots."},
		func(ctx context.Context, req *mcp.CallToolRequest, args struct{}) (*mcp.CallToolResult, any, error) {
			text := "no roots capability"
			if c := req.Session.InitializeParams().Capabilities; c != nil && (c.RootsV2 != nil || c.Roots != (mcp.RootCapabilities{})) {
				res, err := req.Session.ListRoots(ctx, nil)
				if err != nil {
					return nil, nil, err
				}
				var uris []string
				for _, r := range res.Roots {
					uris = append(uris, r.URI)
				}
				text = "roots: " + strings.Join(uris, " ")
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "work", Description: "Report progress, log a warning."},
		func(ctx context.Context, req *mcp.CallToolRequest, args struct{}) (*mcp.CallToolResult, any, error) {
			tok := req.Params.GetProgressToken()
			for _, p := range []float64{1, 2} {
				if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: p, Total: 2, Message: "step"}); err != nil {
					return nil, nil, err
				}
			}
			if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Logger: "disk", Data: "almost full"}); err != nil {
				return nil, nil, err
			}
			<-seen
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "worked"}}}, nil, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestMountRoots: the client claims roots only with some to list.
func TestMountRoots(t *testing.T) {
	t.Parallel()
	url := notifyServer(t, nil)
	dir := t.TempDir()
	for _, tt := range []struct {
		roots []string
		want  string
	}{
		{nil, "no roots capability"},
		{[]string{dir}, "roots: file://" + filepath.ToSlash(dir)},
	} {
		m, err := Mount(context.Background(), []string{"n=" + url}, &MountOptions{Roots: tt.roots})
		if err != nil {
			t.Fatal(err)
		}
		res := joined(t, nil, m).Call(context.Background(), "n__roots", `{}`)
		m.Close()
		if res.Text != tt.want {
			t.Errorf("roots %q: %q; want %q", tt.roots, res.Text, tt.want)
		}
	}
}

// TestMountNotifications: the progress of a mounted server reaches the
// call as tool.Progress, and its log messages the warner; the call is
// answered once both arrived (it would hang otherwise).
func TestMountNotifications(t *testing.T) {
	t.Parallel()
	seenCh := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	var got []seen
	var warned bool
	check := func() { // with mu held
		if len(got) == 2 && warned {
			once.Do(func() { close(seenCh) })
		}
	}
	warn := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		if strings.Contains(string(p), `mcp server "n" warning: disk: almost full`) {
			warned = true
		}
		check()
		return len(p), nil
	})
	m, err := Mount(context.Background(), []string{"n=" + notifyServer(t, seenCh)}, &MountOptions{Warn: warn})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx := tool.WithProgress(context.Background(), func(_ context.Context, done, total float64, msg string) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, seen{done, total, msg})
		check()
	})
	if res := joined(t, nil, m).Call(ctx, "n__work", `{}`); res.Text != "worked" {
		t.Fatalf("n__work: %q", res.Text)
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]seen{{1, 2, "step"}, {2, 2, "step"}}, got); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
}

type seen struct {
	Done, Total float64
	Msg         string
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestMountProgressBounded mounts a server whose tool sends 200 progress
// notifications of 8 KiB messages as fast as it can, then answers once
// the last (complete) has arrived: the call's tool.Progress gets messages
// of at most MaxProgressMessage bytes, no more often than one per
// ProgressEvery besides the first and the complete one, as a confined
// tool's progress reaches it; the rest would be served on whole to the
// agent's own MCP clients.
func TestMountProgressBounded(t *testing.T) {
	const n = 200
	complete := make(chan struct{})
	srv := mcp.NewServer(&mcp.Implementation{Name: "flood", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "work", Description: "Report progress."},
		func(ctx context.Context, req *mcp.CallToolRequest, args struct{}) (*mcp.CallToolResult, any, error) {
			tok := req.Params.GetProgressToken()
			msg := strings.Repeat("é", 4<<10) // 8 KiB
			for i := 1; i <= n; i++ {
				if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: n, Message: msg}); err != nil {
					return nil, nil, err
				}
			}
			<-complete
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "worked"}}}, nil, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()
	m, err := Mount(context.Background(), []string{"f=" + ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var mu sync.Mutex
	var reports, longest int
	start := time.Now()
	ctx := tool.WithProgress(context.Background(), func(_ context.Context, done, total float64, msg string) {
		mu.Lock()
		defer mu.Unlock()
		reports++
		longest = max(longest, len(msg))
		if done == n {
			close(complete)
		}
	})
	if res := joined(t, nil, m).Call(ctx, "f__work", `{}`); res.Text != "worked" {
		t.Fatalf("f__work: %q", res.Text)
	}
	elapsed := time.Since(start)
	mu.Lock()
	defer mu.Unlock()
	if most := 2 + int(elapsed/ProgressEvery); reports > most || longest > MaxProgressMessage {
		t.Errorf("%d reports in %s, the longest message %d bytes; want at most %d, of at most %d bytes", reports, elapsed, longest, most, MaxProgressMessage)
	}
}
