package developer

import (
	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
)

// The console's answers in the platform's one error vocabulary; each message
// is safe to show the person at the console.
var (
	errEmailTaken = apierr.New(errorsv1.ErrorCode_ERROR_CODE_EMAIL_ALREADY_EXISTS,
		"an account with this email address already exists: sign in instead")
	errDeveloperType = apierr.New(errorsv1.ErrorCode_ERROR_CODE_INVALID_DEVELOPER_TYPE,
		"developerType must be INDIVIDUAL or BUSINESS")
	errLinkUnknown = apierr.New(errorsv1.ErrorCode_ERROR_CODE_INVALID_VERIFICATION_TOKEN,
		"this verification link is not valid")
	errLinkExpired = apierr.New(errorsv1.ErrorCode_ERROR_CODE_VERIFICATION_TOKEN_EXPIRED,
		"this verification link has expired: ask for a new one (POST /console/v1/verify/resend)")
	errLinkUsed = apierr.New(errorsv1.ErrorCode_ERROR_CODE_VERIFICATION_LINK_USED,
		"this verification link was already used")
	errNotVerified = apierr.New(errorsv1.ErrorCode_ERROR_CODE_EMAIL_NOT_VERIFIED,
		"verify your email address first: follow the link we sent, or ask for a new one")
	errSignIn    = apierr.New(apierr.Unauthorized, "the email address or the password is wrong")
	errNoSession = apierr.New(apierr.Unauthorized,
		"sign in to the console first (POST /console/v1/session)")
	errCSRF = apierr.New(apierr.Forbidden,
		"missing or wrong X-CSRF-Token: send the csrfToken of the session's sign-in")
	errNotMember  = apierr.New(apierr.Forbidden, "you are not a member of this account")
	errPermission = apierr.New(errorsv1.ErrorCode_ERROR_CODE_MEMBER_PERMISSION_DENIED,
		"your role in this account does not allow this")
	errHasApps = apierr.New(errorsv1.ErrorCode_ERROR_CODE_CANNOT_DELETE_ACCOUNT_WITH_APPS,
		"delete the account's apps first")
	errProfileLocked = apierr.New(errorsv1.ErrorCode_ERROR_CODE_PROFILE_ALREADY_SUBMITTED,
		"a profile was already submitted and is pending review or approved")
	errAppNotFound  = apierr.New(errorsv1.ErrorCode_ERROR_CODE_APP_NOT_FOUND, "no app with this id in your account")
	errSandboxLimit = apierr.New(errorsv1.ErrorCode_ERROR_CODE_SANDBOX_LIMIT_REACHED,
		"the account has as many sandbox apps as it may: delete one first")
	errLiveLimit = apierr.New(errorsv1.ErrorCode_ERROR_CODE_APP_LIMIT_REACHED,
		"the account has as many live apps as it may: delete one first")
	errNeedsApproval = apierr.New(apierr.Forbidden,
		"live apps need an approved profile: submit it (POST /console/v1/profile) and wait for its review")
	errProfileType = apierr.New(errorsv1.ErrorCode_ERROR_CODE_PROFILE_TYPE_MISMATCH,
		"these profile fields do not match the account's developer type")
)

// Members, invitations and test shops.
var (
	errTestShopLimit = apierr.New(errorsv1.ErrorCode_ERROR_CODE_TEST_SHOP_LIMIT_REACHED,
		"the account has as many test shops as it may")
	errTestShopNotFound = apierr.New(apierr.NotFound, "no test shop with this id in your account")
	errAppNotSandbox    = validation("a test shop can be authorised for a sandbox app only")
	errAppInactive      = validation("the app is deactivated: activate it first")
	errMemberNotFound   = apierr.New(apierr.NotFound, "no member with this id in your account")
	errLastOwner        = apierr.New(apierr.Conflict,
		"the account's last owner cannot leave, be removed or lose the role: make another member an owner first")
	errAlreadyMember = apierr.New(apierr.Conflict, "this person is already a member of the account")
	errInviteUnknown = apierr.New(errorsv1.ErrorCode_ERROR_CODE_INVALID_VERIFICATION_TOKEN,
		"this invitation link is not valid")
	errInviteExpired = apierr.New(errorsv1.ErrorCode_ERROR_CODE_VERIFICATION_TOKEN_EXPIRED,
		"this invitation has expired: ask the account's owner or an admin to invite you again")
	errInviteUsed = apierr.New(errorsv1.ErrorCode_ERROR_CODE_VERIFICATION_LINK_USED,
		"this invitation was already used, revoked or replaced by a newer one")
	errInvitationNotFound   = apierr.New(apierr.NotFound, "no invitation with this id in your account")
	errInvitationNotPending = apierr.New(apierr.Conflict,
		"this invitation is no longer pending: it was accepted, revoked, replaced by a newer one or has expired")
	errInviteOtherPerson = apierr.New(apierr.Forbidden,
		"this invitation is for another email address: sign in as the invited person")
	errRole = validation("role must be OWNER, ADMIN, DEVELOPER or VIEWER")
)

func validation(message string) error { return apierr.New(apierr.ValidationError, message) }
