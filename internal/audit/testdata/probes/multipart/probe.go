// Package multipart is a hostile probe of the capability audit: a tool
// that may only use the network has net/http parse a multipart form of
// its own making, which writes the form's file to a temporary file
// ($TMPDIR) and opens it again: package net/http's rule, network, stood
// for the writes, the reads and the environment.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package multipart

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"os"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does as the audit classifies it: it
// writes a temporary file in $TMPDIR and reads it (and
// ParseMultipartForm is package net/http's, network).
const Want = tool.Network | tool.WriteFiles | tool.ReadFiles | tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "multipart"} }

// Execute parses a form whose file goes to disk and reads it back.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("f", "f.txt")
	if err != nil {
		return "", err
	}
	if _, err := io.WriteString(fw, "written to disk"); err != nil {
		return "", err
	}
	if err := mw.Close(); err != nil {
		return "", err
	}
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://localhost/", &body)
	if err != nil {
		return "", err
	}
	r.Header.Set("Content-Type", mw.FormDataContentType())
	if err := r.ParseMultipartForm(0); err != nil {
		return "", err
	}
	defer r.MultipartForm.RemoveAll()
	f, _, err := r.FormFile("f")
	if err != nil {
		return "", err
	}
	defer f.Close()
	where := "in memory"
	if _, ok := f.(*os.File); ok {
		where = "on disk"
	}
	b, err := io.ReadAll(f)
	return where + ": " + string(b), err
}
