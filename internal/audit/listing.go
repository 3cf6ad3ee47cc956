package audit

import (
	"bytes"
	"context"
	"fmt"
	"go/build"
	"go/build/constraint"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// listing is a program as built in one configuration: its packages
// outside the standard library, from `go list -deps`, or derived from the
// listing of another configuration (deriver).
type listing struct {
	config Config
	pkgs   []*listedPackage // outside the standard library, each after its imports
	root   *listedPackage
	// std lists the packages of the standard library that the other
	// packages import, but unsafe and C.
	std []string
	// standard holds every package the go command listed as the standard
	// library's (its Standard field), for the configuration it listed;
	// a derived listing has its base's. The shape of an import path does
	// not say it: a module whose path has no dot ("mytools", or "dotless"
	// required and replaced by a directory) is not the standard library,
	// and its source must be audited.
	standard map[string]bool
	// stdPkgs are the packages of the standard library as the go command
	// listed them with the program, each after its imports, where it
	// listed them with the flags they are built with (exportFlags): the
	// types of the configuration's standard packages are made from them
	// (stdListed). nil for a listing of a tag that chooses no standard
	// file, which a configuration may have thousands of, and for a derived
	// listing, whose configuration the go command did not list.
	stdPkgs []*listedPackage
	// goroot is the GOROOT of the go command that listed the program
	// (see gorootOf); "" when unknown.
	goroot string
	errs   []PackageError // errors of the go command, of any package
	// key names the files the configuration compiles outside the
	// standard library: configurations with the same key are one
	// program to the audit.
	key string
	// tags are the build tags the files of the main module's packages
	// use, compiled or not, that a user chooses with -tags, but those of
	// an instrumentation.
	tags []string
	// fileTags holds, for each file of a package outside the standard
	// library that names a tag a user chooses, or an instrumentation's,
	// in its build constraint or its name (fileTags), compiled or not,
	// those tags.
	fileTags map[string][]string
	// instruments are the instrumentations (instrumentTag) that a file of
	// any package outside the standard library, compiled or not, names in
	// its build constraint; but the genuine golang.org/x modules' (x/sys,
	// x/net), whose files for -race only tell the race detector of their
	// system calls.
	instruments []string
	// cgo is set when a compiled file imports "C".
	cgo bool
	// loadable is unset for a derived listing of a configuration that
	// compiles a file importing "C": its key is known, but its files are
	// cgo's output, which only the go command can list (-compiled).
	loadable bool
}

// listConfig lists the program in dir as built in c: one `go list -deps`,
// and for the host with cgo a second, with -compiled, when a package
// outside the standard library has files cgo or SWIG turns into Go.
func listConfig(ctx context.Context, dir string, c Config) (*listing, error) {
	args := append(append([]string{"-deps", "-json=" + listFields}, c.flags()...), ".")
	pkgs, err := goList(ctx, dir, c.env(), args...)
	if err != nil {
		return nil, fmt.Errorf("list %s for %s: %w", dir, c, err)
	}
	if c.Cgo && c.isHost() && slices.ContainsFunc(pkgs, generatesGo) {
		// The files cgo writes, which the audit reads, only the go
		// command can name, by running cgo (twice the time of a plain
		// listing, paid only here). For another platform cgo needs a C
		// cross-compiler, and that configuration is not loaded.
		args = append(append([]string{"-deps", "-compiled", "-json=" + listFields + ",CompiledGoFiles"}, c.flags()...), ".")
		listed := !slices.ContainsFunc(pkgs, func(p *listedPackage) bool { return len(p.errs()) > 0 })
		if pkgs, err = goList(ctx, dir, c.env(), args...); err != nil {
			return nil, fmt.Errorf("list %s for %s: %w", dir, c, err)
		}
		if i := slices.IndexFunc(pkgs, func(p *listedPackage) bool { return len(p.errs()) > 0 }); listed && i >= 0 {
			// Listed, then cgo failed on this machine (a C header it
			// lacks): the configuration may build elsewhere, and the
			// audit cannot read it (found in review of c0dd88a: taken
			// for one that does not build, it was skipped unaudited).
			return nil, cgoError{fmt.Errorf("list %s for %s: running cgo: %v", dir, c, pkgs[i].errs()[0])}
		}
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("list %s for %s: no package", dir, c)
	}
	l, err := newListing(c, pkgs)
	if err != nil {
		return nil, fmt.Errorf("list %s for %s: %w", dir, c, err)
	}
	return l, nil
}

// cgoError is the error of a configuration that the go command listed,
// then failed to run cgo for: on this machine (a C header it lacks), or
// anywhere (two files for tags a module takes one at a time that export
// the same C name).
type cgoError struct{ error }

func (e cgoError) Unwrap() error { return e.error }

// newListing is the listing of the program in configuration c whose
// packages the go command listed as pkgs (with -deps: each after its
// imports, the program's own package last). Every file of a package
// outside the standard library must be a regular file (RegularFile).
func newListing(c Config, pkgs []*listedPackage) (*listing, error) {
	l := &listing{config: c, loadable: true, goroot: gorootOf(pkgs), standard: map[string]bool{}}
	keepStd := slices.Equal(c.flags(), c.exportFlags())
	for _, p := range pkgs {
		if p.Standard {
			l.standard[p.ImportPath] = true
			if keepStd {
				l.stdPkgs = append(l.stdPkgs, p)
			}
		}
	}
	std := map[string]bool{}
	for _, p := range pkgs {
		l.errs = append(l.errs, p.errs()...)
		if l.standard[p.ImportPath] {
			continue
		}
		l.pkgs = append(l.pkgs, p)
		if len(p.CgoFiles) > 0 {
			l.cgo = true
		}
		for _, imp := range p.Imports {
			// "C" is not a package the go command lists.
			if l.standard[imp] && imp != "unsafe" {
				std[imp] = true
			}
		}
	}
	l.root = pkgs[len(pkgs)-1]
	if len(l.errs) == 0 {
		if r := l.root; r.Error == nil {
			for _, e := range r.DepsErrors {
				l.errs = append(l.errs, PackageError{Pos: e.Pos, Msg: strings.TrimSpace(e.Err)})
			}
		}
	}
	l.std = sortedKeys(std)
	for _, p := range l.pkgs {
		for _, file := range slices.Concat(p.GoFiles, p.CgoFiles, p.IgnoredGoFiles) {
			// A file that is not there is an error too: a dangling
			// symbolic link whose target is Go source is that source
			// where git does not make links (Windows).
			if err := RegularFile(file); err != nil {
				return nil, fmt.Errorf("package %s: %w", p.ImportPath, err)
			}
		}
	}
	if err := l.finish(fileTags); err != nil {
		return nil, err
	}
	return l, nil
}

// RegularFile returns an error unless file, its symbolic links followed,
// is a regular file. A file of a package may be a symbolic link, which git
// keeps, to a device or a fifo: reading /dev/zero never ends (the audit
// read it whole and ran out of memory), and opening a fifo waits for a
// writer. The go command cannot build such a package where the file is
// compiled, and skips reading it only where its name leaves it out.
func RegularFile(file string) error {
	fi, err := os.Stat(file)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (a symbolic link to a device or a fifo?): the go command cannot build the package where it is compiled", file)
	}
	return nil
}

