package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
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

// parseHistogram reads name's _sum and _count lines from the text
// exposition format.
func parseHistogram(r io.Reader, name string, labels ...string) (histTotals, error) {
	var h histTotals
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		var total *float64
		switch {
		case strings.HasPrefix(line, name+"_sum{"):
			total = &h.Sum
		case strings.HasPrefix(line, name+"_count{"):
			total = &h.Count
		default:
			continue
		}
		end := strings.LastIndexByte(line, '}')
		if end < 0 {
			continue
		}
		set, value := line[:end+1], strings.TrimSpace(line[end+1:])
		match := true
		for _, l := range labels {
			if !strings.Contains(set, l) {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		if sp := strings.IndexByte(value, ' '); sp >= 0 {
			value = value[:sp] // a timestamp may follow the value
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return h, fmt.Errorf("metrics: %q: %w", line, err)
		}
		*total += v
	}
	return h, sc.Err()
}

func scrapeHistogram(ctx context.Context, url, name string, labels ...string) (histTotals, error) {
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
	return parseHistogram(resp.Body, name, labels...)
}
