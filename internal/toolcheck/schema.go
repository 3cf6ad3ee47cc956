package toolcheck

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// fieldDocs maps the position of each struct field name in files to the
// field's doc comment (or, failing that, its line comment), as one
// paragraph per blank-line-separated block.
func fieldDocs(files []*ast.File) map[token.Pos]string {
	docs := map[token.Pos]string{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok {
				return true
			}
			for _, fl := range st.Fields.List {
				cg := fl.Doc
				if cg == nil {
					cg = fl.Comment
				}
				if cg == nil {
					continue
				}
				text := docText(cg.Text())
				for _, name := range fl.Names {
					docs[name.Pos()] = text
				}
				if len(fl.Names) == 0 { // embedded: go/types places it at its type's name
					if id := embeddedName(fl.Type); id != nil {
						docs[id.Pos()] = text
					}
				}
			}
			return true
		})
	}
	return docs
}

// typeArgsName names the type arguments of an instance, for a name to
// declare it by: "Int" for Pair[int], "StringInt" for Map[string, int];
// "My" when one has no name.
func typeArgsName(n *types.Named) string {
	var b strings.Builder
	for t := range n.TypeArgs().Types() {
		name := ""
		switch t := types.Unalias(t).(type) {
		case *types.Named:
			name = t.Obj().Name()
		case *types.Basic:
			name = t.Name()
		}
		if name == "" {
			return "My"
		}
		b.WriteString(strings.ToUpper(name[:1]) + name[1:])
	}
	return b.String()
}

// MaxTypeNodes is the most Go types, each use counted, that the arguments
// or the result of a tool may be described with: a struct used at several
// places is written out at each, in the schema and the decoder alike.
const MaxTypeNodes = 10_000

// maxForeignSource is the largest source file docOf parses for the doc
// comments of another package's fields.
const maxForeignSource = 8 << 20

// docOf returns the doc comment of struct field v. The tool package's are
// in its syntax; another package's types come from export data, which has
// positions but no comments, so its fields' are read from the source file
// the position names, parsed once (a package of the module that shares
// argument types, such as an embedded Paging). A file that cannot be read
// gives none, and the field is warned about as undocumented.
func (c *checker) docOf(v *types.Var) string {
	if doc, ok := c.docs[v.Pos()]; ok || v.Pkg() == nil || v.Pkg() == c.p.Types {
		return doc
	}
	pos := c.p.Fset.Position(v.Pos())
	if !pos.IsValid() || !filepath.IsAbs(pos.Filename) {
		return "" // $GOROOT/src/...: the standard library's, as export data names them
	}
	if c.foreignDocs == nil {
		c.foreignDocs = map[string]map[[2]int]string{}
	}
	docs, ok := c.foreignDocs[pos.Filename]
	if !ok {
		docs = sourceFieldDocs(pos.Filename)
		c.foreignDocs[pos.Filename] = docs
	}
	return docs[[2]int{pos.Line, pos.Column}]
}

// sourceFieldDocs parses the Go file name, a regular file of at most
// maxForeignSource bytes, and returns the doc comment of each struct field
// in it by the line and column of its name, as fieldDocs does; nil when it
// cannot be read.
func sourceFieldDocs(name string) map[[2]int]string {
	fi, err := os.Stat(name)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxForeignSource {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	out := map[[2]int]string{}
	for p, doc := range fieldDocs([]*ast.File{f}) {
		at := fset.Position(p)
		out[[2]int{at.Line, at.Column}] = doc
	}
	return out
}

// embeddedName returns the identifier that names an embedded field: T in
// T, *T, pkg.T and T[X].
func embeddedName(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.StarExpr:
			e = x.X
		case *ast.SelectorExpr:
			return x.Sel
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// docText joins the lines of each paragraph of a comment with spaces.
func docText(s string) string {
	var paras []string
	for _, p := range strings.Split(strings.TrimSpace(s), "\n\n") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			paras = append(paras, p)
		}
	}
	return strings.Join(paras, "\n\n")
}

