package toolbox

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

// TestCalcParserNextStaysAtEnd reads past the end of the tokens: next
// answers the final calcEnd token again and again, and stays on it.
func TestCalcParserNextStaysAtEnd(t *testing.T) {
	p := calcParser{toks: calcLex("1")}
	var got []calcToken
	for range 4 {
		got = append(got, p.next())
	}
	got = append(got, p.peek())
	one := calcToken{kind: calcNumber, text: "1", num: 1, pos: 1}
	end := calcToken{kind: calcEnd, pos: 2}
	want := []calcToken{one, end, end, end, end}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(calcToken{})); diff != "" {
		t.Errorf("tokens read (-want +got):\n%s", diff)
	}
}
