// Package origin says whether a URL is at a server's origin, its scheme
// and host (with its port), and keeps a client's credentials there when
// the server redirects elsewhere.
//
// net/http's own redirect policy keeps Authorization and Cookie on a
// redirect to the same host name over plain http or on another port, and
// to its subdomains, and every other header, an API key in X-Api-Key
// included, on a redirect anywhere.
package origin

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Origin is the scheme and host of a URL.
type Origin struct{ scheme, host string }

// Of returns the origin of u.
func Of(u *url.URL) Origin { return Origin{strings.ToLower(u.Scheme), strings.ToLower(u.Host)} }

// Has reports whether u is at o: the same scheme, and the same host and
// port, whatever their case.
func (o Origin) Has(u *url.URL) bool {
	return strings.EqualFold(u.Scheme, o.scheme) && strings.EqualFold(u.Host, o.host)
}

// maxRedirects is how many redirects net/http's default policy follows.
const maxRedirects = 10

// CheckRedirect returns an http.Client CheckRedirect that deletes the
// headers names from a redirected request that leaves the origin of the
// first request, then applies next, or net/http's default limit of 10
// redirects when next is nil. A redirect back to the origin has the
// headers again: net/http copies them from the first request at each one.
func CheckRedirect(next func(*http.Request, []*http.Request) error, names ...string) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if !Of(via[0].URL).Has(req.URL) {
			for _, h := range names {
				req.Header.Del(h)
			}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		return nil
	}
}
