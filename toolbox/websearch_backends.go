package toolbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/toolreg/toolreg/redact"
)

// The environment variables that configure the web_search tool. The first
// backend configured wins, in this order: SearXNG, Brave, Tavily.
const (
	websearchSearxngEnv = "SEARXNG_URL"

	websearchBraveKeyEnv     = "BRAVE_API_KEY"
	websearchBraveURLEnv     = "BRAVE_SEARCH_URL"
	websearchBraveDefaultURL = "https://api.search.brave.com"

	websearchTavilyKeyEnv     = "TAVILY_API_KEY"
	websearchTavilyURLEnv     = "TAVILY_URL"
	websearchTavilyDefaultURL = "https://api.tavily.com"
)

// websearchResult is one hit, as a backend found it; the text may still
// hold HTML.
type websearchResult struct {
	Title   string
	URL     string
	Snippet string
}

// websearchAnswer is what a backend found for a query.
type websearchAnswer struct {
	Results []websearchResult
	// Note is something the model should know about the results, for
	// example that some of a SearXNG instance's engines failed.
	Note string
}

// websearchBackend is a web search service.
type websearchBackend interface {
	// name is how answers and errors call the service.
	name() string
	// search asks the service for up to limit results for query.
	search(ctx context.Context, c *http.Client, query string, limit int) (websearchAnswer, error)
}

// errWebsearchNotConfigured is the error when no backend is configured.
var errWebsearchNotConfigured = errors.New("web search is not configured: the operator must set " +
	websearchSearxngEnv + " (the base URL of a SearXNG instance with the json format enabled), " +
	websearchBraveKeyEnv + " (a Brave Search API key) or " +
	websearchTavilyKeyEnv + " (a Tavily API key) in the agent's environment; until then, answer without web search")

// websearchBackendFor returns the first backend configured in the
// environment read by getenv.
func websearchBackendFor(getenv func(string) string) (websearchBackend, error) {
	if v := strings.TrimSpace(getenv(websearchSearxngEnv)); v != "" {
		base, err := httpxBaseURL(websearchSearxngEnv, v, "")
		if err != nil {
			return nil, err
		}
		return &websearchSearxng{base: base}, nil
	}
	if key := strings.TrimSpace(getenv(websearchBraveKeyEnv)); key != "" {
		base, err := httpxBaseURL(websearchBraveURLEnv, getenv(websearchBraveURLEnv), websearchBraveDefaultURL)
		if err != nil {
			return nil, err
		}
		return &websearchBrave{base: base, key: key}, nil
	}
	if key := strings.TrimSpace(getenv(websearchTavilyKeyEnv)); key != "" {
		base, err := httpxBaseURL(websearchTavilyURLEnv, getenv(websearchTavilyURLEnv), websearchTavilyDefaultURL)
		if err != nil {
			return nil, err
		}
		return &websearchTavily{base: base, key: key}, nil
	}
	return nil, errWebsearchNotConfigured
}

// websearchDecode decodes a 200 answer of service into v.
func websearchDecode(service string, body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%s sent a response that is not the JSON it documents (%v); try again later", service, err)
	}
	return nil
}

// websearchSearxng queries a SearXNG instance through its search API
// (https://docs.searxng.org/dev/search_api.html).
type websearchSearxng struct {
	base *url.URL
}

func (*websearchSearxng) name() string { return "SearXNG" }

// websearchSearxngResponse is the JSON answer of GET /search?format=json, as
// searx/webapp.py writes it.
type websearchSearxngResponse struct {
	Results []struct {
		Title   string `json:"title"`
		URL     string `json:"url"`
		Content string `json:"content"`
	} `json:"results"`
	// UnresponsiveEngines holds [engine, error message] pairs.
	UnresponsiveEngines []json.RawMessage `json:"unresponsive_engines"`
}

