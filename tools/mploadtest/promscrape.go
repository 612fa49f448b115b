package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// histTotals are a Prometheus histogram's _sum and _count, added over the
// series whose labels contain every one of a set of label pairs.
type histTotals struct {
	Sum   float64
	Count float64
}

// Mean is the average observation.
func (h histTotals) Mean() time.Duration {
	if h.Count == 0 {
		return 0
	}
	return time.Duration(h.Sum / h.Count * float64(time.Second))
}

func (h histTotals) minus(o histTotals) histTotals {
	return histTotals{Sum: h.Sum - o.Sum, Count: h.Count - o.Count}
}

// parseHistogram adds up the _sum and _count of the series of histogram
// name whose labels include every pair of labels, read from the text
// exposition format.
func parseHistogram(r io.Reader, name string, labels map[string]string) (histTotals, error) {
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(r)
	if err != nil {
		return histTotals{}, fmt.Errorf("metrics: %w", err)
	}
	var h histTotals
	for _, m := range families[name].GetMetric() {
		if !hasLabels(m, labels) {
			continue
		}
		h.Sum += m.GetHistogram().GetSampleSum()
		h.Count += float64(m.GetHistogram().GetSampleCount())
	}
	return h, nil
}

// hasLabels reports whether m carries every pair of want.
func hasLabels(m *dto.Metric, want map[string]string) bool {
	found := 0
	for _, l := range m.GetLabel() {
		if v, ok := want[l.GetName()]; ok && v == l.GetValue() {
			found++
		}
	}
	return found == len(want)
}

func scrapeHistogram(ctx context.Context, url, name string, labels map[string]string) (histTotals, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return histTotals{}, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return histTotals{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return histTotals{}, fmt.Errorf("metrics %s: HTTP %d", url, resp.StatusCode)
	}
	return parseHistogram(resp.Body, name, labels)
}
