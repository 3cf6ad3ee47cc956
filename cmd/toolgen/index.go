package main

import (
	"fmt"
	"math/bits"

	"github.com/dave/jennifer/jen"
)

// The lookup from a tool's name to its position in genEntries.
//
// A Go switch over the names is a binary search: its depth, and its
// unpredictable branches, grow with the number of tools (measured in
// BENCHMARKS.md: 1,000 tools took about three times as long as 10, names
// looked up in random order). genIndex is instead an open-addressing hash
// table built at generate time: the hash reads the name's length and its
// first and last eight bytes (two loads, two multiplications, no loop for
// a name of eight bytes or more), with a seed chosen so that the probes
// are short; the table, genSlots, is static data of two bytes a slot
// (four beyond 65,535 tools), at most half full; each probe compares the
// whole name with the entry's. No allocation, nothing at init, and the
// same few steps for any number of tools.

// indexSeeds is how many seeds emitIndex tries.
const indexSeeds = 64

// indexHash is the hash of genHash, for a table of 1<<bits slots. The
// emitted genHash must compute the same: see hashCode.
func indexHash(s string, seed uint64, bits int) int {
	n := len(s)
	var a, b uint64
	if n >= 8 {
		a = uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 | uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		t := s[n-8:]
		b = uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 | uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
	} else {
		for i := 0; i < n; i++ {
			a |= uint64(s[i]) << (8 * i)
		}
	}
	h := (a^seed)*0x9E3779B97F4A7C15 ^ (b+uint64(n))*0xC2B2AE3D27D4EB4F
	return int(h >> (64 - bits))
}

// hashCode is the source of genHash: indexHash with the seed and the table
// size as constants.
func hashCode(seed uint64, bits int) string {
	return fmt.Sprintf(`func genHash(s string) int {
	n := len(s)
	var a, b uint64
	if n >= 8 {
		a = uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 | uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		t := s[n-8:]
		b = uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 | uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
	} else {
		for i := 0; i < n; i++ {
			a |= uint64(s[i]) << (8 * i)
		}
	}
	h := (a^%#x)*0x9E3779B97F4A7C15 ^ (b+uint64(n))*0xC2B2AE3D27D4EB4F
	return int(h >> %d)
}`, seed, 64-bits)
}

// nameIndex is the hash table of a set of names.
type nameIndex struct {
	seed  uint64
	bits  int
	slots []int // index of the name in each slot, plus one; 0 when empty
}

// buildNameIndex lays out the table of names, trying indexSeeds seeds and
// keeping the one with the shortest longest probe, then the fewest probes
// in all.
func buildNameIndex(names []string) *nameIndex {
	nbits := max(1, bits.Len(uint(2*len(names)-1))) // 1<<nbits >= 2*len(names)
	var best *nameIndex
	bestLongest, bestTotal := 0, 0
	for k := range uint64(indexSeeds) {
		seed := k * 0x9E3779B97F4A7C15
		ix := &nameIndex{seed: seed, bits: nbits, slots: make([]int, 1<<nbits)}
		mask := len(ix.slots) - 1
		longest, total := 0, 0
		for i, name := range names {
			p, probes := indexHash(name, seed, nbits), 1
			for ix.slots[p] != 0 {
				p = (p + 1) & mask
				probes++
			}
			ix.slots[p] = i + 1
			longest, total = max(longest, probes), total+probes
		}
		if best == nil || longest < bestLongest || longest == bestLongest && total < bestTotal {
			best, bestLongest, bestTotal = ix, longest, total
		}
	}
	return best
}

// lookup does what the generated genIndex does, for tests.
func (ix *nameIndex) lookup(names []string, name string) int {
	for p := indexHash(name, ix.seed, ix.bits); ; p = (p + 1) & (len(ix.slots) - 1) {
		i := ix.slots[p] - 1
		if i < 0 || names[i] == name {
			return i
		}
	}
}

// emitIndex writes genIndex, which returns the position of the named tool
// in genEntries or -1, with its table genSlots and its hash genHash.
func emitIndex(f *jen.File, tools []*toolInfo) {
	f.Comment("genIndex returns the position of the named tool in genEntries, or -1: it")
	f.Comment("probes genSlots, a hash table laid out by toolgen, from the name's hash.")
	if len(tools) == 0 {
		f.Func().Id("genIndex").Params(jen.Id("name").String()).Int().Block(jen.Return(jen.Lit(-1)))
		return
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	ix := buildNameIndex(names)
	f.Func().Id("genIndex").Params(jen.Id("name").String()).Int().Block(
		jen.For(
			jen.Id("p").Op(":=").Id("genHash").Call(jen.Id("name")),
			jen.Empty(),
			jen.Id("p").Op("=").Parens(jen.Id("p").Op("+").Lit(1)).Op("&").Lit(len(ix.slots)-1),
		).Block(
			jen.Id("i").Op(":=").Int().Call(jen.Id("genSlots").Index(jen.Id("p"))).Op("-").Lit(1),
			jen.If(jen.Id("i").Op("<").Lit(0).Op("||").Id("genEntries").Index(jen.Id("i")).Dot("Name").Op("==").Id("name")).Block(
				jen.Return(jen.Id("i")),
			),
		),
	)
	f.Line()
	f.Comment("genHash hashes a name's length and its first and last eight bytes into a slot")
	f.Comment("of genSlots.")
	f.Op(hashCode(ix.seed, ix.bits))
	f.Line()
	f.Comment("genSlots holds, in each slot, the position in genEntries of the tool whose")
	f.Comment("name hashes there (or after it, when that slot was taken) plus one; zero when")
	f.Comment("the slot is empty.")
	elem := jen.Uint16()
	if wideSlots(len(names)) {
		elem = jen.Uint32()
	}
	f.Var().Id("genSlots").Op("=").Index(jen.Lit(len(ix.slots))).Add(elem).ValuesFunc(func(g *jen.Group) {
		for _, s := range ix.slots {
			g.Lit(s)
		}
	})
}

// wideSlots reports whether the slots of a table of n names need four
// bytes: a slot holds a position plus one, up to n.
func wideSlots(n int) bool { return n >= 1<<16-1 }
