//! Problems and testcases over HTTP: the routes of [`crate::app::problems`].

use axum::{
    Json,
    extract::State,
    http::{StatusCode, header},
    response::IntoResponse,
};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{ApiError, ApiJson, ApiPath, ApiQuery, AppState, auth::Caller};
use crate::{
    api::{
        ErrorBody, ImportedPackage, KattisImportQuery, KattisQuery, NewTestcase, ProblemDocument,
        ProblemList, RejudgeCount, TestcaseCreated, TestcaseList, TestcaseVisibility,
    },
    domain::{PackageFormat, ProblemId, TestcaseName},
    kattis::import::ImportOptions,
};

/// This module's routes, each with its OpenAPI operation.
pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, import_kattis_package))
        .routes(routes!(show))
        .routes(routes!(testcases, add_testcase))
        .routes(routes!(delete_testcase, set_testcase_visibility))
        .routes(routes!(input))
        .routes(routes!(kattis_package))
        .routes(routes!(rejudge))
}

/// List problems.
#[utoipa::path(
    get,
    path = "/api/problems",
    operation_id = "list_problems",
    tag = "problems",
    responses(
        (status = OK, description = "Every problem, by id, without statements.", body = ProblemList),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<ProblemList>, ApiError> {
    let problems = state.app.problems(&caller).await?;
    Ok(Json(ProblemList { problems }))
}

/// A problem, its statement and the testcases the caller may see.
#[utoipa::path(
    get,
    path = "/api/problems/{id}",
    operation_id = "show_problem",
    tag = "problems",
    params(("id" = ProblemId, Path, description = "Problem id")),
    responses(
        (status = OK, description = "The problem.", body = ProblemDocument),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem.", body = ErrorBody),
    )
)]
pub async fn show(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ProblemId>,
) -> Result<Json<ProblemDocument>, ApiError> {
    let problem = state.app.problem(&caller, &id).await?;
    let testcases = state.app.testcases(&caller, &id).await?;
    Ok(Json(ProblemDocument { problem, testcases }))
}

/// Testcases with the state of their reference outputs; contestants see
/// public ones only.
#[utoipa::path(
    get,
    path = "/api/problems/{id}/testcases",
    operation_id = "list_testcases",
    tag = "problems",
    params(("id" = ProblemId, Path, description = "Problem id")),
    responses(
        (status = OK, description = "The testcases, by name.", body = TestcaseList),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem.", body = ErrorBody),
    )
)]
pub async fn testcases(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ProblemId>,
) -> Result<Json<TestcaseList>, ApiError> {
    let testcases = state.app.testcases(&caller, &id).await?;
    Ok(Json(TestcaseList { testcases }))
}

/// A testcase's input as text. Hidden inputs: setters and admins only; to
/// contestants a hidden testcase answers 404, as one that does not exist.
#[utoipa::path(
    get,
    path = "/api/problems/{id}/testcases/{name}/input",
    operation_id = "show_testcase_input",
    tag = "problems",
    params(
        ("id" = ProblemId, Path, description = "Problem id"),
        ("name" = TestcaseName, Path, description = "Testcase name"),
    ),
    responses(
        (status = OK, description = "The input.", body = String, content_type = "text/plain; charset=utf-8"),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem or testcase, or (to a contestant) a hidden testcase.", body = ErrorBody),
    )
)]
pub async fn input(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((id, name)): ApiPath<(ProblemId, TestcaseName)>,
) -> Result<impl IntoResponse, ApiError> {
    let input = state.app.testcase_input(&caller, &id, &name).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], input))
}

/// The problem as a Kattis problem package, zipped (setters and admins):
/// every testcase with its answer by the solver core, the statement in
/// LaTeX, the input validator and the setter solutions.
#[utoipa::path(
    get,
    path = "/api/problems/{id}/kattis",
    operation_id = "export_kattis_package",
    tag = "problems",
    params(("id" = ProblemId, Path, description = "Problem id"), KattisQuery),
    responses(
        (status = OK, description = "The package, one folder named by the problem's short name.", body = Vec<u8>, content_type = "application/zip"),
        (status = BAD_REQUEST, description = "An unknown format.", body = ErrorBody),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem.", body = ErrorBody),
        (status = CONFLICT, description = "The problem cannot be exported yet (interactive, scored by groups, or imported with a setter's testcase whose reference is pending or failed).", body = ErrorBody),
        (status = SERVICE_UNAVAILABLE, description = "This host cannot read the problem's folder.", body = ErrorBody),
    )
)]
pub async fn kattis_package(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ProblemId>,
    ApiQuery(query): ApiQuery<KattisQuery>,
) -> Result<impl IntoResponse, ApiError> {
    let format = query.format.unwrap_or(PackageFormat::Legacy);
    let (name, zip) = state.app.kattis_package(&caller, &id, format).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        zip,
    ))
}

