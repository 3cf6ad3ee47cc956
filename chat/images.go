package chat

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // image.DecodeConfig checks the header of an image shown
	_ "image/jpeg"
	_ "image/png"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/toolreg/toolreg/registry"
)

// The bounds of the images shown to the model in one turn (see
// Conversation.Images). An image past one is described in its tool
// message instead, with the reason. 5 MB an image is what vision APIs
// commonly take; 20 MB a turn keeps a request, in base64, well under the
// 50 MB OpenAI takes.
const (
	MaxImageBytes        = 5_000_000
	MaxImagesPerTurn     = 8
	MaxImageBytesPerTurn = 20_000_000
)

// maxImageNotes bounds the notes on the images and audio of one result,
// one a line; the rest are counted in one more line.
const maxImageNotes = 8

// imageTypes are the image types shown to the model, those the vision
// APIs take; others (SVG, which can hold script, above all) are described.
var imageTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// imageBounds are the bounds of the images shown in a turn: bytes an
// image, images, and bytes in all.
type imageBounds struct {
	item, count, total int
}

// defaultImageBounds are those of every Conversation; tests set smaller
// ones.
var defaultImageBounds = imageBounds{item: MaxImageBytes, count: MaxImagesPerTurn, total: MaxImageBytesPerTurn}

// turnImages counts the images shown to the model in one turn.
type turnImages struct {
	bounds       imageBounds
	count, bytes int
	// refused says that the endpoint refused images: none is shown.
	refused bool
}

// showImages decides which media of the results of a step's calls the
// model is shown, in the calls' order: it adds a note on each (shown or
// why not) to the call's tool message in tools, and returns the user
// message that shows them, or false when none is. results[i] is the
// result of calls[i], answered by tools[i].
func (ti *turnImages) showImages(calls []ToolCall, tools []Message, results []registry.Result) (Message, bool) {
	var parts []Part
	var kept []string
	for i, res := range results {
		if len(res.Media) == 0 {
			continue
		}
		var notes strings.Builder
		var shown []Part
		var described []string
		left := 0
		for _, m := range res.Media {
			typ, why := ti.admit(m)
			if why == "" {
				shown = append(shown, Part{Type: PartImage, ImageURL: &ImageURL{URL: "data:" + typ + ";base64," + base64.StdEncoding.EncodeToString(m.Data)}})
				described = append(described, fmt.Sprintf("%s, %d bytes", typ, len(m.Data)))
				fmt.Fprintf(&notes, "\n[%s, %d bytes: shown in the next message]", typ, len(m.Data))
				continue
			}
			if left++; left <= maxImageNotes {
				fmt.Fprintf(&notes, "\n[%s, %d bytes: not shown, %s]", shownType(m.MIMEType), len(m.Data), why)
			}
		}
		if left > maxImageNotes {
			fmt.Fprintf(&notes, "\n[%d more images or audio not shown]", left-maxImageNotes)
		}
		tools[i].Content += notes.String()
		if len(shown) == 0 {
			continue
		}
		label := fmt.Sprintf("The images the tool call %s (%s) returned:", calls[i].ID, calls[i].Function.Name)
		parts = append(parts, Part{Type: PartText, Text: label})
		parts = append(parts, shown...)
		kept = append(kept, label+" ["+strings.Join(described, "], [")+"]")
	}
	if parts == nil {
		return Message{}, false
	}
	return Message{Role: RoleUser, Content: strings.Join(kept, "\n"), Parts: parts}, true
}

// admit decides whether the model is shown m: it returns m's type as
// sent, or why it is not shown. An image shown is counted in ti.
func (ti *turnImages) admit(m registry.Media) (typ, why string) {
	if !m.Image() {
		return "", "the model is shown images only"
	}
	typ, _, err := mime.ParseMediaType(m.MIMEType)
	if err != nil || !isImageType(typ) {
		return "", "not a PNG, JPEG, GIF or WebP image"
	}
	b := ti.bounds
	switch {
	case ti.refused:
		return "", "the endpoint refused images earlier in this conversation"
	case len(m.Data) > b.item:
		return "", fmt.Sprintf("over %d bytes, the most an image shown", b.item)
	case !looksLike(typ, m.Data):
		return "", "its content is not of type " + typ
	case ti.count >= b.count:
		return "", fmt.Sprintf("this turn has shown %d images, the most it shows", b.count)
	case ti.bytes+len(m.Data) > b.total:
		return "", fmt.Sprintf("past %d bytes, the most the images of a turn shown", b.total)
	}
	ti.count++
	ti.bytes += len(m.Data)
	return typ, ""
}

func isImageType(typ string) bool {
	for _, t := range imageTypes {
		if typ == t {
			return true
		}
	}
	return false
}

// looksLike reports whether data begins as an image of typ does: its
// signature, and for PNG, JPEG and GIF a header that decodes. An image
// the endpoint cannot read would fail the whole request.
func looksLike(typ string, data []byte) bool {
	switch typ {
	case "image/webp":
		return len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP"
	case "image/png", "image/jpeg", "image/gif":
		_, format, err := image.DecodeConfig(bytes.NewReader(data))
		return err == nil && "image/"+format == typ
	}
	return false
}

// shownType is a MIME type as a note shows it: cut, on one line.
func shownType(typ string) string {
	typ = strings.Join(strings.Fields(typ), " ")
	if typ == "" {
		return "of no type"
	}
	if len(typ) > 100 {
		typ = strings.ToValidUTF8(typ[:100], "") + "…"
	}
	return typ
}

// refusedImages reports whether err, the failure of a request of msgs,
// is the endpoint refusing its images: some message of msgs shows images,
// and the endpoint answered 400, 413 or 422 with a message that speaks of
// images ("image_url is only supported by certain models", "Invalid
// image"), not of the context's length, say.
func refusedImages(err error, msgs []Message) bool {
	var ae *APIError
	if !errors.As(err, &ae) || !slices.ContainsFunc(msgs, func(m Message) bool { return m.Parts != nil }) {
		return false
	}
	switch ae.StatusCode {
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity:
		return strings.Contains(strings.ToLower(ae.Message), "image")
	}
	return false
}

// withoutImages returns msgs with the images of their Parts dropped, their
// text kept: what a conversation keeps once the turn that showed them is
// over.
func withoutImages(msgs []Message) []Message {
	for i := range msgs {
		msgs[i].Parts = nil
	}
	return msgs
}
