package toolmcp

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolreg/toolreg/internal/clip"
	"github.com/toolreg/toolreg/jsonarg"
	"github.com/toolreg/toolreg/redact"
	"github.com/toolreg/toolreg/telemetry"
)

// The defaults of HTTPOptions.
const (
	// DefaultMaxBodyBytes bounds a request body: a tool's arguments are
	// refused past 1 MiB anyway, and the JSON-RPC envelope is small.
	DefaultMaxBodyBytes = 4 << 20
	// DefaultBodyBytesInFlight bounds the bodies of the requests in
	// flight together: sixteen bodies of the largest size, or thousands
	// of ordinary calls.
	DefaultBodyBytesInFlight = 16 * DefaultMaxBodyBytes
	// DefaultMaxRequestsInFlight bounds the requests being answered at
	// once: calls waiting for a worker, running tools and open listen
	// streams together.
	DefaultMaxRequestsInFlight = 256
	// DefaultReadHeaderTimeout bounds reading a request's headers.
	DefaultReadHeaderTimeout = 10 * time.Second
	// DefaultReadTimeout bounds reading a request's body, so that a
	// stalled upload does not hold its connection.
	DefaultReadTimeout = 30 * time.Second
	// DefaultWriteTimeout bounds one write of an answer: how long the
	// client may leave it unread.
	DefaultWriteTimeout = 30 * time.Second
	// DefaultIdleTimeout is how long a kept-alive connection may wait
	// for its next request.
	DefaultIdleTimeout = 2 * time.Minute
	// ShutdownTimeout is the default grace period: how long ServeHTTP
	// waits for the calls in flight once its context is done.
	ShutdownTimeout = 10 * time.Second
)

// HTTPOptions configures HTTPHandler and ServeHTTP. The zero value is
// ready to use, without a token: for loopback only.
type HTTPOptions struct {
	// Logger receives the transport's logs; nothing is logged when nil.
	Logger *slog.Logger
	// Token, when not empty, is the bearer token every MCP request must
	// carry (Authorization: Bearer TOKEN); others get 401 with a
	// WWW-Authenticate header. /healthz and /readyz need none.
	Token string
	// MaxBodyBytes bounds a request body (413 past it);
	// DefaultMaxBodyBytes when zero or less.
	MaxBodyBytes int64
	// BodyBytesInFlight bounds the bytes of the bodies of all the
	// requests in flight, each counted from when its reading starts (by
	// its Content-Length, or MaxBodyBytes without one) until it is
	// answered: a request that does not fit is answered 503 with
	// Retry-After, so that clients holding many large calls open cannot
	// take the server's memory. 16 × MaxBodyBytes when zero or less, and
	// never less than MaxBodyBytes.
	BodyBytesInFlight int64
	// MaxRequestsInFlight bounds the JSON-RPC requests being answered at
	// once, the messages of a batch each and the subscriptions/listen
	// streams included: a request past it is answered 503 with
	// Retry-After and is not run, so that a client posting many small
	// calls cannot hold goroutines, queued calls and tools without
	// bound (the body budget alone let hundreds of thousands in).
	// DefaultMaxRequestsInFlight when zero or less, and never less than
	// MaxBatch, so that any batch fits an idle server.
	MaxRequestsInFlight int
	// ReadHeaderTimeout, ReadTimeout and IdleTimeout bound reading a
	// request's headers, reading its body, and a kept-alive connection
	// between requests; the defaults when zero or less. ReadTimeout
	// does not bound the call itself, which has its tool's timeout.
	ReadHeaderTimeout, ReadTimeout, IdleTimeout time.Duration
	// WriteTimeout bounds how long one write of an answer (a part of an
	// event stream, or a JSON body) waits for the client to take it:
	// past it the connection is given up and the call is cancelled, so
	// that a client that stops reading (its progress events, a large
	// result) does not hold the call, its tool and its body for as long
	// as it keeps the connection open. It bounds each write, not the
	// answer: a call may take its tool's timeout, and send progress all
	// along. DefaultWriteTimeout when zero or less. ServeHTTP sets it as
	// the server's WriteTimeout too, which each write extends; a server
	// of your own that serves HTTPHandler beside other handlers should
	// set its WriteTimeout as well, since a connection's write deadline
	// outlives the request that set it.
	WriteTimeout time.Duration
	// ShutdownGrace is how long ServeHTTP lets the calls in flight finish
	// once its context is done; ShutdownTimeout when zero or less.
	ShutdownGrace time.Duration
	// OAuth, when not nil, makes the server an OAuth 2.1 resource server
	// (see OAuth): it takes the place of Token, which it still accepts
	// when set.
	OAuth *OAuth
	// Ready, when not nil, is asked by ReadyPath: an error (say, a
	// mounted server that is gone) answers 503 with its text, so that a
	// load balancer sends the calls elsewhere.
	Ready func(ctx context.Context) error
	// Telemetry, when enabled, reads the trace context of the HTTP
	// headers (traceparent, tracestate) of requests whose params._meta
	// carries none. The spans are the server's (ServerOptions.Telemetry).
	Telemetry *telemetry.Providers
}

