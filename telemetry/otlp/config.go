package otlp

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// Signal is what an exporter sends: "traces" or "metrics". It names the
// per-signal variables (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, …) and the
// path appended to OTEL_EXPORTER_OTLP_ENDPOINT (/v1/traces, …).
type Signal string

// The signals this package exports.
const (
	Traces  Signal = "traces"
	Metrics Signal = "metrics"
)

// DefaultEndpoint is the base URL used when no endpoint variable is set:
// an OpenTelemetry Collector's OTLP/HTTP receiver on this host.
const DefaultEndpoint = "http://localhost:4318"

// DefaultTimeout bounds one export, retries included, when no timeout
// variable is set.
const DefaultTimeout = 10 * time.Second

// Config is where and how an exporter sends. [FromEnv] makes one from the
// environment; a zero Config is not usable.
type Config struct {
	// URL is the full URL requests are posted to, such as
	// http://localhost:4318/v1/traces.
	URL string
	// Header is added to every request; it commonly carries an API key,
	// so nothing here logs or prints its values.
	Header http.Header
	// Timeout bounds one export, retries included.
	Timeout time.Duration
	// Gzip compresses request bodies.
	Gzip bool
	// TLS, if not nil, is the TLS configuration for https URLs (a CA
	// bundle, a client certificate).
	TLS *tls.Config
	// Temporality, for metrics, chooses the temporality per instrument
	// kind; nil is the SDK's default, cumulative.
	Temporality sdkmetric.TemporalitySelector
	// Aggregation, for metrics, chooses the aggregation per instrument
	// kind; nil is the SDK's default (explicit bucket histograms).
	Aggregation sdkmetric.AggregationSelector
}

// Variables read by FromEnv; each has a per-signal variant with the signal
// after OTLP_ (OTEL_EXPORTER_OTLP_TRACES_HEADERS, …), which wins.
const (
	envPrefix            = "OTEL_EXPORTER_OTLP_"
	envEndpoint          = "ENDPOINT"
	envHeaders           = "HEADERS"
	envTimeout           = "TIMEOUT"
	envCompression       = "COMPRESSION"
	envProtocol          = "PROTOCOL"
	envCertificate       = "CERTIFICATE"
	envClientCertificate = "CLIENT_CERTIFICATE"
	envClientKey         = "CLIENT_KEY"
)

// lookup returns the signal's own variable if set, else the general one,
// with the name of the variable it read.
func lookup(getenv func(string) string, s Signal, suffix string) (name, value string) {
	name = envPrefix + strings.ToUpper(string(s)) + "_" + suffix
	if v := strings.TrimSpace(getenv(name)); v != "" {
		return name, v
	}
	name = envPrefix + suffix
	return name, strings.TrimSpace(getenv(name))
}

// FromEnv reads the exporter's settings for signal s with getenv, as the
// OpenTelemetry specification names them (each OTEL_EXPORTER_OTLP_X has a
// per-signal OTEL_EXPORTER_OTLP_TRACES_X or _METRICS_X that wins):
//
//	ENDPOINT            base URL, default http://localhost:4318, to which
//	                    v1/traces or v1/metrics is appended; the per-signal
//	                    variable is the full URL, used as is
//	HEADERS             key=value pairs separated by commas, URL-encoded
//	TIMEOUT             milliseconds for one export, retries included; 10000
//	COMPRESSION         gzip or none (the default)
//	PROTOCOL            http/protobuf, the default and the only one built in
//	CERTIFICATE         PEM file of the CA certificates to trust for https
//	CLIENT_CERTIFICATE  PEM file of a client certificate, with CLIENT_KEY
//	CLIENT_KEY          PEM file of the client certificate's private key
//
// and for metrics OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE
// (cumulative, the default, delta or lowmemory) and
// OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION
// (explicit_bucket_histogram, the default, or
// base2_exponential_bucket_histogram).
//
// Every error names the variable; none quotes a header's value.
func FromEnv(getenv func(string) string, s Signal) (Config, error) {
	c := Config{Timeout: DefaultTimeout, Header: http.Header{}}
	var errs []error
	bad := func(name string, err error) { errs = append(errs, fmt.Errorf("%s: %w", name, err)) }

	if name, v := lookup(getenv, s, envProtocol); v != "" && v != "http/protobuf" {
		if v == "grpc" {
			errs = append(errs, fmt.Errorf("%s=grpc: OTLP over gRPC is not built in; use http/protobuf, the default, with the collector's HTTP endpoint (port 4318)", name))
		} else {
			errs = append(errs, fmt.Errorf("%s=%s: unknown OTLP protocol; want http/protobuf", name, v))
		}
	}

	signalName := envPrefix + strings.ToUpper(string(s)) + "_" + envEndpoint
	if v := strings.TrimSpace(getenv(signalName)); v != "" {
		if u, err := parseEndpoint(v); err != nil {
			bad(signalName, err)
		} else {
			c.URL = u.String()
		}
	} else {
		name, v := envPrefix+envEndpoint, strings.TrimSpace(getenv(envPrefix+envEndpoint))
		if v == "" {
			v = DefaultEndpoint
		}
		if u, err := parseEndpoint(v); err != nil {
			bad(name, err)
		} else {
			u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/" + string(s)
			u.RawPath = ""
			c.URL = u.String()
		}
	}

	if name, v := lookup(getenv, s, envHeaders); v != "" {
		if err := parseHeaders(c.Header, v); err != nil {
			bad(name, err)
		}
	}

	if name, v := lookup(getenv, s, envTimeout); v != "" {
		ms, err := strconv.ParseInt(v, 10, 64)
		switch {
		case err != nil:
			bad(name, fmt.Errorf("%q is not a number of milliseconds", v))
		case ms <= 0 || ms > int64(time.Duration(1<<63-1)/time.Millisecond):
			bad(name, fmt.Errorf("%d ms: want a positive number of milliseconds", ms))
		default:
			c.Timeout = time.Duration(ms) * time.Millisecond
		}
	}

	if name, v := lookup(getenv, s, envCompression); v != "" {
		switch strings.ToLower(v) {
		case "gzip":
			c.Gzip = true
		case "none":
		default:
			bad(name, fmt.Errorf("unknown compression %q; want gzip or none", v))
		}
	}

	if s == Metrics {
		name := envPrefix + "METRICS_TEMPORALITY_PREFERENCE"
		switch v := strings.ToLower(strings.TrimSpace(getenv(name))); v {
		case "", "cumulative":
		case "delta":
			c.Temporality = deltaTemporality
		case "lowmemory":
			c.Temporality = lowMemoryTemporality
		default:
			bad(name, fmt.Errorf("unknown temporality preference %q; want cumulative, delta or lowmemory", v))
		}
		name = envPrefix + "METRICS_DEFAULT_HISTOGRAM_AGGREGATION"
		switch v := strings.ToLower(strings.TrimSpace(getenv(name))); v {
		case "", "explicit_bucket_histogram":
		case "base2_exponential_bucket_histogram":
			c.Aggregation = exponentialHistograms
		default:
			bad(name, fmt.Errorf("unknown histogram aggregation %q; want explicit_bucket_histogram or base2_exponential_bucket_histogram", v))
		}
	}

	tlsConfig, err := tlsFromEnv(getenv, s)
	if err != nil {
		errs = append(errs, err)
	}
	c.TLS = tlsConfig
	if err := errors.Join(errs...); err != nil {
		return Config{}, err
	}
	return c, nil
}

