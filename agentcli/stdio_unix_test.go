//go:build unix

package agentcli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestProtocolStdio runs a process that takes its stdin and stdout for
// the protocol, then prints to stdout and reads stdin as a tool in
// process would: what it prints reaches stderr, what it reads is
// nothing, and the protocol's reader and writer have the client's lines
// alone. A reader and writer that are not the process's own are returned
// as they are.
func TestProtocolStdio(t *testing.T) {
	var in bytes.Buffer
	var out strings.Builder
	if r, w, err := protocolStdio(&in, &out); err != nil || r != &in || w != &out {
		t.Fatalf("protocolStdio of a buffer and a builder: %v, %v, %v", r, w, err)
	}
	// The child's temporary directory is one of the test's, to see that
	// it leaves nothing there.
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), stdioChildEnv+"=1", "TMPDIR="+tmp)
	cmd.Stdin = strings.NewReader("the client's line\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\nstderr:\n%s", err, stderr.String())
	}
	if diff := cmp.Diff("protocol: the client's line\n", stdout.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	for _, want := range []string{"stray print\n", "os.Stdin read 0 bytes: EOF\n"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("the child left %s in its temporary directory", e.Name())
	}
}

// stdioChild is the process of TestProtocolStdio (TestMain); it returns
// the process's exit code.
func stdioChild() int {
	in, out, err := protocolStdio(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("stray print")
	n, err := os.Stdin.Read(make([]byte, 64))
	fmt.Fprintf(os.Stderr, "os.Stdin read %d bytes: %v\n", n, err)
	line, err := io.ReadAll(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Fprintf(out, "protocol: %s", line)
	return 0
}
