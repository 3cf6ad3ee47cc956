// Package storeiface is an honest pair of tools over a Store interface
// (embedding a Getter) with two implementations: Tool counts words in a
// memory store its package makes at start; Save keeps values in files
// under a directory. Both use a helper over Getter; Tool touches no file.
package storeiface

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/toolreg/toolreg/tool"
)

// Args hold words or a key and value.
type Args struct {
	Text  string `json:"text"`
	Dir   string `json:"dir"`
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Getter gets values.
type Getter interface {
	Get(key string) (string, bool, error)
}

// Store keeps values.
type Store interface {
	Getter
	Put(key, value string) error
}

type memStore struct {
	mu sync.RWMutex
	m  map[string]string
}

func newMemStore() *memStore { return &memStore{m: map[string]string{}} }

func (s *memStore) Get(k string) (string, bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.m[k]
	return v, ok, nil
}

func (s *memStore) Put(k, v string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k] = v
	return nil
}

type fileStore struct{ dir string }

func (s fileStore) Get(k string) (string, bool, error) {
	b, err := os.ReadFile(filepath.Join(s.dir, k))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	return string(b), err == nil, err
}

func (s fileStore) Put(k, v string) error {
	return os.WriteFile(filepath.Join(s.dir, k), []byte(v), 0o644)
}

var counts Store = newMemStore()

func getInt(g Getter, k string) (int, error) {
	v, ok, err := g.Get(k)
	if err != nil || !ok {
		return 0, err
	}
	return strconv.Atoi(v)
}

func bump(s Store, k string) (int, error) {
	n, err := getInt(s, k)
	if err != nil {
		return 0, err
	}
	n++
	return n, s.Put(k, strconv.Itoa(n))
}

// Tool counts the words it has seen.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "storeiface", Description: "count words"}
}

// Execute counts args.Text's words in the memory store.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var b strings.Builder
	for _, w := range strings.Fields(args.Text) {
		n, err := bump(counts, w)
		if err != nil {
			return "", err
		}
		b.WriteString(w + "=" + strconv.Itoa(n) + " ")
	}
	return b.String(), nil
}

// Save keeps a value in a file store.
type Save struct{}

// Definition declares read_files and write_files.
func (Save) Definition() tool.Definition {
	return tool.Definition{ID: "storeiface_save", Description: "count in files", Capabilities: tool.ReadFiles | tool.WriteFiles}
}

// Execute bumps args.Key in args.Dir.
func (Save) Execute(ctx context.Context, args Args) (string, error) {
	n, err := bump(fileStore{dir: args.Dir}, args.Key)
	return strconv.Itoa(n), err
}
