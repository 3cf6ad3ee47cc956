//go:build linux

package agentcli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestQuestionIgnoresTypeahead: only keys pressed once a question shows
// answer it. A "y" and Enter typed while the model answered, in the
// terminal's buffer or read ahead by the line editor with an earlier
// line, allowed a tool that changes things before the person saw the
// question.
func TestQuestionIgnoresTypeahead(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	defer tty.Close()
	var mu sync.Mutex
	var shown bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			shown.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	// shows waits until the terminal shows s.
	shows := func(s string) {
		t.Helper()
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
			mu.Lock()
			c := strings.Contains(shown.String(), s)
			mu.Unlock()
			if c {
				return
			}
		}
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("the terminal never showed %q; it shows %q", s, shown.String())
	}
	r := newTermLines(tty, tty, "", func(error) {})
	read := func(prompt string, question bool) <-chan string {
		got := make(chan string, 1)
		go func() {
			l, err := r.readLine(context.Background(), prompt, question)
			if err != nil {
				l = "error: " + err.Error()
			}
			got <- l
		}()
		return got
	}
	typeKeys := func(s string) {
		t.Helper()
		if _, err := io.WriteString(ptmx, s); err != nil {
			t.Fatal(err)
		}
	}
	// Each question is its own, so that the wait for it to show is not
	// met by the redraws of the one before.
	question := func(n int) string {
		return fmt.Sprintf("? write_file can change things on this machine. Run it (%d)? [y/N] ", n)
	}

	// Typed while the model answered: in the terminal's buffer.
	typeKeys("y\r")
	answer := read(question(1), true)
	shows("(1)? [y/N] ")
	typeKeys("n\r")
	if got := <-answer; got != "n" {
		t.Errorf("typed ahead in the terminal, then n: the answer is %q, want %q", got, "n")
	}

	// Read ahead with the line before.
	line := read("> ", false)
	shows("> ")
	typeKeys("hello\ry\r")
	if got := <-line; got != "hello" {
		t.Fatalf("the line: %q", got)
	}
	answer = read(question(2), true)
	shows("(2)? [y/N] ")
	typeKeys("n\r")
	if got := <-answer; got != "n" {
		t.Errorf("read ahead with the line before, then n: the answer is %q, want %q", got, "n")
	}

	// The positive control: a y typed once the question shows allows.
	answer = read(question(3), true)
	shows("(3)? [y/N] ")
	typeKeys("y\r")
	if got := <-answer; got != "y" {
		t.Errorf("y typed at the question: the answer is %q", got)
	}
}
