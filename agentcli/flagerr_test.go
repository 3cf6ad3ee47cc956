package agentcli

import (
	"errors"
	"testing"
)

func TestExitCode(t *testing.T) {
	if got := exitCode(errors.New("x")); got != exitFailed {
		t.Errorf("exitCode(plain) = %d, want %d", got, exitFailed)
	}
	if got := exitCode(errorsJoin(&usageError{errors.New("x")})); got != exitUsage {
		t.Errorf("exitCode(wrapped usage) = %d, want %d", got, exitUsage)
	}
}

func errorsJoin(err error) error { return errors.Join(errors.New("context"), err) }
