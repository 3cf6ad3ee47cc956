package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"runtime"
	"slices"
	"sync"
)

// formatChunk is about how many bytes of source formatSource formats at
// a time.
const formatChunk = 64 << 10

// chunkHeader is the package clause put before each piece of a file but
// the first, so that it is a file of its own to go/format; litHeader
// starts a piece of a long literal.
var (
	chunkHeader = []byte("package p\n\n")
	litHeader   = []byte("package p\n\nvar _ = x{")
)

// formatSource formats src, a whole Go file, with go/format, byte for byte
// as go/format.Source formats it whole, but in pieces of about size bytes,
// formatted side by side on every core. A registry of 1,000 tools is a
// file of some megabytes, with a table of 1,000 entries, that go/format
// takes about 0.4 s of CPU to format on this project's machine; in pieces
// it takes a tenth less, and a fraction of the time on several cores.
//
// The file is cut only between top-level declarations (or comments) with
// a blank line between them: there, gofmt always writes one blank line,
// and the formatting of a declaration depends on nothing before or after
// it but that. A piece other than the first is formatted after a package
// clause of its own, which is then removed. A declaration of one variable
// whose value is a long composite literal of literals, each over several
// lines and written one after the other ("{...},{...}"), as the table of
// entries is, is cut between its elements too: gofmt writes "}, {" there,
// and formats each element as it would alone in the list. A file that
// does not parse is formatted whole, for go/format's error.
func formatSource(src []byte, size int) ([]byte, error) {
	pieces := plan(src, size)
	if len(pieces) <= 1 {
		return formatWhole(src)
	}
	// The jobs: each piece, or each group of elements of a cut literal.
	type job struct {
		in     []byte
		prefix []byte // the formatted text to take from the start
		suffix []byte // and from the end
		out    []byte
		ok     bool
	}
	var jobs []*job
	groups := make([][]*job, len(pieces)) // the jobs of each piece
	for i, p := range pieces {
		header := chunkHeader
		if i == 0 {
			header = nil
		}
		if p.lit == nil {
			j := &job{in: append(slices.Clip(header), src[p.start:p.end]...), prefix: header}
			groups[i] = []*job{j}
			continue
		}
		g := p.lit.groups
		for k := range len(g) - 1 {
			last := k == len(g)-2
			from, to := g[k], g[k+1]-len(",") // the elements, without the comma after them
			if last {
				to = g[k+1]
			}
			j := &job{}
			if k == 0 {
				j.in = append(append(slices.Clip(header), src[p.start:from]...), src[from:to]...)
				j.prefix = header
			} else {
				j.in = append(slices.Clip(litHeader), src[from:to]...)
				j.prefix = litHeader
			}
			if last {
				j.in = append(j.in, src[to:p.end]...) // the literal's end and the white space after it
			} else {
				j.in = append(j.in, "}\n"...)
				j.suffix = []byte("}\n")
			}
			groups[i] = append(groups[i], j)
		}
	}
	for _, g := range groups {
		jobs = append(jobs, g...)
	}
	work := make(chan *job)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(jobs)) {
		wg.Go(func() {
			for j := range work {
				out, err := format.Source(j.in)
				if err != nil {
					continue
				}
				out, ok := bytes.CutPrefix(out, j.prefix)
				if ok {
					out, ok = bytes.CutSuffix(out, j.suffix)
				}
				j.out, j.ok = out, ok
			}
		})
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
	n := 0
	for _, j := range jobs {
		if !j.ok {
			return formatWhole(src)
		}
		n += len(j.out) + 2
	}
	out := make([]byte, 0, n)
	for i, g := range groups {
		if i > 0 {
			out = append(out, '\n')
		}
		for k, j := range g {
			if k > 0 {
				out = append(out, ", "...)
			}
			out = append(out, j.out...)
		}
	}
	return out, nil
}

// formatWhole formats src whole, failing as jennifer's Render does.
func formatWhole(src []byte) ([]byte, error) {
	out, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("Error %s while formatting source:\n%s", err, src)
	}
	return out, nil
}

// A piece is src[start:end], formatted alone; the first starts at 0, each
// other where the one before it ends.
type piece struct {
	start, end int
	lit        *litCut // set when the piece is a literal cut between elements
}

// A litCut is a declaration cut between the elements of its literal: the
// offsets at which the groups of elements start, and at which the last
// ends. Before the first is the start of the declaration; after the end,
// the literal's closing brace; between the groups, a comma.
type litCut struct {
	groups []int
}