/// Import a Kattis problem package (setters and admins): the body is the
/// package zipped, in the legacy or the 2025-09 format. The problem is
/// hosted at once, judged by its package's answer files, its secret data
/// hidden; its folder is written into the catalog of the host that took
/// the request.
#[utoipa::path(
    post,
    path = "/api/problems",
    operation_id = "import_kattis_package",
    tag = "problems",
    params(KattisImportQuery),
    request_body(content = Vec<u8>, content_type = "application/zip", description = "The package, zipped (inside its folder or not)."),
    responses(
        (status = CREATED, description = "The problem the package became; `Location` is its URL.", body = ImportedPackage),
        (status = BAD_REQUEST, description = "An unknown query parameter or a malformed id.", body = ErrorBody),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = CONFLICT, description = "A problem of that id is hosted already.", body = ErrorBody),
        (status = UNPROCESSABLE_ENTITY, description = "A package nimjudge cannot host, or no time limit for a legacy package: the message names the file and line.", body = ErrorBody),
        (status = SERVICE_UNAVAILABLE, description = "This host cannot write into its catalog folder.", body = ErrorBody),
    )
)]
pub async fn import_kattis_package(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<KattisImportQuery>,
    body: axum::body::Bytes,
) -> Result<impl IntoResponse, ApiError> {
    let options = ImportOptions {
        id: query.id,
        time_limit_ms: query.time_limit_ms,
    };
    let imported = state
        .app
        .import_kattis_package(&caller, body.to_vec(), options)
        .await?;
    let location = format!("/api/problems/{}", imported.problem);
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, location)],
        Json(imported),
    ))
}

/// Add a testcase (setters and admins). The input is validated first; its
/// reference output is computed by a worker.
#[utoipa::path(
    post,
    path = "/api/problems/{id}/testcases",
    tag = "problems",
    params(("id" = ProblemId, Path, description = "Problem id")),
    request_body = NewTestcase,
    responses(
        (status = CREATED, description = "Stored; the reference is pending.", body = TestcaseCreated),
        (status = BAD_REQUEST, description = "Malformed JSON.", body = ErrorBody),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem.", body = ErrorBody),
        (status = CONFLICT, description = "The name is taken.", body = ErrorBody),
        (status = PAYLOAD_TOO_LARGE, description = "Body too large.", body = ErrorBody),
        (status = UNSUPPORTED_MEDIA_TYPE, description = "Not JSON.", body = ErrorBody),
        (status = UNPROCESSABLE_ENTITY, description = "An invalid name, or an input the validator rejects (its message names line, token and constraint).", body = ErrorBody),
    )
)]
pub async fn add_testcase(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ProblemId>,
    ApiJson(body): ApiJson<NewTestcase>,
) -> Result<(StatusCode, Json<TestcaseCreated>), ApiError> {
    let created = state.app.add_testcase(&caller, &id, body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Delete a testcase a setter added (setters and admins). A testcase from
/// the problem folder (a sample or a generated one) is refused with 409:
/// remove it from `problem.toml` instead.
#[utoipa::path(
    delete,
    path = "/api/problems/{id}/testcases/{name}",
    tag = "problems",
    params(
        ("id" = ProblemId, Path, description = "Problem id"),
        ("name" = TestcaseName, Path, description = "Testcase name"),
    ),
    responses(
        (status = NO_CONTENT, description = "Deleted."),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem or testcase.", body = ErrorBody),
        (status = CONFLICT, description = "The testcase comes from the problem folder.", body = ErrorBody),
    )
)]
pub async fn delete_testcase(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((id, name)): ApiPath<(ProblemId, TestcaseName)>,
) -> Result<StatusCode, ApiError> {
    state.app.remove_testcase(&caller, &id, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Hide a testcase a setter added from contestants, or show it (setters
/// and admins). Verdicts already given stay until a rejudge. A testcase
/// from the problem folder is refused with 409, as for deletion.
#[utoipa::path(
    patch,
    path = "/api/problems/{id}/testcases/{name}",
    tag = "problems",
    params(
        ("id" = ProblemId, Path, description = "Problem id"),
        ("name" = TestcaseName, Path, description = "Testcase name"),
    ),
    request_body = TestcaseVisibility,
    responses(
        (status = NO_CONTENT, description = "Changed (or already so)."),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem or testcase.", body = ErrorBody),
        (status = CONFLICT, description = "The testcase comes from the problem folder.", body = ErrorBody),
        (status = UNSUPPORTED_MEDIA_TYPE, description = "Not JSON.", body = ErrorBody),
        (status = UNPROCESSABLE_ENTITY, description = "A body without a boolean `hidden`.", body = ErrorBody),
    )
)]
pub async fn set_testcase_visibility(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((id, name)): ApiPath<(ProblemId, TestcaseName)>,
    ApiJson(body): ApiJson<TestcaseVisibility>,
) -> Result<StatusCode, ApiError> {
    state
        .app
        .set_testcase_hidden(&caller, &id, &name, body.hidden)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Rejudge every judged submission of the problem (setters and admins).
#[utoipa::path(
    post,
    path = "/api/problems/{id}/rejudge",
    operation_id = "rejudge_problem",
    tag = "problems",
    params(("id" = ProblemId, Path, description = "Problem id")),
    responses(
        (status = ACCEPTED, description = "Queued again.", body = RejudgeCount),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem.", body = ErrorBody),
    )
)]
pub async fn rejudge(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ProblemId>,
) -> Result<(StatusCode, Json<RejudgeCount>), ApiError> {
    let queued = state.app.requeue_problem(&caller, &id).await?;
    Ok((StatusCode::ACCEPTED, Json(RejudgeCount { queued })))
}
