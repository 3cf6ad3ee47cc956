// Package shared holds argument types that tools of several packages
// use: their fields' doc comments are in this package, which toolgen
// reads from export data, without comments, and from this source file.
package shared

// Paging is embedded in the arguments of several tools.
type Paging struct {
	// Page is the page to read, from 1.
	Page int `json:"page,omitempty" jsonschema:"minimum=1,default=1"`
	// PerPage is how many items a page holds.
	PerPage int `json:"per_page,omitempty" jsonschema:"minimum=1,maximum=100,default=20"`
}

// Order is how to sort a list.
type Order struct {
	By string `json:"by" jsonschema:"enum=name,enum=date"` // By is the key to sort on: name (alphabetical) or date (newest first).
}