// maxReason bounds the reason /readyz gives, in characters.
const maxReason = 500

// The paths of the health checks that ServeHTTP serves beside MCP, without
// a token: HealthPath answers 200 while the process serves (liveness),
// ReadyPath 200 while it takes calls (readiness).
const (
	HealthPath = "/healthz"
	ReadyPath  = "/readyz"
)

func (o *HTTPOptions) withDefaults() HTTPOptions {
	var v HTTPOptions
	if o != nil {
		v = *o
	}
	if v.Logger == nil {
		v.Logger = slog.New(slog.DiscardHandler)
	}
	if v.MaxBodyBytes <= 0 {
		v.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if v.BodyBytesInFlight <= 0 {
		v.BodyBytesInFlight = 16 * v.MaxBodyBytes
	}
	v.BodyBytesInFlight = max(v.BodyBytesInFlight, v.MaxBodyBytes)
	if v.MaxRequestsInFlight <= 0 {
		v.MaxRequestsInFlight = DefaultMaxRequestsInFlight
	}
	v.MaxRequestsInFlight = max(v.MaxRequestsInFlight, MaxBatch)
	if v.ReadHeaderTimeout <= 0 {
		v.ReadHeaderTimeout = DefaultReadHeaderTimeout
	}
	if v.ReadTimeout <= 0 {
		v.ReadTimeout = DefaultReadTimeout
	}
	if v.IdleTimeout <= 0 {
		v.IdleTimeout = DefaultIdleTimeout
	}
	if v.WriteTimeout <= 0 {
		v.WriteTimeout = DefaultWriteTimeout
	}
	if v.ShutdownGrace <= 0 {
		v.ShutdownGrace = ShutdownTimeout
	}
	return v
}

// HTTPHandler returns an http.Handler that serves srv over streamable HTTP
// in stateless mode: every POST is a request of its own, with no session
// kept between requests (no Mcp-Session-Id), so any number of replicas can
// sit behind a load balancer without sticky sessions. Responses are plain
// JSON, except for a request that carries a progress token: its answer is
// a stream of server-sent events, the notifications/progress of the call
// and then its result.
//
// In front of the SDK's handler, in this order: a request arriving on a
// loopback address with a Host that is not local (DNS rebinding) and
// cross-origin requests are refused with 403 (the Origin and
// Sec-Fetch-Site headers, as the MCP spec requires); with opts.Token, a request without the
// right bearer token gets 401; the body is read within ReadTimeout and
// MaxBodyBytes (408, 413), a body that is not JSON is answered with a
// JSON-RPC parse error (-32700), and one whose id, method or the params
// front reads are not of their types with 400 and -32600. A call ends when its client goes away, or
// when the same client (the same Authorization header) posts
// notifications/cancelled with the call's request id.
func HTTPHandler(srv *mcp.Server, opts *HTTPOptions) http.Handler {
	o := opts.withDefaults()
	return newFront(srv, &o, nil).outer
}

// newFront returns the handler of HTTPHandler; while draining is set,
// requests are answered 503 (notifications pass, so a call in flight can
// still be cancelled).
func newFront(srv *mcp.Server, o *HTTPOptions, draining *atomic.Bool) *front {
	sdk := func(jsonResponse bool) http.Handler {
		var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
			Stateless:                    true,
			JSONResponse:                 jsonResponse,
			Logger:                       o.Logger,
			MaxRequestBodyBytes:          o.MaxBodyBytes,
			PropagateRequestCancellation: true,
		})
		h = withRequestContext(h)
		if o.Telemetry.Enabled() {
			h = withTraceHeaders(h, o.Telemetry.TextMapPropagator())
		}
		return h
	}
	f := &front{
		oauth:    o.OAuth,
		jsonH:    sdk(true),
		streamH:  sdk(false),
		calls:    map[callKey]map[*inflightCall]bool{},
		draining: draining,
		idle:     make(chan struct{}),
		max:      o.MaxRequestsInFlight,
	}
	close(f.idle)
	var h http.Handler = readBody(f, o.MaxBodyBytes, o.ReadTimeout, &bodyBudget{left: o.BodyBytesInFlight})
	switch {
	case o.OAuth != nil:
		o.OAuth.StaticToken = cmp.Or(o.OAuth.StaticToken, o.Token)
		h = o.OAuth.require(h)
	case o.Token != "":
		h = requireToken(h, o.Token)
	}
	h = localHostOnly(http.NewCrossOriginProtection().Handler(h))
	h = writesWithin(h, o.WriteTimeout)
	if o.OAuth != nil {
		mux := http.NewServeMux()
		mux.Handle("GET "+MetadataPath, auth.ProtectedResourceMetadataHandler(o.OAuth.metadata()))
		mux.Handle("/", h)
		h = mux
	}
	f.outer = h
	return f
}

