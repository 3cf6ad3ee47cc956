package toolmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sashabaranov/go-openai"
	"github.com/toolreg/toolreg/internal/raceexit"
	"github.com/toolreg/toolreg/internal/testbox"
	"github.com/toolreg/toolreg/jsonarg"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
	"go.uber.org/goleak"
)

// serverEnv switches the test binary into an MCP server on stdio:
//
//	remote   a server made with the SDK, to mount (see sdkServer)
//	huge     a server, by hand, whose tool answers an image past the
//	         SDK's bound of a line (see hugeImageServer)
//	toolbox  the test toolbox (internal/testbox) served by NewServer, for
//	         the TypeScript end-to-end test
const serverEnv = "TOOLMCP_TEST_SERVER"

func TestMain(m *testing.M) {
	switch mode := os.Getenv(serverEnv); mode {
	case "":
		// The test process: the MCP servers the tests mount over stdio
		// are this binary again.
		if err := raceexit.Shorten(); err != nil {
			panic(err)
		}
		goleak.VerifyTestMain(m)
	case "remote":
		if err := sdkServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			log.Fatalf("remote test server: %v", err)
		}
		os.Exit(0)
	case "huge":
		if err := hugeImageServer(os.Stdin, os.Stdout); err != nil {
			log.Fatalf("huge test server: %v", err)
		}
		os.Exit(0)
	case "flood":
		if err := floodServer(os.Stdin, os.Stdout); err != nil {
			log.Fatalf("flood test server: %v", err)
		}
		os.Exit(0)
	case "toolbox":
		srv, err := NewServer(testbox.Toolbox(), e2eServerOptions())
		if err != nil {
			log.Fatal(err)
		}
		if err := ServeStdio(context.Background(), srv, os.Stdin, os.Stdout); err != nil {
			log.Fatal(err)
		}
		os.Exit(0)
	default:
		log.Fatalf("%s=%q: want remote, huge, flood or toolbox", serverEnv, mode)
	}
}

// e2eServerOptions are the options of the toolbox served to the TypeScript
// client; count's generated output schema lets the client check its
// structuredContent.
func e2eServerOptions() *ServerOptions {
	return &ServerOptions{
		Skills: testSkills(),
		Annotate: func(e registry.Entry) *mcp.ToolAnnotations {
			if e.Name == "count" {
				return &mcp.ToolAnnotations{ReadOnlyHint: true}
			}
			return nil
		},
	}
}

// longToolName is a remote tool whose prefixed name is too long.
var longToolName = strings.Repeat("x", 70)

