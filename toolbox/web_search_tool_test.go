package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Fake credentials; the tests check that they never reach an answer.
const (
	testBraveKey  = "BSA-test-key-0123456789"
	testTavilyKey = "tvly-test-key-0123456789"
)

// newSearchFake starts a fake service with one route and returns a
// WebSearch tool configured, through env, to use it. In env, the value
// "FAKE" stands for the fake's URL.
func newSearchFake(t *testing.T, path string, h http.HandlerFunc, env map[string]string) (*WebSearch, *httpxFake) {
	t.Helper()
	f := newHTTPXFake(t, map[string]http.HandlerFunc{path: h})
	m := map[string]string{}
	for k, v := range env {
		m[k] = strings.ReplaceAll(v, "FAKE", f.URL)
	}
	return &WebSearch{getenv: httpxEnv(m)}, f
}

func TestWebSearchDefinition(t *testing.T) {
	d := (&WebSearch{}).Definition()
	if d.ID != "web_search" || d.Description == "" || d.Timeout <= 0 {
		t.Errorf("Definition() = %+v; want ID web_search, a description and a timeout", d)
	}
}

func TestWebSearchSearxng(t *testing.T) {
	s, f := newSearchFake(t, "/searx/search",
		httpxServeFixture(t, "websearch", "searxng_results.json", http.StatusOK),
		map[string]string{websearchSearxngEnv: "FAKE/searx/"})
	got, err := s.Execute(context.Background(), WebSearchArgs{Query: "  searxng "})
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	want := strings.Join([]string{
		`Web results for "searxng" (SearXNG):`,
		"1. GitHub - searxng/searxng: SearXNG is a free internet metasearch engine which aggregates results from various search services and databases. Users are neither tracked nor profiled.",
		"   https://github.com/searxng/searxng",
		"   SearXNG is a free internet metasearch engine which aggregates results from up to 243 search services. Users are neither tracked nor profiled.",
		"2. Welcome to SearXNG — SearXNG Documentation",
		"   https://docs.searxng.org/",
		"   Search without being tracked. SearXNG is a free internet metasearch engine which aggregates results from more than 70 search services.",
		"3. SearXNG - Wikipedia",
		"   https://en.wikipedia.org/wiki/SearXNG",
	}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Execute output (-want +got):\n%s", diff)
	}
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("sent %d requests, want 1", len(reqs))
	}
	r := reqs[0]
	gotReq := []any{r.Method, r.Path, r.Query, r.Header.Get("User-Agent"), r.Header.Get("Accept"), r.Body}
	wantReq := []any{"GET", "/searx/search", url.Values{"q": {"searxng"}, "format": {"json"}}, httpxUserAgent, "application/json", ""}
	if diff := cmp.Diff(wantReq, gotReq); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
}

func TestWebSearchBrave(t *testing.T) {
	s, f := newSearchFake(t, "/res/v1/web/search",
		httpxServeFixture(t, "websearch", "brave_results.json", http.StatusOK),
		map[string]string{websearchBraveKeyEnv: testBraveKey, websearchBraveURLEnv: "FAKE"})
	got, err := s.Execute(context.Background(), WebSearchArgs{Query: "brave search", MaxResults: 3})
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	want := strings.Join([]string{
		`Web results for "brave search" (Brave Search):`,
		"1. Private Search Engine - Brave Search",
		"   https://search.brave.com/",
		"   Search the web privately & independently with Brave Search, the private search engine that doesn't track you.",
		"2. Brave Search API | Brave",
		"   https://brave.com/search/api/",
		"   Power your search and AI apps with the fastest growing independent search engine since Bing. Access an index of billions of pages with a single call.",
	}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Execute output (-want +got):\n%s", diff)
	}
	r := f.requests()[0]
	gotReq := []any{r.Method, r.Path, r.Query, r.Header.Get("X-Subscription-Token"), r.Header.Get("Accept"), r.Header.Get("User-Agent")}
	wantReq := []any{"GET", "/res/v1/web/search", url.Values{"q": {"brave search"}, "count": {"3"}}, testBraveKey, "application/json", httpxUserAgent}
	if diff := cmp.Diff(wantReq, gotReq); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
}

