package toolbox

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolreg/toolreg/redact"
	"github.com/toolreg/toolreg/tool"
)

// WebSearch searches the web through the backend the environment
// configures: a SearXNG instance (SEARXNG_URL), the Brave Search API
// (BRAVE_API_KEY, BRAVE_SEARCH_URL) or Tavily (TAVILY_API_KEY, TAVILY_URL),
// the first configured in that order. With none configured it stays
// registered and every call answers an error that names the variables.
//
// Its zero value is ready to use: it reads the environment at each call and
// keeps one HTTP client for all calls.
type WebSearch struct {
	// client sends every request of the tool; its zero value is
	// http.DefaultClient's behaviour. Deadlines come from the call's context.
	client http.Client
	// getenv reads the environment; nil means os.Getenv. Tests set it.
	getenv func(string) string
}

// WebSearchArgs are the arguments the model sends.
type WebSearchArgs struct {
	// What to search for, as you would type it into a search engine, for example: go 1.22 loop variable semantics.
	Query string `json:"query" jsonschema:"minLength=1,maxLength=400"`
	// Number of results to return, 1 to 10; 5 when left out.
	MaxResults int `json:"max_results,omitempty" jsonschema:"minimum=1,maximum=10,default=5"`
}

// Bounds of the arguments, and how long a direct call without a deadline
// may take.
const (
	websearchDefaultResults = 5
	websearchMaxResults     = 10
	websearchMaxQuery       = 400
	websearchTimeout        = 20 * time.Second
)

// Definition describes the tool.
func (*WebSearch) Definition() tool.Definition {
	return tool.Definition{
		ID:           "web_search",
		Description:  "Search the web and get a numbered list of results, each with title, URL and a short snippet. Use it for recent events and facts you do not know or must check; cite the URLs you rely on. Snippets are short: the answer is often in the page, not the snippet.",
		Timeout:      20 * time.Second,
		Capabilities: tool.Network | tool.Env,
	}
}

// Execute runs args.Query on the configured backend and answers the results
// as compact text: numbered, with title, URL and snippet, HTML removed,
// snippets trimmed to about 300 characters and the whole kept under about
// 4000, with a line saying so when results were left out.
func (s *WebSearch) Execute(ctx context.Context, args WebSearchArgs) (string, error) {
	query := strings.Join(strings.Fields(args.Query), " ")
	if query == "" {
		return "", errors.New("query is empty: give the words to search for")
	}
	if n := utf8.RuneCountInString(query); n > websearchMaxQuery {
		return "", fmt.Errorf("query is %d characters long, but at most %d are accepted; shorten it to its key words", n, websearchMaxQuery)
	}
	limit := args.MaxResults
	if limit == 0 {
		limit = websearchDefaultResults
	}
	if limit < 1 || limit > websearchMaxResults {
		return "", fmt.Errorf("max_results is %d, but it must be between 1 and %d; leave it out for %d", args.MaxResults, websearchMaxResults, websearchDefaultResults)
	}

	getenv := s.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	backend, err := websearchBackendFor(getenv)
	if err != nil {
		return "", err
	}

	ctx, cancel := httpxWithDeadline(ctx, websearchTimeout)
	defer cancel()
	ans, err := backend.search(ctx, &s.client, query, limit)
	if err != nil {
		return "", websearchHideKeys(fmt.Errorf("searching the web for %q: %w", query, err), getenv)
	}
	return websearchFormat(query, backend.name(), ans, limit), nil
}

// websearchHideKeys returns err with any configured API key, and any
// credential of a known shape, removed from its message. The keys never
// enter a message on purpose; this guards against a service or a transport
// error echoing one. A redacted error unwraps only to the context error it
// matched, never to the error that holds the key.
func websearchHideKeys(err error, getenv func(string) string) error {
	return redact.Error(err, getenv(websearchBraveKeyEnv), getenv(websearchTavilyKeyEnv))
}
