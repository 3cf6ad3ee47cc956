// Package anthropictools connects a toolreg tool set to Anthropic's Go SDK
// (github.com/anthropics/anthropic-sdk-go/v2): [Params] turns the tool
// set's spec table into the SDK's tools, each with its JSON Schema as
// input_schema, and [Run] runs the tool_use blocks of a message through
// the tool set and returns the user message of tool_result blocks to send
// back, with is_error set on failures.
//
// It is a module of its own, so that only programs that use the SDK
// download it.
//
// Every call goes through the tool set's Call: the same strict decoding,
// limits, timeout, confirmation and logging as in toolreg's own chat loop.
// A failed call is answered with the tool set's "Error: …" text, so the
// model reads what went wrong and can correct itself.
package anthropictools

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// Params returns the tools of t, in the order of its spec table, for
// anthropic.MessageNewParams.Tools. Each tool's input_schema is its
// parameters' JSON Schema: properties and required as the SDK's fields,
// every other keyword (additionalProperties, say) kept as it is.
func Params(t registry.ToolSet) ([]anthropic.ToolUnionParam, error) {
	specs := t.Specs()
	out := make([]anthropic.ToolUnionParam, 0, len(specs))
	for _, s := range specs {
		if s.Function == nil {
			return nil, fmt.Errorf("anthropictools: a spec of type %q has no function", s.Type)
		}
		schema, err := inputSchema(s.Function.Parameters)
		if err != nil {
			return nil, fmt.Errorf("anthropictools: tool %s: parameters: %w", s.Function.Name, err)
		}
		tp := anthropic.ToolParam{Name: s.Function.Name, InputSchema: schema}
		if s.Function.Description != "" {
			tp.Description = anthropic.String(s.Function.Description)
		}
		out = append(out, anthropic.ToolUnionParam{OfTool: &tp})
	}
	return out, nil
}

// inputSchema reads a spec's JSON Schema, an object schema, into the
// SDK's form.
func inputSchema(p any) (anthropic.ToolInputSchemaParam, error) {
	var raw []byte
	switch p := p.(type) {
	case json.RawMessage:
		raw = p
	case []byte:
		raw = p
	default:
		b, err := json.Marshal(p)
		if err != nil {
			return anthropic.ToolInputSchemaParam{}, err
		}
		raw = b
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return anthropic.ToolInputSchemaParam{}, fmt.Errorf("not a JSON object: %s", raw)
	}
	var typ string
	if err := json.Unmarshal(m["type"], &typ); err != nil || typ != "object" {
		return anthropic.ToolInputSchemaParam{}, fmt.Errorf(`type %s, want "object"`, m["type"])
	}
	var s anthropic.ToolInputSchemaParam
	if p, ok := m["properties"]; ok {
		s.Properties = p
	}
	if r, ok := m["required"]; ok {
		if err := json.Unmarshal(r, &s.Required); err != nil {
			return anthropic.ToolInputSchemaParam{}, fmt.Errorf("required: %w", err)
		}
	}
	for k, v := range m {
		if k == "type" || k == "properties" || k == "required" {
			continue
		}
		if s.ExtraFields == nil {
			s.ExtraFields = map[string]any{}
		}
		s.ExtraFields[k] = v
	}
	return s, nil
}

// Run runs the tool_use blocks of msg, a message of the model, through t,
// all at once, and returns the user message to send back: one tool_result
// block per tool_use block, in their order, with the tool's text, and
// is_error set when the call failed. ok is false when msg has no tool_use
// block.
func Run(ctx context.Context, t registry.ToolSet, msg *anthropic.Message) (reply anthropic.MessageParam, ok bool) {
	var uses []anthropic.ToolUseBlock
	for _, b := range msg.Content {
		if b.Type == "tool_use" {
			uses = append(uses, b.AsToolUse())
		}
	}
	if len(uses) == 0 {
		return anthropic.MessageParam{}, false
	}
	blocks := make([]anthropic.ContentBlockParamUnion, len(uses))
	var wg sync.WaitGroup
	for i, u := range uses {
		wg.Go(func() {
			cctx := tool.WithCall(ctx, tool.Call{ID: u.ID, Tool: u.Name, Caller: tool.CallerAnthropic})
			res := t.Call(cctx, u.Name, string(u.Input))
			blocks[i] = anthropic.NewToolResultBlock(u.ID, res.Text, res.Failed())
		})
	}
	wg.Wait()
	return anthropic.NewUserMessage(blocks...), true
}
