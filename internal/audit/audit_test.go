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

	"github.com/toolreg/toolreg/internal/audit/testdata/all"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/anyfuncs"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/apiclient"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/builder"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/bushooks"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/cfgclient"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/codecs"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/configcheck"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/csvsum"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/ctxrecorder"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/deadline"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/decoiface"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/decorator"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/defaults"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/diag"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/embedbase"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/embedcfg"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/embediface"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/errgroup"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/errwrap"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/fieldmethod"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/filestats"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/fillnil"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/fmtstringer"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/formatters"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/fsyscount"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/functable"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/gencache"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/genvalidate"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/gitlog"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/gofmt"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/handlers"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/heapsort"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/httpget"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/httpparse"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/httpsjson"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/inject"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/jsonfmt"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/jsonsecret"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/logprefix"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/memo"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/merge"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/methodval"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/mmapcount"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/newloader"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/once"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/oncecache"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/oncevalue"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/optconv"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/options"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/optservice"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/ownstate"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/pipeline"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/pkgdefault"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/pkgsvc"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/progress"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/ptrcache"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/readall"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/readlines"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/register"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/registry"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/report"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/resultgen"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/sharedhelper"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/sharedvars"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/singleflight"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/slogbuf"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/startlog"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/storeiface"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/svcerr"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/tarlist"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/tlsroots"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/tmpl"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/tmpldata"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/tmplfuncs"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/uatransport"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/upload"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/validate"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/visitor"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/walk"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/workerpool"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/wraphelper"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/wrapiface"
	"github.com/toolreg/toolreg/internal/audit/testdata/honest/writeout"
	"github.com/toolreg/toolreg/tool"
	"github.com/toolreg/toolreg/toolbox"
)

// definer is a tool: its Definition declares its capabilities.
type definer interface{ Definition() tool.Definition }

