package main

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/toolreg/toolreg/skill"
)

const skillPath = "github.com/toolreg/toolreg/skill"

// emitSkills writes Skills() and the table of skills behind it. The text
// of each skill is a string constant in the generated file, so the binary
// reads nothing from disk, and only the skills that passed the checks are
// in it (go:embed would take whatever the folder holds at build time).
func emitSkills(f *jen.File, st *skillTable) {
	if st == nil {
		return
	}
	f.ImportName(skillPath, "skill")
	f.Line()
	f.Comment(fmt.Sprintf("Skills returns the %d skills of directory %s, read from their SKILL.md files", len(st.Skills), st.Dir))
	f.Comment("and checked at generate time. Their text is compiled in: nothing is read from")
	f.Comment("disk. skill.MustNewSet checks the table; a generated one always passes.")
	f.Func().Id("Skills").Params().Op("*").Qual(skillPath, "Set").Block(
		jen.Return(jen.Qual(skillPath, "MustNewSet").Call(jen.Id("genSkills").Index(jen.Empty(), jen.Empty()).Op("..."))),
	)
	f.Line()
	f.Comment("genSkills are the skills, sorted by name.")
	f.Var().Id("genSkills").Op("=").Index(jen.Op("...")).Qual(skillPath, "Skill").ValuesFunc(func(g *jen.Group) {
		for i := range st.Skills {
			g.Values(skillDict(&st.Skills[i]))
		}
	})
}

// skillDict is the composite literal of one skill.
func skillDict(k *skill.Skill) jen.Dict {
	d := jen.Dict{
		jen.Id("Name"):        jen.Lit(k.Name),
		jen.Id("Description"): jen.Lit(k.Description),
		jen.Id("Source"):      jen.Lit(k.Source),
		jen.Id("Body"):        textCode(k.Body),
	}
	if k.License != "" {
		d[jen.Id("License")] = jen.Lit(k.License)
	}
	if k.Compatibility != "" {
		d[jen.Id("Compatibility")] = jen.Lit(k.Compatibility)
	}
	if len(k.AllowedTools) > 0 {
		d[jen.Id("AllowedTools")] = jen.Index().String().ValuesFunc(func(g *jen.Group) {
			for _, t := range k.AllowedTools {
				g.Lit(t)
			}
		})
	}
	if len(k.Metadata) > 0 {
		m := jen.Dict{}
		for key, v := range k.Metadata {
			m[jen.Lit(key)] = jen.Lit(v) // jen sorts the keys
		}
		d[jen.Id("Metadata")] = jen.Map(jen.String()).String().Values(m)
	}
	if len(k.Files) > 0 {
		m := jen.Dict{}
		for _, p := range k.FileNames() {
			m[jen.Lit(p)] = textCode(k.Files[p])
		}
		d[jen.Id("Files")] = jen.Map(jen.String()).String().Values(m)
	}
	return d
}

// textCode writes a text as raw string literals, for a readable generated
// file: the characters a raw string cannot hold (a backquote, a carriage
// return, which Go drops from raw strings, NUL and a byte order mark, which
// Go source cannot hold) are interpreted literals between them.
func textCode(s string) jen.Code {
	const special = "`\r\x00\uFEFF"
	if s == "" {
		return jen.Lit("")
	}
	var parts []jen.Code
	for s != "" {
		i := strings.IndexAny(s, special)
		if i < 0 {
			parts = append(parts, jen.Op("`"+s+"`"))
			break
		}
		if i > 0 {
			parts = append(parts, jen.Op("`"+s[:i]+"`"))
		}
		// A run of special characters in one literal.
		j := i
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if !strings.ContainsRune(special, r) {
				break
			}
			j += n
		}
		parts = append(parts, jen.Lit(s[i:j]))
		s = s[j:]
	}
	st := jen.Add(parts[0])
	for _, p := range parts[1:] {
		st.Op("+").Add(p)
	}
	return st
}
