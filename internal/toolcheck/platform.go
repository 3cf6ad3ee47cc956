package toolcheck

import (
	"go/ast"
	"go/build"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
)

// Platform is a GOOS/GOARCH pair.
type Platform struct {
	GOOS, GOARCH string
}

func (p Platform) String() string { return p.GOOS + "/" + p.GOARCH }

// SupportedPlatforms returns the platforms a tool file must build on:
// linux, darwin and windows, on amd64 and arm64.
func SupportedPlatforms() []Platform {
	return []Platform{
		{"darwin", "amd64"}, {"darwin", "arm64"},
		{"linux", "amd64"}, {"linux", "arm64"},
		{"windows", "amd64"}, {"windows", "arm64"},
	}
}

// Context returns the build context of p that toolreg judges files by: cgo
// counts as available (a tool package may use it), and the release tags
// are those of the running toolchain. Only the GOOS, GOARCH, cgo and
// release tags decide; the host does not.
func (p Platform) Context() build.Context {
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH = p.GOOS, p.GOARCH
	ctx.CgoEnabled = true
	ctx.BuildTags = nil
	ctx.ToolTags = nil
	ctx.Compiler = "gc"
	ctx.UseAllFiles = false
	return ctx
}

// matches evaluates a //go:build expression for p, with or without cgo.
func (p Platform) matches(expr constraint.Expr, cgo bool) bool {
	ctx := p.Context()
	return expr.Eval(func(tag string) bool {
		switch tag {
		case "cgo":
			return cgo
		case p.GOOS, p.GOARCH, "gc":
			return true
		case "unix":
			return p.GOOS == "linux" || p.GOOS == "darwin"
		}
		return slices.Contains(ctx.ReleaseTags, tag)
	})
}

// buildConstraint returns the //go:build line of f and its position.
func buildConstraint(f *ast.File) (constraint.Expr, token.Pos) {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, cm := range cg.List {
			if constraint.IsGoBuild(cm.Text) {
				if expr, err := constraint.Parse(cm.Text); err == nil {
					return expr, cm.Pos()
				}
			}
		}
	}
	return nil, token.NoPos
}

// checkPlatforms warns about each tool file, compiled here or not, whose
// build constraints leave it out on a supported platform: the registry
// would differ from one platform to another. Such a tool is left out on
// every platform.
func (c *checker) checkPlatforms() {
	c.excluded = map[string]bool{}
	platforms := c.p.Platforms
	if platforms == nil {
		platforms = SupportedPlatforms()
	}
	check := func(f *ast.File, name string) {
		for _, imp := range f.Imports {
			if imp.Path.Value == `"C"` {
				c.excluded[name] = true
				c.warn(imp.Pos(), "tool file uses cgo: it is left out when cgo is off (CGO_ENABLED=0, as when cross-compiling); move the cgo code into a helper file")
				return
			}
		}
		expr, _ := buildConstraint(f)
		if expr == nil {
			return
		}
		var out []string
		for _, p := range platforms {
			switch {
			case !p.matches(expr, true):
				out = append(out, p.String())
			case !p.matches(expr, false):
				out = append(out, p.String()+" without cgo")
			}
		}
		if len(out) == 0 {
			return
		}
		c.excluded[name] = true
		where := "on " + strings.Join(out, ", ")
		if len(out) == len(platforms) && !strings.Contains(out[0], " ") {
			where = "on every platform"
		}
		c.warn(f.Package, "tool file excluded by build constraints %s: a tool must build on every platform; move platform code into a helper file", where)
	}
	for _, f := range c.p.Files {
		if name := c.p.Fset.File(f.Pos()).Name(); IsToolFile(name) {
			check(f, name)
		}
	}
	for _, name := range c.p.Ignored {
		if !IsToolFile(filepath.Base(name)) {
			continue
		}
		f, err := parser.ParseFile(c.p.Fset, name, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			continue // the compiler reports it where the file is compiled
		}
		if expr, _ := buildConstraint(f); expr == nil {
			// Left out for another reason (cgo disabled, a file name
			// suffix): say so at the top of the file.
			c.excluded[name] = true
			c.warn(f.Package, "tool file excluded by this build configuration: a tool must build on every platform")
			continue
		}
		check(f, name)
	}
}
