// Package oncecache is an honest pair of tools sharing lazily made
// package state: a sync.Pool of buffers, and two sync.OnceValue of one
// type. Tool checksums its text with a table the first one builds;
// Config loads settings the second reads from a file named by the
// environment, and Tool reaches none of it.
package oncecache

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"hash/crc32"
	"os"
	"strings"
	"sync"

	"github.com/toolreg/toolreg/tool"
)

// Args hold a text or a key.
type Args struct {
	Text string `json:"text"`
	Key  string `json:"key"`
}

var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func withBuffer(f func(*bytes.Buffer) error) (string, error) {
	b := bufs.Get().(*bytes.Buffer)
	defer func() {
		b.Reset()
		bufs.Put(b)
	}()
	err := f(b)
	return b.String(), err
}

var builtin = sync.OnceValue(func() map[string]string {
	return map[string]string{"algo": "castagnoli", "format": "%08x"}
})

var settings = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	f, err := os.Open(os.Getenv("ONCECACHE_CONFIG"))
	if err != nil {
		return m
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			m[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return m
})

var table = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// Tool checksums a text.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "oncecache", Description: "checksum"}
}

// Execute checksums args.Text.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	cfg := builtin()
	return withBuffer(func(b *bytes.Buffer) error {
		_, err := fmt.Fprintf(b, cfg["format"]+" (%s)", crc32.Checksum([]byte(args.Text), table()), cfg["algo"])
		return err
	})
}

// Config shows a setting.
type Config struct{}

// Definition declares read_files and env.
func (Config) Definition() tool.Definition {
	return tool.Definition{ID: "oncecache_config", Description: "a setting", Capabilities: tool.ReadFiles | tool.Env}
}

// Execute shows settings()[args.Key].
func (Config) Execute(ctx context.Context, args Args) (string, error) {
	cfg := settings()
	return withBuffer(func(b *bytes.Buffer) error {
		_, err := fmt.Fprintf(b, "%s=%s", args.Key, cfg[args.Key])
		return err
	})
}