// maxSource bounds a source file the audit, or toolgen, reads; a larger
// one is an error.
const maxSource = 64 << 20

// ReadRegular reads file, a source file of a package or a file beside
// one, if it is a regular file (RegularFile) of at most 64 MiB
// (readRegular): never a device, a fifo or a file of /proc.
func ReadRegular(file string) ([]byte, error) { return readRegular(file, maxSource) }

// readRegular reads file if it is a regular file (RegularFile) of at most
// max bytes. The file opened is checked again, and no more than max+1
// bytes are read: a file of /proc, which says it is regular and empty,
// can give gigabytes.
func readRegular(file string, max int64) ([]byte, error) {
	src, cut, err := readStart(file, max)
	if err == nil && cut {
		err = fmt.Errorf("%s is larger than %d bytes, more than the audit reads of a source file", file, max)
	}
	return src, err
}

// maxHeader bounds what fileTags and the deriver read of a Go file: its
// build constraints, package clause and imports come first.
const maxHeader = 1 << 20

// ReadHeader reads the start of file, a Go file, where its build
// constraints, package clause and imports are: its first MiB, and whether
// it holds more (readStart).
func ReadHeader(file string) (src []byte, cut bool, err error) { return readStart(file, maxHeader) }

// readStart reads at most max bytes of file, a regular file (RegularFile),
// and reports whether it holds more. The file opened is checked again, and
// no more than max+1 bytes are read: a file of /proc, which says it is
// regular and empty, can give gigabytes.
func readStart(file string, max int64) (src []byte, cut bool, err error) {
	if err := RegularFile(file); err != nil {
		return nil, false, err
	}
	f, err := openRead(file) // a fifo swapped in since does not block
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false, fmt.Errorf("%s is not a regular file: it was replaced while it was read", file)
	}
	src, err = readAtMost(f, fi.Size(), max)
	if err != nil {
		return nil, false, err
	}
	if int64(len(src)) > max {
		return src[:max], true, nil
	}
	return src, false, nil
}

