package main

import "github.com/dave/jennifer/jen"

// entryDict is the toolreg.Entry literal of one tool.
func entryDict(t *toolInfo) jen.Dict {
	return jen.Dict{
		jen.Id("ID"):          jen.Lit(t.ID),
		jen.Id("Name"):        jen.Lit(t.Name),
		jen.Id("Description"): jen.Lit(t.Desc),
		jen.Id("Timeout"):     durationCode(t.Timeout),
		jen.Id("Parameters"):  jen.Id("genSchema" + t.TypeName),
		jen.Id("File"):        jen.Lit(t.File),
		jen.Id("Invoke"):      jen.Id("genInvoke" + t.TypeName),
		jen.Id("Check"):       jen.Id("genCheck" + t.TypeName),
	}
}
