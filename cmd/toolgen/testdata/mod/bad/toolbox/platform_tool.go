//go:build windows

package toolbox
