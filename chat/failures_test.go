package chat

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// failTurn runs one turn that must fail and returns its error, after
// checking that the key does not show in it and that the conversation is
// unchanged.
func failTurn(t *testing.T, c *Client) error {
	t.Helper()
	conv := &Conversation{Client: c, Tools: echoTools()}
	_, err := conv.Turn(context.Background(), "hi")
	if err == nil {
		t.Fatal("the turn did not fail")
	}
	noKey(t, "the error", err.Error())
	if n := len(conv.Messages()); n != 0 {
		t.Errorf("the failed turn left %d messages", n)
	}
	return err
}

func TestRetry429WithRetryAfter(t *testing.T) {
	rateLimited := `{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}`
	for _, tc := range []struct {
		name   string
		header []string
		check  func(time.Duration) bool
	}{
		{"seconds", []string{"Retry-After", "3"}, func(d time.Duration) bool { return d == 3*time.Second }},
		{"http date", []string{"Retry-After", time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)},
			func(d time.Duration) bool { return d > 25*time.Second && d <= 30*time.Second }},
		{"milliseconds", []string{"Retry-After-Ms", "1500", "Retry-After", "2"}, func(d time.Duration) bool { return d == 1500*time.Millisecond }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, jsonReply(429, rateLimited, tc.header...), answer("ok"))
			s := &sleeps{}
			var ev events
			conv := &Conversation{Client: f.client(s), Sink: ev.sink}
			got, err := conv.Turn(context.Background(), "hi")
			if err != nil || got != "ok" {
				t.Fatalf("Turn = %q, %v", got, err)
			}
			waits := s.all()
			if len(waits) != 1 || !tc.check(waits[0]) {
				t.Errorf("waited %v", waits)
			}
			reqs := f.requests()
			if len(reqs) != 2 || !bytes.Equal(reqs[0].Raw, reqs[1].Raw) {
				t.Errorf("the retry did not send the same request again")
			}
			retries := ev.ofType(EventRetry)
			if len(retries) != 1 || retries[0].Attempt != 1 || retries[0].Duration != waits[0] || !strings.Contains(retries[0].Error, "HTTP 429") {
				t.Errorf("retry events = %+v", retries)
			}
		})
	}
}

