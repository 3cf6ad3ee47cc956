package chat

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sashabaranov/go-openai"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/telemetry/fromenv"
)

// BenchmarkParallelToolCalls measures one turn in which the model calls a
// tool that takes 100ms N times at once, then answers: since the calls run
// concurrently, a turn takes about 100ms whatever N (plus the two requests
// to the loopback server), where running them one after the other would
// take N×100ms. The time per turn is ns/op, also reported as ms/turn.
func BenchmarkParallelToolCalls(b *testing.B) {
	const callTime = 100 * time.Millisecond
	for _, n := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			var calls []string
			for i := range n {
				calls = append(calls, callStart(i, fmt.Sprintf("call_%d", i), "sleep"), callArgs(i, `{}`))
			}
			askTools := sse(append(calls, finish("tool_calls"))...)
			done := answer("done")
			// A stateless server: tool calls for a new turn, the answer once
			// the tools have answered.
			f := newFake(b)
			f.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, err := io.ReadAll(r.Body)
				if err != nil {
					b.Error(err)
				}
				if strings.Contains(string(body), `"role":"tool"`) {
					done(w, r)
				} else {
					askTools(w, r)
				}
			})
			tools := &fakeTools{fns: map[string]func(context.Context, map[string]any) (string, error){
				"sleep": func(ctx context.Context, _ map[string]any) (string, error) {
					time.Sleep(callTime)
					return "slept", nil
				},
			}}
			conv := &Conversation{Client: f.client(nil), Tools: tools}
			ctx := context.Background()
			start := time.Now()
			for b.Loop() {
				conv.Reset()
				if _, err := conv.Turn(ctx, "go"); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N), "ms/turn")
		})
	}
}

// nopTools answers every call at once, without recording it, so that a
// benchmark sees the conversation's own cost of a tool call.
type nopTools struct{}

func (nopTools) Specs() []openai.Tool { return nil }

func (nopTools) Call(context.Context, string, string) registry.Result {
	return registry.Result{Text: "ok", Duration: time.Microsecond}
}

// BenchmarkRunTools measures the tool path of a turn: two calls run
// through runTools, without a model request. Its allocs/op is the figure
// to compare with telemetry off and on: off must cost nothing.
func BenchmarkRunTools(b *testing.B) {
	calls := []ToolCall{
		{ID: "call_1", Type: "function", Function: FunctionCall{Name: "a", Arguments: `{}`}},
		{ID: "call_2", Type: "function", Function: FunctionCall{Name: "b", Arguments: `{"x":1}`}},
	}
	for _, tc := range benchTelemetry(b) {
		b.Run(tc.name, func(b *testing.B) {
			conv := &Conversation{Client: &Client{BaseURL: "http://127.0.0.1:1", Model: testModel}, Tools: nopTools{}}
			tc.set(conv)
			ctx := context.Background()
			em := &emitter{}
			b.ReportAllocs()
			for b.Loop() {
				budget := 64
				conv.runTools(ctx, calls, &budget, em)
			}
		})
	}
}

// benchTelemetry lists the telemetry settings a benchmark runs under:
// none, off as Setup returns it with no OTEL_* variable set, and on with an
// in-memory recorder.
func benchTelemetry(testing.TB) []struct {
	name string
	set  func(*Conversation)
} {
	on := func(c *Conversation) {
		c.Telemetry = newTelemetryRecorder(false).p
		c.tel = newInstruments(c)
	}
	off := func(c *Conversation) {
		p, _, err := fromenv.Setup(context.Background(), func(string) string { return "" })
		if err != nil {
			panic(err)
		}
		c.Telemetry = p
		c.tel = newInstruments(c)
	}
	return []struct {
		name string
		set  func(*Conversation)
	}{{"telemetry=none", func(*Conversation) {}}, {"telemetry=off", off}, {"telemetry=on", on}}
}
