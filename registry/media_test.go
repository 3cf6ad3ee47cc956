package registry

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestAttachMedia: the media a Run attaches, through its own context or
// one derived from it, reach the Result in their order; a failed call
// drops them; a call that attaches none has none; a redactor does not
// touch them.
func TestAttachMedia(t *testing.T) {
	png := Media{MIMEType: "image/png", Data: []byte("\x89PNG")}
	wav := Media{MIMEType: "audio/wav", Data: []byte("RIFF")}
	reg := mustNew(t, tableOf([]Entry{
		{Name: "shot", Timeout: time.Minute, Bind: runs(func(ctx context.Context, _ string) (string, error) {
			ok1 := AttachMedia(ctx, png)
			sub, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			ok2 := AttachMedia(sub, wav)
			if !ok1 || !ok2 {
				return "", errors.New("not attached")
			}
			return "[image: image/png, 4 bytes]\n[audio: audio/wav, 4 bytes]", nil
		})},
		{Name: "broken", Timeout: time.Minute, Bind: runs(func(ctx context.Context, _ string) (string, error) {
			AttachMedia(ctx, png)
			return "", errors.New("no page")
		})},
		{Name: "plain", Timeout: time.Minute, Bind: runs(func(context.Context, string) (string, error) { return "text", nil })},
	})).WithRedact(func(s string) string { return s })
	res := reg.Call(context.Background(), "shot", "{}")
	if diff := cmp.Diff([]Media{png, wav}, res.Media); diff != "" || res.Err != nil {
		t.Errorf("shot: %v; media (-want +got):\n%s", res.Err, diff)
	}
	if res := reg.Call(context.Background(), "broken", "{}"); res.Media != nil || res.Err == nil {
		t.Errorf("broken: %q with %d media", res.Text, len(res.Media))
	}
	if res := reg.Call(context.Background(), "plain", "{}"); res.Media != nil {
		t.Errorf("plain: %d media", len(res.Media))
	}
}

// TestAttachMediaOutsideCall: nothing is attached outside a call, nor by a
// tool's goroutine once its call is over, nor carried into the next call.
func TestAttachMediaOutsideCall(t *testing.T) {
	if AttachMedia(context.Background(), Media{MIMEType: "image/png"}) {
		t.Error("attached outside a call")
	}
	kept := make(chan context.Context, 1)
	reg := mustNew(t, tableOf([]Entry{{Name: "keep", Timeout: time.Minute, Bind: runs(func(ctx context.Context, _ string) (string, error) {
		select {
		case kept <- ctx:
		default:
		}
		return "ok", nil
	})}}))
	if res := reg.Call(context.Background(), "keep", "{}"); res.Media != nil {
		t.Fatalf("first call: %d media", len(res.Media))
	}
	if AttachMedia(<-kept, Media{MIMEType: "image/png"}) {
		t.Error("attached to a call that is over")
	}
	if res := reg.Call(context.Background(), "keep", "{}"); res.Media != nil {
		t.Errorf("next call: %d media", len(res.Media))
	}
}

func TestMediaImage(t *testing.T) {
	for typ, want := range map[string]bool{"image/png": true, "image/": false, "audio/wav": false, "": false, "IMAGE/PNG": true, "imag": false, "text/image/png": false} {
		if got := (Media{MIMEType: typ}).Image(); got != want {
			t.Errorf("Image of %q = %v, want %v", typ, got, want)
		}
	}
}
