package lint

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Shuzi is described in Chinese, without saying when to use it.
type Shuzi struct{}

// ShuziArgs are its arguments.
type ShuziArgs struct {
	// 数字。
	N int `json:"n"` // want `parameter "n": description "数字。" has 2 word\(s\), fewer than 3`
}

// Definition describes it.
func (Shuzi) Definition() tool.Definition {
	return tool.Definition{ID: "shuzi", Description: "把一个数字翻倍并返回结果。"} // want `does not say when to use the tool`
}

// Execute runs it.
func (Shuzi) Execute(ctx context.Context, args ShuziArgs) (string, error) {
	return "", nil
}
