// Package redact removes secrets from text before it leaves the process:
// error messages, logs, warnings, tool results and JSON events.
//
// It removes the secret values it is given (API keys, tokens read from the
// environment), and any run of MinFragment or more consecutive characters
// of one of them, so that a secret cut short, or quoted in part by an
// error message, does not leak either; and, whatever it is given, the credentials that have a
// recognisable shape: the value after "Bearer", the user information of a
// URL (https://user:password@host), the value of an Authorization or
// API-key header written as "Name: value", and the value of a query
// parameter named like a credential (key, api_key, token, access_token,
// password, secret, …). A placeholder in such a place (<token>, TOKEN,
// $TOKEN, ${TOKEN}, "…") is guidance, not a secret, and is kept: "clients
// send Authorization: Bearer <token>" reads the same after redaction.
//
// Redact before you shorten: [Shorten] does both in that order, so a
// secret cut in two by a length limit is never printed in part.
package redact

import (
	"context"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Marker replaces every secret removed.
const Marker = "[REDACTED]"

// MinSecret is the shortest secret value removed by value; shorter values
// (an empty key, "x") would wreck the text without protecting anything.
const MinSecret = 4

// MinFragment is the shortest run of consecutive characters of a secret
// that is removed wherever it stands: a secret of MinFragment characters
// or more is removed whole and in part.
const MinFragment = 8

// shape is a credential recognised by its form: the match of re is
// replaced by repl, in which ${1} is what to keep before the secret.
type shape struct {
	re   *regexp.Regexp
	repl string
}

// shapes are applied in order: a header line before a bare "Bearer".
// They are compiled at the first use, not at start-up, which every
// program that links this package (tool workers included) would pay.
var shapes = sync.OnceValue(func() []shape {
	return []shape{
		// scheme://user:password@host and scheme://token@host.
		{regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://)([^/?#@\s"'<>]+)@`), "${1}" + Marker + "@"},
		// Header lines whose value is a credential, scheme word included.
		{regexp.MustCompile(`(?i)(\b(?:authorization|proxy-authorization|x-api-key|api-key|x-subscription-token|x-goog-api-key)\s*[:=]\s*)((?:(?:bearer|basic|token)\s+)?[^\s"',;()]+)`), "${1}" + Marker},
		// "Bearer xyz" in prose or JSON.
		{regexp.MustCompile(`(?i)(\bbearer\s+)([a-z0-9._~+/=-]+)`), "${1}" + Marker},
		// Query parameters and key=value pairs named like a credential.
		{regexp.MustCompile(`(?i)(\b(?:api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|token|secret|password|passwd|key|client[_-]?secret|sig|signature)=)([^&\s"'#<>]+)`), "${1}" + Marker},
		// Provider keys with a known prefix (OpenAI-style sk-…, Tavily tvly-…).
		{regexp.MustCompile(`\b()((?:sk|tvly|xoxb|ghp|gho|github_pat)[-_][A-Za-z0-9_-]{12,})`), Marker},
	}
})

// mayHoldShape reports false only when no shape can match s, so that
// text without any of the words and marks a shape needs (the line agent
// mcp prints before it serves, for one) costs a few scans and no
// regular expression: the first use compiles them (0.65-0.9 ms, and
// 55 kB), on agent mcp's path to its first answer. Text with a byte
// outside ASCII always goes through the shapes: (?i) folds K and ſ
// (U+212A, U+017F) into k and s, which an ASCII scan would not.
// FuzzShapePrefilter checks that no shape matches text this rejects.
func mayHoldShape(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	// A URL's user information, a name=value pair.
	if strings.Contains(s, "=") || strings.Contains(s, "://") && strings.Contains(s, "@") {
		return true
	}
	// Keys with a known prefix, which the shape wants as written.
	for _, p := range keyPrefixes {
		if strings.Contains(s, p) {
			return true
		}
	}
	// Header names and "Bearer", in any case.
	for _, w := range []string{"authorization", "api-key", "x-subscription-token", "bearer"} {
		if containsFold(s, w) {
			return true
		}
	}
	return false
}

// keyPrefixes are the prefixes of the keys the last shape finds, each
// with the - or _ that must follow it.
var keyPrefixes = []string{"sk-", "sk_", "tvly-", "tvly_", "xoxb-", "xoxb_", "ghp-", "ghp_", "gho-", "gho_", "github_pat-", "github_pat_"}

// containsFold reports whether s holds word, lower-case ASCII, in any
// case of its ASCII letters.
func containsFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		j := 0
		for ; j < len(word); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != word[j] {
				break
			}
		}
		if j == len(word) {
			return true
		}
	}
	return false
}

// credentialWords are the parts of a name that say its value is a
// credential (see CredentialName).
var credentialWords = []string{"key", "token", "secret", "passw", "auth", "credential", "cookie", "session"}

