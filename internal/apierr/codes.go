package apierr

// Every code an error answer can carry, by theme. A new failure reuses a
// code whose meaning fits before it adds one; a code is never renamed
// without an entry in Renamed.

// The request as sent: its body, its fields, its query.
var (
	CodeInvalidRequest       = def("invalid_request", "the request is malformed or misses a required field (another 4xx of the router says its own status)", 400)
	CodeInvalidJSON          = def("invalid_json", "the body is not exactly one JSON object of the expected shape", 400)
	CodeBodyTooLarge         = def("body_too_large", "the request body is over the size limit of its route", 413)
	CodeNoRoute              = def("no_route", "no endpoint answers this path", 404)
	CodeMethodNotAllowed     = def("method_not_allowed", "the endpoint does not take this method", 405)
	CodeInvalidID            = def("invalid_id", "an {id} path parameter is not a positive integer", 400)
	CodeInvalidUserID        = def("invalid_user_id", "user_id is not a positive integer", 400)
	CodeInvalidLimit         = def("invalid_limit", "limit is not an integer in the allowed range", 400)
	CodeInvalidOffset        = def("invalid_offset", "offset is not an integer of 0 or more", 400)
	CodeInvalidCursor        = def("invalid_cursor", "cursor is not a next_cursor this API returned", 400)
	CodeInvalidParents       = def("invalid_parents", "parents is not true or false", 400)
	CodeInvalidCaseSensitive = def("invalid_case_sensitive", "case_sensitive is not true or false", 400)
	CodeInvalidRegex         = def("invalid_regex", "regex is not true or false", 400)
	CodeInvalidQuery         = def("invalid_query", "the search query or its pattern cannot be used", 400)
	CodeInvalidSearchMode    = def("invalid_search_mode", "mode is not a search mode: literal, ranked, hybrid or meaning", 400)
	CodeNoEmbeddingModel     = def("no_embedding_model", "meaning and hybrid search need an embedding model, and none is configured", 400)
	CodeInvalidKind          = def("invalid_kind", "kind is not one of the kinds the endpoint lists", 400)
	CodeInvalidState         = def("invalid_state", "state is not a job state", 400)
	CodeInvalidFormat        = def("invalid_format", "format is not one the export offers", 400)
	CodeInvalidVersions      = def("invalid_versions", "versions is neither all nor current", 400)
	CodeInvalidPage          = def("invalid_page", "page is not a page number counting from 1", 400)
	CodeInvalidQuestions     = def("invalid_questions", "the known-answer questions of a search evaluation are missing, too many, or one is malformed; error.line names it", 400)
	CodeInvalidAction        = def("invalid_action", "action is not one of the audit log's actions", 400)
	CodeInvalidTime          = def("invalid_time", "since or until is not an RFC 3339 time", 400)
)

// Signing in and credentials.
var (
	CodeMissingToken       = def("missing_token", "no credentials were sent", 401)
	CodeInvalidToken       = def("invalid_token", "the token is forged, revoked or belongs to a disabled account", 401)
	CodeTokenExpired       = def("token_expired", "the session has expired; sign in again", 401)
	CodeTokenScopeDeleted  = def("token_scope_deleted", "the folder a scoped API token was made for is gone; the token no longer works", 401)
	CodeInvalidCredentials = def("invalid_credentials", "wrong user name or password", 401)
	CodeAPITokenRequired   = def("api_token_required", "this door takes an API token as the password, not the account password", 401)
	CodeUsernameMismatch   = def("username_mismatch", "the API token belongs to another user name than the one sent", 401)
	CodeInvalidAPIKey      = def("invalid_api_key", "the OpenAI-compatible door's word for missing or bad credentials", 401)
	CodeWrongPassword      = def("wrong_password", "the current password given to change it is wrong", 400)
	CodeWeakPassword       = def("weak_password", "the new password is shorter than the minimum", 400)
	CodeInvalidPassword    = def("invalid_password", "the password is longer than the maximum", 400)
	CodeNotASession        = def("not_a_session", "the request used an API token where only a signed-in session can act", 400)
	CodeTooManyAttempts    = def("too_many_attempts", "too many failed sign-ins from this address; Retry-After says when to try again", 429)
	CodeTooManyLogins      = def("too_many_logins", "too many sign-ins on this server at once; Retry-After says when to try again", 429)
	CodeAccountDisabled    = def("account_disabled", "the account is disabled (here, or by the directory when the password is right); an administrator can enable it", 403)
	CodePasswordLoginOff   = def("password_login_disabled", "this server signs people in through its identity providers only", 403)
)

