package toolbox

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCalcFormat(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{4, "4"},
		{-4, "-4"},
		{0.5, "0.5"},
		{1.0 / 3, "0.3333333333333333"},
		{2.0 / 3, "0.6666666666666666"},
		{1.0 / 7, "0.14285714285714285"},
		{0.1 + 0.2, "0.3"},
		{1 - 0.9, "0.1"},
		{1.1 * 1.1, "1.21"},
		{100 * 1.1, "110"},
		{math.Sqrt2 * math.Sqrt2, "2"},
		{123456789000, "123456789000"},
		{1 << 53, "9007199254740992"},
		{-(1 << 53), "-9007199254740992"},
		{1 << 64, "1.8446744073709552e+19"},
		{1e21, "1e+21"},
		{1e300, "1e+300"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{0.000001, "0.000001"},
		{0.0000001234, "1.234e-7"},
		{-1e-7, "-1e-7"},
		{5e-324, "5e-324"},
		{1e-100, "1e-100"},
		{333333333333333.3, "333333333333333.3"},
		{math.Pi, "3.141592653589793"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, calcFormat(tt.v)); diff != "" {
			t.Errorf("calcFormat(%v) (-want +got):\n%s", tt.v, diff)
		}
	}
}

func TestCalcLex(t *testing.T) {
	type tok struct {
		Kind calcKind
		Text string
		Pos  int
	}
	got := []tok{}
	for _, t := range calcLex(" 2.5e-3*π − os.Exit(1) ** .5, 2e ×÷") {
		got = append(got, tok{t.kind, t.text, t.pos})
	}
	want := []tok{
		{calcNumber, "2.5e-3", 2},
		{calcOp, "*", 8},
		{calcName, "π", 9},
		{calcOp, "-", 11},
		{calcName, "os.Exit", 13},
		{calcOp, "(", 20},
		{calcNumber, "1", 21},
		{calcOp, ")", 22},
		{calcOp, "^", 24},
		{calcNumber, ".5", 27},
		{calcOp, ",", 29},
		{calcNumber, "2", 31},
		{calcName, "e", 32},
		{calcOp, "*", 34},
		{calcOp, "/", 35},
		{calcEnd, "", 36},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calcLex (-want +got):\n%s", diff)
	}
}

func TestCalcEvalLimits(t *testing.T) {
	// Exactly at the limits is fine.
	atLen := "11" + strings.Repeat("+1", (calcMaxLen-2)/2)
	if n := len(atLen); n != calcMaxLen {
		t.Fatalf("test expression has %d characters, want %d", n, calcMaxLen)
	}
	if v, err := calcEval(atLen); err != nil || v != 11+float64(calcMaxLen-2)/2 {
		t.Errorf("calcEval of %d characters = %v, %v", len(atLen), v, err)
	}
	atDepth := strings.Repeat("(", calcMaxDepth) + "7" + strings.Repeat(")", calcMaxDepth)
	if v, err := calcEval(atDepth); err != nil || v != 7 {
		t.Errorf("calcEval at depth %d = %v, %v", calcMaxDepth, v, err)
	}
	fnDepth := strings.Repeat("abs(", calcMaxDepth) + "-7" + strings.Repeat(")", calcMaxDepth)
	if v, err := calcEval(fnDepth); err != nil || v != 7 {
		t.Errorf("calcEval of %d nested calls = %v, %v", calcMaxDepth, v, err)
	}
	// Long chains of unary minus and powers stay within the length limit
	// and do not need a depth limit of their own.
	if v, err := calcEval(strings.Repeat("-", 998) + "1"); err != nil || v != 1 {
		t.Errorf("calcEval of 998 minus signs = %v, %v", v, err)
	}
	if v, err := calcEval(strings.Repeat("1^", 499) + "1"); err != nil || v != 1 {
		t.Errorf("calcEval of 499 powers = %v, %v", v, err)
	}
}
