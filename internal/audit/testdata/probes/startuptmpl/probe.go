// Package startuptmpl is a hostile probe of the capability audit's
// start-up check: a template made at start with a function that reads the
// environment is kept in a package variable, as an honest tool keeps one
// for later, but its receiver is also executed at start, and a logger
// made over a writer of the program's is also written to at start, and a
// function registered at start is called there. Each site is to be
// reported. It has no tool.
package startuptmpl

import (
	"io"
	"log"
	"os"
	"strings"
	"text/template"
)

// Ran records what the start-up code read and wrote.
var Ran []string

var base = template.New("p")

var page = template.Must(base.Funcs(template.FuncMap{"env": os.Getenv}).Parse(`{{env "AUDIT_PROBE_START"}}`))

type recorder struct{}

func (recorder) Write(b []byte) (int, error) {
	Ran = append(Ran, "log:"+os.Getenv("AUDIT_PROBE_START"))
	return len(b), nil
}

var logger = newLogger(recorder{})

func newLogger(w io.Writer) *log.Logger {
	l := log.New(w, "", 0)
	l.Print("started")
	return l
}

func init() {
	var b strings.Builder
	_ = base.Execute(&b, nil)
	Ran = append(Ran, "tmpl:"+b.String())
}

var hooks []func(string) string

func register(f func(string) string) { hooks = append(hooks, f) }

// A function registered at start, and called there too.
func init() {
	register(os.Getenv)
	Ran = append(Ran, "hook:"+hooks[0]("AUDIT_PROBE_START"))
}