func (b *websearchSearxng) search(ctx context.Context, c *http.Client, query string, limit int) (websearchAnswer, error) {
	q := url.Values{}
	q.Set("q", query)
	q.Set("format", "json")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, httpxEndpoint(b.base, q, "search"), nil)
	if err != nil {
		return websearchAnswer{}, fmt.Errorf("building the SearXNG request: %w", err)
	}
	status, body, err := httpxDo(c, req, b.name())
	if err != nil {
		return websearchAnswer{}, err
	}
	switch status {
	case http.StatusOK:
	case http.StatusForbidden:
		return websearchAnswer{}, &httpxStatusError{Service: b.name(), Status: status,
			Hint: "the instance does not serve the json format; the operator must add json under search.formats in its settings.yml, or point " + websearchSearxngEnv + " to another instance"}
	case http.StatusTooManyRequests:
		return websearchAnswer{}, &httpxStatusError{Service: b.name(), Status: status,
			Hint: "the instance's limiter refused the request; wait before trying again, or the operator must use an instance whose limiter allows API clients"}
	default:
		return websearchAnswer{}, &httpxStatusError{Service: b.name(), Status: status, Reason: httpxSnippet(body, 200)}
	}
	var resp websearchSearxngResponse
	if err := websearchDecode(b.name(), body, &resp); err != nil {
		return websearchAnswer{}, err
	}
	var ans websearchAnswer
	for _, r := range resp.Results {
		ans.Results = append(ans.Results, websearchResult{Title: r.Title, URL: r.URL, Snippet: r.Content})
	}
	var failed []string
	for _, raw := range resp.UnresponsiveEngines {
		var pair []string
		if json.Unmarshal(raw, &pair) == nil && len(pair) > 0 {
			failed = append(failed, strings.Join(pair, ": "))
		}
	}
	if len(failed) > 0 {
		ans.Note = "some of the instance's search engines did not answer (" + strings.Join(failed, "; ") + "), so results may be missing"
	}
	return ans, nil
}

// websearchBrave queries the Brave Web Search API
// (https://api-dashboard.search.brave.com/app/documentation/web-search).
type websearchBrave struct {
	base *url.URL
	key  string
}

func (*websearchBrave) name() string { return "Brave Search" }

// websearchBraveResponse is the part of WebSearchApiResponse the tool reads.
type websearchBraveResponse struct {
	Web *struct {
		Results []struct {
			Title       string `json:"title"`
			URL         string `json:"url"`
			Description string `json:"description"`
		} `json:"results"`
	} `json:"web"`
}

// websearchBraveError is one APIErrorModel of a Brave error response.
type websearchBraveError struct {
	Code   string `json:"code"`
	Detail string `json:"detail"`
}

func (b *websearchBrave) search(ctx context.Context, c *http.Client, query string, limit int) (websearchAnswer, error) {
	q := url.Values{}
	q.Set("q", query)
	q.Set("count", strconv.Itoa(limit))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, httpxEndpoint(b.base, q, "res", "v1", "web", "search"), nil)
	if err != nil {
		return websearchAnswer{}, fmt.Errorf("building the Brave Search request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Subscription-Token", b.key)
	status, body, err := httpxDo(c, req, b.name())
	if err != nil {
		return websearchAnswer{}, err
	}
	if status != http.StatusOK {
		return websearchAnswer{}, b.statusError(status, body)
	}
	var resp websearchBraveResponse
	if err := websearchDecode(b.name(), body, &resp); err != nil {
		return websearchAnswer{}, err
	}
	var ans websearchAnswer
	if resp.Web != nil {
		for _, r := range resp.Web.Results {
			ans.Results = append(ans.Results, websearchResult{Title: r.Title, URL: r.URL, Snippet: r.Description})
		}
	}
	return ans, nil
}

