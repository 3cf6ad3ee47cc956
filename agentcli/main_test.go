package agentcli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/toolreg/toolreg"

	"github.com/toolreg/toolreg/internal/raceexit"
)

var update = flag.Bool("update", false, "rewrite the expectations in testdata/script")

// agentMainEnv makes the test binary run the agent's main, for tests that
// drive it through a pseudo-terminal.
const agentMainEnv = "TOOLREG_TEST_AGENT_MAIN"

// stdioChildEnv, set to 1, makes the test binary TestProtocolStdio's
// child.
const stdioChildEnv = "AGENTCLI_STDIO_CHILD"

// testTools are the tools the agent is tested with: this repository's.
var testTools = CompiledTools{Toolbox: toolreg.Toolbox, Skills: toolreg.Skills, Env: toolreg.ToolEnv(), Secrets: toolreg.ToolSecrets()}

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == workerArg {
		os.Exit(runWorker(os.Args[2:], os.Stderr, testTools))
	}
	if len(os.Args) > 1 && os.Args[1] == mcpEnvArg {
		os.Exit(runMCPEnv(os.Args[2:]))
	}
	if os.Getenv(agentMainEnv) == "1" {
		os.Exit(Main(testTools))
	}
	if os.Getenv(stdioChildEnv) == "1" {
		// Before testscript.Main: its temporary directory, removed when
		// m.Run returns, stays behind a process that calls os.Exit.
		os.Exit(stdioChild())
	}
	if filepath.Base(os.Args[0]) != "agent" {
		// The test process: the scripts' agent, its workers and the
		// servers it mounts are this binary again, hundreds of processes.
		if err := raceexit.Shorten(); err != nil {
			panic(err)
		}
	}
	testscript.Main(m, map[string]func(){
		"agent": func() {
			c := &cli{tools: testTools, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
			os.Exit(c.run(context.Background(), os.Args[1:]))
		},
	})
}

// TestScripts runs the command-line scripts in testdata/script, with the
// test binary playing the agent and a fake model server on loopback.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup:               startFakeModel,
	})
}

// startFakeModel starts an OpenAI-compatible server for one script and
// points LLM_BASE_URL at it. It answers the n-th chat completion request
// with the script's file llm/n: an optional status line "HTTP 429" and
// header lines, a blank line, then the body, served as an event stream when
// it starts with "data:" and as JSON otherwise. It writes each request body
// it receives to requests/n.json, indented, and the Authorization header to
// requests/n.auth, so scripts can check what the agent sent. It answers
// GET /v1/models with the script's file models.json. What the agent keeps
// (history, conversations) goes to $WORK/state.
func startFakeModel(env *testscript.Env) error {
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/models" {
			models, err := os.ReadFile(filepath.Join(env.WorkDir, "models.json"))
			if err != nil {
				http.Error(w, "the script has no models.json", http.StatusNotFound)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(models)
			return
		}
		if r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "not found: "+r.URL.Path, http.StatusNotFound)
			return
		}
		mu.Lock()
		n++
		i := n
		mu.Unlock()
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, body, "", "  "); err != nil {
			http.Error(w, "request is not JSON: "+err.Error(), http.StatusBadRequest)
			return
		}
		dir := filepath.Join(env.WorkDir, "requests")
		_ = os.MkdirAll(dir, 0o755)
		_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.json", i)), pretty.Bytes(), 0o644)
		_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.auth", i)), []byte(r.Header.Get("Authorization")+"\n"), 0o644)
		script, err := os.ReadFile(filepath.Join(env.WorkDir, "llm", strconv.Itoa(i)))
		if err != nil {
			http.Error(w, fmt.Sprintf("the script has no answer for request %d", i), http.StatusInternalServerError)
			return
		}
		status := http.StatusOK
		text := string(script)
		if strings.HasPrefix(text, "HTTP ") {
			head, rest, _ := strings.Cut(text, "\n\n")
			lines := strings.Split(head, "\n")
			status, _ = strconv.Atoi(strings.TrimPrefix(lines[0], "HTTP "))
			for _, h := range lines[1:] {
				k, v, _ := strings.Cut(h, ":")
				w.Header().Set(strings.TrimSpace(k), strings.TrimSpace(v))
			}
			text = rest
		}
		if strings.HasPrefix(text, "data:") {
			w.Header().Set("Content-Type", "text/event-stream")
		} else if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, text)
	}))
	env.Defer(srv.Close)
	env.Setenv("LLM_BASE_URL", srv.URL+"/v1")
	// The scripts name the compiled-in skills through $SKILLS, so that a
	// skill added to skills/ changes no expectation.
	env.Setenv("SKILLS", strings.Join(testTools.Skills().Names(), ", "))
	env.Setenv("FAKE_URL", srv.URL+"/v1")
	env.Setenv("LLM_MODEL", "fake-model")
	// What the agent keeps between runs stays in the script's directory.
	env.Setenv("XDG_STATE_HOME", filepath.Join(env.WorkDir, "state"))
	return nil
}
