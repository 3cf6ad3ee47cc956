//go:build measure

package toolmcp

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolreg/toolreg/registry"
)

// TestMeasureCancel measures how long a 6 s call cancelled at 1 s with
// notifications/cancelled takes over HTTP (bench/results/mcp-cancel.md):
//
//	go test -tags measure -count=1 -run TestMeasureCancel -v ./toolmcp/
func TestMeasureCancel(t *testing.T) {
	tab := testTable()
	slow := &tab.Entries[5]
	slow.Timeout = time.Hour
	slow.Bind = runs(func(ctx context.Context, args string) (string, error) {
		select {
		case <-time.After(6 * time.Second):
			return "done", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	})
	srv, err := NewServer(registry.MustNew(tab), nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go ServeHTTP(ctx, ln, srv, nil)
	url := "http://" + ln.Addr().String()
	c := &http.Client{}
	go func() {
		time.Sleep(time.Second)
		post(t, c, url, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"measure"}}`)
	}()
	start := time.Now()
	_, _, body := post(t, c, url, slowCall)
	t.Logf("cancelled 6 s call over HTTP answered after %v: %s", time.Since(start).Round(time.Millisecond), strings.TrimSpace(body))
}