// deriver turns an args type into the model, warning about what JSON
// Schema or the decoder cannot express.
type deriver struct {
	c  *checker
	at token.Pos // where to report problems that have no better position
	// lenient derivers, for result types, warn about nothing and do not
	// ask for descriptions: they only tell whether a schema can be made.
	lenient bool
}

func (d *deriver) warn(pos token.Pos, format string, args ...any) {
	if !d.lenient {
		d.c.warn(pos, format, args...)
	}
}

// frame is a named struct type being described, and its Type.
type frame struct {
	n *types.Named
	t *Type
}

// typeOf describes t; stack holds the named struct types being described,
// outermost first: a type met again inside itself is a Ref to the
// enclosing one, which is marked Recursive. It returns nil after a
// warning.
func (d *deriver) typeOf(t types.Type, stack []frame) *Type {
	// A struct type used twice is written out at each use, so that a
	// chain of types each with two fields of the next is described by a
	// tree that doubles with each link: a few lines of a tool file made
	// toolgen run without end. The model of one type stops at
	// MaxTypeNodes; see checkExecute.
	if d.c.nodes++; d.c.nodes > MaxTypeNodes {
		return nil
	}
	t = types.Unalias(t)
	out := &Type{}
	if d.c.isRawMessage(t) {
		// Spelled as encoding/json names it, whatever it is an alias of
		// (encoding/json/jsontext.Value from Go 1.27), so that the
		// generated code is the same on every release.
		out.Kind, out.Path, out.Name = KRaw, "encoding/json", "RawMessage"
		return out
	}
	if n, ok := t.(*types.Named); ok {
		if n.Obj().Pkg() != nil {
			out.Path = n.Obj().Pkg().Path()
		}
		out.Name = n.Obj().Name()
		if n.TypeArgs().Len() > 0 {
			// A defined type of the instance (type IntPair Pair[int]) has
			// the same fields and a name the registry can write.
			d.warn(d.at, "generic type %s is not supported in tool arguments: declare a type of it, type %s%s %s, and use that", types.TypeString(n, types.RelativeTo(d.c.p.Types)), typeArgsName(n), n.Obj().Name(), types.TypeString(n, types.RelativeTo(d.c.p.Types)))
			return nil
		}
		switch out.Path + "." + out.Name {
		case "time.Duration":
			out.Kind, out.Basic, out.Bits = KDuration, "int64", 64
			if d.lenient {
				// A result: encoding/json writes its nanoseconds.
				out.Kind = KInt
			}
			return out
		case "time.Time":
			out.Kind = KTime
			return out
		case "encoding/json.Number":
			// A string type that encoding/json reads from a JSON number
			// (or a string holding one) and writes as a number.
			if d.lenient {
				out.Kind, out.Basic, out.Bits = KFloat, "string", 64
				return out
			}
			d.warn(d.at, "type encoding/json.Number is not supported in tool arguments: encoding/json fills it from a JSON number (42), which the schema and decoder of a string type would refuse, while taking \"abc\"; use float64, an integer type, or a string")
			return nil
		case "net/url.URL":
			// No method of its own reads JSON: encoding/json fills its
			// fields from an object, which the standard library leaves
			// undescribed.
			d.warn(d.at, "type net/url.URL is not supported in tool arguments: encoding/json reads it as an object of its fields (Scheme, Host, Path...), not as a URL string; use a string and url.Parse it in Execute")
			return nil
		}
		if d.lenient && (hasMethod(n, "MarshalJSON") || hasMethod(n, "MarshalText")) {
			// A result that writes itself: what the method writes, which
			// its fields or kind do not describe, has no schema.
			return nil
		}
		if method, via := unmarshaler(n); method != "" {
			q := types.RelativeTo(d.c.p.Types)
			if via != nil {
				// Promoted from an embedded field: encoding/json calls it
				// for the whole struct, whose own fields it then leaves
				// unread, a trap the author did not write.
				d.warn(d.at, "type %s has the %s method of its embedded field %s, which encoding/json calls to read the whole %s, leaving its other fields unset: name the embedded field (%s %s `json:\"%s\"`)", types.TypeString(n, q), method, types.TypeString(via.Type(), q), n.Obj().Name(), via.Name(), types.TypeString(via.Type(), q), strings.ToLower(via.Name()))
				return nil
			}
			instead := "a string, number or struct of your own without the method"
			if b, ok := n.Underlying().(*types.Basic); ok {
				instead = b.Name()
			}
			d.warn(d.at, "type %s decodes itself with its method %s, which encoding/json calls and the schema and the generated decoder cannot follow: take %s, and convert the value in Execute", types.TypeString(n, q), method, instead)
			return nil
		}
		if !n.Obj().Exported() && n.Obj().Pkg() != nil && !d.lenient {
			d.warn(d.at, "type %s is unexported: the generated registry, in another package, cannot name it; export it", n.Obj().Name())
			return nil
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if out.Name == "" {
			out.Name = u.Name()
		}
		out.Basic = u.Name()
		switch k := u.Kind(); {
		case k == types.String:
			out.Kind = KString
		case k == types.Bool:
			out.Kind = KBool
		case k == types.Int || k == types.Int64:
			out.Kind, out.Bits = KInt, 64
		case k == types.Int8:
			out.Kind, out.Bits = KInt, 8
		case k == types.Int16:
			out.Kind, out.Bits = KInt, 16
		case k == types.Int32:
			out.Kind, out.Bits = KInt, 32
		case k == types.Uint || k == types.Uint64:
			out.Kind, out.Bits = KUint, 64
		case k == types.Uint8:
			out.Kind, out.Bits = KUint, 8
		case k == types.Uint16:
			out.Kind, out.Bits = KUint, 16
		case k == types.Uint32:
			out.Kind, out.Bits = KUint, 32
		case k == types.Float32:
			out.Kind, out.Bits = KFloat, 32
		case k == types.Float64:
			out.Kind, out.Bits = KFloat, 64
		default:
			d.warn(d.at, "type %s cannot be expressed in JSON Schema: use string, bool, an integer or float type, a slice, a map, a pointer or a struct", types.TypeString(t, nil))
			return nil
		}
		return out
	case *types.Pointer:
		if _, ok := t.(*types.Named); ok {
			d.warn(d.at, "named pointer type %s is not supported: use *T", t)
			return nil
		}
		if _, ok := u.Elem().Underlying().(*types.Pointer); ok {
			d.warn(d.at, "pointer to pointer %s is not supported", t)
			return nil
		}
		out.Kind = KPtr
		out.Elem = d.typeOf(u.Elem(), stack)
		if out.Elem == nil {
			return nil
		}
		return out
	case *types.Slice:
		if _, ok := t.(*types.Named); ok {
			d.warn(d.at, "named slice type %s is not supported: use []T", t)
			return nil
		}
		if b, ok := u.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			d.warn(d.at, "type %s is not supported (encoding/json reads it as base64): use string", t)
			return nil
		}
		out.Kind = KSlice
		out.Elem = d.typeOf(u.Elem(), stack)
		if out.Elem == nil {
			return nil
		}
		return out
	case *types.Map:
		if _, ok := t.(*types.Named); ok {
			d.warn(d.at, "named map type %s is not supported: use map[K]V", t)
			return nil
		}
		if b, ok := u.Key().Underlying().(*types.Basic); !ok || b.Kind() != types.String {
			d.warn(d.at, "map key type %s is not supported: JSON object keys are strings; use a string key type", types.TypeString(u.Key(), nil))
			return nil
		}
		out.Kind = KMap
		if out.Key = d.typeOf(u.Key(), stack); out.Key == nil {
			return nil
		}
		if out.Elem = d.typeOf(u.Elem(), stack); out.Elem == nil {
			return nil
		}
		return out
	case *types.Interface:
		if _, ok := t.(*types.Named); ok || !u.Empty() {
			d.warn(d.at, "interface type %s is not supported in tool arguments: use any for a value of any JSON type", types.TypeString(t, nil))
			return nil
		}
		out.Kind = KAny
		return out
	case *types.Struct:
		n, ok := t.(*types.Named)
		if !ok {
			d.warn(d.at, "anonymous struct type is not supported in tool arguments: declare a named struct type")
			return nil
		}
		if i := slices.IndexFunc(stack, func(f frame) bool { return f.n == n }); i >= 0 {
			stack[i].t.Recursive = true
			out.Kind, out.Ref = KStruct, true
			return out
		}
		out.Kind = KStruct
		ok = true
		inner := append(stack, frame{n, out})
		byJSON := map[string]*Field{}
		for i := range u.NumFields() {
			if v := u.Field(i); !d.lenient && (v.Exported() || v.Embedded()) {
				if msg := tagProblem(u.Tag(i)); msg != "" {
					d.warn(v.Pos(), "field %s: %s", v.Name(), msg)
					ok = false
					continue
				}
			}
			fs, good := d.embedded(u.Field(i), u.Tag(i), inner)
			if fs == nil && good {
				f, ignored := d.field(u.Field(i), u.Tag(i), inner)
				if ignored {
					continue
				}
				if f == nil {
					ok = false
					continue
				}
				fs = []*Field{f}
			}
			if !good {
				ok = false
				continue
			}
			for _, f := range fs {
				if other := byJSON[f.JSONName]; other != nil {
					d.warn(u.Field(i).Pos(), "field %s: json name %q is also the name of field %s (%s): rename one", f.GoName, f.JSONName, other.GoName, shadowing(f, other))
					ok = false
					continue
				}
				byJSON[f.JSONName] = f
				out.Fields = append(out.Fields, f)
			}
		}
		if !ok {
			return nil
		}
		return out
	default:
		d.warn(d.at, "type %s cannot be expressed in JSON Schema: use string, bool, an integer or float type, a slice, a map, a pointer or a struct", types.TypeString(t, nil))
		return nil
	}
}

