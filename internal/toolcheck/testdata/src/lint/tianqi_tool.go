package lint

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Tianqi is described well, in Chinese.
type Tianqi struct{}

// TianqiArgs are its arguments.
type TianqiArgs struct {
	// 城市名称，例如北京或上海。
	City string `json:"city"`
}

// Definition describes it.
func (Tianqi) Definition() tool.Definition {
	return tool.Definition{ID: "tianqi", Description: "查询一个城市的实时天气和未来几天的预报。当用户询问天气时使用。"}
}

// Execute runs it.
func (Tianqi) Execute(ctx context.Context, args TianqiArgs) (string, error) {
	return "", nil
}
