package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// flagSet is a flag.FlagSet whose flags default to an environment variable,
// so the same names configure a container and a terminal.
type flagSet struct {
	*flag.FlagSet
}

func newFlagSet(name string, stderr io.Writer) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return &flagSet{fs}
}

func (f *flagSet) str(p *string, name, env, def, help string) {
	if v, ok := os.LookupEnv(env); ok {
		def = v
	}
	f.StringVar(p, name, def, help+" ($"+env+")")
}

func (f *flagSet) dur(p *time.Duration, name, env string, def time.Duration, help string) {
	if v, ok := os.LookupEnv(env); ok {
		if d, err := time.ParseDuration(v); err == nil {
			def = d
		}
	}
	f.DurationVar(p, name, def, help+" ($"+env+")")
}

func (f *flagSet) integer(p *int, name, env string, def int, help string) {
	if v, ok := os.LookupEnv(env); ok {
		if n, err := strconv.Atoi(v); err == nil {
			def = n
		}
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
	var cfg zap.Config
	switch strings.ToLower(l.format) {
	case "console":
		cfg = zap.NewDevelopmentConfig()
	case "json":
		cfg = zap.NewProductionConfig()
		cfg.Sampling = nil
	default:
		return nil, fmt.Errorf("log format %q: want json or console", l.format)
	}
	cfg.Level = zap.NewAtomicLevelAt(level)
	return cfg.Build()
}
