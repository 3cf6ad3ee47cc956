package otlp

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// TestFromEnv checks the endpoint rules and each setting, the per-signal
// variable winning over the general one.
func TestFromEnv(t *testing.T) {
	type result struct {
		URL     string
		Header  http.Header
		Timeout time.Duration
		Gzip    bool
	}
	for _, tc := range []struct {
		name   string
		signal Signal
		env    map[string]string
		want   result
	}{
		{"defaults", Traces, nil, result{"http://localhost:4318/v1/traces", http.Header{}, 10 * time.Second, false}},
		{"metrics default", Metrics, nil, result{"http://localhost:4318/v1/metrics", http.Header{}, 10 * time.Second, false}},
		{"base", Traces, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://collector:4318"},
			result{"https://collector:4318/v1/traces", http.Header{}, 10 * time.Second, false}},
		{"base with path and slash", Metrics, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://h/otlp/"},
			result{"http://h/otlp/v1/metrics", http.Header{}, 10 * time.Second, false}},
		{"base with query", Traces, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://h/p?tenant=1"},
			result{"http://h/p/v1/traces?tenant=1", http.Header{}, 10 * time.Second, false}},
		{"signal endpoint as is", Traces, map[string]string{
			"OTEL_EXPORTER_OTLP_ENDPOINT": "http://base:1", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://h:2/custom"},
			result{"http://h:2/custom", http.Header{}, 10 * time.Second, false}},
		{"other signal's endpoint ignored", Metrics, map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://h:2/custom"},
			result{"http://localhost:4318/v1/metrics", http.Header{}, 10 * time.Second, false}},
		{"headers", Traces, map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "api-key=s%3Dcr%2Cet+1, X-Two = a b ,x-two=c"},
			result{"http://localhost:4318/v1/traces", http.Header{"Api-Key": {"s=cr,et+1"}, "X-Two": {"a b", "c"}}, 10 * time.Second, false}},
		{"signal headers win", Metrics, map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "a=1", "OTEL_EXPORTER_OTLP_METRICS_HEADERS": "b=2"},
			result{"http://localhost:4318/v1/metrics", http.Header{"B": {"2"}}, 10 * time.Second, false}},
		{"timeout and gzip", Traces, map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "2500", "OTEL_EXPORTER_OTLP_COMPRESSION": "GZIP"},
			result{"http://localhost:4318/v1/traces", http.Header{}, 2500 * time.Millisecond, true}},
		{"signal timeout and compression win", Traces, map[string]string{
			"OTEL_EXPORTER_OTLP_TIMEOUT": "2500", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "1",
			"OTEL_EXPORTER_OTLP_COMPRESSION": "gzip", "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION": "none"},
			result{"http://localhost:4318/v1/traces", http.Header{}, time.Millisecond, false}},
		{"protocol", Traces, map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/protobuf"},
			result{"http://localhost:4318/v1/traces", http.Header{}, 10 * time.Second, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := FromEnv(envOf(tc.env), tc.signal)
			if err != nil {
				t.Fatal(err)
			}
			got := result{c.URL, c.Header, c.Timeout, c.Gzip}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("config (-want +got):\n%s", d)
			}
		})
	}
}

// TestFromEnvErrors checks that each bad value is an error naming its
// variable, and that no error repeats a header's value.
func TestFromEnvErrors(t *testing.T) {
	const secret = "sekrit-key"
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want []string // parts of the error
	}{
		{"scheme", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "ftp://h"}, []string{"OTEL_EXPORTER_OTLP_ENDPOINT: ftp://h: want an http or https URL"}},
		{"no scheme", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "localhost:4318"}, []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "want an http or https URL"}},
		{"not a URL", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://u:" + secret + "@h:port/"}, []string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: not a URL"}},
		{"no host", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http:///v1/traces"}, []string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "no host"}},
		{"password redacted", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "ftp://u:" + secret + "@h"}, []string{"ftp://u:xxxxx@h"}},
		{"header without =", map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "a=1," + secret}, []string{"OTEL_EXPORTER_OTLP_HEADERS: entry 2 is not key=value"}},
		{"header name", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_HEADERS": "bad key=" + secret}, []string{"OTEL_EXPORTER_OTLP_TRACES_HEADERS: entry 1: not a header name"}},
		{"empty header name", map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "=" + secret}, []string{"entry 1: not a header name"}},
		{"header value encoding", map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "key=" + secret + "%zz"}, []string{"OTEL_EXPORTER_OTLP_HEADERS: entry 1 (key): the value is not URL-encoded text"}},
		{"header value newline", map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "key=" + secret + "%0d%0aX: y"}, []string{"entry 1 (key): the value is not URL-encoded text"}},
		{"timeout text", map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "10s"}, []string{`OTEL_EXPORTER_OTLP_TIMEOUT: "10s" is not a number of milliseconds`}},
		{"timeout zero", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "0"}, []string{"OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: 0 ms: want a positive number"}},
		{"timeout negative", map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "-1"}, []string{"OTEL_EXPORTER_OTLP_TIMEOUT: -1 ms"}},
		{"timeout overflow", map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "9223372036854775807"}, []string{"OTEL_EXPORTER_OTLP_TIMEOUT: 9223372036854775807 ms"}},
		{"compression", map[string]string{"OTEL_EXPORTER_OTLP_COMPRESSION": "br"}, []string{`OTEL_EXPORTER_OTLP_COMPRESSION: unknown compression "br"; want gzip or none`}},
		{"grpc", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpc"}, []string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=grpc: OTLP over gRPC is not built in"}},
		{"json", map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}, []string{`OTEL_EXPORTER_OTLP_PROTOCOL=http/json: unknown OTLP protocol; want http/protobuf`}},
		{"certificate missing", map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": filepath.Join(dir, "none.pem")}, []string{"OTEL_EXPORTER_OTLP_CERTIFICATE: open "}},
		{"certificate not PEM", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE": notPEM}, []string{"OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE: " + notPEM + " holds no PEM certificate"}},
		{"client certificate alone", map[string]string{"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE": notPEM}, []string{"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE is set without OTEL_EXPORTER_OTLP_CLIENT_KEY"}},
		{"client key alone", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY": notPEM}, []string{"OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY is set without"}},
		{"client pair bad", map[string]string{"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE": notPEM, "OTEL_EXPORTER_OTLP_CLIENT_KEY": notPEM},
			[]string{"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE and OTEL_EXPORTER_OTLP_CLIENT_KEY: tls: "}},
		{"two at once", map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "x", "OTEL_EXPORTER_OTLP_COMPRESSION": "zstd"},
			[]string{"OTEL_EXPORTER_OTLP_TIMEOUT", "OTEL_EXPORTER_OTLP_COMPRESSION"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromEnv(envOf(tc.env), Traces)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v, want one containing %q", err, w)
				}
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("err = %v: it shows a secret", err)
			}
		})
	}
	for _, tc := range []struct{ name, value, want string }{
		{"OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE", "sometimes", `unknown temporality preference "sometimes"`},
		{"OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION", "exponential", `unknown histogram aggregation "exponential"`},
	} {
		_, err := FromEnv(envOf(map[string]string{tc.name: tc.value}), Metrics)
		if err == nil || !strings.Contains(err.Error(), tc.name+": "+tc.want) {
			t.Errorf("%s=%s: err = %v, want one naming it", tc.name, tc.value, err)
		}
	}
}

