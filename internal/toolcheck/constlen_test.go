package toolcheck

import (
	"go/constant"
	"go/token"
	"testing"
)

// TestStringFitsKnowsConstant checks stringFits against go/constant's
// representation of strings: a sum of parts, shared, doubled 60 times
// (2⁶⁰ bytes, never built), and sums at and past the limit. It fails on
// a Go release whose go/constant keeps strings another way, where
// stringFits would take every constant to fit.
func TestStringFitsKnowsConstant(t *testing.T) {
	d := constant.MakeString("0123456789abcdef")
	for range 60 {
		d = constant.BinaryOp(d, token.ADD, d)
	}
	if stringFits(d, maxConstString) {
		t.Errorf("a constant of 2^64 bytes fits in %d", maxConstString)
	}
	sum := constant.MakeString("")
	for range 4 {
		sum = constant.BinaryOp(sum, token.ADD, constant.MakeString("abcd"))
	}
	for _, tc := range []struct {
		v     constant.Value
		limit int
		want  bool
	}{
		{constant.MakeString(""), 0, true},
		{constant.MakeString("abc"), 3, true},
		{constant.MakeString("abcd"), 3, false},
		{sum, 16, true},
		{sum, 15, false},
	} {
		if got := stringFits(tc.v, tc.limit); got != tc.want {
			t.Errorf("stringFits(%s, %d) = %v, want %v", tc.v, tc.limit, got, tc.want)
		}
	}
	if got := constant.StringVal(sum); got != "abcdabcdabcdabcd" {
		t.Errorf("the sum is %q after the walk", got)
	}
}
