package toolbox

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCalcLengthLimit evaluates expressions of 999, 1000 and 1001
// characters, counted as characters and not bytes: × is two bytes.
func TestCalcLengthLimit(t *testing.T) {
	for _, op := range []struct {
		sym       string
		below, at float64
	}{{"+", 500, 510}, {"×", 1, 11}} {
		at := "11" + strings.Repeat(op.sym+"1", (calcMaxLen-2)/2) // 1000 characters
		for _, tc := range []struct {
			expr string
			want float64
			err  string
		}{
			{at[1:], op.below, ""},
			{at, op.at, ""},
			{at + " ", 0, "the expression is 1001 characters long; at most 1000 are accepted"},
		} {
			v, err := calcEval(tc.expr)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Errorf("%q, %d characters: %v, %v; want error %q", op.sym, len([]rune(tc.expr)), v, err, tc.err)
				}
				continue
			}
			if err != nil || v != tc.want {
				t.Errorf("%q, %d characters: %v, %v; want %v", op.sym, len([]rune(tc.expr)), v, err, tc.want)
			}
		}
	}
}

// TestCalcCutShort evaluates every prefix of a few expressions: each
// either has a value or fails with a message, and never panics; the
// prefixes ending in an operator are missing their operand exactly there.
func TestCalcCutShort(t *testing.T) {
	for _, full := range []string{"2*(3+4)^2", "max(1, -2, 3)", "round(2.345, 2)", "-sqrt(16)/2%3", "1e5**2"} {
		for n := range len(full) + 1 {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("calcEval(%q) panicked: %v", full[:n], r)
					}
				}()
				calcEval(full[:n])
			}()
		}
	}
	for _, expr := range []string{"2*", "2+", "2-", "2/", "2%", "2^", "2**", "-", "+", "(", "max(", "max(1,", "2*(3+"} {
		_, err := calcEval(expr)
		want := "the expression ends too early: a number, a name such as pi or sqrt, or '(' is missing at position " + strconv.Itoa(len([]rune(expr))+1)
		if err == nil || err.Error() != want {
			t.Errorf("calcEval(%q) error %v, want %q", expr, err, want)
		}
	}
}

