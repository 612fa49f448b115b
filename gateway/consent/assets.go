package consent

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"path"
	"strings"
)

//go:embed web/consent.css web/consent.js
var webFiles embed.FS

// asset is one embedded file, served under a name that carries a digest of
// its content, so a browser may keep it for a year: a deployment that
// changes the file changes its name.
type asset struct {
	name        string
	contentType string
	body        []byte
}

func loadAssets() (map[string]*asset, error) {
	types := map[string]string{
		".css": "text/css; charset=utf-8",
		".js":  "text/javascript; charset=utf-8",
	}
	out := map[string]*asset{}
	for _, f := range []string{"web/consent.css", "web/consent.js"} {
		b, err := webFiles.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("consent: %w", err)
		}
		sum := sha256.Sum256(b)
		ext := path.Ext(f)
		name := strings.TrimSuffix(path.Base(f), ext) + "." + hex.EncodeToString(sum[:6]) + ext
		out[path.Base(f)] = &asset{name: name, contentType: types[ext], body: b}
	}
	return out, nil
}
