package otlp

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/toolreg/toolreg/internal/origin"
)

// Retry delays: the first, doubled on each retry up to the last, with
// jitter; a Retry-After header replaces them. All are bounded by the
// export's timeout.
const (
	firstRetryDelay = time.Second
	maxRetryDelay   = 30 * time.Second
)

// maxResponse is how much of a response body is read.
const maxResponse = 64 << 10

// ErrPartialSuccess is wrapped by the error an export returns when the
// collector accepted the request but rejected some of its items; the SDK
// hands it to the OpenTelemetry error handler, which logs it.
var ErrPartialSuccess = errors.New("partial success")

// client posts encoded requests to one URL.
type client struct {
	cfg    Config
	url    string // cfg.URL without a password, for errors
	http   *http.Client
	what   string                                     // "spans" or "data points", in partial success errors
	wait   func(context.Context, time.Duration) error // sleeps; replaced in tests
	now    func() time.Time                           // the clock of the retry budget; replaced in tests
	closed chan struct{}
	once   sync.Once
}

func newClient(cfg Config, what string) (*client, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("otlp: Config.URL is not an http or https URL")
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if cfg.TLS != nil {
		tr.TLSClientConfig = cfg.TLS.Clone()
	}
	c := &client{
		cfg:    cfg,
		url:    u.Redacted(),
		http:   &http.Client{Transport: tr, CheckRedirect: origin.CheckRedirect(nil, slices.Collect(maps.Keys(cfg.Header))...)},
		what:   what,
		wait:   sleep,
		now:    time.Now,
		closed: make(chan struct{}),
	}
	return c, nil
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// errShutdown is returned by exports after Shutdown.
var errShutdown = errors.New("otlp: the exporter is shut down")

// post sends body, retrying on 429, 502, 503, 504 and on transport
// errors, within the configured timeout.
func (c *client) post(ctx context.Context, body []byte) error {
	select {
	case <-c.closed:
		return errShutdown
	default:
	}
	deadline := c.now().Add(c.cfg.Timeout)
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	if c.cfg.Gzip {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(body) // a bytes.Buffer does not fail
		zw.Close()
		body = buf.Bytes()
	}
	delay := firstRetryDelay
	for n := 1; ; n++ {
		retryAfter, err := c.attempt(ctx, body)
		if err == nil {
			return nil
		}
		var perm permanent
		if errors.As(err, &perm) {
			return perm.err
		}
		d := retryAfter
		if d <= 0 {
			d = delay/2 + rand.N(delay/2+1)
			delay = min(2*delay, maxRetryDelay)
		}
		if c.now().Add(d).After(deadline) {
			return fmt.Errorf("%w (attempt %d; the next retry, in %v, would pass the %v timeout)", err, n, d.Round(time.Millisecond), c.cfg.Timeout)
		}
		if werr := c.wait(ctx, d); werr != nil {
			return fmt.Errorf("%w (attempt %d; %w)", err, n, werr)
		}
	}
}

// permanent marks an error that retrying does not help.
type permanent struct{ err error }

func (p permanent) Error() string { return p.err.Error() }

// attempt makes one request. It returns a retryable error, with the delay
// the server asked for if any, or a permanent one, or nil.
func (c *client) attempt(ctx context.Context, body []byte) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return 0, permanent{fmt.Errorf("otlp: POST %s: %w", c.url, err)}
	}
	for k, vs := range c.cfg.Header {
		req.Header[k] = vs
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	if c.cfg.Gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		err = fmt.Errorf("otlp: POST %s: %w", c.url, unwrapURLError(err))
		var cert *tls.CertificateVerificationError
		if ctx.Err() != nil || errors.As(err, &cert) {
			return 0, permanent{err}
		}
		return 0, err
	}
	defer resp.Body.Close()
	msg, rerr := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		if rerr != nil {
			return 0, nil // the data was accepted; the rest of the reply does not matter
		}
		if err := c.partialSuccess(msg); err != nil {
			return 0, permanent{err} // the rest was accepted: sending again would duplicate it
		}
		return 0, nil
	case resp.StatusCode == http.StatusTooManyRequests, resp.StatusCode == http.StatusBadGateway,
		resp.StatusCode == http.StatusServiceUnavailable, resp.StatusCode == http.StatusGatewayTimeout:
		return retryAfter(resp.Header.Get("Retry-After"), time.Now()), fmt.Errorf("otlp: POST %s: %s", c.url, resp.Status)
	}
	return 0, permanent{fmt.Errorf("otlp: POST %s: %s%s", c.url, resp.Status, statusMessage(msg))}
}

// unwrapURLError drops url.Error's quoted URL, which may hold a password;
// the caller names the URL redacted.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// retryAfter is the delay a Retry-After header asks for, in seconds or as
// an HTTP date; 0 if absent or unreadable.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 || s > int64(24*time.Hour/time.Second) {
			return 0
		}
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}

// statusMessage is ": " and the message of a google.rpc.Status response
// body (field 2), as collectors send with 4xx and 5xx; "" if there is none.
func statusMessage(body []byte) string {
	d := dec{body}
	for len(d.b) > 0 {
		field, wire, err := d.next()
		if err != nil {
			return ""
		}
		if field == 2 && wire == wireBytes {
			p, err := d.bytes()
			if err != nil || len(p) == 0 {
				return ""
			}
			return ": " + string(bytes.ToValidUTF8(p[:min(len(p), 512)], []byte("?")))
		}
		if d.skip(wire) != nil {
			return ""
		}
	}
	return ""
}

// partialSuccess reads an Export*ServiceResponse, whose partial_success
// (field 1) holds the number of rejected items (field 1) and a message
// (field 2). It returns an error wrapping ErrPartialSuccess if either is
// set, nil otherwise or if the body is not such a message.
func (c *client) partialSuccess(body []byte) error {
	d := dec{body}
	var rejected int64
	var msg string
	for len(d.b) > 0 {
		field, wire, err := d.next()
		if err != nil {
			return nil
		}
		if field != 1 || wire != wireBytes {
			if d.skip(wire) != nil {
				return nil
			}
			continue
		}
		p, err := d.bytes()
		if err != nil {
			return nil
		}
		ps := dec{p}
		for len(ps.b) > 0 {
			f, w, err := ps.next()
			if err != nil {
				return nil
			}
			switch {
			case f == 1 && w == wireVarint:
				v, err := ps.uvarint()
				if err != nil {
					return nil
				}
				rejected = int64(v)
			case f == 2 && w == wireBytes:
				m, err := ps.bytes()
				if err != nil {
					return nil
				}
				msg = string(bytes.ToValidUTF8(m[:min(len(m), 512)], []byte("?")))
			default:
				if ps.skip(w) != nil {
					return nil
				}
			}
		}
	}
	if rejected == 0 && msg == "" {
		return nil
	}
	return fmt.Errorf("otlp: POST %s: %w: %d %s rejected: %s", c.url, ErrPartialSuccess, rejected, c.what, msg)
}

// shutdown makes later posts fail and closes idle connections.
func (c *client) shutdown() {
	c.once.Do(func() {
		close(c.closed)
		c.http.CloseIdleConnections()
	})
}
