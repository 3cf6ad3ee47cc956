package main

import (
	"context"
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"github.com/toolreg/toolreg/internal/audit"
	"github.com/toolreg/toolreg/tool"
)

// The capabilities, as bits of tool.Capability, and the names of their
// constants in package tool.
var capConsts = []struct {
	bit       uint64
	name, tag string
}{
	{uint64(tool.Exec), "Exec", "exec"},
	{uint64(tool.Network), "Network", "network"},
	{uint64(tool.WriteFiles), "WriteFiles", "write_files"},
	{uint64(tool.ReadFiles), "ReadFiles", "read_files"},
	{uint64(tool.Env), "Env", "env"},
	{uint64(tool.Unsafe), "Unsafe", "unsafe"},
}

// auditState is the whole-program audit of the tool package (package
// audit), run once for all its tools.
type auditState struct {
	report *audit.Report
	err    error
}

// runAudit audits the tools that passed the convention checks (c.tools)
// and the start-up code, in every build configuration of the
// configuration's platforms (package audit's AnalyzeAll: cgo off and on,
// and the build tags the module's files use).
func (c *checker) runAudit() (*audit.Report, error) {
	if c.caps != nil {
		return c.caps.report, c.caps.err
	}
	var names []string
	for _, t := range c.tools {
		names = append(names, t.TypeName)
	}
	var platforms []audit.Platform
	for _, p := range c.platforms {
		platforms = append(platforms, audit.Platform{GOOS: p.GOOS, GOARCH: p.GOARCH})
	}
	rep, err := c.progs.Analyze(context.Background(), platforms, names)
	if err != nil {
		err = fmt.Errorf("capability audit of %s for %s: %w", c.pkg.PkgPath, c.platform, err)
	}
	c.caps = &auditState{report: rep, err: err}
	return rep, err
}

// rel names file relative to base, or, in the module cache, as
// module@version/path.
func (c *checker) rel(file string) string {
	r := filepath.ToSlash(relPath(c.base, file))
	if _, after, ok := strings.Cut(r, "/pkg/mod/"); ok && filepath.IsAbs(file) {
		return after
	}
	return r
}

// checkCapabilities warns about each capability that t's Execute (or a
// method the registry calls on its result) reaches and its Definition
// does not declare; the warning shows the shortest call path.
func (c *checker) checkCapabilities(t *toolInfo, exe *types.Func) {
	rep, err := c.runAudit()
	if err != nil {
		c.warn(exe.Pos(), "tool %s cannot be audited: %v", t.ID, err)
		return
	}
	res := rep.Tools[t.TypeName]
	if res == nil {
		c.warn(exe.Pos(), "tool %s was not audited", t.ID)
		return
	}
	t.Reaches = uint64(res.Reaches)
	c.out.Explain[t.ID] = c.explain(res)
	for _, f := range res.Findings {
		if t.Capabilities&uint64(f.Cap) != 0 {
			continue
		}
		c.warnAt(f.Pos, exe.Pos(), "tool %s reaches %s: %s", t.ID, f.Cap, f.Path(c.rel, false))
	}
}

// explain lists every path of res, per capability.
func (c *checker) explain(res *audit.Result) []string {
	var out []string
	for _, f := range res.All {
		out = append(out, fmt.Sprintf("%s: %s:%d:%d: %s", f.Cap, c.rel(f.Pos.Filename), f.Pos.Line, f.Pos.Column, f.Path(c.rel, true)))
	}
	return out
}

// checkStartup warns about start-up code (init functions, package
// variable initializers) of the tool package and its non-standard
// imports that reaches a capability: it runs at every start of the
// agent, before any flag applies.
func (c *checker) checkStartup() error {
	rep, err := c.runAudit()
	if err != nil {
		return err
	}
	for _, u := range rep.Unaudited {
		c.out.Warnings = append(c.out.Warnings, diagnostic{Pos: token.Position{Filename: c.rel(c.pkg.GoFiles[0]), Line: 1, Column: 1}, Note: true,
			Msg: fmt.Sprintf("the build configuration %s is not audited on this host; its files differ from every audited one", u)})
	}
	for _, f := range rep.Startup {
		c.warnAt(f.Pos, token.NoPos, "start-up code of package %s reaches %s: %s; it runs at start in every agent", f.Pkg, f.Cap, f.Path(c.rel, false))
	}
	return nil
}

// warnAt warns at position p, or at fallback when p is not known.
func (c *checker) warnAt(p token.Position, fallback token.Pos, format string, args ...any) {
	if !p.IsValid() {
		if fallback.IsValid() {
			p = c.pkg.Fset.Position(fallback)
		} else {
			p = token.Position{Filename: c.pkg.GoFiles[0], Line: 1, Column: 1}
		}
	}
	p.Filename = c.rel(p.Filename)
	c.out.Warnings = append(c.out.Warnings, diagnostic{Pos: p, Msg: fmt.Sprintf(format, args...)})
	c.bad = true
}