// front routes the MCP requests read by readBody: it answers a body that
// is not JSON, records the requests in flight so that a
// notifications/cancelled posted later finds them, and sends a request
// with a progress token to the SDK handler that streams.
type front struct {
	outer          http.Handler // the whole chain, front included
	oauth          *OAuth       // nil without OAuth
	jsonH, streamH http.Handler
	draining       *atomic.Bool // nil for HTTPHandler
	mu             sync.Mutex
	calls          map[callKey]map[*inflightCall]bool
	n              int           // requests in flight, but the listens
	max            int           // bound of n and the listens together
	idle           chan struct{} // closed while n is 0
	// listens are the subscriptions/listen streams open (protocol
	// 2026-07-28): they last as long as their client stays, so the
	// drain does not wait for them, and ends them.
	listens map[*inflightCall]bool
}

// callKey names a request in flight: the digest of its Authorization
// header, so that a client cancels only its own requests, and its
// JSON-RPC id.
type callKey struct {
	auth [sha256.Size]byte
	id   string
}

type inflightCall struct {
	cancel context.CancelCauseFunc
}

// envelope is what front reads of a JSON-RPC message.
type envelope struct {
	ID     json.RawMessage
	Method string
	Params struct {
		Name      string
		RequestID json.RawMessage
		Reason    string
		Meta      struct {
			ProgressToken json.RawMessage
			LogLevel      string
		}
	}
}

// UnmarshalJSON reads a message's keys exactly, as the SDK does: with
// struct tags, encoding/json matched them whatever their case, so that a
// second key "ID" (null), "Method" or "Name" made front read another
// message than the SDK ran (a request taken for a notification went past
// the drain; a call, past the scopes' 403). Of a key given twice, the
// last counts, for both. It reads the message in place: the values it
// keeps are parts of b, and the members it does not know are skipped
// without being kept.
func (e *envelope) UnmarshalJSON(b []byte) error {
	d := jsonarg.NewDecoder(b)
	err := members(&d, b, func(key []byte, raw json.RawMessage) error {
		switch string(key) {
		case "id":
			e.ID = raw
		case "method":
			return stringValue(raw, &e.Method)
		case "params":
			return e.params(raw)
		}
		return nil
	})
	if err == nil {
		err = d.End()
	}
	if err != nil {
		return fmt.Errorf("message: %w", err)
	}
	return nil
}

// params reads the members of params that front needs.
func (e *envelope) params(raw json.RawMessage) error {
	if !isObject(raw) {
		return nil // the SDK answers
	}
	p := &e.Params
	d := jsonarg.NewDecoder(raw)
	return members(&d, raw, func(key []byte, raw json.RawMessage) error {
		switch string(key) {
		case "name":
			return stringValue(raw, &p.Name)
		case "requestId":
			p.RequestID = raw
		case "reason":
			return stringValue(raw, &p.Reason)
		case "_meta":
			if !isObject(raw) {
				return nil
			}
			md := jsonarg.NewDecoder(raw)
			return members(&md, raw, func(key []byte, raw json.RawMessage) error {
				switch string(key) {
				case "progressToken":
					p.Meta.ProgressToken = raw
				case "io.modelcontextprotocol/logLevel":
					return stringValue(raw, &p.Meta.LogLevel)
				}
				return nil
			})
		}
		return nil
	})
}

