package chat

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sashabaranov/go-openai"
	"github.com/toolreg/toolreg/registry"
)

// mediaTools is a registry.ToolSet whose tools answer fixed results, with
// media.
type mediaTools map[string]registry.Result

func (m mediaTools) Specs() []openai.Tool {
	var out []openai.Tool
	for _, name := range sortedKeys(m) {
		out = append(out, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: name, Description: "the " + name + " tool", Parameters: json.RawMessage(`{"type":"object"}`)}})
	}
	return out
}

func (m mediaTools) Call(_ context.Context, name, _ string) registry.Result { return m[name] }

// testPNG returns a PNG of 3×2 pixels, padded with zeros to size bytes
// when size is larger: a decoder reads the header only.
func testPNG(t testing.TB, size int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	if size > b.Len() {
		b.Write(make([]byte, size-b.Len()))
	}
	return b.Bytes()
}

func dataURL(typ string, data []byte) string {
	return "data:" + typ + ";base64," + base64.StdEncoding.EncodeToString(data)
}

// imagePart and textPart are content parts as the endpoint receives them.
func imagePart(typ string, data []byte) any {
	return map[string]any{"type": "image_url", "image_url": map[string]any{"url": dataURL(typ, data)}}
}

func textPart(s string) any { return map[string]any{"type": "text", "text": s} }

// toolMsg and userMsg are messages as the endpoint receives them.
func toolMsg(id, content string) any {
	return map[string]any{"role": "tool", "content": content, "tool_call_id": id}
}

func userMsg(content any) any { return map[string]any{"role": "user", "content": content} }

func callMsg(calls ...string) any {
	var tc []any
	for i := 0; i < len(calls); i += 2 {
		tc = append(tc, map[string]any{"id": calls[i], "type": "function", "function": map[string]any{"name": calls[i+1], "arguments": "{}"}})
	}
	return map[string]any{"role": "assistant", "content": "", "tool_calls": tc}
}

// shotTurn runs one turn in which the model calls shot, which answers
// text and media, with Images set to images, then answers; it returns the
// messages of the second request, as the endpoint received them.
func shotTurn(t *testing.T, images bool, bounds imageBounds, text string, media ...registry.Media) []any {
	t.Helper()
	f := newFake(t, toolAnswer("call_1", "shot", `{}`), answer("Seen."))
	conv := &Conversation{Client: f.client(nil), Images: images, imageBounds: bounds,
		Tools: mediaTools{"shot": {Text: text, Media: media}}}
	if _, err := conv.Turn(context.Background(), "Look."); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	return reqs[1].messages()
}

