package chat

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sashabaranov/go-openai"
	"github.com/toolreg/toolreg/internal/clip"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/telemetry"
	"github.com/toolreg/toolreg/tool"
)

// The defaults of a Conversation's bounds.
const (
	DefaultMaxSteps     = 16
	DefaultMaxToolCalls = 64
)

// Conversation is a conversation with a model that may call tools. It keeps
// the messages across turns. Set its fields before the first turn; its
// methods are safe for concurrent use: turns run one at a time, and
// Messages and Reset wait for a running turn to end.
type Conversation struct {
	// Client is the endpoint. Required.
	Client *Client
	// Tools are the tools offered to the model; none when nil.
	Tools registry.ToolSet
	// System is the system message sent first with every request, if not
	// empty. It is not part of Messages.
	System string
	// Session identifies the conversation to the tools (tool.Call.Session).
	Session string
	// MaxSteps bounds the model requests of one turn; DefaultMaxSteps when
	// zero or less. A turn still asking for tools after that many requests
	// fails with ErrMaxSteps.
	MaxSteps int
	// MaxToolCalls bounds the tool calls run in one turn;
	// DefaultMaxToolCalls when zero or less. Calls past it are not run: the
	// model is told so in their tool messages.
	MaxToolCalls int
	// Images shows the model the images tools answer with
	// (registry.Result.Media, such as a mounted MCP server's
	// screenshots), for an endpoint whose model takes image input. The
	// chat completions API takes images in user messages only: after the
	// tool messages of a step comes one user message with the images of
	// its calls, each call's labelled with its id. An image is shown for
	// the rest of its turn; the conversation keeps its description. At
	// most MaxImagesPerTurn images of at most MaxImageBytes each and
	// MaxImageBytesPerTurn in all are shown, PNG, JPEG, GIF and WebP
	// whose content is of their type; each other one, and audio, is
	// described with the reason in its tool message. An endpoint that
	// refuses a request for its images (400, 413 or 422 speaking of
	// images: a model that takes none) gets it again with their
	// descriptions, and the conversation shows no more. When false, the
	// tools' text alone describes them.
	Images bool
	// Sink receives the events of each turn; none when nil.
	Sink Sink
	// Telemetry, when enabled, traces each turn (span invoke_agent), each
	// model request (chat MODEL) and each tool call (execute_tool NAME)
	// and records gen_ai.client.operation.duration and
	// gen_ai.client.token.usage, after the OpenTelemetry GenAI semantic
	// conventions. Off, and free, when nil or disabled.
	Telemetry *telemetry.Providers
	// Provider is the gen_ai.provider.name of the Client's endpoint, such
	// as "deepseek" or "openai"; DefaultProvider when empty.
	Provider string

	// imageBounds bound the images of a turn; defaultImageBounds when
	// zero.
	imageBounds imageBounds
	// imagesRefused is set once the endpoint refused a request that
	// showed images (see refusedImages): none is shown after. Under mu.
	imagesRefused bool

	mu    sync.Mutex
	msgs  []Message
	usage Usage
	// tel is made on the first turn; nil while telemetry is off.
	tel     *instruments
	telOnce sync.Once
}

// Turn sends the user's text, runs the tools the model calls until it
// answers without tool calls, and returns that answer. If the turn fails,
// the conversation is left as it was before it, and the error is also
// reported to the Sink as an EventError.
func (c *Conversation) Turn(ctx context.Context, userText string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	em := &emitter{sink: c.Sink}
	c.telOnce.Do(func() { c.tel = newInstruments(c) })
	before := c.usage
	ctx, span := c.tel.startTurn(ctx, c.Session)
	answer, msgs, err := c.turn(ctx, userText, em)
	span.endTurn(c.usage.sub(before), err)
	if err != nil {
		em.emit(Event{Type: EventError, Step: em.step, Error: err.Error()})
		return "", err
	}
	c.msgs = msgs
	return answer, nil
}

