package toolbox

import (
	"context"
	"encoding/json"

	"github.com/toolreg/toolreg/tool"
)

// BigNum takes a json.Number, a string type that encoding/json fills from
// a JSON number: as a string its schema said "string", and its decoder
// refused 42 and took "abc".
type BigNum struct{}

// BigNumArgs has a json.Number.
type BigNumArgs struct {
	// N is the number, such as 12345678901234567890.
	N json.Number `json:"n"`
}

// Definition describes bignum.
func (BigNum) Definition() tool.Definition {
	return tool.Definition{ID: "bignum", Description: "Take a big number. Use it when a test needs this case of the checks."}
}

// Execute does nothing.
func (BigNum) Execute(ctx context.Context, args BigNumArgs) (string, error) {
	return args.N.String(), nil
}
