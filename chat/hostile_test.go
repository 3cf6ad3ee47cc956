package chat

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/redact"
)

// TestLongErrorsCostTheirStart: an endpoint's malformed chunk, stray line
// or error of 4 MiB, streamed or whole, costs a few times its size (under
// 8 times, -race included) and gives an error of a few KiB. The text quoted was redacted whole before
// 200 bytes of it were shown (104 MB allocated for a malformed chunk or an
// answer that is not JSON), and an error in the stream or in a 200 answer
// was redacted whole and became the error's message (an error of
// 8,388,625 bytes, 152 MB allocated), where an error status's body is
// read no further than 64 KiB.
func TestLongErrorsCostTheirStart(t *testing.T) {
	big := strings.Repeat("x", 4<<20)
	type reader func(body string) error
	stream := func(body string) error {
		s := &streamReader{client: &Client{APIKey: testKey}, touch: func() {}, sink: func(Event) {}}
		_, err := s.read(strings.NewReader(body))
		return err
	}
	whole := func(body string) error {
		_, err := (&Client{APIKey: testKey}).readWhole(context.Background(), strings.NewReader(body), "application/json", func(Event) {})
		return err
	}
	for _, tc := range []struct {
		name string
		read reader
		body string
	}{
		{"malformed chunk", stream, "data: {\"choices\":[" + big + "\n\n"},
		{"error in a chunk", stream, "data: {\"error\":{\"message\":\"" + big + "\"}}\n\n"},
		{"error event", stream, "event: error\ndata: {\"message\":\"" + big + "\"}\n\n"},
		{"error line", stream, "{\"error\":\"" + big + "\"}\n"},
		{"stray line", stream, big + "\n"},
		{"not JSON", whole, "{\"choices\":[" + big},
		{"error", whole, "{\"error\":{\"message\":\"" + big + "\"}}"},
		{"no choices", whole, "{\"choices\":[],\"x\":\"" + big + "\"}"},
		{"HTML page", whole, "<!DOCTYPE html><title>down</title>" + big},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := tc.read(tc.body)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if n := len(err.Error()); n > 4<<10 {
			t.Errorf("%s: an error of %d bytes", tc.name, n)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*uint64(len(tc.body)) {
			t.Errorf("%s: %d bytes allocated for an answer of %d", tc.name, alloc, len(tc.body))
		}
	}
}

// TestShortRedactedAtTheWindow: a key that straddles the end of the
// window shortRedacted reads is not shown, nor one inside a start that
// redaction shrinks to less than what is shown.
func TestShortRedactedAtTheWindow(t *testing.T) {
	for _, text := range []string{
		strings.Repeat("a", redactWindow-5) + testKey + strings.Repeat("b", 100),
		strings.Repeat(testKey+" ", redactWindow/len(testKey)+10),
		strings.Repeat("Bearer "+strings.Repeat("z", 300)+" ", 2*redactWindow/300),
	} {
		got := shortRedacted([]byte(text), 200, testKey)
		if strings.Contains(got, testKey[:redact.MinFragment]) || strings.Contains(got, "zzzzzzzz") || len(got) > 204 {
			t.Errorf("shortRedacted(%.40q…) = %q", text, got)
		}
		if want := redact.Shorten(text, 200, testKey); got != want {
			t.Errorf("shortRedacted(%.40q…) = %q, want %q as redact.Shorten says", text, got, want)
		}
	}
}
