package toolmcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSpec(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    Spec
		wantErr string
	}{
		{in: "fs=npx -y @modelcontextprotocol/server-filesystem /tmp",
			want: Spec{Name: "fs", Command: []string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"}}},
		{in: "web=https://mcp.example.com/mcp", want: Spec{Name: "web", URL: "https://mcp.example.com/mcp"}},
		{in: " local = HTTP://127.0.0.1:8080 ", want: Spec{Name: "local", URL: "HTTP://127.0.0.1:8080"}},
		{in: `q=cmd 'a b' "c \"d\" \$e \n" f\ g '' x=y`,
			want: Spec{Name: "q", Command: []string{"cmd", "a b", `c "d" $e \n`, "f g", "", "x=y"}}},
		{in: `q=cmd it'"'s a"b"c`, want: Spec{Name: "q", Command: []string{"cmd", `it"s`, "abc"}}},
		{in: "tabs=\tcmd\t\targ\n", want: Spec{Name: "tabs", Command: []string{"cmd", "arg"}}},
		{in: "noequals", wantErr: "want NAME=COMMAND ARGS… or NAME=URL"},
		{in: "=cmd", wantErr: "empty server name"},
		{in: "a.b=cmd", wantErr: "may only hold letters, digits, _ and -"},
		{in: "a__b=cmd", wantErr: `must not contain "__"`},
		{in: "a_=cmd", wantErr: "must not end in _"},
		{in: "_a=cmd", want: Spec{Name: "_a", Command: []string{"cmd"}}},
		{in: strings.Repeat("n", 33) + "=cmd", wantErr: "longer than 32 characters"},
		{in: "x=", wantErr: "no command"},
		{in: "x=cmd 'open", wantErr: "unterminated ' quote"},
		{in: `x=cmd "open`, wantErr: `unterminated " quote`},
		{in: `x=cmd \`, wantErr: "trailing backslash"},
		{in: "x=https://", wantErr: "bad URL"},
	}
	for _, tt := range tests {
		got, err := ParseSpec(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseSpec(%q) error %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseSpec(%q) (-want +got):\n%s", tt.in, diff)
		}
		// String quotes the command back into an equivalent spec.
		again, err := ParseSpec(got.String())
		if err != nil {
			t.Errorf("ParseSpec(%q.String() = %q): %v", tt.in, got.String(), err)
		} else if diff := cmp.Diff(got, again); diff != "" {
			t.Errorf("round trip of %q through %q (-want +got):\n%s", tt.in, got.String(), diff)
		}
	}
}

func TestParseSpecsDuplicate(t *testing.T) {
	t.Parallel()
	_, err := ParseSpecs([]string{"a=x", "b=y", "a=https://z"})
	if err == nil || !strings.Contains(err.Error(), `another server is also named "a"`) {
		t.Errorf("ParseSpecs with a duplicate name: %v", err)
	}
}

func TestExposedName(t *testing.T) {
	t.Parallel()
	none := func(string) bool { return false }
	long := strings.Repeat("y", 80)
	tests := []struct {
		server, remote string
		taken          func(string) bool
		want           string
	}{
		{server: "fs", remote: "read_file", want: "fs__read_file"},
		{server: "fs", remote: "read-file", want: "fs__read-file"},
		{server: "fs", remote: "files.read", want: "fs__files_read_" + hash8("fs", "files.read")},
		{server: "fs", remote: "files/read", want: "fs__files_read_" + hash8("fs", "files/read")},
		{server: "fs", remote: "ünï", want: "fs____n___" + hash8("fs", "ünï")}, // two bytes each
		{server: "fs", remote: "", want: "fs__"},
		// 64 exactly fits.
		{server: "s", remote: strings.Repeat("z", 61), want: "s__" + strings.Repeat("z", 61)},
		{server: "s", remote: strings.Repeat("z", 62), want: "s__" + strings.Repeat("z", 52) + "_" + hash8("s", strings.Repeat("z", 62))},
		{server: "s", remote: long, want: "s__" + strings.Repeat("y", 52) + "_" + hash8("s", long)},
		{server: "fs", remote: "read", taken: func(n string) bool { return n == "fs__read" }, want: "fs__read_" + hash8("fs", "read")},
	}
	for _, tt := range tests {
		taken := tt.taken
		if taken == nil {
			taken = none
		}
		got := exposedName(tt.server, tt.remote, taken)
		if got != tt.want {
			t.Errorf("exposedName(%q, %q) = %q, want %q", tt.server, tt.remote, got, tt.want)
		}
		if !namePattern.MatchString(got) {
			t.Errorf("exposedName(%q, %q) = %q: not a valid function name", tt.server, tt.remote, got)
		}
	}
	// A hashed name that is taken gets a longer hash, still in bounds.
	first := exposedName("s", long, none)
	second := exposedName("s", long, func(n string) bool { return n == first })
	if second == first || len(second) != MaxToolName || !namePattern.MatchString(second) {
		t.Errorf("second choice %q after %q", second, first)
	}
	// The server name counts: the same tool on two servers differs.
	if a, b := exposedName("a", long, none), exposedName("b", long, none); a[len(a)-hashLen:] == b[len(b)-hashLen:] {
		t.Errorf("%q and %q share their hash", a, b)
	}
}

// hash8 is the hash suffix of a shortened name: the first 8 hex digits
// of the SHA-256 of the server's and the tool's names joined by a NUL.
func hash8(server, remote string) string {
	sum := sha256.Sum256([]byte(server + "\x00" + remote))
	return hex.EncodeToString(sum[:])[:8]
}
