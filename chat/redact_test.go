package chat

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// TestKeyCutAtTheLimit puts the API key across the point where an error
// body is shortened for the message: no part of it may be printed.
func TestKeyCutAtTheLimit(t *testing.T) {
	// The body is shown up to maxShown bytes; the key starts 5 bytes
	// before the cut, so a cut before redaction would print 5 of its
	// bytes and hide the rest from a whole-key search.
	for _, before := range []int{5, len(testKey) / 2, len(testKey) - 1} {
		body := strings.Repeat("x", maxShown-before) + testKey + " more text after the key"
		f := newFake(t, respond(http.StatusBadRequest, "text/plain", body))
		c := f.client(nil)
		_, err := c.Complete(context.Background(), Request{}, nil)
		if err == nil {
			t.Fatal("Complete succeeded, want an error")
		}
		msg := err.Error()
		for n := 4; n <= len(testKey); n++ {
			if strings.Contains(msg, testKey[:n]) {
				t.Fatalf("key cut %d bytes before the limit: the message holds its first %d bytes", before, n)
			}
		}
	}
}
