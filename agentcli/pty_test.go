package agentcli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/google/go-cmp/cmp"
)

// Keys as a terminal sends them.
const (
	sendLeft  = "\x1b[D"
	sendUp    = "\x1b[A"
	sendEnter = "\r"
	sendCtrlD = "\x04"
)

// ptyServer is a model that answers every request with answer and sends
// the user messages of each request on seen.
type ptyServer struct {
	answer string
	seen   chan []string

	mu     sync.Mutex
	models []string // the model of each request
}

// modelsAsked returns the model of each request so far.
func (s *ptyServer) modelsAsked() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.models...)
}

func (s *ptyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.models = append(s.models, req.Model)
	s.mu.Unlock()
	var users []string
	for _, m := range req.Messages {
		if m.Role == "user" {
			users = append(users, m.Content)
		}
	}
	s.seen <- users
	content, _ := json.Marshal(s.answer)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}]}`, content)
}

// terminal is the agent running on a pseudo-terminal.
type terminal struct {
	t    *testing.T
	tty  *os.File
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  bytes.Buffer
	seen int // how much of out expect has consumed
	done chan struct{}
}

// startTerminal runs the agent with args on a new pseudo-terminal, talking
// to the model at baseURL and keeping its state in state.
func startTerminal(t *testing.T, baseURL, state string, args ...string) *terminal {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(),
		agentMainEnv+"=1",
		"LLM_BASE_URL="+baseURL,
		"LLM_MODEL=m",
		"LLM_API_KEY=",
		"XDG_STATE_HOME="+state,
		"XDG_CONFIG_HOME="+state, // the person's own config file stays out
		"TOOLREG_CONFIG=",
		"TOOLREG_PROFILE=",
		"TERM=xterm-256color",
		"TOOLREG_STYLE=dark",
	)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatalf("start the agent on a pseudo-terminal: %v", err)
	}
	term := &terminal{t: t, tty: tty, cmd: cmd, done: make(chan struct{})}
	go func() {
		defer close(term.done)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			term.mu.Lock()
			term.out.Write(buf[:n])
			term.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // if it is still running
		_ = cmd.Wait()
		tty.Close()
	})
	return term
}

// deadline is when a wait gives up: shortly before the test binary's own
// timeout, so that a hang fails with the terminal's output.
func deadline(t *testing.T) time.Time {
	if d, ok := t.Deadline(); ok {
		return d.Add(-5 * time.Second)
	}
	return time.Now().Add(10 * time.Minute)
}

// expect waits for s to appear in the output after what earlier expects
// consumed, and returns the output up to and including it.
func (term *terminal) expect(s string) string {
	term.t.Helper()
	end := deadline(term.t)
	for {
		term.mu.Lock()
		out := term.out.String()[term.seen:]
		term.mu.Unlock()
		if i := strings.Index(out, s); i >= 0 {
			term.seen += i + len(s)
			return out[:i+len(s)]
		}
		if time.Now().After(end) {
			term.t.Fatalf("the terminal never showed %q; it shows:\n%q", s, out)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// expectPrompt waits for the next prompt, which begins with the agent
// turning bracketed paste on, and returns the output up to it.
func (term *terminal) expectPrompt() string {
	term.t.Helper()
	out := term.expect(pasteOn)
	return out + term.expect("> ")
}

func (term *terminal) send(keys ...string) {
	term.t.Helper()
	for _, k := range keys {
		if _, err := io.WriteString(term.tty, k); err != nil {
			term.t.Fatalf("type %q: %v", k, err)
		}
	}
}

// wait waits for the agent to exit and returns its exit status.
func (term *terminal) wait() int {
	term.t.Helper()
	err := term.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		term.t.Fatal(err)
	}
	return 0
}

func (s *ptyServer) next(t *testing.T) []string {
	t.Helper()
	select {
	case u := <-s.seen:
		return u
	case <-time.After(time.Until(deadline(t))):
		t.Fatal("the model got no request")
		return nil
	}
}

// TestTerminalConversation drives the conversation as a person would:
// line editing, the history on Up, commands that never reach the model,
// a Markdown answer rendered, and the history kept for the next run.
func TestTerminalConversation(t *testing.T) {
	srv := &ptyServer{answer: "Some **bold** text.", seen: make(chan []string, 10)}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	state := t.TempDir()

	term := startTerminal(t, ts.URL+"/v1", state, "-tools", "now,calculator")
	term.expect("/help lists the commands")
	term.expectPrompt()
	term.send("hello", sendLeft, sendLeft, "X", sendEnter)
	if diff := cmp.Diff([]string{"helXlo"}, srv.next(t)); diff != "" {
		t.Errorf("user messages (-want +got):\n%s", diff)
	}
	answer := term.expectPrompt()
	if strings.Contains(answer, "**bold**") || !strings.Contains(answer, "bold") || !strings.Contains(answer, "\x1b[") {
		t.Errorf("the answer is not rendered as Markdown on a terminal: %q", answer)
	}

	term.send(sendUp, sendEnter) // recalls helXlo
	if diff := cmp.Diff([]string{"helXlo", "helXlo"}, srv.next(t)); diff != "" {
		t.Errorf("user messages after Up (-want +got):\n%s", diff)
	}
	term.expectPrompt()

	term.send("/help", sendEnter)
	term.expect("/reset         start a new conversation")
	term.expectPrompt()
	term.send("/nosuch", sendEnter)
	term.expect("unknown command /nosuch")
	term.expectPrompt()
	term.send("/tools", sendEnter)
	term.expect("calculator, now")
	term.expectPrompt()
	term.send(sendCtrlD)
	if code := term.wait(); code != 0 {
		t.Errorf("exit status %d after Ctrl-D, want 0", code)
	}
	select {
	case u := <-srv.seen:
		t.Errorf("a command reached the model: %q", u)
	default:
	}
	hist, err := os.ReadFile(filepath.Join(state, "toolreg", "history"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("helXlo\n/help\n/nosuch\n/tools\n", string(hist)); diff != "" {
		t.Errorf("history file (-want +got):\n%s", diff)
	}

	// The next run recalls the last line of the last one; -raw prints the
	// answer as the model wrote it.
	term = startTerminal(t, ts.URL+"/v1", state, "-raw", "-no-log")
	term.expectPrompt()
	term.send(sendUp, sendUp, sendUp, sendUp, sendEnter) // /tools, /nosuch, /help, helXlo
	if diff := cmp.Diff([]string{"helXlo"}, srv.next(t)); diff != "" {
		t.Errorf("user messages of the second run (-want +got):\n%s", diff)
	}
	term.expect("Some **bold** text.")
	term.expectPrompt()
	term.send(sendCtrlD)
	if code := term.wait(); code != 0 {
		t.Errorf("exit status %d after Ctrl-D, want 0", code)
	}
}

// TestTerminalKeys types each form of the keys terminals send for Home,
// End and the word moves, a bracketed paste, a message of several lines,
// and Ctrl-C on a typed line, and checks the message the model gets.
func TestTerminalKeys(t *testing.T) {
	srv := &ptyServer{answer: "ok", seen: make(chan []string, 100)}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	term := startTerminal(t, ts.URL+"/v1", t.TempDir(), "-no-log", "-raw", "-tools", "now,calculator")
	term.expectPrompt()
	type typed struct{ name, keys, want string }
	var cases []typed
	for _, k := range homeKeys {
		cases = append(cases, typed{"Home " + strings.ReplaceAll(k, "\x1b", "ESC"), "bc" + k + "a", "abc"})
	}
	for _, k := range endKeys {
		cases = append(cases, typed{"End " + strings.ReplaceAll(k, "\x1b", "ESC"), "ab\x01" + k + "c", "abc"})
	}
	for _, k := range wordLeftKeys {
		cases = append(cases, typed{"word left " + strings.ReplaceAll(k, "\x1b", "ESC"), "one two" + k + "X", "one Xtwo"})
	}
	for _, k := range wordRightKeys {
		cases = append(cases, typed{"word right " + strings.ReplaceAll(k, "\x1b", "ESC"), "one two\x01" + k + "X", "oneX two"})
	}
	cases = append(cases,
		typed{"bracketed paste", "\x1b[200~first line\r\nsecond line\rthird\x1b[201~", "first line\nsecond line\nthird"},
		typed{"Alt-Enter", "one\x1b\rtwo", "one\ntwo"},
		typed{"trailing backslash", "one\\\rtwo", "one\ntwo"},
		typed{"Ctrl-C clears a typed line", "never sent\x03sent", "sent"},
	)
	var sent []string
	for _, c := range cases {
		term.send(c.keys, sendEnter)
		sent = append(sent, c.want)
		if diff := cmp.Diff(sent, srv.next(t)); diff != "" {
			t.Errorf("%s: user messages (-want +got):\n%s", c.name, diff)
		}
		term.expectPrompt()
	}
	term.send("\x03") // Ctrl-C at an empty prompt ends
	if code := term.wait(); code != 0 {
		t.Errorf("exit status %d after Ctrl-C at an empty prompt, want 0", code)
	}
}

// TestTerminalCommands switches the model with /model (completed with
// Tab), asks again with /retry, and saves the conversation with /save.
func TestTerminalCommands(t *testing.T) {
	srv := &ptyServer{answer: "the answer", seen: make(chan []string, 10)}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	state := t.TempDir()
	if err := os.MkdirAll(filepath.Join(state, "toolreg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(state, "toolreg", "config.toml"), []byte("[aliases]\nfast = \"fast-model\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	term := startTerminal(t, ts.URL+"/v1", state, "-raw", "-tools", "now,calculator")
	term.expectPrompt()
	term.send("/model fa\t", sendEnter) // Tab completes the alias
	term.expect("(model fast-model, alias fast, from the next question on)")
	term.expectPrompt()
	term.send("first question", sendEnter)
	srv.next(t)
	term.expectPrompt()
	term.send("/mod\tother-model", sendEnter) // Tab completes /model
	term.expect("(model other-model from the next question on)")
	term.expectPrompt()
	term.send("/retry", sendEnter)
	term.expect("(asking again: first question)")
	if diff := cmp.Diff([]string{"first question"}, srv.next(t)); diff != "" {
		t.Errorf("user messages of /retry (-want +got):\n%s", diff)
	}
	term.expectPrompt()
	if diff := cmp.Diff([]string{"fast-model", "other-model"}, srv.modelsAsked()); diff != "" {
		t.Errorf("models asked (-want +got):\n%s", diff)
	}
	term.send("/tools calc\t", sendEnter) // Tab completes the tool
	term.expect("calculator: ")
	term.expectPrompt()
	saved := filepath.Join(t.TempDir(), "saved.md")
	term.send("/save "+saved, sendEnter)
	term.expect("(conversation written to ")
	term.expectPrompt()
	term.send("/copy", sendEnter)
	term.expect(osc52("the answer"))
	term.expectPrompt()
	term.send(sendCtrlD)
	if code := term.wait(); code != 0 {
		t.Errorf("exit status %d, want 0", code)
	}
	md, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("# Conversation with other-model\n\n## You\n\nfirst question\n\n## Answer\n\nthe answer\n", string(md)); diff != "" {
		t.Errorf("saved conversation (-want +got):\n%s", diff)
	}
	// The kept conversation holds the question once, answered once.
	dir := filepath.Join(state, "toolreg", "conversations")
	files, err := keptFiles(dir)
	if err != nil || len(files) != 1 {
		t.Fatalf("kept conversations %v, %v: want one", files, err)
	}
	k, err := readKept(files[0].path)
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, r := range k.records {
		roles = append(roles, string(r.Message.Role)+"@"+r.Model)
	}
	if diff := cmp.Diff([]string{"user@other-model", "assistant@other-model"}, roles); diff != "" {
		t.Errorf("kept records (-want +got):\n%s", diff)
	}
}

// TestTerminalEdit writes a message in $EDITOR with /edit.
func TestTerminalEdit(t *testing.T) {
	srv := &ptyServer{answer: "ok", seen: make(chan []string, 10)}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	editor := filepath.Join(t.TempDir(), "editor.sh")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nprintf 'written in\\nthe editor\\n' > \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", editor)
	term := startTerminal(t, ts.URL+"/v1", t.TempDir(), "-no-log", "-raw", "-tools", "now")
	term.expectPrompt()
	term.send("/edit", sendEnter)
	if diff := cmp.Diff([]string{"written in\nthe editor"}, srv.next(t)); diff != "" {
		t.Errorf("user messages (-want +got):\n%s", diff)
	}
	term.expectPrompt()
	term.send(sendCtrlD)
	if code := term.wait(); code != 0 {
		t.Errorf("exit status %d, want 0", code)
	}
}
