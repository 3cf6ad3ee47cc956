package toolmcp

//lint:file-ignore SA1019 MCP logging and roots are deprecated as of protocol 2026-07-28 and functional for at least twelve months; toolreg serves and mounts servers that speak the earlier versions

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // image.DecodeConfig of the images of mounted tools
	_ "image/jpeg"
	_ "image/png"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolreg/toolreg/egress"
	"github.com/toolreg/toolreg/internal/clip"
	"github.com/toolreg/toolreg/internal/origin"
	"github.com/toolreg/toolreg/redact"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/telemetry"
	"github.com/toolreg/toolreg/tool"
)

// The defaults of MountOptions.
const (
	DefaultConnectTimeout = 30 * time.Second
	DefaultCallTimeout    = 2 * time.Minute
	// DefaultTerminateWait is how long Close waits for a stdio server to
	// exit once its stdin is closed before it signals it.
	DefaultTerminateWait = 2 * time.Second
	// DefaultMaxTools is the most tools one server may offer; those
	// past it, in the order of their names, are left out.
	DefaultMaxTools = 256
	// DefaultRefreshInterval is the least time between two listings of
	// one server's tools after it says they changed
	// (notifications/tools/list_changed): the notifications that arrive
	// meanwhile make one listing.
	DefaultRefreshInterval = time.Second
	// DefaultReplyTimeout bounds the POST of one answer of the client
	// to an HTTP server's request (ping, roots/list): a server takes it
	// at once (202 Accepted).
	DefaultReplyTimeout = 30 * time.Second
)

// MountOptions configures Mount. The zero value is ready to use.
type MountOptions struct {
	// Warn receives one line for each server that could not be mounted
	// at start and for each server lost afterwards; nothing is written
	// when nil. The agent gives its stderr.
	Warn io.Writer
	// Logger receives the SDK's client logs; nothing is logged when nil.
	Logger *slog.Logger
	// Stderr receives the standard error of stdio servers, without
	// control characters but newline and tab; it is discarded when nil.
	Stderr io.Writer
	// ConnectTimeout bounds connecting to one server and listing its
	// tools; DefaultConnectTimeout when zero or less.
	ConnectTimeout time.Duration
	// CallTimeout bounds one call of a remote tool (it is the Timeout of
	// its Entry); DefaultCallTimeout when zero or less. The caller's
	// context may end it sooner.
	CallTimeout time.Duration
	// TerminateWait is how long Close waits for a stdio server to exit
	// after closing its stdin before it signals the process;
	// DefaultTerminateWait when zero or less.
	TerminateWait time.Duration
	// ReplyTimeout bounds the POST of one answer of the client to an
	// HTTP server's request; DefaultReplyTimeout when zero or less.
	ReplyTimeout time.Duration
	// HTTPClient makes the requests to HTTP servers; when nil, Mount
	// makes its own, whose idle connections Close closes.
	HTTPClient *http.Client
	// Getenv reads the agent's environment for the stdio servers'
	// minimal environment, Env and Headers; os.Getenv when nil.
	Getenv func(string) string
	// Env names, by server NAME, the environment variables passed to
	// that stdio server besides the minimal set every stdio server gets
	// (PATH, HOME, USER, LANG, LC_*, TZ, TMPDIR and the like). Nothing
	// else of the agent's environment, its API keys least of all,
	// reaches a server.
	Env map[string][]string
	// Headers holds, by server NAME, HTTP headers sent to that HTTP
	// server, each "Name: value"; $VAR and ${VAR} in the value are
	// expanded from the environment when mounting, and a variable that
	// is not set is an error. The headers go only to the server's own
	// origin (scheme and host), never along a redirect elsewhere, and are
	// never printed.
	Headers map[string][]string
	// Telemetry, when enabled, traces each call of a remote tool with a
	// client span "tools/call TOOL" whose trace context the server
	// receives in the call's params._meta and, over HTTP, in the
	// traceparent header; and records mcp.client.operation.duration.
	Telemetry *telemetry.Providers
	// Roots are the directories the client offers its servers as roots
	// (roots/list), such as the agent's workspace; the roots capability
	// is claimed only when there is one, so that a server never gets an
	// empty list.
	Roots []string
	// Reserved are names remote tools must not take, such as the local
	// tools' names (Registry.Names); a remote tool whose NAME__tool is
	// one of them gets a hash suffix instead.
	Reserved []string
	// MaxTools is the most tools one server may offer, at start and
	// after each change; DefaultMaxTools when zero or less. The others
	// are left out with a line on Warn.
	MaxTools int
	// RefreshInterval is the least time between two listings of one
	// server's tools when it keeps saying they changed;
	// DefaultRefreshInterval when zero or less.
	RefreshInterval time.Duration
	// OAuth holds, by server NAME, the OAuth handler of an HTTP server
	// (package mcpauth makes them): it gives the access token of each
	// request and signs in when the server answers 401. The token goes to
	// the server's own origin only, never along a redirect elsewhere.
	OAuth map[string]auth.OAuthHandler
	// SignInTimeout is added to ConnectTimeout for a server with an
	// OAuth handler: the time a person has to sign in in a browser.
	SignInTimeout time.Duration
	// Secrets, when not nil, receives the values of the environment
	// variables that Headers and Env name whose names (or their header's)
	// say they are credentials: like an OAuth token, a caller that
	// redacts with the set keeps them out of what a server answers (an
	// error that quotes the key it refused).
	Secrets *redact.Set
	// Egress is the policy under which a request to an HTTP server that
	// leaves the server's origin (a redirect elsewhere) is dialled, as a
	// destination the model chose is (package egress); nil refuses every
	// local and private address. The server's own origin, which the
	// operator configured, is reached directly.
	Egress *egress.Policy
}

