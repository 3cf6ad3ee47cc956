package chat

import (
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/toolreg/toolreg/internal/clip"
)

// EventType names what an Event reports.
type EventType string

// The types of events.
const (
	// EventText is a piece of the answer's text, as it streams (the whole
	// text at once when not streaming). Text preceding tool calls is
	// reported too.
	EventText EventType = "text"
	// EventReasoning is a piece of the model's reasoning, as it streams.
	EventReasoning EventType = "reasoning"
	// EventToolCall is a tool call about to run: CallID, Tool, Args.
	EventToolCall EventType = "tool_call"
	// EventToolResult is the outcome of a tool call: CallID, Tool, Args,
	// Result (the text the model receives; with Conversation.Images, a
	// note on each of the result's images follows it there, once the
	// step's calls are all done), Error if the call failed, and
	// Duration. Results are reported as the calls finish.
	EventToolResult EventType = "tool_result"
	// EventUsage is the token usage of one model request.
	EventUsage EventType = "usage"
	// EventRetry is a failed request about to be sent again: Attempt is
	// the retry's number, Duration the wait before it, Error the failure.
	EventRetry EventType = "retry"
	// EventAnswer is the final answer of a turn, in Text.
	EventAnswer EventType = "answer"
	// EventError is the error that ended a turn, in Error.
	EventError EventType = "error"
)

// Event is one thing that happened during a turn. Which fields are set
// depends on Type.
type Event struct {
	Type EventType `json:"type"`
	// Step is the number of the model request in the turn, from 1.
	Step int `json:"step,omitempty"`
	// Text is a text or reasoning delta, or the final answer.
	Text string `json:"text,omitempty"`
	// CallID, Tool and Args describe a tool call.
	CallID string `json:"id,omitempty"`
	Tool   string `json:"tool,omitempty"`
	Args   string `json:"args,omitempty"`
	// Result is the text a tool call answered the model.
	Result string `json:"result,omitempty"`
	// Error is a failure: of a tool call, a request, or the turn.
	Error string `json:"error,omitempty"`
	// Duration is how long a tool call took, or the wait before a retry.
	// It is marshalled as "duration_ms".
	Duration time.Duration `json:"-"`
	// Attempt is the number of a retry, from 1.
	Attempt int `json:"attempt,omitempty"`
	// Usage is the token usage of a request.
	Usage *Usage `json:"usage,omitempty"`
}

// MarshalJSON encodes e with its Duration as "duration_ms".
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	out := struct {
		plain
		DurationMS *float64 `json:"duration_ms,omitempty"`
	}{plain: plain(e)}
	if e.Duration > 0 {
		ms := float64(e.Duration.Microseconds()) / 1000
		out.DurationMS = &ms
	}
	return json.Marshal(out)
}

// Sink receives the events of a conversation. A Conversation calls its
// Sink from one goroutine at a time, so a Sink needs no locking of its own
// unless it is shared.
type Sink func(Event)

// JSONLines returns a Sink that writes each event to w as one JSON object
// on one line. Write errors are ignored. The C1 controls and the controls
// of bidirectional text in its strings are written as \u escapes (see
// clip.JSON): a terminal that shows the events does not act on them.
func JSONLines(w io.Writer) Sink {
	var mu sync.Mutex
	return func(e Event) {
		b, err := json.Marshal(e)
		if err != nil {
			return
		}
		b = clip.JSON(b)
		mu.Lock()
		defer mu.Unlock()
		_, _ = w.Write(append(b, '\n'))
	}
}