// readAtMost reads f to its end, or to one byte past limit if it holds
// more. With the size f's Stat gave, it reads into one buffer of
// min(size, limit)+1 bytes, where io.ReadAll reads into chunks that grow
// from 512 bytes and copies them into one slice at the end, which takes
// twice the time for a package's files (BenchmarkReadRegular). A buffer
// with more than a quarter of what was read, and 4 KiB, left over (a file
// cut short since its Stat) is copied to one of the size read, so that
// no caller keeps up to limit bytes for a short file. A file that says it
// is empty (of /proc) is read as io.ReadAll reads: an integer of
// /proc/sys reads whole only in its first read, so a first read of one
// byte gave that byte alone. One that gives more than its size had said
// (it grew) has the rest read that way too, then joined.
func readAtMost(f *os.File, size, limit int64) ([]byte, error) {
	if size <= 0 {
		return io.ReadAll(io.LimitReader(f, limit+1))
	}
	buf := make([]byte, min(size, limit)+1)
	n, err := io.ReadFull(f, buf)
	buf = buf[:n]
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		if cap(buf)-len(buf) > len(buf)/4+4096 {
			buf = bytes.Clone(buf)
		}
		return buf, nil
	case err != nil:
		return nil, err
	case int64(len(buf)) > limit:
		return buf, nil
	}
	rest, err := io.ReadAll(io.LimitReader(f, limit+1-int64(len(buf))))
	if err != nil {
		return nil, err
	}
	return slices.Concat(buf, rest), nil
}

// rawComment returns the comment that begins at src[off:] as the file
// spells it, a line comment without its newline: go/scanner drops every
// '\r' from a comment's text, where the go command reads a constraint line
// as it is, and takes "//go:build\rrace" for //go:build race.
func rawComment(src []byte, off int) string {
	rest := src[off:]
	var n int
	if bytes.HasPrefix(rest, []byte("//")) {
		n = bytes.IndexByte(rest, '\n')
	} else if n = bytes.Index(rest[min(2, len(rest)):], []byte("*/")); n >= 0 {
		n += 4
	}
	if n < 0 {
		n = len(rest)
	}
	return string(rest[:n])
}

// ImportsEnd reports whether src, the start of a Go file, shows the end of
// its imports: a declaration (const, var, type, func) after its package
// clause and import declarations, scanned without an error. Where it does
// not, the imports may go on past src: a lone "/" at its end, say, is the
// start of a comment cut in two, not a division.
func ImportsEnd(src []byte) bool {
	var s scanner.Scanner
	bad := false
	s.Init(token.NewFileSet().AddFile("", -1, len(src)), src, func(token.Position, string) { bad = true }, 0)
	next := func() token.Token {
		for {
			if _, tok, _ := s.Scan(); tok != token.SEMICOLON {
				return tok
			}
		}
	}
	if next() != token.PACKAGE || next() != token.IDENT {
		return false
	}
	for {
		switch tok := next(); tok {
		case token.IMPORT:
			// A group up to its parenthesis, or a spec: a name, a dot or
			// neither, and its path.
			if tok = next(); tok == token.LPAREN {
				for tok != token.RPAREN && tok != token.EOF {
					tok = next()
				}
			} else {
				for tok == token.IDENT || tok == token.PERIOD {
					tok = next()
				}
				if tok != token.STRING {
					return false
				}
			}
			if tok == token.EOF {
				return false
			}
		case token.CONST, token.VAR, token.TYPE, token.FUNC:
			return !bad
		default:
			return false
		}
	}
}