func (c *Conversation) turn(ctx context.Context, userText string, em *emitter) (string, []Message, error) {
	if c.Client == nil {
		return "", nil, errors.New("chat: conversation has no client")
	}
	maxSteps := c.MaxSteps
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps
	}
	budget := c.MaxToolCalls
	if budget <= 0 {
		budget = DefaultMaxToolCalls
	}
	msgs := append(slices.Clip(c.msgs), Message{Role: RoleUser, Content: userText})
	images := turnImages{bounds: cmp.Or(c.imageBounds, defaultImageBounds), refused: c.imagesRefused}
	for step := 1; step <= maxSteps; step++ {
		em.step = step
		// The specs are read for each request: a tool set may grow
		// between two (see package deferred).
		var specs []openai.Tool
		if c.Tools != nil {
			specs = c.Tools.Specs()
		}
		rctx, span := c.tel.startChat(ctx)
		resp, err := c.Client.Complete(rctx, Request{Messages: c.withSystem(msgs), Tools: specs}, em.emit)
		span.endChat(rctx, resp, err)
		if err != nil && refusedImages(err, msgs) {
			// A model that takes no images, or an image it cannot
			// read: the request is sent again with the images'
			// descriptions, and the conversation shows no more.
			c.imagesRefused, images.refused = true, true
			msgs = withoutImages(msgs)
			em.emit(Event{Type: EventRetry, Attempt: 1, Error: "the endpoint refused the images; sending the request again without them: " + err.Error()})
			rctx, span = c.tel.startChat(ctx)
			resp, err = c.Client.Complete(rctx, Request{Messages: c.withSystem(msgs), Tools: specs}, em.emit)
			span.endChat(rctx, resp, err)
		}
		if err != nil {
			return "", nil, fmt.Errorf("turn step %d: %w", step, err)
		}
		if resp.Usage != nil {
			c.usage = c.usage.Add(*resp.Usage)
			em.emit(Event{Type: EventUsage, Usage: resp.Usage})
		}
		msg := resp.Message
		msg.Role = RoleAssistant
		if len(msg.ToolCalls) == 0 {
			// Reasoning is only needed back on messages that made tool
			// calls; leave it out of the others.
			msg.ReasoningContent = nil
			msgs = append(msgs, msg)
			em.emit(Event{Type: EventAnswer, Text: msg.Content})
			return msg.Content, withoutImages(msgs), nil
		}
		msgs = append(msgs, msg)
		if step == maxSteps {
			break
		}
		tools, results := c.runTools(ctx, msg.ToolCalls, &budget, em)
		msgs = append(msgs, tools...)
		if c.Images {
			if m, ok := images.showImages(msg.ToolCalls, msgs[len(msgs)-len(tools):], results); ok {
				msgs = append(msgs, m)
			}
		}
		if err := ctx.Err(); err != nil {
			return "", nil, fmt.Errorf("turn step %d: %w", step, context.Cause(ctx))
		}
	}
	return "", nil, fmt.Errorf("%w: the model still asked for tools after %d requests (MaxSteps)", ErrMaxSteps, maxSteps)
}

// withSystem returns msgs with the system message first, if any.
func (c *Conversation) withSystem(msgs []Message) []Message {
	if c.System == "" {
		return msgs
	}
	out := make([]Message, 0, len(msgs)+1)
	out = append(out, Message{Role: RoleSystem, Content: c.System})
	return append(out, msgs...)
}

// maxToolNameShown bounds the name (and in a span, the id) of a tool call
// the model sent where it is quoted (a message, a span's name and
// attributes): a model can send a name or id of any size, which no tool
// or provider's id has; the call itself keeps both whole.
const maxToolNameShown = 80

