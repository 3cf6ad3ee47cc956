package toolmcp_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/toolreg/toolreg/internal/testbox"
	"github.com/toolreg/toolreg/toolmcp"
)

// Serve a generated registry over streamable HTTP, then mount it, as the
// agent's -mcp does: its tools join a local registry as "box__NAME", and a
// call of one goes through the same limits and errors as a local tool.
func Example() {
	srv, err := toolmcp.NewServer(testbox.Toolbox(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	hs := httptest.NewServer(toolmcp.HTTPHandler(srv, nil))
	defer hs.Close()

	ctx := context.Background()
	mounts, err := toolmcp.Mount(ctx, []string{"box=" + hs.URL}, &toolmcp.MountOptions{HTTPClient: hs.Client()})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer mounts.Close()
	local, _ := testbox.Toolbox().Select([]string{"echo"}, nil)
	reg, err := local.With(mounts.Entries()...)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(reg.Names())
	fmt.Println(reg.Call(ctx, "box__count", `{"text":"a b"}`).Text)
	fmt.Println(reg.Call(ctx, "box__fail", `{}`).Text)
	// Output:
	// [echo box__count box__echo box__fail box__tag]
	// {"words":2,"characters":3}
	// Error: box__fail: fail: disk on fire
}