func TestRetry500UntilRetriesRunOut(t *testing.T) {
	boom := jsonReply(500, `{"error":{"message":"The server had an error processing your request.","type":"server_error"}}`)
	f := newFake(t, boom, boom, boom)
	s := &sleeps{}
	c := f.client(s)
	c.Retry.MaxRetries = 2
	err := failTurn(t, c)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 500 || !apiErr.Retryable() {
		t.Errorf("err = %#v, want a retryable *APIError with status 500", err)
	}
	for _, want := range []string{"after 2 retries", "HTTP 500", "The server had an error"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	// Exponential backoff with jitter: the nth wait is in [b/2, b] for
	// b = 1s·2ⁿ.
	waits := s.all()
	if len(waits) != 2 {
		t.Fatalf("waits = %v", waits)
	}
	for i, w := range waits {
		b := time.Second << i
		if w < b/2 || w > b {
			t.Errorf("wait %d = %v, want within [%v, %v]", i, w, b/2, b)
		}
	}
}

func TestRetryStatuses(t *testing.T) {
	for _, status := range []int{408, 409, 429, 500, 502, 503, 504} {
		f := newFake(t, jsonReply(status, `{"error":{"message":"try later"}}`), answer("ok"))
		conv := &Conversation{Client: f.client(nil)}
		if _, err := conv.Turn(context.Background(), "hi"); err != nil {
			t.Errorf("status %d was not retried: %v", status, err)
		}
	}
}

func TestRetryAfterTooLong(t *testing.T) {
	f := newFake(t, jsonReply(429, `{"error":{"message":"slow down"}}`, "Retry-After", "600"))
	s := &sleeps{}
	err := failTurn(t, f.client(s))
	if !strings.Contains(err.Error(), "wait 10m0s") || len(s.all()) != 0 {
		t.Errorf("err = %v, waits %v", err, s.all())
	}
}

func TestNotRetriedAndExplained(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rep   reply
		key   string
		want  []string
		cause Cause
	}{
		{"insufficient quota", jsonReply(429, `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`),
			testKey, []string{"HTTP 429", "exceeded your current quota", "retrying will not help"}, CauseQuota},
		{"deepseek balance", jsonReply(402, `{"error":{"message":"Insufficient Balance","type":"unknown_error","param":null,"code":"invalid_request_error"}}`),
			testKey, []string{"HTTP 402", "Insufficient Balance", "billing"}, CauseQuota},
		{"bad key", jsonReply(401, `{"error":{"message":"Incorrect API key provided: sk-test-****1d8a.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`),
			testKey, []string{"HTTP 401", "Incorrect API key", "API key was refused"}, CauseKeyRefused},
		{"no key", jsonReply(401, `{"error":{"message":"Authentication Fails"}}`), "", []string{"no API key was sent"}, CauseNoKey},
		{"key echoed", jsonReply(401, `{"error":{"message":"invalid key `+testKey+`"}}`), testKey, []string{"[REDACTED]", "API key was refused"}, CauseKeyRefused},
		{"forbidden", jsonReply(403, `{"error":{"message":"Project does not have access to model"}}`), testKey, []string{"HTTP 403", "access denied", testModel}, CauseAccessDenied},
		{"unknown model", jsonReply(404, `{"error":{"message":"The model `+"`test-model`"+` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`),
			testKey, []string{"HTTP 404", "does not exist", "unknown model"}, CauseUnknownModel},
		{"deepseek model", jsonReply(400, `{"error":{"message":"Model Not Exist","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`),
			testKey, []string{"Model Not Exist", "unknown model"}, CauseUnknownModel},
		{"ollama model", jsonReply(404, `{"error":{"message":"model \"test-model\" not found, try pulling it first","type":"api_error","param":null,"code":null}}`),
			testKey, []string{"try pulling it first", "unknown model"}, CauseUnknownModel},
		{"ollama tools", jsonReply(400, `{"error":{"message":"registry.ollama.ai/library/gemma:2b does not support tools","type":"api_error","param":null,"code":null}}`),
			testKey, []string{"does not support tools", "tools/tool_choice"}, CauseToolsUnsupported},
		{"vllm tool choice", jsonReply(400, `{"error":{"message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}}`),
			testKey, []string{"--enable-auto-tool-choice", "tools/tool_choice"}, CauseToolsUnsupported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.rep)
			c := f.client(nil)
			c.APIKey = tc.key
			err := failTurn(t, c)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			var ae *APIError
			if !errors.As(err, &ae) {
				t.Fatalf("error %v is not an *APIError", err)
			}
			if ae.Cause != tc.cause {
				t.Errorf("Cause = %d, want %d", ae.Cause, tc.cause)
			}
			if strings.Contains(err.Error(), "LLM_") {
				t.Errorf("error %q names a setting of the agent", err)
			}
			if n := len(f.requests()); n != 1 {
				t.Errorf("%d requests: retried", n)
			}
			if tc.key == "" {
				if h := f.requests()[0].Header.Get("Authorization"); h != "" {
					t.Errorf("Authorization %q sent without a key", h)
				}
			}
		})
	}
}

