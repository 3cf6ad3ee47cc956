package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestTooManyToolCallsInOneAnswer: an answer asking for more tool calls
// than MaxAnswerToolCalls fails the turn, streamed or whole, without a
// second request: an endpoint answered 2.9 MB of 100,000 calls of
// {"function":{"name":"echo"}}, and the conversation kept 100,000 tool
// messages (each "Error: … was not run", past the turn's 64), traced
// 200,000 events and sent them back in a request of 27 MB: tenfold, and
// again at each of the turn's 16 steps. An answer of MaxAnswerToolCalls
// calls is taken.
func TestTooManyToolCallsInOneAnswer(t *testing.T) {
	calls := func(n int, stream bool) reply {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			if stream {
				fmt.Fprintf(&b, `{"index":%d,"id":"c%d","function":{"name":"echo","arguments":"{}"}}`, i, i)
			} else {
				fmt.Fprintf(&b, `{"id":"c%d","function":{"name":"echo","arguments":"{}"}}`, i)
			}
		}
		if stream {
			return sse(chunk(`{"role":"assistant","tool_calls":[`+b.String()+`]}`), finish("tool_calls"))
		}
		return jsonReply(200, completion(`{"role":"assistant","content":null,"tool_calls":[`+b.String()+`]}`, "tool_calls"))
	}
	for _, stream := range []bool{true, false} {
		done := answer("done")
		if !stream {
			done = jsonReply(200, completion(`{"role":"assistant","content":"done"}`, "stop"))
		}
		for _, n := range []int{MaxAnswerToolCalls + 1, 100000} {
			f := newFake(t, calls(n, stream), done)
			c := f.client(nil)
			c.NoStream = !stream
			var evs events
			conv := &Conversation{Client: c, Tools: echoTools(), Sink: evs.sink}
			_, err := conv.Turn(context.Background(), "go")
			if !errors.Is(err, ErrTooManyToolCalls) {
				t.Errorf("stream %v, %d calls: error %v, want ErrTooManyToolCalls", stream, n, err)
			}
			if got := len(f.requests()); got != 1 {
				t.Errorf("stream %v, %d calls: %d requests, want 1", stream, n, got)
			}
			if got := len(evs.ofType(EventToolCall)); got != 0 {
				t.Errorf("stream %v, %d calls: %d calls traced, want none", stream, n, got)
			}
			if got := len(conv.Messages()); got != 0 {
				t.Errorf("stream %v, %d calls: the conversation kept %d messages", stream, n, got)
			}
		}
		f := newFake(t, calls(MaxAnswerToolCalls, stream), done)
		c := f.client(nil)
		c.NoStream = !stream
		conv := &Conversation{Client: c, Tools: echoTools(), MaxToolCalls: MaxAnswerToolCalls}
		if got, err := conv.Turn(context.Background(), "go"); err != nil || got != "done" {
			t.Errorf("stream %v, %d calls: answer %q, %v; want done", stream, MaxAnswerToolCalls, got, err)
		}
	}
}
