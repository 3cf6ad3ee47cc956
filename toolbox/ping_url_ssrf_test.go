package toolbox

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/toolreg/toolreg/egress"
)

// errLeavesLoopback stops, in the dialer's Control hook, any connection
// the policy let through to an address that is not loopback: no test
// packet leaves the machine.
var errLeavesLoopback = errors.New("test: the connection would leave loopback")

func stopNonLoopback(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil || !ap.Addr().Unmap().IsLoopback() {
		return errLeavesLoopback
	}
	return nil
}

// pingStub maps names to addresses for ping_url's dialer.
type pingStub map[string]string

func (s pingStub) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	a, ok := s[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return []netip.Addr{netip.MustParseAddr(a)}, nil
}

// guardedPing is a PingURL whose dialer resolves through stub and stops
// every connection that would leave loopback.
func guardedPing(stub pingStub) *PingURL {
	d := &egress.Dialer{Resolver: stub, Control: stopNonLoopback}
	return &PingURL{client: &http.Client{Transport: d.Transport(), Timeout: pingTimeout, CheckRedirect: pingCheckRedirect}}
}

// countingServer answers 200 and counts the requests it got.
func countingServer(t *testing.T, h http.Handler) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if h != nil {
			h.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

const blocked = " local and private addresses are blocked (allow with TOOLREG_NET_ALLOW)"

// TestPingURLRefusesLocal is the SSRF table: under the default policy,
// each way of writing a local address is refused before any connection,
// with a message that says what and how.
func TestPingURLRefusesLocal(t *testing.T) {
	srv, hits := countingServer(t, nil)
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	p := func(host string) string { return "http://" + net.JoinHostPort(host, strconv.Itoa(port)) + "/" }
	tests := []struct {
		url, want string
	}{
		{p("127.0.0.1"), "127.0.0.1 is a loopback address;" + blocked},
		{p("localhost"), "localhost (127.0.0.1) is a loopback address;" + blocked},
		{p("::1"), "::1 is a loopback address;" + blocked},
		{p("0.0.0.0"), "0.0.0.0 is an unspecified address;" + blocked},
		{p("::ffff:127.0.0.1"), "::ffff:127.0.0.1 (127.0.0.1) is a loopback address;" + blocked},
		{p("127.1.2.3"), "127.1.2.3 is a loopback address;" + blocked},
		{"http://10.0.0.1/", "10.0.0.1 is a private address;" + blocked},
		{"http://192.168.0.1:8080/admin", "192.168.0.1 is a private address;" + blocked},
		{"http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address;" + blocked},
		{"http://[fd00::1]/", "fd00::1 is a private address;" + blocked},
		{"http://100.64.0.1/", "100.64.0.1 is a shared (CGNAT) address;" + blocked},
		{"http://metadata.test/", "metadata.test (169.254.169.254) is a link-local address;" + blocked},
		{"http://intranet.test/", "intranet.test (10.1.2.3) is a private address;" + blocked},
	}
	ping := guardedPing(pingStub{"localhost": "127.0.0.1", "metadata.test": "169.254.169.254", "intranet.test": "10.1.2.3"})
	for _, tt := range tests {
		_, err := ping.Execute(context.Background(), PingURLArgs{URL: tt.url})
		if err == nil || err.Error() != tt.want {
			t.Errorf("ping %s:\n got %v\nwant %s", tt.url, err, tt.want)
		}
		if errors.Is(err, errLeavesLoopback) {
			t.Errorf("ping %s: the policy let it through", tt.url)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback server got %d requests, want none", n)
	}
}

// TestPingURLPublicLetThrough checks that the guard is not refusing
// everything: a public address reaches connect time.
func TestPingURLPublicLetThrough(t *testing.T) {
	ping := guardedPing(pingStub{"example.test": "93.184.215.14"})
	_, err := ping.Execute(context.Background(), PingURLArgs{URL: "https://example.test/"})
	if !errors.Is(err, errLeavesLoopback) {
		t.Errorf("ping a public address: %v, want it let through to connect time", err)
	}
}

// TestPingURLRedirectToLocal allows the first server by address and port,
// which redirects to a local address that is not allowed: refused at the
// redirect, before connecting.
func TestPingURLRedirectToLocal(t *testing.T) {
	target, hits := countingServer(t, nil)
	tests := []struct {
		name, to, want string
	}{
		{"another loopback port", target.URL + "/inside", "redirected to " + target.URL + "/inside: 127.0.0.1 is a loopback address;" + blocked},
		{"metadata", "http://169.254.169.254/latest/", "redirected to http://169.254.169.254/latest/: 169.254.169.254 is a link-local address;" + blocked},
		{"name to private", "http://db.test:5432/", "redirected to http://db.test:5432/: db.test (192.168.7.7) is a private address;" + blocked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			origin, _ := countingServer(t, http.RedirectHandler(tt.to, http.StatusFound))
			pol, err := egress.Parse(origin.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			ctx := egress.WithPolicy(context.Background(), pol)
			_, err = guardedPing(pingStub{"db.test": "192.168.7.7"}).Execute(ctx, PingURLArgs{URL: origin.URL + "/start"})
			want := origin.URL + "/start " + tt.want
			if err == nil || err.Error() != want {
				t.Errorf("got  %v\nwant %s", err, want)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the redirect target got %d requests, want none", n)
	}
}

// TestPingURLAllowed reaches a loopback server once the operator allows it.
func TestPingURLAllowed(t *testing.T) {
	srv, hits := countingServer(t, nil)
	for _, allow := range []string{"127.0.0.1", srv.Listener.Addr().String(), "127.0.0.0/8"} {
		pol, err := egress.Parse(allow)
		if err != nil {
			t.Fatal(err)
		}
		var p PingURL
		res, err := p.Execute(egress.WithPolicy(context.Background(), pol), PingURLArgs{URL: srv.URL})
		if err != nil || res.StatusCode != http.StatusOK {
			t.Errorf("allow %q: %+v, %v", allow, res, err)
		}
	}
	if n := hits.Load(); n != 3 {
		t.Errorf("the server got %d requests, want 3", n)
	}
}
