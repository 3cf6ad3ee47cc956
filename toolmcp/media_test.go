package toolmcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolreg/toolreg/registry"
)

// TestRelayBounds: an item is passed on at the item bound, not past it;
// items are passed on until the total bound, not past it; a type that is
// neither image nor audio is not; each one left out has a note, up to
// maxNotes, and then one line counts the rest.
func TestRelayBounds(t *testing.T) {
	t.Parallel()
	var media []registry.Media
	for _, size := range []int{3, 4, 5, 3, 1, 0} {
		media = append(media, registry.Media{MIMEType: "audio/wav", Data: make([]byte, size)})
	}
	media = append(media, registry.Media{MIMEType: "image/PNG", Data: []byte("x")}, registry.Media{MIMEType: "text/html", Data: []byte("<p>")})
	content, notes := relay(media, 4, 10)
	// 3, 4 and 3 make 10; 5 is past the item bound; 1 is past the total.
	want := []mcp.Content{
		&mcp.AudioContent{MIMEType: "audio/wav", Data: make([]byte, 3)},
		&mcp.AudioContent{MIMEType: "audio/wav", Data: make([]byte, 4)},
		&mcp.AudioContent{MIMEType: "audio/wav", Data: make([]byte, 3)},
		&mcp.AudioContent{MIMEType: "audio/wav", Data: []byte{}},
	}
	if diff := cmp.Diff(want, content); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
	wantNotes := "\n[audio/wav, 5 bytes: not passed on, over 4 bytes, the most an item]" +
		"\n[audio/wav, 1 bytes: not passed on, past 10 bytes, the most a result passes on]" +
		"\n[image/PNG, 1 bytes: not passed on, past 10 bytes, the most a result passes on]" +
		"\n[text/html, 3 bytes: not passed on, neither an image nor audio]"
	if diff := cmp.Diff(wantNotes, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}

	// A hundred images past the bounds: maxNotes notes and a count.
	media = make([]registry.Media, 100)
	for i := range media {
		media[i] = registry.Media{MIMEType: "image/png", Data: make([]byte, 5)}
	}
	content, notes = relay(media, 4, 10)
	if len(content) != 0 || strings.Count(notes, "\n") != maxNotes+1 || !strings.HasSuffix(notes, "\n[92 more images or audio not passed on]") {
		t.Errorf("a hundred images: %d passed on, notes %q", len(content), notes)
	}
}

// imageServer serves over streamable HTTP one tool, shot, that answers
// content, and returns the spec of a mount of it.
func imageServer(t *testing.T, content ...mcp.Content) string {
	t.Helper()
	remote := mcp.NewServer(&mcp.Implementation{Name: "img", Version: "v0"}, nil)
	mcp.AddTool(remote, &mcp.Tool{Name: "shot", Description: "A screenshot."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: content}, nil, nil
		})
	// Stateless: no server session outlives the test's connections.
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return remote }, &mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(ts.Close)
	return "img=" + ts.URL
}

// TestServeRelaysMedia: agent mcp serving a mounted tool passes its
// images and audio on as MCP content after the text, which describes
// them; an image past MaxRelayedItem is only described, with the reason.
// A call through the registry carries them all in Result.Media, the text
// the same.
func TestServeRelaysMedia(t *testing.T) {
	t.Parallel() // it waits: for timeouts, or for other processes
	png := tinyPNG(t)
	big := make([]byte, MaxRelayedItem+1)
	spec := imageServer(t,
		&mcp.TextContent{Text: "the page"},
		&mcp.ImageContent{MIMEType: "image/png", Data: png},
		&mcp.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF")},
		&mcp.ImageContent{MIMEType: "image/png", Data: big},
	)
	m, err := Mount(context.Background(), []string{spec}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	srv, err := NewServer(joined(t, nil, m), nil)
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "img__shot", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	text := "the page\n[image: image/png, 3×2 pixels, " + strconv.Itoa(len(png)) + " bytes]\n" +
		"[audio: audio/wav, 4 bytes]\n[image: image/png, " + strconv.Itoa(len(big)) + " bytes]"
	want := []mcp.Content{
		&mcp.TextContent{Text: text + "\n[image/png, " + strconv.Itoa(len(big)) + " bytes: not passed on, over 4194304 bytes, the most an item]"},
		&mcp.ImageContent{MIMEType: "image/png", Data: png},
		&mcp.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF")},
	}
	// bytes.Equal: go-cmp compares a slice byte by byte, seconds for 4 MiB.
	if diff := cmp.Diff(want, res.Content, cmp.Comparer(bytes.Equal)); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}

	got := joined(t, nil, m).Call(context.Background(), "img__shot", `{}`)
	wantMedia := []registry.Media{{MIMEType: "image/png", Data: png}, {MIMEType: "audio/wav", Data: []byte("RIFF")}, {MIMEType: "image/png", Data: big}}
	if diff := cmp.Diff(wantMedia, got.Media, cmp.Comparer(bytes.Equal)); diff != "" || got.Text != text {
		t.Errorf("in a conversation: %q; media (-want +got):\n%s", got.Text, diff)
	}
}

