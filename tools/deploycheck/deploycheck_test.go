package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const image = "registry.example.ph/partner-api/mpserver"

func repoManifests(t *testing.T) map[string][]byte {
	t.Helper()
	files, err := readTree("../../deploy/kubernetes")
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// The repository's manifests pass, as the base and with the tls component.
func TestRepositoryManifestsPass(t *testing.T) {
	names, problems := checkManifests(repoManifests(t), image)
	for _, p := range problems {
		t.Error(p)
	}
	if strings.Join(names, ",") != "base,base+tls" {
		t.Errorf("renderings %v, want base and base+tls", names)
	}
}

// Each rule catches its violation in the real manifests, changed in one
// place: the check is only as good as what it refuses.
func TestManifestRulesCatch(t *testing.T) {
	cases := []struct {
		name, file, old, new, want string
	}{
		{"no seccomp profile", "worker.yaml", "        seccompProfile: {type: RuntimeDefault}\n", "", "seccompProfile"},
		{"privilege escalation", "worker.yaml", "allowPrivilegeEscalation: false", "allowPrivilegeEscalation: true", "allowPrivilegeEscalation != false"},
		{"capabilities kept", "gateway.yaml", "capabilities: {drop: [ALL]}", "capabilities: {drop: [NET_RAW]}", "unrestricted capabilities"},
		{"root allowed", "core.yaml", "runAsNonRoot: true", "runAsNonRoot: false", "runAsNonRoot"},
		{"writable root filesystem", "gateway.yaml", "readOnlyRootFilesystem: true", "readOnlyRootFilesystem: false", "root filesystem is writable"},
		{"misspelt field", "worker.yaml", "terminationGracePeriodSeconds: 40", "terminationGracePeriodSecond: 40", "unknown field"},
		{"wrong type", "core.yaml", "replicas: 3", "replicas: three", "Deployment core"},
		{"migration not first", "core.yaml", "args: [migrate]", "args: [core]", "no init container runs the migrate role"},
		{"migration with another image", "core.yaml", "          image: registry.example.ph/partner-api/mpserver:1.0.0\n          args: [migrate]", "          image: registry.example.ph/partner-api/mpserver:0.9.0\n          args: [migrate]", "a release migrates with its own image"},
		{"foreign image", "gateway.yaml", "image: registry.example.ph/partner-api/mpserver:1.0.0", "image: docker.io/library/mpserver:1.0.0", "is not from " + image},
		{"namespace not enforcing", "namespace.yaml", "enforce: restricted", "enforce: baseline", "pod-security.kubernetes.io/enforce"},
		{"component breaks the policy", "tls/gateway-tls.yaml", "secret: {secretName: gateway-grpc-tls}", "hostPath: {path: /etc/tls}", "base+tls: Deployment gateway: violates PodSecurity restricted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := repoManifests(t)
			src := string(files[c.file])
			if !strings.Contains(src, c.old) {
				t.Fatalf("%s no longer contains %q: update the case", c.file, c.old)
			}
			files[c.file] = []byte(strings.Replace(src, c.old, c.new, 1))
			_, problems := checkManifests(files, image)
			joined := strings.Join(problems, "\n")
			if !strings.Contains(joined, c.want) {
				t.Errorf("problems do not mention %q:\n%s", c.want, joined)
			}
		})
	}
}

func TestRepositoryDockerfilePasses(t *testing.T) {
	src, err := os.ReadFile("../../deploy/images/mpserver.Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range checkDockerfile(src) {
		t.Error(p)
	}
}

func TestDockerfileRulesCatch(t *testing.T) {
	const good = `FROM golang:1.26.8-bookworm AS build
RUN make build
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /src/bin/mpserver /mpserver
USER 65532:65532
ENTRYPOINT ["/mpserver"]
`
	if p := checkDockerfile([]byte(good)); len(p) != 0 {
		t.Fatalf("the reference Dockerfile fails: %v", p)
	}
	cases := []struct{ name, old, new, want string }{
		{"one stage", "FROM golang:1.26.8-bookworm AS build\nRUN make build\n", "", "single stage"},
		{"root user", "USER 65532:65532", "USER root", "non-root USER"},
		{"uid 0", "USER 65532:65532", "USER 0", "non-root USER"},
		{"no user", "USER 65532:65532\n", "", "non-root USER"},
		{"shell entrypoint", `ENTRYPOINT ["/mpserver"]`, "ENTRYPOINT /mpserver", "exec (JSON) form"},
		{"full base image", "FROM gcr.io/distroless/static-debian12:nonroot", "FROM debian:bookworm", "use gcr.io/distroless/static"},
		{"latest", "golang:1.26.8-bookworm", "golang:latest", "not pinned"},
		{"untagged", "golang:1.26.8-bookworm", "golang", "not pinned"},
		{"cgo", "RUN make build", "RUN go build -o /src/bin/ ./cmd/mpserver", "CGO_ENABLED=0"},
		{"BuildKit check", "AS build", "as build", "FromAsCasing"},
		{"ARG without default", "FROM golang:1.26.8-bookworm", "ARG GO\nFROM golang:${GO}-bookworm", "has no default"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(good, c.old) {
				t.Fatalf("no %q to replace", c.old)
			}
			p := strings.Join(checkDockerfile([]byte(strings.Replace(good, c.old, c.new, 1))), "\n")
			if !strings.Contains(p, c.want) {
				t.Errorf("problems do not mention %q:\n%s", c.want, p)
			}
		})
	}
}

// A binary built without cgo passes; a dynamically linked one (the system's
// own, from the C library's world) does not.
func TestStaticBinaries(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\nfunc main() {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "x")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if err := checkStatic(bin); err != nil {
		t.Errorf("static binary refused: %v", err)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	if err := checkStatic(sh); err == nil {
		t.Errorf("%s passes as static", sh)
	}
}
