package toolbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolreg/toolreg/egress"
	"github.com/toolreg/toolreg/redact"
)

// httpxUserAgent is the User-Agent of every request the network tools send.
const httpxUserAgent = "toolreg/1 (+https://github.com/toolreg/toolreg)"

// httpxMaxBody bounds how much of a response body is read.
const httpxMaxBody = 4 << 20

// httpxError is a failure to get an answer from a service at all: a timeout,
// a cancelled call, a refused connection or an unreadable body. Its message
// is written for the model; Unwrap gives the cause, so errors.Is finds
// context.DeadlineExceeded and context.Canceled.
type httpxError struct {
	msg string
	err error
}

func (e *httpxError) Error() string { return e.msg }
func (e *httpxError) Unwrap() error { return e.err }

// httpxStatusError is an answer with a status other than 200 OK.
type httpxStatusError struct {
	// Service names who answered, for example "Open-Meteo forecast".
	Service string
	// Status is the HTTP status code.
	Status int
	// Reason is what the service said went wrong, if it said anything
	// readable; it never holds a credential.
	Reason string
	// Hint tells the model what to do about it, if anything.
	Hint string
}

func (e *httpxStatusError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s answered HTTP %d", e.Service, e.Status)
	if text := http.StatusText(e.Status); text != "" {
		fmt.Fprintf(&b, " %s", text)
	}
	if e.Reason != "" {
		fmt.Fprintf(&b, ": %s", e.Reason)
	}
	hint := e.Hint
	if hint == "" {
		hint = httpxDefaultHint(e.Status)
	}
	if hint != "" {
		fmt.Fprintf(&b, "; %s", hint)
	}
	return b.String()
}

// httpxDefaultHint is the advice for a status when the caller has none.
func httpxDefaultHint(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return "the service is rate limiting requests, wait a little before trying again"
	case status >= 500:
		return "the service has a problem of its own, try again later"
	}
	return ""
}

// httpxDo sends req with the common headers and returns the status and the
// body. A failure to get any answer is an *httpxError naming service.
func httpxDo(c *http.Client, req *http.Request, service string) (int, []byte, error) {
	req.Header.Set("User-Agent", httpxUserAgent)
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "application/json")
	}
	// A copy of the client, so that the redirect rule applies to every
	// caller without changing the caller's client.
	cc := *c
	cc.CheckRedirect = httpxRedirect(c.CheckRedirect)
	if cc.Transport == nil {
		cc.Transport = &httpxTransport{host: req.URL.Host, scheme: req.URL.Scheme, direct: http.DefaultTransport}
	}
	resp, err := cc.Do(req)
	if err != nil {
		return 0, nil, httpxTransportError(req.Context(), service, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, httpxMaxBody+1))
	if err != nil {
		return 0, nil, httpxTransportError(req.Context(), service, err)
	}
	if len(body) > httpxMaxBody {
		return 0, nil, &httpxError{msg: fmt.Sprintf("%s sent a response larger than %d bytes; try again with a narrower request", service, httpxMaxBody)}
	}
	return resp.StatusCode, body, nil
}

// httpxTransport trusts the endpoint the operator configured (the host
// and scheme of a request's first URL, a SearXNG or Open-Meteo base URL)
// and sends there directly; a redirect to any other destination goes
// through a transport that dials under the egress policy of the request's
// context, as the model's own destinations do (see package egress), so
// that a configured endpoint cannot bounce a request to a local address
// the policy refuses. That transport is made at the first such redirect
// and keeps no connection.
type httpxTransport struct {
	host, scheme string
	direct       http.RoundTripper
	judged       *http.Transport // nil until a redirect leaves the host
}

func (t *httpxTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.EqualFold(r.URL.Host, t.host) && r.URL.Scheme == t.scheme {
		return t.direct.RoundTrip(r)
	}
	if t.judged == nil { // redirects are followed one at a time
		t.judged = (&egress.Dialer{}).Transport()
		t.judged.DisableKeepAlives = true
	}
	return t.judged.RoundTrip(r)
}

