package toolbox

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// pingFixedAnswer is a transport that answers every request itself, with
// the given status code and status line, and sends nothing anywhere.
type pingFixedAnswer struct {
	code   int
	status string
}

func (a pingFixedAnswer) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: a.code, Status: a.status, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")), Request: req,
	}, nil
}

// TestPingURLStatusLine reports the status line the server sent, reason
// phrase and all, and writes one from the code when there is none.
func TestPingURLStatusLine(t *testing.T) {
	for _, tc := range []struct {
		answer pingFixedAnswer
		want   string
	}{
		{pingFixedAnswer{200, "200 Fine"}, "200 Fine"},
		{pingFixedAnswer{200, ""}, "200 OK"},
		{pingFixedAnswer{404, ""}, "404 Not Found"},
	} {
		p := &PingURL{client: &http.Client{Transport: tc.answer}, clock: pingSteps(time.Millisecond)}
		got, err := p.Execute(context.Background(), PingURLArgs{URL: "http://status.test/x"})
		if err != nil {
			t.Fatalf("%+v: %v", tc.answer, err)
		}
		want := PingURLResult{URL: "http://status.test/x", Method: "HEAD", StatusCode: tc.answer.code, Status: tc.want, LatencyMS: 1}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.answer, diff)
		}
	}
}