// generatesGo reports whether p is a package outside the standard library
// whose compiled files the go command generates: cgo's or SWIG's.
func generatesGo(p *listedPackage) bool {
	return !p.Standard && len(p.CgoFiles)+len(p.SwigFiles)+len(p.SwigCXXFiles) > 0
}

// finish computes the key, the tags and the instrumentations of l from
// its packages, with tagsOf the tags of a file (fileTags).
func (l *listing) finish(tagsOf func(file string) ([]string, error)) error {
	var lines, tags, instruments []string
	add := func(set *[]string, t string) {
		if !slices.Contains(*set, t) {
			*set = append(*set, t)
		}
	}
	l.fileTags = map[string][]string{}
	for _, p := range l.pkgs {
		files := slices.Sorted(slices.Values(append(slices.Clone(p.GoFiles), p.CgoFiles...)))
		lines = append(lines, p.ImportPath+" "+strings.Join(files, " ")+"\n")
		main := p.Module != nil && p.Module.Main
		for _, f := range slices.Concat(p.GoFiles, p.CgoFiles, p.IgnoredGoFiles) {
			fileTags, err := tagsOf(f)
			if err != nil {
				return err
			}
			if len(fileTags) > 0 {
				l.fileTags[f] = fileTags
			}
			for _, t := range fileTags {
				switch {
				case instrumentTag(t):
					if !genuineGolangX(p) {
						add(&instruments, t)
					}
				case main:
					add(&tags, t)
				}
			}
		}
	}
	slices.Sort(lines)
	l.key = strings.Join(lines, "")
	slices.Sort(tags)
	l.tags = tags
	slices.Sort(instruments)
	l.instruments = instruments
	return nil
}

// A deriver derives, from the listing of one configuration, the listings
// of the others, as the go command would make them: the go command
// resolves an import path to the same directory whatever the build
// configuration (modules are chosen for every configuration at once), so
// only the files each package compiles differ, which build constraints
// decide. Each file is read once, for its build constraints and imports.
//
// A configuration is derived only when it is certain to match the go
// command's: every package it reaches is in the base listing, and no file
// it reads has a constraint the deriver cannot evaluate the way the go
// command does (a tool tag such as amd64.v3, a GOEXPERIMENT, a release
// newer than the one toolgen was built with). The base configuration is
// derived again and compared with the go command's own listing of it; if
// they differ, nothing is derived. Otherwise a configuration is listed by
// the go command.
type deriver struct {
	base   *listing
	byPath map[string]*listedPackage
	mu     sync.Mutex
	files  map[string]*fileFacts
	// ok is set when the deriver reproduces the base listing.
	ok bool
}

// fileFacts is what a file's header says.
type fileFacts struct {
	src     []byte
	imports []string
	cgo     bool     // imports "C"
	tags    []string // the tags a user chooses (fileTags)
	// constrained is set when the file has a build constraint; the
	// others are matched by their names alone.
	constrained bool
	uncertain   bool // a constraint the deriver cannot evaluate
	err         error
}

func newDeriver(base *listing) *deriver {
	d := &deriver{base: base, byPath: map[string]*listedPackage{}, files: map[string]*fileFacts{}}
	if len(base.errs) > 0 {
		return d // an incomplete listing: derive nothing from it
	}
	for _, p := range base.pkgs {
		d.byPath[p.ImportPath] = p
	}
	again, ok := d.derive(base.config)
	if !ok || again == nil {
		// A constraint the deriver cannot evaluate (a release tag such as
		// go1.27, a goexperiment): every configuration is listed.
		return d
	}
	d.ok = again.key == base.key && slices.Equal(again.std, base.std) && slices.Equal(again.tags, base.tags) &&
		again.cgo == base.cgo && len(again.pkgs) == len(base.pkgs)
	for _, p := range again.pkgs {
		if q := d.byPath[p.ImportPath]; d.ok && !slices.Equal(p.Imports, withoutC(q.Imports)) {
			d.ok = false
		}
	}
	return d
}

