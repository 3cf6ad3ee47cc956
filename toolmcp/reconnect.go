package toolmcp

import (
	"net/http"
	"sync"
	"time"
)

// The pace of the resumptions of a mounted server's event streams: after
// resumeBurst at once, one each resumeEvery.
const (
	resumeBurst = 4
	resumeEvery = time.Second
)

// resumeLimit paces the GETs that resume an event stream (those with a
// Last-Event-ID) of one server. The SDK resumes a stream that ends, after
// the delay the server's "retry" field asks for, for as long as each
// stream brings a new event id: a server that ends each stream at once
// with "retry: 1" had the client send it a thousand GETs a second for as
// long as the session lasted.
type resumeLimit struct {
	base http.RoundTripper

	mu   sync.Mutex
	next time.Time // the earliest time of the next resumption, the burst spent
}

func (t *resumeLimit) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodGet && req.Header.Get("Last-Event-ID") != "" {
		t.mu.Lock()
		now := time.Now()
		at := now.Add(-(resumeBurst - 1) * resumeEvery)
		if t.next.After(at) {
			at = t.next
		}
		t.next = at.Add(resumeEvery)
		t.mu.Unlock()
		if wait := at.Sub(now); wait > 0 {
			tm := time.NewTimer(wait)
			select {
			case <-tm.C:
			case <-req.Context().Done():
				tm.Stop()
				if req.Body != nil {
					req.Body.Close()
				}
				return nil, req.Context().Err()
			}
		}
	}
	return t.base.RoundTrip(req)
}
