// Package probes is a registry whose tools each try one way around the
// capability audit; the audit must find what each reaches. The tools
// named control* declare what they do and are generated.
package probes
