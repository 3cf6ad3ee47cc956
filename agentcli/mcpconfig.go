package agentcli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/BurntSushi/toml"

	"github.com/toolreg/toolreg/redact"
	"github.com/toolreg/toolreg/toolmcp"
)

// mcpServer is one server of an mcpServers table, the JSON shape Claude
// Desktop, Claude Code (.mcp.json) and Cursor use: a stdio server's
// command, args and env, or an HTTP server's url and headers. ${VAR} and
// ${VAR:-default} in them are expanded from the environment, as Claude
// Code does. Fields of other clients (alwaysAllow, autoApprove, …) are
// ignored; "disabled": true leaves the server out.
type mcpServer struct {
	Name     string            `json:"-"`
	Type     string            `json:"type,omitempty"`
	Command  string            `json:"command,omitempty"`
	Args     []string          `json:"args,omitempty"`
	Env      map[string]string `json:"env,omitempty"`
	URL      string            `json:"url,omitempty"`
	Headers  map[string]string `json:"headers,omitempty"`
	Disabled bool              `json:"disabled,omitempty"`
	// OAuth configures the OAuth client of an HTTP server (see
	// mcpServerOAuth); without it the client registers itself. Auth is
	// Cursor's name for it (CLIENT_ID, CLIENT_SECRET, scopes).
	OAuth *mcpServerOAuth `json:"oauth,omitempty"`
	Auth  *mcpServerOAuth `json:"auth,omitempty"`

	from string // the file (and line) it came from
}

// describe shows the server for agent config, without env or header
// values.
func (s mcpServer) describe() string {
	if s.URL != "" {
		out := "http " + s.URL
		if len(s.Headers) > 0 {
			out += " (headers " + strings.Join(sortedKeys(s.Headers), ", ") + ")"
		}
		if s.OAuth != nil {
			out += " (oauth)"
		}
		return out
	}
	out := "stdio " + strings.Join(append([]string{s.Command}, s.Args...), " ")
	if len(s.Env) > 0 {
		out += " (env " + strings.Join(sortedKeys(s.Env), ", ") + ")"
	}
	return out
}

// parseServers reads an mcpServers table from JSON: {"mcpServers": {…}}
// (a whole .mcp.json or claude_desktop_config.json) or the table alone.
func parseServers(b []byte, from string) ([]mcpServer, error) {
	var whole struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &whole); err != nil {
		return nil, fmt.Errorf("%s: %w", from, jsonError(b, err))
	}
	table := whole.MCPServers
	if table == nil {
		if err := json.Unmarshal(b, &table); err != nil {
			return nil, fmt.Errorf("%s: %w", from, jsonError(b, err))
		}
	}
	var out []mcpServer
	for _, name := range sortedKeys(table) {
		var s mcpServer
		if err := json.Unmarshal(table[name], &s); err != nil {
			return nil, fmt.Errorf("%s: mcpServers.%s: %w", from, name, err)
		}
		s.Name, s.from = name, from
		if err := s.check(); err != nil {
			return nil, fmt.Errorf("%s: mcpServers.%s: %w", from, name, err)
		}
		if !s.Disabled {
			out = append(out, s)
		}
	}
	return out, nil
}

// jsonError adds the line of a JSON syntax error.
func jsonError(b []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return err
	}
	line := 1 + strings.Count(string(b[:min(int(off), len(b))]), "\n")
	return fmt.Errorf("line %d: %w", line, err)
}

// check checks one server: a name the agent can mount, and either a
// command or a URL of a transport it speaks.
func (s *mcpServer) check() error {
	if _, err := toolmcp.ParseSpec(s.Name + "=x"); err != nil {
		return fmt.Errorf("the name %q cannot prefix tools: letters, digits, _ and - only, no __", s.Name)
	}
	switch strings.ToLower(s.Type) {
	case "", "stdio", "http", "streamable-http", "streamablehttp":
	case "sse":
		return errors.New(`type "sse": the agent speaks streamable HTTP ("type": "http"), not the older SSE transport`)
	default:
		return fmt.Errorf("type %q: want stdio or http", s.Type)
	}
	switch {
	case s.Command != "" && s.URL != "":
		return errors.New("both command and url: want a command (stdio) or a url (HTTP)")
	case s.Command == "" && s.URL == "":
		return errors.New(`want "command" (and "args", "env") for a stdio server or "url" (and "headers") for an HTTP one`)
	case s.URL != "" && len(s.Env) > 0:
		return errors.New("env is for stdio servers; an HTTP server gets headers")
	case s.Command != "" && len(s.Headers) > 0:
		return errors.New("headers are for HTTP servers; a stdio server gets env")
	case s.OAuth != nil && s.Auth != nil:
		return errors.New("both oauth and auth: want one")
	case s.Command != "" && (s.OAuth != nil || s.Auth != nil):
		return errors.New("oauth is for HTTP servers")
	}
	if s.OAuth == nil {
		s.OAuth, s.Auth = s.Auth, nil
	}
	if s.OAuth != nil {
		set, err := s.OAuth.setting("")
		if err != nil {
			return err
		}
		cfg := set.cfg
		if set.secretVar != "" {
			cfg.ClientSecret = "${" + set.secretVar + "}" // read when mounting
		}
		if err := cfg.Check(); err != nil {
			return fmt.Errorf("oauth: %w", err)
		}
	}
	for k := range s.Env {
		if !envNameRE().MatchString(k) {
			return fmt.Errorf("env %q: not a variable name", k)
		}
	}
	return nil
}

