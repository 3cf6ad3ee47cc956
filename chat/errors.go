package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/toolreg/toolreg/redact"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolreg/toolreg/internal/clip"
)

// ErrMaxSteps is wrapped by the error of a turn that reached
// Conversation.MaxSteps model requests without a final answer.
var ErrMaxSteps = errors.New("too many steps")

// ErrStreamTruncated is wrapped by the error of a streamed answer that ended
// without its "data: [DONE]" line: the connection was closed early.
var ErrStreamTruncated = errors.New("stream ended without [DONE]")

// ErrStreamTooLarge is wrapped by the error of a streamed answer larger
// than Client.MaxStreamBytes.
var ErrStreamTooLarge = errors.New("streamed answer too large")

// ErrTooManyToolCalls is wrapped by the error of an answer that asks for
// more than MaxAnswerToolCalls tool calls. It is not retried.
var ErrTooManyToolCalls = errors.New("too many tool calls in one answer")

// MaxAnswerToolCalls bounds the tool calls of one answer: far more than a
// model calls at once, far fewer than an answer of tens of megabytes
// holds. Each call asked for becomes a tool message sent back with the
// conversation, whether it runs or is past Conversation.MaxToolCalls, so
// an answer of a hundred thousand short calls would make the next
// request ten times its size.
const MaxAnswerToolCalls = 256

// tooManyToolCalls returns the error of an answer past MaxAnswerToolCalls.
func tooManyToolCalls() error {
	return fmt.Errorf("%w: the model asked for more than %d tool calls at once; ask again, or check the server", ErrTooManyToolCalls, MaxAnswerToolCalls)
}

// DefaultMaxStreamBytes is the default bound of a streamed answer: far
// more than any real answer, far less than the memory a runaway stream
// would take.
const DefaultMaxStreamBytes = 16 << 20

// APIError is an error answer of the chat completions endpoint, or an error
// reported inside a streamed answer (StatusCode 0 then).
// It is the endpoint's error, not a tool call's: a tool call's failure is
// a *registry.Error, which the conversation hands back to the model.
type APIError struct {
	// StatusCode is the HTTP status, 0 for an error inside a stream.
	StatusCode int
	// Type and Code are the fields of an {"error": {...}} body, if any.
	Type string
	Code string
	// Message is the server's message: the "message" of an
	// {"error": {...}} body, or else the body as the server sent it
	// (shortened).
	Message string
	// Cause is the likely cause, when the status and message tell it;
	// CauseUnknown otherwise. A program maps it to advice in its own terms
	// (which setting or flag to change).
	Cause Cause
	// Hint explains the likely cause in general terms, when known. It
	// names no setting of any program.
	Hint string
	// RetryAfter is the delay the server asked for (Retry-After or
	// retry-after-ms), zero if none.
	RetryAfter time.Duration

	retryable bool
}

// Cause is the likely cause of an [APIError].
type Cause uint8

// The causes an APIError can have.
const (
	// CauseUnknown: the status and message do not tell.
	CauseUnknown Cause = iota
	// CauseNotJSON: the server answered with an HTML page; the base URL
	// is likely wrong, or a proxy is in the way.
	CauseNotJSON
	// CauseQuota: the account's quota or balance is exhausted.
	CauseQuota
	// CauseKeyRefused: the API key sent was refused.
	CauseKeyRefused
	// CauseNoKey: no API key was sent, and the server wants one.
	CauseNoKey
	// CauseAccessDenied: the key may not use the model.
	CauseAccessDenied
	// CauseUnknownModel: the server knows no such model, or the endpoint
	// is wrong.
	CauseUnknownModel
	// CauseToolsUnsupported: the model or server does not accept tools.
	CauseToolsUnsupported
	// CauseTooLarge: the request is too large.
	CauseTooLarge
)

