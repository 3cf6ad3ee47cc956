// Package jsonsecret is an honest pair of tools that decode JSON into
// types with UnmarshalJSON methods. Tool decodes a schedule whose
// durations parse themselves; Load decodes a configuration file whose
// secrets may name an environment variable ("env:NAME"), and Tool reads
// neither files nor the environment.
package jsonsecret

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Args hold a schedule or a path.
type Args struct {
	JSON string `json:"json"`
	Path string `json:"path"`
}

type duration struct{ time.Duration }

func (d *duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	d.Duration = v
	return err
}

type secret string

func (s *secret) UnmarshalJSON(b []byte) error {
	var v string
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if name, ok := strings.CutPrefix(v, "env:"); ok {
		v = os.Getenv(name)
	}
	*s = secret(v)
	return nil
}

type schedule struct {
	Every  duration   `json:"every"`
	Jitter duration   `json:"jitter"`
	Steps  []duration `json:"steps"`
}

type config struct {
	URL   string            `json:"url"`
	Token secret            `json:"token"`
	Extra map[string]secret `json:"extra"`
}

// Tool sums a schedule.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "jsonsecret", Description: "sum a schedule"}
}

// Execute decodes args.JSON.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var s schedule
	if err := json.Unmarshal([]byte(args.JSON), &s); err != nil {
		return "", err
	}
	total := s.Every.Duration + s.Jitter.Duration
	for _, d := range s.Steps {
		total += d.Duration
	}
	return total.String(), nil
}

// Load checks a configuration file.
type Load struct{}

// Definition declares read_files and env.
func (Load) Definition() tool.Definition {
	return tool.Definition{ID: "jsonsecret_load", Description: "check a configuration", Capabilities: tool.ReadFiles | tool.Env}
}

// Execute decodes the file at args.Path.
func (Load) Execute(ctx context.Context, args Args) (string, error) {
	b, err := os.ReadFile(args.Path)
	if err != nil {
		return "", err
	}
	var c config
	if err := json.Unmarshal(b, &c); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s (token set: %t, %d extra)", c.URL, c.Token != "", len(c.Extra)), nil
}
