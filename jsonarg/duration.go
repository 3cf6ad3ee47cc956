package jsonarg

import (
	"math"
	"time"

	"github.com/toolreg/toolreg/internal/clip"
)

// DurationPattern is the pattern of the strings time.ParseDuration reads:
// an optional sign, then "0" or a sequence of decimal numbers each with a
// unit ("ns", "us", "µs", "ms", "s", "m", "h"), as in "90m", "1h30m" or
// "1.5s". Schemas give it for a time.Duration field.
const DurationPattern = `^[-+]?(0|(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$`

// SetDuration reads a Go duration string, as time.ParseDuration reads it,
// that lies from lo to hi; a bound the schema leaves out is given as
// math.MinInt64 or math.MaxInt64. A number is refused: a model that sends
// 5400 may mean seconds, and the field would read nanoseconds.
func SetDuration(d *Decoder, p *time.Duration, lo, hi time.Duration) error {
	if d.peek() != '"' {
		return d.mismatch(`a duration string such as "90s", "1m30s" or "1.5h"`)
	}
	s, err := d.String()
	if err != nil {
		return err
	}
	x, perr := time.ParseDuration(s)
	if perr != nil {
		return Errorf(`expected a duration such as "90s", "1m30s" or "1.5h" (units ns, us, ms, s, m, h), got %q`, clip.String(s, 80))
	}
	*p = x
	if x >= lo && x <= hi {
		return nil
	}
	return rangeError("duration", lo != math.MinInt64, hi != math.MaxInt64, lo.String(), hi.String(), x.String())
}

// SetTime reads a time in the format of RFC 3339, as time.Time's
// UnmarshalJSON reads it: "2006-01-02T15:04:05Z07:00", with optional
// fractional seconds.
func SetTime(d *Decoder, p *time.Time) error {
	if d.peek() != '"' {
		return d.mismatch(`a date and time in RFC 3339 format such as "2025-01-31T09:30:00Z"`)
	}
	s, err := d.String()
	if err != nil {
		return err
	}
	x, perr := time.Parse(time.RFC3339, s)
	if perr != nil {
		return Errorf(`expected a date and time in RFC 3339 format such as "2025-01-31T09:30:00Z", got %q`, clip.String(s, 80))
	}
	*p = x
	return nil
}
