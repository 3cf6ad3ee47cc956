package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolreg/toolreg/internal/clip"
)

// TestRetryableStatuses classifies each status next to the retryable ones:
// 408, 409, 429 and 5xx retry, their neighbours do not; an HTML page
// retries only at 429 and 5xx.
func TestRetryableStatuses(t *testing.T) {
	got := map[int]bool{}
	html := map[int]bool{}
	for _, s := range []int{400, 407, 408, 409, 410, 428, 429, 430, 499, 500, 503, 599} {
		e := &APIError{StatusCode: s, Message: "x"}
		e.classify("m", true)
		got[s] = e.Retryable()
		h := &APIError{StatusCode: s}
		h.parseErrorPayload([]byte("<html><title>t</title></html>"), "text/html")
		h.classify("m", true)
		html[s] = h.Retryable()
	}
	want := map[int]bool{400: false, 407: false, 408: true, 409: true, 410: false, 428: false, 429: true, 430: false, 499: false, 500: true, 503: true, 599: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("retryable (-want +got):\n%s", diff)
	}
	wantHTML := map[int]bool{400: false, 407: false, 408: false, 409: false, 410: false, 428: false, 429: true, 430: false, 499: false, 500: true, 503: true, 599: true}
	if diff := cmp.Diff(wantHTML, html); diff != "" {
		t.Errorf("retryable HTML pages (-want +got):\n%s", diff)
	}
	// An exhausted quota is never retried, even as a 429.
	q := &APIError{StatusCode: 429, Message: "You exceeded your current quota"}
	q.classify("m", true)
	if q.Retryable() || q.Cause != CauseQuota {
		t.Errorf("quota: retryable %v, cause %v", q.Retryable(), q.Cause)
	}
}

// TestErrorBodyShown shows a plain error body of 2000 bytes whole and
// clips one of 2001.
func TestErrorBodyShown(t *testing.T) {
	for _, n := range []int{1999, 2000, 2001} {
		body := strings.Repeat("b", n)
		e := &APIError{}
		e.parseErrorPayload([]byte(body), "text/plain")
		if want := clip.String(body, 2000); e.Message != want || (n <= 2000) != (e.Message == body) {
			t.Errorf("%d bytes: message of %d bytes", n, len(e.Message))
		}
	}
}

// TestWholeAnswerFields reads a non-streamed answer's usage (top level, or
// in the choice when the top level has none), its finish reason, and
// sends its text alone to the sink; a status of 299 is a success, 300 not.
func TestWholeAnswerFields(t *testing.T) {
	top := completion(`{"role":"assistant","content":"hi"}`, "length")
	inChoice := `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}]}`
	for _, tc := range []struct {
		body   string
		status int
		usage  *Usage
		finish string
	}{
		{top, 200, &Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}, "length"},
		{inChoice, 200, &Usage{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3}, ""},
		{top, 299, &Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}, "length"},
	} {
		f := newFake(t, jsonReply(tc.status, tc.body))
		c := f.client(nil)
		c.NoStream = true
		var ev events
		resp, err := c.Complete(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "q"}}}, ev.sink)
		if err != nil {
			t.Fatalf("status %d: %v", tc.status, err)
		}
		if diff := cmp.Diff(tc.usage, resp.Usage); diff != "" || resp.FinishReason != tc.finish {
			t.Errorf("status %d: finish %q, usage (-want +got):\n%s", tc.status, resp.FinishReason, diff)
		}
		if diff := cmp.Diff([]Event{{Type: EventText, Text: "hi"}}, ev.all()); diff != "" {
			t.Errorf("status %d: events (-want +got):\n%s", tc.status, diff)
		}
	}
	f := newFake(t, jsonReply(300, top))
	c := f.client(nil)
	c.NoStream = true
	if _, err := c.Complete(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "q"}}}, nil); err == nil {
		t.Error("status 300: no error")
	}
}

// TestErrorCodesAndStreamOptions reads the "code" of an error body as a
// string, a number, null or absent, and recognises a rejection of
// stream_options only in a 400 or 422 answer.
func TestErrorCodesAndStreamOptions(t *testing.T) {
	for body, want := range map[string]string{
		`{"error":{"message":"m","code":"rate_limit"}}`: "rate_limit",
		`{"error":{"message":"m","code":429}}`:          "429",
		`{"error":{"message":"m","code":null}}`:         "",
		`{"error":{"message":"m"}}`:                     "",
	} {
		e := &APIError{}
		e.parseErrorPayload([]byte(body), "application/json")
		if e.Code != want || e.Message != "m" {
			t.Errorf("%s: code %q, message %q; want code %q", body, e.Code, e.Message, want)
		}
	}
	got := map[int]bool{}
	for _, s := range []int{400, 401, 421, 422, 423, 500} {
		got[s] = mentionsStreamOptions(&APIError{StatusCode: s, Message: "Unrecognized request argument supplied: stream_options"})
	}
	if diff := cmp.Diff(map[int]bool{400: true, 401: false, 421: false, 422: true, 423: false, 500: false}, got); diff != "" {
		t.Errorf("stream_options rejections (-want +got):\n%s", diff)
	}
	if mentionsStreamOptions(&APIError{StatusCode: 400, Message: "bad model"}) {
		t.Error("a 400 about something else read as a stream_options rejection")
	}
}