// members calls member with the key and the value, a part of b, of each
// member of the object that d, a decoder of b, is at.
func members(d *jsonarg.Decoder, b []byte, member func(key []byte, raw json.RawMessage) error) error {
	if err := d.ObjectStart(); err != nil {
		return fmt.Errorf("not an object: %w", err)
	}
	for {
		k, ok, err := d.NextField()
		if err != nil || !ok {
			return err
		}
		// An escaped key is unescaped into the decoder's buffer, which
		// skipping a value with escaped keys of its own reuses: the key
		// read would be another than the SDK reads.
		k = bytes.Clone(k)
		start, end, err := d.Skip()
		if err != nil {
			return err
		}
		if err := member(k, b[start:end]); err != nil {
			return err
		}
	}
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '{' }

// stringValue decodes raw, a JSON string or null, into s.
func stringValue(raw json.RawMessage, s *string) error {
	if string(raw) == "null" {
		*s = ""
		return nil
	}
	if err := json.Unmarshal(raw, s); err != nil {
		return fmt.Errorf("not a string: %w", err)
	}
	return nil
}

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
		f.jsonH.ServeHTTP(w, r)
		return
	}
	// readBody made the body a bytes.Reader over the whole of it.
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if !json.Valid(body) {
		writeRPCError(w, http.StatusBadRequest, nil, jsonrpc.CodeParseError, "parse error: the request body is not JSON")
		return
	}
	// One message, or a batch of them (protocol 2025-03-26, which the
	// SDK takes from a client that sends no Mcp-Protocol-Version): each
	// message of a batch is held to what a message alone is.
	var envs []envelope
	var err error
	t := bytes.TrimSpace(body)
	switch {
	case len(t) > 0 && t[0] == '{':
		envs = make([]envelope, 1)
		err = json.Unmarshal(t, &envs[0])
	case len(t) > 0 && t[0] == '[':
		if !batchWithin(t, MaxBatch) {
			writeRPCError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("a batch of more than %d messages: send them in several", MaxBatch))
			return
		}
		err = json.Unmarshal(t, &envs)
	}
	for i := range envs {
		if id := envs[i].ID; err == nil && len(id) > 0 && string(id) != "null" && idKey(id) == "" {
			err = errors.New("an id that is neither a string nor an integer of at most 2^53 in size")
		}
	}
	if err != nil {
		// A message front cannot read is not handed to the SDK unseen:
		// the SDK reads less of it (a tools/call whose params.reason is
		// a number), and would run it past the scopes and the drain.
		writeRPCError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, "invalid request: "+clip.String(err.Error(), 200))
		return
	}
	if len(envs) == 0 {
		f.jsonH.ServeHTTP(w, r) // a wrong shape: the SDK answers
		return
	}
	auth := sha256.Sum256([]byte(r.Header.Get("Authorization")))
	var requests []*envelope // those that are answered
	stream := false
	for i := range envs {
		env := &envs[i]
		if env.Method == "notifications/cancelled" {
			f.cancel(callKey{auth, idKey(env.Params.RequestID)}, env.Params.Reason)
			continue
		}
		if idKey(env.ID) == "" || env.Method == "" { // a notification or a response
			continue
		}
		requests = append(requests, env)
		if m := env.Params.Meta; len(m.ProgressToken) > 0 && string(m.ProgressToken) != "null" || m.LogLevel != "" {
			stream = true
		}
	}
	if len(requests) == 0 {
		f.jsonH.ServeHTTP(w, r)
		return
	}
	if f.draining != nil && f.draining.Load() {
		w.Header().Set("Retry-After", "1")
		writeRPCError(w, http.StatusServiceUnavailable, requests[0].ID, codeShuttingDown, "the server is shutting down: send the request again, to another replica")
		return
	}
	for _, env := range requests {
		if env.Method == "tools/call" && f.oauth.forbid(w, r, env.Params.Name, env.ID) {
			return
		}
	}
	// The requests of a batch share the HTTP request's context: a
	// cancellation of one of them ends them all.
	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	listen := len(requests) == 1 && requests[0].Method == "subscriptions/listen"
	done, ok := f.add(auth, requests, &inflightCall{cancel: cancel}, listen)
	if !ok {
		w.Header().Set("Retry-After", "1")
		writeRPCError(w, http.StatusServiceUnavailable, requests[0].ID, codeBusy,
			fmt.Sprintf("the server is answering %d requests, its most at once: send the request again", f.max))
		return
	}
	defer done()
	r = r.WithContext(ctx)
	if stream {
		// Its notifications stream before its result.
		f.streamH.ServeHTTP(w, r)
		return
	}
	f.jsonH.ServeHTTP(w, r)
}

