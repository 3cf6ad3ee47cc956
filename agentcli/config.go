package agentcli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/toolreg/toolreg/internal/nearest"
	"github.com/toolreg/toolreg/redact"
)

// envConfig names the config file instead of the default one.
const envConfig = "TOOLREG_CONFIG"

// settings are the values a config file or a profile may give.
type settings struct {
	Provider string `toml:"provider"`
	BaseURL  string `toml:"base_url"`
	Model    string `toml:"model"`
	// KeyEnv names the environment variable that holds the API key; the
	// file never holds the key itself.
	KeyEnv  string   `toml:"key_env"`
	System  string   `toml:"system"`
	Tools   wordList `toml:"tools"`
	Disable wordList `toml:"disable"`
	Deny    wordList `toml:"deny"`
	Isolate string   `toml:"isolate"`
	// MCPServers is a table in the mcpServers shape, or the path of a
	// JSON file that holds one.
	MCPServers any `toml:"mcpServers"`
}

// fileConfig is the config file: defaults, aliases and profiles.
type fileConfig struct {
	settings
	// Profile is the profile used when -profile and TOOLREG_PROFILE
	// name none.
	Profile  string              `toml:"profile"`
	Aliases  map[string]string   `toml:"aliases"`
	Profiles map[string]settings `toml:"profiles"`
}

// wordList is a list of words, written as a TOML array of strings or as
// one comma-separated string.
type wordList []string

// UnmarshalTOML implements toml.Unmarshaler.
func (w *wordList) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case string:
		*w = splitList(v)
		return nil
	case []any:
		for _, x := range v {
			s, ok := x.(string)
			if !ok {
				return fmt.Errorf("want a list of strings, found %T %v in it", x, x)
			}
			*w = append(*w, s)
		}
		return nil
	}
	return fmt.Errorf("want a list of strings such as [\"now\", \"calculator\"], or one string, not %T", v)
}

// config is a loaded config file.
type config struct {
	path string // "" when there is none
	src  string
	file fileConfig
	// read are the other files read for it: the lists of MCP servers
	// (a path as mcpServers, -mcp-config).
	read []string
}

// files returns the config file and those read for it: the files whose
// change changes the programs the agent starts, which the workers keep
// read-only where the workspace holds them (sandbox.Config.Protect).
func (cfg *config) files() []string {
	if cfg.path == "" {
		return cfg.read
	}
	return append([]string{cfg.path}, cfg.read...)
}

// configPath returns the path of the config file: -config, else
// TOOLREG_CONFIG, else $XDG_CONFIG_HOME/toolreg/config.toml (or
// ~/.config/toolreg/config.toml). explicit reports whether it was named,
// when a missing file is an error.
func (c *cli) configPath(flagValue string) (path string, explicit bool) {
	if flagValue != "" {
		return flagValue, true
	}
	if p := c.getenv(envConfig); p != "" {
		return p, true
	}
	if d := c.getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "toolreg", "config.toml"), false
	}
	if home := c.getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "toolreg", "config.toml"), false
	}
	return "", false
}

