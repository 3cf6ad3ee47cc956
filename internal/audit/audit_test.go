package audit

import (
	"context"
	"fmt"
	"go/build"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/tool"
	"github.com/toolreg/toolreg/toolbox"
)

// definer is a tool: its Definition declares its capabilities.
type definer interface{ Definition() tool.Definition }

// honest is the precision corpus: ordinary tools written as a careful
// author would, each in its own package (testdata/honest), with exactly
// the capabilities it declares.
var honest = []string{
	"csvsum",
	"gitlog",
	"httpget",
	"httpparse",
	"jsonfmt",
	"once",
	"oncevalue",
	"newloader",
	"diag",
	"gofmt",
	"readall",
	"readlines",
	"tmpl",
	"walk",
	"writeout",
	// validate asserts its arguments to an interface whose method
	// configcheck's Config has too, and reads a file there: together
	// (TestTogether), validate must not be charged with it.
	"configcheck",
	"validate",
	// genvalidate is validate with the assertion in a generic helper.
	"genvalidate",
	// apiclient, filestats, report and heapsort: an HTTP client behind an
	// interface with errors.As to an interface, a walk with closures and
	// generics, templates and JSON of its own types, container/heap and
	// sort over generic types.
	"apiclient",
	"filestats",
	"report",
	"heapsort",
	// defaults fills its options by reflection (reflect.Value.Set): in
	// one program with reflectstd, whose interface has Chmod, it must not
	// be charged with *os.File's.
	"defaults",
	// merge sets a field of one struct from another's by reflection.
	"merge",
	// fillnil makes its options' nil pointers, maps, slices and channels
	// by reflection, each of its field's own type; Read reads files.
	"fillnil",
	// httpsjson (http.Get of an https URL) and tlsroots (tls.Dialer with
	// x509.SystemCertPool) reach the resolver's files, the system's roots
	// and the proxy variables only through the standard library's own
	// reads, which count as network.
	"httpsjson",
	"tlsroots",
	// functable keeps its operations and its opener in package
	// variables: its start-up code, which only fills them, reaches
	// nothing.
	"functable",
	// mmapcount maps a file it opened read-only.
	"mmapcount",
	// sharedhelper's Tool reads files through helpers (a retry loop, an
	// errgroup-style group, a generic map) that its package's Fetch
	// calls with functions that make HTTP requests.
	"sharedhelper",
	// sharedvars's Tool passes an interface and a function its package
	// initializer keeps in variables to helpers that call them, which its
	// package's Env calls with values that read the environment.
	"sharedvars",
	// decorator's Tool calls what a helper made of strings.ToUpper, kept
	// in a package variable; its package's Env what the helper made of
	// os.Getenv.
	"decorator",
	// singleflight's Tool and its package's Fetch share a
	// golang.org/x/sync/singleflight Group.
	"singleflight",
	// options's Tool calls a helper with functional options that set
	// fields; its package's Env calls it with one that reads the
	// environment.
	"options",
	// optconv's options store a function into the configuration its
	// helper calls; Env's reads the environment.
	"optconv",
	// gencache reads through a generic cache a constructor made over its
	// function; Env's reads the environment.
	"gencache",
	// wrapiface reads through a wrapper whose interface field holds its
	// source; Env's reads the environment.
	"wrapiface",
	// embediface passes a wrapper that embeds an interface to a helper
	// that takes the interface; Env's wraps the environment.
	"embediface",
	// inject's service keeps the runner its constructor is given in a
	// field of an interface type; Exec's runs a program.
	"inject",
	// optservice's constructor applies functional options to the service
	// it returns, one of which sets its runner; Exec's runs a program.
	"optservice",
	// svcerr's constructor returns the service with an error, and its
	// method locks the service's mutex; Exec's runs a program.
	"svcerr",
	// builder sets its service's runner with a method that returns the
	// service; Exec's runs a program.
	"builder",
	// cfgclient's client keeps the configuration struct its constructor
	// is given, whose runner its method calls; Exec's runs a program.
	"cfgclient",
	// embedcfg's client embeds its configuration, whose exported runner
	// field its method calls; Exec's runs a program.
	"embedcfg",
	// pkgsvc calls methods of services start-up code made and keeps in
	// package variables, whose runner an option or a literal sets;
	// Exec's services run a program.
	"pkgsvc",
	// decoiface reads through a decorator that returns a caching struct
	// over its source as the interface; Env's source reads the environment.
	"decoiface",
	// pipeline runs steps a constructor keeps in a slice field; Env's
	// expand environment variables.
	"pipeline",
	// formatters's Tool calls the function field of package variables
	// of a struct type, as its package's Env does of one that reads the
	// environment.
	"formatters",
	// startlog keeps loggers over os.Stderr and a template with functions
	// that read the environment in package variables.
	"startlog",
	// visitor's Tool calls a local struct's function field holding a
	// method value; its package's Env one holding a closure that reads
	// the environment.
	"visitor",
	// register's start-up code appends and registers functions and
	// interfaces its tool calls later.
	"register",
	// errgroup's Tool and its package's Env call a helper that runs
	// their functions on an errgroup's goroutines.
	"errgroup",
	// handlers's Tool looks its own up in map literals of handlers and
	// functions; its package's Env in others, which read the environment.
	"handlers",
	// tmpldata renders templates over a map literal of strings and
	// numbers, directly and through a helper its package's Env calls with
	// data whose method reads the environment.
	"tmpldata",
	// fieldmethod's Tool calls a method that calls its value receiver's
	// function field; its package's Env does on a value holding
	// os.Getenv.
	"fieldmethod",
	// registry's Tool looks handlers up in a map init functions fill
	// through a registration helper; its package's Env in a map of its
	// own whose handler reads the environment.
	"registry",
	// ptrcache's Tool calls a method that calls its pointer receiver's
	// loader field; its package's Env does on a cache over os.Getenv.
	"ptrcache",
	// wraphelper's Tool reads files through helpers that wrap the
	// function they are given in a closure of their own (a retry that
	// recovers panics, a range-over-func loop over lines), which its
	// package's Fetch calls with functions that make HTTP requests.
	"wraphelper",
	// anyfuncs's Tool keeps functions that read files where Go keeps
	// them as any (sync.Map, atomic.Value, a context, a channel), which
	// its package's Plain does with functions of the same types that
	// reach nothing.
	"anyfuncs",
	// ownstate's Tool serves a file through a ServeMux and loggers of
	// its own, which its package's Plain does with a handler
	// that reaches nothing: neither keeps anything in the standard
	// library's package state, and neither is charged with the other's.
	"ownstate",
	// upload posts a file with http.Post: the body it gives net/http is
	// read while its request runs, not kept for other tools' requests.
	"upload",
	// logprefix keeps a writer of its own, into a buffer, in log's
	// default Logger, which net/http's requests log to.
	"logprefix",
	// tarlist's Tool stores the errors of os.WriteFile and of
	// tar.Reader.Next, which may point into io.Discard, in its result
	// err, a local variable a deferred fmt.Errorf wraps; its package's
	// Plain writes to io.Discard (TestHonestPair).
	"tarlist",
	// deadline keeps a time.AfterFunc timer of its own in a package
	// variable and resets it: in one program with timerreset, whose
	// timer's func reads the environment, it must not be charged with it.
	"deadline",
	// jsonsecret's Tool decodes JSON into a type whose UnmarshalJSON parses durations;
	// its package's Load into one whose UnmarshalJSON may read the environment.
	"jsonsecret",
	// fmtstringer's Tool formats a value whose String method fmt calls;
	// its package's Home formats one whose String reads the home directory.
	"fmtstringer",
	// slogbuf's Tool logs into a buffer through a slog.Handler wrapper;
	// its package's Debug logs to os.Stderr through the same helper.
	"slogbuf",
	// tmplfuncs's Tool renders a template through a helper given a FuncMap;
	// its package's Env gives it os.Getenv.
	"tmplfuncs",
	// storeiface's Tool counts in a memory Store its package keeps;
	// its package's Save in a file Store, through the same helpers.
	"storeiface",
	// resultgen's Tool chains steps through a generic Result[T] with Try and Then;
	// its package's Env's first step reads the environment.
	"resultgen",
	// methodval's Tool passes a method value to a per-line helper;
	// its package's Env one that expands environment variables.
	"methodval",
	// uatransport's Tool only builds and prints a request; its package's
	// Fetch sends it with a kept client whose Transport sets the User-Agent.
	"uatransport",
	// oncecache's Tool uses a sync.Pool and a sync.OnceValue of a map;
	// its package's Config another OnceValue of a map, read from a file.
	"oncecache",
	// codecs's Tool compresses into a buffer with a strategy map of encoders;
	// its package's Save into a sink from a second map (a file, stdout).
	"codecs",
	// fsyscount's Tool counts lines of a fstest.MapFS through fs.WalkDir;
	// its package's Dir of os.DirFS, through the same helper.
	"fsyscount",
	// errwrap's Tool wraps errors and looks into them with errors.As;
	// its package's Exec does so with *exec.ExitError.
	"errwrap",
	// progress's Tool copies through a copier with a progress callback field;
	// its package's Verbose's callback prints to os.Stderr.
	"progress",
	// bushooks's tools each make a bus whose Use method appends hooks to a
	// slice field its publish runs; Audit's last hook appends to a file.
	"bushooks",
	// ctxrecorder's tools put a recorder in their own context that a shared
	// helper takes out (ctx.Value(key{}).(recorder)); Journal's writes a file.
	"ctxrecorder",
	// workerpool's Tool runs hashing tasks it appends to a slice in a pool of
	// goroutines; its package's Fetch runs tasks that fetch URLs in the same pool.
	"workerpool",
	// embedbase's services embed a base struct whose promoted method calls its
	// notifier; Tool's notes in memory, Exec's run a program.
	"embedbase",
	// pkgdefault's Tool calls a service its package makes at start-up with an echoing
	// runner; Exec makes one of its own over a runner that runs a program.
	"pkgdefault",
	// memo's Tool reads through a cache a constructor makes for one call over its
	// function; its package's Lookup uses one its package keeps over os.Getenv.
	"memo",
}