// embedded describes an embedded struct field without a json name, whose
// fields encoding/json reads as the outer struct's: it returns them, each
// with GoName the selector from the outer struct ("Paging.Page"). It
// returns nil and good for any other field, and nil and not good after a
// warning.
func (d *deriver) embedded(v *types.Var, tag string, stack []frame) (fs []*Field, good bool) {
	if !v.Embedded() {
		return nil, true
	}
	jt := parseJSONTag(reflect.StructTag(tag).Get("json"))
	if jt.Skip || jt.Name != "" {
		return nil, true // left out, or a field with a name
	}
	ft := types.Unalias(v.Type())
	if p, isPtr := ft.(*types.Pointer); isPtr {
		if _, isStruct := p.Elem().Underlying().(*types.Struct); isStruct {
			d.warn(v.Pos(), "embedded pointer %s is not supported in tool arguments: embed %s, or name the field", types.TypeString(ft, types.RelativeTo(d.c.p.Types)), v.Name())
			return nil, false
		}
		return nil, true
	}
	if _, isStruct := ft.Underlying().(*types.Struct); !isStruct {
		return nil, true // a field named for its type
	}
	if !v.Exported() {
		d.warn(v.Pos(), "embedded type %s is unexported: encoding/json reads its fields as arguments, but the generated registry, in another package, cannot reach them; export it", v.Name())
		return nil, false
	}
	inner := &deriver{c: d.c, at: v.Pos(), lenient: d.lenient}
	st := inner.typeOf(ft, stack)
	if st == nil {
		return nil, false
	}
	if st.Recursive || st.Ref {
		// Its fields become the outer struct's, so there is no object of
		// its own for a $ref to name.
		d.warn(v.Pos(), "embedded type %s is recursive: encoding/json reads its fields as the outer struct's, which leaves no object of its own to refer to; name the field", v.Name())
		return nil, false
	}
	for _, f := range st.Fields {
		g := *f
		g.GoName = v.Name() + "." + f.GoName
		fs = append(fs, &g)
	}
	return fs, true
}