// Error returns the status, the server's message and the hint.
func (e *APIError) Error() string {
	var sb strings.Builder
	if e.StatusCode != 0 {
		fmt.Fprintf(&sb, "HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	} else {
		sb.WriteString("error in stream")
	}
	if e.Message != "" {
		sb.WriteString(": ")
		sb.WriteString(e.Message)
	}
	if e.Hint != "" {
		sb.WriteString(" (")
		sb.WriteString(e.Hint)
		sb.WriteString(")")
	}
	return sb.String()
}

// Retryable reports whether the request may succeed if sent again: HTTP
// 408, 409, 429 (except an exhausted quota) and 5xx.
func (e *APIError) Retryable() bool { return e.retryable }

// redactWindow is how much of a text shortRedacted reads to show its
// start.
const redactWindow = 64 << 10

// shortRedacted returns redact.Shorten(string(text), n, key), reading no
// more of text than the start it shows: a malformed chunk of 8 MiB was
// redacted whole (104 MB allocated) to quote 200 bytes of it. The start
// is redacted as the whole would be (a secret cut at the window's end is
// removed in part, or is past what is shown), unless redaction shrank it
// to near n, where the whole is read.
func shortRedacted(text []byte, n int, key string) string {
	if len(text) > redactWindow {
		if r := redact.String(string(text[:redactWindow]), key); len(r) > n+4<<10 {
			return redact.Shorten(r, n, key)
		}
	}
	return redact.Shorten(string(text), n, key)
}

// maxErrorBody bounds how much of an error body is read and shown.
const (
	maxErrorBody = 64 << 10
	maxShown     = 2000
)

// errorBody is the OpenAI form of an error body; "error" may also be a
// plain string.
type errorBody struct {
	Error json.RawMessage `json:"error"`
}

type errorDetail struct {
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
}

// parseErrorPayload fills e from body: an {"error": {...}} or
// {"error": "…"} body gives Message, Type and Code; anything else is shown
// as it is.
func (e *APIError) parseErrorPayload(body []byte, contentType string) {
	text := strings.TrimSpace(string(body))
	if isHTML(contentType, text) {
		e.Message = "the server answered with an HTML page" + htmlTitle(text) + " instead of JSON"
		e.Cause = CauseNotJSON
		e.Hint = "is the base URL right, or is a proxy in the way?"
		return
	}
	var eb errorBody
	if json.Unmarshal(body, &eb) == nil && len(eb.Error) > 0 && string(eb.Error) != "null" {
		var d errorDetail
		if json.Unmarshal(eb.Error, &d) == nil && d.Message != "" {
			e.Message, e.Type, e.Code = d.Message, d.Type, codeText(d.Code)
			return
		}
		var s string
		if json.Unmarshal(eb.Error, &s) == nil && s != "" {
			e.Message = s
			return
		}
	}
	e.Message = clip.String(text, maxShown)
}

// codeText returns a "code" field, a string or a number, as text.
func codeText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if string(raw) == "null" {
		return ""
	}
	return string(raw)
}

// classify sets the hint and whether e is worth retrying, from its status
// and message. model and hasKey describe the request.
func (e *APIError) classify(model string, hasKey bool) {
	if e.Cause == CauseNotJSON {
		e.retryable = e.StatusCode >= 500 || e.StatusCode == 429
		return
	}
	msg := strings.ToLower(e.Message + " " + e.Type + " " + e.Code)
	quota := strings.Contains(msg, "insufficient_quota") || strings.Contains(msg, "insufficient balance") ||
		strings.Contains(msg, "exceeded your current quota")
	switch {
	case quota || e.StatusCode == http.StatusPaymentRequired:
		e.Cause = CauseQuota
		e.Hint = "the account's quota or balance is exhausted: check its plan and billing; retrying will not help"
	case e.StatusCode == http.StatusUnauthorized:
		if hasKey {
			e.Cause, e.Hint = CauseKeyRefused, "the API key was refused"
		} else {
			e.Cause, e.Hint = CauseNoKey, "no API key was sent"
		}
	case e.StatusCode == http.StatusForbidden:
		e.Cause = CauseAccessDenied
		e.Hint = fmt.Sprintf("access denied: the key may not be allowed to use model %q", model)
	case modelUnknown(msg) || e.StatusCode == http.StatusNotFound:
		e.Cause = CauseUnknownModel
		e.Hint = fmt.Sprintf("unknown model %q or wrong endpoint", model)
	case toolsUnsupported(msg):
		e.Cause = CauseToolsUnsupported
		e.Hint = fmt.Sprintf("model %q does not accept tools/tool_choice here: choose a model with tool calling or enable tool calling on the server", model)
	case e.StatusCode == http.StatusRequestEntityTooLarge:
		e.Cause = CauseTooLarge
		e.Hint = "the request is too large: start a new conversation"
	}
	switch {
	case quota:
		e.retryable = false
	case e.StatusCode == http.StatusRequestTimeout, e.StatusCode == http.StatusConflict,
		e.StatusCode == http.StatusTooManyRequests, e.StatusCode >= 500:
		e.retryable = true
	case e.StatusCode == 0:
		// An error inside a stream: retry what looks transient.
		e.retryable = errorTexts().transient.MatchString(msg)
	}
}

