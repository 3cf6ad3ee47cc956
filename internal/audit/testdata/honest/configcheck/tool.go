// Package configcheck is an honest tool: it checks that a configuration
// file can be read, with a Validate method on its arguments, and declares
// ReadFiles.
package configcheck

import (
	"context"
	"fmt"
	"os"

	"github.com/toolreg/toolreg/tool"
)

// Tool checks a configuration file.
type Tool struct{}

// Config names the file.
type Config struct{ Path string }

// Validate reads the file.
func (c Config) Validate() error {
	b, err := os.ReadFile(c.Path)
	if err != nil {
		return err
	}
	if len(b) == 0 {
		return fmt.Errorf("%s is empty", c.Path)
	}
	return nil
}

// Definition declares ReadFiles.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "configcheck", Capabilities: tool.ReadFiles}
}

// Execute validates the configuration.
func (Tool) Execute(ctx context.Context, args Config) (string, error) {
	if err := args.Validate(); err != nil {
		return "", err
	}
	return "ok", nil
}
