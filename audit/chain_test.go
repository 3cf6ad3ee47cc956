package audit

import (
	"os"
	"strings"
	"testing"
)

func TestChainDebug(t *testing.T) {
	key := os.Getenv("CHAIN")
	if key == "" {
		t.Skip()
	}
	s, _ := parseSummary(stdSummaryText)
	c, _ := s.caps(key)
	for _, b := range capBits(c) {
		keys, why := s.chain(key, b)
		t.Logf("%d: %s (%s)", b, strings.Join(keys, " → "), why)
	}
}