// Model usage limits.
var (
	CodeBudgetExceeded = def("budget_exceeded", "a usage budget (global, the user's or one of their groups', per day or month) is spent; error.budget, used, limit and resets_at say which and until when", 429)
	CodeInvalidBudget  = def("invalid_budget", "a budget needs a scope (global, user, group), its user or group, a period (day, month) and a limit of tokens or cost", 400)
	CodeBudgetNotFound = def("budget_not_found", "no budget has this id", 404)
)

// Single sign-on through an identity provider.
var (
	CodeSSOUnknownProvider = def("sso_unknown_provider", "no identity provider has this id", 404)
	CodeSSOStateMismatch   = def("sso_state_mismatch", "the answer from the identity provider belongs to no sign-in started in this browser, or it is stale; start again", 400)
	CodeSSODenied          = def("sso_denied", "the identity provider did not sign the user in (cancelled or refused); error.provider_error says its word", 401)
	CodeSSOInvalidToken    = def("sso_invalid_token", "the identity provider's ID token failed verification (signature, issuer, audience, expiry or nonce)", 401)
	CodeSSOProvider        = def("sso_provider_unavailable", "the identity provider could not be reached or answered something unusable", 502)
	CodeSSONoAccount       = def("sso_no_account", "no account belongs to this identity and the provider may not create one", 403)
	CodeSSOEmailTaken      = def("sso_email_taken", "an account with this email address exists, and the provider may not link to it", 409)
	CodeInvalidTicket      = def("invalid_ticket", "the sign-in ticket is unknown, already used or expired; sign in again", 401)
)

// Who may do what.
var (
	CodeAdminOnly         = def("admin_only", "only administrators may do this", 403)
	CodeCannotModifySelf  = def("cannot_modify_self", "an administrator cannot disable or demote their own account", 400)
	CodeReadOnly          = def("read_only", "the caller may read this but not change it (a read-only token or share)", 403)
	CodeScopedToken       = def("scoped_token", "a token scoped to one folder cannot manage the account", 403)
	CodeScopeRoot         = def("scope_root", "a scoped token cannot delete, move or rename its own scope folder", 403)
	CodeScopeViolation    = def("scope_violation", "the output folder lies outside the scoped token's folder", 403)
	CodeShareRoot         = def("share_root", "a folder shared with the caller can be changed only inside, not itself", 403)
	CodeOutsideShare      = def("outside_share", "a move out of the folder shared with the caller", 403)
	CodeNotOwner          = def("not_owner", "only the owner of the node may do this", 403)
	CodeGeneratedReadOnly = def("generated_read_only", "a file compile made is read-only; copy it to edit", 403)
	CodeForeignOrigin     = def("foreign_origin", "a browser request from another origin", 403)
)

// Accounts, groups, tokens.
var (
	CodeInvalidUsername = def("invalid_username", "the user name breaks the naming rule", 400)
	CodeInvalidRole     = def("invalid_role", "role is neither admin nor user", 400)
	CodeUsernameTaken   = def("username_taken", "an account of that user name exists", 409)
	CodeUserNotFound    = def("user_not_found", "no such user", 404)
	CodeGroupNotFound   = def("group_not_found", "no such group", 404)
	CodeNotAMember      = def("not_a_member", "the user is not a member of the group", 404)
	CodeTokenNotFound   = def("token_not_found", "no such API token of the caller", 404)
	CodeInvalidScope    = def("invalid_scope", "scope_uri is not a folder of the caller's own tree, or read_only lacks it", 400)
	CodeInvalidExpiry   = def("invalid_expiry", "expires_in_days is out of range", 400)
)