// TestMountMediaKind: an image or audio whose MIME type is not of its
// kind is described and never attached: a model or a client is never
// handed HTML as an image; a type of a megabyte is shown cut.
func TestMountMediaKind(t *testing.T) {
	t.Parallel()
	long := "image/" + strings.Repeat("x", 1<<20)
	spec := imageServer(t,
		&mcp.ImageContent{MIMEType: "text/html", Data: []byte("<script>")},
		&mcp.ImageContent{MIMEType: "", Data: []byte("?")},
		&mcp.AudioContent{MIMEType: "image/png", Data: []byte("x")},
		&mcp.ImageContent{MIMEType: "image/svg+xml", Data: []byte("<svg onload='alert(1)'/>")},
		&mcp.ImageContent{MIMEType: long, Data: []byte("x")},
	)
	m, err := Mount(context.Background(), []string{spec}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	got := joined(t, nil, m).Call(context.Background(), "img__shot", `{}`)
	// SVG is an image type: the registry passes it, its callers judge it
	// (chat shows PNG, JPEG, GIF and WebP only).
	wantMedia := []registry.Media{{MIMEType: "image/svg+xml", Data: []byte("<svg onload='alert(1)'/>")}, {MIMEType: long, Data: []byte("x")}}
	if diff := cmp.Diff(wantMedia, got.Media); diff != "" {
		t.Errorf("media (-want +got):\n%s", diff)
	}
	wantText := "[image: text/html, 8 bytes]\n[image: of unknown type, 1 bytes]\n[audio: image/png, 1 bytes]\n" +
		"[image: image/svg+xml, 24 bytes]\n[image: " + long[:maxTypeShown] + "…, 1 bytes]"
	if diff := cmp.Diff(wantText, got.Text); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
}

// hugeAnswers wraps an MCP handler: it answers tools/call itself, with an
// image whose base64 runs on for 2 GB, as JSON or as a server-sent event,
// and counts the bytes it could write. It stops at 96 MiB: past that, the
// client read what it should have refused.
type hugeAnswers struct {
	next    http.Handler
	sse     bool
	ctype   string // the Content-Type of a JSON answer; application/json when ""
	status  int    // the status of the answer; 200 when 0
	written atomic.Int64
}

const hugeStop = 96 << 20

func (h *hugeAnswers) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(body, &req) != nil || req.Method != "tools/call" {
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.next.ServeHTTP(w, r)
		return
	}
	head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"image","mimeType":"image/png","data":"`, req.ID)
	if h.sse {
		w.Header().Set("Content-Type", "text/event-stream")
		head = "event: message\ndata: " + head
	} else {
		w.Header().Set("Content-Type", h.contentType())
		w.Header().Set("Content-Length", strconv.Itoa(2<<30))
	}
	status := http.StatusOK
	if h.status != 0 {
		status = h.status
	}
	w.WriteHeader(status)
	chunk := bytes.Repeat([]byte("A"), 64<<10)
	n, err := io.WriteString(w, head)
	h.written.Add(int64(n))
	for err == nil && h.written.Load() < hugeStop {
		n, err = w.Write(chunk)
		h.written.Add(int64(n))
	}
}

// TestMountHugeAnswer: a mounted server that answers a call with 2 GB of
// base64 is read no further than maxAnswer (and the buffers between):
// the call fails with KindRemote. Over JSON the refusal is toolreg's own,
// and the session goes on; over server-sent events the SDK bounds the
// event (once told its bound) and ends the session.
func TestMountHugeAnswer(t *testing.T) {
	t.Parallel()
	for _, sse := range []bool{false, true} {
		t.Run(map[bool]string{false: "json", true: "sse"}[sse], func(t *testing.T) {
			m, res := callHuge(t, &hugeAnswers{sse: sse})
			if kindOf(res.Err) != registry.KindRemote || len(res.Media) != 0 {
				t.Errorf("call: %q, %d media", res.Text, len(res.Media))
			}
			if sse {
				// The SDK takes an event past its bound for a broken
				// stream: the session ends.
				if !strings.Contains(res.Text, "exceeded 16777216 bytes") {
					t.Errorf("call: %q", res.Text)
				}
				for m.Ready(context.Background()) == nil {
					time.Sleep(time.Millisecond) // the test's timeout bounds the wait
				}
				return
			}
			if want := "Error: img__shot: server \"img\" refused the call: the server's answer is over 16777216 bytes, the most read from a mounted server"; res.Text != want {
				t.Errorf("call: %q, want %q", res.Text, want)
			}
			if err := m.Ready(context.Background()); err != nil {
				t.Errorf("the session did not go on: %v", err)
			}
		})
	}
}

