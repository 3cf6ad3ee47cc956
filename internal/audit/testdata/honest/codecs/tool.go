// Package codecs is an honest pair of tools: both pick a compressor from
// a strategy map of constructors over an io.Writer. Tool compresses into
// a buffer and returns it in base64; Save picks a sink from a second map
// (a file, or standard output) and compresses into it, and Tool writes
// no file.
package codecs

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"

	"github.com/toolreg/toolreg/tool"
)

// Args hold a text and where to put it.
type Args struct {
	Text  string `json:"text"`
	Codec string `json:"codec"`
	Sink  string `json:"sink"`
	Path  string `json:"path"`
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

var encoders = map[string]func(io.Writer) io.WriteCloser{
	"gzip": func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) },
	"zlib": func(w io.Writer) io.WriteCloser { return zlib.NewWriter(w) },
	"none": func(w io.Writer) io.WriteCloser { return nopCloser{w} },
}

var sinks = map[string]func(path string) (io.WriteCloser, error){
	"file":   func(p string) (io.WriteCloser, error) { return os.Create(p) },
	"stdout": func(string) (io.WriteCloser, error) { return nopCloser{os.Stdout}, nil },
}

func compress(w io.Writer, codec string, data []byte) error {
	newEnc, ok := encoders[codec]
	if !ok {
		return fmt.Errorf("no codec %q", codec)
	}
	enc := newEnc(w)
	if _, err := enc.Write(data); err != nil {
		return err
	}
	return enc.Close()
}

// Tool compresses a text.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "codecs", Description: "compress"}
}

// Execute compresses args.Text into base64.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var buf bytes.Buffer
	if err := compress(&buf, args.Codec, []byte(args.Text)); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// Save compresses a text into a sink.
type Save struct{}

// Definition declares write_files, and read_files: os.Create opens the
// file for reading and writing.
func (Save) Definition() tool.Definition {
	return tool.Definition{ID: "codecs_save", Description: "compress to a file", Capabilities: tool.WriteFiles | tool.ReadFiles}
}

// Execute compresses args.Text into the sink.
func (Save) Execute(ctx context.Context, args Args) (string, error) {
	open, ok := sinks[args.Sink]
	if !ok {
		return "", fmt.Errorf("no sink %q", args.Sink)
	}
	w, err := open(args.Path)
	if err != nil {
		return "", err
	}
	if err := compress(w, args.Codec, []byte(args.Text)); err != nil {
		w.Close()
		return "", err
	}
	return "saved", w.Close()
}
