package toolbox

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWordCountExecute(t *testing.T) {
	type res = WordCountResult
	tests := []struct {
		name string
		text string
		want WordCountResult
	}{
		{"empty", "", res{}},
		{"only spaces", "    ", res{Characters: 4, Lines: 1}},
		{"only line breaks", "\n\n", res{Characters: 2, Lines: 2}},
		{"one word", "hello", res{Words: 1, Characters: 5, CharactersNoSpaces: 5, Lines: 1}},
		{"sentence with punctuation", "Hello, world! How are you?", res{Words: 5, Characters: 26, CharactersNoSpaces: 22, Lines: 1}},
		{"runs of spaces and tabs", "  one \t two   three  ", res{Words: 3, Characters: 21, CharactersNoSpaces: 11, Lines: 1}},
		{"punctuation alone is not a word", "wait - what ... ?!", res{Words: 2, Characters: 18, CharactersNoSpaces: 14, Lines: 1}},
		{"contractions, hyphens and numbers", "don't re-use 3.14 or 1,000", res{Words: 5, Characters: 26, CharactersNoSpaces: 22, Lines: 1}},
		{"mixed Latin and Chinese", "Hello 世界!", res{Words: 3, Characters: 9, CharactersNoSpaces: 8, Lines: 1}},
		{"Chinese without spaces", "我爱北京天安门。", res{Words: 7, Characters: 8, CharactersNoSpaces: 8, Lines: 1}},
		{"Chinese glued to Latin", "用Go写代码", res{Words: 5, Characters: 6, CharactersNoSpaces: 6, Lines: 1}},
		{"Japanese kana and kanji", "私はコーヒーが好きです。", res{Words: 11, Characters: 12, CharactersNoSpaces: 12, Lines: 1}},
		{"Japanese ideographic space", "東京　大阪", res{Words: 4, Characters: 5, CharactersNoSpaces: 4, Lines: 1}},
		{"Korean", "안녕하세요 세계", res{Words: 7, Characters: 8, CharactersNoSpaces: 7, Lines: 1}},
		{"emoji is a word", "I ❤️ Go 👍", res{Words: 4, Characters: 9, CharactersNoSpaces: 6, Lines: 1}},
		{"emoji sequences stay one word", "👨‍👩‍👧 👍🏽", res{Words: 2, Characters: 8, CharactersNoSpaces: 7, Lines: 1}},
		{"emoji glued to a word", "great👍", res{Words: 1, Characters: 6, CharactersNoSpaces: 6, Lines: 1}},
		{"currency and math signs alone", "5 + 3 = 8 €", res{Words: 3, Characters: 11, CharactersNoSpaces: 6, Lines: 1}},
		{"trailing newline", "one two\n", res{Words: 2, Characters: 8, CharactersNoSpaces: 6, Lines: 1}},
		{"two lines", "one\ntwo", res{Words: 2, Characters: 7, CharactersNoSpaces: 6, Lines: 2}},
		{"blank line between", "one\n\ntwo\n", res{Words: 2, Characters: 9, CharactersNoSpaces: 6, Lines: 3}},
		{"CRLF line endings", "one\r\ntwo\r\n", res{Words: 2, Characters: 10, CharactersNoSpaces: 6, Lines: 2}},
		{"CRLF without final break", "a b\r\nc", res{Words: 3, Characters: 6, CharactersNoSpaces: 3, Lines: 2}},
		{"old Mac CR", "one\rtwo", res{Words: 2, Characters: 7, CharactersNoSpaces: 6, Lines: 2}},
		{"CR then LF then LF", "a\r\n\nb", res{Words: 2, Characters: 5, CharactersNoSpaces: 2, Lines: 3}},
		{"combining accents", "cafe\u0301 naïve", res{Words: 2, Characters: 11, CharactersNoSpaces: 10, Lines: 1}},
		{"Arabic", "مرحبا بالعالم", res{Words: 2, Characters: 13, CharactersNoSpaces: 12, Lines: 1}},
		{"invalid UTF-8 counts per byte", "a\xffb", res{Words: 1, Characters: 3, CharactersNoSpaces: 3, Lines: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := WordCount{}.Execute(context.Background(), WordCountArgs{Text: tt.text})
			if err != nil {
				t.Fatalf("Execute(%q) error: %v", tt.text, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Execute(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestWordCountLongText(t *testing.T) {
	text := strings.Repeat("lorem ipsum dolor\n", 10000)
	got, err := WordCount{}.Execute(context.Background(), WordCountArgs{Text: text})
	if err != nil {
		t.Fatal(err)
	}
	want := WordCountResult{Words: 30000, Characters: 180000, CharactersNoSpaces: 150000, Lines: 10000}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestWordCountCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (WordCount{}).Execute(ctx, WordCountArgs{Text: "x"}); err == nil {
		t.Error("Execute with a cancelled context succeeded, want an error")
	}
}