// runTools runs calls concurrently, at most *budget of them, and returns
// one tool message per call, in the calls' order; with Images, also the
// results of the calls run (the zero Result for the others), nil without.
func (c *Conversation) runTools(ctx context.Context, calls []ToolCall, budget *int, em *emitter) ([]Message, []registry.Result) {
	out := make([]Message, len(calls))
	results := c.resultSlots(len(calls))
	// Announce every call, in the model's order, before any result.
	for _, tc := range calls {
		em.emit(Event{Type: EventToolCall, CallID: tc.ID, Tool: tc.Function.Name, Args: tc.Function.Arguments})
	}
	var wg sync.WaitGroup
	for i, tc := range calls {
		if *budget <= 0 {
			text := fmt.Sprintf("Error: %s was not run: this turn reached its limit of tool calls; answer with what you have", clip.String(tc.Function.Name, maxToolNameShown))
			out[i] = Message{Role: RoleTool, Content: text, ToolCallID: tc.ID}
			em.emit(Event{Type: EventToolResult, CallID: tc.ID, Tool: tc.Function.Name, Args: tc.Function.Arguments, Result: text, Error: "tool call limit reached"})
			continue
		}
		*budget--
		wg.Go(func() {
			cctx, span := c.tel.startTool(ctx, tc)
			res := c.call(cctx, tc)
			span.endTool(res)
			if results != nil {
				results[i] = res
			}
			out[i] = Message{Role: RoleTool, Content: res.Text, ToolCallID: tc.ID}
			ev := Event{Type: EventToolResult, CallID: tc.ID, Tool: tc.Function.Name, Args: tc.Function.Arguments, Result: res.Text, Duration: res.Duration}
			if res.Err != nil {
				ev.Error = res.Err.Error()
			}
			em.emit(ev)
			c.Client.logger().LogAttrs(ctx, slog.LevelDebug, "chat: tool call",
				slog.String("tool", tc.Function.Name), slog.String("id", tc.ID),
				slog.Duration("duration", res.Duration), slog.Bool("failed", res.Err != nil))
		})
	}
	wg.Wait()
	return out, results
}

// resultSlots returns room for the results of n calls when they are read
// for their images, nil otherwise.
func (c *Conversation) resultSlots(n int) []registry.Result {
	if !c.Images {
		return nil
	}
	return make([]registry.Result, n)
}

// call runs one tool call with its id and name in the context. A panic or
// a result breaking the registry.ToolSet contract becomes an "Error:" result.
func (c *Conversation) call(ctx context.Context, tc ToolCall) (res registry.Result) {
	start := time.Now()
	name := tc.Function.Name
	defer func() {
		if p := recover(); p != nil {
			res = registry.Fail(&registry.Error{Tool: name, Kind: registry.KindPanic, Err: fmt.Errorf("%v", p)})
		}
		if res.Err != nil && !strings.HasPrefix(res.Text, "Error:") {
			res.Text = registry.Text(res.Err)
		}
		if res.Duration == 0 {
			res.Duration = time.Since(start)
		}
	}()
	if c.Tools == nil {
		return registry.Fail(&registry.Error{Tool: name, Kind: registry.KindUnknownTool, Err: errors.New("no tools are available")})
	}
	ctx = tool.WithCall(ctx, tool.Call{ID: tc.ID, Tool: name, Caller: tool.CallerAgent, Session: c.Session})
	return c.Tools.Call(ctx, name, tc.Function.Arguments)
}

// Reset forgets the messages of the conversation; its settings and usage
// stay.
func (c *Conversation) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = nil
}

// Messages returns a copy of the conversation's messages, without the
// system message.
func (c *Conversation) Messages() []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Message, len(c.msgs))
	for i, m := range c.msgs {
		m.ToolCalls = slices.Clone(m.ToolCalls)
		m.Parts = slices.Clone(m.Parts)
		if m.ReasoningContent != nil {
			r := *m.ReasoningContent
			m.ReasoningContent = &r
		}
		out[i] = m
	}
	return out
}

// Usage returns the token usage of every request of the conversation's
// turns, failed turns included, as the server reported it.
func (c *Conversation) Usage() Usage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.usage
}

// emitter serializes the events of one turn and stamps them with the step.
type emitter struct {
	mu   sync.Mutex
	sink Sink
	step int
}

func (e *emitter) emit(ev Event) {
	if e.sink == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if ev.Step == 0 {
		ev.Step = e.step
	}
	e.sink(ev)
}
