package main

import (
	"fmt"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	psaapi "k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
)

// decoder knows the API groups the manifests may use; an object of any other
// kind is reported, so a new kind is added here on purpose.
var decoder = func() runtime.Decoder {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		corev1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme,
		autoscalingv2.AddToScheme, policyv1.AddToScheme,
	} {
		if err := add(s); err != nil {
			panic(err)
		}
	}
	// Strict: unknown and duplicate fields are errors, not silently dropped.
	return serializer.NewCodecFactory(s, serializer.EnableStrict).UniversalDeserializer()
}()

var restricted = func() policy.Evaluator {
	e, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		panic(err)
	}
	return e
}()

// checkManifests renders the kustomization in files and checks every object
// of every rendering. It returns the renderings' names and the problems.
func checkManifests(files map[string][]byte, image string) (names []string, problems []string) {
	rs, err := render(files)
	if err != nil {
		return nil, []string{err.Error()}
	}
	for _, r := range rs {
		names = append(names, r.name)
		var objs []runtime.Object
		for _, doc := range r.docs {
			obj, _, err := decoder.Decode(doc, nil, nil)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: %s: %v", r.name, describeDoc(doc), err))
				continue
			}
			objs = append(objs, obj)
		}
		for _, p := range checkObjects(objs, image) {
			problems = append(problems, r.name+": "+p)
		}
	}
	return names, problems
}

// describeDoc names a document that did not decode, for the message.
func describeDoc(doc []byte) string {
	var kind, name string
	for _, line := range strings.Split(string(doc), "\n") {
		if v, ok := strings.CutPrefix(line, "kind: "); ok && kind == "" {
			kind = v
		}
		if v, ok := strings.CutPrefix(line, "  name: "); ok && name == "" {
			name = v
		}
	}
	return kind + " " + name
}

// checkObjects applies the rules to one rendering's decoded objects.
func checkObjects(objs []runtime.Object, image string) []string {
	var problems []string
	namespaces := map[string]bool{}
	var core *appsv1.Deployment
	for _, o := range objs {
		if ns, ok := o.(*corev1.Namespace); ok {
			namespaces[ns.Name] = true
			if ns.Labels[psaapi.EnforceLevelLabel] != string(psaapi.LevelRestricted) {
				problems = append(problems, fmt.Sprintf("Namespace %s: label %s is not %q", ns.Name, psaapi.EnforceLevelLabel, psaapi.LevelRestricted))
			}
		}
		if d, ok := o.(*appsv1.Deployment); ok && d.Name == "core" {
			core = d
		}
	}
	pods := 0
	for _, o := range objs {
		name, meta, spec := podTemplate(o)
		if spec == nil {
			continue
		}
		pods++
		acc, _ := metaOf(o)
		if !namespaces[acc.GetNamespace()] {
			problems = append(problems, fmt.Sprintf("%s: namespace %q is not one the manifests create with Pod Security enforced", name, acc.GetNamespace()))
		}
		for _, p := range checkPod(meta, spec, image) {
			problems = append(problems, name+": "+p)
		}
	}
	if pods == 0 {
		problems = append(problems, "no workload found")
	}
	if core == nil {
		problems = append(problems, "no Deployment named core")
	} else {
		problems = append(problems, checkMigratesFirst(core)...)
	}
	return problems
}

// checkPod holds one pod template to Pod Security "restricted" at the latest
// policy version, to a read-only root filesystem, and to the image.
func checkPod(meta *metav1.ObjectMeta, spec *corev1.PodSpec, image string) []string {
	var problems []string
	lv := psaapi.LevelVersion{Level: psaapi.LevelRestricted, Version: psaapi.LatestVersion()}
	for _, r := range restricted.EvaluatePod(lv, meta, spec) {
		if !r.Allowed {
			problems = append(problems, fmt.Sprintf("violates PodSecurity restricted: %s (%s)", r.ForbiddenReason, r.ForbiddenDetail))
		}
	}
	for _, c := range allContainers(spec) {
		if sc := c.SecurityContext; sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			problems = append(problems, fmt.Sprintf("container %s: root filesystem is writable (set readOnlyRootFilesystem: true)", c.Name))
		}
		if repo := repository(c.Image); repo != image {
			problems = append(problems, fmt.Sprintf("container %s: image %q is not from %s", c.Name, c.Image, image))
		}
	}
	return problems
}

// checkMigratesFirst: core's pods run the migrate role, with core's own
// image, before core starts, so that a release's schema is in place before
// its core takes traffic.
func checkMigratesFirst(core *appsv1.Deployment) []string {
	spec := core.Spec.Template.Spec
	var coreImage string
	for _, c := range spec.Containers {
		if c.Name == "core" {
			coreImage = c.Image
		}
	}
	for _, c := range spec.InitContainers {
		if slices.Equal(c.Args, []string{"migrate"}) {
			if c.Image != coreImage {
				return []string{fmt.Sprintf("Deployment core: init container %s runs %s, core runs %s: a release migrates with its own image", c.Name, c.Image, coreImage)}
			}
			return nil
		}
	}
	return []string{"Deployment core: no init container runs the migrate role before core starts"}
}

func allContainers(spec *corev1.PodSpec) []corev1.Container {
	return append(slices.Clone(spec.InitContainers), spec.Containers...)
}

// podTemplate returns the pod template of a workload object.
func podTemplate(o runtime.Object) (string, *metav1.ObjectMeta, *corev1.PodSpec) {
	switch w := o.(type) {
	case *appsv1.Deployment:
		return "Deployment " + w.Name, &w.Spec.Template.ObjectMeta, &w.Spec.Template.Spec
	case *appsv1.StatefulSet:
		return "StatefulSet " + w.Name, &w.Spec.Template.ObjectMeta, &w.Spec.Template.Spec
	case *appsv1.DaemonSet:
		return "DaemonSet " + w.Name, &w.Spec.Template.ObjectMeta, &w.Spec.Template.Spec
	case *batchv1.Job:
		return "Job " + w.Name, &w.Spec.Template.ObjectMeta, &w.Spec.Template.Spec
	case *batchv1.CronJob:
		return "CronJob " + w.Name, &w.Spec.JobTemplate.Spec.Template.ObjectMeta, &w.Spec.JobTemplate.Spec.Template.Spec
	case *corev1.Pod:
		return "Pod " + w.Name, &w.ObjectMeta, &w.Spec
	}
	return "", nil, nil
}

func metaOf(o runtime.Object) (metav1.Object, bool) {
	m, ok := o.(metav1.Object)
	return m, ok
}

// repository is an image reference without its tag or digest.
func repository(ref string) string {
	ref, _, _ = strings.Cut(ref, "@")
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		ref = ref[:i]
	}
	return ref
}