// TestMountHugeAnswerAnyCase: the bound of a JSON answer holds whatever
// the case of its media type, which the SDK reads as MIME says (without
// regard to case): a hostile server that answers
// "Application/JSON; charset=UTF-8" with 2 GB is read no further than
// maxAnswer either, and the session goes on.
func TestMountHugeAnswerAnyCase(t *testing.T) {
	t.Parallel()
	_, res := callHuge(t, &hugeAnswers{ctype: "Application/JSON; charset=UTF-8"})
	if want := "Error: img__shot: server \"img\" refused the call: the server's answer is over 16777216 bytes, the most read from a mounted server"; res.Text != want {
		t.Errorf("call: %q, want %q", res.Text, want)
	}
}

// TestMountHugeErrorAnswer: an error status is read no further than
// maxAnswer either, whatever its media type: the SDK reads the body of a
// status that is not 2xx whole, to find a JSON-RPC error in it, so a
// hostile server that answered a call 400 with text/plain (or
// text/event-stream) and no end to it had the agent read it into memory
// until the call's timeout.
func TestMountHugeErrorAnswer(t *testing.T) {
	t.Parallel()
	for _, ctype := range []string{"text/plain", "text/event-stream"} {
		t.Run(ctype, func(t *testing.T) {
			_, res := callHuge(t, &hugeAnswers{ctype: ctype, status: http.StatusBadRequest})
			if kindOf(res.Err) != registry.KindRemote {
				t.Errorf("call: %q, want a remote error", res.Text)
			}
		})
	}
}

// callHuge mounts h, in front of a server of one tool, shot, whose own
// answer is small, calls shot, and checks that the client stopped
// reading before the writer's end: it returns the mount, still open
// until the test ends, and the call's result.
func callHuge(t *testing.T, h *hugeAnswers) (*Mounts, registry.Result) {
	t.Helper()
	remote := mcp.NewServer(&mcp.Implementation{Name: "img", Version: "v0"}, nil)
	mcp.AddTool(remote, &mcp.Tool{Name: "shot", Description: "A screenshot."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "small"}}}, nil, nil
		})
	h.next = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return remote },
		&mcp.StreamableHTTPOptions{JSONResponse: !h.sse, Stateless: true})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	m, err := Mount(context.Background(), []string{"img=" + ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	res := joined(t, nil, m).Call(context.Background(), "img__shot", `{}`)
	ts.CloseClientConnections() // the writer ends
	if w := h.written.Load(); w >= hugeStop {
		t.Errorf("the server wrote %d bytes: the client read on", w)
	}
	return m, res
}

func (h *hugeAnswers) contentType() string {
	if h.ctype == "" {
		return "application/json"
	}
	return h.ctype
}

// hugeImageServer serves MCP on r and w by hand, the least a client
// needs, with one tool, shot, whose answer is an image of over 16 MiB of
// base64 on one line, written from a buffer: an SDK server would marshal
// it, seconds under the race detector.
func hugeImageServer(r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			return err
		}
		if req.ID == nil {
			continue // a notification
		}
		result := `{}`
		switch req.Method {
		case "initialize":
			result = fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"huge","version":"v0"}}`, req.Params.ProtocolVersion)
		case "tools/list":
			result = `{"tools":[{"name":"shot","description":"A screenshot.","inputSchema":{"type":"object"}}]}`
		case "tools/call":
			if _, err := fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"image","mimeType":"image/png","data":"`, req.ID); err != nil {
				return err
			}
			chunk := bytes.Repeat([]byte("AAAA"), 256<<10)
			for range 17 {
				if _, err := w.Write(chunk); err != nil {
					return err
				}
			}
			result = ""
			if _, err := io.WriteString(w, `"}]}}`+"\n"); err != nil {
				return err
			}
		}
		if result != "" {
			if _, err := fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, result); err != nil {
				return err
			}
		}
	}
	return sc.Err()
}

// TestMountHugeStdioAnswer: a stdio server's answer past the SDK's bound
// of a line (mcp.DefaultMaxLineLength, 16 MiB) is not read: the call fails
// and the server, whose output can no longer be trusted, is lost.
func TestMountHugeStdioAnswer(t *testing.T) {
	t.Parallel() // it waits: for timeouts, or for other processes
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The server, stuck writing its answer, is stopped at once on Close.
	m, err := Mount(context.Background(), []string{"huge=env " + serverEnv + "=huge " + shellQuote(exe)}, &MountOptions{TerminateWait: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	res := joined(t, nil, m).Call(context.Background(), "huge__shot", `{}`)
	if kindOf(res.Err) != registry.KindRemote || len(res.Media) != 0 || !strings.Contains(res.Text, "server \"huge\" is unavailable") {
		t.Errorf("call: %q, %d media", res.Text, len(res.Media))
	}
}