// The tree: URIs, nodes, names.
var (
	CodeInvalidURI        = def("invalid_uri", "a kb:// URI that does not parse or names nothing a request can use", 400)
	CodeInvalidURIs       = def("invalid_uris", "the list of URIs is empty, too long or not allowed here", 400)
	CodeMissingURI        = def("missing_uri", "the request names no folder to work in", 400)
	CodeNotFound          = def("not_found", "no such node, or not visible to the caller", 404)
	CodeNotAFolder        = def("not_a_folder", "a file where a folder is needed", 400, 404, 409)
	CodeNotAFile          = def("not_a_file", "a folder where a file is needed", 400)
	CodeVirtualFolder     = def("virtual_folder", "kb://shared/ holds no files itself; use one of its entries", 400)
	CodeInvalidName       = def("invalid_name", "a name breaks the naming rule (empty, too long, a separator, a control character)", 400)
	CodeAlreadyExists     = def("already_exists", "the name is taken (a node, skill, group or import folder); error.existing may name the node", 409)
	CodeDuplicateName     = def("duplicate_name", "one upload holds two files of the same name", 400)
	CodePathInName        = def("path_in_name", "a file name carries folders without parents=true", 400)
	CodeInvalidMove       = def("invalid_move", "a move or copy into itself, its own descendant or onto the same node", 400)
	CodeInvalidCopy       = def("invalid_copy", "a copy between two users' trees", 400)
	CodeInvalidDelete     = def("invalid_delete", "the root folder cannot be deleted", 400)
	CodeHoldsSource       = def("holds_source", "a replace whose target folder holds the source", 409)
	CodeBusy              = def("busy", "another change to the same nodes is in progress; try again", 409)
	CodeOffsetOutOfRange  = def("offset_out_of_range", "offset is past the end of the body", 400)
	CodeInvalidOnConflict = def("invalid_on_conflict", "on_conflict is not fail, replace or rename", 400)
)

// Uploads and imports.
var (
	CodeInvalidUpload     = def("invalid_upload", "the multipart body is malformed or was cut off; nothing was stored", 400)
	CodeNoFiles           = def("no_files", "the request has no file part", 400)
	CodeTooManyFiles      = def("too_many_files", "more files in one upload than allowed", 400)
	CodeFileTooLarge      = def("file_too_large", "one file is over the upload limit", 413)
	CodeUploadTooLarge    = def("upload_too_large", "the upload request is over the limit for all its files together", 413)
	CodePartTooLarge      = def("part_too_large", "a form field other than a file is over its limit", 413)
	CodeUploadFailed      = def("upload_failed", "reading the uploaded bytes failed; nothing was stored", 400)
	CodeNotAnArchive      = def("not_an_archive", "the import is not a .zip, .tar, .tar.gz or .tgz file", 400)
	CodeImportUnavailable = def("import_unavailable", "this server does not import archives", 503)
)

// Shares.
var (
	CodeInvalidGrantee = def("invalid_grantee", "a share names neither exactly one user nor one group, or no such one", 400)
	CodeSelfShare      = def("self_share", "a share with the owner themself", 400)
	CodeAlreadyShared  = def("already_shared", "the node is already shared with that grantee; change its role instead", 409)
	CodeShareNotFound  = def("share_not_found", "no such share", 404)
)

// Pages of a PDF drawn as images; the extraction's own codes.
var (
	CodeNotAPDF             = def("not_a_pdf", "page images are drawn of PDFs only", 400)
	CodeTooLarge            = def("too_large", "the file or page is too large to draw", 413, 422)
	CodePageOutOfRange      = def("page_out_of_range", "the document has no such page; error.pages says how many it has", 400)
	CodeParseTimeout        = def("parse_timeout", "drawing the page ran out of time", 504)
	CodeEncrypted           = def("encrypted", "the document is encrypted", 422)
	CodeParseFailed         = def("parse_failed", "the document cannot be read", 422)
	CodeRendererUnavailable = def("renderer_unavailable", "this server cannot draw PDF pages", 503)
)