// MaxBatch is the most messages a JSON-RPC batch over HTTP may hold
// (protocol 2025-03-26; later versions have none); a longer one is
// refused with 400 and -32600 before anything decodes it: the SDK decodes
// and handles every message of a batch, at 60 times its size in memory
// for small ones.
const MaxBatch = 100

// batchWithin reports whether the batch b, a JSON array, holds at most max
// messages; it reads no further than the message past max, and an array
// it cannot read is left to the SDK's answer.
func batchWithin(b []byte, max int) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // [
		return true
	}
	for n := 0; dec.More(); n++ {
		if n == max {
			return false
		}
		var m json.RawMessage
		if dec.Decode(&m) != nil {
			return true
		}
	}
	return true
}

// The JSON-RPC errors of a request refused before it runs, in the range
// the spec leaves to servers: during a drain, and past
// MaxRequestsInFlight.
const (
	codeShuttingDown = -32000
	codeBusy         = -32001
)

// add records requests, those of one HTTP request, in flight under c and
// returns the function that forgets them; a listen stream is not counted
// in n (see front.listens), but counts against max with them. When they
// do not fit under max, nothing is recorded and ok is false.
func (f *front) add(auth [sha256.Size]byte, requests []*envelope, c *inflightCall, listen bool) (done func(), ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n+len(f.listens)+len(requests) > f.max {
		return nil, false
	}
	keys := make([]callKey, len(requests))
	for i, env := range requests {
		k := callKey{auth, idKey(env.ID)}
		keys[i] = k
		if f.calls[k] == nil {
			f.calls[k] = map[*inflightCall]bool{}
		}
		f.calls[k][c] = true
	}
	if listen {
		if f.listens == nil {
			f.listens = map[*inflightCall]bool{}
		}
		f.listens[c] = true
		if f.draining != nil && f.draining.Load() {
			c.cancel(errShuttingDown) // the drain began after it was let in
		}
	} else {
		if f.n == 0 {
			f.idle = make(chan struct{})
		}
		f.n += len(requests)
	}
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, k := range keys {
			delete(f.calls[k], c)
			if len(f.calls[k]) == 0 {
				delete(f.calls, k)
			}
		}
		if listen {
			delete(f.listens, c)
			return
		}
		f.n -= len(requests)
		if f.n == 0 {
			close(f.idle)
		}
	}, true
}

// errShuttingDown ends the listen streams when the drain begins.
var errShuttingDown = errors.New("the server is shutting down")

// endListens ends the listen streams open; their clients listen again
// elsewhere.
func (f *front) endListens() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.listens {
		c.cancel(errShuttingDown)
	}
}

// cancel ends the requests in flight named k. A client that reuses an id
// for requests it runs at once cancels them all.
func (f *front) cancel(k callKey, reason string) {
	if k.id == "" {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.calls[k] {
		c.cancel(&cancelledError{reason})
	}
}

// cancelledError is the cause of a call ended by notifications/cancelled.
type cancelledError struct{ reason string }

func (e *cancelledError) Error() string {
	if e.reason == "" {
		return "cancelled by the client"
	}
	return "cancelled by the client: " + e.reason
}

func (e *cancelledError) Is(target error) bool { return target == context.Canceled }

// idleChan returns a channel closed while no request is in flight.
func (f *front) idleChan() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.idle
}

// idKey returns a JSON-RPC id in a canonical form, or "" when raw is no
// id the SDK keeps as it is (see the number case).
func idKey(raw json.RawMessage) string {
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if len(raw) == 0 || d.Decode(&v) != nil {
		return ""
	}
	switch v := v.(type) {
	case string:
		return "s" + v
	case json.Number:
		// The SDK keeps a number id as an int64: 1.5 would be answered
		// as 1, 2^53+1 as 2^53, and two requests would share an answer.
		// Only an integer that a float64 holds exactly (1, 1.0) is the
		// same id on both sides.
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			f, ferr := strconv.ParseFloat(string(v), 64)
			if ferr != nil || f != math.Trunc(f) || math.Abs(f) >= 1<<53 {
				return ""
			}
			n = int64(f)
		}
		if n > 1<<53 || n < -(1<<53) {
			return ""
		}
		return "n" + strconv.FormatInt(n, 10)
	}
	return ""
}

