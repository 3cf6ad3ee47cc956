package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"charm.land/fantasy"
	"github.com/bytedance/sonic"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolreg/toolreg/bench/toolbox"
)

// The arguments of the dispatch benchmark: a valid call, and one that
// leaves out the required field.
const (
	goodArgs = `{"city":"Berlin","days":3,"units":"celsius"}`
	badArgs  = `{"days":3,"units":"celsius"}`
	want     = "Berlin: 3 days in celsius"
)

// check is the validation a careful hand-written tool does after a general
// decoder: the same constraints as the schema, in plain Go. An empty city
// counts as missing, as it would in most hand-written code.
func check(a *toolbox.WeatherArgs) error {
	if a.City == "" {
		return errors.New(`field "city": required, but missing`)
	}
	if a.Days != 0 && (a.Days < 1 || a.Days > 16) {
		return fmt.Errorf(`field "days": expected integer from 1 to 16, got %d`, a.Days)
	}
	if a.Units != "" && a.Units != "celsius" && a.Units != "fahrenheit" {
		return fmt.Errorf(`field "units": expected one of "celsius", "fahrenheit", got %q`, a.Units)
	}
	return nil
}

// direct is the floor: encoding/json, the checks, the body.
func direct(ctx context.Context, data []byte) (string, error) {
	var a toolbox.WeatherArgs
	if err := json.Unmarshal(data, &a); err != nil {
		return "", err
	}
	if err := check(&a); err != nil {
		return "", err
	}
	return toolbox.Forecast(a.City, a.Days, a.Units), nil
}

// viaSonic is the same with a fast general decoder.
func viaSonic(ctx context.Context, data []byte) (string, error) {
	var a toolbox.WeatherArgs
	if err := sonic.Unmarshal(data, &a); err != nil {
		return "", err
	}
	if err := check(&a); err != nil {
		return "", err
	}
	return toolbox.Forecast(a.City, a.Days, a.Units), nil
}

// contender is one way of dispatching a call: call runs the tool with the
// arguments text and returns its answer or error.
type contender struct {
	name  string
	setup func(tb testing.TB) func(args string) (string, error)
}

func contenders() []contender {
	ctx := context.Background()
	return []contender{
		{"direct", func(b testing.TB) func(string) (string, error) {
			return func(args string) (string, error) { return direct(ctx, []byte(args)) }
		}},
		{"generated", func(b testing.TB) func(string) (string, error) {
			e, ok := Toolbox().Lookup("weather")
			if !ok {
				b.Fatal("no weather tool")
			}
			return func(args string) (string, error) {
				run, err := e.Bind(args)
				if err != nil {
					return "", err
				}
				return run(ctx)
			}
		}},
		{"call", func(b testing.TB) func(string) (string, error) {
			reg := Toolbox()
			return func(args string) (string, error) {
				res := reg.Call(ctx, "weather", args)
				return res.Text, res.Err
			}
		}},
		{"sonic", func(b testing.TB) func(string) (string, error) {
			return func(args string) (string, error) { return viaSonic(ctx, []byte(args)) }
		}},
		{"fantasy", func(b testing.TB) func(string) (string, error) {
			t := fantasy.NewAgentTool("weather", weatherDescription(b),
				func(ctx context.Context, a toolbox.WeatherArgs, call fantasy.ToolCall) (fantasy.ToolResponse, error) {
					if err := check(&a); err != nil {
						return fantasy.NewTextErrorResponse(err.Error()), nil
					}
					return fantasy.NewTextResponse(toolbox.Forecast(a.City, a.Days, a.Units)), nil
				})
			return func(args string) (string, error) {
				r, err := t.Run(ctx, fantasy.ToolCall{ID: "call_1", Name: "weather", Input: args})
				if err == nil && r.IsError {
					err = errors.New(r.Content)
				}
				return r.Content, err
			}
		}},
		{"eino", func(b testing.TB) func(string) (string, error) {
			t, err := utils.InferTool("weather", weatherDescription(b),
				func(ctx context.Context, a toolbox.WeatherArgs) (string, error) {
					if err := check(&a); err != nil {
						return "", err
					}
					return toolbox.Forecast(a.City, a.Days, a.Units), nil
				})
			if err != nil {
				b.Fatal(err)
			}
			var _ tool.InvokableTool = t
			return func(args string) (string, error) { return t.InvokableRun(ctx, args) }
		}},
		{"jsonschema-validate", func(b testing.TB) func(string) (string, error) {
			rs := resolvedSchema(b)
			return func(args string) (string, error) { return validateThenDecode(ctx, rs, []byte(args)) }
		}},
		{"mcp-inmemory", func(b testing.TB) func(string) (string, error) {
			return mcpSession(b)
		}},
	}
}

