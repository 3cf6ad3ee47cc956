package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sashabaranov/go-openai"
	"github.com/toolreg/toolreg/internal/origin"
	"github.com/toolreg/toolreg/redact"
)

// Client is an OpenAI-compatible chat completions endpoint. Set its fields
// before the first request and do not change them after; a Client is safe
// for concurrent use and must not be copied after first use.
type Client struct {
	// BaseURL is the API root, such as "https://api.deepseek.com/v1" or
	// "http://localhost:11434/v1"; "/chat/completions" is appended unless
	// it already ends with it. Required.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer …"; none is sent when it is
	// empty (Ollama, vLLM). It never appears in errors or logs.
	APIKey string
	// Model is the model name sent with every request. Required.
	Model string
	// HTTPClient sends the requests; http.DefaultClient when nil. Its
	// Timeout, if any, bounds whole streamed answers: prefer
	// StreamIdleTimeout and the context.
	HTTPClient *http.Client
	// Header holds extra headers sent with every request.
	Header http.Header
	// Extra holds extra top-level fields of the request body, such as
	// "temperature", "max_tokens", "parallel_tool_calls" or DeepSeek's
	// "thinking". It cannot replace model, messages, tools or stream.
	Extra map[string]any
	// NoStream asks for whole answers instead of a stream of deltas; the
	// sink then receives the text in one piece.
	NoStream bool
	// NoStreamOptions stops the Client from sending
	// stream_options {"include_usage": true} with streamed requests. It is
	// not needed for providers that reject the field: the Client notices
	// that from their answer and stops sending it by itself.
	NoStreamOptions bool
	// StreamIdleTimeout bounds how long a streamed request waits for its
	// answer to begin and then for each next line (keep-alive comments
	// count); 5 minutes when zero, no bound when negative.
	StreamIdleTimeout time.Duration
	// MaxStreamBytes bounds the size of one streamed answer, in bytes;
	// DefaultMaxStreamBytes when zero or less. An answer past it fails
	// with ErrStreamTooLarge and is not retried.
	MaxStreamBytes int64
	// Retry says how transient failures are retried.
	Retry RetryPolicy
	// Logger receives a debug record per request with its timings and
	// token usage; nothing is logged when it is nil.
	Logger *slog.Logger

	// streamOptionsRejected is set once the endpoint has rejected
	// stream_options.
	streamOptionsRejected atomic.Bool
	// sleep waits between retries; tests replace it so they do not wait.
	// nil uses a timer.
	sleep func(ctx context.Context, d time.Duration) error
}

// ErrNoBaseURL and ErrNoModel are the errors of a Client without a
// BaseURL or a Model.
var (
	ErrNoBaseURL = errors.New("chat: the client has no base URL")
	ErrNoModel   = errors.New("chat: the client has no model")
)

// wait waits d or until ctx is done.
func (c *Client) wait(ctx context.Context, d time.Duration) error {
	if c.sleep != nil {
		return c.sleep(ctx, d)
	}
	return sleep(ctx, d)
}

// RetryPolicy says how a Client retries transient failures: HTTP 408, 409,
// 429 and 5xx answers, connection errors, and streams that break before
// any text was delivered. The zero value is a sensible default.
type RetryPolicy struct {
	// MaxRetries is how many times a request is sent again after its first
	// attempt: 4 when zero, none when negative.
	MaxRetries int
	// BaseDelay is the delay before the first retry, doubled for each
	// next one, with jitter: the delay is drawn between half of it and
	// all of it. 1s when zero.
	BaseDelay time.Duration
	// MaxDelay caps the exponential delay; 30s when zero.
	MaxDelay time.Duration
	// MaxRetryAfter is the longest Retry-After the Client waits for; a
	// failure asking for a longer wait is returned instead. 2 minutes when
	// zero.
	MaxRetryAfter time.Duration
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	switch {
	case p.MaxRetries == 0:
		p.MaxRetries = 4
	case p.MaxRetries < 0:
		p.MaxRetries = 0
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = time.Second
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 30 * time.Second
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = 2 * time.Minute
	}
	return p
}

