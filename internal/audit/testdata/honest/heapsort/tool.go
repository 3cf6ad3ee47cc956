// Package heapsort is an honest tool: a generic priority queue behind
// container/heap, sort.Sort over a generic slice type, an iterator of its
// own (range over func) and closures from a map.
package heapsort

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"iter"
	"sort"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Tool returns the k smallest words, and all of them sorted.
type Tool struct{}

// Args hold the words.
type Args struct {
	Words []string `json:"words"`
	K     int      `json:"k"`
	Order string   `json:"order"`
}

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "heapsort"} }

type pq[T cmp.Ordered] []T

func (q pq[T]) Len() int           { return len(q) }
func (q pq[T]) Less(i, j int) bool { return q[i] < q[j] }
func (q pq[T]) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *pq[T]) Push(x any)        { *q = append(*q, x.(T)) }
func (q *pq[T]) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

type byKey[T any] struct {
	items []T
	less  func(a, b T) bool
}

func (s byKey[T]) Len() int           { return len(s.items) }
func (s byKey[T]) Less(i, j int) bool { return s.less(s.items[i], s.items[j]) }
func (s byKey[T]) Swap(i, j int)      { s.items[i], s.items[j] = s.items[j], s.items[i] }

func smallest[T cmp.Ordered](in []T, k int) iter.Seq[T] {
	return func(yield func(T) bool) {
		q := pq[T](append([]T(nil), in...))
		heap.Init(&q)
		for i := 0; i < k && q.Len() > 0; i++ {
			if !yield(heap.Pop(&q).(T)) {
				return
			}
		}
	}
}

var orders = map[string]func(a, b string) bool{
	"len":   func(a, b string) bool { return len(a) < len(b) },
	"alpha": func(a, b string) bool { return a < b },
}

// Execute orders the words.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var b strings.Builder
	for w := range smallest(args.Words, args.K) {
		fmt.Fprintf(&b, "%s ", w)
	}
	less, ok := orders[args.Order]
	if !ok {
		return "", fmt.Errorf("unknown order %q", args.Order)
	}
	s := byKey[string]{items: append([]string(nil), args.Words...), less: less}
	sort.Sort(s)
	b.WriteString("| " + strings.Join(s.items, " "))
	return b.String(), nil
}