// honestPairs are packages of the honest corpus with a second tool,
// Plain, audited in one program with Tool, without TestTogether's
// others: each reaches what it declares.
var honestPairs = []string{"tarlist"}

// TestHonestPair audits each of honestPairs' packages, Tool and Plain in
// one program.
func TestHonestPair(t *testing.T) {
	t.Parallel()
	for _, name := range honestPairs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("testdata", "honest", name)
			got := reaches(t, dir, "Tool", "Plain")
			for _, tl := range []string{"Tool", "Plain"} {
				if want := declared(t, dir, tl); got[tl] != want {
					t.Errorf("%s.%s reaches %s, declares %s", name, tl, got[tl], want)
				}
			}
		})
	}
}

// honestWith are packages of the honest corpus with a second tool, of
// the name given, audited in one program with Tool: each reaches what
// it declares, and neither is charged with the other's capabilities
// through the helpers and types they share.
var honestWith = map[string]string{
	"fmtstringer": "Home",
	"slogbuf":     "Debug",
	"tmplfuncs":   "Env",
	"storeiface":  "Save",
	"resultgen":   "Env",
	"methodval":   "Env",
	"uatransport": "Fetch",
	"oncecache":   "Config",
	"codecs":      "Save",
	"fsyscount":   "Dir",
	"errwrap":     "Exec",
	"progress":    "Verbose",
	"bushooks":    "Audit",
	"ctxrecorder": "Journal",
	"workerpool":  "Fetch",
	"embedbase":   "Exec",
	"pkgdefault":  "Exec",
	"memo":        "Lookup",
	"jsonsecret":  "Load",
}

