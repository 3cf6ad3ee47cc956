// Package tools holds the tools of package testbox, one per *_tool.go file.
package tools
