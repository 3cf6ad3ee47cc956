package agentcli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolreg/toolreg/deferred"
	"github.com/toolreg/toolreg/registry"
)

// The -tool-search auto threshold: the model is offered search_tools
// instead of every tool when there are more tools than searchAboveTools,
// or their specs take more than searchAboveBytes of JSON (some 4,000
// tokens), paid again with every request.
const (
	searchAboveTools = 32
	searchAboveBytes = 16 << 10
)

// maxRequestTools is the most tools OpenAI's chat completions take in a
// request (past it: array_above_max_length); other endpoints may take
// more, so -tool-search off past it is warned about, not refused.
const maxRequestTools = 128

// searchMode is the -tool-search flag: auto, on or off.
type searchMode string

func (m *searchMode) String() string { return string(*m) }

func (m *searchMode) Set(v string) error {
	switch v {
	case "auto", "on", "off":
		*m = searchMode(v)
		return nil
	}
	return fmt.Errorf("want auto, on or off, not %q", v)
}

// searchOn reports whether the model is offered reg's tools through
// search_tools under mode m.
func (m searchMode) searchOn(reg *registry.Registry) bool {
	switch m {
	case "on":
		return true
	case "off":
		return false
	}
	if len(reg.Names()) > searchAboveTools {
		return true
	}
	b, err := json.Marshal(reg.Specs())
	return err == nil && len(b) > searchAboveBytes
}

// offered returns what a conversation offers the model of reg: reg itself,
// or, when tool search is on, a deferred view with the -pin tools loaded.
func (o *options) offered(reg *registry.Registry) (registry.ToolSet, error) {
	if !o.toolSearch.searchOn(reg) {
		return reg, nil
	}
	d, err := deferred.New(reg, deferred.Options{Pin: splitList(o.pin)})
	if err != nil {
		return nil, fmt.Errorf("-pin (TOOLREG_PIN) %q: %w", o.pin, err)
	}
	return d, nil
}

// searchAnswer is what search_tools answers the model for query over reg,
// as agent tools -search shows it.
func searchAnswer(reg *registry.Registry, query string) (string, error) {
	if strings.TrimSpace(query) == "" {
		return "", fmt.Errorf("-search: an empty query")
	}
	d, err := deferred.New(reg, deferred.Options{})
	if err != nil {
		return "", err
	}
	return d.Search(query), nil
}