// TestImagesShown: an endpoint that takes images receives the tool
// message with its text and a note, then a user message that shows the
// image, labelled with the call; audio is described. The conversation
// keeps the image's description, not the image: the next turn sends text.
func TestImagesShown(t *testing.T) {
	pic := testPNG(t, 0)
	desc := fmt.Sprintf("the page\n[image: image/png, 3×2 pixels, %d bytes]\n[audio: audio/wav, 4 bytes]", len(pic))
	f := newFake(t, toolAnswer("call_1", "shot", `{}`), answer("A gray page."), answer("Yes."))
	conv := &Conversation{Client: f.client(nil), Images: true, Tools: mediaTools{"shot": {Text: desc, Media: []registry.Media{
		{MIMEType: "image/png", Data: pic}, {MIMEType: "audio/wav", Data: []byte("RIFF")}}}}}
	for _, q := range []string{"What is on the page?", "Sure?"} {
		if _, err := conv.Turn(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	tool := toolMsg("call_1", desc+fmt.Sprintf("\n[image/png, %d bytes: shown in the next message]", len(pic))+
		"\n[audio/wav, 4 bytes: not shown, the model is shown images only]")
	label := "The images the tool call call_1 (shot) returned:"
	want := []any{userMsg("What is on the page?"), callMsg("call_1", "shot"), tool,
		userMsg([]any{textPart(label), imagePart("image/png", pic)})}
	if diff := cmp.Diff(want, reqs[1].messages()); diff != "" {
		t.Errorf("request 2: messages (-want +got):\n%s", diff)
	}
	kept := userMsg(fmt.Sprintf("%s [image/png, %d bytes]", label, len(pic)))
	want = []any{userMsg("What is on the page?"), callMsg("call_1", "shot"), tool, kept,
		map[string]any{"role": "assistant", "content": "A gray page."}, userMsg("Sure?")}
	if diff := cmp.Diff(want, reqs[2].messages()); diff != "" {
		t.Errorf("request 3: messages (-want +got):\n%s", diff)
	}
	for _, m := range conv.Messages() {
		if m.Parts != nil {
			t.Errorf("the conversation keeps parts: %+v", m)
		}
	}
}

// TestImagesOff: an endpoint that does not take images receives the
// tool's text as it is, and no image.
func TestImagesOff(t *testing.T) {
	pic := testPNG(t, 0)
	got := shotTurn(t, false, imageBounds{}, "the page\n[image: image/png]", registry.Media{MIMEType: "image/png", Data: pic})
	want := []any{userMsg("Look."), callMsg("call_1", "shot"), toolMsg("call_1", "the page\n[image: image/png]")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

// TestImagesDenied: what is not shown is described with the reason, and
// never reaches the endpoint: an image past the bound of an image (one at
// it is shown), types other than PNG, JPEG, GIF and WebP (SVG with script
// above all), content not of its declared type, more images than the
// bound of a turn (a hundred), more bytes than the bound of a turn. The
// bounds are small here, so that the requests are; TestImageBounds checks
// the real ones.
func TestImagesDenied(t *testing.T) {
	pic := testPNG(t, 0)
	n := len(pic)
	bounds := imageBounds{item: 100, count: MaxImagesPerTurn, total: 450}
	atLimit, overLimit := testPNG(t, 100), testPNG(t, 101)
	webp := []byte("RIFF\x1a\x00\x00\x00WEBPVP8 \x0e\x00\x00\x00")
	many := make([]registry.Media, 100)
	for i := range many {
		many[i] = registry.Media{MIMEType: "image/png", Data: pic}
	}
	big := testPNG(t, 100)
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)
	tests := []struct {
		name   string
		bounds imageBounds // bounds when not zero
		media  []registry.Media
		notes  []string
		shown  []any // the image parts shown
	}{
		{
			name:  "size",
			media: []registry.Media{{MIMEType: "image/png", Data: atLimit}, {MIMEType: "image/png", Data: overLimit}},
			notes: []string{"[image/png, 100 bytes: shown in the next message]", "[image/png, 101 bytes: not shown, over 100 bytes, the most an image shown]"},
			shown: []any{imagePart("image/png", atLimit)},
		},
		{
			name: "type",
			media: []registry.Media{
				{MIMEType: "image/svg+xml", Data: svg},
				{MIMEType: "text/html", Data: []byte("<script>")},
				{MIMEType: "image/bmp", Data: []byte("BM")},
				{MIMEType: "image/png;;", Data: pic},
				{MIMEType: "", Data: pic},
				{MIMEType: "image/" + strings.Repeat("x", 200), Data: pic},
				{MIMEType: "IMAGE/PNG; charset=binary", Data: pic},
			},
			notes: []string{
				fmt.Sprintf("[image/svg+xml, %d bytes: not shown, not a PNG, JPEG, GIF or WebP image]", len(svg)),
				"[text/html, 8 bytes: not shown, the model is shown images only]",
				"[image/bmp, 2 bytes: not shown, not a PNG, JPEG, GIF or WebP image]",
				fmt.Sprintf("[image/png;;, %d bytes: not shown, not a PNG, JPEG, GIF or WebP image]", n),
				fmt.Sprintf("[of no type, %d bytes: not shown, the model is shown images only]", n),
				fmt.Sprintf("[image/%s…, %d bytes: not shown, not a PNG, JPEG, GIF or WebP image]", strings.Repeat("x", 94), n),
				fmt.Sprintf("[image/png, %d bytes: shown in the next message]", n),
			},
			shown: []any{imagePart("image/png", pic)},
		},
		{
			name: "content",
			media: []registry.Media{
				{MIMEType: "image/png", Data: []byte("<svg onload=alert(1)>")},
				{MIMEType: "image/jpeg", Data: pic},
				{MIMEType: "image/webp", Data: []byte("RIFF\x04\x00\x00\x00WAVE")},
				{MIMEType: "image/gif", Data: []byte("GIF89a")},
				{MIMEType: "image/webp", Data: webp},
			},
			notes: []string{
				"[image/png, 21 bytes: not shown, its content is not of type image/png]",
				fmt.Sprintf("[image/jpeg, %d bytes: not shown, its content is not of type image/jpeg]", n),
				"[image/webp, 12 bytes: not shown, its content is not of type image/webp]",
				"[image/gif, 6 bytes: not shown, its content is not of type image/gif]",
				fmt.Sprintf("[image/webp, %d bytes: shown in the next message]", len(webp)),
			},
			shown: []any{imagePart("image/webp", webp)},
		},
		{
			name:   "count",
			bounds: imageBounds{item: 100, count: MaxImagesPerTurn, total: 1000},
			media:  many,
			notes: slices.Concat(
				slices.Repeat([]string{fmt.Sprintf("[image/png, %d bytes: shown in the next message]", n)}, MaxImagesPerTurn),
				slices.Repeat([]string{fmt.Sprintf("[image/png, %d bytes: not shown, this turn has shown 8 images, the most it shows]", n)}, maxImageNotes),
				[]string{"[84 more images or audio not shown]"}),
			shown: slices.Repeat([]any{imagePart("image/png", pic)}, MaxImagesPerTurn),
		},
		{
			name:  "total",
			media: slices.Repeat([]registry.Media{{MIMEType: "image/png", Data: big}}, 5),
			notes: slices.Concat(
				slices.Repeat([]string{"[image/png, 100 bytes: shown in the next message]"}, 4),
				[]string{"[image/png, 100 bytes: not shown, past 450 bytes, the most the images of a turn shown]"}),
			shown: slices.Repeat([]any{imagePart("image/png", big)}, 4),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shotTurn(t, true, orBounds(tt.bounds, bounds), "shot", tt.media...)
			want := []any{userMsg("Look."), callMsg("call_1", "shot"), toolMsg("call_1", "shot\n"+strings.Join(tt.notes, "\n"))}
			if tt.shown != nil {
				want = append(want, userMsg(append([]any{textPart("The images the tool call call_1 (shot) returned:")}, tt.shown...)))
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
		})
	}
}

// TestImagesOfATurn: the images of the calls of one step are shown in one
// user message, each call's labelled, in the calls' order; the bound of a
// turn counts the images of its earlier steps.
func TestImagesOfATurn(t *testing.T) {
	pic := testPNG(t, 0)
	n := len(pic)
	six := slices.Repeat([]registry.Media{{MIMEType: "image/png", Data: pic}}, 6)
	f := newFake(t,
		sse(callStart(0, "call_1", "a"), callArgs(0, `{}`), callStart(1, "call_2", "b"), callArgs(1, `{}`), finish("tool_calls")),
		toolAnswer("call_3", "b", `{}`),
		answer("Seen."))
	conv := &Conversation{Client: f.client(nil), Images: true, Tools: mediaTools{
		"a": {Text: "a", Media: six[:1]},
		"b": {Text: "b", Media: six[:4]},
	}}
	if _, err := conv.Turn(context.Background(), "Look."); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	shown := fmt.Sprintf("\n[image/png, %d bytes: shown in the next message]", n)
	step1 := []any{userMsg("Look."), callMsg("call_1", "a", "call_2", "b"),
		toolMsg("call_1", "a"+shown), toolMsg("call_2", "b"+strings.Repeat(shown, 4)),
		userMsg([]any{
			textPart("The images the tool call call_1 (a) returned:"), imagePart("image/png", pic),
			textPart("The images the tool call call_2 (b) returned:"), imagePart("image/png", pic), imagePart("image/png", pic), imagePart("image/png", pic), imagePart("image/png", pic),
		})}
	if diff := cmp.Diff(step1, reqs[1].messages()); diff != "" {
		t.Errorf("request 2: messages (-want +got):\n%s", diff)
	}
	// Step 2: 5 shown so far, 3 more of 4.
	denied := fmt.Sprintf("\n[image/png, %d bytes: not shown, this turn has shown 8 images, the most it shows]", n)
	step2 := slices.Concat(step1, []any{callMsg("call_3", "b"), toolMsg("call_3", "b"+strings.Repeat(shown, 3)+denied),
		userMsg([]any{textPart("The images the tool call call_3 (b) returned:"), imagePart("image/png", pic), imagePart("image/png", pic), imagePart("image/png", pic)})})
	if diff := cmp.Diff(step2, reqs[2].messages()); diff != "" {
		t.Errorf("request 3: messages (-want +got):\n%s", diff)
	}
}

// TestImagesNotKept: a message's Parts are not marshalled with it (what
// a program keeps of a conversation holds no image), only sent.
func TestImagesNotKept(t *testing.T) {
	m := Message{Role: RoleUser, Content: "The images: [image/png, 4 bytes]", Parts: []Part{{Type: PartImage, ImageURL: &ImageURL{URL: "data:image/png;base64,AAAA"}}}}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"role":"user","content":"The images: [image/png, 4 bytes]"}`; string(b) != want {
		t.Errorf("marshalled %s, want %s", b, want)
	}
}

// TestImageBounds: the real bounds, at, below and past them.
func TestImageBounds(t *testing.T) {
	// One padded PNG, cut to each size: its header is at its start.
	n, data := len(testPNG(t, 0)), testPNG(t, MaxImageBytes+1)
	png := func(size int) registry.Media { return registry.Media{MIMEType: "image/png", Data: data[:max(size, n)]} }
	ti := &turnImages{bounds: defaultImageBounds}
	var got []string
	for _, m := range []registry.Media{png(MaxImageBytes - 1), png(MaxImageBytes), png(MaxImageBytes + 1)} {
		_, why := ti.admit(m)
		got = append(got, why)
	}
	want := []string{"", "", "over 5000000 bytes, the most an image shown"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("an image (-want +got):\n%s", diff)
	}
	// The bound of a turn: 20 MB shown, at it; a byte more, past it.
	ti = &turnImages{bounds: defaultImageBounds}
	got = nil
	for _, m := range []registry.Media{png(MaxImageBytes), png(MaxImageBytes), png(MaxImageBytes), png(MaxImageBytes - n), png(0), png(0)} {
		_, why := ti.admit(m)
		got = append(got, why)
	}
	want = []string{"", "", "", "", "", "past 20000000 bytes, the most the images of a turn shown"}
	if diff := cmp.Diff(want, got); diff != "" || ti.bytes != MaxImageBytesPerTurn {
		t.Errorf("the bytes of a turn, %d shown (-want +got):\n%s", ti.bytes, diff)
	}
	ti = &turnImages{bounds: defaultImageBounds}
	got = nil
	for range MaxImagesPerTurn + 1 {
		_, why := ti.admit(png(0))
		got = append(got, why)
	}
	want = append(slices.Repeat([]string{""}, MaxImagesPerTurn), "this turn has shown 8 images, the most it shows")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("images of a turn (-want +got):\n%s", diff)
	}
}

func orBounds(b, or imageBounds) imageBounds {
	if b == (imageBounds{}) {
		return or
	}
	return b
}

// TestImagesRefused: an endpoint that refuses the request that shows
// images (a model that takes none) gets it again with their descriptions,
// and the conversation shows no more; a refusal that does not speak of
// images (the context's length) is the turn's failure.
func TestImagesRefused(t *testing.T) {
	pic := testPNG(t, 0)
	n := len(pic)
	refusal := `{"error":{"message":"Invalid content type. image_url is only supported by certain models.","type":"invalid_request_error","param":"messages.[3].content.[1].type","code":null}}`
	f := newFake(t, toolAnswer("call_1", "shot", `{}`), jsonReply(400, refusal), answer("Seen."),
		toolAnswer("call_2", "shot", `{}`), answer("Again."))
	var ev events
	conv := &Conversation{Client: f.client(nil), Images: true, Sink: ev.sink,
		Tools: mediaTools{"shot": {Text: "shot", Media: []registry.Media{{MIMEType: "image/png", Data: pic}}}}}
	for _, q := range []string{"Look.", "Again."} {
		if _, err := conv.Turn(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	reqs := f.requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5", len(reqs))
	}
	label := "The images the tool call call_1 (shot) returned:"
	tool := toolMsg("call_1", fmt.Sprintf("shot\n[image/png, %d bytes: shown in the next message]", n))
	want := []any{userMsg("Look."), callMsg("call_1", "shot"), tool, userMsg([]any{textPart(label), imagePart("image/png", pic)})}
	if diff := cmp.Diff(want, reqs[1].messages()); diff != "" {
		t.Errorf("request 2: messages (-want +got):\n%s", diff)
	}
	want[3] = userMsg(fmt.Sprintf("%s [image/png, %d bytes]", label, n))
	if diff := cmp.Diff(want, reqs[2].messages()); diff != "" {
		t.Errorf("request 3, sent again: messages (-want +got):\n%s", diff)
	}
	want = append(want, map[string]any{"role": "assistant", "content": "Seen."}, userMsg("Again."), callMsg("call_2", "shot"),
		toolMsg("call_2", fmt.Sprintf("shot\n[image/png, %d bytes: not shown, the endpoint refused images earlier in this conversation]", n)))
	if diff := cmp.Diff(want, reqs[4].messages()); diff != "" {
		t.Errorf("request 5, the next turn: messages (-want +got):\n%s", diff)
	}
	if r := ev.ofType(EventRetry); len(r) != 1 || !strings.Contains(r[0].Error, "refused the images") {
		t.Errorf("retry events: %+v", r)
	}

	// Another refusal is the turn's.
	f = newFake(t, toolAnswer("call_1", "shot", `{}`), jsonReply(400, `{"error":{"message":"This model's maximum context length is 128000 tokens."}}`))
	conv = &Conversation{Client: f.client(nil), Images: true,
		Tools: mediaTools{"shot": {Text: "shot", Media: []registry.Media{{MIMEType: "image/png", Data: pic}}}}}
	if _, err := conv.Turn(context.Background(), "Look."); err == nil || len(f.requests()) != 2 {
		t.Errorf("context length: err %v after %d requests", err, len(f.requests()))
	}
}
