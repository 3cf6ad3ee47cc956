//go:build !linux

package main

import "errors"

// dropCache is Linux's only.
func dropCache(string) error { return errors.New("-cold is for Linux only") }