// RemoteTool describes one mounted tool.
type RemoteTool struct {
	// Name is the name offered to the model, Server__Remote or a
	// shortened form of it.
	Name string
	// Server is the NAME of the mount spec.
	Server string
	// Remote is the tool's own name on its server.
	Remote string
	// Description is the server's description of the tool.
	Description string
	// InputSchema is the server's JSON Schema of the arguments, passed
	// through as the function's parameters.
	InputSchema json.RawMessage
	// Annotations are the server's hints about the tool, if any. They
	// are the server's word, not audited at build time like local tools.
	Annotations *mcp.ToolAnnotations
}

// Mounts is the tools of the MCP servers mounted by Mount. The set changes
// when a server says its tools changed (see Changed). Its methods are safe
// for concurrent use; Close ends the sessions.
type Mounts struct {
	servers     []*remoteServer
	callTimeout time.Duration
	warn        *warner
	ownClient   *http.Client // nil when the caller gave one
	leftOut     []string     // the servers that could not be mounted at start
	reserved    []string     // MountOptions.Reserved
	maxTools    int
	listTimeout time.Duration
	every       time.Duration // MountOptions.RefreshInterval
	loops       sync.WaitGroup

	mu      sync.Mutex
	tools   []*remoteTool // sorted by exposed name
	byName  map[string]*remoteTool
	changed chan struct{} // closed at the next change of tools

	closeOnce sync.Once
	closeErr  error
}

type remoteTool struct {
	srv  *remoteServer
	info RemoteTool
}

type remoteServer struct {
	spec    Spec
	tel     *clientTelemetry // nil when telemetry is off
	session *mcp.ClientSession
	// abort closes a stdio server's connection at once, where closing
	// its session has not within abortWait (see closeSession); nil for
	// HTTP.
	abort     func()
	abortWait time.Duration
	warn      *warner
	done      chan struct{} // closed when the session has ended
	// listChanged holds a value when the server said its tools changed
	// and they have not been listed since.
	listChanged chan struct{}
	// tasks says which tools need task augmentation, from the answers
	// to tools/list as they were read.
	tasks *taskTools

	mu sync.Mutex
	// leftOut is the last note on the tools left out, so that it is
	// not repeated at each listing.
	leftOut string
	calls   map[string]*mountedCall // by progress token, the calls in flight
	// logFrom, logShown and logDropped count the log messages of the
	// second that began at logFrom: those shown and those left out.
	logFrom              time.Time
	logShown, logDropped int
	lost                 error // why the session ended, nil while it lasts
	warned               bool  // the server's failure was reported
	closing              bool
}

// warner writes whole lines to a writer shared by goroutines.
type warner struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *warner) printf(format string, args ...any) {
	if w.w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	// Spec URLs and transport errors may hold credentials; what a server
	// said (a log message, an error, a tool's name) may hold escape
	// sequences, which must not drive the terminal, and line breaks,
	// which must not make lines of the server's own among the agent's.
	fmt.Fprintln(w.w, clipLine(redact.String(fmt.Sprintf(format, args...)), maxWarning))
}

// maxWarning bounds a line of the warner, in bytes: a server's error
// message may be of any length.
const maxWarning = 16 << 10

