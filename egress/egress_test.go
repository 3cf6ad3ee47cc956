package egress

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	good := []string{
		"", "example.com", "Intranet.Example.", "localhost:8080", "10.0.0.0/8",
		"127.0.0.1", "[::1]", "::1", "127.0.0.1:9000", "[::1]:9000", "fd00::/8",
		"a.example, b.example 10.1.0.0/16",
	}
	for _, s := range good {
		if _, err := Parse(s); err != nil {
			t.Errorf("Parse(%q): %v", s, err)
		}
	}
	bad := []string{"10.0.0.0/33", "http://x", "host:0", "host:65536", "host:port", "a b/c", "ex ample!"}
	for _, s := range bad {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", s)
		}
	}
}

// TestCheckAddr is the table of address classes, decided without any
// network traffic.
func TestCheckAddr(t *testing.T) {
	tests := []struct {
		addr  string
		class string // "" when allowed
	}{
		{"127.0.0.1", "loopback"},
		{"127.255.0.9", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"10.1.2.3", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"192.168.1.1", "private"},
		{"::ffff:192.168.1.1", "private"},
		{"fd12:3456::1", "private"},
		{"169.254.169.254", "link-local"},
		{"::ffff:169.254.169.254", "link-local"},
		{"fe80::1", "link-local"},
		{"100.64.0.1", "shared (CGNAT)"},
		{"100.127.255.254", "shared (CGNAT)"},
		{"224.0.0.1", "multicast"},
		{"ff02::1", "multicast"},
		{"192.0.2.1", "reserved"},
		{"240.0.0.1", "reserved"},
		// Public addresses, at and just past the edges of the ranges.
		{"8.8.8.8", ""},
		{"172.32.0.1", ""},
		{"100.128.0.1", ""},
		{"::ffff:8.8.8.8", ""},
		{"2606:4700::1111", ""},
	}
	var p *Policy
	for _, tt := range tests {
		ap := netip.AddrPortFrom(netip.MustParseAddr(tt.addr), 80)
		err := p.CheckAddr("", ap)
		var d *Denied
		got := ""
		if errors.As(err, &d) {
			got = d.Class
		} else if err != nil {
			t.Errorf("%s: %v, want a *Denied or nil", tt.addr, err)
		}
		if got != tt.class {
			t.Errorf("%s: class %q, want %q (err %v)", tt.addr, got, tt.class, err)
		}
	}
}

func TestDeniedText(t *testing.T) {
	var p *Policy
	err := p.CheckAddr("127.0.0.1", netip.MustParseAddrPort("127.0.0.1:80"))
	if got, want := err.Error(), "127.0.0.1 is a loopback address; local and private addresses are blocked (allow with TOOLREG_NET_ALLOW)"; got != want {
		t.Errorf("text = %q\nwant   %q", got, want)
	}
	err = p.CheckAddr("metadata.internal", netip.MustParseAddrPort("169.254.169.254:80"))
	if got, want := err.Error(), "metadata.internal (169.254.169.254) is a link-local address; local and private addresses are blocked (allow with TOOLREG_NET_ALLOW)"; got != want {
		t.Errorf("text = %q\nwant   %q", got, want)
	}
	err = p.CheckAddr("", netip.MustParseAddrPort("0.0.0.0:80"))
	if got, want := err.Error(), "0.0.0.0 is an unspecified address; local and private addresses are blocked (allow with TOOLREG_NET_ALLOW)"; got != want {
		t.Errorf("text = %q\nwant   %q", got, want)
	}
}

