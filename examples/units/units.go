// Package units is a small service built on toolreg: its tools (package
// tools) are compiled by toolgen into zz_registry_gen.go, served over MCP
// (streamable HTTP) at /mcp, and used by a model through the chat loop at
// /ask. cmd/units runs it.
package units

//go:generate go run github.com/toolreg/toolreg/cmd/toolgen -dir tools

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/toolreg/toolreg/chat"
	"github.com/toolreg/toolreg/toolmcp"
)

// MaxQuestion bounds the body of an /ask request, in bytes.
const MaxQuestion = 16 << 10

// Handler returns the service: MCP at /mcp, and POST /ask, which takes
// {"question": "…"}, lets the model behind client answer it with the
// tools, and responds {"answer": "…"}. A token, when not empty, is the
// bearer token MCP requests must carry. A nil logger logs nothing.
func Handler(client *chat.Client, token string, logger *slog.Logger) (http.Handler, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	reg := Toolbox().WithLogger(logger)
	srv, err := toolmcp.NewServer(reg, &toolmcp.ServerOptions{Name: "units", Version: "v0.1.0"})
	if err != nil {
		return nil, fmt.Errorf("units: MCP server: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", toolmcp.HTTPHandler(srv, &toolmcp.HTTPOptions{Logger: logger, Token: token}))
	mux.HandleFunc("POST /ask", func(w http.ResponseWriter, r *http.Request) {
		var q struct {
			Question string `json:"question"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxQuestion)).Decode(&q); err != nil || q.Question == "" {
			http.Error(w, `want {"question": "…"}`, http.StatusBadRequest)
			return
		}
		// A conversation per request: the service keeps no state.
		conv := &chat.Conversation{
			Client: client,
			Tools:  reg,
			System: "You answer questions about lengths. Use the convert tool for every conversion.",
		}
		answer, err := conv.Turn(r.Context(), q.Question)
		if err != nil {
			logger.ErrorContext(r.Context(), "ask failed", "error", err)
			http.Error(w, "the model could not answer", http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"answer": answer})
	})
	return mux, nil
}
