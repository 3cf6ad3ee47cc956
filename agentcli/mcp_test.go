package agentcli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
// loopback server that holds its answer, and sends SIGTERM: /readyz turns
// 503 while the call is in flight, the call is answered, and the agent
// exits 0.
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
	// The drain begins before the call is let go: /readyz answers 503.
	for {
		resp, err := http.Get("http://" + addr + "/readyz")
		if err != nil {
			t.Fatalf("/readyz unreachable during the drain: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusServiceUnavailable {
			break
		}
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr lockedBuffer
			env := map[string]string{envMCPToken: tt.token}
			c := &cli{tools: testTools, stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, getenv: func(k string) string { return env[k] }}
			code := c.run(context.Background(), []string{"mcp", "-http", tt.addr})
			if code != 2 || !strings.Contains(stderr.String(), "is not a loopback address") || !strings.Contains(stderr.String(), "TOOLREG_MCP_TOKEN") ||
				!strings.Contains(stderr.String(), "clients send as Authorization: Bearer <token>;") {
				t.Errorf("exit %d, stderr %q; want 2 and a message naming TOOLREG_MCP_TOKEN and the header, unredacted", code, stderr.String())
			}
		})
	}
}

// TestMCPTokenFileRedacted: a token read with -token-file is a secret like
// TOOLREG_MCP_TOKEN: a tool's result that quotes part of it is redacted.
func TestMCPTokenFileRedacted(t *testing.T) {
	const token = "9f2c1e7ab04d4c8e9a6b3f5d2e1c0b7a"
	file := t.TempDir() + "/token"
	if err := os.WriteFile(file, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"calculator","arguments":{"expression":"` + token[:22] + `"}}}