// honest is the precision corpus: ordinary tools written as a careful
// author would, each in its own package (testdata/honest), with exactly
// the capabilities it declares.
var honest = map[string]definer{
	"csvsum":    csvsum.Tool{},
	"gitlog":    gitlog.Tool{},
	"httpget":   httpget.Tool{},
	"httpparse": httpparse.Tool{},
	"jsonfmt":   jsonfmt.Tool{},
	"once":      once.Tool{},
	"oncevalue": oncevalue.Tool{},
	"newloader": newloader.Tool{},
	"diag":      diag.Tool{},
	"gofmt":     gofmt.Tool{},
	"readall":   readall.Tool{},
	"readlines": readlines.Tool{},
	"tmpl":      tmpl.Tool{},
	"walk":      walk.Tool{},
	"writeout":  writeout.Tool{},
	// validate asserts its arguments to an interface whose method
	// configcheck's Config has too, and reads a file there: together
	// (TestTogether), validate must not be charged with it.
	"configcheck": configcheck.Tool{},
	"validate":    validate.Tool{},
	// genvalidate is validate with the assertion in a generic helper.
	"genvalidate": genvalidate.Tool{},
	// apiclient, filestats, report and heapsort: an HTTP client behind an
	// interface with errors.As to an interface, a walk with closures and
	// generics, templates and JSON of its own types, container/heap and
	// sort over generic types.
	"apiclient": apiclient.Tool{},
	"filestats": filestats.Tool{},
	"report":    report.Tool{},
	"heapsort":  heapsort.Tool{},
	// defaults fills its options by reflection (reflect.Value.Set): in
	// one program with reflectstd, whose interface has Chmod, it must not
	// be charged with *os.File's.
	"defaults": defaults.Tool{},
	// merge sets a field of one struct from another's by reflection.
	"merge": merge.Tool{},
	// fillnil makes its options' nil pointers, maps, slices and channels
	// by reflection, each of its field's own type; Read reads files.
	"fillnil": fillnil.Tool{},
	// httpsjson (http.Get of an https URL) and tlsroots (tls.Dialer with
	// x509.SystemCertPool) reach the resolver's files, the system's roots
	// and the proxy variables only through the standard library's own
	// reads, which count as network.
	"httpsjson": httpsjson.Tool{},
	"tlsroots":  tlsroots.Tool{},
	// functable keeps its operations and its opener in package
	// variables: its start-up code, which only fills them, reaches
	// nothing.
	"functable": functable.Tool{},
	// mmapcount maps a file it opened read-only.
	"mmapcount": mmapcount.Tool{},
	// sharedhelper's Tool reads files through helpers (a retry loop, an
	// errgroup-style group, a generic map) that its package's Fetch
	// calls with functions that make HTTP requests.
	"sharedhelper": sharedhelper.Tool{},
	// sharedvars's Tool passes an interface and a function its package
	// initializer keeps in variables to helpers that call them, which its
	// package's Env calls with values that read the environment.
	"sharedvars": sharedvars.Tool{},
	// decorator's Tool calls what a helper made of strings.ToUpper, kept
	// in a package variable; its package's Env what the helper made of
	// os.Getenv.
	"decorator": decorator.Tool{},
	// singleflight's Tool and its package's Fetch share a
	// golang.org/x/sync/singleflight Group.
	"singleflight": singleflight.Tool{},
	// options's Tool calls a helper with functional options that set
	// fields; its package's Env calls it with one that reads the
	// environment.
	"options": options.Tool{},
	// optconv's options store a function into the configuration its
	// helper calls; Env's reads the environment.
	"optconv": optconv.Tool{},
	// gencache reads through a generic cache a constructor made over its
	// function; Env's reads the environment.
	"gencache": gencache.Tool{},
	// wrapiface reads through a wrapper whose interface field holds its
	// source; Env's reads the environment.
	"wrapiface": wrapiface.Tool{},
	// embediface passes a wrapper that embeds an interface to a helper
	// that takes the interface; Env's wraps the environment.
	"embediface": embediface.Tool{},
	// inject's service keeps the runner its constructor is given in a
	// field of an interface type; Exec's runs a program.
	"inject": inject.Tool{},
	// optservice's constructor applies functional options to the service
	// it returns, one of which sets its runner; Exec's runs a program.
	"optservice": optservice.Tool{},
	// svcerr's constructor returns the service with an error, and its
	// method locks the service's mutex; Exec's runs a program.
	"svcerr": svcerr.Tool{},
	// builder sets its service's runner with a method that returns the
	// service; Exec's runs a program.
	"builder": builder.Tool{},
	// cfgclient's client keeps the configuration struct its constructor
	// is given, whose runner its method calls; Exec's runs a program.
	"cfgclient": cfgclient.Tool{},
	// embedcfg's client embeds its configuration, whose exported runner
	// field its method calls; Exec's runs a program.
	"embedcfg": embedcfg.Tool{},
	// pkgsvc calls methods of services start-up code made and keeps in
	// package variables, whose runner an option or a literal sets;
	// Exec's services run a program.
	"pkgsvc": pkgsvc.Tool{},
	// decoiface reads through a decorator that returns a caching struct
	// over its source as the interface; Env's source reads the environment.
	"decoiface": decoiface.Tool{},
	// pipeline runs steps a constructor keeps in a slice field; Env's
	// expand environment variables.
	"pipeline": pipeline.Tool{},
	// formatters's Tool calls the function field of package variables
	// of a struct type, as its package's Env does of one that reads the
	// environment.
	"formatters": formatters.Tool{},
	// startlog keeps loggers over os.Stderr and a template with functions
	// that read the environment in package variables.
	"startlog": startlog.Tool{},
	// visitor's Tool calls a local struct's function field holding a
	// method value; its package's Env one holding a closure that reads
	// the environment.
	"visitor": visitor.Tool{},
	// register's start-up code appends and registers functions and
	// interfaces its tool calls later.
	"register": register.Tool{},
	// errgroup's Tool and its package's Env call a helper that runs
	// their functions on an errgroup's goroutines.
	"errgroup": errgroup.Tool{},
	// handlers's Tool looks its own up in map literals of handlers and
	// functions; its package's Env in others, which read the environment.
	"handlers": handlers.Tool{},
	// tmpldata renders templates over a map literal of strings and
	// numbers, directly and through a helper its package's Env calls with
	// data whose method reads the environment.
	"tmpldata": tmpldata.Tool{},
	// fieldmethod's Tool calls a method that calls its value receiver's
	// function field; its package's Env does on a value holding
	// os.Getenv.
	"fieldmethod": fieldmethod.Tool{},
	// registry's Tool looks handlers up in a map init functions fill
	// through a registration helper; its package's Env in a map of its
	// own whose handler reads the environment.
	"registry": registry.Tool{},
	// ptrcache's Tool calls a method that calls its pointer receiver's
	// loader field; its package's Env does on a cache over os.Getenv.
	"ptrcache": ptrcache.Tool{},
	// wraphelper's Tool reads files through helpers that wrap the
	// function they are given in a closure of their own (a retry that
	// recovers panics, a range-over-func loop over lines), which its
	// package's Fetch calls with functions that make HTTP requests.
	"wraphelper": wraphelper.Tool{},
	// anyfuncs's Tool keeps functions that read files where Go keeps
	// them as any (sync.Map, atomic.Value, a context, a channel), which
	// its package's Plain does with functions of the same types that
	// reach nothing.
	"anyfuncs": anyfuncs.Tool{},
	// ownstate's Tool serves a file through a ServeMux and loggers of
	// its own, which its package's Plain does with a handler
	// that reaches nothing: neither keeps anything in the standard
	// library's package state, and neither is charged with the other's.
	"ownstate": ownstate.Tool{},
	// upload posts a file with http.Post: the body it gives net/http is
	// read while its request runs, not kept for other tools' requests.
	"upload": upload.Tool{},
	// logprefix keeps a writer of its own, into a buffer, in log's
	// default Logger, which net/http's requests log to.
	"logprefix": logprefix.Tool{},
	// tarlist's Tool stores the errors of os.WriteFile and of
	// tar.Reader.Next, which may point into io.Discard, in its result
	// err, a local variable a deferred fmt.Errorf wraps; its package's
	// Plain writes to io.Discard (TestHonestPair).
	"tarlist": tarlist.Tool{},
	// deadline keeps a time.AfterFunc timer of its own in a package
	// variable and resets it: in one program with timerreset, whose
	// timer's func reads the environment, it must not be charged with it.
	"deadline": deadline.Tool{},
	// jsonsecret's Tool decodes JSON into a type whose UnmarshalJSON parses durations;
	// its package's Load into one whose UnmarshalJSON may read the environment.
	"jsonsecret": jsonsecret.Tool{},
	// fmtstringer's Tool formats a value whose String method fmt calls;
	// its package's Home formats one whose String reads the home directory.
	"fmtstringer": fmtstringer.Tool{},
	// slogbuf's Tool logs into a buffer through a slog.Handler wrapper;
	// its package's Debug logs to os.Stderr through the same helper.
	"slogbuf": slogbuf.Tool{},
	// tmplfuncs's Tool renders a template through a helper given a FuncMap;
	// its package's Env gives it os.Getenv.
	"tmplfuncs": tmplfuncs.Tool{},
	// storeiface's Tool counts in a memory Store its package keeps;
	// its package's Save in a file Store, through the same helpers.
	"storeiface": storeiface.Tool{},
	// resultgen's Tool chains steps through a generic Result[T] with Try and Then;
	// its package's Env's first step reads the environment.
	"resultgen": resultgen.Tool{},
	// methodval's Tool passes a method value to a per-line helper;
	// its package's Env one that expands environment variables.
	"methodval": methodval.Tool{},
	// uatransport's Tool only builds and prints a request; its package's
	// Fetch sends it with a kept client whose Transport sets the User-Agent.
	"uatransport": uatransport.Tool{},
	// oncecache's Tool uses a sync.Pool and a sync.OnceValue of a map;
	// its package's Config another OnceValue of a map, read from a file.
	"oncecache": oncecache.Tool{},
	// codecs's Tool compresses into a buffer with a strategy map of encoders;
	// its package's Save into a sink from a second map (a file, stdout).
	"codecs": codecs.Tool{},
	// fsyscount's Tool counts lines of a fstest.MapFS through fs.WalkDir;
	// its package's Dir of os.DirFS, through the same helper.
	"fsyscount": fsyscount.Tool{},
	// errwrap's Tool wraps errors and looks into them with errors.As;
	// its package's Exec does so with *exec.ExitError.
	"errwrap": errwrap.Tool{},
	// progress's Tool copies through a copier with a progress callback field;
	// its package's Verbose's callback prints to os.Stderr.
	"progress": progress.Tool{},
	// bushooks's tools each make a bus whose Use method appends hooks to a
	// slice field its publish runs; Audit's last hook appends to a file.
	"bushooks": bushooks.Tool{},
	// ctxrecorder's tools put a recorder in their own context that a shared
	// helper takes out (ctx.Value(key{}).(recorder)); Journal's writes a file.
	"ctxrecorder": ctxrecorder.Tool{},
	// workerpool's Tool runs hashing tasks it appends to a slice in a pool of
	// goroutines; its package's Fetch runs tasks that fetch URLs in the same pool.
	"workerpool": workerpool.Tool{},
	// embedbase's services embed a base struct whose promoted method calls its
	// notifier; Tool's notes in memory, Exec's run a program.
	"embedbase": embedbase.Tool{},
	// pkgdefault's Tool calls a service its package makes at start-up with an echoing
	// runner; Exec makes one of its own over a runner that runs a program.
	"pkgdefault": pkgdefault.Tool{},
	// memo's Tool reads through a cache a constructor makes for one call over its
	// function; its package's Lookup uses one its package keeps over os.Getenv.
	"memo": memo.Tool{},
}

