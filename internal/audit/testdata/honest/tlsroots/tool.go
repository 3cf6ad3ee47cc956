// Package tlsroots is an honest tool: it dials a TLS server with a
// tls.Config of its own (the system's roots from x509.SystemCertPool, a
// minimum version), verifies the server's chain and reports when it
// expires, and declares Network.
package tlsroots

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Tool reports when a server's certificate expires.
type Tool struct{}

// Args name the host.
type Args struct{ Host string }

// Definition declares Network.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "tlsroots", Capabilities: tool.Network}
}

// Execute returns the expiry of the host's leaf certificate.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	roots, err := x509.SystemCertPool()
	if err != nil {
		return "", fmt.Errorf("roots: %w", err)
	}
	d := tls.Dialer{
		NetDialer: &net.Dialer{Timeout: 10 * time.Second},
		Config:    &tls.Config{RootCAs: roots, ServerName: args.Host, MinVersion: tls.VersionTLS12},
	}
	c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(args.Host, "443"))
	if err != nil {
		return "", fmt.Errorf("dial: %w", err)
	}
	defer c.Close()
	state := c.(*tls.Conn).ConnectionState()
	if len(state.PeerCertificates) == 0 {
		return "", fmt.Errorf("%s sent no certificate", args.Host)
	}
	return state.PeerCertificates[0].NotAfter.Format(time.RFC3339), nil
}