`
	var stdout, stderr lockedBuffer
	c := &cli{tools: testTools, stdin: strings.NewReader(in), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	if code := c.run(context.Background(), []string{"mcp", "-token-file", file, "-tools", "calculator"}); code != 0 {
		t.Fatalf("agent mcp exited %d: %s", code, stderr.String())
	}
	if out := stdout.String(); strings.Contains(out, token[:8]) || !strings.Contains(out, "[REDACTED]") {
		t.Errorf("the answer holds part of the token, or no redaction: %s", out)
	}
}

func TestListenMCPLoopback(t *testing.T) {
	ctx := context.Background()
	for _, addr := range []string{":0", "127.0.0.1:0", "localhost:0", "[::1]:0"} {
		ln, err := listenMCP(ctx, addr, "", resolveIP, false)
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
	ln, err := listenMCP(ctx, "0.0.0.0:0", "0123456789abcdef", resolveIP, false)
	if err != nil {
		t.Fatalf("listenMCP with a token of 16 bytes: %v", err)
	}
	ln.Close()
}

// TestListenMCPResolves checks every address of a host name before
// binding without a token: localhost mapped elsewhere (a bad /etc/hosts)
// is refused, and a name that resolves to loopback binds the address
// checked.
func TestListenMCPResolves(t *testing.T) {
	ctx := context.Background()
	hosts := map[string][]netip.Addr{
		"localhost": {netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("192.0.2.7")},
		"loop":      {netip.MustParseAddr("::ffff:127.0.0.1")},
		"nowhere":   {},
	}
	lookup := func(_ context.Context, host string) ([]netip.Addr, error) {
		ips, ok := hosts[host]
		if !ok {
			return nil, errors.New("no such host")
		}
		return ips, nil
	}
	for _, tt := range []struct{ addr, want string }{
		{"localhost:0", "resolves to 192.0.2.7, which is not a loopback address"},
		{"nowhere:0", "resolves to no address"},
		{"example.invalid:0", "cannot be checked to be a loopback address (no such host)"},
		{"[::ffff:192.0.2.1]:0", "is not a loopback address"},
	} {
		ln, err := listenMCP(ctx, tt.addr, "", lookup, false)
		if err == nil {
			ln.Close()
			t.Errorf("listenMCP(%q) listens on %s, want it refused", tt.addr, ln.Addr())
			continue
		}
		if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), envMCPToken) || !strings.Contains(err.Error(), "Bearer <token>") {
			t.Errorf("listenMCP(%q) = %v, want %q and how to set a token", tt.addr, err, tt.want)
		}
	}
	ln, err := listenMCP(ctx, "loop:0", "", lookup, false)
	if err != nil {
		t.Fatalf("listenMCP(loop:0): %v", err)
	}
	defer ln.Close()
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.Equal(net.IPv4(127, 0, 0, 1)) {
		t.Errorf("bound %s, want the address checked, 127.0.0.1", ip)
	}
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

// TestCallConfirmsMountedTool: agent call of a mounted tool that its
// server does not mark read-only goes through the same confirmation as in
// a conversation: refused with nobody to ask, run with -yes.
func TestCallConfirmsMountedTool(t *testing.T) {
	var calls atomic.Int32
	srv := mcp.NewServer(&mcp.Implementation{Name: "fs", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "write_file", Description: "Write a file."},
		func(ctx context.Context, req *mcp.CallToolRequest, args struct{}) (*mcp.CallToolResult, any, error) {
			calls.Add(1)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "written"}}}, nil, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	defer ts.Close()
	run := func(extra ...string) (int, string, string) {
		var stdout, stderr lockedBuffer
		c := &cli{tools: testTools, stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
		args := append([]string{"call", "-tools", "calculator", "-mcp", "fs=" + ts.URL}, extra...)
		code := c.run(context.Background(), append(args, "fs__write_file", "{}"))
		return code, stdout.String(), stderr.String()
	}
	code, _, stderr := run()
	if code != 1 || !strings.Contains(stderr, "nobody to ask") || !strings.Contains(stderr, "-yes") || calls.Load() != 0 {
		t.Errorf("without -yes: exit %d, %d calls, stderr %q; want 1, no call, and the refusal naming -yes", code, calls.Load(), stderr)
	}
	code, stdout, stderr := run("-yes")
	if code != 0 || strings.TrimSpace(stdout) != "written" || calls.Load() != 1 {
		t.Errorf("with -yes: exit %d, %d calls, stdout %q, stderr %q; want 0 and the tool's answer", code, calls.Load(), stdout, stderr)
	}
}

// TestMCPOAuthEnv reads the OAuth resource server of agent mcp -http from
// the environment, and refuses a half or wrong setting.
func TestMCPOAuthEnv(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want string // the error, or "issuer resource" when it is read
	}{
		{map[string]string{}, ""},
		{map[string]string{envOAuthIssuer: "https://auth.example", envOAuthResource: "https://mcp.example/"}, "https://auth.example https://mcp.example/"},
		{map[string]string{envOAuthResource: "https://mcp.example/"}, "is set without TOOLREG_MCP_OAUTH_ISSUER"},
		{map[string]string{envOAuthIssuer: "https://auth.example"}, "TOOLREG_MCP_OAUTH_RESOURCE must be an http or https URL"},
		{map[string]string{envOAuthIssuer: "auth.example", envOAuthResource: "https://mcp.example/"}, "TOOLREG_MCP_OAUTH_ISSUER must be an http or https URL"},
	} {
		c := &cli{getenv: func(k string) string { return tt.env[k] }}
		a, err := c.mcpOAuth()
		got := ""
		switch {
		case err != nil:
			got = err.Error()
		case a != nil:
			got = a.Issuer + " " + a.Resource
		}
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("env %v: %q, want %q", tt.env, got, tt.want)
		}
	}
}

// TestMountHeaderSecretRedacted: the value a -mcp-header of a credential
// takes from the environment (a server's API key) is a secret like an OAuth token of a
// mounted server: a server that echoes it in an answer (an error quoting
// the key it refused, a debug tool) does not hand it to the model, the
// trace or the output.
func TestMountHeaderSecretRedacted(t *testing.T) {
	const key = "docs-key-5c2f0e9a7b31d4"
	srv := mcp.NewServer(&mcp.Implementation{Name: "docs", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "whoami", Description: "Echo the key the request carried.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *mcp.CallToolRequest, args struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "you sent " + req.Extra.Header.Get("X-Docs-Key") + " in " + req.Extra.Header.Get("X-Region")}}}, nil, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	defer ts.Close()
	var stdout, stderr lockedBuffer
	c := &cli{tools: testTools, stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string {
		return map[string]string{"DOCS_KEY": key, "REGION": "eu-west-1"}[k]
	}}
	code := c.run(context.Background(), []string{"call", "-yes", "-tools", "calculator", "-mcp", "docs=" + ts.URL,
		"-mcp-header", "docs=X-Docs-Key: $DOCS_KEY", "-mcp-header", "docs=X-Region: $REGION", "docs__whoami", "{}"})
	// A header that names no credential is not one.
	if code != 0 || !strings.Contains(stdout.String(), "you sent") || !strings.Contains(stdout.String(), "in eu-west-1") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if strings.Contains(stdout.String()+stderr.String(), key[:12]) {
		t.Errorf("the header's key reached the output: stdout %q, stderr %q", stdout.String(), stderr.String())
	}
}

// TestServerGCPercentInMain runs the agent's main as agent mcp -v over
// stdio, its stdin closed at once, and reads the collector's target it
// logs, which is the runtime's own: 200 without GOGC, the environment's
// with it, off included.
func TestServerGCPercentInMain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		gogc string
		want string
	}{
		{"", "gogc=200"},
		{"50", "gogc=50"},
		{"100", "gogc=100"},
		{"off", "gogc=off"},
	} {
		cmd := exec.Command(os.Args[0], "mcp", "-v", "-isolate", "none", "-tools", "calculator")
		cmd.Env = append(os.Environ(), agentMainEnv+"=1", "GOGC="+tc.gogc, "XDG_CONFIG_HOME="+t.TempDir(), "TOOLREG_CONFIG=", "TOOLREG_PROFILE=")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("GOGC=%q: agent mcp: %v\n%s", tc.gogc, err, stderr.Bytes())
		}
		line := ""
		for l := range strings.Lines(stderr.String()) {
			if strings.Contains(l, "garbage collector's target") {
				line = l
			}
		}
		if !strings.Contains(line, " "+tc.want) {
			t.Errorf("GOGC=%q: agent mcp -v logged %q, want %s; stderr:\n%s", tc.gogc, line, tc.want, stderr.Bytes())
		}
	}
}
