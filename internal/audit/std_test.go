package audit

import (
	"context"
	"flag"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/tool"
)

var (
	update  = flag.Bool("update", false, "rewrite stdsummary.txt (with -std)")
	stdFlag = flag.Bool("std", false, "analyse the whole standard library: check stdsummary.txt and its classification (a separate check, about a minute: go test ./audit -run TestStd -std)")
)

// The standard library's graph, built once for the tests that need it.
var (
	stdOnce sync.Once
	stdG    *graph
	stdGErr error
)

func testStdGraph(t *testing.T) *graph {
	t.Helper()
	if !*stdFlag {
		t.Skip("analyses the whole standard library: run with -std")
	}
	stdOnce.Do(func() { stdG, stdGErr = stdGraph(context.Background()) })
	if stdGErr != nil {
		t.Fatal(stdGErr)
	}
	return stdG
}

// TestStdSummary rebuilds the standard-library summary and compares it
// with the one that ships; -update rewrites it.
func TestStdSummary(t *testing.T) {
	got := summaryText(testStdGraph(t))
	if *update {
		if err := os.WriteFile("stdsummary.txt", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != stdSummaryText {
		if !strings.HasPrefix(stdSummaryText, "# "+platform()+"\n") {
			t.Skipf("stdsummary.txt is for another release or platform than %s", platform())
		}
		t.Errorf("stdsummary.txt is stale: run go test ./audit -run TestStdSummary -std -update\n%s",
			cmp.Diff(strings.Split(stdSummaryText, "\n"), strings.Split(got, "\n")))
	}
}

// TestStdClassified walks the standard library's graph and fails for
// every function without a Go body, system call number or other boundary
// that some function reaches and the table leaves unclassified: fail
// closed makes them Unsafe, which a new Go release must not do silently.
func TestStdClassified(t *testing.T) {
	g := testStdGraph(t)
	var bad []string
	for _, n := range g.list {
		if !n.boundary || len(n.in) == 0 {
			continue
		}
		if strings.HasPrefix(n.why, "no Go body") || strings.HasPrefix(n.why, "unclassified") {
			bad = append(bad, n.key+" ("+n.why+")")
		}
	}
	slices.Sort(bad)
	if len(bad) > 0 {
		t.Errorf("%d boundaries of the standard library are not classified; add them to classify.go:\n\t%s", len(bad), strings.Join(bad, "\n\t"))
	}
}

// TestClassifiedUnsafe checks, in the shipped summary, functions of the
// standard library that once counted as safe by their package's name.
func TestClassifiedUnsafe(t *testing.T) {
	sum, err := parseSummary(stdSummaryText)
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]tool.Capability{
		"testing.MainStart":                 tool.Unsafe,
		"(*testing.B).TempDir":              tool.WriteFiles,
		"(*testing.common).Setenv":          tool.Env,
		"(*testing.common).Chdir":           tool.Env,
		"runtime/coverage.WriteCountersDir": tool.WriteFiles,
		"(reflect.Value).Methods":           tool.Unsafe,
		"go/importer.ForCompiler":           tool.ReadFiles,
	} {
		if got, _ := sum.caps(key); got&want != want {
			t.Errorf("%s reaches %s, want at least %s", key, got, want)
		}
	}
}

// TestRuleAdds checks, in the shipped summary, that a package's rule
// with capabilities is added to what its functions reach (a file opened
// through net/http or crypto/tls is read_files), and that the standard
// library's own reads there (the resolver's files, the system's roots,
// the proxy variables) count as the rule and nothing more.
func TestRuleAdds(t *testing.T) {
	sum, err := parseSummary(stdSummaryText)
	if err != nil {
		t.Fatal(err)
	}
	if sum.header != platform() || runtime.GOOS != "linux" {
		t.Skipf("stdsummary.txt is for %s", sum.header)
	}
	for key, want := range map[string]tool.Capability{
		"(net/http.Dir).Open":                    tool.Network | tool.ReadFiles,
		"(*net/http.Dir).Open":                   tool.Network | tool.ReadFiles,
		"net/http.ServeFile":                     tool.Network | tool.ReadFiles,
		"crypto/tls.LoadX509KeyPair":             tool.Network | tool.ReadFiles,
		"(*net/http.Server).ListenAndServeTLS":   tool.Network | tool.ReadFiles,
		"(*net/http.Request).ParseMultipartForm": tool.Network | tool.WriteFiles | tool.ReadFiles | tool.Env,
		"(*net/http.Request).FormFile":           tool.Network | tool.WriteFiles | tool.ReadFiles | tool.Env,
		"(*net.Interface).MulticastAddrs":        tool.Network | tool.ReadFiles,
		// The standard library's own reads.
		"net/http.Get":                     tool.Network,
		"(*net/http.Client).Do":            tool.Network,
		"net/http.ProxyFromEnvironment":    tool.Network,
		"var net/http.DefaultTransport":    tool.Network,
		"crypto/tls.Dial":                  tool.Network,
		"net.Dial":                         tool.Network,
		"net.LookupHost":                   tool.Network,
		"(*net.Resolver).LookupHost":       tool.Network,
		"net.Listen":                       tool.Network,
		"net/http.ListenAndServe":          tool.Network,
		"net/smtp.SendMail":                tool.Network,
		"log/syslog.New":                   tool.Network,
		"os/user.Current":                  tool.Env | tool.ReadFiles,
		"crypto/x509.SystemCertPool":       safe,
		"(*os/exec.Cmd).Run":               tool.Exec,
		"(*mime/multipart.Form).RemoveAll": safe,
	} {
		if got, _ := sum.caps(key); got != want {
			t.Errorf("%s reaches %s, want %s", key, got, want)
		}
	}
}

// TestIoctlSafe checks the harmless ioctl requests against package
// syscall's constants, and that any other request is Unsafe.
func TestIoctlSafe(t *testing.T) {
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		t.Skip("linux values")
	}
	want := map[int64]string{
		syscall.TCGETS: "TCGETS", syscall.TIOCGWINSZ: "TIOCGWINSZ", syscall.TIOCINQ: "FIONREAD",
		syscall.TIOCGPGRP: "TIOCGPGRP", 0x5450: "FIONCLEX", 0x5451: "FIOCLEX", 0x5421: "FIONBIO", // not in package syscall
	}
	if diff := cmp.Diff(want, ioctlSafe); diff != "" {
		t.Errorf("ioctlSafe (-want +got):\n%s", diff)
	}
	for _, req := range []int64{syscall.TIOCSTI, syscall.TIOCSCTTY, syscall.TIOCSWINSZ} {
		if _, ok := ioctlSafe[req]; ok {
			t.Errorf("request %#x, which changes the terminal, is taken as harmless", req)
		}
	}
}

// TestFcntlDup checks the fcntl commands that duplicate a descriptor
// against package syscall's constants.
func TestFcntlDup(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("linux values")
	}
	want := map[int64]bool{syscall.F_DUPFD: true, syscall.F_DUPFD_CLOEXEC: true}
	if diff := cmp.Diff(want, fcntlDup); diff != "" {
		t.Errorf("fcntlDup (-want +got):\n%s", diff)
	}
}

// TestMmapBits checks the bits of mmap's protection and flags that the
// classification reads against package syscall's constants.
func TestMmapBits(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("linux values")
	}
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"PROT_WRITE", protWrite, syscall.PROT_WRITE},
		{"MAP_SHARED|MAP_PRIVATE", mmapType, syscall.MAP_SHARED | syscall.MAP_PRIVATE},
		{"MAP_PRIVATE", mmapPrivate, syscall.MAP_PRIVATE},
		{"MAP_FIXED", mmapFixed &^ 0x100000, syscall.MAP_FIXED},
		{"MAP_ANONYMOUS", mmapAnon, syscall.MAP_ANONYMOUS},
	} {
		if c.got != c.want {
			t.Errorf("%s is %#x, syscall says %#x", c.name, c.got, c.want)
		}
	}
}
