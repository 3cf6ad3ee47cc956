//go:build linux

package toolreg

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/toolreg/toolreg/internal/schemacase"
	"github.com/toolreg/toolreg/internal/testbox"
)

// readOnly returns a copy of s whose bytes are in a read-only mapping that
// ends right at an inaccessible guard page: writing any byte of it, or
// reading a byte past its end, faults (and the test binary dies with
// "unexpected fault address"). The mapping is never unmapped, so a tool
// may keep a string it decoded.
func readOnly(tb testing.TB, s string) string {
	tb.Helper()
	if s == "" {
		return ""
	}
	page := os.Getpagesize()
	data := (len(s) + page - 1) / page * page
	m, err := syscall.Mmap(-1, 0, data+page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		tb.Fatalf("mmap: %v", err)
	}
	off := data - len(s)
	copy(m[off:], s)
	if err := syscall.Mprotect(m[:data], syscall.PROT_READ); err != nil {
		tb.Fatalf("mprotect: %v", err)
	}
	if err := syscall.Mprotect(m[data:], syscall.PROT_NONE); err != nil {
		tb.Fatalf("mprotect: %v", err)
	}
	return unsafe.String(&m[off], len(s))
}

// fuzzCorpus returns the []byte values of the committed fuzz corpus of
// this package (testdata/fuzz/*/*): the nasty arguments found so far.
func fuzzCorpus(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob("testdata/fuzz/*/*")
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for line := range strings.Lines(string(data)) {
			q, ok := strings.CutPrefix(strings.TrimSpace(line), "[]byte(")
			if !ok {
				continue
			}
			v, err := strconv.Unquote(strings.TrimSuffix(q, ")"))
			if err != nil {
				tb.Fatalf("%s: %s: %v", f, line, err)
			}
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		tb.Fatal("no []byte values in testdata/fuzz/*/*")
	}
	return out
}

// TestArgumentsFromReadOnlyMemory hands every generated tool of this
// repository (toolbox and internal/testbox) arguments whose bytes are
// read-only, through Entry.Bind, Registry.Check and Registry.Call, strict
// and not: escapes, invalid UTF-8, nulls, repairs, the fuzz corpus and
// the cases derived from each schema. jsonarg.NewStringDecoder makes a
// []byte of a string's bytes; any write into it, or any read past its
// end, kills the test binary.
func TestArgumentsFromReadOnlyMemory(t *testing.T) {
	reg, err := Toolbox().With(testbox.Toolbox().Tools()...)
	if err != nil {
		t.Fatal(err)
	}
	strict := reg.WithStrict(true)
	// The tools that compute from their arguments alone are run (those
	// FuzzCall runs, and the test box's); the others (network, disks)
	// are only bound and checked.
	runnable := map[string]bool{}
	for _, name := range append(testbox.Toolbox().Names(), pureTools...) {
		runnable[name] = true
	}

	var corpus []string
	corpus = append(corpus, fuzzCorpus(t)...)
	for _, b := range toolSeeds(t, reg.Tools()) {
		corpus = append(corpus, string(b))
	}
	for _, e := range reg.Tools() {
		cases, err := schemacase.Cases(e.Parameters)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			corpus = append(corpus, c.Args)
		}
	}
	corpus = append(corpus,
		`{"text":"plain"}`, `{"text":"a\nb\u00e9\ud83d\ude00"}`, "{\"text\":\"bad \xff\xfe utf8 \xed\xa0\x80\"}",
		`{"text":"x","text":"y"}`, `{"text":null}`, `{"tags":null,"target":null}`,
		`{"tags":"[\"a\",\"b\"]","target":"{\"name\":\"n\",\"labels\":\"[\\\"l\\\"]\"}"}`,
		`"{\"text\":\"inner\"}"`, `"{\"tags\":[\"a\"]}"`, `  {"expression":"1+2"}  `,
		`{"TEXT":"case"}`, `{"text":"`+strings.Repeat("é", 5000)+`"}`, `{"text":"unterminated`,
		`{"expression":"2*3","precision":null}`, `{"timezone":"Europe/Berlin"}`, `{"text":"\u0000"}`,
	)

	ctx := context.Background()
	for _, args := range corpus {
		if len(args) > 4<<20 {
			continue
		}
		ro := readOnly(t, args)
		for _, e := range reg.Tools() {
			if run, err := e.Bind(ro); err == nil && runnable[e.Name] {
				_, _ = run(ctx)
			}
			_ = reg.Check(e.Name, ro)
			_ = strict.Check(e.Name, ro)
			if runnable[e.Name] {
				_ = reg.Call(ctx, e.Name, ro)
				_ = strict.Call(ctx, e.Name, ro)
			}
		}
	}
	t.Logf("%d argument texts from read-only memory", len(corpus))
}