// field describes one struct field. It returns ignored for a field that
// encoding/json ignores too, and otherwise the field, or nil after a
// warning.
func (d *deriver) field(v *types.Var, tag string, stack []frame) (f *Field, ignored bool) {
	if !v.Exported() {
		return nil, true
	}
	st := reflect.StructTag(tag)
	jt := parseJSONTag(st.Get("json"))
	if jt.Skip {
		return nil, true
	}
	name := jt.Name
	if name == "" {
		name = v.Name()
	}
	f = &Field{GoName: v.Name(), JSONName: name, Doc: d.c.docOf(v)}
	inner := &deriver{c: d.c, at: v.Pos(), lenient: d.lenient}
	f.Type = inner.typeOf(v.Type(), stack)
	if f.Type == nil {
		return nil, false
	}
	f.Required = !jt.OmitEmpty && !jt.OmitZero && f.Type.Kind != KPtr
	bad := false
	if len(jt.Unknown) > 0 {
		d.warn(v.Pos(), "field %s: json tag option %q is not one encoding/json knows (omitempty, omitzero, string), so it does nothing: remove it", v.Name(), jt.Unknown[0])
		bad = true
	}
	if jt.String {
		switch f.Type.Kind {
		case KBool, KInt, KUint, KFloat:
			f.Quoted = true
		case KString, KPtr:
			d.warn(v.Pos(), "field %s: the json tag option \"string\" is supported on a number or a boolean, not on %s: remove it", v.Name(), kindName(f.Type))
			bad = true
		default:
			d.warn(v.Pos(), "field %s: the json tag option \"string\" applies to numbers and booleans, and encoding/json ignores it on %s: remove it", v.Name(), kindName(f.Type))
			bad = true
		}
	}
	if f.Doc == "" && !d.lenient {
		d.warn(v.Pos(), "parameter %q has no description: write a doc comment on field %s; the model reads it", name, v.Name())
		bad = true
	}
	if !validJSONName(name) {
		d.warn(v.Pos(), "field %s: json name %q is not usable: a parameter name is made of ASCII letters, digits, '_', '-' and '.'", v.Name(), name)
		bad = true
	}
	schemaTag := st.Get("jsonschema")
	if i := strings.IndexRune(schemaTag, '\ufeff'); i >= 0 {
		d.warn(v.Pos(), "field %s: the jsonschema tag holds a byte-order mark (U+FEFF) at byte %d, invisible and most likely pasted in: remove it", v.Name(), i)
		return nil, false
	}
	c, err := parseConstraints(schemaTag, f)
	if err != nil {
		d.warn(v.Pos(), "field %s: bad jsonschema tag: %v", v.Name(), err)
		bad = true
	}
	f.C = c
	if f.Quoted && len(c.Enum) > 0 {
		d.warn(v.Pos(), "field %s: enum is not supported with the json tag option \"string\": use minimum and maximum, or drop the option", v.Name())
		bad = true
	}
	if bad {
		return nil, false
	}
	if !d.lenient {
		for _, msg := range lintParam(f) {
			d.c.lint(v.Pos(), msg)
		}
	}
	return f, false
}

