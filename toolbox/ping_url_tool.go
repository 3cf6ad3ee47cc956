package toolbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/toolreg/toolreg/egress"
	"github.com/toolreg/toolreg/tool"
)

const (
	// pingTimeout bounds one ping, redirects included.
	pingTimeout = 10 * time.Second
	// pingUserAgent is sent with every request.
	pingUserAgent = "toolreg-ping_url/1"
	// pingMaxRedirects is how many redirects a ping follows.
	pingMaxRedirects = 10
	// pingMaxDrain is how much of a GET body is read before closing it.
	pingMaxDrain = 64 << 10
)

// PingURL checks whether a web address answers, and how fast.
//
// Its zero value is ready to use; it makes one HTTP client on first use and
// shares it, with its connections, across calls. A PingURL must not be
// copied after first use.
//
// The model chooses the URL, so the client dials through the egress
// policy of the call's context (egress.WithPolicy; without one, the
// default): loopback, private, link-local and other non-public addresses
// are refused, after DNS resolution and on every redirect, unless the
// operator allowed them (TOOLREG_NET_ALLOW, -net-allow).
type PingURL struct {
	once sync.Once
	// client is made by the first call unless a test set it first.
	client *http.Client
	// clock reads the time for the latency; nil is the system clock.
	clock func() time.Time
}

// PingURLArgs are the arguments the model sends.
type PingURLArgs struct {
	// Full http or https address to check, for example https://example.com/status.
	URL string `json:"url" jsonschema:"minLength=1,maxLength=2048"`
}

// PingURLResult is the answer.
type PingURLResult struct {
	// URL is the address that was checked, without any password.
	URL string `json:"url"`
	// FinalURL is where redirects led, when there were any.
	FinalURL string `json:"final_url,omitempty"`
	// Redirects counts the redirects followed.
	Redirects int `json:"redirects"`
	// Method is HEAD, or GET when the server refused HEAD.
	Method string `json:"method"`
	// StatusCode is the HTTP status of the last answer, for example 200.
	StatusCode int `json:"status_code"`
	// Status is the status line, for example "200 OK".
	Status string `json:"status"`
	// LatencyMS is the time from sending the request until the answer's
	// headers arrived, in milliseconds, redirects included.
	LatencyMS float64 `json:"latency_ms"`
}

// Definition describes the tool.
func (*PingURL) Definition() tool.Definition {
	return tool.Definition{
		ID:           "ping_url",
		Description:  "Check whether a web address (http or https) answers: sends an HTTP HEAD request, follows redirects, and reports the status code and the latency in milliseconds. Use it to test if a website or API endpoint is up; it does not return the page content. Local and private network addresses are refused unless the operator allowed them.",
		Timeout:      10 * time.Second,
		Capabilities: tool.Network,
	}
}