// TestCalcDomains evaluates each function at the edge of its domain, just
// inside and just outside, and each argument count at, below and past the
// function's arity.
func TestCalcDomains(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want float64
		err  string
	}{
		{expr: "sqrt(0)", want: 0},
		{expr: "sqrt(1e-300)", want: 1e-150},
		{expr: "sqrt(-1e-300)", err: "sqrt at position 1 needs a number of at least 0, got -1e-300"},
		{expr: "ln(1)", want: 0},
		{expr: "ln(1e-300)", want: math.Log(1e-300)},
		{expr: "ln(0)", err: "ln at position 1 needs a number greater than 0, got 0"},
		{expr: "log(1000)", want: 3},
		{expr: "log(-1e-300)", err: "log at position 1 needs a number greater than 0, got -1e-300"},
		{expr: "exp(709)", want: math.Exp(709)},
		{expr: "exp(710)", err: "exp at position 1 has no finite result for 710"},
		{expr: "round(2.5)", want: 3},
		{expr: "round(-2.5)", want: -3},
		{expr: "round(1.25, 1)", want: 1.3},
		{expr: "round(1234.5, -2)", want: 1200},
		{expr: "round(1.5, 15)", want: 1.5},
		{expr: "round(1500, -15)", want: 0},
		{expr: "round(1e308, 1)", want: 1e308},
		{expr: "round(1, 16)", err: "round at position 1: its second argument is the number of decimals, a whole number from -15 to 15; got 16"},
		{expr: "round(1, -16)", err: "round at position 1: its second argument is the number of decimals, a whole number from -15 to 15; got -16"},
		{expr: "round(1, 0.5)", err: "round at position 1: its second argument is the number of decimals, a whole number from -15 to 15; got 0.5"},
		{expr: "round()", err: "round at position 1 takes at least 1 argument, got 0"},
		{expr: "round(1, 2, 3)", err: "round at position 1 takes at most 2 arguments, got 3"},
		{expr: "sqrt()", err: "sqrt at position 1 takes 1 argument, got 0"},
		{expr: "sqrt(4, 9)", err: "sqrt at position 1 takes 1 argument, got 2"},
		{expr: "min()", err: "min at position 1 takes at least 1 argument, got 0"},
		{expr: "min(3)", want: 3},
		{expr: "min(3, 1, 2)", want: 1},
		{expr: "max(1, 3, 2)", want: 3},
		{expr: "max(-1)", want: -1},
		{expr: "sin(pi)", want: 0},
		{expr: "sin(pi/2)", want: 1},
		{expr: "cos(pi/2)", want: 0},
		{expr: "tan(pi)", want: 0},
		{expr: "sin(1e-300)", want: 1e-300},
		{expr: "cos(0)", want: 1},
		{expr: "abs(-2)", want: 2},
		{expr: "floor(-1.5)", want: -2},
		{expr: "ceil(-1.5)", want: -1},
		{expr: "10^22", want: 1e22},
		{expr: "10^23", want: 1e23},
		{expr: "10^-7", want: 1e-7},
		{expr: "10^-400", want: 0},
		{expr: "10^400", err: "the result of '^' at position 3 is too large: numbers must stay within about ±1.8e308"},
		{expr: "10^0.5", want: math.Sqrt(10)},
		{expr: "2^10", want: 1024},
		{expr: "2^-1", want: 0.5},
		{expr: "0^0", want: 1},
		{expr: "-2^2", want: -4},
		{expr: "2^3^2", want: 512},
		{expr: "7%3", want: 1},
		{expr: "-7%3", want: -1},
		{expr: "7/2", want: 3.5},
		{expr: "2-3-4", want: -5},
		{expr: "2*3+4*5", want: 26},
		{expr: "+-+2", want: -2},
		{expr: "pi", want: math.Pi},
		{expr: "E", want: math.E},
		{expr: "(((1)))", want: 1},
		{expr: ".5", want: 0.5},
		{expr: "5.", want: 5},
		{expr: "1e3", want: 1000},
		{expr: "1E-3", want: 0.001},
		{expr: "2−1", want: 1},
		{expr: "6÷4", want: 1.5},
		{expr: "1e308+1e308", err: "the result of '+' at position 6 is too large: numbers must stay within about ±1.8e308"},
		{expr: "1e308*10", err: "the result of '*' at position 6 is too large: numbers must stay within about ±1.8e308"},
		{expr: "1/0", err: "division by zero at position 2"},
		{expr: "1%0", err: "modulo by zero at position 2: the right side of % must not be 0"},
		{expr: "0^-1", err: "0 raised to a negative power at position 2 is a division by zero"},
		{expr: "(-8)^(1/3)", err: "'^' at position 5 has no real result: a negative number cannot be raised to a fractional power"},
	} {
		v, err := calcEval(tc.expr)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("calcEval(%q) = %v, %v; want error %q", tc.expr, v, err, tc.err)
			}
			continue
		}
		if err != nil || v != tc.want {
			t.Errorf("calcEval(%q) = %v, %v; want %v", tc.expr, v, err, tc.want)
		}
	}
}

// TestCalculatorQuotesUpTo80 quotes an expression of 80 characters in its
// error, and not one of 81.
func TestCalculatorQuotesUpTo80(t *testing.T) {
	for _, n := range []int{79, 80, 81} {
		expr := strings.Repeat("é", n-2) + "1/" // not a valid name: é is a letter
		_, err := Calculator{}.Execute(context.Background(), CalculatorArgs{Expression: expr})
		quoted := strings.HasPrefix(err.Error(), `cannot evaluate "`)
		if quoted != (n <= 80) {
			t.Errorf("%d characters: %v", n, err)
		}
	}
}

