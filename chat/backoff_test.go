package chat

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestBackoffOfNanoseconds draws delays of 1 to 4 ns many times: each
// whole number of nanoseconds from half the delay to all of it is drawn,
// and no other.
func TestBackoffOfNanoseconds(t *testing.T) {
	for d := time.Duration(1); d <= 4; d++ {
		p := RetryPolicy{BaseDelay: d, MaxDelay: d}.withDefaults()
		got := map[time.Duration]bool{}
		for range 300 {
			got[p.backoff(0)] = true
		}
		want := map[time.Duration]bool{}
		for w := d / 2; w <= d; w++ {
			want[w] = true
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("delays drawn for %v (-want +got):\n%s", d, diff)
		}
	}
}

// TestBackoffCapNearTheLimit reaches a cap of 2⁶² ns (about 146 years)
// by doubling and stops there: one more doubling would overflow
// time.Duration.
func TestBackoffCapNearTheLimit(t *testing.T) {
	p := RetryPolicy{BaseDelay: 1 << 61, MaxDelay: 1 << 62}.withDefaults()
	for _, n := range []int{1, 2, 3} {
		if w := p.backoff(n); w < 1<<61 || w > 1<<62 {
			t.Errorf("backoff(%d) = %v, want within [%v, %v]", n, w, time.Duration(1<<61), time.Duration(1<<62))
		}
	}
}

// TestBackoffCapAtTheLimit: with no cap short of the longest
// time.Duration, a doubling past it is the cap. A BaseDelay of 2⁶² ns
// doubled overflowed to math.MinInt64, and the retry panicked
// (rand.Int64N: invalid argument) instead of waiting.
func TestBackoffCapAtTheLimit(t *testing.T) {
	for _, base := range []time.Duration{1 << 62, math.MaxInt64/2 + 1, math.MaxInt64} {
		p := RetryPolicy{BaseDelay: base, MaxDelay: math.MaxInt64}.withDefaults()
		for _, n := range []int{0, 1, 2, 64} {
			if w := p.backoff(n); w < base/2 {
				t.Errorf("base %v: backoff(%d) = %v, want at least %v", base, n, w, base/2)
			}
		}
	}
}
