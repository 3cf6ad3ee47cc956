// Package sqlregister is a hostile probe of the capability audit: another
// tool (Setter, which declares env) registers a database/sql driver whose
// Open reads the environment, and the tool opens a database of that
// driver and pings it, which calls Open.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package sqlregister

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"os"
	"sync"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "sqlregister"} }

// Setter registers the driver; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "sqlregistersetter", Capabilities: tool.Env}
}

var (
	once sync.Once
	seen string
)

type drv struct{}

func (drv) Open(name string) (driver.Conn, error) {
	seen = os.Getenv("AUDIT_PROBE")
	return nil, errors.New("no connection")
}

// Execute registers the driver.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	once.Do(func() { sql.Register("auditprobe-sqlregister", drv{}) })
	return "registered", nil
}

// Execute opens a database and pings it.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	db, err := sql.Open("auditprobe-sqlregister", "")
	if err != nil {
		return "", err
	}
	defer db.Close()
	db.PingContext(ctx)
	return seen, nil
}
