package toolreg

import (
	"strings"
	"testing"
)

// TestLookupExact finds every tool by its name and nothing else: each name
// with a byte changed, dropped or added at each end, cut to each length,
// and names that share a tool's length and its first and last eight bytes
// (what the generated hash reads) but not its middle.
func TestLookupExact(t *testing.T) {
	reg := Toolbox()
	names := reg.Names()
	known := map[string]bool{}
	for _, n := range names {
		known[n] = true
		e, ok := reg.Lookup(n)
		if !ok || e.Name != n {
			t.Errorf("Lookup(%q) = %q, %v", n, e.Name, ok)
		}
	}
	var misses []string
	for _, n := range names {
		for i := range len(n) {
			b := []byte(n)
			b[i] ^= 1
			misses = append(misses, string(b), n[:i], n[i+1:], n[:i]+"_"+n[i:])
		}
		misses = append(misses, n+"x", "x"+n, strings.ToUpper(n), n+n, n[:len(n)/2]+"-"+n)
		if len(n) >= 8 {
			misses = append(misses, n[:8]+strings.Repeat("z", 20)+n[len(n)-8:])
		}
	}
	misses = append(misses, "", " ", "\x00", strings.Repeat("a", 64), strings.Repeat("a", 65))
	for _, m := range misses {
		if known[m] {
			continue
		}
		if e, ok := reg.Lookup(m); ok {
			t.Errorf("Lookup(%q) found %q", m, e.Name)
		}
	}
}
