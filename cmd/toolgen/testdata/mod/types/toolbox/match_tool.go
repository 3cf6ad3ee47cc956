package toolbox

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Match tests a record against a condition, as a tool whose arguments
// struct is itself recursive: a condition is made of conditions.
type Match struct{}

// MatchArgs are the arguments of match: a condition.
type MatchArgs struct {
	// Field is the field the condition compares, if it compares one.
	Field string `json:"field,omitempty"`
	// Equals is the value the field must hold.
	Equals string `json:"equals,omitempty"`
	// All are conditions that must all hold.
	All []MatchArgs `json:"all,omitempty"`
	// Not is a condition that must not hold, if given.
	Not *MatchArgs `json:"not,omitempty"`
}

// Definition describes match.
func (Match) Definition() tool.Definition {
	return tool.Definition{ID: "match", Description: "Test whether a record meets a condition made of field comparisons. Use it when the user asks whether a record qualifies."}
}

// Execute answers the condition, written out.
func (Match) Execute(ctx context.Context, args MatchArgs) (string, error) {
	return condition(args), nil
}

func condition(c MatchArgs) string {
	var parts []string
	if c.Field != "" {
		parts = append(parts, c.Field+"="+c.Equals)
	}
	for _, a := range c.All {
		parts = append(parts, "("+condition(a)+")")
	}
	if c.Not != nil {
		parts = append(parts, "not("+condition(*c.Not)+")")
	}
	return fmt.Sprint(strings.Join(parts, " and "))
}