func TestWebSearchTavily(t *testing.T) {
	s, f := newSearchFake(t, "/search",
		httpxServeFixture(t, "websearch", "tavily_results.json", http.StatusOK),
		map[string]string{websearchTavilyKeyEnv: testTavilyKey, websearchTavilyURLEnv: "FAKE/"})
	got, err := s.Execute(context.Background(), WebSearchArgs{Query: "who is Leo Messi?"})
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	want := strings.Join([]string{
		`Web results for "who is Leo Messi?" (Tavily):`,
		"1. Lionel Messi Facts | Britannica",
		"   https://www.britannica.com/facts/Lionel-Messi",
		"   Lionel Messi, an Argentine footballer, is widely regarded as one of the greatest football players of his generation. Born in 1987, Messi spent the majority of his career playing for Barcelona, where he won numerous domestic league titles and UEFA Champions League titles. Messi is known for his…",
	}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Execute output (-want +got):\n%s", diff)
	}
	r := f.requests()[0]
	var body map[string]any
	if err := json.Unmarshal([]byte(r.Body), &body); err != nil {
		t.Fatalf("request body %q is not JSON: %v", r.Body, err)
	}
	gotReq := []any{r.Method, r.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), r.Header.Get("User-Agent"), body}
	wantReq := []any{"POST", "/search", "Bearer " + testTavilyKey, "application/json", httpxUserAgent,
		map[string]any{"query": "who is Leo Messi?", "max_results": float64(5), "search_depth": "basic"}}
	if diff := cmp.Diff(wantReq, gotReq); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	if strings.Contains(r.Body, testTavilyKey) {
		t.Errorf("request body carries the key; the reference puts it in the Authorization header only")
	}
}

