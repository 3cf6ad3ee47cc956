package tool

import "context"

// ProgressFunc receives the progress a tool reports: done of total units
// (total is 0 when unknown) and a short message, which may be empty. ctx
// is the tool's, whose Call (CallFrom) names the tool. It must be safe for
// concurrent use and return quickly.
type ProgressFunc func(ctx context.Context, done, total float64, message string)

type progressKey struct{}

// WithProgress returns a copy of ctx whose calls of Progress go to f. The
// caller of a tool installs it: the MCP server, to send
// notifications/progress to a client that asked for them, or the agent, to
// show progress on its terminal.
func WithProgress(ctx context.Context, f ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// Progress reports how far the call of ctx has come: done of total units,
// total 0 when unknown, with an optional message such as "page 3 of 10".
// It does nothing when nobody listens, so a tool may call it freely; a
// report whose done does not exceed the last one may be dropped.
func Progress(ctx context.Context, done, total float64, message string) {
	if f, ok := ctx.Value(progressKey{}).(ProgressFunc); ok && f != nil {
		f(ctx, done, total, message)
	}
}
