package toolcheck

import (
	"go/constant"
	"reflect"
)

// maxConstString bounds the strings a Definition may hold (ID, Name,
// Description), in bytes. toolcheck reads them; past it the field is a
// warning, not read.
const maxConstString = 1 << 16

// stringFits reports whether the string constant v holds at most limit
// bytes, without building the string. go/constant keeps a sum of strings
// as a tree of its parts and joins them only when asked for the value,
// so a constant doubled in each of n lines (const d1 = d0 + d0; const
// d2 = d1 + d1; …) takes n lines of source and 2ⁿ bytes of memory
// once read: constant.StringVal of a 40-line one ran toolgen out of
// memory. The parts are shared, so the walk counts each once.
//
// The walk reads go/constant's representation (a *stringVal with a
// string s, or parts l and r); on a release that changed it, the
// length is not known and the constant is taken to fit, as before this
// check (TestStringFitsKnowsConstant fails there).
func stringFits(v constant.Value, limit int) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return true
	}
	t := rv.Elem().Type()
	if f, ok := t.FieldByName("s"); !ok || f.Type.Kind() != reflect.String {
		return true
	}
	for _, name := range []string{"l", "r"} {
		if f, ok := t.FieldByName(name); !ok || f.Type != rv.Type() {
			return true
		}
	}
	memo := map[uintptr]int{}
	var size func(p reflect.Value) int
	size = func(p reflect.Value) int {
		if p.IsNil() {
			return 0
		}
		if n, ok := memo[p.Pointer()]; ok {
			return n
		}
		e := p.Elem()
		n := e.FieldByName("s").Len()
		if l := e.FieldByName("l"); !l.IsNil() {
			n = min(limit+1, size(l)+size(e.FieldByName("r")))
		}
		memo[p.Pointer()] = n
		return n
	}
	return size(rv) <= limit
}
