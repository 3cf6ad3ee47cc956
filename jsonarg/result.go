package jsonarg

import (
	"encoding/json"
	"fmt"
)

// EncodeResult is the text of what a tool's Execute returned: its error
// when there is one, else its result encoded as JSON. Generated code passes
// it the results of Execute for tools that answer with a struct, as
// generated code is this package's only intended caller.
func EncodeResult[R any](v R, err error) (string, error) {
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode result: %w", err)
	}
	return string(b), nil
}
