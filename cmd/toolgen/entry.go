package main

import "github.com/dave/jennifer/jen"

// entryDict is the toolreg.Entry literal of one tool, whose schema is
// schema (schemaJSON).
func entryDict(t *toolInfo, schema string) jen.Dict {
	d := jen.Dict{
		jen.Id("ID"):          jen.Lit(t.ID),
		jen.Id("Name"):        jen.Lit(t.Name),
		jen.Id("Description"): jen.Lit(t.Desc),
		jen.Id("Timeout"):     durationCode(t.Timeout),
		jen.Id("Parameters"):  rawString(schema),
		jen.Id("File"):        jen.Lit(t.File),
		jen.Id("Bind"):        jen.Id("genBind" + t.TypeName),
	}
	if strict := strictSchemaJSON(t.Args); strict != "" {
		d[jen.Id("StrictParameters")] = rawString(strict)
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
	if s := shapeOf(t.Args); s != nil && len(s.Props) > 0 {
		d[jen.Id("Shape")] = jen.Op("&").Add(s.code())
	}
	return d
}

// shape is what the registry's argument repair needs to know of a
// parameter type (registry.Shape): whether it is an array or an object,
// and, inside, the properties and elements that hold arrays or objects.
type shape struct {
	Array, Object bool
	Props         []shapeProp
	Items         *shape
}

type shapeProp struct {
	Name  string
	Shape *shape
}

// shapeOf returns the shape of t, or nil for a type that is neither an
// array nor an object. A pointer has the shape of what it points to (its
// schema is the same), and the schema of a field never also allows a
// string where an array or an object is, so either is repaired.
func shapeOf(t *typ) *shape {
	switch t = t.Value(); t.Kind {
	case kSlice:
		s := &shape{Array: true}
		if items := shapeOf(t.Elem); items != nil && (items.Items != nil || len(items.Props) > 0) {
			s.Items = items
		}
		return s
	case kMap:
		return &shape{Object: true}
	case kStruct:
		s := &shape{Object: true}
		for _, f := range t.Fields {
			if fs := shapeOf(f.Type); fs != nil {
				s.Props = append(s.Props, shapeProp{Name: f.JSONName, Shape: fs})
			}
		}
		return s
	}
	return nil
}

// code writes s as a registry.Shape literal, on one line.
func (s *shape) code() jen.Code {
	var kv []jen.Code
	if s.Array {
		kv = append(kv, jen.Id("Array").Op(":").True())
	}
	if s.Object {
		kv = append(kv, jen.Id("Object").Op(":").True())
	}
	if len(s.Props) > 0 {
		props := make([]jen.Code, len(s.Props))
		for i, p := range s.Props {
			props[i] = jen.Values(jen.Id("Name").Op(":").Lit(p.Name), jen.Id("Shape").Op(":").Add(p.Shape.code()))
		}
		kv = append(kv, jen.Id("Props").Op(":").Index().Qual(registryPath, "Prop").Values(props...))
	}
	if s.Items != nil {
		kv = append(kv, jen.Id("Items").Op(":").Op("&").Add(s.Items.code()))
	}
	return jen.Qual(registryPath, "Shape").Values(kv...)
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
