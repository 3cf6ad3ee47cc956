package main

import "github.com/dave/jennifer/jen"

// entryDict is the toolreg.Entry literal of one tool.
func entryDict(t *toolInfo) jen.Dict {
	d := jen.Dict{
		jen.Id("ID"):          jen.Lit(t.ID),
		jen.Id("Name"):        jen.Lit(t.Name),
		jen.Id("Description"): jen.Lit(t.Desc),
		jen.Id("Timeout"):     durationCode(t.Timeout),
		jen.Id("Parameters"):  jen.Id("genSchema" + t.TypeName),
		jen.Id("File"):        jen.Lit(t.File),
		jen.Id("Invoke"):      jen.Id("genInvoke" + t.TypeName),
		jen.Id("Check"):       jen.Id("genCheck" + t.TypeName),
	}
	if t.Capabilities != 0 {
		d[jen.Id("Capabilities")] = capCode(t.Capabilities)
	}
	if t.Output != "" {
		d[jen.Id("Output")] = rawString(t.Output)
	}
	if t.Reaches != 0 {
		d[jen.Id("Reaches")] = capCode(t.Reaches)
	}
	return d
}

// capCode writes capability bits as tool.A | tool.B.
func capCode(bits uint64) jen.Code {
	var s *jen.Statement
	for _, cc := range capConsts {
		if bits&cc.bit == 0 {
			continue
		}
		if s == nil {
			s = jen.Qual(toolPkgPath, cc.name)
		} else {
			s = s.Op("|").Qual(toolPkgPath, cc.name)
		}
	}
	return s
}