// Mount connects to the MCP servers of specs (see ParseSpec), at the same
// time, and lists their tools. A spec that does not parse, or two specs
// with the same NAME, are an error, and nothing is started. A server that
// cannot be started, connected or listed within ConnectTimeout, or ctx, is
// left out with one line on opts.Warn; Mount returns the others. ctx bounds
// only the start: the sessions last until Close.
func Mount(ctx context.Context, specs []string, opts *MountOptions) (*Mounts, error) {
	parsed, err := ParseSpecs(specs)
	if err != nil {
		return nil, err
	}
	var o MountOptions
	if opts != nil {
		o = *opts
	}
	m := &Mounts{
		byName:      map[string]*remoteTool{},
		changed:     make(chan struct{}),
		callTimeout: cmp.Or(max(o.CallTimeout, 0), DefaultCallTimeout),
		warn:        &warner{w: o.Warn},
		reserved:    o.Reserved,
		maxTools:    cmp.Or(max(o.MaxTools, 0), DefaultMaxTools),
		listTimeout: cmp.Or(max(o.ConnectTimeout, 0), DefaultConnectTimeout),
		every:       cmp.Or(max(o.RefreshInterval, 0), DefaultRefreshInterval),
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	headers, err := expandHeaders(parsed, o.Headers, o.Getenv, o.Secrets)
	if err != nil {
		return nil, err
	}
	for name, vars := range o.Env {
		if !slices.ContainsFunc(parsed, func(s Spec) bool { return s.Name == name && s.URL == "" }) {
			return nil, fmt.Errorf("-mcp-env %s: no stdio server of that name is mounted", name)
		}
		for _, v := range vars {
			if redact.CredentialName(v) {
				o.Secrets.Add(o.Getenv(v))
			}
		}
	}
	if o.HTTPClient == nil {
		m.ownClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
		o.HTTPClient = m.ownClient
	}
	type outcome struct {
		srv   *remoteServer
		tools []*mcp.Tool
		err   error
	}
	outs := make([]outcome, len(parsed))
	var wg sync.WaitGroup
	for i, sp := range parsed {
		wg.Go(func() {
			srv, tools, err := connect(ctx, sp, &o, headers[sp.Name], m.warn, m.maxTools)
			outs[i] = outcome{srv, tools, err}
		})
	}
	wg.Wait()

	taken := map[string]bool{}
	for _, n := range o.Reserved {
		taken[n] = true
	}
	for i, out := range outs {
		if out.err != nil {
			m.warn.printf("mcp server %q (%s) left out: %v", parsed[i].Name, parsed[i], out.err)
			m.leftOut = append(m.leftOut, parsed[i].Name)
			continue
		}
		m.servers = append(m.servers, out.srv)
		m.add(out.srv, out.tools, taken)
	}
	slices.SortFunc(m.tools, func(a, b *remoteTool) int { return strings.Compare(a.info.Name, b.info.Name) })
	for _, s := range m.servers {
		m.loops.Go(func() { m.follow(s) })
	}
	return m, nil
}

// connect starts a session with the server of sp and lists its tools.
func connect(ctx context.Context, sp Spec, o *MountOptions, header http.Header, w *warner, maxTools int) (*remoteServer, []*mcp.Tool, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, o.connectTimeout(sp), fmt.Errorf("no answer within %s", o.connectTimeout(sp)))
	defer cancel()
	tasks := &taskTools{}
	var t mcp.Transport
	var abort func() // closes a stdio server's connection at once
	var abortWait time.Duration
	if sp.URL != "" {
		hc, err := offOrigin(o.HTTPClient, sp.URL, o.Egress)
		if err != nil {
			return nil, nil, err
		}
		u, err := url.Parse(sp.URL)
		if err != nil {
			return nil, nil, fmt.Errorf("url: %w", redact.Error(err))
		}
		if o.Telemetry.Enabled() {
			c := *hc
			c.Transport = &traceTransport{base: cmp.Or[http.RoundTripper](c.Transport, http.DefaultTransport), prop: o.Telemetry.TextMapPropagator(), origin: origin.Of(u)}
			hc = &c
		}
		if len(header) > 0 {
			c := *hc
			base := c.Transport
			if base == nil {
				base = http.DefaultTransport
			}
			c.Transport = &headerTransport{base: base, origin: origin.Of(u), header: header}
			hc = &c
		}
		c := *hc
		c.Transport = &taskSniffer{base: cmp.Or[http.RoundTripper](c.Transport, http.DefaultTransport), tasks: tasks}
		// An answer past maxAnswer (2 GB of base64, say) is not read.
		c.Transport = &boundTransport{base: c.Transport, max: maxAnswer}
		// The resumptions of its event streams, paced; the answers to
		// its requests, bounded.
		c.Transport = newReplyLimit(&resumeLimit{base: c.Transport}, cmp.Or(max(o.ReplyTimeout, 0), DefaultReplyTimeout))
		hc = &c
		// The standalone SSE stream carries the server's
		// notifications/tools/list_changed.
		// MaxEventSize set: the SDK (v1.8.0) leaves an event unbounded
		// at 0, which its documentation says is DefaultMaxEventSize.
		st := &mcp.StreamableClientTransport{Endpoint: sp.URL, HTTPClient: hc, MaxEventSize: maxAnswer}
		if h := o.OAuth[sp.Name]; h != nil {
			st.OAuthHandler, st.HTTPClient = h, withOAuth(hc, sp.URL)
		}
		t = st
	} else {
		cmd := exec.Command(sp.Command[0], sp.Command[1:]...)
		if o.Stderr != nil {
			// The agent's terminal: no escape sequences of the server's.
			cmd.Stderr = &printableWriter{w: o.Stderr}
		}
		cmd.Env = childEnv(o.Getenv, o.Env[sp.Name])
		wait := cmp.Or(max(o.TerminateWait, 0), DefaultTerminateWait)
		sniff := &sniffTransport{Transport: &mcp.CommandTransport{Command: cmd, TerminateDuration: wait}, tasks: tasks}
		t, abort, abortWait = sniff, sniff.abort, wait
	}
	srv := &remoteServer{spec: sp, warn: w, done: make(chan struct{}), tel: newClientTelemetry(o.Telemetry), calls: map[string]*mountedCall{},
		listChanged: make(chan struct{}, 1), tasks: tasks}
	copts := &mcp.ClientOptions{
		Logger: o.Logger,
		// No roots unless there are some to list.
		Capabilities:                &mcp.ClientCapabilities{},
		LoggingMessageHandler:       srv.logMessage,
		ProgressNotificationHandler: srv.progress,
		ToolListChangedHandler:      srv.toolsChanged,
	}
	if len(o.Roots) > 0 {
		copts.Capabilities.RootsV2 = &mcp.RootCapabilities{}
	}
	client := newMountClient(copts)
	for _, dir := range o.Roots {
		client.AddRoots(&mcp.Root{URI: (&url.URL{Scheme: "file", Path: dir}).String(), Name: filepathBase(dir)})
	}
	cs, err := client.Connect(ctx, t, nil)
	if err != nil {
		if ctx.Err() != nil {
			err = context.Cause(ctx)
		}
		return nil, nil, fmt.Errorf("connect: %w", err)
	}
	srv.session, srv.abort, srv.abortWait = cs, abort, abortWait
	tools, err := srv.listTools(ctx, maxTools)
	if err != nil {
		if ctx.Err() != nil {
			err = context.Cause(ctx)
		}
		return nil, nil, errors.Join(fmt.Errorf("list tools: %w", err), closeSession(cs, abort, abortWait))
	}
	if caps := cs.InitializeResult().Capabilities; caps != nil && caps.Logging != nil {
		// Its warnings and errors are shown on the agent's trace.
		_ = cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "warning"})
	}
	go srv.watch()
	return srv, tools, nil
}

