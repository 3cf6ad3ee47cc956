package toolbox

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestNowExecute(t *testing.T) {
	fixed := time.Date(2025, time.January, 2, 14, 4, 5, 0, time.UTC)
	n := Now{clock: func() time.Time { return fixed }}
	tests := []struct {
		name     string
		timezone string
		want     string
	}{
		{"default UTC", "", "Thursday, 2 January 2025, 14:04:05 UTC (UTC+00:00, UTC); RFC 3339: 2025-01-02T14:04:05Z"},
		{"UTC spelled lower case", "utc", "Thursday, 2 January 2025, 14:04:05 UTC (UTC+00:00, UTC); RFC 3339: 2025-01-02T14:04:05Z"},
		{"surrounding spaces", "  Europe/Berlin ", "Thursday, 2 January 2025, 15:04:05 CET (UTC+01:00, Europe/Berlin); RFC 3339: 2025-01-02T15:04:05+01:00"},
		{"Berlin", "Europe/Berlin", "Thursday, 2 January 2025, 15:04:05 CET (UTC+01:00, Europe/Berlin); RFC 3339: 2025-01-02T15:04:05+01:00"},
		{"New York crosses the date line back", "America/New_York", "Thursday, 2 January 2025, 09:04:05 EST (UTC-05:00, America/New_York); RFC 3339: 2025-01-02T09:04:05-05:00"},
		{"Tokyo", "Asia/Tokyo", "Thursday, 2 January 2025, 23:04:05 JST (UTC+09:00, Asia/Tokyo); RFC 3339: 2025-01-02T23:04:05+09:00"},
		{"half-hour offset", "Asia/Kolkata", "Thursday, 2 January 2025, 19:34:05 IST (UTC+05:30, Asia/Kolkata); RFC 3339: 2025-01-02T19:34:05+05:30"},
		{"next day", "Pacific/Kiritimati", "Friday, 3 January 2025, 04:04:05 +14 (UTC+14:00, Pacific/Kiritimati); RFC 3339: 2025-01-03T04:04:05+14:00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := n.Execute(context.Background(), NowArgs{Timezone: tt.timezone})
			if err != nil {
				t.Fatalf("Execute(%q) error: %v", tt.timezone, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Execute(%q) (-want +got):\n%s", tt.timezone, diff)
			}
		})
	}
}

func TestNowSummerTime(t *testing.T) {
	n := Now{clock: func() time.Time { return time.Date(2025, time.July, 1, 12, 0, 0, 0, time.UTC) }}
	got, err := n.Execute(context.Background(), NowArgs{Timezone: "Europe/Berlin"})
	if err != nil {
		t.Fatal(err)
	}
	want := "Tuesday, 1 July 2025, 14:00:00 CEST (UTC+02:00, Europe/Berlin); RFC 3339: 2025-07-01T14:00:00+02:00"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestNowErrors(t *testing.T) {
	tests := []struct {
		timezone string
		contains []string
	}{
		{"Mars/Olympus_Mons", []string{`"Mars/Olympus_Mons"`, "Europe/Berlin"}},
		{"Berlin", []string{`"Berlin"`, "Europe/Berlin"}},
		{"../../etc/passwd", []string{`"../../etc/passwd"`, "IANA"}},
		{"/etc/localtime", []string{`"/etc/localtime"`, "IANA"}},
		{"Local", []string{`"Local"`, "Europe/Berlin"}},
	}
	for _, tt := range tests {
		t.Run(tt.timezone, func(t *testing.T) {
			got, err := Now{}.Execute(context.Background(), NowArgs{Timezone: tt.timezone})
			if err == nil {
				t.Fatalf("Execute(%q) = %q, want an error", tt.timezone, got)
			}
			for _, s := range tt.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("Execute(%q) error %q does not contain %q", tt.timezone, err, s)
				}
			}
		})
	}
}

func TestNowZeroValueUsesSystemClock(t *testing.T) {
	before := time.Now().Add(-time.Second)
	got, err := Now{}.Execute(context.Background(), NowArgs{})
	if err != nil {
		t.Fatal(err)
	}
	after := time.Now().Add(time.Second)
	_, rfc, ok := strings.Cut(got, "RFC 3339: ")
	if !ok {
		t.Fatalf("no RFC 3339 time in %q", got)
	}
	ts, err := time.Parse(time.RFC3339, rfc)
	if err != nil {
		t.Fatalf("parse %q: %v", rfc, err)
	}
	if ts.Before(before.Truncate(time.Second)) || ts.After(after) {
		t.Errorf("time %v is not between %v and %v", ts, before, after)
	}
}

func TestNowCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Now{}).Execute(ctx, NowArgs{}); err == nil {
		t.Error("Execute with a cancelled context succeeded, want an error")
	}
}
