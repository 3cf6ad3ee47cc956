// Package csvsum is an honest tool: it sums a CSV column with
// encoding/csv, and declares nothing.
package csvsum

import (
	"context"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Tool sums a column.
type Tool struct{}

// Args hold the CSV text and the column.
type Args struct {
	CSV    string
	Column int
}

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "csvsum"} }

// Execute sums args.Column of args.CSV.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	recs, err := csv.NewReader(strings.NewReader(args.CSV)).ReadAll()
	if err != nil {
		return "", fmt.Errorf("parse: %w", err)
	}
	sum := 0.0
	for _, r := range recs {
		if args.Column < len(r) {
			v, err := strconv.ParseFloat(r[args.Column], 64)
			if err == nil {
				sum += v
			}
		}
	}
	return fmt.Sprint(sum), nil
}
