package toolmcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolreg/toolreg/registry"
)

// The bounds of the images and audio of a mounted tool's result that a
// server passes on to its client (see relay). Base64 makes 8 MiB some
// 10.7 MiB on the wire, which keeps a relayed result under the 16 MiB a
// line that the SDK's stdio clients read by default (DefaultMaxLineLength);
// and 4 MiB an item is under the 5 MB an image that vision APIs commonly
// take, so that a client can hand an image on to its model. An item past
// either bound is described in the text instead, with the reason.
const (
	MaxRelayedItem  = 4 << 20
	MaxRelayedTotal = 8 << 20
)

// maxNotes bounds the notes on media left out that a text gets, one a
// line; the rest are counted in one more line.
const maxNotes = 8

// relay returns the images and audio of a result that a server passes on
// to its client as MCP content, within the bounds item and total (bytes),
// and the notes, for the result's text, on those it leaves out. Media of
// any other type are left out: none reach it from a mounted tool.
func relay(media []registry.Media, item, total int) (content []mcp.Content, notes string) {
	var sb strings.Builder
	size, left := 0, 0
	for _, m := range media {
		var why string
		switch {
		case !m.Image() && !isKind(m.MIMEType, "audio/"):
			why = "neither an image nor audio"
		case len(m.Data) > item:
			why = fmt.Sprintf("over %d bytes, the most an item", item)
		case size+len(m.Data) > total:
			why = fmt.Sprintf("past %d bytes, the most a result passes on", total)
		case m.Image():
			content = append(content, &mcp.ImageContent{MIMEType: m.MIMEType, Data: m.Data})
		default:
			content = append(content, &mcp.AudioContent{MIMEType: m.MIMEType, Data: m.Data})
		}
		if why == "" {
			size += len(m.Data)
			continue
		}
		if left++; left <= maxNotes {
			fmt.Fprintf(&sb, "\n[%s, %d bytes: not passed on, %s]", clipLine(m.MIMEType, maxTypeShown), len(m.Data), why)
		}
	}
	if left > maxNotes {
		fmt.Fprintf(&sb, "\n[%d more images or audio not passed on]", left-maxNotes)
	}
	return content, sb.String()
}

// maxAnswer is the largest answer, in bytes, read from a mounted HTTP
// server as one JSON body: 16 MiB, as the SDK bounds a line from a stdio
// server (mcp.DefaultMaxLineLength) and a server-sent event
// (mcp.DefaultMaxEventSize), which it reads itself. It bounds what an
// image of a result can cost: a server that answers 2 GB of base64 is
// read up to here.
const maxAnswer = mcp.DefaultMaxEventSize

// boundTransport bounds the JSON answers of an HTTP server to max bytes:
// one past it is read no further and replaced by a JSON-RPC error answer
// to the request, so that the call fails and the session goes on. The
// body of an error status of any other type ends at max bytes: the SDK
// reads it whole, whatever its type, for a JSON-RPC error in it.
type boundTransport struct {
	base http.RoundTripper
	max  int
}

func (t *boundTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if mediaType(resp.Header) != "application/json" {
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			resp.Body = struct {
				io.Reader
				io.Closer
			}{io.LimitReader(resp.Body, int64(t.max)), resp.Body}
		}
		return resp, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(t.max)+1))
	resp.Body.Close()
	if err == nil && len(body) > t.max {
		body, err = tooLarge(req, t.max)
	}
	if err != nil {
		resp.Body = io.NopCloser(&errReader{err})
		return resp, nil
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// mediaType returns the media type of h's Content-Type, lower case, as
// the SDK reads it (mime.ParseMediaType), so that an answer it takes for
// JSON is bounded whatever the case the server wrote it in; "" when there
// is none or it does not parse.
func mediaType(h http.Header) string {
	t, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return t
}

// tooLarge returns the JSON-RPC error answer to req for an answer past
// max bytes, or an error when req is not one request with an id.
func tooLarge(req *http.Request, max int) ([]byte, error) {
	errTooLarge := fmt.Errorf("the server's answer is over %d bytes, the most read from a mounted server", max)
	if req.GetBody == nil {
		return nil, errTooLarge
	}
	rb, err := req.GetBody()
	if err != nil {
		return nil, errTooLarge
	}
	defer rb.Close()
	var r struct {
		ID json.RawMessage `json:"id"`
	}
	if json.NewDecoder(rb).Decode(&r) != nil || len(r.ID) == 0 || string(r.ID) == "null" {
		return nil, errTooLarge
	}
	return json.Marshal(map[string]any{"jsonrpc": "2.0", "id": r.ID, "error": map[string]any{
		"code": jsonrpc.CodeInternalError, "message": errTooLarge.Error()}})
}

// errReader fails every read with err.
type errReader struct{ err error }

func (r *errReader) Read([]byte) (int, error) { return 0, r.err }