// TestDiskUsageOfExact computes the answer from fake statistics at the
// edges of the arithmetic: free equal to, below and past total, avail
// equal to and past free, and values that round at the half.
func TestDiskUsageOfExact(t *testing.T) {
	const gb = 1_000_000_000
	for _, tc := range []struct {
		st   diskStats
		want DiskUsageResult
	}{
		{diskStats{Total: 10 * gb, Free: 10 * gb, Avail: 10 * gb}, DiskUsageResult{MountPoint: "/m", TotalGB: 10, FreeGB: 10}},
		{diskStats{Total: 10 * gb, Free: 10*gb - 1, Avail: 10*gb - 1}, DiskUsageResult{MountPoint: "/m", TotalGB: 10, FreeGB: 10, UsedPercent: 0}},
		{diskStats{Total: 10 * gb, Free: 10*gb + 1, Avail: 10*gb + 1}, DiskUsageResult{MountPoint: "/m", TotalGB: 10, FreeGB: 10}},
		{diskStats{Total: 10 * gb, Free: 4 * gb, Avail: 4*gb + 1}, DiskUsageResult{MountPoint: "/m", TotalGB: 10, UsedGB: 6, FreeGB: 4, UsedPercent: 60}},
		{diskStats{Total: 10 * gb, Free: 4 * gb, Avail: 3 * gb}, DiskUsageResult{MountPoint: "/m", TotalGB: 10, UsedGB: 6, FreeGB: 3, UsedPercent: 66.7}},
		{diskStats{Total: 250_000_000, Free: 150_000_000, Avail: 150_000_000}, DiskUsageResult{MountPoint: "/m", TotalGB: 0.3, UsedGB: 0.1, FreeGB: 0.2, UsedPercent: 40}},
		{diskStats{Total: 1, Free: 0, Avail: 0}, DiskUsageResult{MountPoint: "/m", UsedPercent: 100}},
		{diskStats{Total: 3 * 1 << 60, Free: 1 << 60, Avail: 1 << 60}, DiskUsageResult{MountPoint: "/m", TotalGB: 3458764513.8, UsedGB: 2305843009.2, FreeGB: 1152921504.6, UsedPercent: 66.7}},
	} {
		if diff := cmp.Diff(tc.want, diskUsageOf("/m", tc.st)); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.st, diff)
		}
	}
}

// TestWebsearchFormatCutsAtTheLimit makes the last result end exactly at
// the answer's limit (with the 100 characters kept for a note), one
// character before it and one past it: only past it is the result cut.
func TestWebsearchFormatCutsAtTheLimit(t *testing.T) {
	header := `Web results for "q" (S):` + "\n"
	entry := func(i int, url string) string {
		return fmt.Sprintf("%d. T\n   %s\n   %s\n", i, url, strings.Repeat("s", 290))
	}
	url := func(n int) string { return "https://e.x/" + strings.Repeat("a", n-len("https://e.x/")) }
	var ans websearchAnswer
	size := len(header)
	for i := 1; i <= 4; i++ {
		ans.Results = append(ans.Results, websearchResult{Title: "T", URL: url(480), Snippet: strings.Repeat("s", 290)})
		size += len(entry(i, url(480)))
	}
	room := websearchMaxOutput - 100 - size // for the fifth result
	fixed := len(entry(5, ""))              // its length without the URL
	for _, tc := range []struct {
		urlLen int
		shown  int
	}{
		{room - fixed - 1, 5}, {room - fixed, 5}, {room - fixed + 1, 4},
	} {
		a := ans
		a.Results = append(append([]websearchResult(nil), ans.Results...), websearchResult{Title: "T", URL: url(tc.urlLen), Snippet: strings.Repeat("s", 290)})
		got := websearchFormat("q", "S", a, 10)
		want := header
		for i, r := range a.Results[:tc.shown] {
			want += entry(i+1, r.URL)
		}
		if tc.shown < 5 {
			want += "[Cut: 4 of 5 results shown to keep this answer under 4000 characters.]\n"
		}
		if diff := cmp.Diff(strings.TrimRight(want, "\n"), got); diff != "" {
			t.Errorf("fifth result of %d characters, room for %d (-want +got):\n%s", fixed+tc.urlLen, room, diff)
		}
	}
}
