package toolmcp

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/toolreg/toolreg/egress"
	"github.com/toolreg/toolreg/internal/origin"
	"github.com/toolreg/toolreg/redact"
)

// connectTimeout is how long connecting to the server of sp may take:
// ConnectTimeout, and SignInTimeout more for a server with an OAuth
// handler, whose first request may wait for a person to sign in.
func (o *MountOptions) connectTimeout(sp Spec) time.Duration {
	d := cmp.Or(max(o.ConnectTimeout, 0), DefaultConnectTimeout)
	if sp.URL != "" && o.OAuth[sp.Name] != nil {
		d += max(o.SignInTimeout, 0)
	}
	return d
}

// withOAuth returns hc with a transport that removes the Authorization
// header from every request that leaves the origin of endpoint (a
// redirect elsewhere): the server's token goes to the server only.
func withOAuth(hc *http.Client, endpoint string) *http.Client {
	u, err := url.Parse(endpoint)
	if err != nil {
		return hc
	}
	c := *hc
	c.Transport = &ownOrigin{base: cmp.Or[http.RoundTripper](c.Transport, http.DefaultTransport), origin: origin.Of(u)}
	return &c
}

// ownOrigin passes the Authorization header only to one origin.
type ownOrigin struct {
	base   http.RoundTripper
	origin origin.Origin
}

func (t *ownOrigin) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Header.Get("Authorization") != "" && !t.origin.Has(r.URL) {
		r = r.Clone(r.Context())
		r.Header.Del("Authorization")
	}
	return t.base.RoundTrip(r)
}

// offOrigin returns hc with a transport that sends the requests for the
// origin of endpoint, the server the operator configured, as hc does, and
// dials every other (a redirect elsewhere: 307 and 308 keep the method
// and the body) under policy, so that a mounted server cannot bounce the
// agent's requests to a local or private address the policy refuses.
func offOrigin(hc *http.Client, endpoint string, policy *egress.Policy) (*http.Client, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil, fmt.Errorf("url: %w", redact.Error(err))
	}
	judged := (&egress.Dialer{Policy: policy}).Transport()
	judged.DisableKeepAlives = true
	c := *hc
	c.Transport = &splitOrigin{origin: origin.Of(u), direct: cmp.Or[http.RoundTripper](c.Transport, http.DefaultTransport), judged: judged}
	return &c, nil
}

// splitOrigin sends the requests for one origin directly and the others
// through a transport that dials under the egress policy.
type splitOrigin struct {
	origin         origin.Origin
	direct, judged http.RoundTripper
}

func (t *splitOrigin) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.origin.Has(r.URL) {
		return t.direct.RoundTrip(r)
	}
	return t.judged.RoundTrip(r)
}