func validJSONName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// splitTag splits a jsonschema tag at commas not escaped by a backslash.
func splitTag(tag string) []string {
	var parts []string
	var cur strings.Builder
	for i := 0; i < len(tag); i++ {
		switch {
		case tag[i] == '\\' && i+1 < len(tag) && tag[i+1] == ',':
			cur.WriteByte(',')
			i++
		case tag[i] == ',':
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(tag[i])
		}
	}
	return append(parts, cur.String())
}

// parseConstraints reads a jsonschema tag: comma-separated key=value pairs
// (a literal comma is written \,), with the keys enum (repeated), minimum,
// maximum, default, minLength, maxLength, pattern, minItems and maxItems.
func parseConstraints(tag string, f *Field) (Constraints, error) {
	c := NoConstraints()
	if strings.TrimSpace(tag) == "" {
		return c, nil
	}
	vt := f.Type.Value()
	seen := map[string]bool{}
	for _, part := range splitTag(tag) {
		key, val, ok := strings.Cut(part, "=")
		key = strings.TrimSpace(key)
		if !ok {
			return c, fmt.Errorf("%q is not key=value", part)
		}
		if seen[key] && key != "enum" {
			return c, fmt.Errorf("%s given twice", key)
		}
		seen[key] = true
		switch key {
		case "enum":
			if vt.Kind == KDuration {
				return c, fmt.Errorf("enum does not apply to durations: use minimum and maximum")
			}
			lit, err := literal(vt, val)
			if err != nil {
				return c, fmt.Errorf("enum value: %w", err)
			}
			if slices.Contains(c.Enum, lit) {
				return c, fmt.Errorf("enum value %s given twice", lit)
			}
			c.Enum = append(c.Enum, lit)
		case "minimum", "maximum":
			if vt.Kind != KInt && vt.Kind != KUint && vt.Kind != KFloat && vt.Kind != KDuration {
				return c, fmt.Errorf("%s applies to numbers and durations, not %s", key, kindName(vt))
			}
			lit, err := literal(vt, val)
			if vt.Kind == KDuration && err == nil {
				lit = strconv.FormatInt(int64(durationOf(lit)), 10) // bounds are nanoseconds
			}
			if err != nil {
				return c, fmt.Errorf("%s: %w", key, err)
			}
			if key == "minimum" {
				c.Minimum = lit
			} else {
				c.Maximum = lit
			}
		case "default":
			lit, err := literal(vt, val)
			if err != nil {
				return c, fmt.Errorf("default: %w", err)
			}
			c.Default = lit
		case "minLength", "maxLength", "minItems", "maxItems":
			want := KString
			if strings.HasSuffix(key, "Items") {
				want = KSlice
			}
			if vt.Kind != want {
				return c, fmt.Errorf("%s applies to %s, not %s", key, kindName(&Type{Kind: want}), kindName(vt))
			}
			n, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil || n < 0 {
				return c, fmt.Errorf("%s must be a non-negative integer, got %q", key, val)
			}
			switch key {
			case "minLength":
				c.MinLength = n
			case "maxLength":
				c.MaxLength = n
			case "minItems":
				c.MinItems = n
			case "maxItems":
				c.MaxItems = n
			}
		case "pattern":
			if vt.Kind != KString {
				return c, fmt.Errorf("pattern applies to strings, not %s", kindName(vt))
			}
			if _, err := regexp.Compile(val); err != nil {
				return c, fmt.Errorf("pattern: %w", err)
			}
			c.Pattern = val
		default:
			return c, fmt.Errorf("unknown key %q (known: enum, minimum, maximum, default, minLength, maxLength, pattern, minItems, maxItems)", key)
		}
	}
	return c, checkConstraints(c, f)
}

