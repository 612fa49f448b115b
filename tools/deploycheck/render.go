package main

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	sigsyaml "sigs.k8s.io/yaml"
)

// rendering is one way an operator can apply the manifests: its name and
// the YAML documents kustomize builds for it.
type rendering struct {
	name string
	docs [][]byte
}

// render builds the kustomization in files (paths relative to its
// directory) as the base, and once per component under it (a subdirectory
// whose kustomization is of kind Component) added to the base, the way an
// overlay with `components: [NAME]` does.
func render(files map[string][]byte) ([]rendering, error) {
	fs := filesys.MakeFsInMemory()
	for p, b := range files {
		if err := fs.MkdirAll(path.Join("/base", path.Dir(p))); err != nil {
			return nil, err
		}
		if err := fs.WriteFile(path.Join("/base", p), b); err != nil {
			return nil, err
		}
	}
	components, err := componentDirs(files)
	if err != nil {
		return nil, err
	}
	targets := []string{"/base"}
	for _, c := range components {
		dir := "/with-" + c
		overlay := fmt.Sprintf("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../base]\ncomponents: [../base/%s]\n", c)
		if err := fs.MkdirAll(dir); err != nil {
			return nil, err
		}
		if err := fs.WriteFile(dir+"/kustomization.yaml", []byte(overlay)); err != nil {
			return nil, err
		}
		targets = append(targets, dir)
	}
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	var out []rendering
	for _, t := range targets {
		name := "base"
		if t != "/base" {
			name = "base+" + strings.TrimPrefix(t, "/with-")
		}
		rm, err := k.Run(fs, t)
		if err != nil {
			return nil, fmt.Errorf("kustomize %s: %w", name, err)
		}
		r := rendering{name: name}
		for _, res := range rm.Resources() {
			b, err := res.AsYAML()
			if err != nil {
				return nil, fmt.Errorf("kustomize %s: %w", name, err)
			}
			r.docs = append(r.docs, b)
		}
		out = append(out, r)
	}
	return out, nil
}

// componentDirs names the subdirectories holding a kustomize Component.
func componentDirs(files map[string][]byte) ([]string, error) {
	var dirs []string
	for p, b := range files {
		dir, file := path.Split(p)
		if dir == "" || file != "kustomization.yaml" {
			continue
		}
		var k struct{ Kind string }
		if err := sigsyaml.Unmarshal(b, &k); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if k.Kind == "Component" {
			dirs = append(dirs, strings.TrimSuffix(dir, "/"))
		}
	}
	sort.Strings(dirs)
	return dirs, nil
}
