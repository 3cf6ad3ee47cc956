// Package tarlist is an honest pair of the capability audit: Tool lists
// the names in a tar archive into a file, its errors wrapped by a
// deferred fmt.Errorf (so its result err is a local variable that the
// errors of os.Open, tar.Reader.Next and os.WriteFile are stored in);
// Plain copies its argument to io.Discard, a variable of the standard
// library that tar.Reader.Next's results may point into. Neither keeps
// anything in the standard library's package state, and Plain is not
// charged with Tool's os.WriteFile.
package tarlist

import (
	"archive/tar"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args name the archive and the file the listing goes to.
type Args struct{ Archive, Out string }

// Tool lists an archive into a file.
type Tool struct{}

// Definition declares read_files and write_files.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "tarlist", Capabilities: tool.ReadFiles | tool.WriteFiles}
}

// Execute writes the names of the archive's entries, one a line.
func (Tool) Execute(ctx context.Context, args Args) (out string, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("tarlist: %w", err)
		}
	}()
	f, err := os.Open(args.Archive)
	if err != nil {
		return "", err
	}
	defer f.Close()
	tr := tar.NewReader(f)
	var names []string
	for {
		var hdr *tar.Header
		hdr, err = tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		names = append(names, hdr.Name)
	}
	list := strings.Join(names, "\n")
	err = os.WriteFile(args.Out, []byte(list), 0o644)
	return list, err
}

// Plain counts the bytes of its argument.
type Plain struct{}

// Definition declares nothing.
func (Plain) Definition() tool.Definition { return tool.Definition{ID: "tarlistplain"} }

// Execute copies the argument to io.Discard.
func (Plain) Execute(ctx context.Context, args Args) (string, error) {
	n, err := io.Copy(io.Discard, strings.NewReader(args.Archive))
	return strconv.FormatInt(n, 10), err
}