// The agent: models, tools, conversations, skills.
var (
	CodeNoModels              = def("no_models", "no model is configured on this server", 400)
	CodeUnknownModel          = def("unknown_model", "no configured model has this id; there is never a fallback", 400, 404)
	CodeModelNotFound         = def("model_not_found", "the OpenAI-compatible door's word for an unknown model", 404)
	CodeInvalidModel          = def("invalid_model", "the model is not allowed by the chosen cli profile", 400)
	CodeInvalidMessage        = def("invalid_message", "the message is empty or too long", 400)
	CodeInvalidHistory        = def("invalid_history", "the history is too long or holds an invalid message", 400)
	CodeUnknownTool           = def("unknown_tool", "no tool of that name", 400)
	CodeUnknownCommand        = def("unknown_command", "no command of that name", 400)
	CodeInvalidArguments      = def("invalid_arguments", "the arguments do not fit the tool's schema", 400)
	CodeOutsideScope          = def("outside_scope", "the URI lies outside the conversation's scope", 400)
	CodeScopeNotFound         = def("scope_not_found", "the conversation's scope was deleted, moved or unshared; the turn ends", 404)
	CodeResultTooLarge        = def("result_too_large", "a tool result is over the limit for one result", 422)
	CodeResourceTooLarge      = def("resource_too_large", "an MCP resource without text is over the limit for binary resources", 422)
	CodeTooManyStreams        = def("too_many_streams", "the caller has as many answers streaming as allowed", 429)
	CodeTooManyRequests       = def("too_many_requests", "the caller has as many MCP requests running as allowed", 429)
	CodeTooManyChecks         = def("too_many_checks", "the caller checked models or cli profiles too often; Retry-After says when to try again", 429)
	CodeConversationNotFound  = def("conversation_not_found", "no such conversation of the caller", 404)
	CodeConversationsDisabled = def("conversations_disabled", "this server keeps no conversations", 400)
	CodeTurnInProgress        = def("turn_in_progress", "the conversation is still answering", 409)
	CodeAnswerNotRunning      = def("answer_not_running", "no answer of the caller with this message id can be followed: missing, another user's, outside a scoped token's folder, or still being written by a turn not started with detach", 404)
	CodeURIMismatch           = def("uri_mismatch", "the conversation is about another folder", 400)
	CodeInvalidTitle          = def("invalid_title", "the title is empty or too long", 400)
	CodeInvalidEdit           = def("invalid_edit", "only the latest question can be edited", 400)
	CodeInvalidRegenerate     = def("invalid_regenerate", "only the latest answer can be regenerated", 400)
	CodeInvalidSkill          = def("invalid_skill", "a skill field breaks its rule; error.field names it", 400)
	CodeUnknownSkill          = def("unknown_skill", "no skill of that name", 400)
	CodeBuiltinSkill          = def("builtin_skill", "a built-in skill is read-only; duplicate it to change it", 403)
	CodeInvalidDraft          = def("invalid_draft", "the model did not answer with a skill draft", 502)
	CodeModelRefused          = def("model_refused", "the model refused (content filter)", 502)
	CodeOutputTruncated       = def("output_truncated", "the model's answer was cut at its output limit", 502)
	CodeLLMError              = def("llm_error", "the model could not be reached", 502)
	CodeEmbeddingFailed       = def("embedding_failed", "the embedding model did not embed the query", 502)
)

// Models managed in the admin screens.
var (
	CodeInvalidModelConfig = def("invalid_model_config", "a field of a model added in the admin screens is wrong; the message names it", 400)
	CodeModelReadOnly      = def("model_read_only", "the model comes from the config file or the environment, which win its id; change it there", 409)
	CodeNoSecretsKey       = def("no_secrets_key", "an API key cannot be stored: the server has no secrets_key (KB_SECRETS_KEY) to seal it with", 409)
)

// A model provider's failure before any byte was answered (llm.ErrorKind).
var (
	CodeLLMAuth             = def("llm_auth", "the provider rejected the server's API key", 502)
	CodeLLMModelNotFound    = def("llm_model_not_found", "the provider does not know the model", 502)
	CodeLLMRateLimited      = def("llm_rate_limited", "the provider is rate-limiting requests", 429)
	CodeLLMBadRequest       = def("llm_bad_request", "the provider refused the request", 502)
	CodeLLMServerError      = def("llm_server_error", "the provider failed", 502)
	CodeLLMStreamError      = def("llm_stream_error", "the provider sent an error inside its stream", 502)
	CodeLLMProtocolError    = def("llm_protocol_error", "the provider's stream was malformed", 502)
	CodeLLMIncompleteStream = def("llm_incomplete_stream", "the provider's stream ended without finishing", 502)
	CodeLLMTimeout          = def("llm_timeout", "the provider took too long", 504)
	CodeLLMConnectError     = def("llm_connect_error", "the provider could not be reached", 502)
	CodeLLMCanceled         = def("llm_canceled", "the call was cancelled", 499)
)

