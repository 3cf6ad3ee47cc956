package agentcli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/toolreg/toolreg/egress"
	"github.com/toolreg/toolreg/mcpauth"
	"github.com/toolreg/toolreg/toolmcp"
)

// oauthSetting is the OAuth setting of one HTTP server: off, or the
// client to use. secretVar names the variable that holds the client
// secret; the setting never holds the secret itself.
type oauthSetting struct {
	off       bool
	cfg       mcpauth.Config
	secretVar string
	from      string // the flag or file it came from, for messages
}

// mountOAuth holds the OAuth settings by server name: the -mcp-oauth
// flag's and the mcpServers oauth objects'. A flag beats the file.
type mountOAuth map[string]oauthSetting

func (m *mountOAuth) String() string { return "" }

// Set parses an -mcp-oauth value: NAME=off or NAME=key=value,… with the
// keys client_id, client_secret ($VAR or ${VAR}: the variable that holds
// it), scopes (separated by spaces), issuer, grant and callback_port.
func (m *mountOAuth) Set(v string) error {
	server, rest, err := toolmcp.ParseServerValue(v)
	if err != nil {
		return err
	}
	s := oauthSetting{from: "-mcp-oauth " + server}
	if strings.TrimSpace(rest) == "off" {
		s.off = true
	} else {
		for _, kv := range strings.Split(rest, ",") {
			k, val, ok := strings.Cut(kv, "=")
			k, val = strings.TrimSpace(k), strings.TrimSpace(val)
			if !ok || val == "" {
				return fmt.Errorf("-mcp-oauth %s: %q: want key=value", server, kv)
			}
			if err := s.set(k, val); err != nil {
				return fmt.Errorf("-mcp-oauth %s: %w", server, err)
			}
		}
	}
	if *m == nil {
		*m = mountOAuth{}
	}
	(*m)[server] = s
	return nil
}

// secretRefRE matches a reference to the variable that holds a secret:
// $VAR, ${VAR} or Cursor's ${env:VAR}.
var secretRefRE = lazyRE(`^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\})$`)

// set sets one key of the setting.
func (s *oauthSetting) set(k, v string) error {
	switch k {
	case "client_id", "clientId":
		s.cfg.ClientID = v
	case "client_secret", "clientSecret":
		sub := secretRefRE().FindStringSubmatch(v)
		if sub == nil {
			return fmt.Errorf("%s: want the variable that holds the secret, $VAR or ${VAR}, not the secret itself", k)
		}
		s.secretVar = sub[1] + sub[2]
	case "scopes", "scope":
		s.cfg.Scopes = strings.Fields(v)
	case "issuer":
		s.cfg.Issuer = v
	case "grant", "grant_type":
		s.cfg.Grant = v
	case "callback_port", "callbackPort":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%s %q: want a port, 1 to 65535", k, v)
		}
		s.cfg.CallbackPort = n
	default:
		return fmt.Errorf("unknown key %q: want client_id, client_secret, scopes, issuer, grant or callback_port", k)
	}
	return nil
}

// mcpServerOAuth is the oauth object of an HTTP server in an mcpServers
// table: Claude Code's fields (clientId, callbackPort, scopes as one
// string), their snake_case forms, which also read Cursor's auth object
// (CLIENT_ID, CLIENT_SECRET, scopes as a list: JSON keys match regardless
// of case), and issuer and grant besides.
// Other fields (authServerMetadataUrl, …) are ignored. The client secret
// is ${VAR}, the variable that holds it: the file holds no secrets.
type mcpServerOAuth struct {
	ClientID      string      `json:"clientId"`
	ClientID2     string      `json:"client_id"`
	ClientSecret  string      `json:"clientSecret"`
	ClientSecret2 string      `json:"client_secret"`
	Scopes        oauthScopes `json:"scopes"`
	Scope         oauthScopes `json:"scope"`
	Issuer        string      `json:"issuer"`
	Grant         string      `json:"grant"`
	CallbackPort  int         `json:"callbackPort"`
	CallbackPort2 int         `json:"callback_port"`
	Disabled      bool        `json:"disabled"`
}

// oauthScopes reads scopes as one space-separated string or a list.
type oauthScopes []string

func (s *oauthScopes) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*s = strings.Fields(one)
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return errors.New("scopes: want a string of scopes separated by spaces, or a list of them")
	}
	*s = list
	return nil
}