// readMCPConfig reads the mcpServers of a JSON file (-mcp-config).
func readMCPConfig(path string) ([]mcpServer, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-mcp-config: %w", err)
	}
	return parseServers(b, path)
}

// servers returns the mcpServers value v of the config file at key at:
// an inline table, or the path of a JSON file (a relative one beside the
// config file).
func (cfg *config) servers(at toml.Key, v any) ([]mcpServer, error) {
	key := append(slices.Clone(at), "mcpServers")
	switch v := v.(type) {
	case string:
		path := v
		if strings.HasPrefix(path, "~/") {
			if home, err := os.UserHomeDir(); err == nil {
				path = home + path[1:]
			}
		}
		if !filepath.IsAbs(path) && cfg.path != "" {
			// Beside the config file, never in whatever directory
			// (a repository just cloned) the agent runs in.
			path = filepath.Join(filepath.Dir(cfg.path), path)
		}
		s, err := readMCPConfig(path)
		if err != nil {
			return nil, cfg.errorAt(key, err.Error())
		}
		if !slices.Contains(cfg.read, path) {
			cfg.read = append(cfg.read, path)
		}
		return s, nil
	case map[string]any:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, cfg.errorAt(key, err.Error())
		}
		var table map[string]json.RawMessage
		_ = json.Unmarshal(b, &table) // it was just marshalled
		var out []mcpServer
		for _, name := range sortedKeys(table) {
			var s mcpServer
			if err := json.Unmarshal(table[name], &s); err != nil {
				return nil, cfg.errorAt(append(key, name), fmt.Sprintf("mcpServers.%s: %v", name, err))
			}
			s.Name, s.from = name, fmt.Sprintf("%s:%d", cfg.path, cfg.lineOf(append(slices.Clone(key), name)))
			if err := s.check(); err != nil {
				return nil, cfg.errorAt(append(key, name), fmt.Sprintf("mcpServers.%s: %v", name, err))
			}
			if !s.Disabled {
				out = append(out, s)
			}
		}
		return out, nil
	}
	return nil, cfg.errorAt(key, fmt.Sprintf("mcpServers: want a table of servers ([mcpServers.NAME] with command, args, env or url, headers) or the path of a JSON file, not %T", v))
}

// mergeServers adds more to servers; one of the same name replaces it.
func mergeServers(servers, more []mcpServer) []mcpServer {
	for _, m := range more {
		if i := slices.IndexFunc(servers, func(s mcpServer) bool { return s.Name == m.Name }); i >= 0 {
			servers[i] = m
		} else {
			servers = append(servers, m)
		}
	}
	return servers
}

// expandRE matches ${VAR} and ${VAR:-default}.
var expandRE = lazyRE(`\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}`)