// Compile, jobs and the folders kept compiled.
var (
	CodeCompileUnavailable     = def("compile_unavailable", "this server does not compile", 503)
	CodeInvalidExecutor        = def("invalid_executor", "executor is neither llm nor cli", 400)
	CodeUnknownCLIProfile      = def("unknown_cli_profile", "no cli profile of that name is configured", 400)
	CodeCLIProfileNotFound     = def("cli_profile_not_found", "no cli profile of that name to check", 404)
	CodeInvalidReasoningEffort = def("invalid_reasoning_effort", "the reasoning effort is not allowed", 400)
	CodeInvalidCallBudget      = def("invalid_call_budget", "call_budget is out of range", 400)
	CodeInvalidTimeout         = def("invalid_timeout", "timeout_s is out of range", 400)
	CodeInvalidOutputParent    = def("invalid_output_parent", "output_parent is not an existing folder the caller may write", 400)
	CodeInvalidStaleIn         = def("invalid_stale_in", "stale_in is not a folder", 400)
	CodeInvalidQuietS          = def("invalid_quiet_s", "quiet_s is out of range", 400)
	CodeGeneratedArtifact      = def("generated_artifact", "generated output is never compiled", 400)
	CodeQueueFull              = def("queue_full", "the caller has as many queued jobs as allowed", 429)
	CodeJobNotFound            = def("job_not_found", "no such job of the caller", 404)
	CodeJobFinished            = def("job_finished", "the job has already finished", 409)
	CodeJobNotRetryable        = def("job_not_retryable", "only failed or cancelled jobs can be retried", 409)
	CodeActiveJobConflict      = def("active_job_conflict", "the file has another active job; cancel it first", 409)
	CodeAutoCompileNotFound    = def("auto_compile_not_found", "the folder is not kept compiled", 404)
)

// WebDAV's own answers (RFC 4918).
var (
	CodeInvalidDestination = def("invalid_destination", "the Destination header is not a URL of this mount", 400)
	CodeForeignDestination = def("foreign_destination", "the Destination is on another server", 502)
	CodeSameDestination    = def("same_destination", "the Destination is the source itself", 403)
	CodeDestinationExists  = def("destination_exists", "the Destination exists and Overwrite is F", 412)
	CodeNoParent           = def("no_parent", "the folder of the Destination does not exist", 409)
	CodeInvalidDepth       = def("invalid_depth", "the Depth header is not one this method takes", 400)
	CodeInvalidIfHeader    = def("invalid_if_header", "the If header is malformed", 400)
	CodeLockTokenMismatch  = def("lock_token_mismatch", "no lock named in the If header covers the request", 412)
	CodeLocked             = def("locked", "another client holds a lock", 423)
	CodeLockCheckFailed    = def("lock_check_failed", "the lock check failed", 500)
	CodePreconditionFailed = def("precondition_failed", "the ETag does not match If-Match or If-None-Match", 412)
	CodeIsAFolder          = def("is_a_folder", "PUT names a folder", 405)
	CodeRoot               = def("root", "the root of the mount cannot be deleted or moved", 403)
	CodeInvalidXML         = def("invalid_xml", "the XML body is malformed", 400)
	CodeUnreadableBody     = def("unreadable_body", "the request body could not be read", 400)
	CodeIncompleteBody     = def("incomplete_body", "the request body ended early; nothing was stored", 400)
)

// The server itself.
var (
	CodeInternal            = def("internal", "the server failed; the log says where", 500)
	CodeUnavailable         = def("unavailable", "the database cannot be reached for now; Retry-After says when to try again", 503)
	CodeInsufficientStorage = def("insufficient_storage", "the disk or the database is full; nothing was changed", 507)
	CodeNotReady            = def("not_ready", "this replica cannot do its work yet (/readyz)", 503)
	CodeClientClosedRequest = def("client_closed_request", "the client closed the request before the answer (nobody reads it)", 499)
)

// Signing in through a directory (LDAP): what the directory or the way to
// it made fail. A wrong password or an unknown user is invalid_credentials.
var (
	CodeDirectoryUnavailable = def("directory_unavailable", "the sign-in directory (LDAP) cannot be reached for now; Retry-After says when to try again", 503)
	CodeDirectoryTLS         = def("directory_tls", "the server could not make a trusted TLS connection to the sign-in directory (unknown CA, wrong name, no StartTLS)", 502)
	CodeDirectoryError       = def("directory_error", "the sign-in directory refused the server's own bind or search, or found the user name twice; the log says why", 502)
)
