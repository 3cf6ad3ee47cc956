package toolbox

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCalculatorExecute(t *testing.T) {
	tests := []struct {
		expr string
		want string
	}{
		// Numbers and formatting.
		{"2+2", "4"},
		{"42", "42"},
		{"1/3", "0.3333333333333333"},
		{"0.1+0.2", "0.3"},
		{"1-0.9", "0.1"},
		{".5 + 5.", "5.5"},
		{"2e3", "2000"},
		{"2E+3", "2000"},
		{"1.5e-3", "0.0015"},
		{"1e-400", "0"},
		{"123456789*1000", "123456789000"},
		{"2^53", "9007199254740992"},
		{"2^64", "1.8446744073709552e+19"},
		{"10^-7", "1e-7"},
		{"-0", "0"},
		{"0*-1", "0"},
		// Precedence and associativity.
		{"2+3*4", "14"},
		{"(2+3)*4", "20"},
		{"10-4-3", "3"},
		{"100/10/5", "2"},
		{"2*3^2", "18"},
		{"-2^2", "-4"},
		{"(-2)^2", "4"},
		{"2^-1", "0.5"},
		{"-2^-2", "-0.25"},
		{"2^3^2", "512"},
		{"(2^3)^2", "64"},
		{"2^-3^2", "0.001953125"},
		{"--3", "3"},
		{"+3", "3"},
		{"-(-(-3))", "-3"},
		{"3--3", "6"},
		{"3+-3", "0"},
		{"3*-3", "-9"},
		{"10 % 3", "1"},
		{"10 % 3 * 2", "2"},
		{"2 + 10 % 4", "4"},
		{"-7 % 3", "-1"},
		{"7 % -3", "1"},
		{"5.5 % 2", "1.5"},
		{"0^0", "1"},
		// Spacing and other ways of writing operators.
		{"  1 +\t2\n* 3 ", "7"},
		{"2 − 3", "-1"},
		{"−2^2", "-4"},
		{"3 × 4 ÷ 2", "6"},
		{"2**10", "1024"},
		{"2**3**2", "512"},
		// Constants.
		{"pi", "3.141592653589793"},
		{"π", "3.141592653589793"},
		{"PI*2", "6.283185307179586"},
		{"e", "2.718281828459045"},
		{"E^2", "7.38905609893065"},
		{"2*pi", "6.283185307179586"},
		// Functions.
		{"sqrt(16)", "4"},
		{"sqrt(2)", "1.4142135623730951"},
		{"SQRT(9)", "3"},
		{"sqrt(2)^2", "2"},
		{"abs(-3.5)", "3.5"},
		{"sin(0)", "0"},
		{"sin(pi)", "0"},
		{"sin(pi/2)", "1"},
		{"sin(pi/6)", "0.5"},
		{"cos(pi)", "-1"},
		{"cos(pi/2)", "0"},
		{"tan(pi/4)", "1"},
		{"tan(0)", "0"},
		{"sin(1e-16)", "1e-16"},
		{"ln(e)", "1"},
		{"ln(1)", "0"},
		{"log(1000)", "3"},
		{"log(0.01)", "-2"},
		{"exp(0)", "1"},
		{"exp(1)", "2.718281828459045"},
		{"floor(2.7)", "2"},
		{"floor(-2.5)", "-3"},
		{"ceil(2.1)", "3"},
		{"ceil(-2.5)", "-2"},
		{"round(2.5)", "3"},
		{"round(-2.5)", "-3"},
		{"round(2.4999)", "2"},
		{"round(3.14159, 2)", "3.14"},
		{"round(19.99*1.19, 2)", "23.79"},
		{"round(1.005, 2)", "1"},
		{"round(1234.5, -2)", "1200"},
		{"round(1e300, 15)", "1e+300"},
		{"min(3)", "3"},
		{"min(3, -1, 2)", "-1"},
		{"max(1, 2, 3)", "3"},
		{"max(-1, -2)", "-1"},
		{"max(1, min(5, 4), 2)", "4"},
		{"sqrt(sqrt(16))", "2"},
		{"-sqrt(4)^2", "-4"},
		{"abs(-2)^2", "4"},
		{"2^abs(-3)", "8"},
		{"floor(7/2) + ceil(7/2)", "7"},
		// Large but finite.
		{"1e308", "1e+308"},
		{"10^308", "1e+308"},
		{"10^-308", "1e-308"},
		{"10^-320", "1e-320"},
		{"10^-400", "0"},
		{"10^2.5", "316.227766016838"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			got, err := Calculator{}.Execute(context.Background(), CalculatorArgs{Expression: tt.expr})
			if err != nil {
				t.Fatalf("Execute(%q) error: %v", tt.expr, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Execute(%q) (-want +got):\n%s", tt.expr, diff)
			}
		})
	}
}

