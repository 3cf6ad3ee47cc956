package toolbox

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Menu builds a menu, as a tool whose recursive type recurs through a
// map: strict mode cannot state the map, so it has no strict schema.
type Menu struct{}

// MenuItem is an entry of a menu, which may open a submenu.
type MenuItem struct {
	// Label is the text the entry shows.
	Label string `json:"label"`
	// Sub maps the key of each entry of the submenu to it, if the entry
	// opens one.
	Sub map[string]MenuItem `json:"sub,omitempty"`
}

// MenuArgs are the arguments of menu.
type MenuArgs struct {
	// Items maps the key of each entry of the menu to it.
	Items map[string]MenuItem `json:"items"`
}

// Definition describes menu.
func (Menu) Definition() tool.Definition {
	return tool.Definition{ID: "menu", Description: "Build a menu of entries and submenus, by key. Use it when the user asks to lay out a menu."}
}

// Execute answers the menu, keys in order.
func (Menu) Execute(ctx context.Context, args MenuArgs) (string, error) {
	return menu(args.Items), nil
}

func menu(items map[string]MenuItem) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(items)) {
		s := k + ":" + items[k].Label
		if len(items[k].Sub) > 0 {
			s += "[" + menu(items[k].Sub) + "]"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}
