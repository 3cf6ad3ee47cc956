package toolbox

import (
	"context"
	"time"
	"unicode"

	"github.com/toolreg/toolreg/tool"
)

// WordCount counts the words, characters and lines of a text.
type WordCount struct{}

// WordCountArgs are the arguments the model sends.
type WordCountArgs struct {
	// The text to count, exactly as written, including its line breaks.
	Text string `json:"text"`
}

// WordCountResult is the answer.
type WordCountResult struct {
	// Words counts space-separated words, and each Chinese, Japanese or
	// Korean character as one word; punctuation alone is not a word.
	Words int `json:"words"`
	// Characters counts Unicode code points, spaces and line breaks
	// included.
	Characters int `json:"characters"`
	// CharactersNoSpaces counts the characters that are not white space.
	CharactersNoSpaces int `json:"characters_no_spaces"`
	// Lines counts lines; a final line break does not start another line,
	// and an empty text has none.
	Lines int `json:"lines"`
}

// Definition describes the tool.
func (WordCount) Definition() tool.Definition {
	return tool.Definition{
		ID:          "word_count",
		Description: "Count the words, characters (with and without spaces) and lines of a text, as a reader or editor would; each Chinese, Japanese or Korean character counts as one word. Use it instead of counting by eye, for example to check a length limit.",
		Timeout:     5 * time.Second,
	}
}

// Execute counts args.Text.
func (WordCount) Execute(ctx context.Context, args WordCountArgs) (WordCountResult, error) {
	if err := ctx.Err(); err != nil {
		return WordCountResult{}, err
	}
	return wordCountOf(args.Text), nil
}

// wordCountOf counts s. A word is a maximal run of characters that are
// neither white space nor CJK and that holds at least one letter, digit or
// symbol such as an emoji; each CJK character is a word of its own.
func wordCountOf(s string) WordCountResult {
	var r WordCountResult
	inWord := false  // inside a run of non-space, non-CJK characters
	counted := false // that run already counted as a word
	endsLine := false
	prevCR := false
	for _, c := range s {
		r.Characters++
		endsLine = false
		switch {
		case c == '\n' && prevCR:
			// The second half of \r\n: the line was counted at \r.
			endsLine = true
		case c == '\n', c == '\r', c == '\v', c == '\f', c == 0x85, c == 0x2028, c == 0x2029:
			r.Lines++
			endsLine = true
		}
		prevCR = c == '\r'
		switch {
		case unicode.IsSpace(c):
			inWord, counted = false, false
			continue
		case wordIsCJK(c):
			r.Words++
			inWord, counted = false, false
		default:
			if !inWord {
				inWord, counted = true, false
			}
			if !counted && wordIsContent(c) {
				r.Words++
				counted = true
			}
		}
		r.CharactersNoSpaces++
	}
	if r.Characters > 0 && !endsLine {
		// The last line has no line break of its own.
		r.Lines++
	}
	return r
}

// wordIsCJK reports whether c is a Chinese, Japanese or Korean character,
// each of which counts as one word.
func wordIsCJK(c rune) bool {
	return unicode.In(c, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		c == 'ー' || c == 'ｰ' // prolonged sound marks, written inside Japanese words
}

// wordIsContent reports whether c makes a word, unlike punctuation, marks
// and joiners: a letter, a digit or a symbol such as an emoji or €.
func wordIsContent(c rune) bool {
	return unicode.IsLetter(c) || unicode.IsNumber(c) || unicode.Is(unicode.So, c)
}
