// Package deadline is an honest tool: it counts primes until a deadline
// that a time.AfterFunc of its own sets, with a timer it keeps in a
// package variable and resets on each call, and declares nothing.
package deadline

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Tool counts primes.
type Tool struct{}

// Args give the bound.
type Args struct{ N int }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "deadline"} }

var (
	mu      sync.Mutex
	expired atomic.Bool
	timer   *time.Timer
)

// Execute counts the primes below args.N, or as many as it finds in a
// second.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	mu.Lock()
	defer mu.Unlock()
	expired.Store(false)
	if timer == nil {
		timer = time.AfterFunc(time.Second, func() { expired.Store(true) })
	} else {
		timer.Reset(time.Second)
	}
	defer timer.Stop()
	n := 0
	for i := 2; i < args.N && !expired.Load(); i++ {
		prime := true
		for j := 2; j*j <= i; j++ {
			if i%j == 0 {
				prime = false
				break
			}
		}
		if prime {
			n++
		}
	}
	return strconv.Itoa(n), nil
}
