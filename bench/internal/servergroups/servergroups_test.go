package servergroups

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    []Group
		wantErr bool
	}{
		{args: []string{"a", "-x", "::", "http://1"}, want: []Group{{Argv: []string{"a", "-x"}, URL: "http://1"}}},
		{args: []string{"--", "a", "::", "u1", "--", "b", "c", "::", "u2"}, want: []Group{{Argv: []string{"a"}, URL: "u1"}, {Argv: []string{"b", "c"}, URL: "u2"}}},
		{args: nil, wantErr: true},
		{args: []string{"a", "::"}, wantErr: true},
		{args: []string{"::", "u"}, wantErr: true},
		{args: []string{"a", "::", "u", "b", "::", "v"}, wantErr: true},
	} {
		got, err := Parse(tc.args)
		if (err != nil) != tc.wantErr {
			t.Errorf("Parse(%q) error %v, want error %v", tc.args, err, tc.wantErr)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", tc.args, diff)
		}
	}
}