// TestHonestWith audits each of honestWith's packages, Tool and its
// second tool in one program.
func TestHonestWith(t *testing.T) {
	t.Parallel()
	for name, second := range honestWith {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("testdata", "honest", name)
			rep := analyzeFor(t, dir, "Tool", second)
			got := reachesOf(t, rep)
			for _, tl := range []string{"Tool", second} {
				if want := declared(t, dir, tl); got[tl] != want {
					t.Errorf("%s.%s reaches %s, declares %s", name, tl, got[tl], want)
				}
			}
			for _, f := range rep.Startup {
				t.Errorf("start-up of %s reaches %s: %s", f.Pkg, f.Cap, f.Path(filepath.Base, true))
			}
		})
	}
}

// reports holds the audits analyzeFor made, by directory and tool names:
// an audit costs two go commands, and the tests only read its report.
var reports sync.Map // string → func() (*Report, error)

// analyzeFor audits the types of the package in dir for the host, once a
// test process, from its part of hostListings when it has one.
func analyzeFor(t *testing.T, dir string, names ...string) *Report {
	t.Helper()
	f, _ := reports.LoadOrStore(dir+"\x00"+strings.Join(names, "\x00"), sync.OnceValues(func() (*Report, error) {
		if abs, err := filepath.Abs(dir); err == nil {
			if all, err := hostListings(); err != nil {
				return nil, err
			} else if l := all[abs]; l != nil {
				origin, err := stdOriginOf()
				if err != nil {
					return nil, err
				}
				return analyzeListing(context.Background(), dir, l, names, origin)
			}
		}
		return AnalyzeFor(context.Background(), dir, runtime.GOOS, runtime.GOARCH, names)
	}))
	rep, err := f.(func() (*Report, error))()
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// reaches audits the types of the package in dir for the host.
func reaches(t *testing.T, dir string, names ...string) map[string]tool.Capability {
	t.Helper()
	return reachesOf(t, analyzeFor(t, dir, names...))
}

// reachesOf is reaches of a report, its findings logged.
func reachesOf(t *testing.T, rep *Report) map[string]tool.Capability {
	t.Helper()
	out := map[string]tool.Capability{}
	for name, r := range rep.Tools {
		out[name] = r.Reaches
		for _, f := range r.Findings {
			t.Logf("%s reaches %s: %s", name, f.Cap, f.Path(filepath.Base, true))
		}
	}
	return out
}

// TestHonestAlone audits each honest tool in a program of its own: it
// reaches exactly what it declares.
func TestHonestAlone(t *testing.T) {
	t.Parallel()
	for _, name := range honest {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if _, ok := honestWith[name]; ok {
				return // TestHonestWith audits it with its second tool
			}
			dir := filepath.Join("testdata", "honest", name)
			rep := analyzeFor(t, dir, "Tool")
			got := reachesOf(t, rep)["Tool"]
			if want := declared(t, dir, "Tool"); got != want {
				t.Errorf("%s reaches %s, declares %s", name, got, want)
			}
			for _, f := range rep.Startup {
				t.Errorf("start-up of %s reaches %s: %s", f.Pkg, f.Cap, f.Path(filepath.Base, true))
			}
		})
	}
}

