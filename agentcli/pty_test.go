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
	keyLeft  = "\x1b[D"
	keyUp    = "\x1b[A"
	keyEnter = "\r"
	keyCtrlD = "\x04"
)

// ptyServer is a model that answers every request with answer and sends
// the user messages of each request on seen.
type ptyServer struct {
	answer string
	seen   chan []string
}

func (s *ptyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
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
		"TERM=xterm-256color",
		"GLAMOUR_STYLE=dark",
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
	term.expect("> ")
	term.send("hello", keyLeft, keyLeft, "X", keyEnter)
	if diff := cmp.Diff([]string{"helXlo"}, srv.next(t)); diff != "" {
		t.Errorf("user messages (-want +got):\n%s", diff)
	}
	answer := term.expect("> ")
	if strings.Contains(answer, "**bold**") || !strings.Contains(answer, "bold") || !strings.Contains(answer, "\x1b[") {
		t.Errorf("the answer is not rendered as Markdown on a terminal: %q", answer)
	}

	term.send(keyUp, keyEnter) // recalls helXlo
	if diff := cmp.Diff([]string{"helXlo", "helXlo"}, srv.next(t)); diff != "" {
		t.Errorf("user messages after Up (-want +got):\n%s", diff)
	}
	term.expect("> ")

	term.send("/help", keyEnter)
	term.expect("/reset   start a new conversation")
	term.expect("> ")
	term.send("/nosuch", keyEnter)
	term.expect("unknown command /nosuch")
	term.expect("> ")
	term.send("/tools", keyEnter)
	term.expect("calculator, now")
	term.expect("> ")
	term.send(keyCtrlD)
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
	term.expect("> ")
	term.send(keyUp, keyUp, keyUp, keyUp, keyEnter) // /tools, /nosuch, /help, helXlo
	if diff := cmp.Diff([]string{"helXlo"}, srv.next(t)); diff != "" {
		t.Errorf("user messages of the second run (-want +got):\n%s", diff)
	}
	term.expect("Some **bold** text.")
	term.expect("> ")
	term.send(keyCtrlD)
	if code := term.wait(); code != 0 {
		t.Errorf("exit status %d after Ctrl-D, want 0", code)
	}
}