// loadConfig reads and checks the config file at path; a missing file
// that was not named is no config. Every error names the file and line,
// and says what was expected.
func loadConfig(path string, explicit bool) (*config, error) {
	cfg := &config{}
	if path == "" {
		return cfg, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && !explicit {
		return cfg, nil
	}
	if err != nil {
		return nil, fmt.Errorf("config file: %w", err)
	}
	cfg.path, cfg.src = path, string(b)
	md, err := toml.Decode(cfg.src, &cfg.file)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			msg := pe.Message
			if pe.LastKey != "" {
				msg = pe.LastKey + ": " + msg
			}
			return nil, fmt.Errorf("%s:%d: %s", path, pe.Position.Line, msg)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, k := range md.Undecoded() {
		// The servers' tables are decoded as a whole, and checked on
		// their own.
		if k[0] == "mcpServers" || len(k) > 2 && k[0] == "profiles" && k[2] == "mcpServers" {
			continue
		}
		return nil, cfg.errorAt(k, unknownKey(k))
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// knownKeys are the keys a config file's table or profile may hold.
var knownKeys = []string{"provider", "base_url", "model", "key_env", "system", "tools", "disable", "deny", "isolate", "mcpServers"}

// unknownKey explains a key the config file should not hold.
func unknownKey(k toml.Key) string {
	last := k[len(k)-1]
	switch strings.ToLower(strings.ReplaceAll(last, "-", "_")) {
	case "api_key", "key", "apikey", "token", "password", "secret":
		return fmt.Sprintf("%s: the config file holds no keys; name the environment variable that holds it with key_env = \"VAR\"", last)
	}
	keys := knownKeys
	if len(k) == 1 {
		keys = append([]string{"profile", "aliases", "profiles"}, knownKeys...)
	}
	msg := fmt.Sprintf("unknown key %q", k.String())
	if near := nearest.Word(keys, last); near != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", near)
	}
	return msg + "; known keys: " + strings.Join(keys, ", ")
}

// errorAt returns an error about key k, at its line of the file.
func (cfg *config) errorAt(k toml.Key, msg string) error {
	return fmt.Errorf("%s:%d: %s", cfg.path, cfg.lineOf(k), msg)
}

// lineOf finds the line where key k is set: the line "last = …" after
// the header of its table, or the header itself; 1 when not found.
func (cfg *config) lineOf(k toml.Key) int {
	lines := strings.Split(cfg.src, "\n")
	start := 0
	if len(k) > 1 {
		for i := len(k) - 1; i >= 1; i-- {
			header := regexp.MustCompile(`^\s*\[\s*` + keyPattern(k[:i]) + `\s*\]`)
			if j := slices.IndexFunc(lines, header.MatchString); j >= 0 {
				start = j
				break
			}
		}
	}
	assign := regexp.MustCompile(`^\s*(?:[\w.-]+\s*\.\s*)*"?` + regexp.QuoteMeta(k[len(k)-1]) + `"?\s*=`)
	for i := start; i < len(lines); i++ {
		if assign.MatchString(lines[i]) {
			return i + 1
		}
	}
	header := regexp.MustCompile(`^\s*\[\s*` + keyPattern(k) + `\s*\]`)
	if j := slices.IndexFunc(lines, header.MatchString); j >= 0 {
		return j + 1
	}
	return start + 1
}

// keyPattern matches the dotted key k, each part bare or quoted.
func keyPattern(k toml.Key) string {
	parts := make([]string, len(k))
	for i, p := range k {
		parts[i] = `"?` + regexp.QuoteMeta(p) + `"?`
	}
	return strings.Join(parts, `\s*\.\s*`)
}

// check checks what the file says: presets, profiles, aliases, isolation
// modes, capabilities and variable names.
func (cfg *config) check() error {
	f := &cfg.file
	if f.Profile != "" {
		if _, ok := f.Profiles[f.Profile]; !ok {
			return cfg.errorAt(toml.Key{"profile"}, fmt.Sprintf("profile %q: no [profiles.%s] in the file; profiles: %s", f.Profile, f.Profile, strings.Join(sortedKeys(f.Profiles), ", ")))
		}
	}
	for _, alias := range sortedKeys(f.Aliases) {
		if strings.TrimSpace(f.Aliases[alias]) == "" {
			return cfg.errorAt(toml.Key{"aliases", alias}, fmt.Sprintf("alias %q: want the model it stands for, as fast = \"deepseek-chat\"", alias))
		}
	}
	if err := cfg.checkSettings(nil, f.settings); err != nil {
		return err
	}
	for _, name := range sortedKeys(f.Profiles) {
		if err := cfg.checkSettings(toml.Key{"profiles", name}, f.Profiles[name]); err != nil {
			return err
		}
	}
	return nil
}

var envNameRE = lazyRE(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (cfg *config) checkSettings(at toml.Key, s settings) error {
	key := func(name string) toml.Key { return append(slices.Clone(at), name) }
	if s.Provider != "" {
		if _, ok := preset(s.Provider); !ok {
			return cfg.errorAt(key("provider"), fmt.Sprintf("unknown provider %q; known: %s", s.Provider, providerNames()))
		}
	}
	if s.BaseURL != "" {
		if err := checkBaseURL(s.BaseURL); err != nil {
			return cfg.errorAt(key("base_url"), err.Error())
		}
	}
	if s.KeyEnv != "" && !envNameRE().MatchString(s.KeyEnv) {
		return cfg.errorAt(key("key_env"), fmt.Sprintf("key_env names the environment variable that holds the key, such as \"DEEPSEEK_API_KEY\", not %q: the config file holds no keys", redact.String(s.KeyEnv)))
	}
	if s.Isolate != "" && !slices.Contains([]string{"all", "capable", "none"}, s.Isolate) {
		return cfg.errorAt(key("isolate"), fmt.Sprintf("isolate %q: want all, capable or none", s.Isolate))
	}
	if s.MCPServers != nil {
		if _, err := cfg.servers(at, s.MCPServers); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// sourced is a setting's value and where it came from, for agent config.
type sourced struct {
	name, value, from string
}

// applyConfig applies the config file and the profile to o, under the
// flags set on the command line (set) and the environment: flags, then
// environment, then profile, then the file's defaults. It returns where
// each setting came from.
//
// The file's MCP servers are mounted when mount is set: agent mcp mounts
// only those of its flags, so that a server the file names, which may be
// the agent itself, does not mount them again.
func (c *cli) applyConfig(cfg *config, profileName string, set map[string]bool, o *options, mount bool) ([]sourced, error) {
	f := &cfg.file
	var prof *settings
	profFrom := ""
	switch {
	case profileName != "":
		p, ok := f.Profiles[profileName]
		if !ok {
			msg := fmt.Sprintf("no profile %q", profileName)
			if cfg.path == "" {
				return nil, &usageError{errors.New(msg + ": there is no config file")}
			}
			if near := nearest.Word(sortedKeys(f.Profiles), profileName); near != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", near)
			}
			return nil, &usageError{fmt.Errorf("%s in %s; profiles: %s", msg, cfg.path, strings.Join(sortedKeys(f.Profiles), ", "))}
		}
		prof = &p
		profFrom = "profile " + profileName
	case f.Profile != "":
		p := f.Profiles[f.Profile]
		prof = &p
		profFrom = "profile " + f.Profile
	}
	var out []sourced
	where := func(k ...string) string {
		if prof != nil && len(k) > 0 && k[0] == "profiles" {
			return fmt.Sprintf("%s, %s:%d", profFrom, cfg.path, cfg.lineOf(k))
		}
		return fmt.Sprintf("%s:%d", cfg.path, cfg.lineOf(k))
	}
	profKey := func(name string) []string {
		return []string{"profiles", strings.TrimPrefix(profFrom, "profile "), name}
	}
	// pick returns the profile's or the file's value of a setting, and
	// where it came from.
	pick := func(name string, get func(settings) string) (string, string) {
		if prof != nil {
			if v := get(*prof); v != "" {
				return v, where(profKey(name)...)
			}
		}
		if v := get(f.settings); v != "" {
			return v, where(name)
		}
		return "", ""
	}
	flagOrEnv := func(flags []string, envs ...string) string {
		for _, fl := range flags {
			if set[fl] {
				return "flag -" + fl
			}
		}
		for _, e := range envs {
			if c.getenv(e) != "" {
				return "env " + e
			}
		}
		return ""
	}

	// The endpoint: a provider preset or a base URL.
	endpointFrom := flagOrEnv([]string{"base-url", "provider"}, "LLM_BASE_URL")
	providerFrom := flagOrEnv([]string{"provider"})
	if endpointFrom == "" {
		// A profile that names an endpoint names all of it: the file's
		// provider does not mix with the profile's base URL.
		endpoint := pick
		if prof != nil && (prof.Provider != "" || prof.BaseURL != "") {
			endpoint = func(name string, get func(settings) string) (string, string) {
				if v := get(*prof); v != "" {
					return v, where(profKey(name)...)
				}
				return "", ""
			}
		}
		if v, from := endpoint("provider", func(s settings) string { return s.Provider }); v != "" {
			o.provider, providerFrom, endpointFrom = v, from, from
		}
		if v, from := endpoint("base_url", func(s settings) string { return s.BaseURL }); v != "" {
			o.baseURL, endpointFrom = v, from
		}
	}
	modelFrom := flagOrEnv([]string{"model", "m"}, "LLM_MODEL")
	switch {
	case modelFrom == "env LLM_MODEL" && !set["provider"]:
		o.model = c.getenv("LLM_MODEL") // beats the profile's preset
	case modelFrom == "":
		if v, from := pick("model", func(s settings) string { return s.Model }); v != "" {
			o.model, modelFrom = v, from
		}
	}
	if alias, ok := f.Aliases[o.model]; ok {
		modelFrom += fmt.Sprintf(", alias %s at %s", o.model, where("aliases", o.model))
		o.model = alias
	}
	keyFrom := "env LLM_API_KEY"
	if v, from := pick("key_env", func(s settings) string { return s.KeyEnv }); v != "" {
		o.keyEnv, keyFrom = v, from
		o.apiKey = c.getenv(v)
	}
	systemFrom := flagOrEnv([]string{"system"})
	if systemFrom == "" {
		if v, from := pick("system", func(s settings) string { return s.System }); v != "" {
			o.system, systemFrom = v, from
		}
	}
	list := func(w wordList) string { return strings.Join(w, ",") }
	selFrom := map[string]string{}
	for _, sel := range []struct {
		flag, env, key string
		dst            *string
		get            func(settings) string
	}{
		{"tools", "TOOLREG_TOOLS", "tools", &o.sel.keep, func(s settings) string { return list(s.Tools) }},
		{"disable", "TOOLREG_DISABLE", "disable", &o.sel.drop, func(s settings) string { return list(s.Disable) }},
		{"deny", "TOOLREG_DENY", "deny", &o.sel.deny, func(s settings) string { return list(s.Deny) }},
		{"isolate", "TOOLREG_ISOLATE", "isolate", &o.sel.isolation, func(s settings) string { return s.Isolate }},
	} {
		from := flagOrEnv([]string{sel.flag}, sel.env)
		if from == "" {
			if v, vf := pick(sel.key, sel.get); v != "" {
				*sel.dst, from = v, vf
			}
		}
		selFrom[sel.flag] = from
	}
	// The MCP servers: the file's, the profile's (which win on a name),
	// then -mcp-config's; an -mcp flag wins over any of the same name.
	var servers []mcpServer
	if f.MCPServers != nil && mount {
		s, err := cfg.servers(nil, f.MCPServers)
		if err != nil {
			return nil, err
		}
		servers = mergeServers(servers, s)
	}
	if prof != nil && prof.MCPServers != nil && mount {
		s, err := cfg.servers(profKey("")[:2], prof.MCPServers)
		if err != nil {
			return nil, err
		}
		servers = mergeServers(servers, s)
	}
	if o.mcpConfig != "" {
		s, err := readMCPConfig(o.mcpConfig)
		if err != nil {
			return nil, &usageError{err}
		}
		if !slices.Contains(cfg.read, o.mcpConfig) {
			cfg.read = append(cfg.read, o.mcpConfig)
		}
		servers = mergeServers(servers, s)
	}
	if err := c.mountServers(servers, o); err != nil {
		return nil, &usageError{err}
	}

	def := func(from string) string { return cmpOr(from, "default") }
	out = append(out,
		sourced{"config file", cmpOr(cfg.path, "(none)"), ""},
		sourced{"profile", cmpOr(profileName, f.Profile, "(none)"), profileSource(set, c.getenv, profileName, f.Profile)},
		sourced{"provider", cmpOr(o.provider, "(none)"), providerFrom},
		sourced{"base_url", cmpOr(o.baseURL, "(from the provider, or LLM_BASE_URL, or "+defaultBaseURL+")"), def(endpointFrom)},
		sourced{"model", cmpOr(o.model, "(from the provider, or "+defaultModel+")"), def(modelFrom)},
		sourced{"key", keyShown(c.getenv, cmpOr(o.keyEnv, "LLM_API_KEY")), keyFrom},
		sourced{"system", clipSystem(o.system), def(systemFrom)},
		sourced{"tools", cmpOr(o.sel.keep, "(all)"), def(selFrom["tools"])},
		sourced{"disable", cmpOr(o.sel.drop, "(none)"), def(selFrom["disable"])},
		sourced{"deny", cmpOr(o.sel.deny, "(none)"), def(selFrom["deny"])},
		sourced{"isolate", o.sel.isolation, def(selFrom["isolate"])},
	)
	for _, s := range servers {
		out = append(out, sourced{"mcp " + s.Name, s.describe(), s.from})
	}
	return out, nil
}

func cmpOr(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

func profileSource(set map[string]bool, getenv env, flagged, def string) string {
	switch {
	case set["profile"]:
		return "flag -profile"
	case flagged != "":
		return "env TOOLREG_PROFILE"
	case def != "":
		return "config file"
	}
	return ""
}

// keyShown describes the key without showing it.
func keyShown(getenv env, name string) string {
	if v := getenv(name); v != "" {
		return fmt.Sprintf("$%s (set, %d characters, not shown)", name, len(v))
	}
	return fmt.Sprintf("$%s (not set)", name)
}

func clipSystem(s string) string {
	if s == defaultSystem {
		return "(the default prompt)"
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return fmt.Sprintf("%q", s)
}

// runConfig is agent config: each setting, its value and where it came
// from; keys are never shown.
func (c *cli) runConfig(args []string) int {
	o, pos, code := c.parseFlags("config", args)
	if code >= 0 {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(c.stderr, "agent config: unexpected arguments %q\n", pos)
		return exitUsage
	}
	// The endpoint and model as a question would resolve them.
	resolveErr := c.resolve(o)
	for i, s := range o.sources {
		switch s.name {
		case "provider":
			if o.provider == "" {
				o.sources[i].from = ""
			}
		case "base_url":
			o.sources[i].value = redact.String(o.baseURL)
		case "model":
			o.sources[i].value = cmpOr(o.model, "(asked of the server)")
		}
	}
	width := 0
	for _, s := range o.sources {
		width = max(width, len(s.name))
	}
	for _, s := range o.sources {
		line := fmt.Sprintf("%-*s  %s", width, s.name, s.value)
		if s.from != "" {
			line += "  (" + s.from + ")"
		}
		fmt.Fprintln(c.stdout, line)
	}
	if resolveErr != nil {
		fmt.Fprintf(c.stderr, "agent config: %v\n", resolveErr)
		return exitUsage
	}
	return exitOK
}

// loadSettings loads the config file and applies it to o after the flags
// of fs were parsed. Its errors are usage errors.
func (c *cli) loadSettings(command string, fs *flag.FlagSet, o *options) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	path, explicit := c.configPath(o.configFile)
	cfg, err := loadConfig(path, explicit)
	if err != nil {
		return err
	}
	profile := o.profile
	if !set["profile"] {
		profile = c.getenv("TOOLREG_PROFILE")
	}
	// The key variables the file names are secrets, as LLM_API_KEY is.
	for _, s := range append([]settings{cfg.file.settings}, mapValues(cfg.file.Profiles)...) {
		if s.KeyEnv != "" && !slices.Contains(c.tools.Secrets, s.KeyEnv) {
			c.tools.Secrets = append(slices.Clone(c.tools.Secrets), s.KeyEnv)
		}
	}
	o.aliases = cfg.file.Aliases
	o.sources, err = c.applyConfig(cfg, profile, set, o, command != "mcp")
	if err != nil {
		return err
	}
	o.sel.tools, o.sel.getenv, o.sel.protect = c.tools, c.getenv, cfg.files()
	if c.rawStderr != nil {
		c.stderr = c.learnt.Writer(c.rawStderr, secrets(c.getenv, c.tools)...)
	}
	return nil
}

func mapValues[V any](m map[string]V) []V {
	out := make([]V, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}
