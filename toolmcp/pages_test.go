package toolmcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pagedServer is an MCP server over HTTP, by hand, whose tools/list
// answers pages pages of one tool each, every tool with a description of
// descBytes; before every eighth page and the last it records the live
// heap of the process (the client's, in this test).
type pagedServer struct {
	pages, descBytes int
	// discover answers server/discover for protocol 2026-07-28, where
	// the client falls back to initialize otherwise.
	discover bool
	// nameBytes pads each tool's name to that many bytes.
	nameBytes int
	// cursorBytes pads each cursor to that many bytes.
	cursorBytes int
	mu          sync.Mutex
	maxHeap     uint64
}

func (s *pagedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
			Cursor          string `json:"cursor"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &req) != nil || req.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	var result any = struct{}{}
	switch req.Method {
	case "server/discover":
		if !s.discover {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "no such method"}})
			return
		}
		result = map[string]any{"supportedVersions": []string{"2026-07-28"}, "capabilities": map[string]any{"tools": map[string]any{}}}
	case "initialize":
		result = map[string]any{"protocolVersion": req.Params.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo": map[string]any{"name": "paged", "version": "v0"}}
	case "tools/list":
		i, _ := strconv.Atoi(strings.TrimLeft(req.Params.Cursor, "c"))
		if i%8 == 7 || i+1 == s.pages {
			// Every eighth page and the last: a collection per page
			// made the test take 30 s under the race detector.
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			s.mu.Lock()
			s.maxHeap = max(s.maxHeap, ms.HeapAlloc)
			s.mu.Unlock()
		}
		name := fmt.Sprintf("t%03d", i)
		name += strings.Repeat("n", max(s.nameBytes-len(name), 0))
		if i == 0 {
			name += "\n? forged line"
		}
		page := map[string]any{"tools": []any{map[string]any{"name": name, "description": strings.Repeat("d", s.descBytes),
			"inputSchema": map[string]any{"type": "object"}}}}
		if i+1 < s.pages {
			next := strconv.Itoa(i + 1)
			page["nextCursor"] = strings.Repeat("c", max(s.cursorBytes-len(next), 0)) + next
		}
		result = page
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
}

// TestMountPagesNotKept: what the client keeps of a server's tools while
// it reads the pages of tools/list is bounded by the bounds of a tool
// (its description cut, its schema bounded), not by what the server
// sends: the pages were kept whole until the last, so a hostile server
// answering up to 4 × MaxTools pages of 16 MiB each had the agent hold
// gigabytes. Here 64 pages of one tool with a description of 256 KiB.
// The names shown in the warning are on one line.
func TestMountPagesNotKept(t *testing.T) {
	s := &pagedServer{pages: 64, descBytes: 256 << 10}
	ts := httptest.NewServer(s)
	defer ts.Close()
	var warn strings.Builder
	m, err := Mount(context.Background(), []string{"paged=" + ts.URL}, &MountOptions{Warn: &warn})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if n := len(m.Tools()); n != s.pages {
		t.Fatalf("%d tools mounted, want %d; warnings:\n%s", n, s.pages, warn.String())
	}
	for _, rt := range m.Tools() {
		if len(rt.Description) > MaxRemoteDescription+len("…") {
			t.Fatalf("the description of %s is %d bytes", rt.Name, len(rt.Description))
		}
	}
	// The note naming the tools whose description was cut is one line,
	// whatever their names.
	if n := strings.Count(warn.String(), "\n"); n != 1 {
		t.Errorf("want one line of warning, got %d:\n%s", n, warn.String())
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	// The descriptions read, 16 MiB, held until the last page; cut at
	// once, 256 KiB.
	if grew := int64(s.maxHeap) - int64(ms.HeapAlloc); grew > 8<<20 {
		t.Errorf("the live heap grew by %d MiB while the pages were read", grew>>20)
	}
}

// TestMountPagesNotCached: under protocol 2026-07-28 the SDK caches each
// page of tools/list, whole, by its cursor, for as long as the session
// lasts; what stays of them after Mount is what the client keeps of the
// tools, and a cursor past maxCursor ends the listing. A hostile server
// had the agent hold every page it read (here 64 of 256 KiB; up to
// 4 × MaxTools pages of 16 MiB), and cursors of any size as their keys.
func TestMountPagesNotCached(t *testing.T) {
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	s := &pagedServer{pages: 64, descBytes: 256 << 10, discover: true}
	ts := httptest.NewServer(s)
	defer ts.Close()
	before := heap()
	m, err := Mount(context.Background(), []string{"paged=" + ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if n := len(m.Tools()); n != s.pages {
		t.Fatalf("%d tools mounted, want %d", n, s.pages)
	}
	if grew := int64(heap()) - int64(before); grew > 8<<20 {
		t.Errorf("the live heap grew by %d MiB with the session", grew>>20)
	}
	runtime.KeepAlive(m)

	long := &pagedServer{pages: 4, descBytes: 10, discover: true, cursorBytes: maxCursor + 1}
	ts2 := httptest.NewServer(long)
	defer ts2.Close()
	var warn syncBuffer
	m2, err := Mount(context.Background(), []string{"long=" + ts2.URL}, &MountOptions{Warn: &warn})
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	if n := len(m2.Tools()); n != 1 || !strings.Contains(warn.String(), "cursor") {
		t.Errorf("%d tools mounted with cursors of %d bytes, want the first page's alone, and a warning; warnings:\n%s", n, long.cursorBytes, warn.String())
	}
}

// TestMountTaskNamesBounded: what the client notes of which tools need
// task augmentation, read from the answers to tools/list before the SDK
// decodes them, holds no name longer than a kept tool's and lasts one
// listing. It kept every name it read, of any length, for the session's
// life: here 16 pages of one tool named with 1 MiB held 16 MiB, and a
// server that renamed its tools at each listing grew it without end.
func TestMountTaskNamesBounded(t *testing.T) {
	t.Parallel()
	s := &pagedServer{pages: 16, descBytes: 10, nameBytes: 1 << 20}
	ts := httptest.NewServer(s)
	defer ts.Close()
	m, err := Mount(context.Background(), []string{"paged=" + ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if len(m.servers) != 1 {
		t.Fatal("the server was left out")
	}
	if n := len(m.Tools()); n != 0 {
		t.Errorf("%d tools mounted, want none: their names are too long", n)
	}
	tasks := m.servers[0].tasks
	tasks.mu.Lock()
	held := 0
	for name := range tasks.req {
		held += len(name)
	}
	tasks.mu.Unlock()
	if held > MaxRemoteDescription {
		t.Errorf("the names noted for tasks hold %d bytes", held)
	}

	// A listing starts anew; past maxTaskNames tools that need tasks,
	// every tool is taken to need them.
	var tt taskTools
	page := func(from, n int) []byte {
		var tools []string
		for i := from; i < from+n; i++ {
			tools = append(tools, fmt.Sprintf(`{"name":"r%d","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}`, i))
		}
		return []byte(`{"tools":[` + strings.Join(tools, ",") + `]}`)
	}
	tt.observe(page(0, 1))
	before := tt.required("r0")
	tt.reset()
	after := tt.required("r0")
	tt.observe(page(0, maxTaskNames+1))
	if got, want := []bool{before, after, tt.required("other"), len(tt.req) <= maxTaskNames}, []bool{true, false, true, true}; !cmp.Equal(got, want) {
		t.Errorf("required r0 before and after reset, another past the bound, the bound held: %v, want %v", got, want)
	}
}
