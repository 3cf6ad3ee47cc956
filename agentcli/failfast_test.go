package agentcli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/chat"
)

// retries counts the retries the chat client made: it reports each on
// the trace as "↻ retry N" before it waits, so a failure with none came
// before the first retry would have happened. Its policy waits next to
// nothing, so that a test that does retry does not wait.
type retries struct{ n int }

func (r *retries) policy() chat.RetryPolicy {
	return chat.RetryPolicy{BaseDelay: time.Microsecond, MaxDelay: time.Microsecond}
}

func (r *retries) count(stderr string) { r.n += strings.Count(stderr, "↻ retry ") }

// runAgent runs the agent's command line with stdin and an environment
// holding only env, and returns its exit status, stdout and stderr.
func runAgent(t *testing.T, r *retries, stdin io.Reader, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env["XDG_STATE_HOME"] = t.TempDir()
	c := &cli{tools: testTools, stdin: stdin, stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return env[k] }, retry: r.policy()}
	code := c.run(context.Background(), args)
	r.count(stderr.String())
	return code, stdout.String(), stderr.String()
}

// closedPort returns a loopback address where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestConnectionRefusedOnLoopbackFailsBeforeARetry(t *testing.T) {
	var r retries
	addr := closedPort(t)
	code, _, stderr := runAgent(t, &r, strings.NewReader(""), map[string]string{}, "-base-url", "http://"+addr+"/v1", "-model", "m", "hi")
	if code != 1 {
		t.Errorf("exit status %d, want 1; stderr:\n%s", code, stderr)
	}
	if n := r.n; n != 0 {
		t.Errorf("%d retries, want none", n)
	}
	if want := fmt.Sprintf("nothing listens at http://%s (connection refused): is the server running?", addr); !strings.Contains(stderr, want) {
		t.Errorf("stderr %q lacks %q", stderr, want)
	}
}

// TestRetryHookCounts shows that the count above can fail: a failure worth
// retrying (HTTP 503) is retried, and the retry counted.
func TestRetryHookCounts(t *testing.T) {
	var calls atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if calls.Add(1) == 1 {
			http.Error(w, `{"error":{"message":"busy"}}`, http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
	}))
	defer ts.Close()
	var r retries
	code, stdout, stderr := runAgent(t, &r, strings.NewReader(""), map[string]string{}, "-base-url", ts.URL+"/v1", "-model", "m", "-no-stream", "hi")
	if n := calls.Load(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	if code != 0 || stdout != "ok\n" {
		t.Errorf("exit status %d, stdout %q, want 0 and ok; stderr:\n%s", code, stdout, stderr)
	}
	if n := r.n; n != 1 {
		t.Errorf("%d retries, want 1", n)
	}
}

func TestFirstByteTimeoutFailsBeforeARetry(t *testing.T) {
	var calls atomic.Int32
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		calls.Add(1)
		select { // accepts, never answers
		case <-req.Context().Done():
		case <-release:
		}
	}))
	defer ts.Close()
	defer close(release)
	var r retries
	code, _, stderr := runAgent(t, &r, strings.NewReader(""), map[string]string{}, "-base-url", ts.URL+"/v1", "-model", "m", "-first-byte-timeout", "50ms", "hi")
	if code != 1 {
		t.Errorf("exit status %d, want 1; stderr:\n%s", code, stderr)
	}
	if n := r.n; n != 0 {
		t.Errorf("%d retries, want none", n)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	if want := "began no answer within 50ms: is it overloaded or stuck? raise the wait with -first-byte-timeout"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q lacks %q", stderr, want)
	}
}

// stubTransport fails every request with err, sending nothing.
type stubTransport struct{ err error }

func (s stubTransport) RoundTrip(*http.Request) (*http.Response, error) { return nil, s.err }

func TestLastingFailures(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	cases := []struct {
		url  string
		err  error
		want string // "" when the failure is worth retrying
	}{
		{"http://localhost:11434/v1/chat/completions", refused, `nothing listens at http://localhost:11434 (connection refused): is Ollama running? start it with "ollama serve"`},
		{"http://127.0.0.1:1234/v1/chat/completions", refused, `is LM Studio's server running?`},
		{"http://[::1]:8000/v1/chat/completions", refused, `is vLLM running? start it with "vllm serve MODEL"`},
		{"https://api.example.com/v1/chat/completions", refused, ""}, // a remote server may be restarting
		{"https://nosuch.example/v1/chat/completions", &net.OpError{Op: "dial", Err: &net.DNSError{Name: "nosuch.example", Err: "no such host", IsNotFound: true}}, `no such host "nosuch.example": check the base URL`},
		{"https://api.example.com/v1/chat/completions", &net.OpError{Op: "dial", Err: &net.DNSError{Name: "api.example.com", Err: "server misbehaving", IsTemporary: true}}, ""},
		{"https://api.example.com/v1/chat/completions", io.ErrUnexpectedEOF, ""},
	}
	for _, tc := range cases {
		ctx, cancel := withAbort(context.Background())
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, tc.url, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = (&failFast{base: stubTransport{tc.err}}).RoundTrip(req)
		var le *lastingError
		switch {
		case tc.want == "" && errors.As(err, &le):
			t.Errorf("%s, %v: taken as lasting (%v), want it retried", tc.url, tc.err, err)
		case tc.want == "" && ctx.Err() != nil:
			t.Errorf("%s, %v: the turn was aborted", tc.url, tc.err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s, %v: error %v, want it to say %q", tc.url, tc.err, err, tc.want)
		case tc.want != "" && !errors.As(context.Cause(ctx), &le):
			t.Errorf("%s, %v: the turn was not aborted with the failure (cause %v)", tc.url, tc.err, context.Cause(ctx))
		}
		cancel(nil)
	}
}

func TestCheckBaseURL(t *testing.T) {
	for in, ok := range map[string]bool{
		"http://localhost:1234/v1":    true,
		"https://api.deepseek.com/v1": true,
		"localhost:1234":              false,
		"api.deepseek.com/v1":         false,
		"ftp://example.com":           false,
		"http://":                     false,
		"":                            false,
	} {
		if err := checkBaseURL(in); (err == nil) != ok {
			t.Errorf("checkBaseURL(%q) = %v, want ok %v", in, err, ok)
		}
	}
}

// TestPipedTextCap sends piped text at, below and past the cap.
func TestPipedTextCap(t *testing.T) {
	var mu sync.Mutex
	var got []int
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		mu.Lock()
		got = append(got, len(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
	}))
	defer ts.Close()
	var r retries
	for _, tc := range []struct {
		size int
		code int
	}{{maxPiped - 1, 0}, {maxPiped, 0}, {maxPiped + 1, 2}} {
		in := strings.Repeat("a", tc.size)
		code, _, stderr := runAgent(t, &r, strings.NewReader(in), map[string]string{}, "-base-url", ts.URL+"/v1", "-model", "m", "-no-stream", "-no-log", "Count:")
		if code != tc.code {
			t.Errorf("%d bytes piped: exit status %d, want %d; stderr:\n%s", tc.size, code, tc.code, stderr)
		}
		if tc.code == 2 && !strings.Contains(stderr, fmt.Sprintf("the text on stdin is over %d bytes", maxPiped)) {
			t.Errorf("%d bytes piped: stderr %q does not explain the cap", tc.size, stderr)
		}
	}
	if diff := cmp.Diff(2, len(got)); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}
