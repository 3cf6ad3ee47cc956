package toolmcp

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Spec is one MCP server to mount, parsed from NAME=COMMAND ARGS… (stdio)
// or NAME=https://… / NAME=http://… (streamable HTTP).
type Spec struct {
	// Name prefixes the server's tools: Name__tool.
	Name string
	// URL is the streamable HTTP endpoint; empty for a stdio server.
	URL string
	// Command is the program and arguments of a stdio server, run as a
	// child process; nil for an HTTP server.
	Command []string
}

// String returns the spec as it would be written on the command line.
func (s Spec) String() string {
	if s.URL != "" {
		return s.Name + "=" + s.URL
	}
	q := make([]string, len(s.Command))
	for i, a := range s.Command {
		q[i] = shellQuote(a)
	}
	return s.Name + "=" + strings.Join(q, " ")
}

// ParseSpec parses NAME=COMMAND ARGS… or NAME=URL. The command is split
// into words as a POSIX shell would for simple quoting: blanks separate
// words; '…' keeps everything literally; "…" keeps everything but \" \\ \$
// \` which lose their backslash; outside quotes a backslash keeps the next
// character. Nothing is expanded: no variables, globs or ~.
func ParseSpec(s string) (Spec, error) {
	name, rest, ok := strings.Cut(s, "=")
	if !ok {
		return Spec{}, fmt.Errorf("mcp server spec %q: want NAME=COMMAND ARGS… or NAME=URL", s)
	}
	name = strings.TrimSpace(name)
	if err := checkServerName(name); err != nil {
		return Spec{}, fmt.Errorf("mcp server spec %q: %w", s, err)
	}
	rest = strings.TrimSpace(rest)
	if lower := strings.ToLower(rest); strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
		u, err := url.Parse(rest)
		if err != nil || u.Host == "" {
			return Spec{}, fmt.Errorf("mcp server spec %q: bad URL %q", s, rest)
		}
		return Spec{Name: name, URL: rest}, nil
	}
	words, err := splitWords(rest)
	if err != nil {
		return Spec{}, fmt.Errorf("mcp server spec %q: %w", s, err)
	}
	if len(words) == 0 {
		return Spec{}, fmt.Errorf("mcp server spec %q: no command", s)
	}
	return Spec{Name: name, Command: words}, nil
}

// ParseSpecs parses each of specs with ParseSpec and checks that no two
// share a name.
func ParseSpecs(specs []string) ([]Spec, error) {
	out := make([]Spec, 0, len(specs))
	seen := make(map[string]bool, len(specs))
	for _, s := range specs {
		sp, err := ParseSpec(s)
		if err != nil {
			return nil, err
		}
		if seen[sp.Name] {
			return nil, fmt.Errorf("mcp server spec %q: another server is also named %q", s, sp.Name)
		}
		seen[sp.Name] = true
		out = append(out, sp)
	}
	return out, nil
}

// splitWords splits s into words like a POSIX shell, without expansions.
func splitWords(s string) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated ' quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			inWord = true
			i++
			for ; ; i++ {
				if i >= len(s) {
					return nil, errors.New(`unterminated " quote`)
				}
				if s[i] == '"' {
					break
				}
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == '\\':
			if i+1 >= len(s) {
				return nil, errors.New("trailing backslash")
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// shellQuote returns s quoted for a POSIX shell where needed.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@,+%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