// Execute pings args.URL.
func (p *PingURL) Execute(ctx context.Context, args PingURLArgs) (PingURLResult, error) {
	u, err := pingParseURL(args.URL)
	if err != nil {
		return PingURLResult{}, err
	}
	res := PingURLResult{URL: u.Redacted()}
	resp, latency, redirects, err := p.do(ctx, http.MethodHead, u)
	if err == nil && (resp.StatusCode == http.StatusMethodNotAllowed || resp.StatusCode == http.StatusNotImplemented) {
		// Some servers refuse HEAD; ask again the ordinary way.
		resp.Body.Close()
		resp, latency, redirects, err = p.do(ctx, http.MethodGet, u)
	}
	if err != nil {
		return PingURLResult{}, pingError(ctx, u, err)
	}
	// Read a little of the body so that the connection can be reused.
	_, _ = io.CopyN(io.Discard, resp.Body, pingMaxDrain)
	resp.Body.Close()

	res.Method = resp.Request.Method
	res.StatusCode = resp.StatusCode
	res.Status = resp.Status
	if res.Status == "" {
		res.Status = fmt.Sprintf("%d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	res.Redirects = redirects
	if redirects > 0 {
		res.FinalURL = resp.Request.URL.Redacted()
	}
	res.LatencyMS = math.Round(float64(latency.Microseconds())/100) / 10
	return res, nil
}

// pingRedirectsKey is the context key of the redirect counter of one
// request.
type pingRedirectsKey struct{}

// do sends one request and answers the response, the time until its
// headers, and the number of redirects followed.
func (p *PingURL) do(ctx context.Context, method string, u *url.URL) (*http.Response, time.Duration, int, error) {
	var redirects int
	ctx = context.WithValue(ctx, pingRedirectsKey{}, &redirects)
	req, err := http.NewRequestWithContext(ctx, method, u.String(), nil)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("cannot make a request for %s: %w", u.Redacted(), err)
	}
	req.Header.Set("User-Agent", pingUserAgent)
	req.Header.Set("Accept", "*/*")
	start := p.now()
	resp, err := p.httpClient().Do(req)
	latency := p.now().Sub(start)
	if err != nil {
		return nil, 0, 0, err
	}
	return resp, latency, redirects, nil
}

// httpClient returns the client shared by the calls of p.
func (p *PingURL) httpClient() *http.Client {
	p.once.Do(func() {
		if p.client != nil {
			return
		}
		p.client = &http.Client{
			// No Policy: each dial follows the policy of its context.
			Transport:     (&egress.Dialer{}).Transport(),
			Timeout:       pingTimeout,
			CheckRedirect: pingCheckRedirect,
		}
	})
	return p.client
}

// pingCheckRedirect counts the redirects of a request and stops at
// pingMaxRedirects or at an address that is not http or https.
func pingCheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > pingMaxRedirects {
		return fmt.Errorf("stopped after %d redirects, the last to %s; the address probably redirects in a loop", pingMaxRedirects, req.URL.Redacted())
	}
	if s := req.URL.Scheme; s != "http" && s != "https" {
		return fmt.Errorf("redirected to %s, which is not an http or https address", req.URL.Redacted())
	}
	if n, ok := req.Context().Value(pingRedirectsKey{}).(*int); ok {
		*n = len(via)
	}
	return nil
}

// pingParseURL checks that raw is an absolute http or https URL with a
// host.
func pingParseURL(raw string) (*url.URL, error) {
	const accepted = "give a full http or https address such as https://example.com"
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, errors.New("url is empty: " + accepted)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("cannot parse url %q: %s: %w", raw, accepted, err)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "":
		return nil, fmt.Errorf("url %q has no scheme: %s (add http:// or https:// in front)", raw, accepted)
	default:
		return nil, fmt.Errorf("url %q has scheme %q, which is not accepted: %s", u.Redacted(), u.Scheme, accepted)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("url %q has no host name: %s", u.Redacted(), accepted)
	}
	return u, nil
}

// pingError explains why u could not be reached.
func pingError(ctx context.Context, u *url.URL, err error) error {
	host := u.Host
	var dnsErr *net.DNSError
	var netErr net.Error
	var denied *egress.Denied
	var ue *url.Error
	switch {
	case errors.As(err, &denied):
		// The policy's own words say what and how; a redirect says where.
		if errors.As(err, &ue) && ue.URL != u.String() {
			if ru, perr := url.Parse(ue.URL); perr == nil {
				return fmt.Errorf("%s redirected to %s: %w", u.Redacted(), ru.Redacted(), denied)
			}
		}
		return denied
	case ctx.Err() != nil:
		// The caller's deadline or cancellation: say so, keeping ctx.Err()
		// in the chain.
		return fmt.Errorf("no answer from %s before the call ended: %w", u.Redacted(), err)
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return fmt.Errorf("host %q was not found (DNS); check the spelling of the address: %w", u.Hostname(), err)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("connection to %s refused: nothing answers on that port: %w", host, err)
	case errors.As(err, &netErr) && netErr.Timeout():
		return fmt.Errorf("no answer from %s within %s: the server is down or too slow: %w", u.Redacted(), pingTimeout, err)
	default:
		return fmt.Errorf("cannot reach %s: %w", u.Redacted(), err)
	}
}
