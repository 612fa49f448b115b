package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// maxErrorKinds bounds how many distinct transport error texts are kept.
const maxErrorKinds = 10

// Summary is what one load run measured. Percentiles are exact (every
// latency is kept and sorted) rather than estimated: a 15 s run at a few
// thousand requests per second is well under a million values.
type Summary struct {
	Name       string `json:"name"`
	TargetRate int    `json:"target_rate,omitempty"`
	Workers    int    `json:"workers,omitempty"`
	Requests   int    `json:"requests"`
	// Successes are 2xx answers.
	Successes int `json:"successes"`
	// StatusCodes counts answers by status; "0" is a request that got no
	// HTTP answer (connection error, timeout).
	StatusCodes map[string]int `json:"status_codes"`
	Errors      map[string]int `json:"errors,omitempty"`
	BytesIn     uint64         `json:"bytes_in"`
	// Duration runs from the first request sent to the last one sent; Wait
	// from there to the last answer.
	Duration   time.Duration  `json:"duration_ns"`
	Wait       time.Duration  `json:"wait_ns"`
	SendRate   float64        `json:"send_rate"`
	Throughput float64        `json:"throughput"`
	Latency    LatencySummary `json:"latency"`

	latencies              []time.Duration
	earliest, latest, last time.Time
}

// LatencySummary holds the latency distribution of a run.
type LatencySummary struct {
	Mean time.Duration `json:"mean_ns"`
	P50  time.Duration `json:"p50_ns"`
	P90  time.Duration `json:"p90_ns"`
	P99  time.Duration `json:"p99_ns"`
	P999 time.Duration `json:"p999_ns"`
	Max  time.Duration `json:"max_ns"`
}

func newSummary(name string) *Summary {
	return &Summary{Name: name, StatusCodes: map[string]int{}}
}

// Add records one result.
func (s *Summary) Add(r *vegeta.Result) {
	s.Requests++
	s.StatusCodes[strconv.Itoa(int(r.Code))]++
	if r.Code >= 200 && r.Code < 300 {
		s.Successes++
	} else if r.Code == 0 && r.Error != "" {
		if _, ok := s.Errors[r.Error]; ok || len(s.Errors) < maxErrorKinds {
			if s.Errors == nil {
				s.Errors = map[string]int{}
			}
			s.Errors[r.Error]++
		}
	}
	s.BytesIn += r.BytesIn
	s.latencies = append(s.latencies, r.Latency)
	if s.earliest.IsZero() || r.Timestamp.Before(s.earliest) {
		s.earliest = r.Timestamp
	}
	if r.Timestamp.After(s.latest) {
		s.latest = r.Timestamp
	}
	if end := r.End(); end.After(s.last) {
		s.last = end
	}
}

// Close computes the rates and percentiles.
func (s *Summary) Close() {
	if s.Requests == 0 {
		return
	}
	s.Duration = s.latest.Sub(s.earliest)
	s.Wait = s.last.Sub(s.latest)
	if s.Duration > 0 {
		s.SendRate = float64(s.Requests) / s.Duration.Seconds()
	}
	if total := s.Duration + s.Wait; total > 0 {
		s.Throughput = float64(s.Successes) / total.Seconds()
	}
	slices.Sort(s.latencies)
	var sum time.Duration
	for _, l := range s.latencies {
		sum += l
	}
	s.Latency = LatencySummary{
		Mean: sum / time.Duration(len(s.latencies)),
		P50:  percentile(s.latencies, 0.50),
		P90:  percentile(s.latencies, 0.90),
		P99:  percentile(s.latencies, 0.99),
		P999: percentile(s.latencies, 0.999),
		Max:  s.latencies[len(s.latencies)-1],
	}
}

// percentile is the nearest-rank percentile of sorted values: the smallest
// value at or below which at least q of them lie.
func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(rank, 0), len(sorted)-1)]
}

// SuccessRatio is the share of 2xx answers.
func (s *Summary) SuccessRatio() float64 {
	if s.Requests == 0 {
		return 0
	}
	return float64(s.Successes) / float64(s.Requests)
}

// Check fails when any answer was neither 2xx nor an allowed status, or a
// request got no answer at all.
func (s *Summary) Check(allow map[int]bool) error {
	if s.Requests == 0 {
		return fmt.Errorf("%s: no request was sent", s.Name)
	}
	var bad []string
	for _, code := range sortedCodes(s.StatusCodes) {
		n, _ := strconv.Atoi(code)
		if (n >= 200 && n < 300) || allow[n] {
			continue
		}
		bad = append(bad, fmt.Sprintf("%s x%d", code, s.StatusCodes[code]))
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s: unexpected answers: %s (status 0: no HTTP answer)", s.Name, strings.Join(bad, ", "))
	}
	return nil
}

// Write prints the summary for a terminal.
func (s *Summary) Write(w io.Writer) {
	fmt.Fprintf(w, "%s:\n", s.Name)
	mode := "max throughput"
	if s.TargetRate > 0 {
		mode = fmt.Sprintf("%d req/s", s.TargetRate)
	}
	if s.Workers > 0 {
		mode += fmt.Sprintf(", %d workers", s.Workers)
	}
	fmt.Fprintf(w, "  mode        %s\n", mode)
	fmt.Fprintf(w, "  requests    %d in %s (+%s wait), sent %.1f/s\n", s.Requests, round(s.Duration), round(s.Wait), s.SendRate)
	fmt.Fprintf(w, "  success     %.2f%% (%d)\n", 100*s.SuccessRatio(), s.Successes)
	codes := make([]string, 0, len(s.StatusCodes))
	for _, c := range sortedCodes(s.StatusCodes) {
		codes = append(codes, fmt.Sprintf("%s:%d", c, s.StatusCodes[c]))
	}
	fmt.Fprintf(w, "  status      %s\n", strings.Join(codes, " "))
	fmt.Fprintf(w, "  throughput  %.1f successful req/s\n", s.Throughput)
	l := s.Latency
	fmt.Fprintf(w, "  latency     p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  mean %s\n",
		ms(l.P50), ms(l.P90), ms(l.P99), ms(l.P999), ms(l.Max), ms(l.Mean))
	if s.Requests > 0 {
		fmt.Fprintf(w, "  body        %.0f bytes/answer\n", float64(s.BytesIn)/float64(s.Requests))
	}
	for _, e := range sortedKeys(s.Errors) {
		fmt.Fprintf(w, "  error       %s x%d\n", e, s.Errors[e])
	}
	if s.TargetRate > 0 && s.Duration > 0 && s.SendRate < 0.95*float64(s.TargetRate) {
		fmt.Fprintf(w, "  WARNING     sent %.0f/s, below the %d/s asked for: the load generator could not keep up\n", s.SendRate, s.TargetRate)
	}
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64) + "ms"
}

func round(d time.Duration) time.Duration { return d.Round(time.Millisecond) }

func sortedCodes(m map[string]int) []string {
	keys := sortedKeys(m)
	sort.Slice(keys, func(i, j int) bool {
		a, _ := strconv.Atoi(keys[i])
		b, _ := strconv.Atoi(keys[j])
		return a < b
	})
	return keys
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