// httpxSecretHeaders are the request headers that carry a credential of
// the service the request was meant for. net/http already drops
// Authorization and Cookie on a redirect to another domain; it does not
// know Brave's X-Subscription-Token or the other API-key headers.
var httpxSecretHeaders = []string{
	"Authorization", "Proxy-Authorization", "Cookie",
	"X-Subscription-Token", "X-Api-Key", "Api-Key", "X-Goog-Api-Key",
}

// httpxMaxRedirects is how many redirects a request follows, as net/http's
// default.
const httpxMaxRedirects = 10

// httpxRedirect returns a CheckRedirect that drops the credential headers
// when a redirect leaves the host the request was sent to (a different
// host name or port), then applies next, or the default limit of
// redirects when next is nil.
func httpxRedirect(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if !strings.EqualFold(req.URL.Host, via[0].URL.Host) || req.URL.Scheme != via[0].URL.Scheme {
			for _, h := range httpxSecretHeaders {
				req.Header.Del(h)
			}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= httpxMaxRedirects {
			return fmt.Errorf("stopped after %d redirects", httpxMaxRedirects)
		}
		return nil
	}
}

// httpxTransportError explains err, a failure to send a request or read its
// answer, keeping it as the cause.
func httpxTransportError(ctx context.Context, service string, err error) error {
	var cause error = err
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		// url.Error repeats the whole URL; the model needs only the cause.
		cause = ue.Err
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &httpxError{msg: fmt.Sprintf("%s did not answer in time; try again later", service), err: errors.Join(err, context.DeadlineExceeded)}
	case errors.Is(err, context.Canceled) || errors.Is(ctx.Err(), context.Canceled):
		return &httpxError{msg: fmt.Sprintf("the request to %s was cancelled", service), err: errors.Join(err, context.Canceled)}
	}
	var te interface{ Timeout() bool }
	if errors.As(err, &te) && te.Timeout() {
		return &httpxError{msg: fmt.Sprintf("%s did not answer in time (%v); try again later", service, cause), err: err}
	}
	return &httpxError{msg: fmt.Sprintf("could not reach %s (%v); try again later", service, cause), err: err}
}

// httpxBaseURL returns the base URL configured in the environment variable
// name (value is its value), or def when it is empty. The value must be an
// absolute http or https URL.
func httpxBaseURL(name, value, def string) (*url.URL, error) {
	value = strings.TrimSpace(value)
	if value == "" {
		value = def
	}
	u, err := url.Parse(value)
	if err != nil {
		// The cause alone: url.Error would repeat the value, password and all.
		var cause error = err
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			cause = ue.Err
		}
		return nil, fmt.Errorf("the environment variable %s does not hold a URL (%v); the operator must fix it", name, cause)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// Redacted hides a password written into the URL.
		return nil, fmt.Errorf("the environment variable %s is %q, which is not an http or https URL; the operator must fix it", name, u.Redacted())
	}
	return u, nil
}

// httpxEndpoint returns base with elem appended to its path and query as
// its query string.
func httpxEndpoint(base *url.URL, query url.Values, elem ...string) string {
	u := base.JoinPath(elem...)
	u.RawQuery = query.Encode()
	u.Fragment = ""
	return u.String()
}

// httpxWithDeadline bounds ctx by d unless it already has a deadline, so a
// direct call without one cannot hang on a silent server.
func httpxWithDeadline(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}

// httpxSnippet returns a short single-line excerpt of body for an error
// message, or "" when body holds nothing readable. secrets, and credentials
// of a known shape, are redacted before the excerpt is cut.
func httpxSnippet(body []byte, limit int, secrets ...string) string {
	if !utf8.Valid(body) {
		return ""
	}
	s := strings.Join(strings.Fields(string(body)), " ")
	if strings.HasPrefix(s, "<") {
		// An HTML error page says nothing the status does not.
		return ""
	}
	return httpxTruncate(redact.String(s, secrets...), limit)
}

// httpxTruncate cuts s to at most limit runes, marking a cut with "…". It
// cuts between words when a space is near the limit.
func httpxTruncate(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	cut := string([]rune(s)[:limit-1])
	if i := strings.LastIndexByte(cut, ' '); i >= 0 && utf8.RuneCountInString(cut[i:]) <= limit/5 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ") + "…"
}
