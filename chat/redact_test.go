package chat

import (
	"context"
	"errors"
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

// TestStreamCap streams answers of about the cap: at and below it they
// are read, past it the request fails with ErrStreamTooLarge and is not
// retried.
func TestStreamCap(t *testing.T) {
	body := "data: " + chunk(`{"content":"x"}`) + "\n\n"
	body += "data: " + finish("stop") + "\n\ndata: [DONE]\n\n"
	size := int64(len(body))
	for _, tt := range []struct {
		max     int64
		tooLong bool
	}{{size + 1, false}, {size, false}, {size - 20, true}, {size / 2, true}} {
		f := newFake(t, rawSSE(body), rawSSE(body))
		c := f.client(nil)
		c.MaxStreamBytes = tt.max
		_, err := c.Complete(context.Background(), Request{}, nil)
		if got := errors.Is(err, ErrStreamTooLarge); got != tt.tooLong {
			t.Errorf("cap %d, answer %d bytes: err %v, want too large %v", tt.max, size, err, tt.tooLong)
		}
		if tt.tooLong && len(f.requests()) != 1 {
			t.Errorf("cap %d: %d requests, want 1 (no retry)", tt.max, len(f.requests()))
		}
	}
}