// withoutC returns the sorted imports without "C".
func withoutC(imports []string) []string {
	out := slices.DeleteFunc(slices.Clone(imports), func(s string) bool { return s == "C" })
	slices.Sort(out)
	return out
}

// facts reads and parses the header of file once.
func (d *deriver) facts(file string) *fileFacts {
	d.mu.Lock()
	defer d.mu.Unlock()
	if f := d.files[file]; f != nil {
		return f
	}
	f := &fileFacts{}
	d.files[file] = f
	// The header alone, as go/build reads it.
	src, cut, err := readStart(file, maxHeader)
	if err != nil {
		f.err = err
		return f
	}
	ast, err := parser.ParseFile(token.NewFileSet(), file, src, parser.ImportsOnly)
	if err != nil {
		if cut {
			err = fmt.Errorf("%s: no end of its imports in its first %d bytes: %w", file, maxHeader, err)
		}
		f.err = err
		return f
	}
	if cut && !ImportsEnd(src) {
		// Parsed, but its imports may go on past what was read.
		f.err = fmt.Errorf("%s: no end of its imports in its first %d bytes", file, maxHeader)
		return f
	}
	f.src = src
	f.tags = nameTags(file)
	for _, imp := range ast.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if path == "C" {
			f.cgo = true
			continue
		}
		f.imports = append(f.imports, path)
	}
	// The constraints as fileTags reads them; the file parsed, so its
	// header scans.
	comments, _ := headerComments(src)
	for _, c := range comments {
		expr, err := constraint.Parse(c)
		if err != nil {
			continue
		}
		f.constrained = true
		expr.Eval(func(tag string) bool {
			if uncertainTag(tag) {
				f.uncertain = true
			}
			if t, ok := userTag(tag); ok && !slices.Contains(f.tags, t) {
				f.tags = append(f.tags, t)
			}
			return true
		})
	}
	return f
}

// uncertainTag reports whether the deriver may evaluate tag differently
// from the go command: a tool tag (amd64.v3, arm64.v8.1), a GOEXPERIMENT,
// or a release the toolchain toolgen was built with may not agree on.
func uncertainTag(tag string) bool {
	if v, ok := strings.CutPrefix(tag, "go1."); ok {
		n, err := strconv.Atoi(v)
		return err != nil || n >= releaseMinor()
	}
	return strings.Contains(tag, ".")
}

// releaseMinor is the minor version of the newest release tag of the
// toolchain toolgen was built with.
func releaseMinor() int {
	tags := build.Default.ReleaseTags
	if len(tags) == 0 {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimPrefix(tags[len(tags)-1], "go1."))
	return n
}

// context is the build context that decides the files of c.
func (d *deriver) context(c Config) build.Context {
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH = c.GOOS, c.GOARCH
	ctx.CgoEnabled = c.Cgo
	ctx.BuildTags = c.Tags
	ctx.ToolTags = nil
	ctx.Compiler = "gc"
	ctx.UseAllFiles = false
	ctx.OpenFile = func(path string) (io.ReadCloser, error) {
		f := d.facts(path)
		if f.err != nil {
			return nil, f.err
		}
		if !f.constrained {
			// Only its name can exclude it: a header of nothing.
			return io.NopCloser(strings.NewReader("package p\n")), nil
		}
		return io.NopCloser(bytes.NewReader(f.src)), nil
	}
	return ctx
}