// TestTogether audits the honest tools, this repository's own and the
// hostile probes in one program with a tool that brings golang.org/x/tools
// (and its many function values): the honest tools reach what they
// declare, this repository's what they reach in their own package, each
// probe at least what it does, and each start-up site is reported at its
// own position.
func TestTogether(t *testing.T) {
	if raceEnabled {
		t.Skip("ten times slower under the race detector (44 s against 4); .ci/run runs it without: go test -run '^TestTogether$' ./internal/audit")
	}
	t.Parallel()
	want := map[string]tool.Capability{}
	as := aliases(t)
	// The honest tools, by their names in testdata/all.
	for _, name := range []string{
		"CSVSum", "GitLog", "HTTPGet", "JSONFmt",
		"Once", "OnceValue", "NewLoader", "Diag", "GoFmt", "ReadAll", "ReadLines", "Tmpl",
		"Walk", "WriteOut",
		"ConfigCheck", "Validate", "GenValidate",
		"APIClient", "FileStats", "Report", "HeapSort",
		"Defaults", "Merge", "HTTPSJSON", "TLSRoots",
		"FuncTable", "MmapCount",
		"SharedSizes", "SharedFetch",
		"SharedVars", "SharedVarsEnv",
		"Decorator", "DecoratorEnv",
		"SingleFlight", "SingleFlightFetch",
		"Options", "OptionsEnv",
		"OptConv", "OptConvEnv",
		"GenCache", "GenCacheEnv",
		"WrapIface", "WrapIfaceEnv",
		"EmbedIface", "EmbedIfaceEnv",
		"Inject", "InjectExec",
		"OptService", "OptServiceExec",
		"SvcErr", "SvcErrExec",
		"Builder", "BuilderExec",
		"CfgClient", "CfgClientExec",
		"EmbedCfg", "EmbedCfgExec",
		"PkgSvc", "PkgSvcExec",
		"FillNil", "FillNilRead",
		"DecoIface", "DecoIfaceEnv",
		"Pipeline", "PipelineEnv",
		"Formatters", "FormattersEnv",
		"StartLog",
		"WrapSizes", "WrapFetch",
		"AnyRead", "AnyPlain",
		"OwnRead", "OwnPlain",
		"Upload", "LogPrefix", "LogSave",
		"TarList", "TarPlain", "Deadline",
		"Jsonsecret", "JsonsecretLoad",
		"Fmtstringer", "FmtstringerHome",
		"Slogbuf", "SlogbufDebug",
		"Tmplfuncs", "TmplfuncsEnv",
		"Storeiface", "StoreifaceSave",
		"Resultgen", "ResultgenEnv",
		"Methodval", "MethodvalEnv",
		"Uatransport", "UatransportFetch",
		"Oncecache", "OncecacheConfig",
		"Codecs", "CodecsSave",
		"Fsyscount", "FsyscountDir",
		"Errwrap", "ErrwrapExec",
		"Progress", "ProgressVerbose",
		"Bushooks", "BushooksAudit",
		"Ctxrecorder", "CtxrecorderJournal",
		"Workerpool", "WorkerpoolFetch",
		"Embedbase", "EmbedbaseExec",
		"Pkgdefault", "PkgdefaultExec",
		"Memo", "MemoLookup",
	} {
		a, ok := as[name]
		if !ok {
			t.Fatalf("testdata/all/all.go has no alias %s of a type of testdata", name)
		}
		want[name] = declared(t, a.dir, a.typeName)
	}
	own := map[string]definer{
		"Weather": &toolbox.Weather{}, "WebSearch": &toolbox.WebSearch{}, "Now": toolbox.Now{},
		"PingURL": &toolbox.PingURL{}, "DiskUsage": toolbox.DiskUsage{},
	}
	var ownNames []string
	for name, d := range own {
		ownNames = append(ownNames, name)
		if got := d.Definition().Capabilities; got == 0 && name != "DiskUsage" {
			t.Errorf("%s declares nothing", name) // the table is stale
		}
	}
	names := append([]string{"Lister"}, ownNames...)
	for name := range want {
		names = append(names, name)
	}
	for _, p := range probes {
		if !aloneProbes[p.name] && !missedProbes[p.name] {
			names = append(names, "Probe"+p.name)
		}
	}
	// The program of them all is audited while the toolbox is, alone.
	var (
		rep  *Report
		err  error
		done = make(chan struct{})
	)
	go func() {
		defer close(done)
		rep, err = AnalyzeFor(context.Background(), filepath.Join("testdata", "all"), runtime.GOOS, runtime.GOARCH, names)
	}()
	defer func() { <-done }() // also when the audit of the toolbox fails the test
	alone := reaches(t, filepath.Join("..", "..", "toolbox"), ownNames...)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range alone {
		if c&^own[name].Definition().Capabilities != 0 {
			t.Errorf("%s reaches %s alone, more than it declares", name, c)
		}
		want[name] = c
	}
	got := map[string]tool.Capability{}
	for name, r := range rep.Tools {
		got[name] = r.Reaches
		for _, f := range r.Findings {
			t.Logf("%s reaches %s: %s", name, f.Cap, f.Path(filepath.Base, true))
		}
	}
	for _, f := range rep.Startup {
		t.Logf("start-up of %s reaches %s: %s:%d: %s", f.Pkg, f.Cap, filepath.Base(f.Pos.Filename), f.Pos.Line, f.Path(filepath.Base, true))
	}
	for _, p := range probes {
		if aloneProbes[p.name] || missedProbes[p.name] {
			continue // TestProbesAlone
		}
		name := "Probe" + p.name
		if missed := p.want &^ got[name]; missed != 0 {
			t.Errorf("probe %s: the audit misses %s (it reaches %s)", p.name, missed, got[name])
		}
		delete(got, name)
	}
	delete(got, "Lister")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reached (-alone +together):\n%s", diff)
	}
	// Start-up code: each site at its own position.
	var startup []string
	for _, f := range rep.Startup {
		if strings.Contains(f.Pkg, "/honest/") {
			t.Errorf("start-up of %s reaches %s: %s", f.Pkg, f.Cap, f.Path(filepath.Base, true))
		}
		if strings.Contains(f.Pkg, "/probes/") {
			startup = append(startup, fmt.Sprintf("%s %s:%d %s", path.Base(f.Pkg), filepath.Base(f.Pos.Filename), f.Pos.Line, f.Cap))
		}
	}
	// funcinit's setter only stores os.StartProcess into a variable at
	// start: the tool that calls it is charged, its start-up is not.
	wantStartup := []string{
		"startupjson probe.go:25 env",
		"startupjson probe.go:33 env",
		"startupreflect probe.go:16 exec",
		"startupreflect probe.go:16 unsafe",
		"startuptmpl probe.go:23 env",
		"startuptmpl probe.go:32 env",
		"startuptmpl probe.go:51 env",
	}
	slices.Sort(startup)
	if diff := cmp.Diff(wantStartup, startup); diff != "" {
		t.Errorf("start-up findings (-want +got):\n%s", diff)
	}
}