// writeRPCError answers with a JSON-RPC error; id nil stands for null.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int64, message string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": code, "message": message},
	})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// localHostOnly refuses with 403 a request that arrived on a loopback
// address with a Host that is not local: a page of a host name rebound to
// that address (DNS rebinding), whose requests the browser takes for
// same-origin. The SDK's handler refuses them too, but only once it is
// reached: front acts on a notifications/cancelled before it, and without
// a token the ids of a local client's calls are easy to guess.
func localHostOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && la != nil && isLoopback(la.String()) && !isLoopback(r.Host) {
			http.Error(w, "forbidden: the Host header is not a local name", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isLoopback reports whether addr, a host or host:port, is localhost or a
// loopback address, as the SDK's check reads it.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// requireToken refuses requests without "Authorization: Bearer token". The
// comparison is of SHA-256 digests in constant time, so that neither the
// token's bytes nor its length show in the timing. (The SDK's
// auth.RequireBearerToken sends WWW-Authenticate only along with OAuth
// resource metadata or scopes, which a static token has none of.)
func requireToken(next http.Handler, token string) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
		gotSum := sha256.Sum256([]byte(strings.TrimSpace(got)))
		ok := strings.EqualFold(scheme, "Bearer") && subtle.ConstantTimeCompare(gotSum[:], want[:]) == 1
		if !ok {
			challenge := `Bearer realm="mcp"`
			if r.Header.Get("Authorization") != "" {
				challenge += `, error="invalid_token"`
			}
			w.Header().Set("WWW-Authenticate", challenge)
			http.Error(w, "unauthorized: send the server's token as Authorization: Bearer TOKEN", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// bodyBudget is what is left of HTTPOptions.BodyBytesInFlight.
type bodyBudget struct {
	mu   sync.Mutex
	left int64
}

// take takes n bytes of the budget, or reports that they are not left.
func (b *bodyBudget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.left {
		return false
	}
	b.left -= n
	return true
}

// give gives n bytes back.
func (b *bodyBudget) give(n int64) {
	b.mu.Lock()
	b.left += n
	b.mu.Unlock()
}

// readBody reads a POST body whole, within max bytes and the read timeout,
// before the SDK sees the request; then it lifts the read deadline, so
// that a long call is not cut by it. The body counts against budget from
// before it is read until the request is answered; a request whose body
// does not fit is answered 503.
func readBody(next http.Handler, max int64, timeout time.Duration, budget *bodyBudget) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		held := max
		if r.ContentLength >= 0 && r.ContentLength < max {
			held = r.ContentLength
		}
		if !budget.take(held) {
			w.Header().Set("Retry-After", "1")
			w.Header().Set("Connection", "close") // the body is not read
			http.Error(w, "too many request bodies in flight: send the request again", http.StatusServiceUnavailable)
			return
		}
		defer func() { budget.give(held) }()
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Now().Add(timeout)) // not every writer supports it (httptest.ResponseRecorder)
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
		_ = rc.SetReadDeadline(time.Time{})
		var mbe *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &mbe):
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit), http.StatusRequestEntityTooLarge)
			return
		case errors.As(err, &ne) && ne.Timeout():
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("request body not received within %s", timeout), http.StatusRequestTimeout)
			return
		case err != nil:
			http.Error(w, "cannot read the request body", http.StatusBadRequest)
			return
		}
		budget.give(held - int64(len(body)))
		held = int64(len(body))
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// writesWithin gives each write of an answer timeout to reach the
// client: a write (or flush) that the client leaves unread for longer
// fails, and net/http then cancels the request's context, which ends its
// call. Without it, a client that stopped reading an event stream blocked
// the tool in its next progress report, and the call's result behind it,
// for as long as it kept its connection.
func writesWithin(next http.Handler, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g := &stallGuard{ResponseWriter: w, rc: http.NewResponseController(w), timeout: timeout}
		// A deadline left on the connection by its last answer is
		// replaced (net/http's own writes, such as 100 Continue, come
		// before the handler's); the answer's last bytes, which net/http
		// writes once the handler returns, have their time too.
		g.extend()
		defer g.extend()
		next.ServeHTTP(g, r)
	})
}

