package otlp

import (
	"fmt"

	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// Field numbers of opentelemetry/proto/metrics/v1/metrics.proto and
// collector/metrics/v1/metrics_service.proto.
const (
	metricsRequestResourceMetrics = 1 // ExportMetricsServiceRequest

	resourceMetricsResource     = 1 // ResourceMetrics
	resourceMetricsScopeMetrics = 2
	resourceMetricsSchemaURL    = 3

	scopeMetricsScope     = 1 // ScopeMetrics
	scopeMetricsMetrics   = 2
	scopeMetricsSchemaURL = 3

	metricName        = 1 // Metric
	metricDescription = 2
	metricUnit        = 3
	metricGauge       = 5
	metricSum         = 7
	metricHistogram   = 9
	metricExpHist     = 10
	metricSummary     = 11

	dataPoints      = 1 // Gauge, Sum, Histogram, ExponentialHistogram, Summary
	temporality     = 2 // Sum, Histogram, ExponentialHistogram
	sumIsMonotonic  = 3 // Sum
	temporalityDelt = 1 // AggregationTemporality
	temporalityCum  = 2

	numberStart      = 2 // NumberDataPoint
	numberTime       = 3
	numberAsDouble   = 4
	numberExemplars  = 5
	numberAsInt      = 6
	numberAttributes = 7

	histStart        = 2 // HistogramDataPoint
	histTime         = 3
	histCount        = 4
	histSum          = 5
	histBucketCounts = 6
	histBounds       = 7
	histExemplars    = 8
	histAttributes   = 9
	histMin          = 11
	histMax          = 12

	expAttributes    = 1 // ExponentialHistogramDataPoint
	expStart         = 2
	expTime          = 3
	expCount         = 4
	expSum           = 5
	expScale         = 6
	expZeroCount     = 7
	expPositive      = 8
	expNegative      = 9
	expExemplars     = 11
	expMin           = 12
	expMax           = 13
	expZeroThreshold = 14
	bucketsOffset    = 1 // ExponentialHistogramDataPoint.Buckets
	bucketsCounts    = 2

	summaryStart     = 2 // SummaryDataPoint
	summaryTime      = 3
	summaryCount     = 4
	summarySum       = 5
	summaryQuantiles = 6
	summaryAttrs     = 7
	quantileQuantile = 1 // SummaryDataPoint.ValueAtQuantile
	quantileValue    = 2

	exemplarTime       = 2 // Exemplar
	exemplarAsDouble   = 3
	exemplarSpanID     = 4
	exemplarTraceID    = 5
	exemplarAsInt      = 6
	exemplarFilterAttr = 7
)

// appendMetricsRequest appends rm as an ExportMetricsServiceRequest. It
// fails for a temporality or an aggregation it does not know, before
// anything is sent.
func appendMetricsRequest(b []byte, rm *metricdata.ResourceMetrics) ([]byte, error) {
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if err := checkMetric(m); err != nil {
				return b, err
			}
		}
	}
	e := enc{b}
	e.message(metricsRequestResourceMetrics, func() {
		e.resource(resourceMetricsResource, rm.Resource)
		for _, sm := range rm.ScopeMetrics {
			e.message(resourceMetricsScopeMetrics, func() {
				e.scope(scopeMetricsScope, sm.Scope)
				for _, m := range sm.Metrics {
					e.message(scopeMetricsMetrics, func() { e.metric(m) })
				}
				e.string(scopeMetricsSchemaURL, sm.Scope.SchemaURL)
			})
		}
		if rm.Resource != nil {
			e.string(resourceMetricsSchemaURL, rm.Resource.SchemaURL())
		}
	})
	return e.b, nil
}

// checkMetric reports a metric that appendMetricsRequest cannot encode.
func checkMetric(m metricdata.Metrics) error {
	var t metricdata.Temporality
	switch d := m.Data.(type) {
	case metricdata.Gauge[int64], metricdata.Gauge[float64], metricdata.Summary:
		return nil
	case metricdata.Sum[int64]:
		t = d.Temporality
	case metricdata.Sum[float64]:
		t = d.Temporality
	case metricdata.Histogram[int64]:
		t = d.Temporality
	case metricdata.Histogram[float64]:
		t = d.Temporality
	case metricdata.ExponentialHistogram[int64]:
		t = d.Temporality
	case metricdata.ExponentialHistogram[float64]:
		t = d.Temporality
	default:
		return fmt.Errorf("metric %q: unknown aggregation %T", m.Name, m.Data)
	}
	if t != metricdata.DeltaTemporality && t != metricdata.CumulativeTemporality {
		return fmt.Errorf("metric %q: unknown temporality %v", m.Name, t)
	}
	return nil
}

// metric writes the fields of a Metric.
func (e *enc) metric(m metricdata.Metrics) {
	e.string(metricName, m.Name)
	e.string(metricDescription, m.Description)
	e.string(metricUnit, m.Unit)
	switch d := m.Data.(type) {
	case metricdata.Gauge[int64]:
		e.message(metricGauge, func() { numberPoints(e, d.DataPoints) })
	case metricdata.Gauge[float64]:
		e.message(metricGauge, func() { numberPoints(e, d.DataPoints) })
	case metricdata.Sum[int64]:
		e.message(metricSum, func() { sum(e, d) })
	case metricdata.Sum[float64]:
		e.message(metricSum, func() { sum(e, d) })
	case metricdata.Histogram[int64]:
		e.message(metricHistogram, func() { histogram(e, d) })
	case metricdata.Histogram[float64]:
		e.message(metricHistogram, func() { histogram(e, d) })
	case metricdata.ExponentialHistogram[int64]:
		e.message(metricExpHist, func() { expHistogram(e, d) })
	case metricdata.ExponentialHistogram[float64]:
		e.message(metricExpHist, func() { expHistogram(e, d) })
	case metricdata.Summary:
		e.message(metricSummary, func() { summary(e, d) })
	}
}