// newMountClient returns the client of a mounted server, whose answers to
// tools/list keep only what listTools keeps (see keepPages).
func newMountClient(opts *mcp.ClientOptions) *mcp.Client {
	c := mcp.NewClient(&mcp.Implementation{Name: DefaultServerName, Version: moduleVersion()}, opts)
	c.AddSendingMiddleware(keepPages)
	return c
}

// closeSession closes cs, ignoring the exit status a stdio server may have
// when it is stopped. A stdio server's connection (abort not nil) is
// closed at once if cs has not closed within wait: the SDK first waits
// for its answers to the server's requests to be written, which a server
// that reads none of them never lets happen.
func closeSession(cs *mcp.ClientSession, abort func(), wait time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- cs.Close() }()
	var err error
	if abort == nil {
		err = <-done
	} else {
		t := time.NewTimer(wait)
		select {
		case err = <-done:
		case <-t.C:
			abort()
			err = <-done
		}
		t.Stop()
	}
	if err != nil && !serverGone(err) {
		return fmt.Errorf("close: %w", err)
	}
	return nil
}

// serverGone reports whether err, from closing a session, only says
// that the server's process has ended: with a status of its own, or
// before the signal that was to end it (it exited while the transport
// waited past its grace period).
func serverGone(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) || errors.Is(err, os.ErrProcessDone)
}

// maxLogLines is the most log messages of one server shown a second: a
// server that floods the trace has the rest counted, and the count shown
// with its next message.
const maxLogLines = 10

