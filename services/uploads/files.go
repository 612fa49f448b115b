package uploads

import (
	"errors"
	"fmt"
	"strings"

	uploadsv1 "github.com/mallplatform/partnerapi/gen/mp/uploads/v1"
	"github.com/mallplatform/partnerapi/internal/policy"
)

// FilesURL is where a gateway at base (scheme and host) serves uploaded
// files, the public URL prefix of a deployment whose gateway serves them
// (the dev role's): the route of UploadFilesService.GetUploadedFile
// without its name.
func FilesURL(base string) (string, error) {
	table, err := policy.Load()
	if err != nil {
		return "", err
	}
	m, ok := table.Method(uploadsv1.UploadFilesService_GetUploadedFile_FullMethodName)
	if !ok || len(m.Routes) == 0 {
		return "", errors.New("uploads: the uploaded files' route is not declared")
	}
	prefix, ok := strings.CutSuffix(m.Routes[0].Template, "{name}")
	if !ok {
		return "", fmt.Errorf("uploads: the uploaded files' route %s does not end in {name}", m.Routes[0].Template)
	}
	return strings.TrimSuffix(base, "/") + prefix, nil
}
