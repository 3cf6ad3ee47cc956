package toolbox

// The expression evaluator of the calculator tool: a lexer and a
// recursive-descent parser that computes as it parses. It never runs code:
// anything that is not a number, an operator, or one of a fixed set of
// names is an error.
//
// Grammar, loosest binding first:
//
//	expr    = term { ("+" | "-") term }
//	term    = unary { ("*" | "/" | "%") unary }
//	unary   = ("-" | "+") unary | power
//	power   = primary [ "^" unary ]          (right-associative: 2^3^2 = 2^9)
//	primary = number | constant | function "(" expr { "," expr } ")" | "(" expr ")"
//
// so -2^2 is -(2^2) = -4, as in mathematics, and 2^-1 is 0.5.

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	// calcMaxLen is the longest expression accepted, in characters.
	calcMaxLen = 1000
	// calcMaxDepth is the deepest nesting of parentheses accepted.
	calcMaxDepth = 100
	// calcNames lists the names an expression may use, for error messages.
	calcNames = "the constants pi and e, and the functions abs, ceil, cos, exp, floor, ln, log, max, min, round, sin, sqrt, tan"
	// calcOperandHint says what may stand where an operand is expected.
	calcOperandHint = "a number, a name such as pi or sqrt, or '('"
)

// calcKind is the kind of a token.
type calcKind int

const (
	calcEnd    calcKind = iota // the end of the input
	calcNumber                 // a number literal
	calcName                   // a name: a constant, a function or an unknown name
	calcOp                     // one of + - * / % ^ ( ) ,
	calcBad                    // something that cannot be read; text is the message
)

// calcToken is one token of an expression.
type calcToken struct {
	kind calcKind
	// text is the source text of a number or a name, the operator (with
	// ×, ÷, − and ** already read as *, /, - and ^), or, for calcBad, the
	// error message.
	text string
	num  float64
	// pos is the position of the token's first character, counted from 1.
	pos int
}

// describe names the token for an error message.
func (t calcToken) describe() string {
	switch t.kind {
	case calcEnd:
		return "the end of the expression"
	case calcNumber:
		return "number " + t.text
	case calcName:
		return strconv.Quote(t.text)
	default:
		return "'" + t.text + "'"
	}
}

// calcIsDigit reports whether c is an ASCII digit.
func calcIsDigit(c rune) bool { return c >= '0' && c <= '9' }

// calcIsNameStart reports whether c can begin a name.
func calcIsNameStart(c rune) bool { return unicode.IsLetter(c) || c == '_' }

// calcLex splits src into tokens, ending with a calcEnd token. A character
// or number that cannot be read becomes a calcBad token, so that errors are
// reported in reading order by the parser.
func calcLex(src string) []calcToken {
	rs := []rune(src)
	var toks []calcToken
	for i := 0; i < len(rs); {
		c, pos := rs[i], i+1
		switch {
		case unicode.IsSpace(c):
			i++
		case calcIsDigit(c) || c == '.' && i+1 < len(rs) && calcIsDigit(rs[i+1]):
			j := i
			for j < len(rs) && calcIsDigit(rs[j]) {
				j++
			}
			if j < len(rs) && rs[j] == '.' {
				j++
				for j < len(rs) && calcIsDigit(rs[j]) {
					j++
				}
			}
			// An exponent only if digits follow: in 2e the e is a name.
			if j < len(rs) && (rs[j] == 'e' || rs[j] == 'E') {
				k := j + 1
				if k < len(rs) && (rs[k] == '+' || rs[k] == '-') {
					k++
				}
				if k < len(rs) && calcIsDigit(rs[k]) {
					for k < len(rs) && calcIsDigit(rs[k]) {
						k++
					}
					j = k
				}
			}
			text := string(rs[i:j])
			// The lexeme is plain decimal, so the only possible error is a
			// range error; an underflow reads as 0, which is right.
			v, _ := strconv.ParseFloat(text, 64)
			if math.IsInf(v, 0) {
				toks = append(toks, calcToken{kind: calcBad, pos: pos,
					text: fmt.Sprintf("number %s at position %d is too large: the largest is about 1.8e308", text, pos)})
			} else {
				toks = append(toks, calcToken{kind: calcNumber, text: text, num: v, pos: pos})
			}
			i = j
		case calcIsNameStart(c):
			// Dotted names like os.Exit are read whole, to be named whole in
			// the error.
			j := i + 1
			for j < len(rs) {
				switch {
				case calcIsNameStart(rs[j]) || unicode.IsDigit(rs[j]):
					j++
					continue
				case rs[j] == '.' && j+1 < len(rs) && calcIsNameStart(rs[j+1]):
					j += 2
					continue
				}
				break
			}
			toks = append(toks, calcToken{kind: calcName, text: string(rs[i:j]), pos: pos})
			i = j
		default:
			op := ""
			switch c {
			case '+', '-', '/', '%', '^', '(', ')', ',':
				op = string(c)
			case '*':
				op = "*"
				if i+1 < len(rs) && rs[i+1] == '*' {
					op = "^"
					i++
				}
			case '×':
				op = "*"
			case '÷':
				op = "/"
			case '−': // U+2212 MINUS SIGN
				op = "-"
			}
			if op == "" {
				toks = append(toks, calcToken{kind: calcBad, pos: pos,
					text: fmt.Sprintf("unexpected character %q at position %d: an expression may hold numbers, + - * / %% ^ ( ) , and %s", c, pos, calcNames)})
			} else {
				toks = append(toks, calcToken{kind: calcOp, text: op, pos: pos})
			}
			i++
		}
	}
	return append(toks, calcToken{kind: calcEnd, pos: len(rs) + 1})
}

