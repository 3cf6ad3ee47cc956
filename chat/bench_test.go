package chat

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
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