// deltaTemporality is the "delta" preference: delta for counters and
// histograms, synchronous or not, cumulative for up-down counters.
func deltaTemporality(k sdkmetric.InstrumentKind) metricdata.Temporality {
	switch k {
	case sdkmetric.InstrumentKindCounter, sdkmetric.InstrumentKindHistogram,
		sdkmetric.InstrumentKindObservableCounter:
		return metricdata.DeltaTemporality
	}
	return metricdata.CumulativeTemporality
}

// lowMemoryTemporality is the "lowmemory" preference: delta for
// synchronous counters and histograms only.
func lowMemoryTemporality(k sdkmetric.InstrumentKind) metricdata.Temporality {
	switch k {
	case sdkmetric.InstrumentKindCounter, sdkmetric.InstrumentKindHistogram:
		return metricdata.DeltaTemporality
	}
	return metricdata.CumulativeTemporality
}

// exponentialHistograms is the base2_exponential_bucket_histogram
// preference: histograms as exponential ones, with the specification's
// default size and scale.
func exponentialHistograms(k sdkmetric.InstrumentKind) sdkmetric.Aggregation {
	if k == sdkmetric.InstrumentKindHistogram {
		return sdkmetric.AggregationBase2ExponentialHistogram{MaxSize: 160, MaxScale: 20}
	}
	return sdkmetric.DefaultAggregationSelector(k)
}

// parseEndpoint parses an endpoint URL: http or https, with a host.
func parseEndpoint(v string) (*url.URL, error) {
	u, err := url.Parse(v)
	if err != nil {
		// url.Error quotes the URL, which may hold a password.
		return nil, errors.New("not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%s: want an http or https URL", u.Redacted())
	}
	if u.Host == "" {
		return nil, fmt.Errorf("%s: no host", u.Redacted())
	}
	return u, nil
}

// parseHeaders adds the key=value list v (W3C Baggage's format without
// properties, keys and values URL-encoded) to h. Its errors say which entry
// is wrong, never what it holds.
func parseHeaders(h http.Header, v string) error {
	for i, entry := range strings.Split(v, ",") {
		k, val, ok := strings.Cut(entry, "=")
		if !ok {
			return fmt.Errorf("entry %d is not key=value", i+1)
		}
		k, err := url.PathUnescape(strings.TrimSpace(k))
		if err != nil || k == "" || !validHeaderName(k) {
			return fmt.Errorf("entry %d: not a header name", i+1)
		}
		val, err = url.PathUnescape(strings.TrimSpace(val))
		if err != nil || strings.ContainsAny(val, "\r\n\x00") {
			return fmt.Errorf("entry %d (%s): the value is not URL-encoded text", i+1, k)
		}
		h.Add(k, val)
	}
	return nil
}

// validHeaderName reports whether k is an HTTP token.
func validHeaderName(k string) bool {
	for _, r := range k {
		if r >= 0x80 || r <= ' ' || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", r) || r == 0x7f {
			return false
		}
	}
	return true
}

// tlsFromEnv loads the CA bundle and the client certificate the
// environment names; nil if it names none.
func tlsFromEnv(getenv func(string) string, s Signal) (*tls.Config, error) {
	caName, ca := lookup(getenv, s, envCertificate)
	certName, cert := lookup(getenv, s, envClientCertificate)
	keyName, key := lookup(getenv, s, envClientKey)
	if ca == "" && cert == "" && key == "" {
		return nil, nil
	}
	c := &tls.Config{MinVersion: tls.VersionTLS12}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", caName, err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s: %s holds no PEM certificate", caName, ca)
		}
		c.RootCAs = pool
	}
	switch {
	case cert != "" && key != "":
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("%s and %s: %w", certName, keyName, err)
		}
		c.Certificates = []tls.Certificate{pair}
	case cert != "":
		return nil, fmt.Errorf("%s is set without %s", certName, keyName)
	case key != "":
		return nil, fmt.Errorf("%s is set without %s", keyName, certName)
	}
	return c, nil
}