// backoff returns the delay before retry number n (0 for the first).
func (p RetryPolicy) backoff(n int) time.Duration {
	d := p.BaseDelay
	for range n {
		if d > p.MaxDelay/2 {
			// Doubling would pass the cap, or overflow: 2⁶² ns doubled
			// was math.MinInt64, and rand.Int64N below panicked.
			d = p.MaxDelay
			break
		}
		d *= 2
	}
	d = min(d, p.MaxDelay)
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(d-half)+1))
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}

// Request is what Complete sends besides the Client's own settings.
type Request struct {
	// Messages is the whole conversation, system message first if any.
	Messages []Message
	// Tools is the tools spec table; none is sent when it is empty.
	Tools []openai.Tool
}

// Response is the model's answer to one request.
type Response struct {
	// Message is the assistant message: its text, its reasoning if the
	// model sent any, and its tool calls, each with an id and JSON
	// arguments ("{}" when the model sent none).
	Message Message
	// FinishReason is as the server sent it; it is informative only.
	FinishReason string
	// Usage is the token usage the server reported, if it did.
	Usage *Usage
	// Model is the model name the server reported.
	Model string
}

// transientError is a failure worth retrying that is not an HTTP answer: a
// connection error, a stream cut short or gone silent.
type transientError struct{ err error }

func (e *transientError) Error() string { return e.err.Error() }
func (e *transientError) Unwrap() error { return e.err }

var errIdle = errors.New("no data from the server")

// Complete sends req and returns the model's answer, retrying transient
// failures as c.Retry says. Text and reasoning deltas are sent to sink (if
// not nil) as they arrive, and so are retries.
//
// Streamed tool calls are assembled by index; see the package doc for the
// provider differences handled.
//
// A failure wraps an *APIError for an error answer, ErrStreamTruncated for
// a stream cut before [DONE], or the context's error when ctx ends; the API
// key never appears in it.
func (c *Client) Complete(ctx context.Context, req Request, sink Sink) (*Response, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if sink == nil {
		sink = func(Event) {}
	}
	p := c.Retry.withDefaults()
	retries := 0
	for attempt := 1; ; attempt++ {
		resp, delivered, err := c.attempt(ctx, req, sink, attempt)
		if err == nil {
			return resp, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("chat request: %w", context.Cause(ctx))
		}
		var apiErr *APIError
		if errors.As(err, &apiErr) && c.streaming() && c.sendStreamOptions() && mentionsStreamOptions(apiErr) {
			c.streamOptionsRejected.Store(true)
			c.logger().LogAttrs(ctx, slog.LevelDebug, "chat: endpoint rejects stream_options; sending again without it")
			continue
		}
		wait, ok := retryable(err)
		switch {
		case !ok:
			return nil, c.failed(err, retries)
		case delivered:
			return nil, c.failed(fmt.Errorf("%w (not retried: part of the answer was already shown)", err), retries)
		case retries >= p.MaxRetries:
			return nil, c.failed(err, retries)
		case wait > p.MaxRetryAfter:
			return nil, c.failed(fmt.Errorf("%w (the server asks to wait %s before retrying)", err, wait.Round(time.Second)), retries)
		}
		delay := wait
		if delay <= 0 {
			delay = p.backoff(retries)
		}
		retries++
		sink(Event{Type: EventRetry, Attempt: retries, Duration: delay, Error: err.Error()})
		c.logger().LogAttrs(ctx, slog.LevelDebug, "chat: retrying", slog.Int("retry", retries), slog.Duration("delay", delay), slog.String("error", err.Error()))
		if serr := c.wait(ctx, delay); serr != nil {
			return nil, fmt.Errorf("chat request: waiting to retry after %v: %w", err, serr)
		}
	}
}

// failed wraps the error that ended a request.
func (c *Client) failed(err error, retries int) error {
	if retries > 0 {
		return fmt.Errorf("chat request failed after %d retries: %w", retries, err)
	}
	return fmt.Errorf("chat request: %w", err)
}

// retryable reports whether err is worth retrying, and after how long the
// server asked.
func retryable(err error) (time.Duration, bool) {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.RetryAfter, apiErr.Retryable()
	}
	var te *transientError
	return 0, errors.As(err, &te)
}

