//! Operations of 2026-07-28 that span several requests: a request the
//! server answers with an `InputRequiredResult`, and the client's retry of it
//! with a new id carrying `inputResponses` and `requestState`
//! (basic/patterns/mrtr). The requests tracker keeps, per operation, the
//! round that waits for its retry; this module reads the members involved.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::event::{Json, Location, Message, Method, RequestId};
use crate::protocol::fields::INPUT_REQUIRED;

/// An operation: the method and what it names (`params.name` of
/// `tools/call` and `prompts/get`, `params.uri` of `resources/read`). A
/// retry repeats both.
pub type OperationKey = (Method, Option<Box<str>>);

/// The members of a 2026-07-28 request's params that its operation and its
/// answer are judged by.
#[derive(Debug, Default, Deserialize)]
pub struct RequestParams {
    name: Option<serde_json::Value>,
    uri: Option<serde_json::Value>,
    #[serde(rename = "inputResponses")]
    pub input_responses: Option<serde_json::Value>,
    #[serde(rename = "requestState")]
    pub request_state: Option<serde_json::Value>,
    #[serde(rename = "_meta")]
    meta: Option<BTreeMap<String, serde_json::Value>>,
}

impl RequestParams {
    /// The params of a request, when they are an object.
    pub fn of(message: &Message) -> Option<RequestParams> {
        message.members.params.as_ref()?.parse()
    }

    /// What the request names: a tool or prompt, or a resource.
    pub fn target(&self) -> Option<Box<str>> {
        let named = self.name.as_ref().or(self.uri.as_ref())?;
        named.as_str().map(Into::into)
    }

    /// Whether the request retries an operation: it answers input requests
    /// or echoes a request state.
    pub fn is_retry(&self) -> bool {
        self.input_responses.is_some() || self.request_state.is_some()
    }

    /// The keys of `inputResponses`, when it is an object.
    pub fn response_keys(&self) -> Option<Vec<&str>> {
        let object = self.input_responses.as_ref()?.as_object()?;
        Some(object.keys().map(String::as_str).collect())
    }

    /// A reserved `_meta` value.
    pub fn meta(&self, key: &str) -> Option<&serde_json::Value> {
        self.meta.as_ref()?.get(key)
    }

    /// The required `_meta` keys the request lacks or holds with a value
    /// of the wrong type.
    pub fn meta_problems(&self) -> Vec<(&'static str, MetaProblem)> {
        let required = crate::protocol::meta::REQUIRED_REQUEST_KEYS.iter();
        let problem = |(key, kind): &(&'static str, _)| match self.meta(key) {
            None => Some((*key, MetaProblem::Missing)),
            Some(value) if !crate::protocol::meta::ValueType::holds(*kind, value) => {
                Some((*key, MetaProblem::WrongType(*kind)))
            }
            Some(_) => None,
        };
        required.filter_map(problem).collect()
    }
}

/// The members of a 2026-07-28 result that say whether it completes the
/// request or asks for input first.
#[derive(Debug, Default, Deserialize)]
pub struct ResultView {
    #[serde(rename = "resultType")]
    pub result_type: Option<serde_json::Value>,
    #[serde(rename = "inputRequests")]
    pub input_requests: Option<BTreeMap<String, InputRequest>>,
    #[serde(rename = "requestState")]
    pub request_state: Option<serde_json::Value>,
}

/// One input request of an `InputRequiredResult`.
#[derive(Debug, Deserialize)]
pub struct InputRequest {
    pub method: Option<serde_json::Value>,
}

impl InputRequest {
    pub fn method(&self) -> Option<&str> {
        self.method.as_ref()?.as_str()
    }
}

impl ResultView {
    /// The result of a response, when it is an object.
    pub fn of(result: Option<&Json>) -> Option<ResultView> {
        result?.parse()
    }

    pub fn requires_input(&self) -> bool {
        self.result_type.as_ref().and_then(|t| t.as_str()) == Some(INPUT_REQUIRED)
    }
}

/// A request the server answered with an `InputRequiredResult`: its
/// operation waits for the client to retry it.
#[derive(Debug, Clone)]
pub struct InputRound {
    /// The id of the request that was answered.
    pub id: RequestId,
    pub request: Location,
    /// Where the `InputRequiredResult` is.
    pub result: Location,
    /// The keys of its `inputRequests`.
    pub asked: Vec<Box<str>>,
    /// Its `requestState`, which the retry must echo exactly.
    pub request_state: Option<serde_json::Value>,
}

impl InputRound {
    /// The round a result opens, when it asks for input.
    pub(crate) fn of(
        id: &RequestId,
        request: Location,
        result: Location,
        view: &ResultView,
    ) -> Option<InputRound> {
        if !view.requires_input() {
            return None;
        }
        let asked = view.input_requests.iter().flatten();
        Some(InputRound {
            id: id.clone(),
            request,
            result,
            asked: asked.map(|(key, _)| key.as_str().into()).collect(),
            request_state: view.request_state.clone(),
        })
    }
}

/// Reads `_meta` keys without knowing the rest of the params.
#[derive(Deserialize)]
pub struct MetaOnly {
    #[serde(rename = "_meta")]
    pub meta: Option<BTreeMap<String, serde_json::Value>>,
}

impl MetaOnly {
    /// A `_meta` value of a message's params.
    pub fn value(message: &Message, key: &str) -> Option<serde_json::Value> {
        let params: MetaOnly = message.members.params.as_ref()?.parse()?;
        params.meta?.remove(key)
    }
}

/// What a 2026-07-28 request declared, kept while it is open for the rules
/// about its answer and the messages sent for it.
#[derive(Debug, Clone, Default)]
pub struct ModernRequest {
    /// What it names (see [`OperationKey`]).
    pub target: Option<Box<str>>,
    /// The client capabilities it declared: a server may rely on no other.
    pub client_capabilities: Option<serde_json::Value>,
    /// Whether it opted in to log messages (`io.modelcontextprotocol/logLevel`).
    pub log_level: bool,
    /// Whether it lacked a required `_meta` key, or held one of the wrong type.
    pub malformed_meta: bool,
}

impl ModernRequest {
    pub(crate) fn of(params: &RequestParams) -> ModernRequest {
        use crate::protocol::meta::{CLIENT_CAPABILITIES, LOG_LEVEL};
        ModernRequest {
            target: params.target(),
            client_capabilities: params
                .meta(CLIENT_CAPABILITIES)
                .filter(|c| c.is_object())
                .cloned(),
            log_level: params.meta(LOG_LEVEL).is_some(),
            malformed_meta: !params.meta_problems().is_empty(),
        }
    }
}

/// What is wrong with a required `_meta` key of a 2026-07-28 request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaProblem {
    Missing,
    /// Of the wrong type; the type it must have.
    WrongType(crate::protocol::meta::ValueType),
}
