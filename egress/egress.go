// Package egress holds the policy for network destinations that the model
// chooses: the URL of ping_url, and any tool argument that names a host.
//
// By default a destination is refused when the address it resolves to is
// loopback, private (RFC 1918, IPv6 ULA), link-local (cloud metadata
// services such as 169.254.169.254 included), shared address space
// (CGNAT, 100.64.0.0/10), unspecified, multicast, or another
// special-purpose range, in IPv4, IPv6 and IPv4-mapped IPv6 form. The
// address classes come from code.dny.dev/ssrf (IANA's special-purpose
// registries), not from lists kept here.
//
// The check runs on the resolved address at connect time, in the Control
// hook of a net.Dialer, which the kernel calls after DNS resolution and
// before the connection is made. A name that resolves to a public address
// when it is checked and to a private one when it is used (DNS rebinding)
// is therefore caught, and so is every redirect, since each new host is
// dialled through the same hook.
//
// The operator allows destinations with TOOLREG_NET_ALLOW or the agent's
// -net-allow flag: a comma- or space-separated list of host names (any
// port), host:port pairs, IP addresses, IP:port pairs and CIDR prefixes,
// for example "intranet.example, localhost:8080, 10.1.0.0/16". An allowed
// host name is trusted with whatever it resolves to.
//
// Endpoints the operator configured (base URLs from the environment,
// LLM_BASE_URL, -mcp URLs) are trusted as configured. The tools' requests
// to them (SearXNG, Open-Meteo) and the requests to mounted MCP servers go
// to the configured host directly, but a redirect from there to any other
// destination is dialled through this package, under the same policy as a
// destination the model chose.
package egress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"syscall"

	"code.dny.dev/ssrf"
)

// EnvAllow is the environment variable that holds the allow list.
const EnvAllow = "TOOLREG_NET_ALLOW"

// Policy says which destinations may be reached. Build it with Parse; the
// zero value and a nil *Policy refuse every local and private address and
// allow nothing more. A Policy is safe for concurrent use.
type Policy struct {
	hosts     map[string]bool // lower-case host names, any port
	hostPorts map[string]bool // lower-case "host:port"
	prefixes  []netip.Prefix  // addresses and CIDR prefixes, any port
	addrPorts map[netip.AddrPort]bool
	list      string // the allow list as given, for messages
}

// Parse returns the policy whose allow list is list (see the package
// documentation); an empty list allows nothing beyond public addresses.
func Parse(list string) (*Policy, error) {
	p := &Policy{list: strings.TrimSpace(list)}
	for _, e := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		if err := p.add(e); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// add adds one entry of an allow list.
func (p *Policy) add(e string) error {
	bad := fmt.Errorf("egress: allow list entry %q is not a host name, host:port, IP address, IP:port or CIDR prefix", e)
	if strings.Contains(e, "/") {
		pre, err := netip.ParsePrefix(e)
		if err != nil {
			return fmt.Errorf("%w: %v", bad, err)
		}
		p.prefixes = append(p.prefixes, pre.Masked())
		return nil
	}
	if a, err := netip.ParseAddr(strings.Trim(e, "[]")); err == nil {
		p.prefixes = append(p.prefixes, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
		return nil
	}
	if ap, err := netip.ParseAddrPort(e); err == nil {
		if p.addrPorts == nil {
			p.addrPorts = map[netip.AddrPort]bool{}
		}
		p.addrPorts[netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())] = true
		return nil
	}
	host, port := e, ""
	if h, pt, err := net.SplitHostPort(e); err == nil {
		if n, err := strconv.ParseUint(pt, 10, 16); err != nil || n == 0 {
			return fmt.Errorf("%w: bad port %q", bad, pt)
		}
		host, port = h, pt
	}
	if !validHost(host) {
		return bad
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if port == "" {
		if p.hosts == nil {
			p.hosts = map[string]bool{}
		}
		p.hosts[host] = true
		return nil
	}
	if p.hostPorts == nil {
		p.hostPorts = map[string]bool{}
	}
	p.hostPorts[net.JoinHostPort(host, port)] = true
	return nil
}

// validHost reports whether s looks like a DNS host name.
func validHost(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '_':
		default:
			return false
		}
	}
	return true
}

// String returns the allow list as it was given.
func (p *Policy) String() string {
	if p == nil {
		return ""
	}
	return p.list
}

