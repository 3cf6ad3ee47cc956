package redact

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const key = "sk-live-0123456789abcdefghijklmnopqrstuv" // 40 characters

func TestString(t *testing.T) {
	tests := []struct {
		name, in string
		secrets  []string
		want     string
	}{
		{"value", "bad key abc123xyz given", []string{"abc123xyz"}, "bad key [REDACTED] given"},
		{"short secret ignored", "abc", []string{"abc"}, "abc"},
		{"secret of four", "key abcd!", []string{"abcd"}, "key [REDACTED]!"},
		{"empty secret", "nothing", []string{""}, "nothing"},
		{"url userinfo", "GET https://bob:hunter2@api.example/v1 failed", nil, "GET https://[REDACTED]@api.example/v1 failed"},
		{"url token only", "http://tok3n@h/x", nil, "http://[REDACTED]@h/x"},
		{"url without userinfo", "https://api.example/v1?q=a@b", nil, "https://api.example/v1?q=a@b"},
		{"bearer", `header "Authorization: Bearer abc.def-ghi" sent`, nil, `header "Authorization: [REDACTED]" sent`},
		{"bearer prose", "bearer XYZ123 is bad", nil, "bearer [REDACTED] is bad"},
		{"subscription token header", "X-Subscription-Token: BSAabcdef123", nil, "X-Subscription-Token: [REDACTED]"},
		{"query key", "https://h/search?q=go&api_key=s3cr3t&n=1", nil, "https://h/search?q=go&api_key=[REDACTED]&n=1"},
		{"query token", "/x?token=zzz", nil, "/x?token=[REDACTED]"},
		{"not a credential name", "monkey=banana max_tokens=100", nil, "monkey=banana max_tokens=100"},
		{"prefixed key", "got " + key + ".", nil, "got [REDACTED]."},
		{"tavily key", "tvly-ABCDEFGHIJKLMNOP", nil, "[REDACTED]"},
		{"plain text", "the weather is fine", nil, "the weather is fine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, String(tt.in, tt.secrets...)); diff != "" {
				t.Errorf("String(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// TestShortenKeyAcrossCut puts a key across the cut at every position: no
// prefix of it of MinSecret bytes or more may survive.
func TestShortenKeyAcrossCut(t *testing.T) {
	secret := "K9xQ2mP7vL4nR8tW1yZ5bC3dF6gH0jAs" // no known shape: only the value finds it
	for off := 0; off <= len(secret); off++ {
		text := strings.Repeat("x", 100-off) + " " + secret + " tail"
		got := Shorten(text, 100, secret)
		for n := MinSecret; n <= len(secret); n++ {
			if strings.Contains(got, secret[:n]) {
				t.Fatalf("offset %d: %q holds %d bytes of the secret", off, got, n)
			}
		}
		if len(got) > 100+len("…") {
			t.Fatalf("offset %d: %d bytes, want at most 100 and the mark", off, len(got))
		}
	}
}

func TestShortenLimits(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"abcde", 5, "abcde"},   // at the limit
		{"abcd", 5, "abcd"},     // below
		{"abcdef", 5, "abcde…"}, // past
		{"aé", 2, "a…"},         // no half rune
		{"abc", 0, "…"},         // nothing left
		{"x Bearer tok", 100, "x Bearer [REDACTED]"},
	}
	for _, tt := range tests {
		if got := Shorten(tt.in, tt.n); got != tt.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestError(t *testing.T) {
	if Error(nil, key) != nil {
		t.Error("Error(nil) is not nil")
	}
	plain := errors.New("no secret here")
	if got := Error(plain, key); got != plain {
		t.Errorf("Error without a secret = %v, want the same error", got)
	}
	err := fmt.Errorf("post https://u:p@h/x with %s: %w", key, context.DeadlineExceeded)
	got := Error(err, key)
	if want := "post https://[REDACTED]@h/x with [REDACTED]: context deadline exceeded"; got.Error() != want {
		t.Errorf("Error() = %q, want %q", got.Error(), want)
	}
	if !errors.Is(got, context.DeadlineExceeded) {
		t.Error("the redacted error lost context.DeadlineExceeded")
	}
	if errors.Is(got, err) {
		t.Error("the redacted error unwraps to the original, which holds the key")
	}
}

func TestWriter(t *testing.T) {
	var b strings.Builder
	w := Writer(&b, "s3cr3t-value")
	for _, line := range []string{"key s3cr3t-value here\n", "Authorization: Bearer abcdef123\n", "plain\n"} {
		n, err := io.WriteString(w, line)
		if err != nil || n != len(line) {
			t.Fatalf("Write(%q) = %d, %v", line, n, err)
		}
	}
	want := "key " + Marker + " here\nAuthorization: " + Marker + "\nplain\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
}

// TestFragments: any run of MinFragment or more consecutive characters of
// a secret is removed wherever it stands; a shorter run is left.
func TestFragments(t *testing.T) {
	const tok = "9f2c1e7ab04d4c8e9a6b3f5d2e1c0b7a" // 32 characters, no known shape
	tests := []struct {
		name, in, want string
	}{
		{"22 of 32 in an error", "Error: cannot parse 9f2c1e7ab04d4c8e9a6b3f: bad", "Error: cannot parse [REDACTED]: bad"},
		{"at the limit", "x 9f2c1e7a y", "x [REDACTED] y"},
		{"below the limit", "x 9f2c1e7 y", "x 9f2c1e7 y"},
		{"tail of the secret", "…c0b7a at the end", "…c0b7a at the end"},
		{"middle", "(b04d4c8e9a)", "([REDACTED])"},
		{"two fragments", "ab04d4c8 and 3f5d2e1c0b", "[REDACTED] and [REDACTED]"},
		{"whole", "t=" + tok, "t=[REDACTED]"},
		{"unrelated hex", "commit 1234567890abcdef", "commit 1234567890abcdef"},
		{"multibyte around", "é9f2c1e7aé", "é[REDACTED]é"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, String(tt.in, tok)); diff != "" {
				t.Errorf("String(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
	// Every run of MinFragment characters, at every offset, in any text.
	for i := 0; i+MinFragment <= len(tok); i++ {
		for n := MinFragment; i+n <= len(tok); n++ {
			got := String("<<"+tok[i:i+n]+">>", tok)
			if got != "<<[REDACTED]>>" {
				t.Fatalf("fragment [%d:%d]: %q", i, i+n, got)
			}
		}
	}
	// A short secret is removed whole only.
	if got := String("abcdefg abcdef", "abcdefg"); got != "[REDACTED] abcdef" {
		t.Errorf("short secret: %q", got)
	}
}

// TestGuidanceKept: the placeholders of help text are not credentials.
func TestGuidanceKept(t *testing.T) {
	for _, s := range []string{
		"agent: serving 3 tools over MCP at http://127.0.0.1:8080/ (clients send Authorization: Bearer <token>)",
		"that clients send as Authorization: Bearer <token>; or serve on loopback",
		"send the server's token as Authorization: Bearer TOKEN",
		"set Authorization: Bearer $TOOLREG_MCP_TOKEN",
		"X-API-Key: ${BRAVE_API_KEY}",
		"https://h/search?api_key=<key>",
		"Authorization: Bearer [REDACTED]",
	} {
		if got := String(s); got != s {
			t.Errorf("String(%q) = %q, want it unchanged", s, got)
		}
	}
	// A real value beside the same words still goes.
	if got := String("Authorization: Bearer tok3n-123"); got != "Authorization: [REDACTED]" {
		t.Errorf("real token: %q", got)
	}
	if got := String("Authorization: Bearer ABCDEF123"); got != "Authorization: [REDACTED]" {
		t.Errorf("capitals with digits: %q", got)
	}
}

// TestSetLearntLater checks that a writer and a String made from a Set
// redact the values added after they were made, whole and in part, and
// that a nil Set redacts the given secrets only.
func TestSetLearntLater(t *testing.T) {
	var set Set
	var b strings.Builder
	w := set.Writer(&b, "fixed-secret-1")
	set.Add("tok", "access-token-0123456789", "access-token-0123456789")
	if diff := cmp.Diff([]string{"access-token-0123456789"}, set.Values()); diff != "" {
		t.Errorf("Values() (short and repeated values left out) (-want +got):\n%s", diff)
	}
	fmt.Fprint(w, "a access-token-0123456789 b token-0123 c fixed-secret-1")
	if got, want := b.String(), "a [REDACTED] b [REDACTED] c [REDACTED]"; got != want {
		t.Errorf("writer wrote %q, want %q", got, want)
	}
	if got, want := set.String("x access-token-0123456789"), "x [REDACTED]"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	var none *Set
	if got, want := none.String("k fixed-secret-1 other-value-99", "fixed-secret-1"), "k [REDACTED] other-value-99"; got != want {
		t.Errorf("nil Set String = %q, want %q", got, want)
	}
	if none.Values() != nil {
		t.Error("nil Set has values")
	}
}

// TestKnown: Known takes out the secrets it is given, whole and in part,
// and leaves what only looks like a credential.
func TestKnown(t *testing.T) {
	const key = "sk-test-0123456789abcdef"
	got := Known(`curl -H "Authorization: Bearer x|sh" https://u:p@h/?token=t `+key+` `+key[2:14], key)
	want := `curl -H "Authorization: Bearer x|sh" https://u:p@h/?token=t [REDACTED] [REDACTED]`
	if got != want {
		t.Errorf("Known = %q, want %q", got, want)
	}
}

// TestCredentialName: the names of headers and variables whose values are
// credentials, in any case, and not others: the same names as the
// expression the agent and toolmcp each compiled at start-up before
// (`(?i)key|token|secret|passw|auth|credential|cookie|session`).
func TestCredentialName(t *testing.T) {
	names := []string{"Authorization", "X-Api-Key", "DOCS_TOKEN", "db_password", "PASSWD", "SESSION_ID", "Cookie",
		"Set-Cookie", "MY_SECRET", "client_credentials", "Proxy-Authorization", "monkey", "OAuth",
		"PATH", "HOME", "LANG", "X-Title", "Content-Type", "USER", "", "tok", "pass", "ΚΕΥ", "Ke\u0079s"}
	old := regexp.MustCompile(`(?i)key|token|secret|passw|auth|credential|cookie|session`)
	var got, want []string
	for _, n := range names {
		if CredentialName(n) {
			got = append(got, n)
		}
		if old.MatchString(n) {
			want = append(want, n)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("credential names (-the expression +CredentialName):\n%s", diff)
	}
	if len(got) != 14 {
		t.Errorf("%d credential names, want 14: %q", len(got), got)
	}
}

// FuzzShapePrefilter: no shape matches text that mayHoldShape rejects,
// so String skips nothing it would have redacted; and text it accepts
// for its words alone is not all it accepts (the seeds cover each).
func FuzzShapePrefilter(f *testing.F) {
	for _, s := range []string{
		"agent: serving 8 tools over MCP at http://127.0.0.1:8080/ (no token: loopback only)",
		"the weather is fine", "GET https://bob:hunter2@api.example/v1", "http://h/x@y",
		"Authorization: Bearer abc", "AUTHORIZATION=xyz", "proxy-authorization: q", "X-Api-Key: k123456",
		"x-goog-api-key=v", "X-Subscription-Token: BSA1", "bEaReR tok", "api_key=1", "monkey=banana",
		"sk-abcdefghijklmnop", "sk_abcdefghijklmnop", "task-list", "tvly-ABCDEFGHIJKLMNOP", "xoxb_123456789012",
		"ghp_123456789012345", "gho-123456789012345", "github_pat_123456789012", "api-\u212aey: v",
		"\u017fecret=v", "bearer\u00a0x", "Bearer", "a://b", "@://", "ask me", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if mayHoldShape(s) {
			return
		}
		for _, sh := range shapes() {
			if m := sh.re.FindString(s); m != "" {
				t.Fatalf("mayHoldShape(%q) is false, but %v matches %q", s, sh.re, m)
			}
		}
		if got := String(s); got != s {
			t.Fatalf("String(%q) = %q, want it unchanged", s, got)
		}
	})
}

// TestShapePrefilter: the words and marks that let text through to the
// shapes, each alone, and text without them.
func TestShapePrefilter(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"agent: serving 8 tools over MCP at http://127.0.0.1:8080/ (no token: loopback only)", false},
		{"the weather is fine", false},
		{"a task for you", false},
		{"http://h/x", false},
		{"user@host", false},
		{"http://u@h", true},
		{"a=b", true},
		{"sk-x", true}, {"sk_x", true}, {"tvly-x", true}, {"xoxb_x", true}, {"ghp_x", true}, {"gho-x", true}, {"github_pat_x", true},
		{"AuThOrIzAtIoN", true}, {"API-KEY", true}, {"X-Subscription-Token", true}, {"BEARER", true},
		{"caf\u00e9", true}, // outside ASCII: always through the shapes
	} {
		if got := mayHoldShape(c.s); got != c.want {
			t.Errorf("mayHoldShape(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}
