package toolbox

import (
	"net/http"
	"os/exec"
)

func init() {
	_ = exec.Command("true").Run()
}

var fetched, _ = http.Get("http://127.0.0.1:1/")