func TestWebSearchBackendOrder(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"SearXNG wins over all", map[string]string{websearchSearxngEnv: "http://searx.test", websearchBraveKeyEnv: "b", websearchTavilyKeyEnv: "t"}, "SearXNG"},
		{"Brave wins over Tavily", map[string]string{websearchBraveKeyEnv: "b", websearchTavilyKeyEnv: "t"}, "Brave Search"},
		{"Tavily alone", map[string]string{websearchTavilyKeyEnv: "t"}, "Tavily"},
		{"blank values do not count", map[string]string{websearchSearxngEnv: " ", websearchBraveKeyEnv: "", websearchTavilyKeyEnv: "t"}, "Tavily"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := websearchBackendFor(httpxEnv(tt.env))
			if err != nil {
				t.Fatalf("websearchBackendFor: %v", err)
			}
			if got := b.name(); got != tt.want {
				t.Errorf("backend = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestWebSearchDefaultBaseURLs(t *testing.T) {
	b, err := websearchBackendFor(httpxEnv(map[string]string{websearchBraveKeyEnv: "b"}))
	if err != nil {
		t.Fatal(err)
	}
	t2, err := websearchBackendFor(httpxEnv(map[string]string{websearchTavilyKeyEnv: "t"}))
	if err != nil {
		t.Fatal(err)
	}
	got := []string{b.(*websearchBrave).base.String(), t2.(*websearchTavily).base.String()}
	want := []string{"https://api.search.brave.com", "https://api.tavily.com"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("default base URLs (-want +got):\n%s", diff)
	}
}

func TestWebSearchFirstConfiguredIsUsed(t *testing.T) {
	brave := newHTTPXFake(t, map[string]http.HandlerFunc{}) // any request fails the test
	s, f := newSearchFake(t, "/search",
		httpxServeFixture(t, "websearch", "searxng_results.json", http.StatusOK),
		map[string]string{websearchSearxngEnv: "FAKE", websearchBraveKeyEnv: testBraveKey, websearchBraveURLEnv: brave.URL})
	if _, err := s.Execute(context.Background(), WebSearchArgs{Query: "searxng"}); err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if n, m := len(f.requests()), len(brave.requests()); n != 1 || m != 0 {
		t.Errorf("SearXNG got %d requests and Brave %d; want 1 and 0", n, m)
	}
}

func TestWebSearchNotConfigured(t *testing.T) {
	s := &WebSearch{getenv: httpxEnv(nil)}
	_, err := s.Execute(context.Background(), WebSearchArgs{Query: "anything"})
	if !errors.Is(err, errWebsearchNotConfigured) {
		t.Fatalf("Execute error = %v, want errWebsearchNotConfigured", err)
	}
	for _, name := range []string{"SEARXNG_URL", "BRAVE_API_KEY", "TAVILY_API_KEY"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not name %s", err, name)
		}
	}
}

func TestWebSearchEmptyResults(t *testing.T) {
	tests := []struct {
		name, path, fixture string
		env                 map[string]string
		want                string
	}{
		{"SearXNG with failing engines", "/search", "searxng_empty.json", map[string]string{websearchSearxngEnv: "FAKE"},
			"No web results for \"zxqv wplmk trrbnq\" (SearXNG). Try fewer, more general or differently spelled words.\n" +
				"Note: some of the instance's search engines did not answer (google: timeout; brave: too many requests), so results may be missing"},
		{"Brave without a web object", "/res/v1/web/search", "brave_empty.json", map[string]string{websearchBraveKeyEnv: testBraveKey, websearchBraveURLEnv: "FAKE"},
			`No web results for "zxqv wplmk trrbnq" (Brave Search). Try fewer, more general or differently spelled words.`},
		{"Tavily", "/search", "tavily_empty.json", map[string]string{websearchTavilyKeyEnv: testTavilyKey, websearchTavilyURLEnv: "FAKE"},
			`No web results for "zxqv wplmk trrbnq" (Tavily). Try fewer, more general or differently spelled words.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newSearchFake(t, tt.path, httpxServeFixture(t, "websearch", tt.fixture, http.StatusOK), tt.env)
			got, err := s.Execute(context.Background(), WebSearchArgs{Query: "zxqv wplmk trrbnq"})
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Execute output (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWebSearchErrorBodies(t *testing.T) {
	searx := map[string]string{websearchSearxngEnv: "FAKE"}
	brave := map[string]string{websearchBraveKeyEnv: testBraveKey, websearchBraveURLEnv: "FAKE"}
	tavily := map[string]string{websearchTavilyKeyEnv: testTavilyKey, websearchTavilyURLEnv: "FAKE"}
	html := "text/html; charset=utf-8"
	tests := []struct {
		name       string
		path       string
		h          http.HandlerFunc
		env        map[string]string
		wantStatus int
		wantErr    string
	}{
		{"SearXNG json format disabled", "/search", httpxServeBody(http.StatusForbidden, html, "<!DOCTYPE html><html><body>403 Forbidden</body></html>"), searx, 403,
			`searching the web for "q": SearXNG answered HTTP 403 Forbidden; the instance does not serve the json format; the operator must add json under search.formats in its settings.yml, or point SEARXNG_URL to another instance`},
		{"SearXNG limiter", "/search", httpxServeBody(http.StatusTooManyRequests, html, "<html>Too Many Requests</html>"), searx, 429,
			`searching the web for "q": SearXNG answered HTTP 429 Too Many Requests; the instance's limiter refused the request; wait before trying again, or the operator must use an instance whose limiter allows API clients`},
		{"SearXNG 500", "/search", httpxServeBody(http.StatusInternalServerError, html, "<html>Internal Server Error</html>"), searx, 500,
			`searching the web for "q": SearXNG answered HTTP 500 Internal Server Error; the service has a problem of its own, try again later`},
		{"Brave invalid token", "/res/v1/web/search", httpxServeFixture(t, "websearch", "brave_error_422.json", 422), brave, 422,
			`searching the web for "q": Brave Search answered HTTP 422 Unprocessable Entity: SUBSCRIPTION_TOKEN_INVALID: The provided subscription token is invalid.; the key in BRAVE_API_KEY was refused; the operator must set a valid Brave Search API key`},
		{"Brave rate limited", "/res/v1/web/search", httpxServeFixture(t, "websearch", "brave_error_429.json", 429), brave, 429,
			`searching the web for "q": Brave Search answered HTTP 429 Too Many Requests: RATE_LIMITED: Request rate limit exceeded for plan.; the service is rate limiting requests, wait a little before trying again`},
		{"Brave 503 plain text", "/res/v1/web/search", httpxServeBody(http.StatusServiceUnavailable, "text/plain", "upstream unavailable"), brave, 503,
			`searching the web for "q": Brave Search answered HTTP 503 Service Unavailable: upstream unavailable; the service has a problem of its own, try again later`},
		{"Tavily invalid key", "/search", httpxServeFixture(t, "websearch", "tavily_error_401.json", 401), tavily, 401,
			`searching the web for "q": Tavily answered HTTP 401 Unauthorized: Unauthorized: missing or invalid API key.; the key in TAVILY_API_KEY was refused; the operator must set a valid Tavily API key`},
		{"Tavily plan limit", "/search", httpxServeFixture(t, "websearch", "tavily_error_432.json", 432), tavily, 432,
			`searching the web for "q": Tavily answered HTTP 432: This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com; the Tavily plan's usage limit is reached; the operator must raise it, so answer without web search for now`},
		{"Tavily validation error list", "/search", httpxServeBody(422, "application/json", `{"detail":[{"loc":["body","query"],"msg":"field required","type":"value_error.missing"}]}`), tavily, 422,
			`searching the web for "q": Tavily answered HTTP 422 Unprocessable Entity: [{"loc":["body","query"],"msg":"field required","type":"value_error.missing"}]`},
		{"Tavily 500", "/search", httpxServeBody(http.StatusInternalServerError, "application/json", `{"detail":{"error":"Internal Server Error"}}`), tavily, 500,
			`searching the web for "q": Tavily answered HTTP 500 Internal Server Error: Internal Server Error; the service has a problem of its own, try again later`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newSearchFake(t, tt.path, tt.h, tt.env)
			_, err := s.Execute(context.Background(), WebSearchArgs{Query: "q"})
			checkStatusError(t, err, tt.wantErr, tt.wantStatus)
		})
	}
}

func TestWebSearchNeverLeaksKeys(t *testing.T) {
	echo := func(w http.ResponseWriter, r *http.Request) {
		// A misbehaving service that repeats the credentials it was sent.
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"detail": {"error": "bad key %s"}, "error": {"code": "X", "detail": "token %s"}}`,
			r.Header.Get("Authorization"), r.Header.Get("X-Subscription-Token"))
	}
	for _, env := range []map[string]string{
		{websearchBraveKeyEnv: testBraveKey, websearchBraveURLEnv: "FAKE"},
		{websearchTavilyKeyEnv: testTavilyKey, websearchTavilyURLEnv: "FAKE"},
	} {
		path := "/search"
		if env[websearchBraveKeyEnv] != "" {
			path = "/res/v1/web/search"
		}
		s, _ := newSearchFake(t, path, echo, env)
		_, err := s.Execute(context.Background(), WebSearchArgs{Query: "q"})
		if err == nil {
			t.Fatal("Execute succeeded, want an error")
		}
		if strings.Contains(err.Error(), testBraveKey) || strings.Contains(err.Error(), testTavilyKey) {
			t.Errorf("error leaks a key: %v", err)
		}
		if !strings.Contains(err.Error(), "[REDACTED]") {
			t.Errorf("error %q does not show where the echoed key was removed", err)
		}
	}
}

func TestWebSearchHideKeys(t *testing.T) {
	env := httpxEnv(map[string]string{websearchBraveKeyEnv: testBraveKey})
	cause := &httpxError{msg: "could not reach " + testBraveKey, err: context.DeadlineExceeded}
	err := websearchHideKeys(fmt.Errorf("searching: %w", cause), env)
	if got, want := err.Error(), "searching: could not reach [REDACTED]"; got != want {
		t.Errorf("message = %q, want %q", got, want)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("hiding the key lost the cause of %v", err)
	}
}

func TestWebSearchMalformedJSON(t *testing.T) {
	tests := []struct {
		name, path string
		env        map[string]string
		service    string
	}{
		{"SearXNG", "/search", map[string]string{websearchSearxngEnv: "FAKE"}, "SearXNG"},
		{"Brave", "/res/v1/web/search", map[string]string{websearchBraveKeyEnv: testBraveKey, websearchBraveURLEnv: "FAKE"}, "Brave Search"},
		{"Tavily", "/search", map[string]string{websearchTavilyKeyEnv: testTavilyKey, websearchTavilyURLEnv: "FAKE"}, "Tavily"},
	}
	for _, tt := range tests {
		for _, body := range []string{`{"results": [{"title": "cut`, `<html>not json</html>`, `{"results": "none", "web": []}`} {
			t.Run(tt.name, func(t *testing.T) {
				s, _ := newSearchFake(t, tt.path, httpxServeBody(http.StatusOK, "application/json", body), tt.env)
				_, err := s.Execute(context.Background(), WebSearchArgs{Query: "q"})
				want := tt.service + " sent a response that is not the JSON it documents"
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("body %q: Execute error = %v, want it to contain %q", body, err, want)
				}
			})
		}
	}
}

func TestWebSearchTimeout(t *testing.T) {
	s, _ := newSearchFake(t, "/search", httpxServeStall(t), map[string]string{websearchTavilyKeyEnv: testTavilyKey, websearchTavilyURLEnv: "FAKE"})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := s.Execute(ctx, WebSearchArgs{Query: "q"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Execute error = %v, want one wrapping context.DeadlineExceeded", err)
	}
	if want := `searching the web for "q": Tavily did not answer in time; try again later`; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

func TestWebSearchCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stall := httpxServeStall(t)
	s, _ := newSearchFake(t, "/search", func(w http.ResponseWriter, r *http.Request) {
		cancel()
		stall(w, r)
	}, map[string]string{websearchSearxngEnv: "FAKE"})
	_, err := s.Execute(ctx, WebSearchArgs{Query: "q"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Execute error = %v, want one wrapping context.Canceled", err)
	}
}

func TestWebSearchUnreachable(t *testing.T) {
	// A closed port on loopback: nothing listens there once the fake is
	// closed, so the connection is refused at once.
	f := newHTTPXFake(t, nil)
	f.srv.Close()
	s := &WebSearch{getenv: httpxEnv(map[string]string{websearchSearxngEnv: f.URL})}
	_, err := s.Execute(context.Background(), WebSearchArgs{Query: "q"})
	if err == nil || !strings.HasPrefix(err.Error(), `searching the web for "q": could not reach SearXNG (`) {
		t.Errorf("Execute error = %v, want a 'could not reach SearXNG' error", err)
	}
}

func TestWebSearchBadArguments(t *testing.T) {
	tests := []struct {
		args    WebSearchArgs
		wantErr string
	}{
		{WebSearchArgs{Query: " \t\n"}, "query is empty: give the words to search for"},
		{WebSearchArgs{Query: strings.Repeat("x", 401)}, "query is 401 characters long, but at most 400 are accepted; shorten it to its key words"},
		{WebSearchArgs{Query: "q", MaxResults: 11}, "max_results is 11, but it must be between 1 and 10; leave it out for 5"},
		{WebSearchArgs{Query: "q", MaxResults: -1}, "max_results is -1, but it must be between 1 and 10; leave it out for 5"},
	}
	for _, tt := range tests {
		s, f := newSearchFake(t, "/never", nil, map[string]string{websearchSearxngEnv: "FAKE"})
		_, err := s.Execute(context.Background(), tt.args)
		if err == nil || err.Error() != tt.wantErr {
			t.Errorf("Execute(%.20q, %d) error = %v\nwant %s", tt.args.Query, tt.args.MaxResults, err, tt.wantErr)
		}
		if n := len(f.requests()); n != 0 {
			t.Errorf("sent %d requests, want none", n)
		}
	}
}

func TestWebSearchBadBaseURL(t *testing.T) {
	s := &WebSearch{getenv: httpxEnv(map[string]string{websearchSearxngEnv: "searx.example.org"})}
	_, err := s.Execute(context.Background(), WebSearchArgs{Query: "q"})
	want := `the environment variable SEARXNG_URL is "searx.example.org", which is not an http or https URL; the operator must fix it`
	if err == nil || err.Error() != want {
		t.Errorf("Execute error = %v\nwant %s", err, want)
	}
}

func TestWebSearchReadsEnvironment(t *testing.T) {
	f := newHTTPXFake(t, map[string]http.HandlerFunc{
		"/search": httpxServeFixture(t, "websearch", "tavily_results.json", http.StatusOK),
	})
	t.Setenv(websearchSearxngEnv, "")
	t.Setenv(websearchBraveKeyEnv, "")
	t.Setenv(websearchTavilyKeyEnv, testTavilyKey)
	t.Setenv(websearchTavilyURLEnv, f.URL)
	var s WebSearch // the zero value reads the process environment
	if _, err := s.Execute(context.Background(), WebSearchArgs{Query: "messi"}); err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("sent %d requests to TAVILY_URL, want 1", n)
	}
}

func TestWebSearchBadURLHidesPassword(t *testing.T) {
	for _, v := range []string{"ftp://user:s3cret@searx.example.org", "http://user:s3cret@searx example.org"} {
		s := &WebSearch{getenv: httpxEnv(map[string]string{websearchSearxngEnv: v})}
		_, err := s.Execute(context.Background(), WebSearchArgs{Query: "q"})
		if err == nil || !strings.Contains(err.Error(), "SEARXNG_URL") || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("SEARXNG_URL=%q: Execute error = %v, want one naming SEARXNG_URL without the password", v, err)
		}
	}
}
