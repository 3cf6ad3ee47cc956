// Package startupjson is a hostile probe of the capability audit's
// start-up check: a package variable is initialised by json.Unmarshal into
// a type whose field's UnmarshalJSON reads the environment, and an init
// function reads it too: two start-up sites, each to be reported at its
// own position. It has no tool.
package startupjson

import (
	"encoding/json"
	"os"
)

// Ran records what the start-up code read.
var Ran []string

type trigger struct{}

func (*trigger) UnmarshalJSON([]byte) error {
	Ran = append(Ran, "var:"+os.Getenv("AUDIT_PROBE_START"))
	return nil
}

type config struct{ X trigger }

var conf = decode()

func decode() *config {
	var c config
	_ = json.Unmarshal([]byte(`{"X": 1}`), &c)
	return &c
}

func init() {
	Ran = append(Ran, "init:"+os.Getenv("AUDIT_PROBE_START"))
}
