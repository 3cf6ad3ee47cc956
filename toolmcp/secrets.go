package toolmcp

import (
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/toolreg/toolreg/internal/origin"
	"github.com/toolreg/toolreg/redact"
)

// baseEnv are the environment variables every stdio server gets: what a
// program needs to find other programs, a home, a locale and a place for
// temporary files; no credentials.
var baseEnv = [...]string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TZ",
	"LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES",
	"TMPDIR", "TEMP", "TMP",
	"XDG_RUNTIME_DIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
	"SYSTEMROOT", "WINDIR", "COMSPEC", "PATHEXT", "APPDATA", "LOCALAPPDATA", "USERPROFILE", // Windows
}

// childEnv returns the environment of a stdio server: the variables of
// baseEnv and extra that getenv finds set.
func childEnv(getenv func(string) string, extra []string) []string {
	env := []string{}
	seen := map[string]bool{}
	for _, names := range [][]string{baseEnv[:], extra} {
		for _, n := range names {
			if seen[n] {
				continue
			}
			seen[n] = true
			if v := getenv(n); v != "" {
				env = append(env, n+"="+v)
			}
		}
	}
	return env
}

// ParseServerValue splits a -mcp-env or -mcp-header value, NAME=rest, into
// the server's name and the rest.
func ParseServerValue(v string) (server, rest string, err error) {
	server, rest, ok := strings.Cut(v, "=")
	if !ok || !validServerName(server) || strings.TrimSpace(rest) == "" {
		return "", "", fmt.Errorf("%q: want NAME=VALUE, NAME the name of a -mcp server", v)
	}
	return server, rest, nil
}

// validServerName reports whether s may be the NAME of a mount spec.
func validServerName(s string) bool {
	_, err := ParseSpec(s + "=x")
	return err == nil
}

// expandHeaders checks the header lines of each server and expands their
// values from the environment; the values of the variables they name that
// are credentials (the header's name or the variable's says so) are added
// to secrets. Messages name the variables, never their values.
func expandHeaders(specs []Spec, lines map[string][]string, getenv func(string) string, secrets *redact.Set) (map[string]http.Header, error) {
	out := map[string]http.Header{}
	for server, ls := range lines {
		i := slices.IndexFunc(specs, func(s Spec) bool { return s.Name == server })
		if i < 0 || specs[i].URL == "" {
			return nil, fmt.Errorf("-mcp-header %s: no HTTP server of that name is mounted", server)
		}
		h := http.Header{}
		for _, l := range ls {
			name, value, ok := strings.Cut(l, ":")
			name = strings.TrimSpace(name)
			if !ok || name == "" || strings.ContainsAny(name, " \t") {
				return nil, fmt.Errorf("-mcp-header %s: want \"Name: value\", got a line without a header name", server)
			}
			var missing []string
			value = os.Expand(strings.TrimSpace(value), func(v string) string {
				x := getenv(v)
				if x == "" {
					missing = append(missing, "$"+v)
				}
				if redact.CredentialName(name) || redact.CredentialName(v) {
					secrets.Add(x)
				}
				return x
			})
			if len(missing) > 0 {
				return nil, fmt.Errorf("-mcp-header %s: %s: %s not set in the environment", server, name, strings.Join(missing, ", "))
			}
			h.Add(name, value)
		}
		out[server] = h
	}
	return out, nil
}

// headerTransport adds headers to the requests for one origin: the same
// scheme and host, so that a redirect from https to http on the same host
// does not carry them in clear.
type headerTransport struct {
	base   http.RoundTripper
	origin origin.Origin
	header http.Header
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if !t.origin.Has(r.URL) {
		return t.base.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	for k, v := range t.header {
		r.Header[k] = v
	}
	return t.base.RoundTrip(r)
}
