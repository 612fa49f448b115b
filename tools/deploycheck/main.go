// Command deploycheck checks offline what the platform hands to a cluster,
// where no Docker engine and no API server are at hand:
//
//   - the Kubernetes manifests, rendered by kustomize as the base and as the
//     base with each of its components, decode strictly as Kubernetes API
//     objects (an unknown or misspelt field is an error, as kubectl's
//     server-side field validation would make it);
//   - every pod template passes Pod Security "restricted" (the policy code
//     the API server admits pods with) and has a read-only root filesystem;
//   - core's pods migrate the schema before core starts;
//   - every container runs the image the Makefile builds;
//   - the Dockerfile parses and lints (BuildKit's parser and checks) and
//     builds a static non-root image from several stages;
//   - the binaries the image holds are statically linked.
//
// It is its own module so that the service's go.mod carries no Kubernetes.
// `make deploy-check` runs it from the repository root.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	root := flag.String("root", ".", "repository root; the other paths are relative to it")
	manifests := flag.String("manifests", "deploy/kubernetes", "kustomization directory of the manifests")
	image := flag.String("image", "", "image repository every container must run (the Makefile's IMAGE)")
	dockerfile := flag.String("dockerfile", "", "Dockerfile of that image")
	static := flag.String("static", "", "comma-separated binaries that must be statically linked")
	flag.Parse()
	if *image == "" || *dockerfile == "" {
		fmt.Fprintln(os.Stderr, "deploycheck: -image and -dockerfile are required")
		os.Exit(2)
	}

	var problems []string
	files, err := readTree(filepath.Join(*root, *manifests))
	if err != nil {
		problems = append(problems, err.Error())
	}
	renderings, mp := checkManifests(files, *image)
	problems = append(problems, mp...)

	df, err := os.ReadFile(filepath.Join(*root, *dockerfile))
	if err != nil {
		problems = append(problems, err.Error())
	} else {
		for _, p := range checkDockerfile(df) {
			problems = append(problems, *dockerfile+": "+p)
		}
	}

	var bins []string
	if *static != "" {
		bins = strings.Split(*static, ",")
	}
	for _, b := range bins {
		if err := checkStatic(filepath.Join(*root, b)); err != nil {
			problems = append(problems, err.Error())
		}
	}

	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "deploycheck:", p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
	fmt.Printf("deploycheck: %s (%s): objects decode strictly, pods pass restricted; %s lints; %d static binaries\n",
		*manifests, strings.Join(renderings, ", "), *dockerfile, len(bins))
}

// readTree reads every file under dir, keyed by its slash-separated path
// relative to dir.
func readTree(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	return files, err
}
