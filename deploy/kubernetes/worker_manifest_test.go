package kubernetes_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// workerManifest is what the worker's checks read of worker.yaml.
type workerManifest struct {
	Kind     string
	Metadata struct{ Name string }
	Spec     struct {
		Selector struct {
			MatchLabels map[string]string `yaml:"matchLabels"`
		}
		Template struct {
			Spec struct {
				TerminationGracePeriodSeconds int `yaml:"terminationGracePeriodSeconds"`
				Containers                    []struct {
					Args    []string
					EnvFrom []struct {
						SecretRef *struct{ Name string } `yaml:"secretRef"`
					} `yaml:"envFrom"`
					Env []struct {
						Name, Value string
						ValueFrom   *struct {
							SecretKeyRef *struct{ Name, Key string } `yaml:"secretKeyRef"`
						} `yaml:"valueFrom"`
					}
					Ports []struct {
						Name          string
						ContainerPort int `yaml:"containerPort"`
					}
					ReadinessProbe *struct {
						HTTPGet *struct {
							Path string
							Port string
						} `yaml:"httpGet"`
					} `yaml:"readinessProbe"`
					LivenessProbe *struct {
						HTTPGet *struct {
							Path string
							Port string
						} `yaml:"httpGet"`
					} `yaml:"livenessProbe"`
				}
			}
		}
	}
}

func readWorker(t *testing.T) (deploy *workerManifest, pdb bool) {
	t.Helper()
	b, err := os.ReadFile("worker.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var m workerManifest
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case m.Kind == "Deployment" && m.Metadata.Name == "worker":
			deploy = &m
		case m.Kind == "PodDisruptionBudget" && m.Metadata.Name == "worker":
			pdb = true
		}
	}
	if deploy == nil || len(deploy.Spec.Template.Spec.Containers) != 1 {
		t.Fatal("worker.yaml has no worker Deployment with one container")
	}
	return deploy, pdb
}

// The worker reads one secret value, the database URL, and no Secret whole:
// a job runner has no use for the gateway token or the sealing key. The
// gateway reads none of the Secrets the worker reads.
func TestWorkerReadsOnlyTheDatabaseURL(t *testing.T) {
	d, _ := readWorker(t)
	c := d.Spec.Template.Spec.Containers[0]
	if len(c.Args) != 1 || c.Args[0] != "worker" {
		t.Fatalf("worker container args %v, want [worker]", c.Args)
	}
	for _, ef := range c.EnvFrom {
		if ef.SecretRef != nil {
			t.Errorf("the worker loads all of Secret %q", ef.SecretRef.Name)
		}
	}
	var keys []string
	for _, e := range c.Env {
		if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
			keys = append(keys, e.ValueFrom.SecretKeyRef.Key)
		}
		if e.Name == "MP_GATEWAY_TOKEN" {
			t.Errorf("the worker sets %s", e.Name)
		}
	}
	// The database, and the key that opens webhook signing secrets.
	if len(keys) != 2 || keys[0] != "MP_DATABASE_URL" || keys[1] != "MP_SECRET_KEY" {
		t.Errorf("the worker reads secret keys %v, want [MP_DATABASE_URL MP_SECRET_KEY]", keys)
	}
	w := readWorkloads(t)
	if w["worker"] == nil || w["gateway"] == nil {
		t.Fatalf("workloads found: %v", w)
	}
	for s := range w["gateway"].secrets {
		if w["worker"].secrets[s] {
			t.Errorf("the gateway reads Secret %q, which the worker reads too", s)
		}
	}
	kust, err := os.ReadFile("kustomization.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(kust, []byte("- worker.yaml")) {
		t.Error("kustomization.yaml does not list worker.yaml")
	}
}

// The pod is killed only after the drain can have run its course: the drain
// grace, 5 s for cancelled jobs to return, and 5 s for the internal port.
// Probes are on the metrics port, and a PDB keeps one worker through node
// drains.
func TestWorkerDrainFitsTheTerminationGrace(t *testing.T) {
	d, pdb := readWorker(t)
	if !pdb {
		t.Error("no PodDisruptionBudget for the worker")
	}
	c := d.Spec.Template.Spec.Containers[0]
	grace := 25 * time.Second // the role's default
	for _, e := range c.Env {
		if e.Name == "MP_WORKER_DRAIN_GRACE" {
			g, err := time.ParseDuration(e.Value)
			if err != nil {
				t.Fatalf("MP_WORKER_DRAIN_GRACE=%q: %v", e.Value, err)
			}
			grace = g
		}
	}
	need := grace + 10*time.Second
	if got := time.Duration(d.Spec.Template.Spec.TerminationGracePeriodSeconds) * time.Second; got < need {
		t.Errorf("terminationGracePeriodSeconds %v, want at least %v (drain grace %v + 10 s)", got, need, grace)
	}
	var metricsPort bool
	for _, p := range c.Ports {
		metricsPort = metricsPort || p.Name == "metrics"
	}
	if !metricsPort {
		t.Error("no port named metrics")
	}
	if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" || c.ReadinessProbe.HTTPGet.Port != "metrics" {
		t.Error("readiness does not probe /readyz on the metrics port")
	}
	if c.LivenessProbe == nil || c.LivenessProbe.HTTPGet == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" || c.LivenessProbe.HTTPGet.Port != "metrics" {
		t.Error("liveness does not probe /healthz on the metrics port")
	}
}
