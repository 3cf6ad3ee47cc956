package toolmcp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/toolreg/toolreg/tool"
)

// TestHTTPOddMembersRefused: a message whose members front reads as
// strings hold something else (a number for params.reason or the log
// level of params._meta, which the SDK ignores in a tools/call), or whose
// id is neither a string nor a number front can read, is refused with 400
// and -32600, and does not run. front took it for no message and handed
// it to the SDK unseen, which ran the call during the drain, outside the
// bound of the requests in flight and out of reach of
// notifications/cancelled; the scopes held only at the call itself, with
// an isError result where the token should get 403 and its challenge.
func TestHTTPOddMembersRefused(t *testing.T) {
	t.Parallel()
	ts, draining, token := scopedFront(t)
	type answer struct {
		Status int
		Ran    bool // answered with a result
	}
	var got []answer
	for _, tt := range []struct {
		call  string
		drain bool
	}{
		{rawCall, false},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","reason":1,"arguments":{"text":"raw"}}}`, false},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/logLevel":1},"arguments":{"text":"raw"}}}`, false},
		{`[{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","reason":[],"arguments":{"text":"raw"}}}]`, false},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"count","reason":{},"arguments":{"text":"raw"}}}`, true},
		{`{"jsonrpc":"2.0","id":1e400,"method":"tools/call","params":{"name":"echo","arguments":{"text":"raw"}}}`, false},
	} {
		draining.Store(tt.drain)
		status, _, body := post(t, ts.Client(), ts.URL, tt.call, "Authorization", token, "Mcp-Protocol-Version", "2025-03-26")
		got = append(got, answer{status, strings.Contains(body, `"result"`)})
	}
	want := []answer{{http.StatusForbidden, false}} // the plain call, for its scope
	for range 5 {
		want = append(want, answer{http.StatusBadRequest, false})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

// scopedFront serves scopedServer's echo behind the HTTP front, closed
// when the test ends, and returns it, the flag that drains it, and a
// token for the scope tools:network alone.
func scopedFront(t *testing.T) (ts *httptest.Server, draining *atomic.Bool, token string) {
	t.Helper()
	iss := newFakeIssuer(t)
	srv, opts := scopedServer(t, iss, tool.Exec)
	draining = new(atomic.Bool)
	o := opts.withDefaults()
	ts = httptest.NewServer(newFront(srv, &o, draining).outer)
	t.Cleanup(ts.Close)
	token = "Bearer " + iss.token(t, jwt.MapClaims{"iss": iss.URL, "aud": scopedResource, "exp": time.Now().Add(time.Hour).Unix(), "scope": "tools:network"}, nil)
	return ts, draining, token
}
