package toolcheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLintHelpers checks the pieces of the description lint on the edge
// cases the corpus does not spell out.
func TestLintHelpers(t *testing.T) {
	words := map[string]int{
		"":                         0,
		"Handles data.":            2,
		"don't e-mail mount_point": 3,
		"数字。":                      2,
		"查询 Berlin 天气":             5,
		"v1.2 is out":              4,
	}
	for s, want := range words {
		if got := countWords(s); got != want {
			t.Errorf("countWords(%q) = %d, want %d", s, got, want)
		}
	}
	restated := []struct {
		desc, name string
		want       bool
	}{
		{"The word count tool.", "word_count", true},
		{"Counts words.", "word_count", true},
		{"MountPoint.", "mount_point", true},
		{"Count the words of a text.", "word_count", false},
		{"The.", "word_count", false},
	}
	for _, tc := range restated {
		if got := restates(tc.desc, tc.name); got != tc.want {
			t.Errorf("restates(%q, %q) = %v, want %v", tc.desc, tc.name, got, tc.want)
		}
	}
	when := map[string]bool{
		"Use it when the user asks.":         true,
		"Use this tool for sums.":            true,
		"Call it to check a site.":           true,
		"Useful for quick sums.":             true,
		"Do not use it for files.":           true,
		"适合查询天气。":                            true,
		"当用户询问天气时使用。":                        true,
		"用于翻倍。":                              true,
		"Counts words and lines of a text.":  false,
		"A user manual for the used engine.": false,
	}
	for s, want := range when {
		if got := whenRE.MatchString(s); got != want {
			t.Errorf("when-to-use in %q: %v, want %v", s, got, want)
		}
	}
	type bound struct{ Lo, Hi, Text string }
	bounds := map[string][]bound{
		"Days, 1 to 16.":                 {{"1", "16", "1 to 16"}},
		"Between 2 and 5 items.":         {{"2", "5", "Between 2 and 5"}},
		"Offset from -3 to 100.":         {{"-3", "100", "-3 to 100"}},
		"Pages 1-16, or 1–8.":            {{"1", "16", "1-16"}, {"1", "8", "1–8"}},
		"A date like 2024-01-02.":        nil,
		"An offset like UTC-5.":          nil,
		"Version 3.2 or up to 7 tries.":  {{"", "7", "up to 7"}},
		"At least 1, at most 10.":        {{"", "10", "at most 10"}, {"1", "", "At least 1"}},
		"From 10 to 1, backwards.":       nil,
		"ISO 8601 dates, 16 at the most": nil,
	}
	for s, want := range bounds {
		var got []bound
		for _, b := range statedBounds(s) {
			got = append(got, bound{b.lo, b.hi, b.text})
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("statedBounds(%q) (-want +got):\n%s", s, diff)
		}
	}
}
