package agentcli

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer is a writer the test reads while the agent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestMCPTerminateDrains runs agent mcp -http, starts a ping_url call to a
// loopback server that holds its answer, and sends SIGTERM: the call is
// answered, and the agent exits 0.
func TestMCPTerminateDrains(t *testing.T) {
	arrived := make(chan struct{}, 1)
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-release
	}))
	defer slow.Close()

	terminate := make(chan os.Signal, 1)
	var stderr lockedBuffer
	c := &cli{tools: testTools, stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, getenv: func(string) string { return "" }, terminate: terminate}
	exit := make(chan int, 1)
	go func() {
		exit <- c.run(context.Background(), []string{"mcp", "-http", "127.0.0.1:0", "-tools", "ping_url", "-net-allow", "127.0.0.1"})
	}()
	addrRE := regexp.MustCompile(`at http://(127\.0\.0\.1:\d+)/`)
	var addr string
	for addr == "" {
		if m := addrRE.FindStringSubmatch(stderr.String()); m != nil {
			addr = m[1]
		}
		select {
		case code := <-exit:
			t.Fatalf("agent mcp exited %d: %s", code, stderr.String())
		case <-time.After(time.Millisecond):
		}
	}

	answer := make(chan string, 1)
	go func() {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping_url","arguments":{"url":"` + slow.URL + `"}}}`
		req, _ := http.NewRequest("POST", "http://"+addr+"/", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			answer <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		answer <- string(b)
	}()
	<-arrived
	terminate <- syscall.SIGTERM
	// Shutdown closes the listener before the call is let go.
	for {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			break
		}
		conn.Close()
		time.Sleep(time.Millisecond)
	}
	close(release)
	if got := <-answer; !strings.Contains(got, `\"status_code\":200`) {
		t.Errorf("the call in flight was answered %s", got)
	}
	if code := <-exit; code != 0 {
		t.Errorf("agent mcp exited %d, want 0: %s", code, stderr.String())
	}
}

// TestMCPHTTPNeedsToken refuses to serve a non-loopback address without a
// token, and says how to give one.
func TestMCPHTTPNeedsToken(t *testing.T) {
	tests := []struct {
		name, addr, token string
		refused           bool
	}{
		{"all interfaces", "0.0.0.0:0", "", true},
		{"short token", "0.0.0.0:0", "0123456789abcde", true},
		{"host name", "example.invalid:0", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr lockedBuffer
			env := map[string]string{envMCPToken: tt.token}
			c := &cli{tools: testTools, stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, getenv: func(k string) string { return env[k] }}
			code := c.run(context.Background(), []string{"mcp", "-http", tt.addr})
			if code != 2 || !strings.Contains(stderr.String(), "is not a loopback address") || !strings.Contains(stderr.String(), "TOOLREG_MCP_TOKEN") {
				t.Errorf("exit %d, stderr %q; want 2 and a message naming TOOLREG_MCP_TOKEN", code, stderr.String())
			}
		})
	}
}

func TestListenMCPLoopback(t *testing.T) {
	for _, addr := range []string{":0", "127.0.0.1:0", "localhost:0", "[::1]:0"} {
		ln, err := listenMCP(addr, "")
		if err != nil {
			if addr == "[::1]:0" { // no IPv6 on this machine
				continue
			}
			t.Errorf("listenMCP(%q): %v", addr, err)
			continue
		}
		if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
			t.Errorf("listenMCP(%q) listens on %s", addr, ip)
		}
		ln.Close()
	}
	ln, err := listenMCP("0.0.0.0:0", "0123456789abcdef")
	if err != nil {
		t.Fatalf("listenMCP with a token of 16 bytes: %v", err)
	}
	ln.Close()
}

// endless is a stdin that never ends.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	e.n += int64(len(p))
	return len(p), nil
}

// TestCallStdinCap reads the arguments of agent call - from an endless
// stdin: it stops past the cap and says so.
func TestCallStdinCap(t *testing.T) {
	in := &endless{}
	var stderr lockedBuffer
	c := &cli{tools: testTools, stdin: in, stdout: io.Discard, stderr: &stderr, getenv: func(string) string { return "" }}
	if code := c.run(context.Background(), []string{"call", "word_count", "-"}); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(stderr.String(), "longer than 1048576 bytes") {
		t.Errorf("stderr %q", stderr.String())
	}
	if in.n > 2<<20 {
		t.Errorf("read %d bytes of stdin, want not much past the cap", in.n)
	}
}

// TestMCPStdioRefusesConsoleExporter checks that agent mcp over stdio
// refuses a console exporter, which would write into the protocol.
func TestMCPStdioRefusesConsoleExporter(t *testing.T) {
	for _, v := range []string{"OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER"} {
		var stdout, stderr bytes.Buffer
		env := map[string]string{v: "console"}
		c := &cli{tools: testTools, stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return env[k] }}
		if code := c.run(context.Background(), []string{"mcp", "-tools", "calculator"}); code != 2 {
			t.Errorf("%s=console: exit %d, want 2; stderr %s", v, code, stderr.String())
		}
		if !strings.Contains(stderr.String(), v+"=console") || stdout.Len() != 0 {
			t.Errorf("%s=console: stdout %q, stderr %q", v, stdout.String(), stderr.String())
		}
	}
}