// temporalityOf is the AggregationTemporality of t (checked before).
func temporalityOf(t metricdata.Temporality) uint64 {
	if t == metricdata.DeltaTemporality {
		return temporalityDelt
	}
	return temporalityCum
}

func sum[N int64 | float64](e *enc, s metricdata.Sum[N]) {
	numberPoints(e, s.DataPoints)
	e.uvarint(temporality, temporalityOf(s.Temporality))
	if s.IsMonotonic {
		e.boolAlways(sumIsMonotonic, true)
	}
}

func numberPoints[N int64 | float64](e *enc, points []metricdata.DataPoint[N]) {
	for _, p := range points {
		e.message(dataPoints, func() {
			e.fixed64(numberStart, unixNano(p.StartTime))
			e.fixed64(numberTime, unixNano(p.Time))
			switch v := any(p.Value).(type) {
			case int64:
				e.fixed64Always(numberAsInt, uint64(v))
			case float64:
				e.doubleAlways(numberAsDouble, v)
			}
			exemplars(e, numberExemplars, p.Exemplars)
			e.attributeSet(numberAttributes, p.Attributes)
		})
	}
}

func histogram[N int64 | float64](e *enc, h metricdata.Histogram[N]) {
	for _, p := range h.DataPoints {
		e.message(dataPoints, func() {
			e.fixed64(histStart, unixNano(p.StartTime))
			e.fixed64(histTime, unixNano(p.Time))
			e.fixed64(histCount, p.Count)
			e.doubleAlways(histSum, float64(p.Sum))
			e.packedFixed64(histBucketCounts, p.BucketCounts)
			e.packedDouble(histBounds, p.Bounds)
			exemplars(e, histExemplars, p.Exemplars)
			e.attributeSet(histAttributes, p.Attributes)
			if v, ok := p.Min.Value(); ok {
				e.doubleAlways(histMin, float64(v))
			}
			if v, ok := p.Max.Value(); ok {
				e.doubleAlways(histMax, float64(v))
			}
		})
	}
	e.uvarint(temporality, temporalityOf(h.Temporality))
}

func expHistogram[N int64 | float64](e *enc, h metricdata.ExponentialHistogram[N]) {
	buckets := func(field int, b metricdata.ExponentialBucket) {
		e.message(field, func() {
			e.sint32(bucketsOffset, b.Offset)
			e.packedUvarint(bucketsCounts, b.Counts)
		})
	}
	for _, p := range h.DataPoints {
		e.message(dataPoints, func() {
			e.attributeSet(expAttributes, p.Attributes)
			e.fixed64(expStart, unixNano(p.StartTime))
			e.fixed64(expTime, unixNano(p.Time))
			e.fixed64(expCount, p.Count)
			e.doubleAlways(expSum, float64(p.Sum))
			e.sint32(expScale, p.Scale)
			e.fixed64(expZeroCount, p.ZeroCount)
			buckets(expPositive, p.PositiveBucket)
			buckets(expNegative, p.NegativeBucket)
			exemplars(e, expExemplars, p.Exemplars)
			if v, ok := p.Min.Value(); ok {
				e.doubleAlways(expMin, float64(v))
			}
			if v, ok := p.Max.Value(); ok {
				e.doubleAlways(expMax, float64(v))
			}
			e.double(expZeroThreshold, p.ZeroThreshold)
		})
	}
	e.uvarint(temporality, temporalityOf(h.Temporality))
}

func summary(e *enc, s metricdata.Summary) {
	for _, p := range s.DataPoints {
		e.message(dataPoints, func() {
			e.fixed64(summaryStart, unixNano(p.StartTime))
			e.fixed64(summaryTime, unixNano(p.Time))
			e.fixed64(summaryCount, p.Count)
			e.double(summarySum, p.Sum)
			for _, q := range p.QuantileValues {
				e.message(summaryQuantiles, func() {
					e.double(quantileQuantile, q.Quantile)
					e.double(quantileValue, q.Value)
				})
			}
			e.attributeSet(summaryAttrs, p.Attributes)
		})
	}
}

func exemplars[N int64 | float64](e *enc, field int, xs []metricdata.Exemplar[N]) {
	for _, x := range xs {
		e.message(field, func() {
			e.fixed64(exemplarTime, unixNano(x.Time))
			switch v := any(x.Value).(type) {
			case int64:
				e.fixed64Always(exemplarAsInt, uint64(v))
			case float64:
				e.doubleAlways(exemplarAsDouble, v)
			}
			e.bytes(exemplarSpanID, x.SpanID)
			e.bytes(exemplarTraceID, x.TraceID)
			e.attributes(exemplarFilterAttr, x.FilteredAttributes)
		})
	}
}
