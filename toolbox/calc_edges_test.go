package toolbox

import (
	"strings"
	"testing"
)

// TestCalcDepthCountsOpenParentheses evaluates 101 parenthesized terms one
// after another: only nesting counts towards the depth limit, so a closed
// parenthesis gives its level back.
func TestCalcDepthCountsOpenParentheses(t *testing.T) {
	for _, term := range []string{"(1)", "abs(1)"} {
		expr := strings.TrimSuffix(strings.Repeat(term+"+", calcMaxDepth+1), "+")
		v, err := calcEval(expr)
		if err != nil || v != calcMaxDepth+1 {
			t.Errorf("calcEval(%d × %s) = %v, %v; want %d", calcMaxDepth+1, term, v, err, calcMaxDepth+1)
		}
	}
}
