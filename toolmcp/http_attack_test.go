package toolmcp

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestAttackTokenEverywhere (a regression probe; passes): with a
// token, no path, method, encoding or header trick reaches MCP without
// it, and the DNS-rebinding and cross-origin checks hold.
func TestAttackTokenEverywhere(t *testing.T) {
	t.Parallel()
	const token = "attack-token-0123456789abcdef"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeHTTP(ctx, ln, testServer(t, nil), &HTTPOptions{Token: token}) }()
	defer func() { cancel(); <-done }()
	base := "http://" + ln.Addr().String()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	const ping = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	do := func(method, path, auth string, hdr ...string) (int, string) {
		req, err := http.NewRequest(method, base+path, strings.NewReader(ping))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header["Authorization"] = strings.Split(auth, "\n")
		}
		for i := 0; i+1 < len(hdr); i += 2 {
			if hdr[i] == "Host" {
				req.Host = hdr[i+1]
			} else {
				req.Header.Set(hdr[i], hdr[i+1])
			}
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, tt := range []struct{ method, path, auth string }{
		{"POST", "/", ""},
		{"POST", "/mcp/", ""},
		{"POST", "/healthz/", ""},
		{"POST", "/readyz", ""},
		{"POST", "/%2e%2e/", ""},
		{"POST", "//", ""},
		{"HEAD", "/", ""},
		{"GET", "/", ""},
		{"OPTIONS", "/", ""},
		{"POST", "/", "Bearer"},
		{"POST", "/", "Bearer " + token[:len(token)-1]},
		{"POST", "/", "Bearer " + token + "x"},
		{"POST", "/", "Basic " + token},
		{"POST", "/", token},
		{"POST", "/", "Bearer x\nBearer " + token},
		{"POST", "/", "Bearer " + strings.Repeat("A", 1<<16)},
	} {
		status, body := do(tt.method, tt.path, tt.auth)
		if status == 200 || strings.Contains(body, `"tools"`) {
			t.Errorf("%s %s with %.40q: %d %.100s", tt.method, tt.path, tt.auth, status, body)
		}
	}
	for _, h := range [][]string{
		{"Host", "evil.example"},
		{"Host", "localhost.evil.example"},
		{"Origin", "http://evil.example"},
		{"Origin", "null"},
		{"Sec-Fetch-Site", "cross-site"},
	} {
		if status, body := do("POST", "/", "Bearer "+token, h...); status != 403 {
			t.Errorf("%s: %s: %d %.100s", h[0], h[1], status, body)
		}
	}
	if status, body := do("POST", "/", "bearer "+token); status != 200 {
		t.Errorf("the right token: %d %.200s", status, body)
	}
}
