// Package nearest finds the word of a list nearest to a mistyped one, for
// "did you mean" hints: a flag, a tool, a model alias.
package nearest

import "strings"

// Word returns the word of words nearest to w, if one is near
// enough to be what was meant: at most two edits away (one for words of
// up to four letters), or one that begins with w; "" if none is.
func Word(words []string, w string) string {
	w = strings.ToLower(w)
	best, bestDist := "", 0
	limit := 2
	if len([]rune(w)) <= 4 {
		limit = 1
	}
	for _, cand := range words {
		d := Distance(w, cand)
		if d > limit && !(len(w) >= 3 && strings.HasPrefix(cand, w)) {
			continue
		}
		if best == "" || d < bestDist {
			best, bestDist = cand, d
		}
	}
	return best
}

// Distance is the Levenshtein distance between a and b, in runes,
// counting a swap of two neighbours as one edit.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