// TestMetricPreferences checks the temporality and histogram aggregation
// preferences for metrics.
func TestMetricPreferences(t *testing.T) {
	type got struct{ Counter, UpDown, Histogram, ObservableCounter, Aggregation string }
	prefs := func(env map[string]string) got {
		c, err := FromEnv(envOf(env), Metrics)
		if err != nil {
			t.Fatal(err)
		}
		x, err := NewMetricExporter(c)
		if err != nil {
			t.Fatal(err)
		}
		return got{
			x.Temporality(sdkmetric.InstrumentKindCounter).String(), x.Temporality(sdkmetric.InstrumentKindUpDownCounter).String(),
			x.Temporality(sdkmetric.InstrumentKindHistogram).String(), x.Temporality(sdkmetric.InstrumentKindObservableCounter).String(),
			strings.TrimPrefix(fmt.Sprintf("%T", x.Aggregation(sdkmetric.InstrumentKindHistogram)), "metric."),
		}
	}
	for _, tc := range []struct {
		env  map[string]string
		want got
	}{
		{nil, got{"CumulativeTemporality", "CumulativeTemporality", "CumulativeTemporality", "CumulativeTemporality", "AggregationExplicitBucketHistogram"}},
		{map[string]string{"OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE": "Delta"},
			got{"DeltaTemporality", "CumulativeTemporality", "DeltaTemporality", "DeltaTemporality", "AggregationExplicitBucketHistogram"}},
		{map[string]string{"OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE": "lowmemory",
			"OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION": "base2_exponential_bucket_histogram"},
			got{"DeltaTemporality", "CumulativeTemporality", "DeltaTemporality", "CumulativeTemporality", "AggregationBase2ExponentialHistogram"}},
	} {
		if d := cmp.Diff(tc.want, prefs(tc.env)); d != "" {
			t.Errorf("%v (-want +got):\n%s", tc.env, d)
		}
	}
}

// TestTLS sends to an https collector whose certificate is trusted only
// through OTEL_EXPORTER_OTLP_CERTIFICATE and which requires the client
// certificate OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE and _CLIENT_KEY name.
func TestTLS(t *testing.T) {
	dir := t.TempDir()
	clientCert, clientKey := writeSelfSigned(t, dir)
	var seen []string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, c := range r.TLS.PeerCertificates {
			seen = append(seen, c.Subject.CommonName)
		}
	}))
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAnyClientCert}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake refused first
	srv.StartTLS()
	defer srv.Close()
	ca := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	spans := testSpans(t)
	export := func(env map[string]string) error {
		env["OTEL_EXPORTER_OTLP_ENDPOINT"] = srv.URL
		c, err := FromEnv(envOf(env), Traces)
		if err != nil {
			t.Fatal(err)
		}
		x, err := NewSpanExporter(c)
		if err != nil {
			t.Fatal(err)
		}
		fakeClock(x.c)
		return x.ExportSpans(t.Context(), spans)
	}
	if err := export(map[string]string{}); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("without the CA: err = %v, want a certificate error", err)
	}
	if err := export(map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": ca,
		"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE": clientCert, "OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY": clientKey}); err != nil {
		t.Fatalf("with the CA and the client certificate: %v", err)
	}
	if d := cmp.Diff([]string{"toolreg test client"}, seen, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("client certificates the collector saw (-want +got):\n%s", d)
	}
}

// writeSelfSigned writes a self-signed client certificate and its key.
func writeSelfSigned(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "toolreg test client"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "client.pem"), filepath.Join(dir, "client.key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}
