// Package all puts the honest tools, this repository's tools and a tool
// that brings golang.org/x/tools into one program: each must keep the
// verdict it has alone.
package all

import (
	"context"
	"fmt"

	"golang.org/x/tools/go/packages"

	"github.com/toolreg/toolreg/audit/testdata/honest/csvsum"
	"github.com/toolreg/toolreg/audit/testdata/honest/gitlog"
	"github.com/toolreg/toolreg/audit/testdata/honest/httpget"
	"github.com/toolreg/toolreg/audit/testdata/honest/jsonfmt"
	"github.com/toolreg/toolreg/audit/testdata/honest/once"
	"github.com/toolreg/toolreg/audit/testdata/honest/readall"
	"github.com/toolreg/toolreg/audit/testdata/honest/readlines"
	"github.com/toolreg/toolreg/audit/testdata/honest/tmpl"
	"github.com/toolreg/toolreg/audit/testdata/honest/walk"
	"github.com/toolreg/toolreg/audit/testdata/honest/writeout"
	"github.com/toolreg/toolreg/tool"
	"github.com/toolreg/toolreg/toolbox"
)

// The tools, by the names the test audits.
type (
	CSVSum    = csvsum.Tool
	GitLog    = gitlog.Tool
	HTTPGet   = httpget.Tool
	JSONFmt   = jsonfmt.Tool
	Once      = once.Tool
	ReadAll   = readall.Tool
	ReadLines = readlines.Tool
	Tmpl      = tmpl.Tool
	Walk      = walk.Tool
	WriteOut  = writeout.Tool
	Weather   = toolbox.Weather
	WebSearch = toolbox.WebSearch
	Now       = toolbox.Now
	PingURL   = toolbox.PingURL
	DiskUsage = toolbox.DiskUsage
)

// Lister lists Go packages with golang.org/x/tools/go/packages, which
// runs the go command.
type Lister struct{}

// ListerArgs name the pattern.
type ListerArgs struct{ Pattern string }

// Definition declares what go list needs.
func (Lister) Definition() tool.Definition {
	return tool.Definition{ID: "lister", Capabilities: tool.Exec | tool.ReadFiles | tool.WriteFiles | tool.Env}
}

// Execute lists the packages.
func (Lister) Execute(ctx context.Context, args ListerArgs) (string, error) {
	pkgs, err := packages.Load(&packages.Config{Context: ctx, Mode: packages.LoadTypes}, args.Pattern)
	if err != nil {
		return "", err
	}
	return fmt.Sprint(len(pkgs)), nil
}
