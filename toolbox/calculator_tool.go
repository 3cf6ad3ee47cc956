package toolbox

import (
	"context"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/toolreg/toolreg/tool"
)

// Calculator evaluates arithmetic expressions exactly as written.
type Calculator struct{}

// CalculatorArgs are the arguments the model sends.
type CalculatorArgs struct {
	// Arithmetic expression to evaluate, for example 2*(3+4)^2 or sqrt(2)/3 or round(19.99*1.19, 2).
	Expression string `json:"expression" jsonschema:"minLength=1,maxLength=1000"`
}

// Definition describes the tool.
func (Calculator) Definition() tool.Definition {
	return tool.Definition{
		ID:          "calculator",
		Description: "Evaluate an arithmetic expression and return the number. Supports + - * / % (modulo) ^ (power), parentheses, the constants pi and e, and the functions sqrt, abs, sin, cos, tan (radians), ln, log (base 10), exp, floor, ceil, round(x) or round(x, decimals), min and max. Use it for any arithmetic instead of computing in your head.",
		Timeout:     5 * time.Second,
	}
}

// Execute evaluates args.Expression and answers the result as a number,
// for example "4" or "0.3333333333333333".
func (Calculator) Execute(ctx context.Context, args CalculatorArgs) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	v, err := calcEval(args.Expression)
	if err != nil {
		if utf8.RuneCountInString(args.Expression) > 80 {
			return "", fmt.Errorf("cannot evaluate the expression: %w", err)
		}
		return "", fmt.Errorf("cannot evaluate %q: %w", args.Expression, err)
	}
	return calcFormat(v), nil
}
