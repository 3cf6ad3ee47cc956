//go:build !linux

package sandbox

import "os"

// workerPipe is one of a worker's pipes (see the Linux version: here it
// is never direct).
type workerPipe struct{ f *os.File }

func newWorkerPipe(f *os.File) *workerPipe { return &workerPipe{f: f} }

// makeDirect does nothing here.
func (p *workerPipe) makeDirect() bool { return false }

// release does nothing here.
func (p *workerPipe) release() {}

// Read implements io.Reader.
func (p *workerPipe) Read(b []byte) (int, error) { return p.f.Read(b) }

// Write implements io.Writer.
func (p *workerPipe) Write(b []byte) (int, error) { return p.f.Write(b) }

// poolPipe is the pool's end of a worker's pipe: an os.File here.
type poolPipe struct{ *os.File }

func newPoolPipe(f *os.File) (*poolPipe, error) { return &poolPipe{f}, nil }
