package registry

import (
	"context"
	"strings"
)

// Media is an image or a sound that a tool's result carries beside its
// text, as the tool of a mounted MCP server may answer with: the text
// describes it (its type and size), and a caller that can pass it on, to
// a model that takes images or to an MCP client, takes it from
// [Result.Media]; any other caller shows the text alone.
type Media struct {
	// MIMEType is the type the tool gave, as it gave it: nothing checked
	// it. A caller passes on only the types it knows.
	MIMEType string
	// Data is the content, decoded (not base64). It is shared, never
	// copied: nobody changes it.
	Data []byte
}

// Image reports whether m is an image: whether its MIME type is
// "image/" and a subtype, in any case.
func (m Media) Image() bool {
	return len(m.MIMEType) > len("image/") && strings.EqualFold(m.MIMEType[:len("image/")], "image/")
}

// mediaKey finds the callCtx of a call in a context derived from it.
type mediaKey struct{}

// AttachMedia adds m to the result of the call whose Run ctx is (the
// context Registry.Call gave it, or one derived from it), and reports
// whether it did: not outside such a call, nor once the call is over. The
// result's text should describe m all the same, for the callers that show
// the text alone. The media of a call that fails are dropped.
func AttachMedia(ctx context.Context, m Media) bool {
	c, _ := ctx.Value(mediaKey{}).(*callCtx)
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return false
	}
	c.media = append(c.media, m)
	return true
}