func TestAllowList(t *testing.T) {
	p, err := Parse("10.1.0.0/16, 127.0.0.1:8080, 192.168.1.5, fd00::/8")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		addr  string
		allow bool
	}{
		{"10.1.0.0:80", true},
		{"10.1.255.255:443", true},
		{"10.2.0.0:80", false}, // past the prefix
		{"127.0.0.1:8080", true},
		{"127.0.0.1:8081", false}, // another port
		{"[::ffff:127.0.0.1]:8080", true},
		{"192.168.1.5:1", true},
		{"192.168.1.6:1", false},
		{"[fd00::1]:80", true},
		{"[::1]:8080", false},
	}
	for _, tt := range tests {
		err := p.CheckAddr("", netip.MustParseAddrPort(tt.addr))
		if (err == nil) != tt.allow {
			t.Errorf("%s: err %v, want allowed %v", tt.addr, err, tt.allow)
		}
	}
}

// stubResolver maps names to addresses; each lookup takes the next answer
// of a name, the last one repeating.
type stubResolver map[string][][]netip.Addr

func (s stubResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	answers, ok := s[host]
	if !ok || len(answers) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	a := answers[0]
	if len(answers) > 1 {
		s[host] = answers[1:]
	}
	return a, nil
}

func addrs(ss ...string) []netip.Addr {
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out
}

// errWouldConnect is what the test's own Control hook answers for any
// address that is not loopback: the policy let it through, and the test
// stops it there, so that no packet leaves the machine.
var errWouldConnect = errors.New("test: would connect")

// guarded returns a dialer with the resolver and a last Control hook that
// refuses every non-loopback address, counting those it saw.
func guarded(p *Policy, r Resolver, reached *atomic.Int32) *Dialer {
	return &Dialer{Policy: p, Resolver: r, Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return err
		}
		if ap.Addr().Unmap().IsLoopback() {
			return nil
		}
		reached.Add(1)
		return errWouldConnect
	}}
}

// TestDialerControl resolves names through a stub to every class of
// address: the Control hook refuses the local ones before connecting, and
// lets the public ones through (to the test's hook, which stops them).
func TestDialerControl(t *testing.T) {
	r := stubResolver{
		"loop.test":      {addrs("127.0.0.1")},
		"private.test":   {addrs("10.0.0.7")},
		"metadata.test":  {addrs("169.254.169.254")},
		"cgnat.test":     {addrs("100.100.1.1")},
		"ula.test":       {addrs("fd00::5")},
		"mapped.test":    {addrs("::ffff:10.0.0.1")},
		"zero.test":      {addrs("0.0.0.0")},
		"multicast.test": {addrs("239.1.1.1")},
		"mixed.test":     {addrs("8.8.4.4", "10.0.0.1")},
		"public.test":    {addrs("93.184.215.14")},
		"public6.test":   {addrs("2606:2800:21f:cb07:6820:80da:af6b:8b2c")},
	}
	tests := []struct {
		host  string
		class string // "" when the policy lets it through
	}{
		{"loop.test", "loopback"},
		{"private.test", "private"},
		{"metadata.test", "link-local"},
		{"cgnat.test", "shared (CGNAT)"},
		{"ula.test", "private"},
		{"mapped.test", "private"},
		{"zero.test", "unspecified"},
		{"multicast.test", "multicast"},
		{"mixed.test", "private"}, // 8.8.4.4 let through, 10.0.0.1 refused
		{"public.test", ""},
		{"public6.test", ""},
	}
	for _, tt := range tests {
		var reached atomic.Int32
		d := guarded(nil, r, &reached)
		_, err := d.DialContext(context.Background(), "tcp", net.JoinHostPort(tt.host, "80"))
		var den *Denied
		switch {
		case tt.class == "":
			if !errors.Is(err, errWouldConnect) || reached.Load() == 0 {
				t.Errorf("%s: %v, want the policy to let it through", tt.host, err)
			}
		case !errors.As(err, &den):
			t.Errorf("%s: %v, want a *Denied", tt.host, err)
		default:
			if den.Class != tt.class || den.Host != tt.host {
				t.Errorf("%s: denied %+v, want class %q", tt.host, den, tt.class)
			}
			want := int32(0)
			if tt.host == "mixed.test" {
				want = 1
			}
			if reached.Load() != want {
				t.Errorf("%s: %d addresses let through, want %d", tt.host, reached.Load(), want)
			}
		}
	}
}

