package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolreg/toolreg/toolsearch"
)

const toolsearchPath = "github.com/toolreg/toolreg/toolsearch"

// emitSearch writes genSearch, the search index of the tools (see package
// toolsearch), built here so that a program searches its tools without
// indexing them at start; schemas are the tools' schemas (schemaJSON).
func emitSearch(f *jen.File, tools []*toolInfo, schemas []string) error {
	docs := make([]toolsearch.Doc, len(tools))
	for i, t := range tools {
		docs[i] = toolsearch.Doc{ID: t.ID, Name: t.Name, Description: t.Desc, Params: toolsearch.ParamsOf(schemas[i])}
	}
	x, err := toolsearch.Build(docs)
	if err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	terms := make([]string, len(x.Terms))
	for i, t := range x.Terms {
		terms[i] = strconv.Quote(t)
	}
	f.Line()
	f.Comment("genSearch is the search index of genEntries, in their order, built by toolgen")
	f.Comment("(see package toolsearch): the terms of the tools' names, descriptions and")
	f.Comment("parameters, sorted, and where each occurs.")
	f.Var().Id("genSearch").Op("=").Qual(toolsearchPath, "Index").Values(jen.Dict{
		jen.Id("Terms"):    jen.Index().String().Add(packed(terms)),
		jen.Id("Ends"):     jen.Index().Uint32().Add(packed(numbers(x.Ends))),
		jen.Id("Postings"): jen.Index().Uint32().Add(packed(numbers(x.Postings))),
		jen.Id("Lens"):     jen.Index().Uint32().Add(packed(numbers(x.Lens))),
	})
	return nil
}

func numbers(ns []uint32) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.FormatUint(uint64(n), 10)
	}
	return out
}

// packed writes the items of a composite literal, as they are spelled,
// several to a line of at most about 100 characters.
func packed(items []string) jen.Code {
	if len(items) == 0 {
		return jen.Values()
	}
	var lines []jen.Code
	var line strings.Builder
	for _, it := range items {
		if line.Len() > 0 && line.Len()+len(it)+2 > 100 {
			lines = append(lines, jen.Op(line.String()))
			line.Reset()
		}
		if line.Len() > 0 {
			line.WriteString(", ")
		}
		line.WriteString(it)
	}
	lines = append(lines, jen.Op(line.String()))
	return jen.CustomFunc(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, func(g *jen.Group) {
		for _, l := range lines {
			g.Add(l)
		}
	})
}