func TestCalculatorErrors(t *testing.T) {
	tests := []struct {
		expr string
		// contains are substrings the error must have, for the model to
		// find what was wrong and where.
		contains []string
	}{
		{"", []string{"empty", "2*(3+4)"}},
		{"   \t\n", []string{"empty"}},
		{strings.Repeat("1+", 500) + "1", []string{"1001 characters", "at most 1000"}},
		{strings.Repeat("(", 101) + "1" + strings.Repeat(")", 101), []string{"deeper than 100", "position 101"}},
		{strings.Repeat("sqrt(", 101) + "1" + strings.Repeat(")", 101), []string{"deeper than 100", "position 505"}},
		// Code is not evaluated, and unknown names are named.
		{"os.Exit(1)", []string{`unknown name "os.Exit" at position 1`, "pi", "sqrt"}},
		{"1 + x", []string{`unknown name "x" at position 5`}},
		{"import os", []string{`unknown name "import" at position 1`}},
		{"__import__('os')", []string{`unknown name "__import__" at position 1`}},
		{"2 + exec(1)", []string{`unknown name "exec" at position 5`}},
		{"system(\"ls\")", []string{`unknown name "system"`}},
		{"2 + 3; rm", []string{`';'`, "position 6"}},
		{"a=1", []string{`unknown name "a" at position 1`}},
		{"sqrt", []string{"sqrt at position 1 is a function", "sqrt(2)"}},
		{"sqrt 4", []string{"sqrt at position 1 is a function"}},
		{"pi(2)", []string{"'('", "position 3", "operator is missing"}},
		// Arithmetic errors.
		{"1/0", []string{"division by zero at position 2"}},
		{"1/(2-2)", []string{"division by zero at position 2"}},
		{"5 % 0", []string{"modulo by zero at position 3"}},
		{"0^-1", []string{"0 raised to a negative power at position 2"}},
		{"(-8)^(1/3)", []string{"no real result", "position 5"}},
		{"sqrt(-1)", []string{"sqrt at position 1", "at least 0", "-1"}},
		{"ln(0)", []string{"ln at position 1", "greater than 0"}},
		{"log(-10)", []string{"log at position 1", "greater than 0", "-10"}},
		{"exp(710)", []string{"exp at position 1", "no finite result"}},
		{"10^400", []string{"too large", "position 3"}},
		{"1e308*10", []string{"too large", "'*' at position 6"}},
		{"-1e308-1e308", []string{"too large", "'-' at position 7"}},
		{"1e400", []string{"number 1e400 at position 1 is too large"}},
		{"1/10^400", []string{"too large", "'^' at position 5"}},
		{"1e308/1e-10", []string{"too large", "'/' at position 6"}},
		{"10^309", []string{"too large", "'^' at position 3"}},
		{"round(1.5, 0.5)", []string{"round at position 1", "whole number"}},
		{"round(1.5, 16)", []string{"whole number from -15 to 15"}},
		// Syntax errors.
		{"(1+2", []string{"unbalanced", "'(' at position 1 is never closed"}},
		{"((1)", []string{"unbalanced", "'(' at position 1"}},
		{"1+2)", []string{"unbalanced", "')' at position 4"}},
		{")(", []string{"position 1", "found ')'"}},
		{"()", []string{"position 2", "found ')'"}},
		{"2+", []string{"ends too early", "position 3"}},
		{"2 + * 3", []string{"position 5", "found '*'"}},
		{"*2", []string{"position 1", "found '*'"}},
		{"2 3", []string{"number 3 at position 3", "operator is missing"}},
		{"2pi", []string{`"pi" at position 2`, "operator is missing", "2*pi"}},
		{"2e", []string{`"e" at position 2`, "operator is missing"}},
		{"2(3)", []string{"'(' at position 2", "operator is missing"}},
		{"(1)(2)", []string{"'(' at position 4", "operator is missing"}},
		{"1.2.3", []string{"number .3 at position 4"}},
		{"1,000", []string{"',' at position 2", "thousands separators"}},
		{"max()", []string{"max at position 1 takes at least 1 argument, got 0"}},
		{"max(1,)", []string{"position 7", "found ')'"}},
		{"max(1 2)", []string{"at position 7", "found number 2", "close the '(' at position 4"}},
		{"sqrt()", []string{"sqrt at position 1 takes 1 argument, got 0"}},
		{"sqrt(1, 2)", []string{"sqrt at position 1 takes 1 argument, got 2"}},
		{"round(1, 2, 3)", []string{"round at position 1 takes at most 2 arguments, got 3"}},
		{"$5", []string{"unexpected character '$' at position 1"}},
		{"5!", []string{"unexpected character '!' at position 2"}},
		{"2 = 2", []string{"unexpected character '=' at position 3"}},
		{"2 + 2 =", []string{"unexpected character '=' at position 7"}},
		{"(1 $ 2)", []string{"'$' at position 4"}},
		{"(1", []string{"never closed"}},
		{"50%", []string{"ends too early", "position 4"}},
		{"1 + 2 # comment", []string{"'#' at position 7"}},
		{"0x10", []string{`"x10" at position 2`}},
		{"1_000", []string{`"_000" at position 2`}},
		{"NaN", []string{`unknown name "NaN"`}},
		{"inf", []string{`unknown name "inf"`}},
		{"√4", []string{"'√' at position 1"}},
		{"２+２", []string{"'２' at position 1"}},
	}
	for _, tt := range tests {
		name := tt.expr
		if len(name) > 30 {
			name = name[:30] + "…"
		}
		t.Run(name, func(t *testing.T) {
			got, err := Calculator{}.Execute(context.Background(), CalculatorArgs{Expression: tt.expr})
			if err == nil {
				t.Fatalf("Execute(%q) = %q, want an error", tt.expr, got)
			}
			for _, s := range tt.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("Execute(%q) error %q does not contain %q", tt.expr, err, s)
				}
			}
		})
	}
}