// logMessage shows a log message of the server on the warner (the
// agent's trace), at most maxLogLines a second.
func (s *remoteServer) logMessage(_ context.Context, r *mcp.LoggingMessageRequest) {
	p := r.Params
	if p == nil {
		return
	}
	s.mu.Lock()
	dropped := 0
	if now := time.Now(); now.Sub(s.logFrom) >= time.Second {
		dropped = s.logDropped
		s.logFrom, s.logShown, s.logDropped = now, 0, 0
	}
	if s.logShown >= maxLogLines {
		s.logDropped++
		s.mu.Unlock()
		return
	}
	s.logShown++
	s.mu.Unlock()
	if dropped > 0 {
		s.warn.printf("mcp server %q: %d log messages not shown (more than %d a second)", s.spec.Name, dropped, maxLogLines)
	}
	text, ok := p.Data.(string)
	if !ok {
		b, _ := json.Marshal(p.Data)
		text = string(b)
	}
	if p.Logger != "" {
		text = p.Logger + ": " + text
	}
	s.warn.printf("mcp server %q %s: %s", s.spec.Name, p.Level, clipLine(text, 300))
}

// The bounds of a mounted server's progress, those of a confined tool's
// (package sandbox): a server that reports in a tight loop, or with
// messages of megabytes, cannot flood the agent's own MCP clients, to
// whom agent mcp serves the progress on.
const (
	// MaxProgressMessage bounds a progress message, in bytes; a longer
	// one is cut.
	MaxProgressMessage = 1 << 10
	// ProgressEvery is the least time between two progress reports of a
	// call that reach it; the first report and the first that says the
	// work is complete always do.
	ProgressEvery = 50 * time.Millisecond
)

// mountedCall is a call in flight on a server, found by its progress
// token.
type mountedCall struct {
	ctx context.Context

	mu       sync.Mutex
	last     time.Time // when the last report went on
	complete bool      // a report of completion went on
}

// pass reports whether a report of done of total at now goes on (see
// ProgressEvery), and counts it if so.
func (c *mountedCall) pass(now time.Time, done, total float64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	first := !c.complete && total > 0 && done >= total
	if !c.last.IsZero() && now.Sub(c.last) < ProgressEvery && !first {
		return false
	}
	c.last = now
	c.complete = c.complete || (total > 0 && done >= total)
	return true
}

// progress passes a progress notification of the server on to the call
// it belongs to, as tool.Progress (the agent shows it, or serves it on to
// its own MCP client), within the bounds of MaxProgressMessage and
// ProgressEvery; a report with a negative number is dropped.
func (s *remoteServer) progress(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
	p := r.Params
	if p == nil || p.Progress < 0 || p.Total < 0 {
		return
	}
	s.mu.Lock()
	c, ok := s.calls[fmt.Sprint(p.ProgressToken)]
	s.mu.Unlock()
	if ok && c.pass(time.Now(), p.Progress, p.Total) {
		tool.Progress(c.ctx, p.Progress, p.Total, clipProgress(p.Message))
	}
}

// clipProgress returns a progress message cut to MaxProgressMessage bytes,
// at a character's start, its bytes that are not UTF-8 made U+FFFD.
func clipProgress(m string) string {
	m = strings.ToValidUTF8(m, "\uFFFD")
	if len(m) <= MaxProgressMessage {
		return m
	}
	n := MaxProgressMessage
	for n > 0 && !utf8.RuneStart(m[n]) {
		n--
	}
	return m[:n]
}

// clipLine returns s on one line, without control characters, cut to n
// bytes.
func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(clip.Printable(s)), " ")
	if len(s) > n {
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "…"
	}
	return s
}

// filepathBase returns the last element of a directory path.
func filepathBase(dir string) string {
	return path.Base(filepath.ToSlash(filepath.Clean(dir)))
}

// watch waits for the session to end, which for a stdio server means its
// process is gone, and records that.
func (s *remoteServer) watch() {
	defer close(s.done)
	err := s.session.Wait()
	if err == nil {
		err = mcp.ErrConnectionClosed
	}
	err = fmt.Errorf("session ended: %w", err)
	s.mu.Lock()
	s.lost = err
	s.mu.Unlock()
	s.failed(err)
}

// failed records that the server could not be reached, and says so once
// unless Close is ending it. An HTTP server may answer again later; a
// stdio server whose session ended is lost for good.
func (s *remoteServer) failed(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.warned || s.closing {
		return
	}
	s.warned = true
	s.warn.printf("mcp server %q is unavailable: %v; its tools answer with errors", s.spec.Name, err)
}

// gone returns why the server is lost for good, or nil.
func (s *remoteServer) gone() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lost
}