// TestConfigs audits a tool whose helper reads the environment only
// without cgo on linux/amd64 and runs a program only with -tags audittag:
// the host's default configuration sees neither, AnalyzeAll both.
func TestConfigs(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" || !build.Default.CgoEnabled {
		t.Skip("the probe's files are for linux/amd64 with cgo on by default")
	}
	dir := filepath.Join("testdata", "configs")
	if got := reaches(t, dir, "Tool")["Tool"]; got != 0 {
		t.Errorf("the host's configuration reaches %s, want none", got)
	}
	rep, err := AnalyzeAll(context.Background(), dir, []Platform{{"linux", "amd64"}}, []string{"Tool"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rep.Tools["Tool"].Reaches, tool.Env|tool.Exec; got != want {
		t.Errorf("every configuration reaches %s, want %s", got, want)
	}
	for _, f := range rep.Tools["Tool"].Findings {
		t.Logf("%s: %s", f.Cap, f.Path(filepath.Base, false))
	}
}

// TestExplainPositions checks the paths -explain prints: every step but
// the last has a position, and the line there calls the next step.
func TestExplainPositions(t *testing.T) {
	t.Parallel()
	rep := analyzeFor(t, filepath.Join("testdata", "honest", "writeout"), "Tool") // TestHonestAlone's audit
	all := rep.Tools["Tool"].All
	if len(all) == 0 {
		t.Fatal("no path")
	}
	for _, f := range all {
		steps := append(slices.Clone(f.Steps), f.Std...)
		steps[0].Pos = f.Pos
		for i, s := range steps[:len(steps)-1] {
			if !s.Pos.IsValid() {
				t.Errorf("%s: step %s has no position", f.Path(filepath.Base, true), s.Func)
				continue
			}
			next := steps[i+1].Func
			next = next[strings.LastIndex(next, ".")+1:]
			if strings.Contains(steps[i+1].Func, " ") || strings.HasPrefix(next, "func") {
				continue // a pseudo step (an open, a system call) or a closure
			}
			file := strings.Replace(s.Pos.Filename, "$GOROOT", build.Default.GOROOT, 1)
			src, err := os.ReadFile(file)
			if err != nil {
				t.Errorf("%s: %v", s.Func, err)
				continue
			}
			lines := strings.Split(string(src), "\n")
			if s.Pos.Line > len(lines) || !strings.Contains(lines[s.Pos.Line-1], next) {
				t.Errorf("%s at %s:%d does not call %s", s.Func, s.Pos.Filename, s.Pos.Line, next)
			}
		}
		t.Log(f.Path(filepath.Base, true))
	}
}

// TestLimits documents, one case each, what the audit does not see or
// sees only as unsafe (docs/audit.md lists them).
func TestLimits(t *testing.T) {
	t.Parallel()
	// A template over interface values fails closed.
	if got := reaches(t, filepath.Join("testdata", "limits", "tmplany"), "Tool")["Tool"]; got != tool.Unsafe {
		t.Errorf("a template over map[string]any reaches %s, want unsafe", got)
	}
	// A flag.FlagSet's fields are not followed: one that returns its
	// errors and prints nothing is charged with what a FlagSet does by
	// default (a false warning, documented in docs/audit.md).
	if got := reaches(t, filepath.Join("testdata", "limits", "flagset"), "Tool")["Tool"]; got != tool.WriteFiles|tool.Unsafe {
		t.Errorf("a tool with a flag.FlagSet of its own reaches %s, the documented limit says write_files, unsafe", got)
	}
	sum, err := parseSummary(stdSummaryText)
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]tool.Capability{
		// The log package's writes to the agent's standard error: its
		// logger is made at start, with os.Stderr, which the summary
		// does not follow into log.Printf.
		"log.Printf": 0,
		// A file's metadata: the sandbox does not restrict it.
		"os.Stat":     0,
		"os.Readlink": 0,
	} {
		if got, _ := sum.caps(key); got != want {
			t.Errorf("%s reaches %s, the documented limit says %s", key, got, want)
		}
	}
}
