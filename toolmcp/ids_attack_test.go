package toolmcp

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAttackFractionalIDs: the SDK turns a number id into an int64
// (jsonrpc.MakeID), so a request with id 1.5 is answered with id 1, and a
// batch holding ids 1.5 and 1 gets one answer for two requests; front
// keeps them apart ("n1.5", "n1"), so a client that cancels the id it was
// answered with (1) does not reach the call it made (1.5). front refuses
// other ids it cannot keep exactly (TestHTTPOddMembersRefused: 1e400); a
// fractional or out-of-int64-precision id should be refused as well (400,
// -32600), or answered with the id it came with.
func TestAttackFractionalIDs(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(HTTPHandler(testServer(t, nil), nil))
	defer ts.Close()
	for _, tt := range []struct{ body, proto string }{
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, "2025-06-18"},
		{`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, "2025-06-18"},
		{`[{"jsonrpc":"2.0","id":1.5,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "2025-03-26"},
	} {
		status, _, body := post(t, ts.Client(), ts.URL, tt.body, "Mcp-Protocol-Version", tt.proto)
		if status == 400 {
			continue // refused: fine
		}
		ids := func(v any) (out []string) {
			l, ok := v.([]any)
			if !ok {
				l = []any{v}
			}
			for _, m := range l {
				if mm, ok := m.(map[string]any); ok {
					b, _ := json.Marshal(mm["id"])
					out = append(out, string(b))
				}
			}
			return out
		}
		var sentIDs []string
		dec := json.NewDecoder(strings.NewReader(tt.body))
		dec.UseNumber()
		var raw any
		_ = dec.Decode(&raw)
		sentIDs = ids(raw)
		gotDec := json.NewDecoder(strings.NewReader(body))
		gotDec.UseNumber()
		var rawGot any
		_ = gotDec.Decode(&rawGot)
		gotIDs := ids(rawGot)
		if len(gotIDs) != len(sentIDs) {
			t.Errorf("%s: %d requests, %d answers: %s", tt.body, len(sentIDs), len(gotIDs), body)
			continue
		}
		for i := range sentIDs {
			if sentIDs[i] != gotIDs[i] {
				t.Errorf("%s: request id %s answered with id %s", tt.body, sentIDs[i], gotIDs[i])
			}
		}
	}
}
