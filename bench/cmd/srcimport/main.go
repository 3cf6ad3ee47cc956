// Command srcimport times type-checking standard packages from their
// source for one platform, without cgo, with go/importer's source
// importer: what the audit would pay, where their export data is not in
// the build cache, in place of compiling them (`go list -export`).
//
//	srcimport -goos windows -goarch amd64 net/http os/exec
//
// It prints the time taken and the number of names the packages declare.
package main

import (
	"flag"
	"fmt"
	"go/build"
	"go/importer"
	"go/token"
	"go/types"
	"os"
	"runtime"
	"time"
)

func main() {
	goos := flag.String("goos", runtime.GOOS, "the platform's GOOS")
	goarch := flag.String("goarch", runtime.GOARCH, "the platform's GOARCH")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: srcimport [-goos os] [-goarch arch] package...")
		os.Exit(2)
	}
	// The source importer reads build.Default; this program's is the
	// platform's.
	build.Default.GOOS, build.Default.GOARCH, build.Default.CgoEnabled = *goos, *goarch, false
	imp := importer.ForCompiler(token.NewFileSet(), "source", nil).(types.ImporterFrom)
	start := time.Now()
	names := 0
	for _, path := range flag.Args() {
		pkg, err := imp.ImportFrom(path, ".", 0)
		if err != nil {
			fmt.Fprintf(os.Stderr, "srcimport: %s for %s/%s: %v\n", path, *goos, *goarch, err)
			os.Exit(1)
		}
		names += len(pkg.Scope().Names())
	}
	fmt.Printf("%s/%s: %d packages type-checked from source in %v (%d names)\n", *goos, *goarch, flag.NArg(), time.Since(start).Round(time.Millisecond), names)
}
