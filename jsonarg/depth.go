package jsonarg

import "strconv"

// MaxDepth is how deeply values of recursive types may nest in the
// arguments of a tool: a generated decoder reads a recursive struct type
// (type Node struct { Children []Node }) with a function of its own, which
// counts the values of recursive types around the one it reads, itself
// included, and refuses the value past MaxDepth with TooDeep, before
// reading it. The schema cannot state the limit; it keeps a hostile or
// runaway argument from growing the stack without bound. A tree 64 levels
// deep is far more than a model writes in a tool call.
const MaxDepth = 64

// TooDeep reports a value of a recursive type nested more than MaxDepth
// levels deep; the decoder locates it at its field's path.
func TooDeep() error {
	return Errorf("nested more than %s levels deep in values of a recursive type, the limit of tool arguments: send a shallower value", strconv.Itoa(MaxDepth))
}