// honestPairs are packages of the honest corpus with a second tool,
// Plain, audited in one program with Tool, without TestTogether's
// others: each reaches what it declares.
var honestPairs = map[string][2]definer{
	"tarlist": {tarlist.Tool{}, tarlist.Plain{}},
}

// TestHonestPair audits each of honestPairs' packages, Tool and Plain in
// one program.
func TestHonestPair(t *testing.T) {
	t.Parallel()
	for name, d := range honestPairs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := reaches(t, filepath.Join("testdata", "honest", name), "Tool", "Plain")
			for i, tl := range []string{"Tool", "Plain"} {
				if want := d[i].Definition().Capabilities; got[tl] != want {
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
var honestWith = map[string]struct {
	name string
	d    [2]definer
}{
	"fmtstringer": {"Home", [2]definer{fmtstringer.Tool{}, fmtstringer.Home{}}},
	"slogbuf":     {"Debug", [2]definer{slogbuf.Tool{}, slogbuf.Debug{}}},
	"tmplfuncs":   {"Env", [2]definer{tmplfuncs.Tool{}, tmplfuncs.Env{}}},
	"storeiface":  {"Save", [2]definer{storeiface.Tool{}, storeiface.Save{}}},
	"resultgen":   {"Env", [2]definer{resultgen.Tool{}, resultgen.Env{}}},
	"methodval":   {"Env", [2]definer{methodval.Tool{}, methodval.Env{}}},
	"uatransport": {"Fetch", [2]definer{uatransport.Tool{}, uatransport.Fetch{}}},
	"oncecache":   {"Config", [2]definer{oncecache.Tool{}, oncecache.Config{}}},
	"codecs":      {"Save", [2]definer{codecs.Tool{}, codecs.Save{}}},
	"fsyscount":   {"Dir", [2]definer{fsyscount.Tool{}, fsyscount.Dir{}}},
	"errwrap":     {"Exec", [2]definer{errwrap.Tool{}, errwrap.Exec{}}},
	"progress":    {"Verbose", [2]definer{progress.Tool{}, progress.Verbose{}}},
	"bushooks":    {"Audit", [2]definer{bushooks.Tool{}, bushooks.Audit{}}},
	"ctxrecorder": {"Journal", [2]definer{ctxrecorder.Tool{}, ctxrecorder.Journal{}}},
	"workerpool":  {"Fetch", [2]definer{workerpool.Tool{}, workerpool.Fetch{}}},
	"embedbase":   {"Exec", [2]definer{embedbase.Tool{}, embedbase.Exec{}}},
	"pkgdefault":  {"Exec", [2]definer{pkgdefault.Tool{}, pkgdefault.Exec{}}},
	"memo":        {"Lookup", [2]definer{memo.Tool{}, memo.Lookup{}}},
	"jsonsecret":  {"Load", [2]definer{jsonsecret.Tool{}, jsonsecret.Load{}}},
}

// TestHonestWith audits each of honestWith's packages, Tool and its
// second tool in one program.
func TestHonestWith(t *testing.T) {
	t.Parallel()
	for name, w := range honestWith {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("testdata", "honest", name)
			rep := analyzeFor(t, dir, "Tool", w.name)
			got := reachesOf(t, rep)
			for i, tl := range []string{"Tool", w.name} {
				if want := w.d[i].Definition().Capabilities; got[tl] != want {
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
				return analyzeListing(context.Background(), dir, l, names)
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
	for name, d := range honest {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if _, ok := honestWith[name]; ok {
				return // TestHonestWith audits it with its second tool
			}
			dir := filepath.Join("testdata", "honest", name)
			rep := analyzeFor(t, dir, "Tool")
			got := reachesOf(t, rep)["Tool"]
			if want := d.Definition().Capabilities; got != want {
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
	t.Parallel()
	want := map[string]tool.Capability{}
	for name, d := range map[string]definer{
		"CSVSum": all.CSVSum{}, "GitLog": all.GitLog{}, "HTTPGet": all.HTTPGet{}, "JSONFmt": all.JSONFmt{},
		"Once": all.Once{}, "OnceValue": all.OnceValue{}, "NewLoader": all.NewLoader{}, "Diag": all.Diag{}, "GoFmt": all.GoFmt{}, "ReadAll": all.ReadAll{}, "ReadLines": all.ReadLines{}, "Tmpl": all.Tmpl{},
		"Walk": all.Walk{}, "WriteOut": all.WriteOut{},
		"ConfigCheck": all.ConfigCheck{}, "Validate": all.Validate{}, "GenValidate": all.GenValidate{},
		"APIClient": all.APIClient{}, "FileStats": all.FileStats{}, "Report": all.Report{}, "HeapSort": all.HeapSort{},
		"Defaults": all.Defaults{}, "Merge": all.Merge{}, "HTTPSJSON": all.HTTPSJSON{}, "TLSRoots": all.TLSRoots{},
		"FuncTable": all.FuncTable{}, "MmapCount": all.MmapCount{},
		"SharedSizes": all.SharedSizes{}, "SharedFetch": all.SharedFetch{},
		"SharedVars": all.SharedVars{}, "SharedVarsEnv": all.SharedVarsEnv{},
		"Decorator": all.Decorator{}, "DecoratorEnv": all.DecoratorEnv{},
		"SingleFlight": all.SingleFlight{}, "SingleFlightFetch": all.SingleFlightFetch{},
		"Options": all.Options{}, "OptionsEnv": all.OptionsEnv{},
		"OptConv": all.OptConv{}, "OptConvEnv": all.OptConvEnv{},
		"GenCache": all.GenCache{}, "GenCacheEnv": all.GenCacheEnv{},
		"WrapIface": all.WrapIface{}, "WrapIfaceEnv": all.WrapIfaceEnv{},
		"EmbedIface": all.EmbedIface{}, "EmbedIfaceEnv": all.EmbedIfaceEnv{},
		"Inject": all.Inject{}, "InjectExec": all.InjectExec{},
		"OptService": all.OptService{}, "OptServiceExec": all.OptServiceExec{},
		"SvcErr": all.SvcErr{}, "SvcErrExec": all.SvcErrExec{},
		"Builder": all.Builder{}, "BuilderExec": all.BuilderExec{},
		"CfgClient": all.CfgClient{}, "CfgClientExec": all.CfgClientExec{},
		"EmbedCfg": all.EmbedCfg{}, "EmbedCfgExec": all.EmbedCfgExec{},
		"PkgSvc": all.PkgSvc{}, "PkgSvcExec": all.PkgSvcExec{},
		"FillNil": all.FillNil{}, "FillNilRead": all.FillNilRead{},
		"DecoIface": all.DecoIface{}, "DecoIfaceEnv": all.DecoIfaceEnv{},
		"Pipeline": all.Pipeline{}, "PipelineEnv": all.PipelineEnv{},
		"Formatters": all.Formatters{}, "FormattersEnv": all.FormattersEnv{},
		"StartLog":  all.StartLog{},
		"WrapSizes": all.WrapSizes{}, "WrapFetch": all.WrapFetch{},
		"AnyRead": all.AnyRead{}, "AnyPlain": all.AnyPlain{},
		"OwnRead": all.OwnRead{}, "OwnPlain": all.OwnPlain{},
		"Upload": all.Upload{}, "LogPrefix": all.LogPrefix{}, "LogSave": all.LogSave{},
		"TarList": all.TarList{}, "TarPlain": all.TarPlain{}, "Deadline": all.Deadline{},
		"Jsonsecret": all.Jsonsecret{}, "JsonsecretLoad": all.JsonsecretLoad{},
		"Fmtstringer": all.Fmtstringer{}, "FmtstringerHome": all.FmtstringerHome{},
		"Slogbuf": all.Slogbuf{}, "SlogbufDebug": all.SlogbufDebug{},
		"Tmplfuncs": all.Tmplfuncs{}, "TmplfuncsEnv": all.TmplfuncsEnv{},
		"Storeiface": all.Storeiface{}, "StoreifaceSave": all.StoreifaceSave{},
		"Resultgen": all.Resultgen{}, "ResultgenEnv": all.ResultgenEnv{},
		"Methodval": all.Methodval{}, "MethodvalEnv": all.MethodvalEnv{},
		"Uatransport": all.Uatransport{}, "UatransportFetch": all.UatransportFetch{},
		"Oncecache": all.Oncecache{}, "OncecacheConfig": all.OncecacheConfig{},
		"Codecs": all.Codecs{}, "CodecsSave": all.CodecsSave{},
		"Fsyscount": all.Fsyscount{}, "FsyscountDir": all.FsyscountDir{},
		"Errwrap": all.Errwrap{}, "ErrwrapExec": all.ErrwrapExec{},
		"Progress": all.Progress{}, "ProgressVerbose": all.ProgressVerbose{},
		"Bushooks": all.Bushooks{}, "BushooksAudit": all.BushooksAudit{},
		"Ctxrecorder": all.Ctxrecorder{}, "CtxrecorderJournal": all.CtxrecorderJournal{},
		"Workerpool": all.Workerpool{}, "WorkerpoolFetch": all.WorkerpoolFetch{},
		"Embedbase": all.Embedbase{}, "EmbedbaseExec": all.EmbedbaseExec{},
		"Pkgdefault": all.Pkgdefault{}, "PkgdefaultExec": all.PkgdefaultExec{},
		"Memo": all.Memo{}, "MemoLookup": all.MemoLookup{},
	} {
		want[name] = d.Definition().Capabilities
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
