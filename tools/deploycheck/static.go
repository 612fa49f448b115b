package main

import (
	"debug/elf"
	"fmt"
)

// checkStatic fails for a binary that needs a dynamic loader or shared
// libraries: distroless/static and scratch images have neither.
func checkStatic(path string) error {
	f, err := elf.Open(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return fmt.Errorf("%s: dynamically linked (has a program interpreter): build with CGO_ENABLED=0 (make build)", path)
		}
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(libs) > 0 {
		return fmt.Errorf("%s: needs shared libraries %v: build with CGO_ENABLED=0 (make build)", path, libs)
	}
	return nil
}