// checkConstraints checks that the Constraints agree with each other and
// with the field.
func checkConstraints(c Constraints, f *Field) error {
	if c.Minimum != "" && c.Maximum != "" && cmpNum(c.Minimum, c.Maximum) > 0 {
		return fmt.Errorf("minimum %s is greater than maximum %s", c.Minimum, c.Maximum)
	}
	if c.MinLength >= 0 && c.MaxLength >= 0 && c.MinLength > c.MaxLength {
		return fmt.Errorf("minLength %d is greater than maxLength %d", c.MinLength, c.MaxLength)
	}
	if c.MinItems >= 0 && c.MaxItems >= 0 && c.MinItems > c.MaxItems {
		return fmt.Errorf("minItems %d is greater than maxItems %d", c.MinItems, c.MaxItems)
	}
	if c.Default == "" {
		return nil
	}
	switch {
	case f.Required:
		return fmt.Errorf("default on a required field: add omitempty to the json tag")
	case f.Type.Kind == KPtr:
		return fmt.Errorf("default on a pointer field: use a non-pointer field with omitempty")
	case len(c.Enum) > 0 && !slices.Contains(c.Enum, c.Default):
		return fmt.Errorf("default %s is not one of the enum values", c.Default)
	}
	def := c.Default
	if f.Type.Value().Kind == KDuration {
		def = strconv.FormatInt(int64(durationOf(def)), 10)
	}
	if c.Minimum != "" && cmpNum(def, c.Minimum) < 0 || c.Maximum != "" && cmpNum(def, c.Maximum) > 0 {
		return fmt.Errorf("default %s is outside minimum/maximum", c.Default)
	}
	return nil
}

