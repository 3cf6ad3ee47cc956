// Units serves the units tools over MCP at /mcp and answers questions
// through a model at /ask.
//
//	LLM_BASE_URL=https://api.deepseek.com/v1 LLM_API_KEY=sk-… LLM_MODEL=deepseek-chat units -addr :8080
//
// UNITS_MCP_TOKEN, when set, is the bearer token MCP clients must send.
package main

import (
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	"example.com/units"
	"github.com/toolreg/toolreg/chat"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("units", flag.ContinueOnError)
	addr := fs.String("addr", "localhost:8080", "the address to listen on")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	client := &chat.Client{
		BaseURL: os.Getenv("LLM_BASE_URL"),
		APIKey:  os.Getenv("LLM_API_KEY"),
		Model:   os.Getenv("LLM_MODEL"),
		Logger:  logger,
	}
	h, err := units.Handler(client, os.Getenv("UNITS_MCP_TOKEN"), logger)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv := &http.Server{Addr: *addr, Handler: h, ReadHeaderTimeout: 10 * time.Second}
	logger.Info("serving", "addr", *addr, "tools", units.Toolbox().Names())
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