// texts are the expressions that classify an error answer's message,
// compiled at the first error rather than at start-up.
type texts struct{ transient, model, tool, unsupported, title *regexp.Regexp }

var errorTexts = sync.OnceValue(func() *texts {
	return &texts{
		transient:   regexp.MustCompile(`server_error|overloaded|rate.?limit|timeout|timed out|try again|unavailable`),
		model:       regexp.MustCompile(`model.*(not exist|not found|does not exist|unknown|no such|invalid model|not supported)|(unknown|invalid|no such) model|model_not_found`),
		tool:        regexp.MustCompile(`tool|function.?call`),
		unsupported: regexp.MustCompile(`support|enable|not allowed|unrecognized|unknown|invalid|extra (inputs|fields)`),
		title:       regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`),
	}
})

func modelUnknown(msg string) bool {
	return errorTexts().model.MatchString(msg) && !errorTexts().tool.MatchString(msg)
}

func toolsUnsupported(msg string) bool {
	return errorTexts().tool.MatchString(msg) && errorTexts().unsupported.MatchString(msg)
}

// mentionsStreamOptions reports whether a 400 or 422 error is about the
// stream_options field, which some providers reject.
func mentionsStreamOptions(e *APIError) bool {
	if e.StatusCode != http.StatusBadRequest && e.StatusCode != http.StatusUnprocessableEntity {
		return false
	}
	m := strings.ToLower(e.Message)
	return strings.Contains(m, "stream_options") || strings.Contains(m, "include_usage")
}

// retryAfter reads retry-after-ms (OpenAI) or Retry-After, in seconds or an
// HTTP date, relative to now.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return waitOf(ms, time.Millisecond)
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if !(s > 0) {
			return 0 // NaN too
		}
		return waitOf(s, time.Second)
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// waitOf returns n units, or the longest time.Duration past it: the
// conversion of a float beyond int64 is math.MinInt64 on amd64, a wait
// below zero, which was retried at once after the backoff.
func waitOf(n float64, unit time.Duration) time.Duration {
	if d := n * float64(unit); d < math.MaxInt64 {
		return time.Duration(d)
	}
	return math.MaxInt64
}

// isHTML reports whether a body is an HTML page.
func isHTML(contentType, body string) bool {
	if strings.Contains(strings.ToLower(contentType), "text/html") {
		return true
	}
	lead := strings.ToLower(body[:min(len(body), 64)])
	return strings.HasPrefix(lead, "<!doctype html") || strings.HasPrefix(lead, "<html")
}

// htmlTitle returns ` ("title")` for a page that has a title.
func htmlTitle(page string) string {
	m := errorTexts().title.FindStringSubmatch(page)
	if m == nil {
		return ""
	}
	t := strings.Join(strings.Fields(m[1]), " ")
	if t == "" {
		return ""
	}
	return fmt.Sprintf(" (%q)", clip.String(t, 120))
}
