package toolbox

import "os"

func splitHelper(q string) string { return os.Getenv(q) }
