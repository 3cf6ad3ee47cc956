package agentcli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	"github.com/toolreg/toolreg/telemetry"
	"github.com/toolreg/toolreg/toolmcp"
)

// The parts of the Kubernetes objects that deploy/ and the binary must
// agree on; the test decodes the manifests into these rather than into
// the Kubernetes API types.
type (
	k8sObject struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Metadata   struct {
			Name string `yaml:"name"`
		} `yaml:"metadata"`
		Spec yaml.Node `yaml:"spec"`
	}
	deploymentSpec struct {
		Selector struct {
			MatchLabels map[string]string `yaml:"matchLabels"`
		} `yaml:"selector"`
		Template struct {
			Metadata struct {
				Labels map[string]string `yaml:"labels"`
			} `yaml:"metadata"`
			Spec struct {
				SecurityContext struct {
					RunAsNonRoot bool  `yaml:"runAsNonRoot"`
					RunAsUser    int64 `yaml:"runAsUser"`
				} `yaml:"securityContext"`
				Containers []container `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	}
	container struct {
		Name    string   `yaml:"name"`
		Command []string `yaml:"command"`
		Args    []string `yaml:"args"`
		Ports   []struct {
			Name          string `yaml:"name"`
			ContainerPort int    `yaml:"containerPort"`
		} `yaml:"ports"`
		Env []struct {
			Name      string `yaml:"name"`
			Value     string `yaml:"value"`
			ValueFrom *struct {
				SecretKeyRef *struct {
					Name string `yaml:"name"`
					Key  string `yaml:"key"`
				} `yaml:"secretKeyRef"`
			} `yaml:"valueFrom"`
		} `yaml:"env"`
		Readiness *probe `yaml:"readinessProbe"`
		Liveness  *probe `yaml:"livenessProbe"`
	}
	probe struct {
		HTTPGet *struct {
			Path string    `yaml:"path"`
			Port yaml.Node `yaml:"port"`
		} `yaml:"httpGet"`
	}
	serviceSpec struct {
		Selector map[string]string `yaml:"selector"`
		Ports    []struct {
			Port       int       `yaml:"port"`
			TargetPort yaml.Node `yaml:"targetPort"`
		} `yaml:"ports"`
	}
	hpaSpec struct {
		ScaleTargetRef struct {
			APIVersion string `yaml:"apiVersion"`
			Kind       string `yaml:"kind"`
			Name       string `yaml:"name"`
		} `yaml:"scaleTargetRef"`
		MinReplicas int `yaml:"minReplicas"`
		MaxReplicas int `yaml:"maxReplicas"`
	}
)

// repoRoot is the module root, two levels above this package.
var repoRoot = ".."

// manifests decodes every YAML document of deploy/*.yaml, by kind.
func manifests(t *testing.T) map[string][]k8sObject {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot, "deploy", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in deploy/: %v", err)
	}
	out := map[string][]k8sObject{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(b))
		for {
			var o k8sObject
			err := dec.Decode(&o)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out[o.Kind] = append(out[o.Kind], o)
		}
	}
	return out
}

func decodeSpec[T any](t *testing.T, o k8sObject) T {
	t.Helper()
	var v T
	if err := o.Spec.Decode(&v); err != nil {
		t.Fatalf("%s %s: spec: %v", o.Kind, o.Metadata.Name, err)
	}
	return v
}

func one(t *testing.T, objs map[string][]k8sObject, kind string) k8sObject {
	t.Helper()
	if len(objs[kind]) != 1 {
		t.Fatalf("%d objects of kind %s in deploy/, want 1", len(objs[kind]), kind)
	}
	return objs[kind][0]
}

// mcpArgs parses argv (the binary, "mcp", flags) with the agent's own flag
// set and returns the -http address.
func mcpArgs(t *testing.T, what string, argv []string) string {
	t.Helper()
	if len(argv) < 2 || argv[1] != "mcp" {
		t.Fatalf("%s runs %q, want the binary then mcp", what, argv)
	}
	var stderr bytes.Buffer
	c := &cli{tools: testTools, stdout: io.Discard, stderr: &stderr, getenv: func(string) string { return "" }}
	if cmd, _ := c.splitCommand(argv[1:]); cmd != "mcp" {
		t.Fatalf("%s: the agent reads the command %q, want mcp", what, cmd)
	}
	o, pos, code := c.parseFlags("mcp", argv[2:])
	if code >= 0 || len(pos) > 0 {
		t.Fatalf("%s: the flags %q do not parse as agent mcp's (code %d, extra %q): %s", what, argv[2:], code, pos, stderr.String())
	}
	if o.httpAddr == "" {
		t.Fatalf("%s: no -http address: the server would speak stdio", what)
	}
	return o.httpAddr
}

// portOf returns the port of a HOST:PORT address.
func portOf(t *testing.T, addr string) (host string, port int) {
	t.Helper()
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		t.Fatal(err)
	}
	return h, n
}

// resolvePort returns the container port a probe's or a service's port
// (a number or a port name) refers to, or 0.
func resolvePort(n yaml.Node, c container) int {
	if p, err := strconv.Atoi(n.Value); err == nil {
		return p
	}
	for _, p := range c.Ports {
		if p.Name == n.Value {
			return p.ContainerPort
		}
	}
	return 0
}

// documentedEnv reports whether the agent reads the variable name: it is
// in agent help env, or an OTEL_* variable of the SDK and exporters.
func documentedEnv(name string) bool {
	if strings.HasPrefix(name, "OTEL_") {
		return true
	}
	return regexp.MustCompile(`(?m)^\s+` + regexp.QuoteMeta(name) + `\s`).MatchString(envHelp)
}

// TestDeployManifests checks deploy/ against the binary: the command
// parses with agent mcp's flags and listens on the container port, the
// probes ask the health paths on it, the Service and the autoscaler point
// at it, every variable is one the agent reads, and the token comes from a
// Secret.
func TestDeployManifests(t *testing.T) {
	objs := manifests(t)
	dep := one(t, objs, "Deployment")
	ds := decodeSpec[deploymentSpec](t, dep)
	if len(ds.Template.Spec.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(ds.Template.Spec.Containers))
	}
	c := ds.Template.Spec.Containers[0]
	addr := mcpArgs(t, "the Deployment", append(slices.Clone(c.Command), c.Args...))
	host, port := portOf(t, addr)
	if len(c.Ports) != 1 || c.Ports[0].ContainerPort != port {
		t.Errorf("container ports %+v, want the one of -http %s", c.Ports, addr)
	}
	if ip := net.ParseIP(host); host == "" || host == "localhost" || ip != nil && ip.IsLoopback() {
		t.Errorf("-http %s is loopback: nothing outside the pod reaches it", addr)
	}
	for _, p := range []struct {
		name string
		p    *probe
		path string
	}{{"readinessProbe", c.Readiness, toolmcp.ReadyPath}, {"livenessProbe", c.Liveness, toolmcp.HealthPath}} {
		if p.p == nil || p.p.HTTPGet == nil {
			t.Errorf("no %s httpGet", p.name)
			continue
		}
		if p.p.HTTPGet.Path != p.path || resolvePort(p.p.HTTPGet.Port, c) != port {
			t.Errorf("%s asks %s on port %q, want %s on %d", p.name, p.p.HTTPGet.Path, p.p.HTTPGet.Port.Value, p.path, port)
		}
	}
	var tokenFromSecret bool
	for _, e := range c.Env {
		if !documentedEnv(e.Name) {
			t.Errorf("env %s is not a variable the agent reads (agent help env)", e.Name)
		}
		if e.Name == envMCPToken {
			tokenFromSecret = e.Value == "" && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && e.ValueFrom.SecretKeyRef.Name != ""
		}
	}
	if !tokenFromSecret {
		t.Errorf("the container does not take %s from a Secret", envMCPToken)
	}
	// Without the token, the binary refuses this address (before it
	// listens): the Secret is needed.
	if ln, err := listenMCP(context.Background(), addr, "", resolveIP, false); err == nil {
		ln.Close()
		t.Errorf("listenMCP(%s) without a token succeeded", addr)
	}
	if !ds.Template.Spec.SecurityContext.RunAsNonRoot || ds.Template.Spec.SecurityContext.RunAsUser == 0 {
		t.Errorf("the pod may run as root: %+v", ds.Template.Spec.SecurityContext)
	}
	if d := cmp.Diff(ds.Selector.MatchLabels, ds.Template.Metadata.Labels); d != "" {
		t.Errorf("the selector does not match the pod labels (-selector +labels):\n%s", d)
	}

	svc := decodeSpec[serviceSpec](t, one(t, objs, "Service"))
	if d := cmp.Diff(ds.Selector.MatchLabels, svc.Selector); d != "" {
		t.Errorf("the Service selects other pods (-deployment +service):\n%s", d)
	}
	if len(svc.Ports) != 1 || resolvePort(svc.Ports[0].TargetPort, c) != port {
		t.Errorf("Service ports %+v, want one targeting %d", svc.Ports, port)
	}

	hpa := decodeSpec[hpaSpec](t, one(t, objs, "HorizontalPodAutoscaler"))
	if got, want := hpa.ScaleTargetRef, (struct{ APIVersion, Kind, Name string }{dep.APIVersion, dep.Kind, dep.Metadata.Name}); got.APIVersion != want.APIVersion || got.Kind != want.Kind || got.Name != want.Name {
		t.Errorf("the autoscaler targets %+v, want %+v", got, want)
	}
	if hpa.MinReplicas < 1 || hpa.MaxReplicas < hpa.MinReplicas {
		t.Errorf("replicas %d to %d", hpa.MinReplicas, hpa.MaxReplicas)
	}
}

// dockerfile returns the instructions of the Dockerfile's last stage, as
// instruction → arguments, and the FROM lines.
func dockerfile(t *testing.T) (last map[string][]string, froms []string) {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		instr, rest, _ := strings.Cut(line, " ")
		instr = strings.ToUpper(instr)
		if instr == "FROM" {
			froms = append(froms, rest)
			last = map[string][]string{}
		}
		if last != nil {
			last[instr] = append(last[instr], strings.TrimSpace(rest))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return last, froms
}

// TestDockerfile checks that the image's ENTRYPOINT parses with agent
// mcp's flags, that it exposes the -http port and that the deploy/
// Deployment runs the same command; that the binary is static and the
// user is not root.
func TestDockerfile(t *testing.T) {
	last, froms := dockerfile(t)
	if len(froms) < 2 {
		t.Fatalf("FROM %q: want a build stage and a runtime stage", froms)
	}
	if len(last["ENTRYPOINT"]) != 1 {
		t.Fatalf("ENTRYPOINT %q, want one", last["ENTRYPOINT"])
	}
	var entry []string
	if err := json.Unmarshal([]byte(last["ENTRYPOINT"][0]), &entry); err != nil {
		t.Fatalf("ENTRYPOINT is not in exec form: %v", err)
	}
	addr := mcpArgs(t, "the Dockerfile", entry)
	_, port := portOf(t, addr)
	if got := last["EXPOSE"]; !slices.Equal(got, []string{strconv.Itoa(port)}) {
		t.Errorf("EXPOSE %q, want %d", got, port)
	}
	user := strings.Join(last["USER"], " ")
	if u, _, _ := strings.Cut(user, ":"); u == "" || u == "0" || u == "root" {
		if !strings.HasSuffix(froms[len(froms)-1], ":nonroot") || u != "" {
			t.Errorf("USER %q: the image would run as root", user)
		}
	}
	b, err := os.ReadFile(filepath.Join(repoRoot, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "CGO_ENABLED=0 go build") {
		t.Error("the binary is not built with CGO_ENABLED=0: it would not run on a static base")
	}
	if !strings.Contains(string(b), "COPY --from=build /out/agent "+entry[0]) {
		t.Errorf("the runtime stage does not copy the binary to %s", entry[0])
	}
	dep := decodeSpec[deploymentSpec](t, one(t, manifests(t), "Deployment"))
	c := dep.Template.Spec.Containers[0]
	if got := append(slices.Clone(c.Command), c.Args...); len(c.Command) > 0 && !slices.Equal(got, entry) {
		t.Errorf("the Deployment runs %q, the image %q", got, entry)
	}
}

// TestTelemetryEnvDocumented checks that the variables telemetry reads are
// in agent help env.
func TestTelemetryEnvDocumented(t *testing.T) {
	for _, v := range []string{telemetry.EnvTracesExporter, telemetry.EnvMetricsExporter, telemetry.EnvRecordContent, envMCPToken} {
		if !regexp.MustCompile(`(?m)^\s+` + v + `\s`).MatchString(envHelp) {
			t.Errorf("agent help env does not list %s", v)
		}
	}
}