// expand replaces ${VAR} and ${VAR:-default} in s from the environment;
// a variable that is not set and has no default is an error.
func expand(getenv env, s string) (string, error) {
	var missing []string
	out := expandRE().ReplaceAllStringFunc(s, func(m string) string {
		sub := expandRE().FindStringSubmatch(m)
		if v := getenv(sub[1]); v != "" {
			return v
		}
		if strings.Contains(m, ":-") {
			return sub[2]
		}
		missing = append(missing, sub[1])
		return ""
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("${%s} is not set in the environment", strings.Join(missing, "}, ${"))
	}
	return out, nil
}

// mcpEnvArg is the hidden first argument of the agent re-run as the
// launcher of a stdio server whose env sets values of its own (see
// runMCPEnv).
const mcpEnvArg = "__mcp-env"

// privateEnvPrefix begins the names under which the values of a
// server's env and headers pass through the agent's environment (see
// mountServers); no variable of the environment has such a name.
const privateEnvPrefix = "TOOLREG_MCPCONF_"

// mountServers adds servers to o's -mcp mounts, as the flags would: a
// stdio server's command, and the names of its env variables
// (-mcp-env), an HTTP server's URL and headers (-mcp-header). A value of
// env that differs from the agent's environment, and every header value,
// reach toolmcp as variables of a private name that c.getenv answers; a
// stdio server with such values is started through the agent itself
// (mcpEnvArg), which gives them their names and runs the server. An -mcp
// flag of the same NAME wins over a server of the file.
func (c *cli) mountServers(servers []mcpServer, o *options) error {
	if len(servers) == 0 {
		return nil
	}
	flagged := map[string]bool{}
	for _, s := range o.sel.mounts {
		if sp, err := toolmcp.ParseSpec(s); err == nil {
			flagged[sp.Name] = true
		}
	}
	private := map[string]string{}
	base := c.getenv
	for _, s := range servers {
		if flagged[s.Name] {
			continue
		}
		prefix := privateEnvPrefix + s.Name + "__"
		if s.URL != "" {
			u, err := expand(base, s.URL)
			if err != nil {
				return fmt.Errorf("%s: mcpServers.%s: url: %w", s.from, s.Name, err)
			}
			o.sel.mounts = append(o.sel.mounts, s.Name+"="+u)
			if _, flagged := o.sel.oauth[s.Name]; s.OAuth != nil && !flagged {
				set, err := s.OAuth.setting(s.from + ": mcpServers." + s.Name)
				if err != nil {
					return fmt.Errorf("%s: mcpServers.%s: %w", s.from, s.Name, err)
				}
				if o.sel.oauth == nil {
					o.sel.oauth = mountOAuth{}
				}
				o.sel.oauth[s.Name] = set
			}
			for i, h := range sortedKeys(s.Headers) {
				v, err := expand(base, s.Headers[h])
				if err != nil {
					return fmt.Errorf("%s: mcpServers.%s: headers: %s: %w", s.from, s.Name, h, err)
				}
				name := fmt.Sprintf("%sH%d", prefix, i)
				private[name] = v
				if o.sel.mountHeaders == nil {
					o.sel.mountHeaders = serverValues{}
				}
				o.sel.mountHeaders[s.Name] = append(o.sel.mountHeaders[s.Name], h+": ${"+name+"}")
				if redact.CredentialName(h) {
					c.tools.Secrets = append(slices.Clone(c.tools.Secrets), name)
				}
			}
			continue
		}
		words := []string{s.Command}
		words = append(words, s.Args...)
		for i, w := range words {
			x, err := expand(base, w)
			if err != nil {
				return fmt.Errorf("%s: mcpServers.%s: command: %w", s.from, s.Name, err)
			}
			words[i] = x
		}
		var names []string
		own := false
		for _, k := range sortedKeys(s.Env) {
			v, err := expand(base, s.Env[k])
			if err != nil {
				return fmt.Errorf("%s: mcpServers.%s: env %s: %w", s.from, s.Name, k, err)
			}
			if v == base(k) && v != "" {
				names = append(names, k) // the agent's own value: passed on
				continue
			}
			own = true
			private[prefix+k] = v
			names = append(names, prefix+k)
			if redact.CredentialName(k) {
				c.tools.Secrets = append(slices.Clone(c.tools.Secrets), prefix+k)
			}
		}
		if own {
			self, err := os.Executable()
			if err != nil {
				return fmt.Errorf("mcpServers.%s: env: %w", s.Name, err)
			}
			words = append([]string{self, mcpEnvArg, prefix, "--"}, words...)
		}
		o.sel.mounts = append(o.sel.mounts, toolmcp.Spec{Name: s.Name, Command: words}.String())
		if len(names) > 0 {
			if o.sel.mountEnv == nil {
				o.sel.mountEnv = serverValues{}
			}
			o.sel.mountEnv[s.Name] = append(o.sel.mountEnv[s.Name], strings.Join(names, ","))
		}
	}
	if len(private) > 0 {
		c.getenv = func(k string) string {
			if v, ok := private[k]; ok {
				return v
			}
			return base(k)
		}
	}
	return nil
}

// runMCPEnv is the agent re-run to start a stdio server of the config
// file: args are the private prefix, "--", and the server's command. The
// variables of the environment whose names begin with the prefix are
// given their own names, and the command replaces this process.
func runMCPEnv(args []string) int {
	if len(args) < 3 || args[1] != "--" {
		fmt.Fprintln(os.Stderr, "agent: "+mcpEnvArg+": want PREFIX -- COMMAND ARGS…")
		return exitUsage
	}
	prefix, argv := args[0], args[2:]
	var env []string
	for _, kv := range os.Environ() {
		if rest, ok := strings.CutPrefix(kv, prefix); ok {
			env = append(env, rest)
		} else if !strings.HasPrefix(kv, privateEnvPrefix) {
			env = append(env, kv)
		}
	}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == "PATH" {
			os.Setenv("PATH", v) // the command is found on the server's PATH
		}
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "agent: %v\n", err)
		return exitFailed
	}
	err = syscall.Exec(path, argv, env)
	fmt.Fprintf(os.Stderr, "agent: %s: %v\n", argv[0], err)
	return exitFailed
}
