package mcpauth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// callbackPath is the path of the redirect URI.
const callbackPath = "/callback"

// callback is the loopback listener of one authorization code flow: it
// takes one redirect to callbackPath whose state is right, and nothing
// else.
type callback struct {
	redirect string // http://127.0.0.1:PORT/callback
	srv      *http.Server
	results  chan callbackResult

	mu    sync.Mutex
	state string // set by wait
	done  bool   // the one redirect was taken
}

// callbackResult is what the redirect brought.
type callbackResult struct {
	code, iss string
	err       error
}

// listenCallback listens on 127.0.0.1:port (an ephemeral port when 0).
func listenCallback(port int) (*callback, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("redirect listener: %w", err)
	}
	cb := &callback{
		redirect: "http://" + ln.Addr().String() + callbackPath,
		results:  make(chan callbackResult, 1),
	}
	cb.srv = &http.Server{Handler: http.HandlerFunc(cb.serve), ReadHeaderTimeout: 10 * time.Second}
	go cb.srv.Serve(ln) //nolint:errcheck // ends with ErrServerClosed at close
	return cb, nil
}

// serve answers the browser. A request for another path or method, or
// after the redirect was taken, gets 404; one whose state is wrong gets
// 400 and does not end the wait, so that a stray request cannot cancel
// the sign-in.
func (cb *callback) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	if r.URL.Path != callbackPath || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	cb.mu.Lock()
	if cb.done || cb.state == "" {
		cb.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(cb.state)) != 1 {
		cb.mu.Unlock()
		http.Error(w, "This sign-in link is not the one the agent is waiting for.", http.StatusBadRequest)
		return
	}
	cb.done = true
	cb.mu.Unlock()
	res := callbackResult{code: q.Get("code"), iss: q.Get("iss")}
	switch {
	case q.Get("error") != "":
		res.err = fmt.Errorf("the authorization server answered %s: %s", q.Get("error"), q.Get("error_description"))
	case res.code == "":
		res.err = errors.New("the redirect carries no code")
	}
	cb.results <- res
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	msg := "Signed in. You can close this tab and return to the terminal."
	if res.err != nil {
		w.WriteHeader(http.StatusBadRequest)
		msg = "Sign-in failed: " + res.err.Error()
	}
	fmt.Fprintf(w, "<!doctype html><title>toolreg agent</title><p>%s</p>\n", html.EscapeString(msg))
}

// expect sets the state the redirect must carry; until it is set, no
// redirect is taken.
func (cb *callback) expect(state string) {
	cb.mu.Lock()
	cb.state = state
	cb.mu.Unlock()
}

// wait waits for the redirect.
func (cb *callback) wait(ctx context.Context) (callbackResult, error) {
	select {
	case res := <-cb.results:
		return res, res.err
	case <-ctx.Done():
		return callbackResult{}, ctx.Err()
	}
}

// close stops listening, letting the answer to the browser finish.
func (cb *callback) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if cb.srv.Shutdown(ctx) != nil {
		cb.srv.Close()
	}
}
