package toolbox

import (
	"context"
	"net/url"

	"github.com/toolreg/toolreg/tool"
)

// FetchURL takes a url.URL, which encoding/json reads as an object of its
// fields (Scheme, Host, Path...), not as the string a model would send.
type FetchURL struct{}

// FetchURLArgs has a url.URL.
type FetchURLArgs struct {
	// URL is the page to fetch, such as "https://example.com/".
	URL url.URL `json:"url"`
}

// Definition describes fetchurl.
func (FetchURL) Definition() tool.Definition {
	return tool.Definition{ID: "fetchurl", Description: "Fetch a web page. Use it when a test needs this case of the checks."}
}

// Execute does nothing.
func (FetchURL) Execute(ctx context.Context, args FetchURLArgs) (string, error) {
	return args.URL.String(), nil
}
