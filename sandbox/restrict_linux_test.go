//go:build linux

package sandbox

import "testing"

func TestCapBnd(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		status string
		want   uint64
		ok     bool
	}{
		{"Name:\tx\nCapPrm:\t0000000000000000\nCapBnd:\t000001ffffffffff\nCapAmb:\t0000000000000000\n", 0x1ffffffffff, true},
		{"CapBnd:\t0000000000000000\n", 0, true},
		{"CapBnd:\t0000000000000000", 0, true},     // no final newline
		{"Name:\tx\n", 0, false},                   // no line
		{"CapBnd:\tzz\n", 0, false},                // not hex
		{"CapBnd:\t1ffffffffffffffff\n", 0, false}, // past 64 bits
	} {
		got, ok := capBnd(c.status)
		if got != c.want || ok != c.ok {
			t.Errorf("capBnd(%q) = %x, %v; want %x, %v", c.status, got, ok, c.want, c.ok)
		}
	}
}