// add records the tools of srv, naming them so that none takes a name in
// taken, and adds their names to taken. m.mu is held, or m not yet shared.
func (m *Mounts) add(srv *remoteServer, tools []*mcp.Tool, taken map[string]bool) {
	slices.SortFunc(tools, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
	isTaken := func(n string) bool { return taken[n] }
	// Tools whose plain name is valid get it before others are shortened,
	// so that a hashed name never takes a plain one.
	names := make([]string, len(tools))
	for i, t := range tools {
		plain := srv.spec.Name + Separator + t.Name
		if registry.ValidName(plain) && !taken[plain] {
			names[i] = plain
			taken[plain] = true
		}
	}
	for i, t := range tools {
		if names[i] == "" {
			names[i] = exposedName(srv.spec.Name, t.Name, isTaken)
			if plain := srv.spec.Name + Separator + t.Name; registry.ValidName(plain) {
				// A local tool has the name: the server's tool is
				// renamed, never put in its place.
				m.warn.printf("mcp server %q: its tool %q would take the name %s of a local tool; it is offered as %s", srv.spec.Name, t.Name, plain, names[i])
			}
			taken[names[i]] = true
		}
	}
	for i, t := range tools {
		var schema json.RawMessage = []byte(`{"type":"object"}`)
		if t.InputSchema != nil {
			if b, err := json.Marshal(t.InputSchema); err == nil {
				schema = b
			}
		}
		// A blank description is none: the registry refuses it.
		desc := cmp.Or(nonBlank(t.Description), nonBlank(t.Title))
		rt := &remoteTool{
			srv: srv,
			info: RemoteTool{
				Name:        names[i],
				Server:      srv.spec.Name,
				Remote:      t.Name,
				Description: desc,
				InputSchema: schema,
				Annotations: t.Annotations,
			},
		}
		m.tools = append(m.tools, rt)
		m.byName[names[i]] = rt
	}
}

// nonBlank returns s, or "" when s is only white space.
func nonBlank(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return s
}

// Ready returns nil while every server of the specs is mounted and its
// session lasts; otherwise an error naming the servers left out at start
// and those lost since, whose tools answer with errors. A server that
// failed one call but may answer the next does not count.
func (m *Mounts) Ready(context.Context) error {
	var errs []error
	for _, name := range m.leftOut {
		errs = append(errs, fmt.Errorf("mcp server %q could not be mounted", name))
	}
	for _, s := range m.servers {
		if err := s.gone(); err != nil {
			errs = append(errs, fmt.Errorf("mcp server %q is lost: %w", s.spec.Name, err))
		}
	}
	return errors.Join(errs...)
}

// Servers returns the names of the servers that were mounted, in the
// order of the specs.
func (m *Mounts) Servers() []string {
	out := make([]string, len(m.servers))
	for i, s := range m.servers {
		out[i] = s.spec.Name
	}
	return out
}

// Tools returns the mounted tools, sorted by name.
func (m *Mounts) Tools() []RemoteTool {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]RemoteTool, len(m.tools))
	for i, t := range m.tools {
		out[i] = t.info
	}
	return out
}

// Names returns the names of the mounted tools, sorted.
func (m *Mounts) Names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, len(m.tools))
	for i, t := range m.tools {
		out[i] = t.info.Name
	}
	return out
}

// unaudited is what a mounted tool is taken to be able to do: it was not
// audited, so everything; Entries takes exec and write_files off for a
// tool its server marks read-only.
const unaudited = tool.Exec | tool.Network | tool.WriteFiles | tool.ReadFiles | tool.Env | tool.Unsafe

// Entries returns the mounted tools as registry entries, sorted by name, to
// join the local tools with registry.Registry.With; calls of them then go
// through the same limits, confirmation and logging as any other tool. A
// tool was not audited: its entry declares every capability, except exec
// and write_files when its server marks it read-only (readOnlyHint), so
// -deny leaves it out and it is confirmed before it runs.
func (m *Mounts) Entries() []registry.Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]registry.Entry, len(m.tools))
	for i, rt := range m.tools {
		caps := unaudited
		if a := rt.info.Annotations; a != nil && a.ReadOnlyHint {
			caps &^= tool.Exec | tool.WriteFiles
		}
		out[i] = registry.Entry{
			ID:           rt.info.Name,
			Name:         rt.info.Name,
			Description:  cmp.Or(nonBlank(rt.info.Description), fmt.Sprintf("The tool %s of the MCP server %s.", rt.info.Remote, rt.info.Server)),
			Timeout:      m.callTimeout,
			Parameters:   string(rt.info.InputSchema),
			Capabilities: caps,
			Server:       rt.info.Server,
			Bind:         rt.bind,
		}
	}
	return out
}