// calcEval evaluates an arithmetic expression.
func calcEval(src string) (float64, error) {
	if strings.TrimSpace(src) == "" {
		return 0, errors.New("the expression is empty: give one such as 2*(3+4)")
	}
	if n := utf8.RuneCountInString(src); n > calcMaxLen {
		return 0, fmt.Errorf("the expression is %d characters long; at most %d are accepted", n, calcMaxLen)
	}
	p := calcParser{toks: calcLex(src)}
	v, err := p.expr()
	if err != nil {
		return 0, err
	}
	if t := p.peek(); t.kind != calcEnd {
		return 0, calcTrailing(t)
	}
	return v, nil
}

// calcParser evaluates a token list as it parses it.
type calcParser struct {
	toks  []calcToken
	i     int
	depth int // open parentheses around the current position
}

// peek returns the current token.
func (p *calcParser) peek() calcToken { return p.toks[p.i] }

// next returns the current token and moves past it; it stays on the final
// calcEnd token.
func (p *calcParser) next() calcToken {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

// atOp reports whether the current token is the operator op.
func (p *calcParser) atOp(op string) bool {
	t := p.peek()
	return t.kind == calcOp && t.text == op
}

// expr parses a sum or difference.
func (p *calcParser) expr() (float64, error) {
	v, err := p.term()
	if err != nil {
		return 0, err
	}
	for p.atOp("+") || p.atOp("-") {
		op := p.next()
		w, err := p.term()
		if err != nil {
			return 0, err
		}
		if op.text == "+" {
			v += w
		} else {
			v -= w
		}
		if err := calcCheck(v, op); err != nil {
			return 0, err
		}
	}
	return v, nil
}

// term parses a product, quotient or remainder.
func (p *calcParser) term() (float64, error) {
	v, err := p.unary()
	if err != nil {
		return 0, err
	}
	for p.atOp("*") || p.atOp("/") || p.atOp("%") {
		op := p.next()
		w, err := p.unary()
		if err != nil {
			return 0, err
		}
		switch op.text {
		case "*":
			v *= w
		case "/":
			if w == 0 {
				return 0, fmt.Errorf("division by zero at position %d", op.pos)
			}
			v /= w
		case "%":
			if w == 0 {
				return 0, fmt.Errorf("modulo by zero at position %d: the right side of %% must not be 0", op.pos)
			}
			v = math.Mod(v, w)
		}
		if err := calcCheck(v, op); err != nil {
			return 0, err
		}
	}
	return v, nil
}

// unary parses a signed operand.
func (p *calcParser) unary() (float64, error) {
	if p.atOp("-") || p.atOp("+") {
		op := p.next()
		v, err := p.unary()
		if err != nil {
			return 0, err
		}
		if op.text == "-" {
			return -v, nil
		}
		return v, nil
	}
	return p.power()
}

// power parses a power; its exponent may be signed and is itself a power.
func (p *calcParser) power() (float64, error) {
	base, err := p.primary()
	if err != nil {
		return 0, err
	}
	if !p.atOp("^") {
		return base, nil
	}
	op := p.next()
	exp, err := p.unary()
	if err != nil {
		return 0, err
	}
	v := calcPow(base, exp)
	switch {
	case math.IsInf(v, 0) && base == 0:
		return 0, fmt.Errorf("0 raised to a negative power at position %d is a division by zero", op.pos)
	case math.IsNaN(v):
		return 0, fmt.Errorf("'^' at position %d has no real result: a negative number cannot be raised to a fractional power", op.pos)
	}
	return v, calcCheck(v, op)
}

// calcPow raises base to exp. math.Pow builds integer powers by repeated
// multiplication, which drifts for powers of 10 (10^308 would be
// 1.0000000000000006e+308); those are read exactly instead.
func calcPow(base, exp float64) float64 {
	if base == 10 && exp == math.Trunc(exp) && math.Abs(exp) <= 400 {
		v, _ := strconv.ParseFloat("1e"+strconv.Itoa(int(exp)), 64)
		return v
	}
	return math.Pow(base, exp)
}

// primary parses a number, a constant, a function call or a parenthesized
// expression.
func (p *calcParser) primary() (float64, error) {
	t := p.next()
	switch {
	case t.kind == calcNumber:
		return t.num, nil
	case t.kind == calcName:
		return p.name(t)
	case t.kind == calcOp && t.text == "(":
		if err := p.open(t); err != nil {
			return 0, err
		}
		v, err := p.expr()
		if err != nil {
			return 0, err
		}
		if err := p.close(t); err != nil {
			return 0, err
		}
		return v, nil
	case t.kind == calcBad:
		return 0, errors.New(t.text)
	case t.kind == calcEnd:
		return 0, fmt.Errorf("the expression ends too early: %s is missing at position %d", calcOperandHint, t.pos)
	default:
		return 0, fmt.Errorf("expected %s at position %d, found %s", calcOperandHint, t.pos, t.describe())
	}
}

// open enters the parenthesis t.
func (p *calcParser) open(t calcToken) error {
	p.depth++
	if p.depth > calcMaxDepth {
		return fmt.Errorf("parentheses nest deeper than %d levels at position %d: simplify the expression", calcMaxDepth, t.pos)
	}
	return nil
}

// close reads the ')' that matches the parenthesis t.
func (p *calcParser) close(t calcToken) error {
	c := p.peek()
	switch {
	case c.kind == calcOp && c.text == ")":
		p.next()
		p.depth--
		return nil
	case c.kind == calcBad:
		return errors.New(c.text)
	case c.kind == calcEnd:
		return fmt.Errorf("unbalanced parentheses: the '(' at position %d is never closed; add a ')'", t.pos)
	default:
		return fmt.Errorf("expected an operator or ')' at position %d to close the '(' at position %d, found %s", c.pos, t.pos, c.describe())
	}
}

// name evaluates a constant or a function call that begins with the name t.
func (p *calcParser) name(t calcToken) (float64, error) {
	name := strings.ToLower(t.text)
	switch name {
	case "pi", "π":
		return math.Pi, nil
	case "e":
		return math.E, nil
	}
	lo, hi := calcArity(name)
	if lo == 0 {
		return 0, fmt.Errorf("unknown name %q at position %d: only %s are known", t.text, t.pos, calcNames)
	}
	open := p.peek()
	if open.kind != calcOp || open.text != "(" {
		return 0, fmt.Errorf("%s at position %d is a function: call it with parentheses, as in %s(2)", t.text, t.pos, name)
	}
	p.next()
	if err := p.open(open); err != nil {
		return 0, err
	}
	var args []float64
	if !p.atOp(")") {
		for {
			v, err := p.expr()
			if err != nil {
				return 0, err
			}
			args = append(args, v)
			if !p.atOp(",") {
				break
			}
			p.next()
		}
	}
	if err := p.close(open); err != nil {
		return 0, err
	}
	switch {
	case len(args) < lo && hi == lo:
		return 0, fmt.Errorf("%s at position %d takes %s, got %d", name, t.pos, calcPlural(lo, "argument"), len(args))
	case len(args) < lo:
		return 0, fmt.Errorf("%s at position %d takes at least %s, got %d", name, t.pos, calcPlural(lo, "argument"), len(args))
	case hi >= 0 && len(args) > hi && hi == lo:
		return 0, fmt.Errorf("%s at position %d takes %s, got %d", name, t.pos, calcPlural(hi, "argument"), len(args))
	case hi >= 0 && len(args) > hi:
		return 0, fmt.Errorf("%s at position %d takes at most %s, got %d", name, t.pos, calcPlural(hi, "argument"), len(args))
	}
	return calcCall(name, t.pos, args)
}

// calcArity returns the least and the most arguments of a function, the
// most being -1 for any number; 0, 0 when name is no function.
func calcArity(name string) (lo, hi int) {
	switch name {
	case "sqrt", "abs", "sin", "cos", "tan", "ln", "log", "exp", "floor", "ceil":
		return 1, 1
	case "round":
		return 1, 2
	case "min", "max":
		return 1, -1
	}
	return 0, 0
}

// calcPlural spells n things.
func calcPlural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// calcCall applies the function name, called at pos, to args, whose number
// calcArity allows.
func calcCall(name string, pos int, args []float64) (float64, error) {
	x := args[0]
	var v float64
	switch name {
	case "sqrt":
		if x < 0 {
			return 0, fmt.Errorf("sqrt at position %d needs a number of at least 0, got %s", pos, calcFormat(x))
		}
		v = math.Sqrt(x)
	case "abs":
		v = math.Abs(x)
	case "sin", "cos", "tan":
		switch name {
		case "sin":
			v = math.Sin(x)
		case "cos":
			v = math.Cos(x)
		default:
			v = math.Tan(x)
		}
		// x itself is only known to about one unit in the last place, so
		// a result smaller than that is indistinguishable from 0: sin(pi)
		// is 0, not 1.2246467991473532e-16.
		if math.Abs(v) < 2*calcEpsilon*math.Abs(x) {
			v = 0
		}
	case "ln", "log":
		if x <= 0 {
			return 0, fmt.Errorf("%s at position %d needs a number greater than 0, got %s", name, pos, calcFormat(x))
		}
		if name == "ln" {
			v = math.Log(x)
		} else {
			v = math.Log10(x)
		}
	case "exp":
		v = math.Exp(x)
	case "floor":
		v = math.Floor(x)
	case "ceil":
		v = math.Ceil(x)
	case "round":
		if len(args) == 1 {
			v = math.Round(x)
			break
		}
		d := args[1]
		if d != math.Trunc(d) || d < -15 || d > 15 {
			return 0, fmt.Errorf("round at position %d: its second argument is the number of decimals, a whole number from -15 to 15; got %s", pos, calcFormat(d))
		}
		v = calcRound(x, int(d))
	case "min":
		v = x
		for _, a := range args[1:] {
			v = math.Min(v, a)
		}
	case "max":
		v = x
		for _, a := range args[1:] {
			v = math.Max(v, a)
		}
	default:
		return 0, fmt.Errorf("unknown function %q at position %d: only %s are known", name, pos, calcNames)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s at position %d has no finite result for %s", name, pos, calcFormat(x))
	}
	return v, nil
}

// calcEpsilon is the distance from 1 to the next float64.
const calcEpsilon = 0x1p-52

// calcRound rounds x half away from zero to d decimals (to tens, hundreds…
// when d is negative).
func calcRound(x float64, d int) float64 {
	if d >= 0 {
		p := math.Pow(10, float64(d))
		if y := x * p; !math.IsInf(y, 0) {
			return math.Round(y) / p
		}
		return x // too large to have decimals anyway
	}
	q := math.Pow(10, float64(-d))
	return math.Round(x/q) * q
}

// calcCheck reports a result of the operator op that is not a finite
// number.
func calcCheck(v float64, op calcToken) error {
	switch {
	case math.IsNaN(v):
		return fmt.Errorf("'%s' at position %d has no real result", op.text, op.pos)
	case math.IsInf(v, 0):
		return fmt.Errorf("the result of '%s' at position %d is too large: numbers must stay within about ±1.8e308", op.text, op.pos)
	}
	return nil
}

// calcTrailing explains the token t found after a complete expression.
func calcTrailing(t calcToken) error {
	switch {
	case t.kind == calcBad:
		return errors.New(t.text)
	case t.kind == calcOp && t.text == ")":
		return fmt.Errorf("unbalanced parentheses: the ')' at position %d has no '(' to close", t.pos)
	case t.kind == calcOp && t.text == ",":
		return fmt.Errorf("unexpected ',' at position %d: commas only separate function arguments, as in max(1, 2); write numbers without thousands separators", t.pos)
	case t.kind == calcNumber, t.kind == calcName, t.kind == calcOp && t.text == "(":
		return fmt.Errorf("unexpected %s at position %d: an operator is missing before it; write multiplication with *, as in 2*pi", t.describe(), t.pos)
	default:
		return fmt.Errorf("unexpected %s at position %d", t.describe(), t.pos)
	}
}

// calcFormat writes v the way a person would: 4 rather than 4.000000,
// 123456789000 rather than 1.23456789e+11, 0.3 rather than
// 0.30000000000000004, and 1e-7 or 1.8446744073709552e+19 for very small
// or large numbers.
func calcFormat(v float64) string {
	if v == 0 {
		return "0" // and never -0
	}
	if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
		// Floating-point noise: a value within 2 units in the last place
		// of a number with 15 significant digits is that number. Integers
		// up to 2^53 are exact and left alone.
		if c, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 15, 64), 64); err == nil && c != v && calcULPs(c, v) <= 2 {
			v = c
		}
	}
	// Up to 2^53 every integer is exact; beyond, digits are lost, and
	// scientific notation says so rather than print made-up digits.
	if a := math.Abs(v); a >= 1e-6 && a <= 1<<53 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	// Go pads the exponent to two digits: 1e-07. Drop that padding.
	if i := strings.IndexByte(s, 'e'); i >= 0 && len(s) > i+3 && s[i+2] == '0' {
		s = s[:i+2] + s[i+3:]
	}
	return s
}

// calcULPs counts the floats between a and b, which have the same sign.
func calcULPs(a, b float64) uint64 {
	x, y := math.Float64bits(a), math.Float64bits(b)
	if x > y {
		return x - y
	}
	return y - x
}
