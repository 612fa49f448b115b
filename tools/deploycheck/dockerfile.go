package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/linter"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
)

// checkDockerfile parses a Dockerfile with BuildKit's own parser, runs the
// checks BuildKit applies while parsing (those of `docker build --check` that
// need no base image metadata), and holds the image to the platform's rules:
// built in stages, the final one on distroless/static or scratch, a numeric
// non-root USER, an exec-form ENTRYPOINT, base images pinned to a tag or
// digest, and a static build (CGO_ENABLED=0, which `make build` sets).
func checkDockerfile(src []byte) []string {
	var problems []string
	res, err := parser.Parse(bytes.NewReader(src))
	if err != nil {
		return []string{err.Error()}
	}
	for _, w := range res.Warnings {
		problems = append(problems, fmt.Sprintf("line %d: %s", w.Location.Start.Line, w.Short))
	}
	lint := linter.New(&linter.Config{Warn: func(rule, _, url, msg string, loc []parser.Range) {
		line := 0
		if len(loc) > 0 {
			line = loc[0].Start.Line
		}
		problems = append(problems, fmt.Sprintf("line %d: %s: %s (%s)", line, rule, msg, url))
	}})
	stages, metaArgs, err := instructions.Parse(res.AST, lint)
	if err != nil {
		return append(problems, err.Error())
	}
	args := map[string]string{}
	for _, a := range metaArgs {
		for _, kv := range a.Args {
			if kv.Value != nil {
				args[kv.Key] = *kv.Value
			}
		}
	}
	if len(stages) < 2 {
		problems = append(problems, "a single stage: build in one stage, copy the binary into a minimal final stage")
	}
	names := map[string]bool{}
	static := false
	for i, st := range stages {
		base := os.Expand(st.BaseName, func(k string) string {
			if v, ok := args[k]; ok {
				return v
			}
			problems = append(problems, fmt.Sprintf("stage %d: FROM uses ARG %s, which has no default", i, k))
			return ""
		})
		if !names[base] && base != "scratch" && !pinned(base) {
			problems = append(problems, fmt.Sprintf("stage %d: base image %q is not pinned to a tag or digest", i, base))
		}
		names[st.Name] = true
		for _, c := range st.Commands {
			if r, ok := c.(*instructions.RunCommand); ok {
				line := strings.Join(r.CmdLine, " ")
				static = static || strings.Contains(line, "make build") || strings.Contains(line, "CGO_ENABLED=0")
			}
			if e, ok := c.(*instructions.EnvCommand); ok {
				for _, kv := range e.Env {
					static = static || (kv.Key == "CGO_ENABLED" && kv.Value == "0")
				}
			}
		}
		if i == len(stages)-1 {
			problems = append(problems, checkFinalStage(st, base)...)
		}
	}
	if !static {
		problems = append(problems, "no stage builds with CGO_ENABLED=0 (`make build` sets it): the binary may need a C library the final image lacks")
	}
	return problems
}

func checkFinalStage(st instructions.Stage, base string) []string {
	var problems []string
	if base != "scratch" && !strings.HasPrefix(base, "gcr.io/distroless/static") {
		problems = append(problems, fmt.Sprintf("final stage is %q: use gcr.io/distroless/static (or scratch) for a static binary", base))
	}
	var user string
	var entrypoint *instructions.EntrypointCommand
	for _, c := range st.Commands {
		switch c := c.(type) {
		case *instructions.UserCommand:
			user = c.User
		case *instructions.EntrypointCommand:
			entrypoint = c
		}
	}
	uid, _, _ := strings.Cut(user, ":")
	if n, err := strconv.Atoi(uid); err != nil || n == 0 {
		problems = append(problems, fmt.Sprintf("final stage runs as user %q: set a numeric non-root USER (runAsNonRoot can only verify a number)", user))
	}
	if entrypoint == nil || entrypoint.PrependShell {
		problems = append(problems, "final stage needs an ENTRYPOINT in exec (JSON) form: there is no shell in the image")
	}
	return problems
}

// pinned: the reference names a tag other than latest, or a digest.
func pinned(ref string) bool {
	if strings.Contains(ref, "@sha256:") {
		return true
	}
	r := repository(ref)
	return r != ref && !strings.HasSuffix(ref, ":latest")
}