// maxErrorShown bounds the message of a JSON-RPC error a mounted server
// answers a call with, which the model reads: the protocol asks for a
// short sentence, and a server can send anything.
const maxErrorShown = 1000

// clippedError is an error whose text is on one line and cut to
// maxErrorShown, for the model: the SDK's errors may quote what a server
// sent (the message of a JSON-RPC error in the body of an HTTP error). It
// unwraps to the error.
type clippedError struct{ err error }

func (e clippedError) Error() string { return clipLine(e.err.Error(), maxErrorShown) }
func (e clippedError) Unwrap() error { return e.err }

// codeRejected is the code of the JSON-RPC error the SDK returns when its
// transport could not send a request (jsonrpc2.ErrRejected): no server
// answered.
const codeRejected = -32005

// bind checks that args, the JSON text the model sent, are a JSON object,
// which is all that is checked here (the tool's server checks the rest),
// and returns the call that forwards them: arguments that are not an
// object are registry.KindArguments.
func (rt *remoteTool) bind(args string) (registry.Run, error) {
	raw := []byte(args)
	if err := checkObject(raw); err != nil {
		return nil, registry.ArgumentError(err)
	}
	return func(ctx context.Context) (string, error) { return rt.invoke(ctx, raw) }, nil
}

// invoke forwards a call with args, bound by bind, to the tool's server
// under ctx. A lost server or a protocol error is registry.KindRemote; a
// result with isError set is the tool's error.
func (rt *remoteTool) invoke(ctx context.Context, args []byte) (string, error) {
	server := rt.srv.spec.Name
	if err := rt.srv.gone(); err != nil {
		return "", &registry.Error{Kind: registry.KindRemote, Err: fmt.Errorf("server %q is unavailable: %w", server, clippedError{err})}
	}
	params := &mcp.CallToolParams{Name: rt.info.Remote, Arguments: json.RawMessage(args)}
	// A progress token, so that the server's progress reaches the call.
	tok := "toolreg-" + rand.Text()[:12]
	params.SetProgressToken(tok)
	// The level of the log messages wanted during the call, for servers
	// of the protocol versions that take it with each request.
	meta := params.GetMeta()
	meta[mcp.MetaKeyLogLevel] = "warning"
	params.SetMeta(meta)
	rt.srv.mu.Lock()
	rt.srv.calls[tok] = &mountedCall{ctx: ctx}
	rt.srv.mu.Unlock()
	defer func() {
		rt.srv.mu.Lock()
		delete(rt.srv.calls, tok)
		rt.srv.mu.Unlock()
	}()
	ctx, end := rt.srv.tel.startCall(ctx, server, rt.info.Remote, params)
	r, err := rt.srv.session.CallTool(ctx, params)
	var werr *jsonrpc.Error
	switch {
	case err == nil:
	case ctx.Err() != nil:
		end("cancelled")
		return "", ctx.Err()
	case errors.As(err, &werr) && werr.Code != codeRejected:
		// The server answered, with a protocol error (say, invalid
		// params): the model may correct the call.
		end(strconv.FormatInt(werr.Code, 10))
		return "", &registry.Error{Kind: registry.KindRemote, Err: fmt.Errorf("server %q refused the call: %s", server, clipLine(werr.Message, maxErrorShown))}
	default:
		end(telemetry.ErrorType(&registry.Error{Kind: registry.KindRemote}))
		rt.srv.failed(err)
		return "", &registry.Error{Kind: registry.KindRemote, Err: fmt.Errorf("server %q is unavailable: %w", server, clippedError{err})}
	}
	text := renderResult(ctx, r)
	if r.IsError {
		end("tool_error")
	} else {
		end("")
	}
	if r.IsError {
		// A server that renders its errors as toolreg does (another
		// toolreg agent, say) begins them "Error: "; registry.Text adds
		// that again, so it is taken off here.
		return "", errors.New(strings.TrimPrefix(text, "Error: "))
	}
	return text, nil
}

// resultText renders a remote result as text for the model: its text
// content, a short description of each other kind of content, and the
// structured content as JSON when there is nothing else.
func resultText(r *mcp.CallToolResult) string { return renderResult(context.Background(), r) }