// durationOf reads the JSON string literal of a duration that literal
// made.
func durationOf(lit string) time.Duration {
	var s string
	_ = json.Unmarshal([]byte(lit), &s)
	d, _ := time.ParseDuration(s)
	return d
}

// CompareNumbers compares two JSON number literals exactly, as -1, 0 or
// +1; see cmpNum.
func CompareNumbers(a, b string) int { return cmpNum(a, b) }

// cmpNum compares two number literals exactly, as -1, 0 or +1: through
// float64, 9007199254740993 and 9007199254740992 would be equal. A literal
// that does not parse (literal has checked them) compares as zero.
func cmpNum(a, b string) int {
	x, _ := new(big.Rat).SetString(a)
	y, _ := new(big.Rat).SetString(b)
	if x == nil {
		x = new(big.Rat)
	}
	if y == nil {
		y = new(big.Rat)
	}
	return x.Cmp(y)
}

func kindName(t *Type) string {
	switch t.Kind {
	case KString:
		return "strings"
	case KBool:
		return "booleans"
	case KInt, KUint:
		return "integers"
	case KFloat:
		return "numbers"
	case KSlice:
		return "arrays"
	case KStruct:
		return "objects"
	case KDuration:
		return "durations"
	case KTime:
		return "times"
	case KMap:
		return "maps"
	case KAny, KRaw:
		return "values of any type"
	case KPtr:
		return "pointers"
	}
	return "this type"
}

// literal parses a tag value as a value of t and returns its JSON text.
func literal(t *Type, val string) (string, error) {
	switch t.Kind {
	case KString:
		b, _ := json.Marshal(val)
		return string(b), nil
	case KBool:
		b, err := strconv.ParseBool(strings.TrimSpace(val))
		if err != nil {
			return "", fmt.Errorf("%q is not a boolean", val)
		}
		return strconv.FormatBool(b), nil
	case KInt:
		n, err := strconv.ParseInt(strings.TrimSpace(val), 10, t.Bits)
		if err != nil {
			return "", fmt.Errorf("%q is not an integer of %d bits", val, t.Bits)
		}
		return strconv.FormatInt(n, 10), nil
	case KUint:
		n, err := strconv.ParseUint(strings.TrimSpace(val), 10, t.Bits)
		if err != nil {
			return "", fmt.Errorf("%q is not an unsigned integer of %d bits", val, t.Bits)
		}
		return strconv.FormatUint(n, 10), nil
	case KFloat:
		f, err := strconv.ParseFloat(strings.TrimSpace(val), t.Bits)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return "", fmt.Errorf("%q is not a number", val)
		}
		return strconv.FormatFloat(f, 'g', -1, 64), nil
	case KDuration:
		d, err := time.ParseDuration(strings.TrimSpace(val))
		if err != nil {
			return "", fmt.Errorf("%q is not a duration such as 90s, 1m30s or 1.5h", val)
		}
		b, _ := json.Marshal(d.String())
		return string(b), nil
	}
	return "", fmt.Errorf("applies to strings, numbers and booleans, not %s", kindName(t))
}

// jsonTag is a json struct tag as encoding/json reads it: the tag "-"
// leaves the field out, and any other tag is a name (empty for the Go
// name; "-" itself for the tag "-,") and comma-separated options.
type jsonTag struct {
	Name                        string
	Skip                        bool
	OmitEmpty, OmitZero, String bool
	// Unknown holds the options encoding/json does not know, which it
	// ignores.
	Unknown []string
}