func (c *Client) check() error {
	switch {
	case c == nil:
		return errors.New("chat: no client")
	case strings.TrimSpace(c.BaseURL) == "":
		return ErrNoBaseURL
	case strings.TrimSpace(c.Model) == "":
		return ErrNoModel
	}
	return nil
}

func (c *Client) streaming() bool { return !c.NoStream }

func (c *Client) sendStreamOptions() bool {
	return !c.NoStreamOptions && !c.streamOptionsRejected.Load()
}

// endpoint returns the chat completions URL: BaseURL's path with
// "/chat/completions" appended, its query (such as an api-version) kept.
func (c *Client) endpoint() string {
	base := strings.TrimSpace(c.BaseURL)
	u, err := url.Parse(base)
	if err != nil {
		u = &url.URL{Path: base}
	}
	p := strings.TrimRight(u.Path, "/")
	if !strings.HasSuffix(p, "/chat/completions") {
		p += "/chat/completions"
	}
	u.Path, u.RawPath = p, ""
	return u.String()
}

func (c *Client) httpClient() *http.Client {
	if c.HTTPClient != nil {
		return c.HTTPClient
	}
	return http.DefaultClient
}

// keptAtOrigin returns the HTTP client with a redirect policy that keeps
// the API key and the Client's Header at the endpoint's origin, its
// scheme, host and port: a redirect elsewhere is followed without them.
// The client's own CheckRedirect, or Go's limit of 10 redirects, still
// applies.
func (c *Client) keptAtOrigin() *http.Client {
	hc := *c.httpClient()
	names := []string{"Authorization"}
	for k := range c.Header {
		names = append(names, k)
	}
	hc.CheckRedirect = origin.CheckRedirect(hc.CheckRedirect, names...)
	return &hc
}

func (c *Client) logger() *slog.Logger {
	if c.Logger != nil {
		return c.Logger
	}
	return slog.New(slog.DiscardHandler)
}

func (c *Client) idleTimeout() time.Duration {
	switch {
	case c.StreamIdleTimeout < 0:
		return 0
	case c.StreamIdleTimeout == 0:
		return 5 * time.Minute
	}
	return c.StreamIdleTimeout
}

// coreFields are the request fields that Client.Extra cannot replace.
var coreFields = map[string]bool{"model": true, "messages": true, "tools": true, "stream": true}

// body returns the JSON body of req.
func (c *Client) body(req Request) ([]byte, error) {
	wr := wireRequest{Model: c.Model, Messages: wireMessages(req.Messages), Tools: req.Tools, Stream: c.streaming()}
	if c.streaming() && c.sendStreamOptions() {
		wr.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	b, err := json.Marshal(wr)
	if err != nil || len(c.Extra) == 0 {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, v := range c.Extra {
		if coreFields[k] {
			continue
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("extra field %q: %w", k, err)
		}
		m[k] = raw
	}
	return json.Marshal(m)
}

// attemptStats is what one attempt logs.
type attemptStats struct {
	status     int
	firstByte  time.Duration
	firstToken time.Duration
}

// attempt sends req once. delivered reports whether text was already sent
// to the sink, in which case the attempt must not be retried.
func (c *Client) attempt(ctx context.Context, req Request, sink Sink, n int) (resp *Response, delivered bool, err error) {
	start := time.Now()
	var st attemptStats
	defer func() {
		c.logAttempt(ctx, req, n, start, st, resp, err)
	}()

	body, err := c.body(req)
	if err != nil {
		return nil, false, fmt.Errorf("encoding the request: %w", err)
	}
	stream := c.streaming()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	touch := func() {}
	if idle := c.idleTimeout(); stream && idle > 0 {
		timer := time.AfterFunc(idle, func() { cancel(fmt.Errorf("%w for %s", errIdle, idle)) })
		defer timer.Stop()
		touch = func() { timer.Reset(idle) }
	}

	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint(), bytes.NewReader(body))
	if err != nil {
		return nil, false, redact.Error(fmt.Errorf("making the request: %w", err), c.APIKey)
	}
	for k, vs := range c.Header {
		for _, v := range vs {
			hr.Header.Add(k, v)
		}
	}
	hr.Header.Set("Content-Type", "application/json")
	if stream {
		hr.Header.Set("Accept", "text/event-stream")
	} else {
		hr.Header.Set("Accept", "application/json")
	}
	if c.APIKey != "" {
		hr.Header.Set("Authorization", "Bearer "+c.APIKey)
	}

	hresp, err := c.keptAtOrigin().Do(hr)
	if err != nil {
		return nil, false, c.connError(ctx, err)
	}
	defer hresp.Body.Close()
	touch()
	st.status = hresp.StatusCode
	st.firstByte = time.Since(start)

	if hresp.StatusCode < 200 || hresp.StatusCode > 299 {
		return nil, false, c.statusError(hresp)
	}
	ct := hresp.Header.Get("Content-Type")
	if !stream || strings.Contains(strings.ToLower(ct), "application/json") {
		// Asked for a whole answer, or the server ignored stream:true.
		resp, err := c.readWhole(ctx, hresp.Body, ct, sink)
		if resp != nil {
			st.firstToken = time.Since(start)
		}
		return resp, resp != nil, err
	}
	if isHTML(ct, "") {
		return nil, false, c.statusError(hresp)
	}
	sr := streamReader{client: c, touch: touch, sink: sink, onFirst: func() { st.firstToken = time.Since(start) }}
	resp, err = sr.read(hresp.Body)
	if err != nil {
		if ctx.Err() != nil {
			err = c.connError(ctx, err)
		}
		return nil, sr.delivered, err
	}
	return resp, sr.delivered, nil
}

// connError explains an error from sending a request or reading its
// answer: the parent context ending, the idle watchdog, or the connection.
func (c *Client) connError(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); cause != nil && errors.Is(cause, errIdle) {
		return &transientError{cause}
	}
	if ctx.Err() != nil {
		return redact.Error(err, c.APIKey)
	}
	return &transientError{redact.Error(fmt.Errorf("connection: %w", err), c.APIKey)}
}

