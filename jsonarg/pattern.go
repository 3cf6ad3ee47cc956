package jsonarg

import (
	"regexp"
	"sync"
)

// Pattern is a regular expression from a jsonschema tag, compiled on first
// use so that a generated registry does no work at init. toolgen checks at
// generate time that Expr compiles.
type Pattern struct {
	Expr string
	once sync.Once
	re   *regexp.Regexp
	err  error
}

// MatchString reports whether s matches the pattern; an expression that
// does not compile matches nothing.
func (p *Pattern) MatchString(s string) bool {
	p.once.Do(func() { p.re, p.err = regexp.Compile(p.Expr) })
	return p.err == nil && p.re.MatchString(s)
}