// parseJSONTag reads the json key of a struct tag, as encoding/json does.
func parseJSONTag(tag string) jsonTag {
	if tag == "-" {
		return jsonTag{Skip: true}
	}
	name, opts, _ := strings.Cut(tag, ",")
	jt := jsonTag{Name: name}
	if opts == "" {
		return jt
	}
	for _, o := range strings.Split(opts, ",") {
		switch o {
		case "omitempty":
			jt.OmitEmpty = true
		case "omitzero":
			jt.OmitZero = true
		case "string":
			jt.String = true
		default:
			jt.Unknown = append(jt.Unknown, o)
		}
	}
	return jt
}

// tagProblem says what in a struct tag reflect.StructTag cannot read, or
// returns "". reflect stops at the first key:"value" pair that is not in
// form, and reads a value that is not a Go string literal as absent, so
// that encoding/json and these checks would see no json or jsonschema key
// where the author wrote one: a pattern with \d in a raw string tag was
// dropped, with its bounds, without a word.
func tagProblem(tag string) string {
	for rest := tag; ; {
		rest = strings.TrimLeft(rest, " ")
		if rest == "" {
			return ""
		}
		i := 0
		for i < len(rest) && rest[i] > ' ' && rest[i] != ':' && rest[i] != '"' && rest[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(rest) || rest[i] != ':' || rest[i+1] != '"' {
			return fmt.Sprintf("the struct tag is not in the form key:\"value\" at %q, and reflect.StructTag (encoding/json, toolgen) reads no key from there on: quote each value", rest)
		}
		key := rest[:i]
		rest = rest[i+1:]
		j := 1
		for j < len(rest) && rest[j] != '"' {
			if rest[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(rest) {
			return fmt.Sprintf("the %s value of the struct tag has no closing quote, and reflect.StructTag (encoding/json, toolgen) reads no %s key: close it", key, key)
		}
		quoted := rest[:j+1]
		rest = rest[j+1:]
		if _, err := strconv.Unquote(quoted); err != nil {
			msg := fmt.Sprintf("the %s value of the struct tag, %s, is not a valid Go string literal, and reflect.StructTag (encoding/json, toolgen) reads no %s key at all", key, quoted, key)
			if strings.Contains(quoted, `\`) {
				msg += `: in a tag between back quotes, write each backslash of the value twice (pattern=^\\d+$)`
			}
			return msg
		}
	}
}

// jsonSkipped reports whether encoding/json leaves out the field with the
// struct tag tag.
func jsonSkipped(tag string) bool {
	return parseJSONTag(reflect.StructTag(tag).Get("json")).Skip
}

// unmarshaler returns the name of the method, UnmarshalJSON or
// UnmarshalText, that encoding/json would call to read a value of t, and
// the embedded field it is promoted through, nil for a method of t's own.
func unmarshaler(t *types.Named) (method string, via *types.Var) {
	for _, name := range []string{"UnmarshalJSON", "UnmarshalText"} {
		for _, tt := range []types.Type{t, types.NewPointer(t)} {
			sel := types.NewMethodSet(tt).Lookup(nil, name)
			if sel == nil {
				continue
			}
			if len(sel.Index()) > 1 {
				if st, ok := t.Underlying().(*types.Struct); ok {
					via = st.Field(sel.Index()[0])
				}
			}
			return name, via
		}
	}
	return "", nil
}

// shadowing says which of two fields of the same json name encoding/json
// reads it into: the one fewer embedded structs deep, the other never
// filled; at the same depth, neither, unless only one has a json tag.
func shadowing(a, b *Field) string {
	da, db := strings.Count(a.GoName, "."), strings.Count(b.GoName, ".")
	if da > db {
		a, b = b, a
	}
	if da != db {
		return fmt.Sprintf("encoding/json reads %q into %s, the less deeply embedded, and never fills %s", a.JSONName, a.GoName, b.GoName)
	}
	return "encoding/json reads it into neither, unless only one of them is named by a json tag"
}