// allowsHost reports whether the host name (not an address) of a
// destination is on the allow list, with any port or with port.
func (p *Policy) allowsHost(host, port string) bool {
	if p == nil {
		return false
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	return p.hosts[host] || p.hostPorts[net.JoinHostPort(host, port)]
}

// allowsAddr reports whether the address is on the allow list.
func (p *Policy) allowsAddr(ap netip.AddrPort) bool {
	if p == nil {
		return false
	}
	a := ap.Addr().Unmap()
	if p.addrPorts[netip.AddrPortFrom(a, ap.Port())] {
		return true
	}
	for _, pre := range p.prefixes {
		if pre.Contains(a) {
			return true
		}
	}
	return false
}

// guardian decides the address classes. WithAnyPort: ports are not this
// policy's business; the networks are TCP, which is all that is dialled.
var guardian = ssrf.New(ssrf.WithAnyPort(), ssrf.WithNetworks("tcp4", "tcp6"))

// CheckAddr returns nil when the address may be reached, and a *Denied
// naming host (the name the caller asked for; "" for none) otherwise.
func (p *Policy) CheckAddr(host string, ap netip.AddrPort) error {
	if p.allowsAddr(ap) {
		return nil
	}
	// An IPv4-mapped IPv6 address is judged as the IPv4 address it
	// carries, which is also what the kernel connects to.
	a := ap.Addr().Unmap()
	network := "tcp6"
	if a.Is4() {
		network = "tcp4"
	}
	if err := guardian.Safe(network, netip.AddrPortFrom(a, ap.Port()).String(), nil); err != nil {
		if errors.Is(err, ssrf.ErrProhibitedIP) {
			return &Denied{Host: host, Addr: ap.Addr(), Class: Class(a)}
		}
		return fmt.Errorf("egress: %w", err)
	}
	return nil
}

// Denied is the error for a destination the policy refuses. Its text says
// what was refused and how to allow it.
type Denied struct {
	// Host is the name asked for, when it differs from the address.
	Host string
	// Addr is the address the name resolved to.
	Addr netip.Addr
	// Class is what kind of address it is, for example "loopback".
	Class string
}

func (e *Denied) Error() string {
	what := e.Addr.String()
	if h := strings.Trim(e.Host, "[]"); h != "" && h != what {
		what = fmt.Sprintf("%s (%s)", h, e.Addr)
	}
	return fmt.Sprintf("%s is %s %s address; local and private addresses are blocked (allow with %s)", what, article(e.Class), e.Class, EnvAllow)
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// cgnat is the shared address space of RFC 6598, which net/netip has no
// predicate for. It only names the class; ssrf decides.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// Class names the kind of a non-public address: loopback, unspecified,
// private, link-local, multicast, shared (CGNAT), or reserved for any
// other special-purpose range.
func Class(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case a.IsLoopback():
		return "loopback"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsPrivate():
		return "private"
	case a.IsLinkLocalUnicast():
		return "link-local"
	case a.IsMulticast():
		return "multicast"
	case cgnat.Contains(a):
		return "shared (CGNAT)"
	}
	return "reserved"
}

// Resolver looks host names up; *net.Resolver is one. Tests give a stub.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Dialer dials TCP connections that the policy allows.
type Dialer struct {
	// Policy is the policy; when nil, the policy of the dial's context
	// (FromContext) applies.
	Policy *Policy
	// Resolver looks names up; net.DefaultResolver when nil.
	Resolver Resolver
	// Control, when set, runs in the dialer's Control hook after the
	// policy allowed the address; it may refuse the connection too.
	// Tests use it to stop every connection that would leave loopback.
	Control func(network, address string, c syscall.RawConn) error
}

// DialContext connects to address ("host:port") on network when the
// policy allows it: a host on the allow list is dialled as it is;
// otherwise each address the host resolves to is checked in the dialer's
// Control hook, just before it is connected to.
func (d *Dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	p := d.Policy
	if p == nil {
		p = FromContext(ctx)
	}
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, fmt.Errorf("egress: %w", err)
	}
	if p.allowsHost(host, port) {
		var nd net.Dialer
		return nd.DialContext(ctx, network, address)
	}
	pn, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("egress: bad port in %q", address)
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		addrs = []netip.Addr{a}
	} else {
		var r Resolver = net.DefaultResolver
		if d.Resolver != nil {
			r = d.Resolver
		}
		addrs, err = r.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, err
		}
	}
	var first error
	for _, a := range addrs {
		nd := net.Dialer{Control: func(network, address string, c syscall.RawConn) error {
			// address is the one about to be connected to: check it,
			// not the one looked up.
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("egress: %w", err)
			}
			if err := p.CheckAddr(host, ap); err != nil {
				return err
			}
			if d.Control != nil {
				return d.Control(network, address, c)
			}
			return nil
		}}
		conn, err := nd.DialContext(ctx, network, netip.AddrPortFrom(a, uint16(pn)).String())
		if err == nil {
			return conn, nil
		}
		if first == nil || isDenied(err) && !isDenied(first) {
			first = err
		}
	}
	if first == nil {
		first = &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	return nil, first
}

func isDenied(err error) bool {
	var d *Denied
	return errors.As(err, &d)
}

// Transport returns an HTTP transport that dials through d. It uses no
// proxy: a proxy would make the connection on the policy's behalf, to
// any address.
func (d *Dialer) Transport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.DialContext = d.DialContext
	t.DialTLSContext = nil
	return t
}

type policyKey struct{}

// WithPolicy returns a context whose dials through a Dialer without its
// own Policy follow p.
func WithPolicy(ctx context.Context, p *Policy) context.Context {
	return context.WithValue(ctx, policyKey{}, p)
}

// FromContext returns the policy of ctx, or nil (the default policy:
// no local or private address) when it has none.
func FromContext(ctx context.Context) *Policy {
	p, _ := ctx.Value(policyKey{}).(*Policy)
	return p
}