// statusError reads an error answer into an *APIError.
func (c *Client) statusError(hresp *http.Response) error {
	b, _ := io.ReadAll(io.LimitReader(hresp.Body, maxErrorBody))
	e := &APIError{StatusCode: hresp.StatusCode, RetryAfter: retryAfter(hresp.Header, time.Now())}
	// Redact before parsing: parsing shortens long bodies, and a key cut
	// in two would no longer be found.
	e.parseErrorPayload([]byte(redact.String(string(b), c.APIKey)), hresp.Header.Get("Content-Type"))
	if e.Message == "" {
		e.Message = "(empty body)"
	}
	e.classify(c.Model, c.APIKey != "")
	return e
}

// maxWholeBody bounds a non-streamed answer.
const maxWholeBody = 64 << 20

// readWhole decodes a non-streamed answer and sends its text to the sink.
func (c *Client) readWhole(ctx context.Context, body io.Reader, contentType string, sink Sink) (*Response, error) {
	b, err := io.ReadAll(io.LimitReader(body, maxWholeBody))
	if err != nil {
		return nil, c.connError(ctx, err)
	}
	text := bytes.TrimSpace(b)
	if isHTML(contentType, string(text[:min(len(text), 64)])) {
		e := &APIError{StatusCode: http.StatusOK}
		e.parseErrorPayload(b[:min(len(b), maxErrorBody)], contentType)
		return nil, e
	}
	var wr wireResponse
	if err := json.Unmarshal(b, &wr); err != nil {
		return nil, fmt.Errorf("the answer is not JSON (%v): %q", err, shortRedacted(text, 200, c.APIKey))
	}
	if len(wr.Error) > 0 && string(wr.Error) != "null" {
		return nil, c.inBandError(b)
	}
	var choice *wireChoice
	for i := range wr.Choices {
		if wr.Choices[i].Index == 0 && wr.Choices[i].Message != nil {
			choice = &wr.Choices[i]
			break
		}
	}
	if choice == nil {
		return nil, fmt.Errorf("the answer has no choices: %q", shortRedacted(text, 200, c.APIKey))
	}
	m := choice.Message
	resp := &Response{Model: wr.Model, Usage: wr.Usage}
	if resp.Usage == nil {
		resp.Usage = choice.Usage
	}
	if choice.FinishReason != nil {
		resp.FinishReason = *choice.FinishReason
	}
	if len(m.ToolCalls) > MaxAnswerToolCalls {
		return nil, tooManyToolCalls()
	}
	resp.Message = Message{Role: RoleAssistant, Content: string(m.Content), ReasoningContent: m.ReasoningContent}
	seen := make(map[string]bool, len(m.ToolCalls))
	for _, tc := range m.ToolCalls {
		call := ToolCall{ID: string(tc.ID), Type: tc.Type, Function: FunctionCall{Name: tc.Function.Name, Arguments: string(tc.Function.Arguments)}}
		normalizeCall(&call, seen)
		resp.Message.ToolCalls = append(resp.Message.ToolCalls, call)
	}
	if r := reasoningText(m); r != "" {
		sink(Event{Type: EventReasoning, Text: r})
	}
	if resp.Message.Content != "" {
		sink(Event{Type: EventText, Text: resp.Message.Content})
	}
	return resp, nil
}

