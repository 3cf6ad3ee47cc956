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
// the first, so that it is a file of its own to go/format.
var chunkHeader = []byte("package p\n\n")

// formatSource formats src, a whole Go file, with go/format, byte for byte
// as go/format.Source formats it whole, but in pieces of about size bytes,
// formatted side by side. go/printer takes more than linear time in the
// size of a file (a registry of 1,000 tools is a file of some megabytes,
// which it formats in twice the time of the same file in pieces), and the
// pieces use every core.
//
// The file is cut only between top-level declarations (or comments) with
// a blank line between them: there, gofmt always writes one blank line,
// and the formatting of a declaration depends on nothing before or after
// it but that. A piece other than the first is formatted after a package
// clause of its own, which is then removed. A file that does not parse is
// formatted whole, for go/format's error.
func formatSource(src []byte, size int) ([]byte, error) {
	cuts := cutPoints(src, size)
	if len(cuts) == 0 {
		return formatWhole(src)
	}
	bounds := append(append([]int{0}, cuts...), len(src))
	outs := make([][]byte, len(bounds)-1)
	failed := make([]bool, len(outs))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(outs)) {
		wg.Go(func() {
			for i := range work {
				piece := src[bounds[i]:bounds[i+1]]
				if i > 0 {
					piece = append(slices.Clip(chunkHeader), piece...)
				}
				out, err := format.Source(piece)
				if i > 0 && err == nil {
					var ok bool
					out, ok = bytes.CutPrefix(out, chunkHeader)
					failed[i] = !ok
				}
				outs[i], failed[i] = out, failed[i] || err != nil
			}
		})
	}
	for i := range outs {
		work <- i
	}
	close(work)
	wg.Wait()
	if slices.Contains(failed, true) {
		return formatWhole(src)
	}
	n := len(outs) - 1 // the blank lines between the pieces
	for _, o := range outs {
		n += len(o)
	}
	out := make([]byte, 0, n)
	for i, o := range outs {
		if i > 0 {
			out = append(out, '\n')
		}
		out = append(out, o...)
	}
	return out, nil
}

// formatWhole formats src whole, failing as jennifer's Render does.
func formatWhole(src []byte) ([]byte, error) {
	out, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("Error %s while formatting source:\n%s", err, src) //lint:ignore ST1005 jennifer's message, kept
	}
	return out, nil
}

// cutPoints returns the offsets in src, sorted, at which it can be cut into
// pieces of at least size bytes each (the last may be shorter) that
// formatSource formats alone: the start of a top-level declaration (or of
// its doc comment) or of a comment between declarations, after the
// imports, with only white space holding a blank line before it. It
// returns none when src does not parse.
func cutPoints(src []byte, size int) []int {
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
	type span struct{ start, end int }
	var items []span
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
			items = append(items, span{tf.Offset(f.Comments[c].Pos()), tf.Offset(f.Comments[c].End())})
		}
		for ; c < len(f.Comments) && f.Comments[c].Pos() < d.End(); c++ { // inside d
		}
		items = append(items, span{tf.Offset(start), tf.Offset(d.End())})
	}
	for ; c < len(f.Comments); c++ {
		items = append(items, span{tf.Offset(f.Comments[c].Pos()), tf.Offset(f.Comments[c].End())})
	}
	var cuts []int
	last := 0
	for i := 1; i < len(items); i++ {
		prev, next := items[i-1], items[i]
		if prev.end < floor || next.start-last < size || prev.end > next.start {
			continue
		}
		gap := src[prev.end:next.start]
		if len(bytes.Trim(gap, " \t\r\n")) == 0 && bytes.Count(gap, []byte("\n")) >= 2 {
			cuts = append(cuts, next.start)
			last = next.start
		}
	}
	if len(cuts) > 0 && len(src)-cuts[len(cuts)-1] < size/4 {
		cuts = cuts[:len(cuts)-1] // no small last piece
	}
	return cuts
}