func TestCalculatorErrorQuotesShortExpressions(t *testing.T) {
	_, err := Calculator{}.Execute(context.Background(), CalculatorArgs{Expression: "1/0"})
	want := `cannot evaluate "1/0": division by zero at position 2`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}

func TestCalculatorCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Calculator{}).Execute(ctx, CalculatorArgs{Expression: "1+1"}); err == nil {
		t.Error("Execute with a cancelled context succeeded, want an error")
	}
}

// FuzzCalculator checks that no input makes the calculator panic, and that
// every answer is a finite number.
func FuzzCalculator(f *testing.F) {
	for _, s := range []string{
		"2+2", "-2^2", "2^3^2", "sqrt(2)/3", "round(19.99*1.19, 2)", "max(1, min(2, 3))",
		"os.Exit(1)", "(((1)))", "1/0", "5 % 0", "1e308*10", "((", "))", "2pi", ".5e-3", "−1 × 2 ÷ 3",
		"sin(pi)", "abs(", "max(,)", "1e", "1e+", "π**π", "\xff", "", strings.Repeat("(", 150),
		strings.Repeat("-", 1000), strings.Repeat("2^", 300) + "2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		got, err := Calculator{}.Execute(context.Background(), CalculatorArgs{Expression: expr})
		if err != nil {
			if got != "" {
				t.Errorf("Execute(%q) = %q with error %v", expr, got, err)
			}
			return
		}
		v, perr := strconv.ParseFloat(got, 64)
		if perr != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("Execute(%q) = %q, not a finite number", expr, got)
		}
	})
}