// setting returns the setting the object describes.
func (o *mcpServerOAuth) setting(from string) (oauthSetting, error) {
	s := oauthSetting{from: from, off: o.Disabled}
	pairs := [][2]string{
		{"client_id", cmp.Or(o.ClientID, o.ClientID2)},
		{"client_secret", cmp.Or(o.ClientSecret, o.ClientSecret2)},
		{"issuer", o.Issuer},
		{"grant", o.Grant},
	}
	for _, p := range pairs {
		if p[1] == "" {
			continue
		}
		if err := s.set(p[0], p[1]); err != nil {
			return s, fmt.Errorf("oauth: %w", err)
		}
	}
	s.cfg.Scopes = slices.Concat(o.Scopes, o.Scope)
	if port := cmp.Or(o.CallbackPort, o.CallbackPort2); port != 0 {
		if err := s.set("callback_port", strconv.Itoa(port)); err != nil {
			return s, fmt.Errorf("oauth: %w", err)
		}
	}
	return s, nil
}

// signInTimeout is the time a person has to sign in to a server: none
// without a terminal, where nobody can.
func (s *selection) signInTimeout() time.Duration {
	if !s.terminal {
		return 0
	}
	return mcpauth.DefaultSignInTimeout
}

// oauthHandlers returns the OAuth handlers of the HTTP servers mounted,
// by name: every one but those whose OAuth is off and those sent a
// static Authorization header (-mcp-header). Their tokens are kept in
// the state directory's oauth directory and added to the learnt secrets;
// the authorization servers are reached under the -net-allow policy.
func (s *selection) oauthHandlers(warn io.Writer) (map[string]auth.OAuthHandler, error) {
	policy, err := egress.Parse(s.netAllow)
	if err != nil {
		return nil, fmt.Errorf("-net-allow (%s): %w", egress.EnvAllow, err)
	}
	var store *mcpauth.Store
	if s.stateDir != nil {
		if dir, err := s.stateDir(); err == nil {
			store = &mcpauth.Store{Dir: filepath.Join(dir, "oauth")}
		}
	}
	urls := map[string]string{}
	for _, m := range s.mounts {
		if sp, err := toolmcp.ParseSpec(m); err == nil && sp.URL != "" {
			urls[sp.Name] = sp.URL
		}
	}
	for _, name := range sortedKeys(s.oauth) {
		if _, ok := urls[name]; !ok {
			return nil, fmt.Errorf("%s: no HTTP server of that name is mounted", s.oauth[name].from)
		}
	}
	out := map[string]auth.OAuthHandler{}
	for _, name := range sortedKeys(urls) {
		set := s.oauth[name]
		if set.off || hasAuthorization(s.mountHeaders[name]) {
			continue
		}
		cfg := set.cfg
		if set.secretVar != "" {
			if cfg.ClientSecret = s.getenv(set.secretVar); cfg.ClientSecret == "" {
				return nil, fmt.Errorf("%s: client_secret: $%s is not set in the environment", set.from, set.secretVar)
			}
		}
		opts := mcpauth.Options{
			Store:       store,
			Secrets:     s.learnt,
			Policy:      policy,
			Interactive: s.terminal,
			Prompt:      warn,
			ClientName:  "toolreg agent",
		}
		if s.terminal {
			opts.Browse = openBrowser(s.getenv)
		}
		h, err := mcpauth.New(name, urls[name], cfg, opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cmp.Or(set.from, name), err)
		}
		out[name] = h
	}
	return out, nil
}

// hasAuthorization reports whether header lines ("Name: value") set an
// Authorization header: the server then has a static token.
func hasAuthorization(lines []string) bool {
	for _, l := range lines {
		name, _, _ := strings.Cut(l, ":")
		if strings.EqualFold(strings.TrimSpace(name), "Authorization") {
			return true
		}
	}
	return false
}

// openBrowser returns the function that opens the authorization URL in
// the desktop's browser, when that is cheap and safe: an https URL (or
// http on loopback), a desktop to show it on (macOS, or a DISPLAY or
// WAYLAND_DISPLAY elsewhere), and the system's opener (open, xdg-open)
// run directly, without a shell, the URL one argument. Otherwise it does
// nothing: the URL is printed all the same.
func openBrowser(getenv env) func(ctx context.Context, u string) error {
	return func(_ context.Context, raw string) error {
		u, err := url.Parse(raw)
		if err != nil {
			return err
		}
		host := u.Hostname()
		local := host == "localhost" || net.ParseIP(host) != nil && net.ParseIP(host).IsLoopback()
		if u.Scheme != "https" && (u.Scheme != "http" || !local) {
			return fmt.Errorf("not opening a %s URL", u.Scheme)
		}
		var opener string
		switch runtime.GOOS {
		case "darwin":
			opener = "open"
		case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
			if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
				return nil // no desktop: the URL is printed
			}
			opener = "xdg-open"
		default:
			return nil
		}
		path, err := exec.LookPath(opener)
		if err != nil {
			return nil
		}
		cmd := exec.Command(path, u.String()) // not CommandContext: the browser outlives the wait
		if err := cmd.Start(); err != nil {
			return err
		}
		go cmd.Wait() //nolint:errcheck // reaped; its status says nothing
		return nil
	}
}