// weatherDescription is the weather tool's description, which every
// contender is given alike.
func weatherDescription(tb testing.TB) string {
	e, ok := Toolbox().Lookup("weather")
	if !ok {
		tb.Fatal("no weather tool")
	}
	return e.Description
}

// BenchmarkDispatch runs one valid call through each contender.
func BenchmarkDispatch(b *testing.B) {
	for _, c := range contenders() {
		b.Run(c.name, func(b *testing.B) {
			call := c.setup(b)
			if got, err := call(goodArgs); err != nil || got != want {
				b.Fatalf("got %q, %v; want %q", got, err, want)
			}
			b.ReportAllocs()
			for b.Loop() {
				call(goodArgs)
			}
		})
	}
}

// BenchmarkDispatchBad runs a call that leaves out the required city.
func BenchmarkDispatchBad(b *testing.B) {
	for _, c := range contenders() {
		b.Run(c.name, func(b *testing.B) {
			call := c.setup(b)
			if _, err := call(badArgs); err == nil {
				b.Fatalf("%s accepted %s", c.name, badArgs)
			}
			b.ReportAllocs()
			for b.Loop() {
				call(badArgs)
			}
		})
	}
}

// TestContendersAgree checks that every contender answers the valid call
// alike and refuses the bad one, so that the benchmark compares equal work.
func TestContendersAgree(t *testing.T) {
	for _, c := range contenders() {
		t.Run(c.name, func(t *testing.T) {
			call := c.setup(t)
			got, err := call(goodArgs)
			if err != nil || got != want {
				t.Errorf("good: got %q, %v; want %q", got, err, want)
			}
			if _, err := call(badArgs); err == nil || !strings.Contains(err.Error(), "city") {
				t.Errorf("bad: got error %v, want one about the city", err)
			}
			for _, in := range []string{`{"city":"x","days":17}`, `{"city":"x","units":"kelvin"}`, `{"city":"x","days":"3"}`} {
				if _, err := call(in); err == nil {
					t.Errorf("%s: accepted", in)
				}
			}
		})
	}
}

// resolvedSchema is the tool's generated JSON Schema, resolved by
// github.com/google/jsonschema-go, the validator of the MCP Go SDK.
func resolvedSchema(tb testing.TB) *jsonschema.Resolved {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(genEntries[0].Parameters), &s); err != nil {
		tb.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		tb.Fatal(err)
	}
	return rs
}

// validateThenDecode is what the MCP Go SDK does for a call before the
// handler runs, without the transport: decode into a map, apply the
// defaults, validate, encode again, decode into the args type.
func validateThenDecode(ctx context.Context, rs *jsonschema.Resolved, data []byte) (string, error) {
	m := map[string]any{}
	if err := json.Unmarshal(data, &m); err != nil {
		return "", err
	}
	var v any = m
	if err := rs.ApplyDefaults(&v); err != nil {
		return "", err
	}
	if err := rs.Validate(v); err != nil {
		return "", err
	}
	again, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var a toolbox.WeatherArgs
	if err := json.Unmarshal(again, &a); err != nil {
		return "", err
	}
	return toolbox.Forecast(a.City, a.Days, a.Units), nil
}

// mcpSession serves the tool with the MCP Go SDK (mcp.AddTool, given the
// same schema so that it validates the same constraints) and returns a
// call through a client connected over the SDK's in-memory transport: the
// SDK's dispatch cannot be reached without a session.
func mcpSession(b testing.TB) func(string) (string, error) {
	ctx := context.Background()
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(genEntries[0].Parameters), &s); err != nil {
		b.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "v0.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "weather", Description: weatherDescription(b), InputSchema: &s},
		func(ctx context.Context, req *mcp.CallToolRequest, a toolbox.WeatherArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: toolbox.Forecast(a.City, a.Days, a.Units)}}}, nil, nil
		})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "bench-client", Version: "v0.0.0"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return func(args string) (string, error) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "weather", Arguments: json.RawMessage(args)})
		if err != nil {
			return "", err
		}
		text := ""
		if len(res.Content) > 0 {
			if tc, ok := res.Content[0].(*mcp.TextContent); ok {
				text = tc.Text
			}
		}
		if res.IsError {
			return "", errors.New(text)
		}
		return text, nil
	}
}
