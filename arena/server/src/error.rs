//! [`ApiError`]: an API error, a status and a message sent as JSON; what every handler and
//! the pages' data fail with. An internal failure is never shown as it is (a database
//! message, a server path): it is logged under an incident id ([`incident`]) and the
//! answer carries only the id.

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

    /// 500 for a failure of the server's own: logged with an incident id, answered with
    /// the id only.
    pub fn internal(error: &dyn std::fmt::Display) -> ApiError {
        let id = incident(error);
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            body: json!({ "error": internal_message(&id), "incident": id }),
        }
    }
}

/// Log `error` under a new incident id and return the id (16 hex digits, random: ids tell
/// nothing about how many incidents there were).
pub fn incident(error: &dyn std::fmt::Display) -> String {
    let mut bytes = [0u8; 8];
    // Without randomness the clock still tells incidents apart in the log.
    if getrandom::fill(&mut bytes).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        bytes = nanos.to_le_bytes();
    }
    let id = hex::encode(bytes);
    tracing::error!(incident = %id, %error, "internal error");
    id
}

/// What a user is told of an internal failure.
pub fn internal_message(id: &str) -> String {
    format!("internal error (incident {id}); the server's log has the details")
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        ApiError::internal(&error)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(self.body)).into_response()
    }
}