// plan cuts src into pieces of at least size bytes each (the last may be
// shorter), each but the first starting at the start of a top-level
// declaration (or of its doc comment) or of a comment between
// declarations, after the imports, with only white space holding a blank
// line before it. A literal that cutLiteral can cut is a piece of its
// own, whatever its size. It returns no pieces when src does not parse.
func plan(src []byte, size int) []piece {
	if len(src) <= size {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	tf := fset.File(f.Package)
	if tf == nil || tf.Size() != len(src) {
		return nil
	}
	// The spans of the top-level items: declarations with their doc
	// comments, and the comments outside any declaration.
	type item struct {
		start, end int
		decl       ast.Decl
	}
	var items []item
	floor := tf.Offset(f.Name.End()) // nothing is cut before the imports end
	c := 0
	for _, d := range f.Decls {
		start := d.Pos()
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			if d.Tok == token.IMPORT {
				floor = tf.Offset(d.End())
			}
		case *ast.FuncDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		}
		for ; c < len(f.Comments) && f.Comments[c].Pos() < start; c++ {
			items = append(items, item{tf.Offset(f.Comments[c].Pos()), tf.Offset(f.Comments[c].End()), nil})
		}
		for ; c < len(f.Comments) && f.Comments[c].Pos() < d.End(); c++ { // inside d
		}
		items = append(items, item{tf.Offset(start), tf.Offset(d.End()), d})
	}
	for ; c < len(f.Comments); c++ {
		items = append(items, item{tf.Offset(f.Comments[c].Pos()), tf.Offset(f.Comments[c].End()), nil})
	}
	// canCut reports whether src can be cut before items[i].
	canCut := func(i int) bool {
		if i <= 0 || i >= len(items) {
			return i > 0
		}
		prev, next := items[i-1], items[i]
		if prev.end < floor || prev.end > next.start {
			return false
		}
		gap := src[prev.end:next.start]
		return len(bytes.Trim(gap, " \t\r\n")) == 0 && bytes.Count(gap, []byte("\n")) >= 2
	}
	var pieces []piece
	start := 0
	cut := func(at int) {
		if at > start {
			pieces = append(pieces, piece{start: start, end: at})
			start = at
		}
	}
	for i := 1; i < len(items); i++ {
		if !canCut(i) {
			continue
		}
		if lc := cutLiteral(src, tf, items[i].decl, size); lc != nil && canCut(i+1) {
			end := len(src)
			if i+1 < len(items) {
				end = items[i+1].start
			}
			cut(items[i].start)
			pieces = append(pieces, piece{start: start, end: end, lit: lc})
			start = end
			i++
			continue
		}
		if items[i].start-start >= size {
			cut(items[i].start)
		}
	}
	if start < len(src) {
		if n := len(pieces); n > 0 && pieces[n-1].lit == nil && len(src)-start < size/4 {
			pieces[n-1].end = len(src) // no small last piece
		} else {
			pieces = append(pieces, piece{start: start, end: len(src)})
		}
	}
	return pieces
}

// cutLiteral returns where to cut d, the declaration of one variable
// whose value is a composite literal of composite literals, into groups
// of elements of at least size bytes: when there are two groups or more,
// and the elements are written as jennifer writes the table of entries,
// "T{{...},{...}}", each over several lines. Otherwise it returns nil.
func cutLiteral(src []byte, tf *token.File, d ast.Decl, size int) *litCut {
	g, ok := d.(*ast.GenDecl)
	if !ok || g.Tok != token.VAR || g.Lparen.IsValid() || len(g.Specs) != 1 {
		return nil
	}
	s, ok := g.Specs[0].(*ast.ValueSpec)
	if !ok || len(s.Names) != 1 || len(s.Values) != 1 || s.Comment != nil {
		return nil
	}
	lit, ok := s.Values[0].(*ast.CompositeLit)
	if !ok || len(lit.Elts) < 2 || g.End() != lit.Rbrace+1 {
		return nil
	}
	off := tf.Offset
	if off(lit.Elts[0].Pos()) != off(lit.Lbrace)+1 || off(lit.Elts[len(lit.Elts)-1].End()) != off(lit.Rbrace) {
		return nil
	}
	lc := &litCut{}
	for k, e := range lit.Elts {
		if _, ok := e.(*ast.CompositeLit); !ok || !bytes.Contains(src[off(e.Pos()):off(e.End())], []byte("\n")) {
			return nil
		}
		if k > 0 && string(src[off(lit.Elts[k-1].End()):off(e.Pos())]) != "," {
			return nil
		}
		if k == 0 || off(e.Pos())-lc.groups[len(lc.groups)-1] >= size {
			lc.groups = append(lc.groups, off(e.Pos()))
		}
	}
	lc.groups = append(lc.groups, off(lit.Elts[len(lit.Elts)-1].End()))
	if len(lc.groups) < 3 {
		return nil
	}
	return lc
}
