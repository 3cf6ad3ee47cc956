package jsonarg

import (
	"math"
	"regexp"
	"testing"
	"time"
)

// TestSetDuration checks duration strings at, below and past each bound,
// the units and forms time.ParseDuration reads, and what it refuses: a
// number (which would be read as nanoseconds), a string without a unit,
// one that overflows, and null.
func TestSetDuration(t *testing.T) {
	bounded := func(d *Decoder, p *time.Duration) error { return SetDuration(d, p, time.Second, 2*time.Hour) }
	runSet(t, []setCase{
		{`"1s"`, ok("1s")},
		{`"999ms"`, fails(`expected duration from 1s to 2h0m0s, got 999ms`)},
		{`"999999999ns"`, fails(`expected duration from 1s to 2h0m0s, got 999.999999ms`)},
		{`"1000000000ns"`, ok("1s")},
		{`"2h"`, ok("2h0m0s")},
		{`"2h0m0.000000001s"`, fails(`expected duration from 1s to 2h0m0s, got 2h0m0.000000001s`)},
		{`"119m59s"`, ok("1h59m59s")},
		{`"90m"`, ok("1h30m0s")},
		{`"1.5h"`, ok("1h30m0s")},
		{`" 90m"`, fails(`expected a duration such as "90s", "1m30s" or "1.5h" (units ns, us, ms, s, m, h), got " 90m"`)},
		{`"-1s"`, fails(`expected duration from 1s to 2h0m0s, got -1s`)},
		{`5400`, fails(`expected a duration string such as "90s", "1m30s" or "1.5h", got number 5400`)},
		{`null`, fails(`expected a duration string such as "90s", "1m30s" or "1.5h", got null (null is not accepted: send a value, or leave an optional field out)`)},
	}, bounded)
	free := func(d *Decoder, p *time.Duration) error { return SetDuration(d, p, math.MinInt64, math.MaxInt64) }
	runSet(t, []setCase{
		{`"0"`, ok("0s")},
		{`"-0"`, ok("0s")},
		{`"+5s"`, ok("5s")},
		{`"-2562047h47m16.854775808s"`, ok("-2562047h47m16.854775808s")},
		{`"2562047h47m16.854775807s"`, ok("2562047h47m16.854775807s")},
		{`"2562047h47m16.854775808s"`, fails(`expected a duration such as "90s", "1m30s" or "1.5h" (units ns, us, ms, s, m, h), got "2562047h47m16.854775808s"`)},
		{`"1µs"`, ok("1µs")},
		{`"1us"`, ok("1µs")},
		{`".5s"`, ok("500ms")},
		{`"1.s"`, ok("1s")},
		{`"5"`, fails(`expected a duration such as "90s", "1m30s" or "1.5h" (units ns, us, ms, s, m, h), got "5"`)},
		{`"1d"`, fails(`expected a duration such as "90s", "1m30s" or "1.5h" (units ns, us, ms, s, m, h), got "1d"`)},
		{`""`, fails(`expected a duration such as "90s", "1m30s" or "1.5h" (units ns, us, ms, s, m, h), got ""`)},
	}, free)
}

// TestDurationPattern checks that the schema's pattern accepts exactly
// the strings time.ParseDuration reads, overflow aside.
func TestDurationPattern(t *testing.T) {
	re := regexp.MustCompile(DurationPattern)
	for _, s := range []string{"0", "-0", "+0", "1s", "1.5h", ".5s", "1.s", "1h30m", "1µs", "1μs", "1us", "3ns", "-4ms",
		"", "5", "1d", "1 s", "s", ".s", "1..5s", "0s0", "++1s", "1S", " 1s", "1s "} {
		_, err := time.ParseDuration(s)
		if got, want := re.MatchString(s), err == nil; got != want {
			t.Errorf("%q: pattern matches %v, time.ParseDuration reads it %v", s, got, want)
		}
	}
}

// TestSetTime checks RFC 3339 times: with a zone, fractional seconds and
// an offset, and the forms it refuses.
func TestSetTime(t *testing.T) {
	runSet(t, []setCase{
		{`"2025-01-31T09:30:00Z"`, ok("2025-01-31 09:30:00 +0000 UTC")},
		{`"2025-01-31T09:30:00.123456789+02:00"`, ok("2025-01-31 09:30:00.123456789 +0200 +0200")},
		{`"2025-01-31"`, fails(`expected a date and time in RFC 3339 format such as "2025-01-31T09:30:00Z", got "2025-01-31"`)},
		{`"2025-01-31T09:30:00"`, fails(`expected a date and time in RFC 3339 format such as "2025-01-31T09:30:00Z", got "2025-01-31T09:30:00"`)},
		{`"2025-02-30T09:30:00Z"`, fails(`expected a date and time in RFC 3339 format such as "2025-01-31T09:30:00Z", got "2025-02-30T09:30:00Z"`)},
		{`1738315800`, fails(`expected a date and time in RFC 3339 format such as "2025-01-31T09:30:00Z", got number 1738315800`)},
	}, SetTime)
}
