package toolmcp

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestAttackEnvelopeEscapedKeys: front reads a message's members
// with members(), which keeps the key NextField returned across the Skip
// of its value. An escaped key ("p\u0061rams") is unquoted into the
// decoder's scratch buffer, and the Skip of an object value whose own keys
// are escaped unquotes them into the same buffer: the outer key is
// overwritten before member() sees it. front then reads another message
// than the SDK (which unescapes keys as JSON says) runs.
func TestAttackEnvelopeEscapedKeys(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		msg      string
		name     string
		progress string
	}{
		// front misses params: no name for the scopes' 403.
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","p\u0061rams":{"n\u0061me":"echo","arguments":{}}}`, "echo", ""},
		// front misses _meta: no progress token, the answer is not streamed.
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","\u005fmeta":{"pr\u006fgressToken":"t1"}}}`, "echo", `"t1"`},
		// an unknown member whose escaped key becomes "params" after the
		// Skip: front reads the name of another tool than the SDK calls.
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo"},"\u0078xxxxx":{"p\u0061rams":0,"name":"harmless"}}`, "echo", ""},
	} {
		var e envelope
		if err := json.Unmarshal([]byte(tt.msg), &e); err != nil {
			t.Errorf("%s: %v", tt.msg, err)
			continue
		}
		if e.Params.Name != tt.name || string(e.Params.Meta.ProgressToken) != tt.progress {
			t.Errorf("%s: front read name %q, progress token %s; the SDK reads name %q, progress token %s",
				tt.msg, e.Params.Name, e.Params.Meta.ProgressToken, tt.name, tt.progress)
		}
	}
}

// TestAttackScopeByEscapedKey: end to end, a token without
// tools:exec calls echo (which needs it) with the key params escaped: the
// front's 403 with its step-up challenge is skipped, the SDK runs the
// request (only the tool handler's own check refuses it, as an isError
// result with 200).
func TestAttackScopeByEscapedKey(t *testing.T) {
	t.Parallel()
	ts, _, token := scopedFront(t)
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","p\u0061rams":{"n\u0061me":"echo","arguments":{"text":"raw"}}}`
	status, h, body := post(t, ts.Client(), ts.URL, call, "Authorization", token)
	if status != http.StatusForbidden || !strings.Contains(h.Get("WWW-Authenticate"), "insufficient_scope") {
		t.Errorf("escaped params: status %d, WWW-Authenticate %q, body %.300s; want 403 with insufficient_scope as for the plain call", status, h.Get("WWW-Authenticate"), body)
	}
}