// CredentialName reports whether the name of a header or a variable says
// that its value is a credential (Authorization, X-Api-Key, DOCS_TOKEN,
// DB_PASSWORD, SESSION_ID): it holds key, token, secret, passw, auth,
// credential, cookie or session, in any case.
func CredentialName(name string) bool {
	name = strings.ToLower(name)
	for _, w := range credentialWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// placeholder matches a value that stands for a credential in guidance
// text rather than being one: <token>, TOKEN, API_KEY (capitals without
// digits), $TOKEN, ${TOKEN},
// "…", "...", the Marker itself, with an optional scheme word before it.
var placeholder = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?i:(?:bearer|basic|token)\s+)?(?:<[^<>]*>|[A-Z][A-Z_]*|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|…|\.\.\.|\[REDACTED\])$`)
})

// String returns s with every secret of secrets (those of at least
// MinSecret bytes), every run of MinFragment or more characters of one of
// them, and every credential of a known shape replaced by Marker.
func String(s string, secrets ...string) string {
	s = values(s, secrets)
	if !mayHoldShape(s) {
		return s
	}
	for _, sh := range shapes() {
		s = sh.re.ReplaceAllStringFunc(s, func(m string) string {
			sub := sh.re.FindStringSubmatch(m)
			if sub == nil || placeholder().MatchString(sub[2]) {
				return m
			}
			return sh.re.ReplaceAllString(m, sh.repl)
		})
	}
	return s
}

// Known returns s with every secret of secrets (those of at least
// MinSecret bytes) and every run of MinFragment or more characters of one
// of them replaced by Marker, as String does, but not the credentials
// recognised by their shape: for text a person must read whole to decide
// on, such as the arguments of a call they are asked to allow, where a
// shape's match (a URL's user information, a key=value run to the next
// space) could hide any text put there.
func Known(s string, secrets ...string) string { return values(s, secrets) }

// values removes the secrets from s, whole and in fragments of at least
// MinFragment bytes.
func values(s string, secrets []string) string {
	grams := map[string]bool{}
	for _, sec := range secrets {
		sec = strings.TrimSpace(sec)
		if len(sec) < MinSecret {
			continue
		}
		s = strings.ReplaceAll(s, sec, Marker)
		for i := 0; i+MinFragment <= len(sec); i++ {
			grams[sec[i:i+MinFragment]] = true
		}
	}
	if len(grams) == 0 || len(s) < MinFragment {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i+MinFragment <= len(s); {
		if !grams[s[i:i+MinFragment]] {
			i++
			continue
		}
		// Extend the run while each next window is a fragment too.
		end := i + MinFragment
		for end < len(s) && grams[s[end+1-MinFragment:end+1]] {
			end++
		}
		start := i
		for start > 0 && !utf8.RuneStart(s[start]) {
			start--
		}
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		b.WriteString(s[last:start])
		b.WriteString(Marker)
		last, i = end, end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// Shorten redacts s (see String) and then cuts it to at most n bytes on a
// rune boundary, marking a cut with "…". Redaction comes first so that no
// part of a secret survives the cut.
func Shorten(s string, n int, secrets ...string) string {
	s = String(s, secrets...)
	if len(s) <= n {
		return s
	}
	cut := max(n, 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Error returns err, or when its text holds a secret, an error with the
// text redacted. The redacted error does not unwrap to err, whose text
// still holds the secret; it unwraps to context.Canceled or
// context.DeadlineExceeded when err matched one, so errors.Is still finds
// them.
func Error(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	r := String(msg, secrets...)
	if r == msg {
		return err
	}
	var cause error
	for _, c := range []error{context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, c) {
			cause = c
		}
	}
	return &redactedError{msg: r, cause: cause}
}

// redactedError is an error whose text had a secret in it.
type redactedError struct {
	msg   string
	cause error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.cause }

// Writer returns a writer that redacts (see String) each write before
// passing it on to w. It suits writers that receive whole lines or
// events, such as a log or a trace: a secret split across two writes is
// not seen.
func Writer(w io.Writer, secrets ...string) io.Writer {
	return &writer{w: w, secrets: secrets}
}

type writer struct {
	w       io.Writer
	secrets []string
}

func (r *writer) Write(p []byte) (int, error) {
	s := String(string(p), r.secrets...)
	if _, err := io.WriteString(r.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Set is a set of secrets learnt while the program runs, such as OAuth
// access and refresh tokens, which no environment variable holds: a
// writer or function made with it redacts the values added after it was
// made too. The zero value is an empty set, ready to use; a nil *Set is
// empty and its methods redact only the secrets they are given. A Set is
// safe for concurrent use.
type Set struct {
	mu     sync.RWMutex
	values []string
}

// Add adds values to the set; those shorter than MinSecret, once
// trimmed, and those already in it are left out. Adding to a nil *Set
// does nothing.
func (s *Set) Add(values ...string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range values {
		v = strings.TrimSpace(v)
		if len(v) < MinSecret || slices.Contains(s.values, v) {
			continue
		}
		s.values = append(s.values, v)
	}
}

// Values returns the secrets of the set, in the order they were added.
func (s *Set) Values() []string {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append([]string(nil), s.values...)
}

// with returns secrets followed by the values of the set.
func (s *Set) with(secrets []string) []string {
	v := s.Values()
	if len(v) == 0 {
		return secrets
	}
	return append(append(make([]string, 0, len(secrets)+len(v)), secrets...), v...)
}

// String is String with the values of the set, as they are now, besides
// secrets.
func (s *Set) String(text string, secrets ...string) string {
	return String(text, s.with(secrets)...)
}

// Writer is Writer with the values of the set, as they are at each
// write, besides secrets.
func (s *Set) Writer(w io.Writer, secrets ...string) io.Writer {
	return &setWriter{w: w, set: s, secrets: secrets}
}

type setWriter struct {
	w       io.Writer
	set     *Set
	secrets []string
}

func (r *setWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(r.w, r.set.String(string(p), r.secrets...)); err != nil {
		return 0, err
	}
	return len(p), nil
}
