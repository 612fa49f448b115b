package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/mallplatform/partnerapi/internal/redact"
)

// flagSet is a flag.FlagSet whose flags default to an environment variable,
// so the same names configure a container and a terminal.
type flagSet struct {
	*flag.FlagSet
	// envErrs are environment values that do not parse as their flag's
	// type: Parse refuses to start with them rather than fall back to the
	// default (MP_TIMESTAMP_WINDOW=90 would otherwise silently mean 90s).
	envErrs []error
}

func newFlagSet(name string, stderr io.Writer) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return &flagSet{FlagSet: fs}
}

// Parse parses args after checking the environment values the flags took
// their defaults from.
func (f *flagSet) Parse(args []string) error {
	if len(f.envErrs) > 0 {
		return errors.Join(f.envErrs...)
	}
	return f.FlagSet.Parse(args)
}

func (f *flagSet) str(p *string, name, env, def, help string) {
	if v, ok := os.LookupEnv(env); ok {
		def = v
	}
	f.StringVar(p, name, def, help+" ($"+env+")")
}

// secretURL is str for a URL that may carry a password: -h shows its default
// (from env) without the password, as do flag errors.
func (f *flagSet) secretURL(p *string, name, env, help string) {
	if v, ok := os.LookupEnv(env); ok {
		*p = v
	}
	f.Var(urlValue{p}, name, help+" ($"+env+")")
}

// secret is str for a token or key: -h never shows its value, only whether
// the environment set one.
func (f *flagSet) secret(p *string, name, env, help string) {
	if v, ok := os.LookupEnv(env); ok {
		*p = v
	}
	f.Var(secretValue{p}, name, help+" ($"+env+")")
}

// secretValue is a flag.Value that never prints what it holds.
type secretValue struct{ p *string }

func (v secretValue) String() string {
	if v.p == nil || *v.p == "" {
		return ""
	}
	return "(set)"
}

func (v secretValue) Set(s string) error {
	*v.p = s
	return nil
}

// urlValue is a flag.Value whose String hides the URL's password (or a
// keyword/value DSN's).
type urlValue struct{ p *string }

func (v urlValue) String() string {
	if v.p == nil || *v.p == "" {
		return ""
	}
	return redact.URL(*v.p)
}

func (v urlValue) Set(s string) error {
	*v.p = s
	return nil
}

func (f *flagSet) dur(p *time.Duration, name, env string, def time.Duration, help string) {
	if v, ok := os.LookupEnv(env); ok {
		d, err := time.ParseDuration(v)
		if err != nil {
			f.envErrs = append(f.envErrs, fmt.Errorf("$%s=%q is not a duration (write it with a unit, e.g. 90s)", env, v))
		}
		def = d
	}
	f.DurationVar(p, name, def, help+" ($"+env+")")
}

func (f *flagSet) integer(p *int, name, env string, def int, help string) {
	if v, ok := os.LookupEnv(env); ok {
		n, err := strconv.Atoi(v)
		if err != nil {
			f.envErrs = append(f.envErrs, fmt.Errorf("$%s=%q is not a whole number", env, v))
		}
		def = n
	}
	f.IntVar(p, name, def, help+" ($"+env+")")
}

type logFlags struct {
	level  string
	format string
}

func (l *logFlags) register(f *flagSet) {
	f.str(&l.level, "log-level", "MP_LOG_LEVEL", "info", "log level: debug, info, warn, error")
	f.str(&l.format, "log-format", "MP_LOG_FORMAT", "json", "log format: json or console")
}

func (l *logFlags) logger() (*zap.Logger, error) {
	level, err := zapcore.ParseLevel(l.level)
	if err != nil {
		return nil, fmt.Errorf("log level: %w", err)
	}
	switch strings.ToLower(l.format) {
	case "console":
		cfg := zap.NewDevelopmentConfig()
		cfg.Level = zap.NewAtomicLevelAt(level)
		return cfg.Build()
	case "json":
		// Access logs are written per request: buffer them (flushed every
		// second and on exit by Sync) instead of one write syscall per line.
		ws := &zapcore.BufferedWriteSyncer{WS: zapcore.Lock(os.Stderr), Size: 256 << 10, FlushInterval: time.Second}
		enc := zapcore.NewJSONEncoder(jsonEncoderConfig())
		return zap.New(zapcore.NewCore(enc, ws, level), zap.ErrorOutput(zapcore.Lock(os.Stderr))), nil
	default:
		return nil, fmt.Errorf("log format %q: want json or console", l.format)
	}
}

// jsonEncoderConfig is zap's production encoding with ISO-8601 timestamps in
// UTC, to the millisecond ("ts":"2026-11-24T10:47:18.123Z"): log pipelines
// read them without a parser rule of their own (zap's default is epoch
// seconds as a float), and every replica writes the same zone.
func jsonEncoderConfig() zapcore.EncoderConfig {
	cfg := zap.NewProductionEncoderConfig()
	cfg.EncodeTime = func(t time.Time, enc zapcore.PrimitiveArrayEncoder) {
		zapcore.ISO8601TimeEncoder(t.UTC(), enc)
	}
	return cfg
}
