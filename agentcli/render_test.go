package agentcli

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/chat"
	"github.com/toolreg/toolreg/internal/termmd"
)

func TestCompleteBlocks(t *testing.T) {
	for in, want := range map[string]string{
		"":                               "",
		"Hello":                          "",
		"Hello\n":                        "",
		"Hello\n\n":                      "Hello\n\n",
		"One\n\nTwo\n":                   "One\n\n",
		"One\n\nTwo\n\nThr":              "One\n\nTwo\n\n",
		"```go\nx := 1\n\ny := 2\n":      "",
		"```go\nx := 1\n\ny := 2\n```\n": "```go\nx := 1\n\ny := 2\n```\n",
		"Text\n\n~~~\na\n\n~~~\nmore":    "Text\n\n~~~\na\n\n~~~\n",
		"````\n```\n\n````\n":            "````\n```\n\n````\n",
	} {
		if got := in[:completeBlocks(in)]; got != want {
			t.Errorf("completeBlocks(%q): %q, want %q", in, got, want)
		}
	}
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// words returns the words of rendered text, without its colours and
// layout.
func words(s string) []string {
	return strings.Fields(strings.ReplaceAll(ansi.ReplaceAllString(s, ""), "\u00a0", " "))
}

// TestRenderedStreamKeepsEveryWord streams an answer in pieces that cut
// through words, emphasis and a code block: blocks are rendered as they
// complete, the rest at the end, a tool call in between flushes, and no
// word is lost.
func TestRenderedStreamKeepsEveryWord(t *testing.T) {
	md := &termmd.Renderer{Width: 80, Style: termmd.Dark}
	var stdout, stderr bytes.Buffer
	o := &output{stdout: &stdout, stderr: &stderr, md: md}
	o.event(chat.Event{Type: chat.EventText, Text: "Hello **wo"})
	if stdout.Len() != 0 {
		t.Errorf("an unfinished block was rendered: %q", stdout.String())
	}
	o.event(chat.Event{Type: chat.EventText, Text: "rld**.\n\n```go\nx := 1\n"})
	if got := words(stdout.String()); !cmp.Equal(got, []string{"Hello", "world."}) {
		t.Errorf("after the first block: %q", got)
	}
	if strings.Contains(stdout.String(), "**") {
		t.Errorf("the first block is not rendered: %q", stdout.String())
	}
	o.event(chat.Event{Type: chat.EventText, Text: "\ny := 2\n```\nLet me che"})
	o.event(chat.Event{Type: chat.EventToolCall, Tool: "now", Args: "{}"})
	o.event(chat.Event{Type: chat.EventText, Text: "It is *noon*."})
	o.finish("ignored: the answer was streamed")
	want := []string{"Hello", "world.", "x", ":=", "1", "y", ":=", "2", "Let", "me", "che", "It", "is", "noon."}
	if diff := cmp.Diff(want, words(stdout.String())); diff != "" {
		t.Errorf("words on stdout (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("→ now {}\n", stderr.String()); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
}

// TestRawStreamIsVerbatim: without a renderer the text is printed as it
// streams, byte for byte.
func TestRawStreamIsVerbatim(t *testing.T) {
	var stdout, stderr bytes.Buffer
	o := &output{stdout: &stdout, stderr: &stderr}
	for _, p := range []string{"Hello **wo", "rld**.\n\n```go\n", "x := 1\n```"} {
		o.event(chat.Event{Type: chat.EventText, Text: p})
	}
	o.finish("ignored")
	if diff := cmp.Diff("Hello **world**.\n\n```go\nx := 1\n```\n", stdout.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
}

// TestRawOnATerminalDropsControls: with -raw on a terminal the text is
// printed as the model wrote it but for its control characters (a
// prompt-injected model's title, clipboard and cursor sequences), which
// a pipe keeps.
func TestRawOnATerminalDropsControls(t *testing.T) {
	parts := []string{"Hello \x1b]52;c;ZWNobyBoaQ==\x07**wo", "rld**\x1b[2J.\r\n\n\x9b1m\xc2", "\x82x := 1\n"}
	for _, tc := range []struct {
		terminal bool
		want     string
	}{
		{true, "Hello ]52;c;ZWNobyBoaQ==**world**[2J.\n\n\ufffd1mx := 1\n"}, // \xc2\x82, whole in one line, is U+0082
		{false, strings.Join(parts, "")},
	} {
		var stdout, stderr bytes.Buffer
		o := &output{stdout: &stdout, stderr: &stderr, terminal: tc.terminal}
		for _, p := range parts {
			o.event(chat.Event{Type: chat.EventText, Text: p})
		}
		o.finish("ignored")
		if diff := cmp.Diff(tc.want, stdout.String()); diff != "" {
			t.Errorf("terminal %v: stdout (-want +got):\n%s", tc.terminal, diff)
		}
	}
}

// TestMarkdownStyle: TOOLREG_STYLE chooses the style, GLAMOUR_STYLE is
// read when it is unset, NO_COLOR means plain, and an unknown name is
// said and falls back to dark.
func TestMarkdownStyle(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, tc := range []struct {
		env     map[string]string
		want    termmd.Style
		wantErr bool
	}{
		{nil, termmd.Dark, false},
		{map[string]string{"TOOLREG_STYLE": "light"}, termmd.Light, false},
		{map[string]string{"GLAMOUR_STYLE": "notty"}, termmd.Plain, false},
		{map[string]string{"TOOLREG_STYLE": "light", "GLAMOUR_STYLE": "notty"}, termmd.Light, false},
		{map[string]string{"NO_COLOR": "1"}, termmd.Plain, false},
		{map[string]string{"NO_COLOR": "1", "TOOLREG_STYLE": "dark"}, termmd.Dark, false},
		{map[string]string{"TOOLREG_STYLE": "dracula"}, termmd.Dark, true},
	} {
		r, err := newMarkdown(f, func(k string) string { return tc.env[k] })
		if r == nil || r.Style != tc.want || (err != nil) != tc.wantErr || r.Width != 78 {
			t.Errorf("env %v: renderer %+v, error %v; want style %d, width 78, error %v", tc.env, r, err, tc.want, tc.wantErr)
		}
	}
}

// TestStreamLooksAtEachLineOnce: while an answer streams, where its whole
// blocks end is found by looking at each of its lines once, not at the
// whole text not yet rendered for each piece: an unclosed code fence of
// 7 MB in pieces of 1,000 bytes took two minutes of the processor before
// anything was shown. What is rendered is the same.
func TestStreamLooksAtEachLineOnce(t *testing.T) {
	md := &termmd.Renderer{Width: 80, Style: termmd.Plain}
	var stdout bytes.Buffer
	o := &output{stdout: &stdout, stderr: io.Discard, md: md}
	text := "Intro.\n\n```\n" + strings.Repeat("x := 1\n", 3000) + "```\n\nAfter *the* code.\n\n```\n" + strings.Repeat("y\n", 3000)
	for i := 0; i < len(text); i += 100 {
		o.event(chat.Event{Type: chat.EventText, Text: text[i:min(i+100, len(text))]})
		if o.blocks.looked > len(text) {
			t.Fatalf("after %d bytes, %d looked at", min(i+100, len(text)), o.blocks.looked)
		}
	}
	o.finish("")
	var whole bytes.Buffer
	renderBlocks(&whole, md, text, true)
	if diff := cmp.Diff(words(whole.String()), words(stdout.String())); diff != "" {
		t.Errorf("words rendered as streamed (-whole +streamed):\n%s", diff)
	}
}
