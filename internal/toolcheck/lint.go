package toolcheck

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The description lint: what the model reads about a tool and its
// parameters. Each rule is a clear case, so that a warning is always worth
// acting on; a lint warning fails toolgen -check like any other, but the
// tool stays registered, since a vague description does not make a tool
// wrong. The rules, with a good and a bad example each, are in
// docs/writing-tools.md ("The description lint").

// minToolWords and minParamWords are the fewest words a tool's and a
// parameter's description may have.
const (
	minToolWords  = 8
	minParamWords = 3
)

// MaxToolDescription and MaxParamDescription are the most characters
// (runes) a tool's and a parameter's description may have: every request
// sends every description, and OpenAI documents 1,024 characters as the
// limit of a function's. A parameter's is half of it: it describes one
// value, and a tool has several.
const (
	MaxToolDescription  = 1024
	MaxParamDescription = 512
)

// whenRE finds a sentence that says when to use a tool: "Use it when …",
// "Use this for …", "Call it to …", "useful for …", "when the user asks",
// "Do not use …", or in Chinese 适合, 用于, 当…时.
var whenRE = regexp.MustCompile(`(?i)\b(use|call|choose|pick|prefer|try)\b(\s+\S+){0,4}?\s+(when|whenever|for|to|if|before|after|instead|only)\b` +
	`|\b(useful|good|meant|intended|best|made|handy)\s+(for|when|to|if)\b` +
	`|\bwhen (the user|a user|you|someone|asked)\b` +
	`|\b(do not|don't|never) (use|call)\b` +
	`|适合|用于|当.{1,60}?时`)

// lintTool returns the lint messages of a tool's description.
func lintTool(name, desc string) []string {
	var out []string
	switch n := countWords(desc); {
	case restates(desc, name):
		out = append(out, fmt.Sprintf("Description %q only restates the name %q: say what the tool does, when to use it and when not to", desc, name))
	case n < minToolWords:
		out = append(out, fmt.Sprintf("Description has %d word(s), fewer than %d: say what the tool does, when to use it and when not to", n, minToolWords))
	}
	if n := utf8.RuneCountInString(desc); n > MaxToolDescription {
		out = append(out, fmt.Sprintf("Description has %d characters, more than %d: every request sends it; keep what the model needs to choose and call the tool, and move the rest into the tool's documentation or a skill", n, MaxToolDescription))
	}
	if !whenRE.MatchString(desc) {
		out = append(out, `Description does not say when to use the tool: add a sentence such as "Use it when …" (or 适合…, 用于…, 当…时)`)
	}
	return out
}

// lintParam returns the lint messages of a parameter's description.
func lintParam(f *Field) []string {
	var out []string
	switch n := countWords(f.Doc); {
	case restates(f.Doc, f.JSONName) || restates(f.Doc, f.GoName):
		out = append(out, fmt.Sprintf("parameter %q: description %q only repeats the field name: say what the value means, its format or unit, and its bounds", f.JSONName, f.Doc))
	case n < minParamWords:
		out = append(out, fmt.Sprintf("parameter %q: description %q has %d word(s), fewer than %d: say what the value means, its format or unit, and its bounds", f.JSONName, f.Doc, n, minParamWords))
	}
	if n := utf8.RuneCountInString(f.Doc); n > MaxParamDescription {
		out = append(out, fmt.Sprintf("parameter %q: description has %d characters, more than %d: every request sends it; say what the value means, its format and bounds, briefly", f.JSONName, n, MaxParamDescription))
	}
	if missing := unexplainedChoices(f.Doc, f.C.Enum); len(missing) > 0 {
		out = append(out, fmt.Sprintf("parameter %q is an enum, but its description does not mention %s: say what each choice means", f.JSONName, strings.Join(missing, ", ")))
	}
	out = append(out, contradictedBounds(f)...)
	return out
}

// countWords counts the words of s: runs of letters or digits, and each
// CJK character on its own (as 字数 is counted).
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		switch {
		case isCJK(r):
			n++
			in = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if !in {
				n++
			}
			in = true
		case r == '\'' || r == '-' || r == '_':
			// inside a word: don't, e-mail, mount_point
		default:
			in = false
		}
	}
	return n
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// fillers are the words that add nothing to a name: "The word count tool."
// restates word_count.
var fillers = map[string]bool{"a": true, "an": true, "the": true, "tool": true, "this": true, "it": true,
	"of": true, "function": true, "field": true, "parameter": true, "value": true, "is": true, "does": true}

// restates reports whether desc says nothing but name: its words, less
// fillers and a plural s, are all words of the name (split at '_', '-'
// and case changes).
func restates(desc, name string) bool {
	nameWords := map[string]bool{}
	for _, w := range splitName(name) {
		nameWords[stem(w)] = true
	}
	words := splitName(desc)
	seen := 0
	for _, w := range words {
		if fillers[w] {
			continue
		}
		if !nameWords[stem(w)] {
			return false
		}
		seen++
	}
	return seen > 0
}

