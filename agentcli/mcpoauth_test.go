package agentcli

import (
	"context"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/mcpauth"
	"github.com/toolreg/toolreg/mcpauth/mcpauthtest"
)

// oauthEnv is the environment of an agent that mounts a server of as: its
// state in a temporary directory, the authorization server's loopback
// address allowed, and the client secret in SVC_SECRET.
func oauthEnv(t *testing.T, as *mcpauthtest.AuthServer) (map[string]string, string) {
	t.Helper()
	u, _ := url.Parse(as.URL())
	state := t.TempDir()
	return map[string]string{
		"XDG_STATE_HOME":    state,
		"TOOLREG_NET_ALLOW": u.Host,
		"SVC_SECRET":        "svc-secret-0123456789",
	}, state
}

// runOAuthAgent runs the agent with env and returns its exit status, stdout
// and stderr.
func runOAuthAgent(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr lockedBuffer
	c := &cli{tools: testTools, stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return env[k] }}
	code := c.run(context.Background(), args)
	return code, stdout.String(), stderr.String()
}

// TestMCPOAuthClientCredentials: agent call of a tool of a server that
// needs OAuth, unattended with client credentials from -mcp-oauth; the
// token is kept in a 0600 file under $XDG_STATE_HOME/toolreg/oauth, and
// redacted from the tool's answer, which repeats it.
func TestMCPOAuthClientCredentials(t *testing.T) {
	as := mcpauthtest.NewAuthServer(t)
	as.Preregister("svc", "svc-secret-0123456789")
	srv := mcpauthtest.NewServer(t, as)
	env, state := oauthEnv(t, as)
	code, stdout, stderr := runOAuthAgent(t, env, "call", "-yes", "-tools", "calculator", "-mcp", "docs="+srv.Endpoint(),
		"-mcp-oauth", "docs=client_id=svc,client_secret=$SVC_SECRET,grant=client_credentials,scopes=tools:read", "docs__whoami", "{}")
	if code != 0 || strings.TrimSpace(stdout) != "called with [REDACTED]" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 0 and the token redacted", code, stdout, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(state, "toolreg", "oauth", "*.json"))
	if len(files) != 1 {
		t.Fatalf("token files: %q", files)
	}
	fi, err := os.Stat(files[0])
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v, %v", fi, err)
	}
	rec, err := (&mcpauth.Store{Dir: filepath.Dir(files[0])}).Load(srv.Endpoint())
	if err != nil || rec == nil {
		t.Fatal(rec, err)
	}
	if strings.Contains(stdout+stderr, rec.AccessToken[:20]) || strings.Contains(stdout+stderr, "svc-secret") {
		t.Error("a token or the secret was printed")
	}
	grants, _ := as.TokenRequests()
	if diff := cmp.Diff([]string{"client_credentials"}, grants); diff != "" {
		t.Errorf("token requests (-want +got):\n%s", diff)
	}

	// The next run uses the kept token, without the client's settings.
	code, stdout, stderr = runOAuthAgent(t, env, "call", "-yes", "-tools", "calculator", "-mcp", "docs="+srv.Endpoint(), "docs__echo", `{"text":"again"}`)
	if code != 0 || strings.TrimSpace(stdout) != "echo: again" {
		t.Errorf("second run: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if grants, _ := as.TokenRequests(); len(grants) != 1 {
		t.Errorf("the second run asked for a token: %q", grants)
	}
}

