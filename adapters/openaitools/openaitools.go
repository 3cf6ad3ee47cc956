// Package openaitools connects a toolreg tool set to the official OpenAI Go
// SDK (github.com/openai/openai-go/v3): [Params] turns the tool set's spec
// table into the SDK's tool params, and [Run] runs the tool calls of a
// chat completion message through the tool set and returns the tool
// messages to send back.
//
// It is a module of its own, so that only programs that use the SDK
// download it.
//
// Every call goes through the tool set's Call: the same strict decoding,
// limits, timeout, confirmation and logging as in toolreg's own chat loop.
// A failed call is answered with the tool set's "Error: …" text, so the
// model reads what went wrong and can correct itself.
package openaitools

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/openai/openai-go/v3"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// Params returns the tool params of every tool of t, in the order of its
// spec table, for openai.ChatCompletionNewParams.Tools.
func Params(t registry.ToolSet) ([]openai.ChatCompletionToolUnionParam, error) {
	specs := t.Specs()
	out := make([]openai.ChatCompletionToolUnionParam, 0, len(specs))
	for _, s := range specs {
		if s.Function == nil {
			return nil, fmt.Errorf("openaitools: a spec of type %q has no function", s.Type)
		}
		params, err := parameters(s.Function.Parameters)
		if err != nil {
			return nil, fmt.Errorf("openaitools: tool %s: parameters: %w", s.Function.Name, err)
		}
		f := openai.FunctionDefinitionParam{Name: s.Function.Name, Parameters: params}
		if s.Function.Description != "" {
			f.Description = openai.String(s.Function.Description)
		}
		out = append(out, openai.ChatCompletionFunctionTool(f))
	}
	return out, nil
}

// parameters reads a spec's JSON Schema into the SDK's form.
func parameters(p any) (openai.FunctionParameters, error) {
	var raw []byte
	switch p := p.(type) {
	case json.RawMessage:
		raw = p
	case []byte:
		raw = p
	default:
		b, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	var out openai.FunctionParameters
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	if out == nil {
		return nil, fmt.Errorf("not a JSON object: %s", raw)
	}
	return out, nil
}

// Run runs the tool calls of msg, an assistant message of a chat
// completion, through t, all at once, and returns one tool message per
// call in the order of the calls, to append to the conversation after
// msg.ToParam(). A call that is not a function call (a custom tool) is
// answered with an error text. It returns nil when msg has no tool calls.
func Run(ctx context.Context, t registry.ToolSet, msg openai.ChatCompletionMessage) []openai.ChatCompletionMessageParamUnion {
	calls := msg.ToolCalls
	if len(calls) == 0 {
		return nil
	}
	out := make([]openai.ChatCompletionMessageParamUnion, len(calls))
	var wg sync.WaitGroup
	for i, c := range calls {
		if c.Type != "function" {
			err := &registry.Error{Tool: c.Custom.Name, Kind: registry.KindUnknownTool,
				Err: fmt.Errorf("only function tools are offered, not %q tools", c.Type)}
			out[i] = openai.ToolMessage(registry.Text(err), c.ID)
			continue
		}
		wg.Go(func() {
			cctx := tool.WithCall(ctx, tool.Call{ID: c.ID, Tool: c.Function.Name, Caller: tool.CallerOpenAI})
			res := t.Call(cctx, c.Function.Name, c.Function.Arguments)
			out[i] = openai.ToolMessage(res.Text, c.ID)
		})
	}
	wg.Wait()
	return out
}
