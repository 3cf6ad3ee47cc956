package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/toolreg/toolreg/internal/testbox"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// A registry comes from generated code: testbox.Toolbox stands for the
// Toolbox function that toolgen writes into your own zz_registry_gen.go.
func ExampleRegistry_Call() {
	reg := testbox.Toolbox()
	ctx := context.Background()

	res := reg.Call(ctx, "echo", `{"text":"hello"}`)
	fmt.Println(res.Text)

	// A failure is an answer too: Text is what the model reads, Err says
	// what went wrong.
	res = reg.Call(ctx, "count", `{"text":42}`)
	fmt.Println(res.Text)
	var e *registry.Error
	if errors.As(res.Err, &e) {
		fmt.Println(e.Tool, e.Kind, errors.Is(res.Err, registry.ErrArguments))
	}
	// Output:
	// echo: hello
	// Error: count: bad arguments: field "text": expected string, got number 42
	// count bad arguments true
}

func ExampleRegistry_Select() {
	reg, err := testbox.Toolbox().Select([]string{"echo", "count"}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(reg.Names())

	// A typo does not go unnoticed.
	_, err = reg.Select(nil, []string{"ecko"})
	fmt.Println(err)
	// Output:
	// [count echo]
	// unknown tool id "ecko"; known: count, echo
}

// Tools that run programs or write files ask first; the answer is told to
// the model when it is no. Here such a tool joins the generated ones with
// With, as a mounted server's tools do.
func ExampleRegistry_WithConfirm() {
	rm := registry.Entry{
		ID: "rm", Name: "rm", Description: "Remove a file.", Timeout: time.Second,
		Parameters:   `{"type":"object","properties":{"path":{"type":"string"}}}`,
		Capabilities: tool.WriteFiles,
		// Bind checks the arguments and returns the call, ready to run.
		Bind: func(args string) (registry.Run, error) {
			var a struct{ Path string }
			if err := json.Unmarshal([]byte(args), &a); err != nil || a.Path == "" {
				return nil, registry.ArgumentError(errors.New(`want {"path": a file}`))
			}
			return func(ctx context.Context) (string, error) {
				return "removed " + a.Path, nil
			}, nil
		},
	}
	reg, err := testbox.Toolbox().With(rm)
	if err != nil {
		fmt.Println(err)
		return
	}
	reg = reg.WithConfirm(func(ctx context.Context, e registry.Entry, args string) error {
		return errors.New("the user said no")
	})
	fmt.Println(reg.Call(context.Background(), "rm", `{"path":"/tmp/x"}`).Text)
	fmt.Println(reg.Call(context.Background(), "echo", `{"text":"x"}`).Text) // Not asked.

	// Leaving out every tool with such a capability is the other way.
	fmt.Println(reg.WithoutCapabilities(tool.Exec | tool.WriteFiles).Names())
	// Output:
	// Error: rm: not run: the user said no
	// echo: x
	// [count echo fail tag]
}