// TestMCPOAuthConfigFile reads the oauth object of an mcpServers file in
// Claude Code's shape (clientId, scopes as a string, authServerMetadataUrl
// ignored), the secret from the variable it names.
func TestMCPOAuthConfigFile(t *testing.T) {
	as := mcpauthtest.NewAuthServer(t)
	as.Preregister("svc", "svc-secret-0123456789")
	srv := mcpauthtest.NewServer(t, as)
	env, _ := oauthEnv(t, as)
	file := filepath.Join(t.TempDir(), "mcp.json")
	write := func(oauth string) {
		t.Helper()
		if !strings.HasPrefix(oauth, `"`) {
			oauth = `"oauth": ` + oauth
		}
		js := `{"mcpServers": {"docs": {"type": "http", "url": "` + srv.Endpoint() + `", ` + oauth + `}}}`
		if err := os.WriteFile(file, []byte(js), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"clientId": "svc", "clientSecret": "${SVC_SECRET}", "grant": "client_credentials", "scopes": "tools:read", "authServerMetadataUrl": "https://ignored.example.com", "callbackPort": 8765}`)
	code, stdout, stderr := runOAuthAgent(t, env, "tools", "-tools", "calculator", "-mcp-config", file)
	if code != 0 || !strings.Contains(stdout, "docs__echo") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want docs__echo listed", code, stdout, stderr)
	}
	// Cursor's auth object, in a new state directory.
	env["XDG_STATE_HOME"] = t.TempDir()
	write(`"auth": {"CLIENT_ID": "svc", "CLIENT_SECRET": "${env:SVC_SECRET}", "scopes": ["tools:read"], "grant": "client_credentials"}`)
	code, stdout, stderr = runOAuthAgent(t, env, "tools", "-tools", "calculator", "-mcp-config", file)
	if code != 0 || !strings.Contains(stdout, "docs__echo") {
		t.Fatalf("Cursor's auth: exit %d, stdout %q, stderr %q; want docs__echo listed", code, stdout, stderr)
	}
	if grants, _ := as.TokenRequests(); len(grants) != 2 {
		t.Errorf("token requests %q, want one a run", grants)
	}
	for _, tt := range []struct{ oauth, want string }{
		{`{"clientId": "svc", "clientSecret": "svc-secret-0123456789"}`, "not the secret itself"},
		{`{"clientId": "svc", "grant": "client_credentials"}`, "needs a client id and a client secret"},
		{`{"grant": "password"}`, `grant "password"`},
		{`{"callbackPort": 70000}`, "want a port"},
		{`{"scopes": 3}`, "scopes"},
		{`"auth": {"CLIENT_ID": "svc", "CLIENT_SECRET": "svc-secret-0123456789"}`, "not the secret itself"},
		{`"auth": {}, "oauth": {}`, "both oauth and auth"},
	} {
		write(tt.oauth)
		code, _, stderr := runOAuthAgent(t, env, "tools", "-tools", "calculator", "-mcp-config", file)
		if code != exitUsage || !strings.Contains(stderr, tt.want) || strings.Contains(stderr, "svc-secret-0123456789") {
			t.Errorf("oauth %s: exit %d, stderr %q; want %d and %q, and the secret never shown", tt.oauth, code, stderr, exitUsage, tt.want)
		}
	}
}

// TestMCPOAuthNoTerminal: without a terminal and without client
// credentials, a server that needs a sign-in is left out, with a message
// that says what to do.
func TestMCPOAuthNoTerminal(t *testing.T) {
	as := mcpauthtest.NewAuthServer(t)
	srv := mcpauthtest.NewServer(t, as)
	env, state := oauthEnv(t, as)
	code, stdout, stderr := runOAuthAgent(t, env, "tools", "-tools", "calculator", "-mcp", "docs="+srv.Endpoint())
	if code != 0 || strings.Contains(stdout, "docs__") || !strings.Contains(stderr, "left out") || !strings.Contains(stderr, "run the agent once on a terminal") {
		t.Errorf("exit %d, stdout %q, stderr %q; want docs left out with the way to sign in", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(state, "toolreg", "oauth")); !os.IsNotExist(err) {
		t.Errorf("the token directory was made without a token: %v", err)
	}
}

// TestMCPOAuthFlag checks -mcp-oauth values and when a server gets no
// handler: OAuth off, or a static Authorization header.
func TestMCPOAuthFlag(t *testing.T) {
	for _, tt := range []struct{ value, want string }{
		{"docs=client_id", "want key=value"},
		{"docs=color=blue", `unknown key "color"`},
		{"docs=client_secret=literal-secret", "not the secret itself"},
		{"docs=callback_port=0", "want a port"},
		{"=client_id=x", "want NAME=VALUE"},
	} {
		var m mountOAuth
		if err := m.Set(tt.value); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Set(%q) = %v, want %q", tt.value, err, tt.want)
		}
	}
	var m mountOAuth
	for _, v := range []string{"a=client_id=id,client_secret=${SEC},scopes=x y,issuer=https://auth.example.com,grant=client_credentials,callback_port=8080", "b=off"} {
		if err := m.Set(v); err != nil {
			t.Fatal(err)
		}
	}
	want := mcpauth.Config{ClientID: "id", Scopes: []string{"x", "y"}, Issuer: "https://auth.example.com", Grant: "client_credentials", CallbackPort: 8080}
	if diff := cmp.Diff(want, m["a"].cfg); diff != "" || m["a"].secretVar != "SEC" || !m["b"].off {
		t.Errorf("settings: %+v (-want +got):\n%s", m, diff)
	}

	env := map[string]string{"SEC": "the-secret-0123"}
	s := &selection{getenv: func(k string) string { return env[k] }, oauth: m,
		mounts:       specList{"a=https://a.example.com/mcp", "b=https://b.example.com/mcp", "c=https://c.example.com/mcp", "d=https://d.example.com/mcp", "e=/bin/true"},
		mountHeaders: serverValues{"c": {"Authorization: Bearer $TOKEN"}, "d": {"X-Trace: 1"}}}
	hs, err := s.oauthHandlers(nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "d"}, slices.Sorted(maps.Keys(hs))); diff != "" {
		t.Errorf("servers with a handler (-want +got):\n%s", diff)
	}
	delete(env, "SEC")
	if _, err := s.oauthHandlers(nil); err == nil || !strings.Contains(err.Error(), "$SEC is not set") {
		t.Errorf("unset secret variable: %v", err)
	}
	s.oauth = mountOAuth{"zz": {from: "-mcp-oauth zz"}}
	if _, err := s.oauthHandlers(nil); err == nil || !strings.Contains(err.Error(), "no HTTP server of that name") {
		t.Errorf("unknown server: %v", err)
	}
}

// TestMCPOAuthTerminal signs in as a person would, on a terminal: the
// agent prints the authorization URL, the test opens it as the browser
// would, the redirect reaches the agent's loopback listener, and the
// server's tools are listed; the token is kept for the next run.
func TestMCPOAuthTerminal(t *testing.T) {
	as := mcpauthtest.NewAuthServer(t)
	srv := mcpauthtest.NewServer(t, as)
	u, _ := url.Parse(as.URL())
	t.Setenv("TOOLREG_NET_ALLOW", u.Host)
	t.Setenv("DISPLAY", "") // no browser is started: the test is the browser
	t.Setenv("WAYLAND_DISPLAY", "")
	state := t.TempDir()
	term := startTerminal(t, "http://127.0.0.1:1", state, "tools", "-tools", "calculator", "-mcp", "docs="+srv.Endpoint())
	term.expect("open this URL in a browser")
	term.expect("\n  ")
	authURL := strings.TrimSpace(term.expect("\n"))
	if !strings.HasPrefix(authURL, as.URL()+"/authorize?") {
		t.Fatalf("authorization URL %q", authURL)
	}
	var b mcpauthtest.Browser
	if err := b.Browse(t.Context(), authURL); err != nil {
		t.Fatal(err)
	}
	term.expect(`mcp server "docs": signed in`)
	term.expect("docs__echo")
	if code := term.wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	rec, err := (&mcpauth.Store{Dir: filepath.Join(state, "toolreg", "oauth")}).Load(srv.Endpoint())
	if err != nil || rec == nil || rec.RefreshToken == "" {
		t.Fatalf("kept token: %+v, %v", rec, err)
	}
	grants, _ := as.TokenRequests()
	if diff := cmp.Diff([]string{"authorization_code"}, grants); diff != "" {
		t.Errorf("token requests (-want +got):\n%s", diff)
	}
}
