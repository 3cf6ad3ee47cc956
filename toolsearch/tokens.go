package toolsearch

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokens returns the terms of s as the index holds them: s is split into
// words at every character that is not a letter or a digit and at the case
// changes of identifiers (readTextFile, HTTPServer), so read_text_file and
// "read a text file" give the same terms; each word is lower-cased and
// stemmed (see Stem), and common English words (the, a, to, …) are left
// out.
func Tokens(s string) []string {
	var out []string
	forWords(s, func(w string) {
		if t := term(w); t != "" {
			out = append(out, t)
		}
	})
	return out
}

// term is the term of one word, or "" for a stop word.
func term(w string) string {
	w = strings.ToLower(w)
	if isStopWord(w) {
		return ""
	}
	return Stem(w)
}

// forWords calls f with each word of s: a run of letters and digits, cut
// where a lower-case letter or a digit is followed by an upper-case one
// (textFile) and before the last upper-case letter of a run followed by a
// lower-case one (HTTPServer: HTTP, Server).
func forWords(s string, f func(string)) {
	start := -1
	var prev, prev2 rune // the last two characters of the word, 0 at its start
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		if !isWordRune(r) {
			if start >= 0 {
				f(s[start:i])
				start = -1
			}
			i += n
			prev, prev2 = 0, 0
			continue
		}
		switch {
		case start < 0:
			start = i
		case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
			f(s[start:i])
			start = i
		case unicode.IsLower(r) && unicode.IsUpper(prev) && unicode.IsUpper(prev2) && !(r == 's' && !nextLower(s[i+n:])):
			// HTTPServer: the S begins the next word; but URLs is one.
			p := i - utf8.RuneLen(prev)
			f(s[start:p])
			start = p
		}
		prev2, prev = prev, r
		i += n
	}
	if start >= 0 {
		f(s[start:])
	}
}

// nextLower reports whether s begins with a lower-case letter.
func nextLower(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLower(r)
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Stem reduces a lower-case English word to a stem shared by its common
// inflections: plurals and third persons (files, entries, matches), past
// forms (listed, copied) and gerunds (reading, running), and a final e
// (create, created and creating all give creat), also after a plural
// (meetings gives meet). It is a light stemmer,
// meant to make the words of a question meet those of a tool's
// description, not a linguist's; words of three characters or fewer, and
// those with characters other than ASCII letters, are left as they are.
func Stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return w
		}
	}
	plural := true
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
	case strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "zes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s"):
		w = w[:len(w)-1]
	default:
		plural = false
	}
	// Then the gerund or past form, of a plural too (meetings, settings).
	switch {
	case plural && !strings.HasSuffix(w, "ing"):
	case strings.HasSuffix(w, "ing") && hasVowel(w[:len(w)-3]) && len(w) > 5:
		w = undouble(w[:len(w)-3])
	case !plural && strings.HasSuffix(w, "ed") && hasVowel(w[:len(w)-2]) && len(w) > 4:
		w = undouble(w[:len(w)-2])
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") && !strings.HasSuffix(w, "ee") {
		w = w[:len(w)-1]
	}
	return w
}

// undouble ends a stem whose last two letters are the same consonant on one
// of them (runn, gett), except l, s and z (install, pass, buzz).
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

func hasVowel(w string) bool { return strings.ContainsAny(w, "aeiouy") }

// isStopWord reports whether w is left out of the index and of queries:
// such words say nothing of what a tool does.
func isStopWord(w string) bool {
	switch w {
	case "a", "an", "the", "and", "or", "but", "if", "then", "than", "so", "of", "to", "in", "on",
		"at", "by", "for", "from", "with", "without", "into", "onto", "about", "as", "is", "are", "was",
		"were", "be", "been", "being", "am", "it", "its", "this", "that", "these", "those", "there",
		"here", "i", "me", "my", "mine", "we", "us", "our", "you", "your", "he", "she", "they", "them",
		"their", "his", "her", "what", "which", "who", "whom", "whose", "when", "where", "why", "how",
		"can", "could", "would", "should", "will", "shall", "may", "might", "must", "do", "does", "did",
		"done", "have", "has", "had", "having", "not", "no", "any", "some", "all", "each", "every",
		"please", "just", "also", "only", "very", "e", "g", "eg", "ie", "etc", "want", "need", "like", "now", "right", "s", "t", "ll", "re", "ve", "d", "m",
		"let":
		return true
	}
	return false
}
