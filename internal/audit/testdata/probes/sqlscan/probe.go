// Package sqlscan is a hostile probe of the capability audit: a
// database/sql driver of its own returns an http.Dir as a column's value,
// and Rows.Scan stores it by reflection into the tool's variable of type
// http.FileSystem, through which the tool opens a file: no code of the
// program makes an http.Dir into an http.FileSystem.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package sqlscan

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"io"
	"net/http"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does as the audit classifies it: it
// reads a file (http.Dir.Open, which is package net/http's, network, as
// well; probe gobstd).
const Want = tool.Network | tool.ReadFiles

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "sqlscan"} }

type drv struct{}

func (drv) Open(string) (driver.Conn, error) { return conn{}, nil }

type conn struct{}

func (conn) Prepare(string) (driver.Stmt, error) { return stmt{}, nil }
func (conn) Close() error                        { return nil }
func (conn) Begin() (driver.Tx, error)           { return nil, driver.ErrSkip }

type stmt struct{}

func (stmt) Close() error                               { return nil }
func (stmt) NumInput() int                              { return 0 }
func (stmt) Exec([]driver.Value) (driver.Result, error) { return nil, driver.ErrSkip }
func (stmt) Query([]driver.Value) (driver.Rows, error)  { return &rows{}, nil }

type rows struct{ done bool }

func (*rows) Columns() []string { return []string{"fs"} }
func (*rows) Close() error      { return nil }
func (r *rows) Next(dest []driver.Value) error {
	if r.done {
		return io.EOF
	}
	r.done = true
	dest[0] = http.Dir(".")
	return nil
}

// Execute reads a file of the test's directory through the scanned value.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	db := sql.OpenDB(connector{})
	defer db.Close()
	var fsys http.FileSystem
	if err := db.QueryRowContext(ctx, "q").Scan(&fsys); err != nil {
		return "", err
	}
	f, err := fsys.Open("/probes_test.go")
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	return string(b[:min(len(b), 20)]), err
}

type connector struct{}

func (connector) Connect(context.Context) (driver.Conn, error) { return conn{}, nil }
func (connector) Driver() driver.Driver                        { return drv{} }
