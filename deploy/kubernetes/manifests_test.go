// Package kubernetes holds the platform's manifests; this test reads them
// to keep each tier's secrets its own.
package kubernetes_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// workload is what a test needs of a Deployment or Job: the Secrets it can
// read and the variable names it sets, over all its containers and init
// containers (core's runs the migrate role), including those added by the
// optional components (tls/).
type workload struct {
	secrets map[string]bool
	env     map[string]bool
}

type container struct {
	EnvFrom []struct {
		SecretRef *struct{ Name string } `yaml:"secretRef"`
	} `yaml:"envFrom"`
	Env []struct {
		Name      string
		ValueFrom *struct {
			SecretKeyRef *struct{ Name, Key string } `yaml:"secretKeyRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
}

type podSpec struct {
	InitContainers []container `yaml:"initContainers"`
	Containers     []container
	Volumes        []struct {
		Secret *struct {
			SecretName string `yaml:"secretName"`
		}
		Projected *struct {
			Sources []struct {
				Secret *struct{ Name string }
			}
		}
	}
}

type manifest struct {
	Kind     string
	Metadata struct{ Name string }
	Spec     struct {
		Template struct {
			Spec podSpec
		}
	}
}

func readWorkloads(t *testing.T) map[string]*workload {
	t.Helper()
	files, err := filepath.Glob("*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	components, _ := filepath.Glob("*/*.yaml")
	out := map[string]*workload{}
	for _, f := range append(files, components...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(b))
		for {
			var m manifest
			err := dec.Decode(&m)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if m.Kind != "Deployment" && m.Kind != "Job" {
				continue
			}
			w := out[m.Metadata.Name]
			if w == nil {
				w = &workload{secrets: map[string]bool{}, env: map[string]bool{}}
				out[m.Metadata.Name] = w
			}
			spec := m.Spec.Template.Spec
			for _, c := range append(spec.InitContainers, spec.Containers...) {
				for _, ef := range c.EnvFrom {
					if ef.SecretRef != nil {
						w.secrets[ef.SecretRef.Name] = true
					}
				}
				for _, e := range c.Env {
					w.env[e.Name] = true
					if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
						w.secrets[e.ValueFrom.SecretKeyRef.Name] = true
					}
				}
			}
			for _, v := range spec.Volumes {
				if v.Secret != nil {
					w.secrets[v.Secret.SecretName] = true
				}
				if v.Projected != nil {
					for _, s := range v.Projected.Sources {
						if s.Secret != nil {
							w.secrets[s.Secret.Name] = true
						}
					}
				}
			}
		}
	}
	return out
}

// The internet-facing gateway never mounts a Secret that core or its
// migration reads: those hold the database URL and the key sealing app
// secrets.
func TestGatewayMountsNoSecretOfCore(t *testing.T) {
	w := readWorkloads(t)
	gw, core := w["gateway"], w["core"]
	if gw == nil || core == nil {
		t.Fatalf("workloads found: %v", w)
	}
	if len(core.secrets) == 0 || len(gw.secrets) == 0 {
		t.Fatalf("core reads %v, gateway %v: each tier has a Secret", core.secrets, gw.secrets)
	}
	for s := range gw.secrets {
		if core.secrets[s] {
			t.Errorf("the gateway reads Secret %q, which core or the migration reads too", s)
		}
	}
	for _, name := range []string{"MP_DATABASE_URL", "MP_SECRET_KEY"} {
		if gw.env[name] {
			t.Errorf("the gateway sets %s", name)
		}
	}
}

// MP_INTERNAL_TOKEN was shared by the gateway and internal teams; the tiers
// refuse to start when it is set.
func TestNoManifestSetsTheRetiredToken(t *testing.T) {
	for name, w := range readWorkloads(t) {
		if w.env["MP_INTERNAL_TOKEN"] {
			t.Errorf("%s sets MP_INTERNAL_TOKEN", name)
		}
	}
	files, _ := filepath.Glob("*.yaml")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if strings.Contains(string(b), "MP_INTERNAL_TOKEN") {
			t.Errorf("%s mentions MP_INTERNAL_TOKEN", f)
		}
	}
}
