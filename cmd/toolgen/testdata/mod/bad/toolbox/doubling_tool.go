package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Doubling takes arguments of a chain of struct types each with two
// fields of the next: 15 types that describe 2^14 values, each struct
// written out at each use. At 2^16 toolgen ran for minutes, in
// gigabytes, before it wrote a registry of the same size; the model stops
// at toolcheck.MaxTypeNodes now. 2^14 leaves are past it still, and
// go/types checks the chain (validType, whose time doubles with each
// type, as the compiler's does: golang/go#65540) in a sixth of the time
// it took for 2^16, at each check of this package in toolgen's tests.
type Doubling struct{}

// D0 holds two of D1.
type D0 struct {
	// L is the left half.
	L D1 `json:"l"`
	// R is the right half.
	R D1 `json:"r"`
}

// D1 holds two of D2.
type D1 struct {
	// L is the left half.
	L D2 `json:"l"`
	// R is the right half.
	R D2 `json:"r"`
}

// D2 holds two of D3.
type D2 struct {
	// L is the left half.
	L D3 `json:"l"`
	// R is the right half.
	R D3 `json:"r"`
}

// D3 holds two of D4.
type D3 struct {
	// L is the left half.
	L D4 `json:"l"`
	// R is the right half.
	R D4 `json:"r"`
}

// D4 holds two of D5.
type D4 struct {
	// L is the left half.
	L D5 `json:"l"`
	// R is the right half.
	R D5 `json:"r"`
}

// D5 holds two of D6.
type D5 struct {
	// L is the left half.
	L D6 `json:"l"`
	// R is the right half.
	R D6 `json:"r"`
}

// D6 holds two of D7.
type D6 struct {
	// L is the left half.
	L D7 `json:"l"`
	// R is the right half.
	R D7 `json:"r"`
}

// D7 holds two of D8.
type D7 struct {
	// L is the left half.
	L D8 `json:"l"`
	// R is the right half.
	R D8 `json:"r"`
}

// D8 holds two of D9.
type D8 struct {
	// L is the left half.
	L D9 `json:"l"`
	// R is the right half.
	R D9 `json:"r"`
}

// D9 holds two of D10.
type D9 struct {
	// L is the left half.
	L D10 `json:"l"`
	// R is the right half.
	R D10 `json:"r"`
}

// D10 holds two of D11.
type D10 struct {
	// L is the left half.
	L D11 `json:"l"`
	// R is the right half.
	R D11 `json:"r"`
}

// D11 holds two of D12.
type D11 struct {
	// L is the left half.
	L D12 `json:"l"`
	// R is the right half.
	R D12 `json:"r"`
}

// D12 holds two of D13.
type D12 struct {
	// L is the left half.
	L D13 `json:"l"`
	// R is the right half.
	R D13 `json:"r"`
}

// D13 holds two of D14.
type D13 struct {
	// L is the left half.
	L D14 `json:"l"`
	// R is the right half.
	R D14 `json:"r"`
}

// D14 is a leaf.
type D14 struct {
	// X is the value of the leaf.
	X int `json:"x"`
}

// DoublingArgs holds the tree.
type DoublingArgs struct {
	// Root is the top of the tree.
	Root D0 `json:"root"`
}

// Definition describes doubling.
func (Doubling) Definition() tool.Definition {
	return tool.Definition{ID: "doubling", Description: "Take a large tree. Use it when a test needs this case of the checks."}
}

// Execute answers with a tree as large, which has no output schema.
func (Doubling) Execute(ctx context.Context, args DoublingArgs) (D0, error) {
	return args.Root, nil
}
