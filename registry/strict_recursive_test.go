package registry

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/jsonarg"
)

// recursiveSchema is the strict schema of a recursive type as toolgen
// writes it: Node in $defs, used through an anyOf with a description, an
// array's items and a nullable anyOf; the arguments struct recursive
// through "#".
const recursiveSchema = `{"type":"object","properties":{` +
	`"root":{"description":"d","anyOf":[{"$ref":"#/$defs/Node"}]},` +
	`"not":{"description":"d","anyOf":[{"$ref":"#"},{"type":"null"}]}},` +
	`"required":["root","not"],"additionalProperties":false,` +
	`"$defs":{"Node":{"type":"object","properties":{` +
	`"name":{"type":["string","null"]},` +
	`"kids":{"type":["array","null"],"items":{"$ref":"#/$defs/Node"}},` +
	`"next":{"anyOf":[{"$ref":"#/$defs/Node"},{"type":"null"}]}},` +
	`"required":["name","kids","next"],"additionalProperties":false}}}`

// TestStrictNullsRecursive checks that a strict registry reads null as the
// field left out through $ref and anyOf, in the definitions and at the
// root, and not where the schema refuses null; and that it stops at the
// depth where the decoder refuses the value (jsonarg.MaxDepth definitions
// deep), at, below and past it.
func TestStrictNullsRecursive(t *testing.T) {
	var got string // the arguments the tool was given
	answer := func(ctx context.Context, args string) (string, error) {
		got = string(args)
		return "ok", nil
	}
	reg := mustNew(t, tableOf([]Entry{{Name: "rec", Bind: runs(answer), Timeout: time.Second,
		Parameters: `{"type":"object"}`, StrictParameters: recursiveSchema}})).WithStrict(true)
	// chain is a Node with n-1 Nodes nested through next, each with a
	// null name.
	// (Built outside in, in one pass: wrapping the text n times would
	// copy it n times, a second for the 5,000 levels below.)
	chain := func(n int) string {
		return strings.Repeat(`{"name":null,"kids":null,"next":`, n-1) + `{"name":null,"kids":null,"next":null}` + strings.Repeat(`}`, n-1)
	}
	chainWant := func(n, dropped int) string {
		var b strings.Builder
		for i := 1; i < n; i++ {
			if i <= dropped {
				b.WriteString(`{"next":`)
			} else {
				b.WriteString(`{"name":null,"kids":null,"next":`)
			}
		}
		if n <= dropped {
			b.WriteString(`{}`)
		} else {
			b.WriteString(`{"name":null,"kids":null,"next":null}`)
		}
		b.WriteString(strings.Repeat(`}`, n-1))
		return b.String()
	}
	max := jsonarg.MaxDepth
	for _, tc := range []struct{ name, args, want string }{
		{"every null dropped",
			`{"root":{"name":null,"kids":null,"next":null},"not":null}`,
			`{"root":{}}`},
		{"in items, next and the root again",
			`{"root":{"name":"a","kids":[{"name":null,"kids":[],"next":{"name":null,"kids":null,"next":null}}],"next":null},"not":{"root":{"name":null,"kids":null,"next":null},"not":null}}`,
			`{"root":{"name":"a","kids":[{"kids":[],"next":{}}]},"not":{"root":{}}}`},
		{"a required reference is not null", `{"root":null,"not":null}`, `{"root":null}`},
		{"white space kept", ` { "root" : { "name" : null , "kids" : [ ] , "next" : null } , "not" : null } `, ` { "root" : { "kids" : [ ] } } `},
		// A key given twice: that object is kept as it is, and nothing
		// after it dropped, for the decoder to refuse.
		{"a key twice, deeper",
			`{"root":{"name":null,"kids":[{"name":null,"name":null,"kids":null,"next":null}],"next":null},"not":null}`,
			`{"root":{"kids":[{"name":null,"name":null,"kids":null,"next":null}],"next":null},"not":null}`},
		{"a null key twice", `{"root":{"name":null,"name":null,"kids":null,"next":null},"not":null}`, `{"root":{"name":null,"name":null,"kids":null,"next":null},"not":null}`},
		{"an array element is not null", `{"root":{"name":"a","kids":[null],"next":null},"not":null}`, `{"root":{"name":"a","kids":[null]}}`},
		// The arguments struct is recursive (through "not"), so it is the
		// first level, as the decoder counts it, and the nodes under root
		// the next ones.
		{"below the depth limit", `{"root":` + chain(max-2) + `}`, `{"root":` + chainWant(max-2, max-2) + `}`},
		{"at the depth limit", `{"root":` + chain(max-1) + `}`, `{"root":` + chainWant(max-1, max-1) + `}`},
		{"past the depth limit", `{"root":` + chain(max) + `}`, `{"root":` + chainWant(max, max-1) + `}`},
		{"far past the depth limit", `{"root":` + chain(5000) + `}`, `{"root":` + chainWant(5000, max-1) + `}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got = ""
			if res := reg.Call(context.Background(), "rec", tc.args); res.Err != nil {
				t.Fatal(res.Err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("arguments as the tool reads them (-want +got):\n%.2000s", diff)
			}
		})
	}
	if !strings.Contains(chain(3), `"next":{"name":null`) {
		t.Fatal("chain nests nothing")
	}
}

// BenchmarkStrictNullsDeep measures what a strict registry spends on the
// nulls of a hostile argument, a recursive value nested 20,000 levels deep
// (about 1 MB, with a null at every level): it looks no deeper than
// jsonarg.MaxDepth levels. Valid is the check every strict call makes
// first, for comparison.
func BenchmarkStrictNullsDeep(b *testing.B) {
	answer := func(ctx context.Context, args string) (string, error) { return "ok", nil }
	reg := mustNew(b, tableOf([]Entry{{Name: "rec", Bind: runs(answer), Timeout: time.Second,
		Parameters: `{"type":"object"}`, StrictParameters: recursiveSchema}}))
	s := strings.Repeat(`{"name":null,"kids":null,"next":`, 20000) + `{"name":null,"kids":null,"next":null}` + strings.Repeat(`}`, 20000)
	args := `{"root":` + s + `,"not":null}`
	b.Run("dropNulls", func(b *testing.B) {
		b.SetBytes(int64(len(args)))
		for b.Loop() {
			reg.set.dropNulls(0, args)
		}
	})
	b.Run("Valid", func(b *testing.B) {
		b.SetBytes(int64(len(args)))
		for b.Loop() {
			jsonarg.Valid([]byte(args))
		}
	})
}
