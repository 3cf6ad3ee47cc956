package toolbox

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolreg/toolreg/egress"
)

// pingRecorder is an HTTP handler that notes the requests it gets.
type pingRecorder struct {
	mu       sync.Mutex
	requests []string // "METHOD path user-agent"
}

func (r *pingRecorder) note(req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, req.Method+" "+req.URL.Path+" "+req.UserAgent())
}

func (r *pingRecorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.requests...)
}

func pingTestServer(t *testing.T) (*httptest.Server, *pingRecorder) {
	t.Helper()
	rec := &pingRecorder{}
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		rec.note(r)
		w.Write([]byte("hello"))
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		rec.note(r)
		http.NotFound(w, r)
	})
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) {
		rec.note(r)
		http.Error(w, "boom", http.StatusInternalServerError)
	})
	mux.HandleFunc("/nohead", func(w http.ResponseWriter, r *http.Request) {
		rec.note(r)
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Write([]byte(strings.Repeat("x", 1<<20)))
	})
	mux.HandleFunc("/never", func(w http.ResponseWriter, r *http.Request) {
		rec.note(r)
		w.WriteHeader(http.StatusMethodNotAllowed)
	})
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		rec.note(r)
		http.Redirect(w, r, "/middle", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/middle", func(w http.ResponseWriter, r *http.Request) {
		rec.note(r)
		http.Redirect(w, r, "/ok", http.StatusFound)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		rec.note(r)
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/to-ftp", func(w http.ResponseWriter, r *http.Request) {
		rec.note(r)
		http.Redirect(w, r, "ftp://example.com/file", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, rec
}

func TestPingURLExecute(t *testing.T) {
	ua := " toolreg-ping_url/1"
	tests := []struct {
		name      string
		path      string
		finalPath string // where redirects lead, if anywhere
		want      PingURLResult
		requests  []string
	}{
		{
			name:     "ok",
			path:     "/ok",
			want:     PingURLResult{Method: "HEAD", StatusCode: 200, Status: "200 OK"},
			requests: []string{"HEAD /ok" + ua},
		},
		{
			name:     "not found is an answer, not an error",
			path:     "/missing",
			want:     PingURLResult{Method: "HEAD", StatusCode: 404, Status: "404 Not Found"},
			requests: []string{"HEAD /missing" + ua},
		},
		{
			name:     "server error is an answer, not an error",
			path:     "/broken",
			want:     PingURLResult{Method: "HEAD", StatusCode: 500, Status: "500 Internal Server Error"},
			requests: []string{"HEAD /broken" + ua},
		},
		{
			name:     "405 to HEAD falls back to GET",
			path:     "/nohead",
			want:     PingURLResult{Method: "GET", StatusCode: 200, Status: "200 OK"},
			requests: []string{"HEAD /nohead" + ua, "GET /nohead" + ua},
		},
		{
			name:     "405 to GET too is reported",
			path:     "/never",
			want:     PingURLResult{Method: "GET", StatusCode: 405, Status: "405 Method Not Allowed"},
			requests: []string{"HEAD /never" + ua, "GET /never" + ua},
		},
		{
			name:      "redirects are followed and counted",
			path:      "/old",
			finalPath: "/ok",
			want:      PingURLResult{Method: "HEAD", StatusCode: 200, Status: "200 OK", Redirects: 2},
			requests:  []string{"HEAD /old" + ua, "HEAD /middle" + ua, "HEAD /ok" + ua},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A fresh server per case keeps the request log to this case.
			srv, rec := pingTestServer(t)
			tt.want.URL = srv.URL + tt.path
			if tt.finalPath != "" {
				tt.want.FinalURL = srv.URL + tt.finalPath
			}
			// Each reading of the clock is 1.5 ms after the one before:
			// every request, the last one reported, takes 1.5 ms.
			p := PingURL{clock: pingSteps(1500 * time.Microsecond)}
			tt.want.LatencyMS = 1.5
			got, err := p.Execute(pingLoopback(), PingURLArgs{URL: srv.URL + tt.path})
			if err != nil {
				t.Fatalf("Execute error: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Execute (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.requests, rec.got()); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPingURLRedirectErrors(t *testing.T) {
	srv, rec := pingTestServer(t)
	var p PingURL
	_, err := p.Execute(pingLoopback(), PingURLArgs{URL: srv.URL + "/loop"})
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") {
		t.Errorf("redirect loop: error = %v, want one saying it stopped after 10 redirects", err)
	}
	if n := len(rec.got()); n != 11 {
		t.Errorf("redirect loop made %d requests, want 11", n)
	}

	_, err = p.Execute(pingLoopback(), PingURLArgs{URL: srv.URL + "/to-ftp"})
	if err == nil || !strings.Contains(err.Error(), "not an http or https address") {
		t.Errorf("redirect to ftp: error = %v, want one saying it is not an http or https address", err)
	}
}

func TestPingURLSharesOneClient(t *testing.T) {
	srv, _ := pingTestServer(t)
	var p PingURL
	for range 3 {
		if _, err := p.Execute(pingLoopback(), PingURLArgs{URL: srv.URL + "/ok"}); err != nil {
			t.Fatal(err)
		}
	}
	c := p.httpClient()
	if c == nil || c != p.httpClient() {
		t.Fatal("httpClient does not return one shared client")
	}
	if c.Timeout != pingTimeout {
		t.Errorf("client timeout = %v, want %v", c.Timeout, pingTimeout)
	}
}

func TestPingURLTLS(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	c := srv.Client()
	c.CheckRedirect = pingCheckRedirect
	p := PingURL{client: c}
	got, err := p.Execute(pingLoopback(), PingURLArgs{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	want := PingURLResult{URL: srv.URL, Method: "HEAD", StatusCode: 204, Status: "204 No Content"}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(PingURLResult{}, "LatencyMS")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	// Without trusting the test certificate the ping fails, and says why.
	var fresh PingURL
	if _, err := fresh.Execute(pingLoopback(), PingURLArgs{URL: srv.URL}); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("untrusted certificate: error = %v, want one about the certificate", err)
	}
}

// pingSlowServer answers no request until the test ends; arrived receives
// a value as each request comes in.
func pingSlowServer(t *testing.T) (srv *httptest.Server, arrived chan struct{}) {
	t.Helper()
	arrived = make(chan struct{}, 10)
	release := make(chan struct{})
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs before srv.Close
	return srv, arrived
}

func TestPingURLSlowServerDeadline(t *testing.T) {
	srv, _ := pingSlowServer(t)
	ctx, cancel := context.WithTimeout(pingLoopback(), 50*time.Millisecond)
	defer cancel()
	var p PingURL
	got, err := p.Execute(ctx, PingURLArgs{URL: srv.URL})
	if err == nil {
		t.Fatalf("Execute = %+v, want an error", got)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v does not wrap context.DeadlineExceeded", err)
	}
	if !strings.Contains(err.Error(), "no answer from "+srv.URL) {
		t.Errorf("error %q does not say there was no answer", err)
	}
}

func TestPingURLCancelled(t *testing.T) {
	srv, arrived := pingSlowServer(t)
	ctx, cancel := context.WithCancel(pingLoopback())
	defer cancel()
	go func() {
		<-arrived
		cancel()
	}()
	var p PingURL
	_, err := p.Execute(ctx, PingURLArgs{URL: srv.URL})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want one wrapping context.Canceled", err)
	}
}

func TestPingURLConnectionRefused(t *testing.T) {
	// Take a free loopback port and close it again.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	var p PingURL
	_, err = p.Execute(pingLoopback(), PingURLArgs{URL: "http://" + addr + "/"})
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("error = %v, want one saying the connection was refused", err)
	}
}

func TestPingURLBadURLs(t *testing.T) {
	tests := []struct {
		url      string
		contains string
	}{
		{"", "url is empty"},
		{"   ", "url is empty"},
		{"file:///etc/passwd", `scheme "file"`},
		{"ftp://example.com/file", `scheme "ftp"`},
		{"javascript:alert(1)", `scheme "javascript"`},
		{"mailto:someone@example.com", `scheme "mailto"`},
		{"gopher://example.com", `scheme "gopher"`},
		{"example.com", "has no scheme"},
		{"//example.com/path", "has no scheme"},
		{"http://", "no host name"},
		{"https:///path", "no host name"},
		{"http://:8080/", "no host name"},
		{"http:example.com", "no host name"},
		{"http://exa mple.com/", "cannot parse"},
		{"http://[::1", "cannot parse"},
		{"%zz", "cannot parse"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			var p PingURL
			got, err := p.Execute(pingLoopback(), PingURLArgs{URL: tt.url})
			if err == nil {
				t.Fatalf("Execute(%q) = %+v, want an error", tt.url, got)
			}
			for _, s := range []string{tt.contains, "http or https", "https://example.com"} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("Execute(%q) error %q does not contain %q", tt.url, err, s)
				}
			}
			if p.client != nil {
				t.Errorf("Execute(%q) made a client for a URL it rejects", tt.url)
			}
		})
	}
}

func TestPingURLHidesPassword(t *testing.T) {
	srv, _ := pingTestServer(t)
	var p PingURL
	u := strings.Replace(srv.URL, "http://", "http://user:secret@", 1) + "/ok"
	got, err := p.Execute(pingLoopback(), PingURLArgs{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got.URL, "secret") {
		t.Errorf("result URL %q shows the password", got.URL)
	}
	_, err = p.Execute(pingLoopback(), PingURLArgs{URL: "ftp://user:secret@example.com"})
	if err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("error %v shows the password", err)
	}
}

// pingLoopback is a context whose egress policy allows the loopback
// addresses the tests' servers listen on.
func pingLoopback() context.Context {
	p, err := egress.Parse("127.0.0.0/8, ::1")
	if err != nil {
		panic(err)
	}
	return egress.WithPolicy(context.Background(), p)
}
