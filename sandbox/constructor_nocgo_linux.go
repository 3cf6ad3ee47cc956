//go:build linux && !cgo

package sandbox

// hasConstructor: without cgo a worker has no constructor to make its
// namespaces in; the pool makes them when it starts the worker.
const hasConstructor = false

// constructorNamespaces: there is no constructor to make them.
func constructorNamespaces() (refused error) { return nil }
