package registry

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/jsonarg"
)

// TestWithLimitsKeepsWhatIsNotGiven sets each limit to 1 (the least it
// may be), to 0 and to -1 (both keep the current one), over the defaults
// and over limits set before, and checks that the original is unchanged.
func TestWithLimitsKeepsWhatIsNotGiven(t *testing.T) {
	base := mustNew(t, guardedTable())
	def := Limits{MaxArgs: DefaultMaxArgs, MaxResult: DefaultMaxResult}
	set := base.WithLimits(Limits{MaxArgs: 10, MaxResult: 20})
	for _, tc := range []struct {
		name string
		r    *Registry
		l    Limits
		want Limits
	}{
		{"zero keeps the defaults", base, Limits{}, def},
		{"negative keeps the defaults", base, Limits{MaxArgs: -1, MaxResult: -1}, def},
		{"one is a limit", base, Limits{MaxArgs: 1, MaxResult: 1}, Limits{MaxArgs: 1, MaxResult: 1}},
		{"zero keeps limits set before", set, Limits{}, Limits{MaxArgs: 10, MaxResult: 20}},
		{"only the arguments", set, Limits{MaxArgs: 5}, Limits{MaxArgs: 5, MaxResult: 20}},
		{"only the result", set, Limits{MaxResult: 7, MaxArgs: -1}, Limits{MaxArgs: 10, MaxResult: 7}},
	} {
		if diff := cmp.Diff(tc.want, tc.r.WithLimits(tc.l).Limits()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	if diff := cmp.Diff(def, base.Limits()); diff != "" {
		t.Errorf("the original's limits changed (-want +got):\n%s", diff)
	}
}

// TestMaxArgs calls with arguments one byte below the limit, at it and
// one past it.
func TestMaxArgs(t *testing.T) {
	reg := mustNew(t, guardedTable()).WithLimits(Limits{MaxArgs: 12})
	for _, tc := range []struct {
		args, want string
		err        error
	}{
		{`{"x":"123"}`, "read", nil},  // 11 bytes
		{`{"x":"1234"}`, "read", nil}, // 12
		{`{"x":"12345"}`, "Error: read: bad arguments: 13 bytes, more than the limit of 12; send less", ErrArguments},
	} {
		res := reg.Call(context.Background(), "read", tc.args)
		if res.Text != tc.want || !errors.Is(res.Err, tc.err) || (tc.err == nil) != (res.Err == nil) {
			t.Errorf("%d bytes: %q (%v), want %q (%v)", len(tc.args), res.Text, res.Err, tc.want, tc.err)
		}
	}
}

// TestTruncate cuts at the limit, below and past it, and cuts each width of
// UTF-8 character at each of its bytes: the cut moves back to the
// character's start.
func TestTruncate(t *testing.T) {
	note := func(keep, total int) string {
		return fmt.Sprintf("\n[truncated: showing %d of %d bytes; %d bytes cut. Ask for less, or for the part you need.]", keep, total, total-keep)
	}
	s := strings.Repeat("a", 300)
	if got := truncate(s, 300); got != s {
		t.Errorf("at the limit: cut to %d bytes", len(got))
	}
	if got := truncate(s, 301); got != s {
		t.Errorf("below the limit: cut to %d bytes", len(got))
	}
	// One past: the note, and 20 bytes of room for its numbers, are taken
	// from the limit.
	got := truncate(s, 299)
	if len(got) > 299 {
		t.Errorf("one past the limit: %d bytes", len(got))
	}
	fixed := len("\n[truncated: showing %d of 300 bytes; %d bytes cut. Ask for less, or for the part you need.]") + 20
	if want := s[:299-fixed] + note(299-fixed, 300); got != want {
		t.Errorf("one past the limit:\n got %q\nwant %q", got, want)
	}
	// At the smallest limit the note fits in, nothing is kept; one below,
	// the short note stands in for it, and below the short note's length,
	// nothing does.
	if got, want := truncate(s, fixed), note(0, 300); got != want {
		t.Errorf("note just fits: %q, want %q", got, want)
	}
	if got, want := truncate(s, fixed-1), s[:fixed-1-len(shortNote)]+shortNote; got != want {
		t.Errorf("note one byte too long: %q, want %q", got, want)
	}
	for _, c := range []struct {
		max  int
		want string
	}{
		{len(shortNote) + 1, "a" + shortNote},
		{len(shortNote), shortNote},
		{len(shortNote) - 1, strings.Repeat("a", len(shortNote)-1)},
		{1, "a"},
	} {
		if got := truncate(s, c.max); got != c.want {
			t.Errorf("limit %d: %q, want %q", c.max, got, c.want)
		}
	}
	// Every limit up to past the note, on text that begins inside a
	// character and has characters of each width: never longer than the
	// limit, always valid UTF-8 after the invalid first byte, always a
	// prefix of the text.
	text := "\x80" + strings.Repeat("aé日😀", 40)
	for max := 1; max <= fixed+40; max++ {
		got := truncate(text, max)
		body, _, _ := strings.Cut(got, "\n[truncated")
		if len(got) > max || !strings.HasPrefix(text, body) || !utf8.ValidString(strings.TrimPrefix(got, "\x80")) {
			t.Errorf("limit %d: %q (%d bytes)", max, got, len(got))
		}
	}
	for _, char := range []string{"é", "日", "😀"} {
		for off := range len(char) + 1 {
			text := strings.Repeat("a", 100) + strings.Repeat(char, 100)
			total := len(text)
			fixed := len(fmt.Sprintf("\n[truncated: showing %%d of %d bytes; %%d bytes cut. Ask for less, or for the part you need.]", total)) + 20
			keep := 100 + len(char)*2 + off // inside the third character, or at its start
			got := truncate(text, keep+fixed)
			back := keep
			for !utf8.RuneStart(text[back]) {
				back--
			}
			want := text[:back] + note(back, total)
			if got != want || !utf8.ValidString(got) {
				t.Errorf("%q cut at byte %d of a character:\n got %q\nwant %q", char, off, got, want)
			}
		}
	}
}

// TestRepairedArgsLimit repairs arguments whose repaired form is one byte
// below, at and past MaxArgs: only past it is the first answer kept.
func TestRepairedArgsLimit(t *testing.T) {
	var ran []string
	entries := []Entry{{
		Name:  "tags",
		Shape: &Shape{Object: true, Props: []Prop{{Name: "l", Shape: Shape{Array: true}}}},
		Bind: runs(func(ctx context.Context, args string) (string, error) {
			if strings.Contains(string(args), `"l":"`) {
				return "", &Error{Kind: KindArguments, Err: jsonarg.At(stringedError(), "l")}
			}
			ran = append(ran, string(args))
			return "ok", nil
		}),
		Timeout: time.Minute,
	}}
	for _, tc := range []struct {
		max  int
		want string
	}{
		{13, "ok"}, // {"l":["a",1]} is 13 bytes
		{14, "ok"},
		{12, `Error: tags: bad arguments: field "l": expected array, got string "[\"a\",1]"`},
	} {
		ran = nil
		reg := mustNew(t, tableOf(entries)).WithLimits(Limits{MaxArgs: 20})
		reg.limits.MaxArgs = 20
		args := `{"l":"[\"a\",1]"}` // 19 bytes
		first := reg.invoke(context.Background(), time.Now(), &reg.set.entries[0], args)
		reg.limits.MaxArgs = tc.max
		res := reg.retryRepaired(context.Background(), 0, &reg.set.entries[0], args, first)
		if res.Text != tc.want {
			t.Errorf("MaxArgs %d: %q, want %q", tc.max, res.Text, tc.want)
		}
		if tc.want == "ok" && (len(ran) != 1 || ran[0] != `{"l":["a",1]}`) {
			t.Errorf("MaxArgs %d: ran with %q", tc.max, ran)
		}
	}
}

// stringedError is what a decoder returns for an array sent as a string.
func stringedError() error {
	d := jsonarg.NewDecoder([]byte(`"[\"a\",1]"`))
	return d.ArrayStart()
}
