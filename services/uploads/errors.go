package uploads

import errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"

// The codes of the upload route, declared on it with (mp.errors.v1.errors).
const (
	invalidFileType     = errorsv1.ErrorCode_ERROR_CODE_INVALID_FILE_TYPE
	invalidFileContent  = errorsv1.ErrorCode_ERROR_CODE_INVALID_FILE_CONTENT
	fileTooLarge        = errorsv1.ErrorCode_ERROR_CODE_FILE_TOO_LARGE
	uploadError         = errorsv1.ErrorCode_ERROR_CODE_UPLOAD_ERROR
	uploadNotConfigured = errorsv1.ErrorCode_ERROR_CODE_UPLOAD_NOT_CONFIGURED
)
