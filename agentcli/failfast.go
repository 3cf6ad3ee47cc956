package agentcli

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/toolreg/toolreg/redact"
)

// checkBaseURL fails at once for a base URL that is not an http or https
// URL, such as "localhost:1234", which would otherwise be retried.
func checkBaseURL(s string) error {
	u, err := url.Parse(s)
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return nil
	}
	guess := ""
	if !strings.Contains(s, "://") {
		guess = fmt.Sprintf(" (did you mean http://%s?)", strings.TrimRight(s, "/"))
	}
	// The text may hold credentials (user:password@).
	return fmt.Errorf("base URL %q is not a URL: want http://HOST[:PORT]/PATH or https://…%s", redact.String(s), redact.String(guess))
}

// lastingError is a failure that sending the request again cannot heal:
// the turn ends with it at once instead of retrying.
type lastingError struct {
	msg string
	err error
}

func (e *lastingError) Error() string { return e.msg }
func (e *lastingError) Unwrap() error { return e.err }

// errFirstByte is the cause of a request that got no answer in time.
var errFirstByte = errors.New("no answer began in time")

type abortKey struct{}

// withAbort returns a context whose requests, on a failure that cannot
// heal, cancel it with that failure as the cause: the chat client then
// returns it at once instead of retrying.
func withAbort(ctx context.Context) (context.Context, context.CancelCauseFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	return context.WithValue(ctx, abortKey{}, cancel), cancel
}

// failFast is the agent's HTTP transport: it bounds the wait for the first
// byte of an answer and tells failures that cannot heal (nothing listening
// on a local port, a host that does not exist, a certificate that is not
// valid, no answer in time) from those worth retrying.
type failFast struct {
	base http.RoundTripper
	// firstByte bounds the wait for the answer's headers; none when zero.
	firstByte time.Duration
}

// newHTTPClient returns the client the agent sends requests with.
func newHTTPClient(firstByte time.Duration) *http.Client {
	return &http.Client{Transport: &failFast{base: http.DefaultTransport, firstByte: firstByte}}
}

func (t *failFast) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancelCause(req.Context())
	if t.firstByte > 0 {
		timer := time.AfterFunc(t.firstByte, func() { cancel(errFirstByte) })
		defer timer.Stop()
	}
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if err == nil {
		resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: func() { cancel(nil) }}
		return resp, nil
	}
	defer cancel(nil)
	lasting := t.lasting(req.URL, err, context.Cause(ctx))
	if lasting == nil {
		return nil, err
	}
	if abort, ok := req.Context().Value(abortKey{}).(context.CancelCauseFunc); ok {
		abort(lasting)
	}
	return nil, lasting
}

// lasting returns the explanation of err if it cannot heal, or nil.
func (t *failFast) lasting(u *url.URL, err, cause error) error {
	where := u.Scheme + "://" + u.Host
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var badHost x509.HostnameError
	switch {
	case errors.Is(cause, errFirstByte):
		return &lastingError{fmt.Sprintf("%s accepted the request but began no answer within %s: is it overloaded or stuck? raise the wait with -first-byte-timeout", where, t.firstByte), cause}
	case errors.Is(err, syscall.ECONNREFUSED) && isLocal(where):
		return &lastingError{fmt.Sprintf("nothing listens at %s (connection refused): %s", where, startHint(where)), err}
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return &lastingError{fmt.Sprintf("no such host %q: check the base URL (-base-url or LLM_BASE_URL)", u.Hostname()), err}
	case errors.As(err, &certErr), errors.As(err, &unknownCA), errors.As(err, &badHost):
		return &lastingError{fmt.Sprintf("the certificate of %s is not valid: %v", where, err), err}
	}
	return nil
}

// cancelOnClose ends a request's context when its answer is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel func()
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}