// stallGuard is the http.ResponseWriter of writesWithin.
type stallGuard struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

// extend sets the connection's write deadline timeout from now. Not every
// writer supports it (httptest.ResponseRecorder): then writes are not
// bounded.
func (g *stallGuard) extend() { _ = g.rc.SetWriteDeadline(time.Now().Add(g.timeout)) }

func (g *stallGuard) Write(p []byte) (int, error) {
	g.extend()
	return g.ResponseWriter.Write(p)
}

// FlushError flushes the answer within the timeout; http.ResponseController,
// which the SDK's event writer flushes with, finds it.
func (g *stallGuard) FlushError() error {
	g.extend()
	return g.rc.Flush()
}

// Unwrap gives http.ResponseController the writer underneath.
func (g *stallGuard) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// requestKey is the context key of the HTTP request's own context.
type requestKey struct{}

// withRequestContext records the request's context in itself, where the
// tool handler finds it: the SDK passes values on to handlers but, for
// protocol versions before 2026-07-28, not the request's cancellation.
func withRequestContext(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		next.ServeHTTP(w, r.WithContext(context.WithValue(ctx, requestKey{}, ctx)))
	})
}

// linkRequest returns ctx, cancelled also when the HTTP request it came
// from ends (its client went away, or cancelled it), and a function to
// release it.
func linkRequest(ctx context.Context) (context.Context, func()) {
	rc, ok := ctx.Value(requestKey{}).(context.Context)
	if !ok {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(rc, func() {
		cause := context.Cause(rc)
		var ce *cancelledError
		if !errors.As(cause, &ce) {
			cause = fmt.Errorf("the client went away: %w", cause)
		}
		cancel(cause)
	})
	return ctx, func() { stop(); cancel(nil) }
}

// ServeHTTP serves srv (see HTTPHandler) on ln until ctx is done, with
// /healthz (200 while the process serves) and /readyz (200 until shutdown
// begins, then 503) beside it. When ctx is done it drains: it lets the
// calls in flight finish within opts.ShutdownGrace while it still answers,
// /readyz with 503 and new MCP requests with 503 and a JSON-RPC error, then
// stops accepting and returns nil; calls still running after the grace
// period are cut off and it returns an error. It closes ln.
func ServeHTTP(ctx context.Context, ln net.Listener, srv *mcp.Server, opts *HTTPOptions) error {
	o := opts.withDefaults()
	var draining atomic.Bool
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+HealthPath, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("GET "+ReadyPath, func(w http.ResponseWriter, r *http.Request) {
		if draining.Load() {
			http.Error(w, "shutting down", http.StatusServiceUnavailable)
			return
		}
		if o.Ready != nil {
			if err := o.Ready(r.Context()); err != nil {
				// Anyone may ask: the reason is shown redacted, on one line.
				http.Error(w, "not ready: "+clip.Line(redact.String(err.Error()), maxReason), http.StatusServiceUnavailable)
				return
			}
		}
		io.WriteString(w, "ready\n")
	})
	f := newFront(srv, &o, &draining)
	mux.Handle("/", f.outer)
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: o.ReadHeaderTimeout,
		IdleTimeout:       o.IdleTimeout,
		// Reset for each request; an MCP answer's writes extend it.
		WriteTimeout: o.WriteTimeout,
		// Calls outlive ctx for the grace period.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
		ErrorLog:    slog.NewLogLogger(o.Logger.Handler(), slog.LevelDebug),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("toolmcp: serve http on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	// Drain: /readyz answers 503 and new requests are refused with 503
	// while the calls in flight finish, so a load balancer still reaches
	// the server and learns it is going; then the listener closes.
	draining.Store(true)
	f.endListens()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.ShutdownGrace)
	defer cancel()
	select {
	case <-f.idleChan():
	case <-sctx.Done():
	}
	err := hs.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("calls still running after the grace period of %s were cut off", o.ShutdownGrace)
		_ = hs.Close()
	}
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) && serr != nil {
		err = errors.Join(err, serr)
	}
	if err != nil {
		return fmt.Errorf("toolmcp: shut down http on %s: %w", ln.Addr(), err)
	}
	return nil
}