func stem(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return w[:len(w)-1]
	}
	return w
}

// splitName splits an identifier into lower-case words: "mount_point",
// "MountPoint" and "mount-point" are mount, point.
func splitName(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

// unexplainedChoices returns the enum values (JSON literals) that desc
// does not mention.
func unexplainedChoices(desc string, enum []string) []string {
	lower := strings.ToLower(desc)
	var missing []string
	for _, lit := range enum {
		v := lit
		if s, err := strconv.Unquote(lit); err == nil {
			v = s
		}
		if !strings.Contains(lower, strings.ToLower(v)) {
			missing = append(missing, lit)
		}
	}
	return missing
}

// The bounds a description states: a range ("1 to 16", "from 1 to 16",
// "between 1 and 16", "1–16", "1-16"), an upper bound ("at most 16", "up
// to 16", "no more than 16") or a lower one ("at least 1").
var (
	numRE     = `(-?\d+(?:\.\d+)?)`
	rangeRE   = regexp.MustCompile(`(?i)(?:^|[^\w.-])` + numRE + `(?:\s+(?:to|through)\s+|\s*[–—]\s*|-)` + numRE + `\b(?:[^-\w]|$)`)
	betweenRE = regexp.MustCompile(`(?i)\bbetween\s+` + numRE + `\s+and\s+` + numRE + `\b`)
	upperRE   = regexp.MustCompile(`(?i)\b(?:at most|up to|no more than|not more than|maximum(?: of)?|max\.?)\s+` + numRE + `\b`)
	lowerRE   = regexp.MustCompile(`(?i)\b(?:at least|no less than|not less than|minimum(?: of)?|min\.?)\s+` + numRE + `\b`)
	charsRE   = regexp.MustCompile(`(?i)^\s*(?:characters?|chars?|letters?|code points?)\b`)
)

// statedBound is a bound a description states; words is the text that
// states it.
type statedBound struct {
	lo, hi string // "" when not stated
	text   string
	end    int // where the statement ends in the description
}

// statedBounds finds the bounds a description states, in order.
func statedBounds(desc string) []statedBound {
	var out []statedBound
	for _, m := range betweenRE.FindAllStringSubmatchIndex(desc, -1) {
		out = append(out, statedBound{lo: desc[m[2]:m[3]], hi: desc[m[4]:m[5]], text: desc[m[0]:m[1]], end: m[5]})
	}
	for _, m := range rangeRE.FindAllStringSubmatchIndex(desc, -1) {
		lo, hi := desc[m[2]:m[3]], desc[m[4]:m[5]]
		if cmpNum(lo, hi) > 0 {
			continue // "2024-01" and the like are not ranges
		}
		out = append(out, statedBound{lo: lo, hi: hi, text: strings.TrimSpace(desc[m[2]:m[5]]), end: m[5]})
	}
	for _, m := range upperRE.FindAllStringSubmatchIndex(desc, -1) {
		out = append(out, statedBound{hi: desc[m[2]:m[3]], text: desc[m[0]:m[1]], end: m[3]})
	}
	for _, m := range lowerRE.FindAllStringSubmatchIndex(desc, -1) {
		out = append(out, statedBound{lo: desc[m[2]:m[3]], text: desc[m[0]:m[1]], end: m[3]})
	}
	return out
}

// contradictedBounds returns a message for each bound the description of
// f states differently from its tag: minimum and maximum for numbers,
// minLength and maxLength for strings when the text counts characters.
func contradictedBounds(f *Field) []string {
	vt := f.Type.Value()
	var lo, hi, loKey, hiKey string
	switch vt.Kind {
	case KInt, KUint, KFloat:
		lo, hi, loKey, hiKey = f.C.Minimum, f.C.Maximum, "minimum", "maximum"
	case KString:
		if f.C.MinLength >= 0 {
			lo = strconv.Itoa(f.C.MinLength)
		}
		if f.C.MaxLength >= 0 {
			hi = strconv.Itoa(f.C.MaxLength)
		}
		loKey, hiKey = "minLength", "maxLength"
	default:
		return nil
	}
	if lo == "" && hi == "" {
		return nil
	}
	var out []string
	for _, b := range statedBounds(f.Doc) {
		if vt.Kind == KString && !charsRE.MatchString(f.Doc[b.end:]) {
			continue // "up to 3 words" is not a length in characters
		}
		var bad []string
		if b.lo != "" && lo != "" && cmpNum(b.lo, lo) != 0 {
			bad = append(bad, fmt.Sprintf("%s=%s", loKey, lo))
		}
		if b.hi != "" && hi != "" && cmpNum(b.hi, hi) != 0 {
			bad = append(bad, fmt.Sprintf("%s=%s", hiKey, hi))
		}
		if len(bad) > 0 {
			out = append(out, fmt.Sprintf("parameter %q: description says %q, but the jsonschema tag says %s: make them agree", f.JSONName, b.text, strings.Join(bad, ", ")))
		}
	}
	return out
}