// TestDNSRebinding answers a public address to the first lookup and a
// loopback one to the second: the second dial is refused.
func TestDNSRebinding(t *testing.T) {
	r := stubResolver{"rebind.test": {addrs("93.184.215.14"), addrs("127.0.0.1")}}
	var reached atomic.Int32
	d := guarded(nil, r, &reached)
	if _, err := d.DialContext(context.Background(), "tcp", "rebind.test:80"); !errors.Is(err, errWouldConnect) {
		t.Fatalf("first dial: %v, want it let through", err)
	}
	_, err := d.DialContext(context.Background(), "tcp", "rebind.test:80")
	var den *Denied
	if !errors.As(err, &den) || den.Class != "loopback" {
		t.Fatalf("second dial: %v, want a loopback *Denied", err)
	}
}

// loopbackServer counts the connections it accepts.
func loopbackServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var accepted atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			accepted.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &accepted
}

// TestDialerLoopback dials a real loopback listener: refused by default
// (and the listener never sees that connection), allowed by address, by
// address and port, by host name and by the context's policy.
func TestDialerLoopback(t *testing.T) {
	r := stubResolver{"localhost": {addrs("127.0.0.1")}}
	tests := []struct {
		name, allow, host string
		ok                bool
	}{
		{"default", "", "127.0.0.1", false},
		{"default by name", "", "localhost", false},
		{"other port allowed", "127.0.0.1:1", "127.0.0.1", false},
		{"address", "127.0.0.1", "127.0.0.1", true},
		{"address and port", "127.0.0.1:PORT", "127.0.0.1", true},
		{"prefix", "127.0.0.0/8", "localhost", true},
		{"host name", "localhost", "localhost", true},
		{"host name and port", "LocalHost:PORT", "localhost", true},
		{"host name and another port", "localhost:1", "localhost", false},
		{"another host name", "other.test", "localhost", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
			p, err := Parse(strings.ReplaceAll(tt.allow, "PORT", port))
			if err != nil {
				t.Fatal(err)
			}
			var reached atomic.Int32
			d := guarded(nil, r, &reached)
			ctx := WithPolicy(context.Background(), p)
			addr := net.JoinHostPort(tt.host, port)
			conn, err := d.DialContext(ctx, "tcp", addr)
			if tt.ok {
				if err != nil {
					t.Fatalf("dial %s with %q allowed: %v", addr, tt.allow, err)
				}
				conn.Close()
				return
			}
			var den *Denied
			if !errors.As(err, &den) {
				t.Fatalf("dial %s with %q allowed: %v, want a *Denied", addr, tt.allow, err)
			}
			// The first connection the listener accepts must be the
			// test's own, made after the refusal.
			own, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer own.Close()
			c, err := ln.Accept()
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if c.RemoteAddr().String() != own.LocalAddr().String() {
				t.Errorf("the listener accepted a connection from %s before the test's own", c.RemoteAddr())
			}
		})
	}
}

func TestTransportRedirect(t *testing.T) {
	target, accepted := loopbackServer(t)
	origin := httptest.NewServer(http.RedirectHandler(target.URL+"/inside", http.StatusFound))
	t.Cleanup(origin.Close)
	op, _ := netip.ParseAddrPort(origin.Listener.Addr().String())
	// The origin is allowed by address and port; the target, on another
	// port of the same address, is not.
	p, err := Parse(op.String())
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Transport: (&Dialer{Policy: p}).Transport()}
	_, err = c.Get(origin.URL)
	var den *Denied
	if !errors.As(err, &den) || den.Class != "loopback" {
		t.Fatalf("Get: %v, want the redirect refused as loopback", err)
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("the redirect target accepted %d connections", n)
	}
	if diff := cmp.Diff("", FromContext(context.Background()).String()); diff != "" {
		t.Errorf("default policy (-want +got):\n%s", diff)
	}
}