// sdkServer is an MCP server written with the SDK's generic API, as a
// third party would: its tools are mounted in the tests.
func sdkServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "remote", Version: "v0.0.1"}, nil)
	type textArgs struct {
		Text string `json:"text" jsonschema:"what to echo"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "Echo the text."},
		func(ctx context.Context, req *mcp.CallToolRequest, args textArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + args.Text}}}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "fail", Description: "Always fails."},
		func(ctx context.Context, req *mcp.CallToolRequest, args struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, errors.New("no such file")
		})
	type sleepArgs struct {
		MS int `json:"ms"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "sleep", Description: "Sleep ms milliseconds, or until cancelled."},
		func(ctx context.Context, req *mcp.CallToolRequest, args sleepArgs) (*mcp.CallToolResult, any, error) {
			select {
			case <-time.After(time.Duration(args.MS) * time.Millisecond):
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "slept"}}}, nil, nil
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "environ", Description: "The server's environment, one NAME=value a line."},
		func(ctx context.Context, req *mcp.CallToolRequest, args struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(os.Environ(), "\n")}}}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "exit", Description: "End the server's process."},
		func(ctx context.Context, req *mcp.CallToolRequest, args struct{}) (*mcp.CallToolResult, any, error) {
			os.Exit(3)
			return nil, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "files.read", Description: "A dotted name."},
		func(ctx context.Context, req *mcp.CallToolRequest, args struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "dotted"},
				&mcp.ImageContent{MIMEType: "image/png", Data: []byte("png")},
			}}, nil, nil
		})
	type sum struct {
		Sum int `json:"sum"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: longToolName, Description: "A long name with a structured result."},
		func(ctx context.Context, req *mcp.CallToolRequest, args struct {
			A int `json:"a"`
			B int `json:"b"`
		}) (*mcp.CallToolResult, sum, error) {
			return nil, sum{args.A + args.B}, nil
		})
	return srv
}

// testTable is a hand-made table of tools that succeed and fail in every
// way, so that serving is tested apart from generated code.
func testTable() *registry.Table {
	const textSchema = `{"type":"object","properties":{"text":{"type":"string","description":"Any text."}},"required":["text"],"additionalProperties":false}`
	const noArgs = `{"type":"object","properties":{},"additionalProperties":false}`
	decode := func(args string) (string, error) {
		var a struct {
			Text *string `json:"text"`
		}
		d := json.NewDecoder(strings.NewReader(args))
		d.DisallowUnknownFields()
		if err := d.Decode(&a); err != nil {
			return "", registry.ArgumentError(err)
		}
		if a.Text == nil {
			return "", registry.ArgumentError(errors.New(`missing required field "text"`))
		}
		return *a.Text, nil
	}
	entries := []registry.Entry{
		{Name: "boom", Parameters: noArgs, Bind: runs(func(ctx context.Context, args string) (string, error) {
			panic("kaboom")
		})},
		{Name: "count", Parameters: textSchema, Output: testOutputs("count"), Bind: runs(func(ctx context.Context, args string) (string, error) {
			s, err := decode(args)
			if err != nil {
				return "", err
			}
			return jsonarg.EncodeResult(map[string]int{"words": len(strings.Fields(s))}, nil)
		})},
		{Name: "echo", Parameters: textSchema, Bind: runs(func(ctx context.Context, args string) (string, error) {
			s, err := decode(args)
			if err != nil {
				return "", err
			}
			return "echo " + s, nil
		})},
		{Name: "fail", Parameters: noArgs, Bind: runs(func(ctx context.Context, args string) (string, error) {
			return "", errors.New("disk on fire")
		})},
		{Name: "split", Parameters: textSchema, Output: testOutputs("split"), Bind: runs(func(ctx context.Context, args string) (string, error) {
			s, err := decode(args)
			if err != nil {
				return "", err
			}
			return jsonarg.EncodeResult(strings.Fields(s), nil)
		})},
		{Name: "slow", Parameters: noArgs, Bind: runs(func(ctx context.Context, args string) (string, error) {
			<-ctx.Done()
			return "", ctx.Err()
		})},
		{Name: "whoami", Parameters: noArgs, Bind: runs(func(ctx context.Context, args string) (string, error) {
			c, ok := tool.CallFrom(ctx)
			if !ok {
				return "", errors.New("no call in context")
			}
			return fmt.Sprintf("caller=%s tool=%s id-prefix=%s", c.Caller, c.Tool, c.ID[:4]), nil
		})},
	}
	specs := make([]openai.Tool, len(entries))
	for i := range entries {
		e := &entries[i]
		e.ID = e.Name
		e.Timeout = time.Minute
		e.Description = "The " + e.Name + " tool."
		specs[i] = openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: e.Name, Description: e.Description, Parameters: json.RawMessage(e.Parameters),
		}}
	}
	entries[5].Timeout = 50 * time.Millisecond
	return &registry.Table{Entries: entries, Specs: specs, Index: func(name string) int {
		for i, e := range entries {
			if e.Name == name {
				return i
			}
		}
		return -1
	}}
}

// testOutputs gives the typed tools of testTable their output schemas, as
// the generator does.
func testOutputs(name string) string {
	switch name {
	case "count":
		return `{"type":"object","properties":{"words":{"type":"integer"}},"required":["words"]}`
	case "split":
		return `{"type":"array","items":{"type":"string"}}`
	}
	return ""
}

// runs is a Bind that accepts any arguments: its Run calls f with them,
// and the test tools decode them for themselves.
func runs(f func(ctx context.Context, args string) (string, error)) func(string) (registry.Run, error) {
	return func(args string) (registry.Run, error) {
		return func(ctx context.Context) (string, error) { return f(ctx, args) }, nil
	}
}
