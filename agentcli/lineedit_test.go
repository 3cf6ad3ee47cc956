package agentcli

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// The forms of Home and End that xterm, tmux, screen, rxvt and the Linux
// console send, and of the word moves.
var (
	homeKeys      = []string{"\x1b[H", "\x1b[1~", "\x1b[7~", "\x1bOH", "\x01", "\x1b[1;2H"}
	endKeys       = []string{"\x1b[F", "\x1b[4~", "\x1b[8~", "\x1bOF", "\x05"}
	wordLeftKeys  = []string{"\x1b[1;5D", "\x1b[1;3D", "\x1b[5D", "\x1bOd", "\x1bb"}
	wordRightKeys = []string{"\x1b[1;5C", "\x1b[1;3C", "\x1b[5C", "\x1bOc", "\x1bf"}
)

func TestDecodeKey(t *testing.T) {
	check := func(in string, want keyKind) {
		t.Helper()
		k, n := decodeKey([]byte(in + "z"))
		if k.kind != want || n != len(in) {
			t.Errorf("decodeKey(%q) = kind %d, %d bytes; want kind %d, %d bytes", in, k.kind, n, want, len(in))
		}
	}
	for _, k := range homeKeys {
		check(k, keyHome)
	}
	for _, k := range endKeys {
		check(k, keyEnd)
	}
	for _, k := range wordLeftKeys {
		check(k, keyWordLeft)
	}
	for _, k := range wordRightKeys {
		check(k, keyWordRight)
	}
	for in, want := range map[string]keyKind{
		"\x1b[A": keyUp, "\x1bOA": keyUp, "\x10": keyUp, "\x1b[B": keyDown, "\x0e": keyDown,
		"\x1b[C": keyRight, "\x1b[D": keyLeft, "\x1bOC": keyRight, "\x1bOD": keyLeft,
		"\x1b[3~": keyDelete, "\x7f": keyBackspace, "\x08": keyBackspace,
		"\r": keyEnter, "\n": keyEnter, "\x1b\r": keyNewline, "\x1b[13;3u": keyNewline,
		"\x03": keyInterrupt, "\x04": keyEOF, "\t": keyTab, "\x0b": keyKillEnd, "\x15": keyKillStart,
		"\x17": keyKillWord, "\x1b\x7f": keyKillWord, "\x1bd": keyKillWordRight, "\x0c": keyClear,
		"\x1b[200~": keyPaste,
		"\x1b[15~":  keyNone, "\x1b[2~": keyNone, "\x1bOP": keyNone, "\x1b[?1;2c": keyNone, "\x1bx": keyNone, "\x00": keyNone,
		"é": keyRune, "世": keyRune,
	} {
		check(in, want)
	}
	// The beginning of a key asks for more.
	for _, in := range []string{"\x1b", "\x1b[", "\x1b[1;5", "\x1bO", "\x1b[200", "\xe4\xb8"} {
		if _, n := decodeKey([]byte(in)); n != 0 {
			t.Errorf("decodeKey(%q) took %d bytes of an unfinished key", in, n)
		}
	}
	// Bytes that are not UTF-8 are dropped one by one.
	if k, n := decodeKey([]byte("\xff")); k.kind != keyNone || n != 1 {
		t.Errorf("decodeKey(0xff) = kind %d, %d bytes", k.kind, n)
	}
}

// edit runs the editor over the keys typed, read one byte at a time when
// slow, and returns the messages it read and the error that ended it.
func edit(keys string, slow bool, hist []string) ([]string, error) {
	var in io.Reader = strings.NewReader(keys)
	if slow {
		in = iotest.OneByteReader(in)
	}
	h := &history{entries: hist}
	e := &editor{in: in, out: io.Discard, width: func() int { return 20 }, hist: h,
		complete: func(before string) []string {
			var out []string
			for _, c := range []string{"/model", "/models", "/retry", "/save"} {
				if strings.HasPrefix(c, before) {
					out = append(out, c)
				}
			}
			return out
		}}
	var lines []string
	for {
		l, err := e.readLine("> ")
		if err != nil {
			return lines, err
		}
		lines = append(lines, l)
	}
}

