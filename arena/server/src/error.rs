//! [`ApiError`]: an API error, a status and a message sent as JSON; what every handler and
//! the pages' data fail with.

use crate::store::StoreError;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// An API error: a status and a message, sent as JSON.
#[derive(Debug)]
pub struct ApiError {
    pub(crate) status: StatusCode,
    /// `{"error": …}`, and more where the status says more (a check's report).
    pub(crate) body: Value,
}

impl ApiError {
    /// An error with a message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            body: json!({ "error": message.into() }),
        }
    }

    /// 404 for a missing `what`.
    pub(crate) fn not_found(what: &str) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, format!("no such {what}"))
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        tracing::error!(%error, "database");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, error.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(self.body)).into_response()
    }
}
