package toolmcp

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The bounds of the images and audio of a mounted tool's result that a
// server passes on to its client (see withMedia). Base64 makes 8 MiB some
// 10.7 MiB on the wire, which keeps a relayed result under the 16 MiB a
// line that the SDK's stdio clients read by default (DefaultMaxLineLength);
// and 4 MiB an item is under the 5 MB an image that vision APIs commonly
// take, so that a client can hand an image on to its model. An item past
// either bound is described in the text instead.
const (
	MaxRelayedItem  = 4 << 20
	MaxRelayedTotal = 8 << 20
)

// media collects the images and audio of the results of mounted tools
// during one call, for a front end that can pass them on: agent mcp sends
// them to its client as image and audio content.
type media struct {
	item, total int // the bounds, MaxRelayedItem and MaxRelayedTotal

	mu      sync.Mutex
	content []mcp.Content
	size    int
}

type mediaKey struct{}

// withMedia returns ctx with a new collector of the media of the calls
// made under it.
func withMedia(ctx context.Context) (context.Context, *media) {
	m := &media{item: MaxRelayedItem, total: MaxRelayedTotal}
	return context.WithValue(ctx, mediaKey{}, m), m
}

// mediaFrom returns the collector of ctx, or nil.
func mediaFrom(ctx context.Context) *media {
	m, _ := ctx.Value(mediaKey{}).(*media)
	return m
}

// take keeps c, an image or audio of size bytes, if it fits the bounds,
// and reports whether it did. A nil m keeps nothing.
func (m *media) take(c mcp.Content, size int) bool {
	if m == nil || size > m.item {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.size+size > m.total {
		return false
	}
	m.size += size
	m.content = append(m.content, c)
	return true
}

// taken returns the content kept.
func (m *media) taken() []mcp.Content {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.content
}