// derive returns the listing of c, and whether it could be derived.
func (d *deriver) derive(c Config) (*listing, bool) {
	if d.base.root == nil || d.byPath[d.base.root.ImportPath] == nil {
		return nil, false
	}
	ctx := d.context(c)
	l := &listing{config: c, loadable: true, goroot: d.base.goroot, standard: d.base.standard}
	std := map[string]bool{}
	done := map[string]bool{}
	var visit func(path string) bool
	visit = func(path string) bool {
		if done[path] {
			return true
		}
		done[path] = true
		p := d.byPath[path]
		if p == nil {
			return false // not in the base listing
		}
		q := &listedPackage{ImportPath: p.ImportPath, Name: p.Name, Dir: p.Dir, Module: p.Module, ImportMap: p.ImportMap}
		imports := map[string]bool{}
		for _, file := range slices.Concat(p.GoFiles, p.CgoFiles, p.IgnoredGoFiles) {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f := d.facts(file)
			if f.err != nil || f.uncertain {
				return false
			}
			dir, name := splitPath(file)
			ok, err := ctx.MatchFile(dir, name)
			if err != nil {
				return false
			}
			switch {
			case ok && f.cgo && c.Cgo:
				q.CgoFiles = append(q.CgoFiles, file)
				l.cgo = true
				l.loadable = false
			case ok && !f.cgo:
				q.GoFiles = append(q.GoFiles, file)
			default:
				q.IgnoredGoFiles = append(q.IgnoredGoFiles, file)
				continue
			}
			for _, imp := range f.imports {
				imports[p.resolve(imp)] = true
			}
		}
		if len(q.GoFiles)+len(q.CgoFiles) == 0 {
			return false // the go command's error to give
		}
		q.Imports = sortedKeys(imports)
		for _, imp := range q.Imports {
			// The standard library is what the go command listed as
			// such; an import the base listing does not hold, of the
			// standard library or not, is not derived (visit).
			if d.base.standard[imp] {
				if imp != "unsafe" {
					std[imp] = true
				}
				continue
			}
			if !visit(imp) {
				return false
			}
		}
		q.CompiledGoFiles = q.GoFiles
		l.pkgs = append(l.pkgs, q)
		return true
	}
	if !visit(d.base.root.ImportPath) {
		return nil, false
	}
	l.root = l.pkgs[len(l.pkgs)-1]
	l.std = sortedKeys(std)
	if err := l.finish(func(file string) ([]string, error) {
		if f := d.facts(file); f.err == nil {
			return f.tags, nil
		}
		return fileTags(file)
	}); err != nil {
		return nil, false
	}
	return l, true
}

// signature names which of files, each with its tags (listing.fileTags),
// the go command compiles in c, as MatchFile decides; memo holds the
// answers by file, platform, cgo and the tags of c the file names, which
// alone decide it. A file the deriver cannot read, or whose constraint it
// cannot evaluate as the go command does (fileFacts.uncertain), is taken
// to be chosen differently by each set of its tags.
func (d *deriver) signature(c Config, files map[string][]string, memo map[string]bool) string {
	var b strings.Builder
	for _, file := range slices.Sorted(maps.Keys(files)) {
		var named []string
		for _, t := range slices.Concat(c.Tags, offChoices(c.Off)) {
			if slices.Contains(files[file], t) {
				named = append(named, t)
			}
		}
		f := d.facts(file)
		if f.err != nil || f.uncertain {
			b.WriteString("?" + strings.Join(named, ",") + ";")
			continue
		}
		key := file + "\x00" + c.GOOS + "/" + c.GOARCH + "\x00" + strconv.FormatBool(c.Cgo) + "\x00" + strings.Join(named, ",")
		ok, known := memo[key]
		if !known {
			dir, name := splitPath(file)
			ctx := d.context(c)
			var err error
			if ok, err = ctx.MatchFile(dir, name); err != nil {
				b.WriteString("?" + strings.Join(named, ",") + ";")
				continue
			}
			memo[key] = ok
		}
		if ok {
			b.WriteString("1")
		} else {
			b.WriteString("0")
		}
	}
	return b.String()
}

// splitPath splits a file name into its directory and base name, as
// MatchFile takes them.
func splitPath(file string) (dir, name string) {
	i := strings.LastIndexAny(file, `/\`)
	return file[:i], file[i+1:]
}