func TestConnectionResetMidStream(t *testing.T) {
	t.Run("after text: not retried", func(t *testing.T) {
		f := newFake(t, resetAfter("data: "+text("Half an ans")+"\n\n"), answer("never"))
		var ev events
		c := f.client(nil)
		conv := &Conversation{Client: c, Sink: ev.sink}
		_, err := conv.Turn(context.Background(), "hi")
		if err == nil || !strings.Contains(err.Error(), "not retried") {
			t.Fatalf("err = %v", err)
		}
		if n := len(f.requests()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
		if n := len(conv.Messages()); n != 0 {
			t.Errorf("%d messages kept", n)
		}
		if texts := ev.ofType(EventText); len(texts) != 1 {
			t.Errorf("text events = %+v", texts)
		}
	})
	t.Run("before text: retried", func(t *testing.T) {
		f := newFake(t,
			resetAfter("data: "+callStart(0, "c1", "echo")+"\n\n"),
			resetAfter(""),
			answer("whole"),
		)
		conv := &Conversation{Client: f.client(nil)}
		got, err := conv.Turn(context.Background(), "hi")
		if err != nil || got != "whole" {
			t.Fatalf("Turn = %q, %v", got, err)
		}
	})
}

func TestStreamWithoutDone(t *testing.T) {
	t.Run("after text", func(t *testing.T) {
		f := newFake(t, rawSSE("data: "+text("cut")+"\n\n"))
		err := failTurn(t, f.client(nil))
		if !errors.Is(err, ErrStreamTruncated) {
			t.Errorf("err = %v, want ErrStreamTruncated", err)
		}
		if n := len(f.requests()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
	t.Run("retried until out", func(t *testing.T) {
		cut := rawSSE("data: " + callStart(0, "c1", "echo") + "\n\n")
		f := newFake(t, cut, cut)
		c := f.client(nil)
		c.Retry.MaxRetries = 1
		err := failTurn(t, c)
		if !errors.Is(err, ErrStreamTruncated) || !strings.Contains(err.Error(), "closed early") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("not an event stream", func(t *testing.T) {
		f := newFake(t, respond(200, "text/plain", "upstream connect error or disconnect/reset before headers"))
		c := f.client(nil)
		c.Retry.MaxRetries = -1
		err := failTurn(t, c)
		if !errors.Is(err, ErrStreamTruncated) || !strings.Contains(err.Error(), "upstream connect error") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestHTMLErrorPage(t *testing.T) {
	page := `<!DOCTYPE html>
<html><head><title>502 Bad Gateway</title></head>
<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>`
	t.Run("502", func(t *testing.T) {
		f := newFake(t, respond(502, "text/html", page), respond(502, "text/html", page))
		c := f.client(nil)
		c.Retry.MaxRetries = 1
		err := failTurn(t, c)
		for _, w := range []string{"HTTP 502", "HTML page", `"502 Bad Gateway"`, "base URL"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not contain %q", err, w)
			}
		}
		if strings.Contains(err.Error(), "<center>") {
			t.Errorf("the error shows the page: %v", err)
		}
	})
	t.Run("200", func(t *testing.T) {
		f := newFake(t, respond(200, "text/html; charset=utf-8", "<html><head><title>Sign in</title></head></html>"))
		err := failTurn(t, f.client(nil))
		if !strings.Contains(err.Error(), `HTML page ("Sign in")`) {
			t.Errorf("err = %v", err)
		}
	})
}

func TestMalformedAnswers(t *testing.T) {
	for _, tc := range []struct {
		name     string
		noStream bool
		rep      reply
		want     string
	}{
		{"no choices", true, jsonReply(200, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[]}`), "no choices"},
		{"stream no choices", false, sse(usage(1, 1)), "no choices"},
		{"not JSON", true, jsonReply(200, `Service Unavailable`), "not JSON"},
		{"bad chunk", false, rawSSE("data: {\"choices\":[{\"delta\":\n\ndata: [DONE]\n\n"), "malformed stream chunk"},
		{"error in stream", false, sse(`{"error":{"message":"The model produced invalid content.","type":"invalid_request_error"}}`), "error in stream: The model produced invalid content."},
		{"error event", false, rawSSE("event: error\ndata: {\"error\":{\"message\":\"quota\",\"type\":\"insufficient_quota\"}}\n\n"), "error in stream: quota"},
		{"error body in stream", false, rawSSE(`{"object":"error","message":"context too long","type":"BadRequestError","code":400}` + "\n"), `error in stream: {"object":"error","message":"context too long"`},
		{"error in 200", true, jsonReply(200, `{"error":{"message":"internal","type":"invalid_request_error"}}`), "chat request: error in stream: internal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.rep)
			c := f.client(nil)
			c.NoStream = tc.noStream
			err := failTurn(t, c)
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
			if n := len(f.requests()); n != 1 {
				t.Errorf("%d requests: retried", n)
			}
		})
	}
}

func TestStreamIdleTimeout(t *testing.T) {
	stall := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
	f := newFake(t, stall)
	c := f.client(nil)
	c.StreamIdleTimeout = 20 * time.Millisecond
	c.Retry.MaxRetries = -1
	err := failTurn(t, c)
	if !errors.Is(err, errIdle) {
		t.Errorf("err = %v", err)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		c    *Client
		want error
	}{
		{&Client{Model: "m"}, ErrNoBaseURL},
		{&Client{BaseURL: "http://127.0.0.1:1"}, ErrNoModel},
	} {
		_, err := tc.c.Complete(context.Background(), Request{}, nil)
		if !errors.Is(err, tc.want) {
			t.Errorf("err = %v, want %v", err, tc.want)
		}
	}
}

func TestEndpointAndExtra(t *testing.T) {
	f := newFake(t, answer("a"), answer("b"))
	c := f.client(nil)
	c.BaseURL = f.srv.URL + "/v1/chat/completions/"
	c.Extra = map[string]any{"temperature": 0.2, "thinking": map[string]string{"type": "enabled"}, "model": "overridden?"}
	c.Header = http.Header{"X-Title": {"toolreg"}}
	if _, err := c.Complete(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "x"}}}, nil); err != nil {
		t.Fatal(err)
	}
	r := f.requests()[0]
	if r.Body["temperature"] != 0.2 || r.Body["model"] != testModel || r.Header.Get("X-Title") != "toolreg" {
		t.Errorf("body %s, headers %v", r.Raw, r.Header)
	}
	if diff := cmp.Diff(mustJSON(t, `{"type":"enabled"}`), r.Body["thinking"]); diff != "" {
		t.Errorf("thinking (-want +got):\n%s", diff)
	}
}

func TestDebugLogHasTimingsAndUsageButNoKey(t *testing.T) {
	f := newFake(t, jsonReply(500, `{"error":{"message":"flaky `+testKey+`"}}`), sse(text("hi"), finish("stop"), usage(12, 3)))
	var buf bytes.Buffer
	c := f.client(nil)
	c.Logger = slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	conv := &Conversation{Client: c}
	if _, err := conv.Turn(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	log := buf.String()
	noKey(t, "the log", log)
	lines := readLines(log)
	if len(lines) != 3 {
		t.Fatalf("log:\n%s", log)
	}
	for _, w := range []string{"chat request", "status=200", "prompt_tokens=12", "completion_tokens=3", "total_tokens=15", "duration=", "first_token=", "attempt=2"} {
		if !strings.Contains(lines[2], w) {
			t.Errorf("log line %q does not contain %q", lines[2], w)
		}
	}
	if !strings.Contains(lines[0], "status=500") || !strings.Contains(lines[1], "retrying") {
		t.Errorf("log:\n%s", log)
	}
}

func TestConnectionRefusedRetriedAndRedacted(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := &sleeps{}
	c := &Client{
		BaseURL:    "http://" + addr + "/v1?api-version=1&token=" + testKey,
		APIKey:     testKey,
		Model:      testModel,
		Retry:      RetryPolicy{MaxRetries: 2},
		sleep:      s.sleep,
		HTTPClient: &http.Client{Transport: &http.Transport{}},
	}
	defer c.HTTPClient.CloseIdleConnections()
	err = failTurn(t, c)
	if !strings.Contains(err.Error(), "after 2 retries") || !strings.Contains(err.Error(), "connection") || !strings.Contains(err.Error(), "[REDACTED]") {
		t.Errorf("err = %v", err)
	}
	if got, want := c.endpoint(), "http://"+addr+"/v1/chat/completions?api-version=1&token="+testKey; got != want {
		t.Errorf("endpoint = %q, want %q", got, want)
	}
}

func TestCancelWhileWaitingToRetry(t *testing.T) {
	f := newFake(t, jsonReply(503, `{"error":{"message":"busy"}}`))
	ctx, cancel := context.WithCancel(context.Background())
	c := f.client(nil)
	c.sleep = nil // the real timer
	c.Retry.BaseDelay = time.Hour
	conv := &Conversation{Client: c, Sink: func(e Event) {
		if e.Type == EventRetry {
			cancel()
		}
	}}
	_, err := conv.Turn(ctx, "hi")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestContentParts(t *testing.T) {
	f := newFake(t, jsonReply(200, completion(`{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`, "stop")))
	c := f.client(nil)
	c.NoStream = true
	resp, err := c.Complete(context.Background(), Request{}, nil)
	if err != nil || resp.Message.Content != "ab" {
		t.Fatalf("Complete = %+v, %v", resp, err)
	}
}