// statusError explains a Brave error response. Brave documents an
// "errors" list and answers with an "error" object; both are read.
func (b *websearchBrave) statusError(status int, body []byte) error {
	var resp struct {
		Error  *websearchBraveError  `json:"error"`
		Errors []websearchBraveError `json:"errors"`
	}
	var list []websearchBraveError
	if json.Unmarshal(body, &resp) == nil {
		if resp.Error != nil {
			list = append(list, *resp.Error)
		}
		list = append(list, resp.Errors...)
	}
	var reasons []string
	keyProblem := status == http.StatusUnauthorized || status == http.StatusForbidden
	for _, e := range list {
		r := strings.TrimSpace(strings.Join([]string{e.Code, e.Detail}, ": "))
		r = strings.Trim(r, ": ")
		if r != "" {
			reasons = append(reasons, r)
		}
		if strings.HasPrefix(e.Code, "SUBSCRIPTION") {
			keyProblem = true
		}
	}
	reason := strings.Join(reasons, "; ")
	if len(list) == 0 {
		reason = httpxSnippet(body, 200, b.key)
	}
	// Redacted before it is cut, so that no part of an echoed key shows.
	se := &httpxStatusError{Service: b.name(), Status: status, Reason: httpxTruncate(redact.String(reason, b.key), 300)}
	if keyProblem {
		se.Hint = "the key in " + websearchBraveKeyEnv + " was refused; the operator must set a valid Brave Search API key"
	}
	return se
}

// websearchTavily queries the Tavily Search API
// (https://docs.tavily.com/documentation/api-reference/endpoint/search). The
// key goes in an Authorization: Bearer header, as the reference documents.
type websearchTavily struct {
	base *url.URL
	key  string
}

func (*websearchTavily) name() string { return "Tavily" }

// websearchTavilyRequest is the body of POST /search.
type websearchTavilyRequest struct {
	Query       string `json:"query"`
	MaxResults  int    `json:"max_results"`
	SearchDepth string `json:"search_depth"`
}

// websearchTavilyResponse is the part of the POST /search answer the tool
// reads.
type websearchTavilyResponse struct {
	Results []struct {
		Title   string `json:"title"`
		URL     string `json:"url"`
		Content string `json:"content"`
	} `json:"results"`
}

func (b *websearchTavily) search(ctx context.Context, c *http.Client, query string, limit int) (websearchAnswer, error) {
	payload, err := json.Marshal(websearchTavilyRequest{Query: query, MaxResults: limit, SearchDepth: "basic"})
	if err != nil {
		return websearchAnswer{}, fmt.Errorf("encoding the Tavily request: %w", err)
	}
	endpoint := httpxEndpoint(b.base, nil, "search")
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(payload))
	if err != nil {
		return websearchAnswer{}, fmt.Errorf("building the Tavily request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+b.key)
	status, body, err := httpxDo(c, req, b.name())
	if err != nil {
		return websearchAnswer{}, err
	}
	if status != http.StatusOK {
		return websearchAnswer{}, b.statusError(status, body)
	}
	var resp websearchTavilyResponse
	if err := websearchDecode(b.name(), body, &resp); err != nil {
		return websearchAnswer{}, err
	}
	var ans websearchAnswer
	for _, r := range resp.Results {
		ans.Results = append(ans.Results, websearchResult{Title: r.Title, URL: r.URL, Snippet: r.Content})
	}
	return ans, nil
}

// statusError explains a Tavily error response, whose body is
// {"detail": {"error": "…"}}.
func (b *websearchTavily) statusError(status int, body []byte) error {
	reason := ""
	var resp struct {
		Detail json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &resp) == nil && len(resp.Detail) > 0 {
		var obj struct {
			Error string `json:"error"`
		}
		var s string
		switch {
		case json.Unmarshal(resp.Detail, &obj) == nil && obj.Error != "":
			reason = obj.Error
		case json.Unmarshal(resp.Detail, &s) == nil:
			reason = s
		default:
			reason = httpxSnippet(resp.Detail, 200, b.key)
		}
	} else {
		reason = httpxSnippet(body, 200, b.key)
	}
	se := &httpxStatusError{Service: b.name(), Status: status, Reason: httpxTruncate(redact.String(reason, b.key), 300)}
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		se.Hint = "the key in " + websearchTavilyKeyEnv + " was refused; the operator must set a valid Tavily API key"
	case 432, 433:
		se.Hint = "the Tavily plan's usage limit is reached; the operator must raise it, so answer without web search for now"
	}
	return se
}