// renderResult is resultText that also attaches the result's images and
// audio to the registry call of ctx (registry.AttachMedia), for a caller
// that can pass them on; their descriptions stay in the text for the
// others. An image or audio whose MIME type is not of its kind is only
// described.
func renderResult(ctx context.Context, r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.ImageContent:
			if isKind(c.MIMEType, "image/") {
				registry.AttachMedia(ctx, registry.Media{MIMEType: c.MIMEType, Data: c.Data})
			}
			parts = append(parts, describeImage(c.MIMEType, c.Data))
		case *mcp.AudioContent:
			if isKind(c.MIMEType, "audio/") {
				registry.AttachMedia(ctx, registry.Media{MIMEType: c.MIMEType, Data: c.Data})
			}
			parts = append(parts, fmt.Sprintf("[audio: %s, %d bytes]", cmp.Or(clipLine(c.MIMEType, maxTypeShown), "of unknown type"), len(c.Data)))
		case *mcp.ResourceLink:
			parts = append(parts, describeLink(c))
		case *mcp.EmbeddedResource:
			switch {
			case c.Resource == nil:
			case c.Resource.Text != "":
				parts = append(parts, c.Resource.Text)
			default:
				parts = append(parts, fmt.Sprintf("[resource: %s %s, %d bytes]", clipLine(c.Resource.URI, maxURIShown), clipLine(c.Resource.MIMEType, maxTypeShown), len(c.Resource.Blob)))
			}
		default:
			if b, err := json.Marshal(c); err == nil {
				parts = append(parts, string(b))
			}
		}
	}
	if len(parts) == 0 && r.StructuredContent != nil {
		if b, err := json.Marshal(r.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	return strings.Join(parts, "\n")
}

// maxTypeShown bounds a MIME type in a description, and maxURIShown a
// resource's URI: a server can send anything.
const (
	maxTypeShown = 100
	maxURIShown  = 1000
)

// isKind reports whether the MIME type typ begins with prefix ("image/",
// "audio/"), in any case.
func isKind(typ, prefix string) bool {
	return len(typ) > len(prefix) && strings.EqualFold(typ[:len(prefix)], prefix)
}

// describeImage describes an image: its type, its size in pixels when its
// header tells (PNG, JPEG, GIF), and its size in bytes.
func describeImage(mimeType string, data []byte) string {
	desc := fmt.Sprintf("[image: %s", cmp.Or(clipLine(mimeType, maxTypeShown), "of unknown type"))
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		desc += fmt.Sprintf(", %d×%d pixels", cfg.Width, cfg.Height)
	}
	return desc + fmt.Sprintf(", %d bytes]", len(data))
}

// describeLink describes a resource link with what the server said of it.
func describeLink(c *mcp.ResourceLink) string {
	desc := "[resource link: " + clipLine(cmp.Or(c.Title, c.Name), maxNameShown) + " " + clipLine(c.URI, maxURIShown)
	if typ := clipLine(c.MIMEType, maxTypeShown); typ != "" {
		desc += " (" + typ + ")"
	}
	if c.Description != "" {
		desc += ": " + clipLine(c.Description, 200)
	}
	return desc + "]"
}

// Close ends the sessions: a stdio server's stdin is closed, and the
// process is signalled if it does not exit within TerminateWait. It waits
// for the servers to be gone, and is safe to call more than once.
func (m *Mounts) Close() error {
	m.closeOnce.Do(func() {
		errs := make([]error, len(m.servers))
		var wg sync.WaitGroup
		for i, s := range m.servers {
			wg.Go(func() {
				s.mu.Lock()
				s.closing = true
				failed := s.warned
				s.mu.Unlock()
				// A server already reported unavailable may not answer
				// the goodbye either: that is no news.
				if err := closeSession(s.session, s.abort, s.abortWait); err != nil && !failed {
					errs[i] = fmt.Errorf("mcp server %q: %w", s.spec.Name, err)
				}
				<-s.done
			})
		}
		wg.Wait()
		m.loops.Wait()
		if m.ownClient != nil {
			m.ownClient.CloseIdleConnections()
		}
		m.closeErr = errors.Join(errs...)
	})
	return m.closeErr
}

// checkObject returns an error unless args is one JSON object. The
// message is its own, not encoding/json's, which names Go types
// (map[string]json.RawMessage, or from Go 1.27 map[string]jsontext.Value)
// and changes between releases.
func checkObject(args []byte) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err == nil && obj != nil {
		return nil
	}
	if !json.Valid(args) {
		return errors.New("want a JSON object: the arguments are not valid JSON")
	}
	what := "a number"
	switch t := bytes.TrimSpace(args); t[0] {
	case '[':
		what = "an array"
	case '"':
		what = "a string"
	case 'n':
		what = "null"
	case 't', 'f':
		what = "a boolean"
	}
	return fmt.Errorf("want a JSON object, got %s", what)
}
