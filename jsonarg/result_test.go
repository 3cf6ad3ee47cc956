package jsonarg

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestEncodeResult checks the text of a typed result: its error when
// Execute failed (the value ignored), its JSON otherwise, and a value that
// cannot be encoded.
func TestEncodeResult(t *testing.T) {
	type res struct {
		N int `json:"n"`
	}
	boom := errors.New("boom")
	for _, c := range []struct {
		name     string
		err      error
		wantText string
		wantErr  string
	}{
		{name: "value", wantText: `{"n":7}`, wantErr: "<nil>"},
		{name: "error", err: boom, wantErr: "boom"},
	} {
		text, err := EncodeResult(res{N: 7}, c.err)
		if text != c.wantText || fmt.Sprint(err) != c.wantErr {
			t.Errorf("%s: EncodeResult = %q, %v; want %q, %s", c.name, text, err, c.wantText, c.wantErr)
		}
	}
	if text, err := EncodeResult(func() {}, nil); text != "" || err == nil || !strings.HasPrefix(err.Error(), "encode result: json: unsupported type") {
		t.Errorf("EncodeResult of a func = %q, %v", text, err)
	}
	if text, err := EncodeResult([]int{1, 2}, nil); text != "[1,2]" || err != nil {
		t.Errorf("EncodeResult of a slice = %q, %v", text, err)
	}
}
