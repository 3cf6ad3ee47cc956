package toolmcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMediaBounds: an item is kept at the item bound, not past it; items
// are kept until the total bound, not past it.
func TestMediaBounds(t *testing.T) {
	m := &media{item: 4, total: 10}
	var got []bool
	for _, size := range []int{3, 4, 5, 3, 1, 0} {
		got = append(got, m.take(&mcp.AudioContent{Data: make([]byte, size)}, size))
	}
	// 3, 4 and 3 make 10; 5 is past the item bound; 1 is past the total.
	if diff := cmp.Diff([]bool{true, true, false, true, false, true}, got); diff != "" {
		t.Errorf("taken (-want +got):\n%s", diff)
	}
	if n := len(m.taken()); n != 4 {
		t.Errorf("%d items kept; want 4", n)
	}
	var none *media
	if none.take(&mcp.AudioContent{}, 0) {
		t.Error("a nil collector took an item")
	}
}

// TestServeRelaysMedia: agent mcp serving a mounted tool passes its
// images and audio on as MCP content after the text, which says they are
// passed on; an image past MaxRelayedItem is only described.
func TestServeRelaysMedia(t *testing.T) {
	png := tinyPNG(t)
	big := make([]byte, MaxRelayedItem+1)
	remote := mcp.NewServer(&mcp.Implementation{Name: "img", Version: "v0"}, nil)
	mcp.AddTool(remote, &mcp.Tool{Name: "shot", Description: "A screenshot."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "the page"},
				&mcp.ImageContent{MIMEType: "image/png", Data: png},
				&mcp.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF")},
				&mcp.ImageContent{MIMEType: "image/png", Data: big},
			}}, nil, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return remote }, nil))
	defer ts.Close()
	m, err := Mount(context.Background(), []string{"img=" + ts.URL}, nil)
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
	want := []mcp.Content{
		&mcp.TextContent{Text: "the page\n[image: image/png, 3×2 pixels, " + strconv.Itoa(len(png)) + " bytes; passed on]\n" +
			"[audio: audio/wav, 4 bytes; passed on]\n[image: image/png, " + strconv.Itoa(len(big)) + " bytes; not shown to the model]"},
		&mcp.ImageContent{MIMEType: "image/png", Data: png},
		&mcp.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF")},
	}
	if diff := cmp.Diff(want, res.Content); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}

	// A conversation has no way to pass them on: they are described.
	if got := joined(t, nil, m).Call(context.Background(), "img__shot", `{}`).Text; got != "the page\n[image: image/png, 3×2 pixels, "+strconv.Itoa(len(png))+" bytes; not shown to the model]\n"+
		"[audio: audio/wav, 4 bytes]\n[image: image/png, "+strconv.Itoa(len(big))+" bytes; not shown to the model]" {
		t.Errorf("in a conversation: %q", got)
	}
}