// maxModelsBody bounds the answer of /models.
const maxModelsBody = 4 << 20

// Models asks the endpoint for the names of its models (GET /models
// beside /chat/completions), in the order it lists them. It needs no
// Model; the API key goes with the request, to the endpoint's origin
// only, and never appears in an error.
func (c *Client) Models(ctx context.Context) ([]string, error) {
	if c == nil || strings.TrimSpace(c.BaseURL) == "" {
		return nil, ErrNoBaseURL
	}
	u, err := url.Parse(strings.TrimSpace(c.BaseURL))
	if err != nil {
		return nil, fmt.Errorf("base URL %q: %w", redact.String(c.BaseURL, c.APIKey), redact.Error(err, c.APIKey))
	}
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/chat/completions") + "/models"
	u.RawPath = ""
	where := redact.String(u.String(), c.APIKey)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("asking %s for its models: %w", where, redact.Error(err, c.APIKey))
	}
	for k, vs := range c.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	resp, err := c.keptAtOrigin().Do(req)
	if err != nil {
		return nil, fmt.Errorf("asking %s for its models: %w", where, redact.Error(err, c.APIKey))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxModelsBody))
	if err != nil {
		return nil, fmt.Errorf("asking %s for its models: %w", where, redact.Error(err, c.APIKey))
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("asking %s for its models: HTTP %d: %s", where, resp.StatusCode, shortRedacted(body, 200, c.APIKey))
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("asking %s for its models: the answer is not a model list (%v)", where, err)
	}
	ids := make([]string, 0, len(list.Data))
	for _, m := range list.Data {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	return ids, nil
}

// inBandError makes an *APIError of an error reported in a 200 answer or
// in a stream.
func (c *Client) inBandError(payload []byte) error {
	e := &APIError{}
	// No more of it than of an error status's body (statusError): an
	// endpoint that sent an error of 8 MiB in its stream had it redacted
	// whole (152 MB allocated) and made the message of the error returned.
	payload = payload[:min(len(payload), maxErrorBody)]
	e.parseErrorPayload([]byte(redact.String(string(payload), c.APIKey)), "application/json")
	e.classify(c.Model, c.APIKey != "")
	return e
}

func (c *Client) logAttempt(ctx context.Context, req Request, n int, start time.Time, st attemptStats, resp *Response, err error) {
	l := c.logger()
	if !l.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{
		slog.String("url", redact.String(c.endpoint(), c.APIKey)),
		slog.String("model", c.Model),
		slog.Bool("stream", c.streaming()),
		slog.Int("attempt", n),
		slog.Int("messages", len(req.Messages)),
		slog.Int("tools", len(req.Tools)),
		slog.Int("status", st.status),
		slog.Duration("duration", time.Since(start)),
		slog.Duration("first_byte", st.firstByte),
		slog.Duration("first_token", st.firstToken),
	}
	if resp != nil {
		attrs = append(attrs, slog.String("finish_reason", resp.FinishReason), slog.Int("tool_calls", len(resp.Message.ToolCalls)))
		if u := resp.Usage; u != nil {
			attrs = append(attrs, slog.Int("prompt_tokens", u.PromptTokens), slog.Int("completion_tokens", u.CompletionTokens), slog.Int("total_tokens", u.TotalTokens))
		}
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", redact.String(err.Error(), c.APIKey)))
	}
	l.LogAttrs(ctx, slog.LevelDebug, "chat request", attrs...)
}