func TestEditor(t *testing.T) {
	type tc struct {
		name, keys string
		want       []string
	}
	cases := []tc{
		{"plain", "hello\r", []string{"hello"}},
		{"left and insert", "hello\x1b[D\x1b[DX\r", []string{"helXlo"}},
		{"backspace and delete", "abcd\x7f\x1b[D\x1b[3~\r", []string{"ab"}},
		{"unknown keys are not typed", "a\x1b[15~\x1bOPb\x1b[2~\x1bOH\r", []string{"ab"}},
		{"kill to end and start", "one two\x1b[D\x1b[D\x0b\x15x\r", []string{"x"}},
		{"kill word", "one two\x17three\r", []string{"one three"}},
		{"kill word right", "one two\x01\x1bd\r", []string{" two"}},
		{"ctrl-c clears a typed line", "secret\x03next\r", []string{"next"}},
		{"ctrl-d deletes in a line", "ab\x01\x04\r", []string{"b"}},
		{"trailing backslash goes on", "one\\\rtwo\r", []string{"one\ntwo"}},
		{"backslash inside is kept", "a\\b\r", []string{"a\\b"}},
		{"alt-enter goes on", "one\x1b\rtwo\r", []string{"one\ntwo"}},
		{"home and end on the line of a message", "ab\x1b\rcd\x01X\x05Y\r", []string{"ab\nXcdY"}},
		{"paste is one message", "\x1b[200~first\r\nsecond\rthird\x1b[201~\r", []string{"first\nsecond\nthird"}},
		{"paste keeps text, drops controls", "\x1b[200~a\tb\x1b[31mc\x03\x1b[201~!\r", []string{"a\tb[31mc!"}},
		{"paste in the middle", "ad\x1b[D\x1b[200~b\nc\x1b[201~\r", []string{"ab\ncd"}},
		{"history", "\x1b[A\x1b[A\r\x1b[A\x1b[A\x1b[B\r", []string{"old", "new"}},
		{"history down back to the draft", "dra\x1b[A\x1b[Bft\r", []string{"draft"}},
		{"tab completes one", "/re\t\r", []string{"/retry "}},
		{"tab completes what all share", "/mo\t\r", []string{"/model"}},
		{"tab lists", "/\t\r", []string{"/"}},
		{"wide runes", "世界\x1b[DX\r", []string{"世X界"}},
	}
	for _, k := range homeKeys {
		cases = append(cases, tc{"home " + strings.ReplaceAll(k, "\x1b", "ESC"), "bc" + k + "a\r", []string{"abc"}})
	}
	for _, k := range endKeys {
		cases = append(cases, tc{"end " + strings.ReplaceAll(k, "\x1b", "ESC"), "ab\x01\x1b[C" + k + "c\r", []string{"abc"}})
	}
	for _, k := range wordLeftKeys {
		cases = append(cases, tc{"word left " + strings.ReplaceAll(k, "\x1b", "ESC"), "one two" + k + "X\r", []string{"one Xtwo"}})
	}
	for _, k := range wordRightKeys {
		cases = append(cases, tc{"word right " + strings.ReplaceAll(k, "\x1b", "ESC"), "one two\x01" + k + "X\r", []string{"oneX two"}})
	}
	for _, c := range cases {
		for _, slow := range []bool{false, true} {
			got, err := edit(c.keys, slow, []string{"old", "new"})
			if !errors.Is(err, io.EOF) {
				t.Errorf("%s (slow %v): ended with %v, want io.EOF at the end of the keys", c.name, slow, err)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("%s (slow %v): messages (-want +got):\n%s", c.name, slow, diff)
			}
		}
	}
}

func TestEditorEnds(t *testing.T) {
	for _, tc := range []struct {
		keys string
		want error
	}{
		{"\x04", io.EOF},
		{"\x03", errInterrupted},
		{"typed\x03\x03", errInterrupted}, // the first clears, the second ends
		{"typed\x03\x04", io.EOF},
		{"\x1b[200~unfinished paste", io.EOF},
	} {
		got, err := edit(tc.keys, false, nil)
		if !errors.Is(err, tc.want) || len(got) > 0 {
			t.Errorf("%q: messages %q, error %v; want none and %v", tc.keys, got, err, tc.want)
		}
	}
}

// TestEditorRender checks the rows the editor counts against the width of
// the terminal: at the edge, the terminal waits, and the editor moves on.
func TestEditorRender(t *testing.T) {
	for _, tc := range []struct {
		keys string
		row  int // the cursor's row when the keys are read
	}{
		{"", 0},
		{"1234567", 0},         // "> " + 7 = 9 of 10 columns
		{"12345678", 1},        // exactly 10: the cursor is on the next row
		{"123456789", 1},       // 11
		{"123456789\x01", 0},   // Home: back on the prompt's row
		{"a\x1b\rb\x1b\rc", 2}, // three lines of a message
		{"1234567世", 1},        // a wide rune past the edge wraps
	} {
		var out bytes.Buffer
		e := &editor{in: strings.NewReader(tc.keys), out: &out, width: func() int { return 10 }}
		_, err := e.readLine("> ")
		if !errors.Is(err, io.EOF) {
			t.Fatalf("%q: %v", tc.keys, err)
		}
		// readLine ended on EOF; render once more where the keys left it.
		e.render()
		if e.row != tc.row {
			t.Errorf("%q: cursor on row %d, want %d; output %q", tc.keys, e.row, tc.row, out.String())
		}
	}
}
