package toolbox

import (
	"context"
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // zone data for machines without a zoneinfo database

	"github.com/toolreg/toolreg/tool"
)

// Now tells the current date and time in a time zone.
//
// Its zero value reads the system clock.
type Now struct {
	// clock returns the current time; nil means time.Now. Tests set it.
	clock func() time.Time
}

// NowArgs are the arguments the model sends.
type NowArgs struct {
	// IANA time zone name, for example Europe/Berlin, America/New_York or Asia/Tokyo; UTC when left out.
	Timezone string `json:"timezone,omitempty" jsonschema:"maxLength=64"`
}

// Definition describes the tool.
func (Now) Definition() tool.Definition {
	return tool.Definition{
		ID:          "now",
		Description: "Tell the current date, time and weekday in a time zone (UTC unless an IANA zone like Europe/Berlin is given). Use it whenever the answer depends on today's date or the current time; do not guess them.",
		Timeout:     5 * time.Second,
		// time.LoadLocation reads the zone files and $ZONEINFO.
		Capabilities: tool.ReadFiles | tool.Env,
	}
}

// Execute answers the current time in the requested zone, for example
// "Thursday, 2 January 2025, 15:04:05 CET (UTC+01:00, Europe/Berlin); RFC 3339: 2025-01-02T15:04:05+01:00".
func (n Now) Execute(ctx context.Context, args NowArgs) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	loc, err := nowLoadZone(args.Timezone)
	if err != nil {
		return "", err
	}
	clock := n.clock
	if clock == nil {
		clock = time.Now
	}
	t := clock().In(loc)
	return fmt.Sprintf("%s (UTC%s, %s); RFC 3339: %s",
		t.Format("Monday, 2 January 2006, 15:04:05 MST"),
		t.Format("-07:00"),
		loc.String(),
		t.Format(time.RFC3339)), nil
}

// nowLoadZone resolves an IANA zone name; the empty name means UTC.
func nowLoadZone(name string) (*time.Location, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "", strings.EqualFold(name, "UTC"), strings.EqualFold(name, "Z"):
		return time.UTC, nil
	case strings.EqualFold(name, "Local"):
		// The server's own zone means nothing to the person asking.
		return nil, fmt.Errorf("time zone %q is not accepted: give an IANA zone name such as Europe/Berlin, or leave timezone out for UTC", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("unknown time zone %q: give an IANA zone name such as Europe/Berlin, America/New_York or Asia/Tokyo, or leave timezone out for UTC: %w", name, err)
	}
	return loc, nil
}
