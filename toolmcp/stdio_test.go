package toolmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolreg/toolreg/registry"
)

const stdioInit = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`

// echoLine is a tools/call of echo with the given raw id, padded with
// spaces to n bytes when n > 0.
func echoLine(id string, n int) string {
	s := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`
	if n > len(s) {
		s = s[:len(s)-1] + strings.Repeat(" ", n-len(s)) + "}"
	}
	return s
}

// answer is what the tests read of one line of output.
type answer struct {
	ID   string // raw
	Code int    // error code, 0 for a result
}

func serveLines(t *testing.T, input string) []answer {
	t.Helper()
	srv, err := NewServer(registry.MustNew(testTable()), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	// It must return at the end of input, whatever the ids were.
	if err := ServeStdio(context.Background(), srv, strings.NewReader(input), &out); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	var got []answer
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code int `json:"code"`
			} `json:"error"`
			Result *struct {
				Content []struct{ Text string } `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("output line %.200q: %v", line, err)
		}
		a := answer{ID: string(m.ID)}
		if m.Error != nil {
			a.Code = m.Error.Code
		}
		if a.ID != `"init"` && m.Result != nil && (len(m.Result.Content) != 1 || m.Result.Content[0].Text != "echo x") {
			t.Errorf("id %s answered %s", a.ID, line)
		}
		got = append(got, a)
	}
	return sortAnswers(got)
}

func sortAnswers(a []answer) []answer {
	slices.SortFunc(a, func(a, b answer) int {
		if c := strings.Compare(a.ID, b.ID); c != 0 {
			return c
		}
		return a.Code - b.Code
	})
	return a
}

// TestServeStdioGarbage sends lines that are not messages between good
// ones: each bad line gets its JSON-RPC error, and the good ones after it
// are still answered.
func TestServeStdioGarbage(t *testing.T) {
	t.Parallel()
	input := stdioInit + strings.Join([]string{
		`not json at all`,
		echoLine("1", 0),
		`[` + echoLine("2", 0) + `]`,
		echoLine("3", 0) + ` ` + echoLine("4", 0),
		`"a string"`,
		`{"jsonrpc":"2.0","id":5}`,
		`{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}`, // cut short
		``,
		echoLine("7", MaxStdioLine),   // at the limit
		echoLine("8", MaxStdioLine+1), // past it
		echoLine("9", MaxStdioLine-1), // below
		echoLine("10", 0),
	}, "\n")
	got := serveLines(t, input)
	want := sortAnswers([]answer{
		{`"init"`, 0},
		{"null", -32700}, // not JSON
		{"1", 0},
		{"null", -32600}, // batch
		{"null", -32700}, // two messages on a line
		{"null", -32600}, // a string
		{"5", -32600},    // neither request nor response
		{"null", -32600}, // an object as id
		{"null", -32700}, // cut short
		{"7", 0},
		{"null", -32600}, // too long
		{"9", 0},
		{"10", 0},
	})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

// TestServeStdioRewrittenIDs uses ids the SDK would rewrite: each answer
// carries the id exactly as sent, and the server exits at the end of
// input.
func TestServeStdioRewrittenIDs(t *testing.T) {
	t.Parallel()
	ids := []string{`1.0`, `1e2`, `-0`, `"\u0061b"`, `9007199254740993`, `18446744073709551616`, `"a\/b"`, `-1`}
	var lines []string
	for _, id := range ids {
		lines = append(lines, echoLine(id, 0))
	}
	got := serveLines(t, stdioInit+strings.Join(lines, "\n")+"\n")
	want := []answer{{`"init"`, 0}}
	for _, id := range ids {
		want = append(want, answer{id, 0})
	}
	if diff := cmp.Diff(sortAnswers(want), got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

// TestServeStdioCancelByClientID cancels a request by the id the client
// gave it: the gate renames it, and the call ends.
func TestServeStdioCancelByClientID(t *testing.T) {
	t.Parallel()
	srv, err := NewServer(registry.MustNew(testTable()), nil)
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	var out syncBuffer
	done := make(chan error, 1)
	go func() { done <- ServeStdio(context.Background(), srv, pr, &out) }()
	io.WriteString(pw, stdioInit)
	io.WriteString(pw, `{"jsonrpc":"2.0","id":1.0,"method":"tools/call","params":{"name":"slow","arguments":{}}}`+"\n")
	io.WriteString(pw, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.0}}`+"\n")
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The slow tool's own timeout is 50 ms; whether the cancellation or
	// the timeout ended it, the server exits at the end of input, and
	// the renamed cancellation did not break the session.
	if strings.Contains(out.String(), `"code":-32600`) {
		t.Errorf("the cancellation was refused: %s", out.String())
	}
}
