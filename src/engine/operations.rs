//! Operations of 2026-07-28 that span several requests: a request the
//! server answers with an `InputRequiredResult`, and the client's retry of it
//! with a new id carrying `inputResponses` and `requestState`
//! (basic/patterns/mrtr). The requests tracker keeps, per operation, the
//! round that waits for its retry; this module reads the members involved.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::event::{Body, Json, Location, Message, Method, Outcome, RequestId};
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

    /// The round of `rounds` (one operation's, oldest first) this retry
    /// answers: the one whose requestState it echoes, else the one whose
    /// input requests it answers, else the oldest.
    pub fn retried<'r>(&self, rounds: &'r [InputRound]) -> Option<&'r InputRound> {
        let keys = self.response_keys().unwrap_or_default();
        let echoed =
            |r: &&InputRound| r.request_state.is_some() && r.request_state == self.request_state;
        let answered = |r: &&InputRound| {
            !keys.is_empty() && r.asked.iter().all(|asked| keys.contains(&&**asked))
        };
        let by_state = rounds.iter().find(echoed);
        by_state
            .or_else(|| rounds.iter().find(answered))
            .or(rounds.first())
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
    /// What it asks (an elicitation's mode, a sampling's tools).
    pub params: Option<serde_json::Value>,
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
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModernRequest {
    /// What it names (see [`OperationKey`]).
    pub target: Option<Box<str>>,
    /// The client capabilities it declared: a server may rely on no other.
    pub client_capabilities: Option<serde_json::Value>,
    /// The level it opted in to log messages at
    /// (`io.modelcontextprotocol/logLevel`); empty when that is no string.
    pub log_level: Option<Box<str>>,
    /// Whether it lacked a required `_meta` key, or held one of the wrong type.
    pub malformed_meta: bool,
    /// The request whose input round it retries, when it retries one the
    /// trace shows.
    pub retried: Option<RequestId>,
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
            log_level: params
                .meta(LOG_LEVEL)
                .map(|level| level.as_str().unwrap_or_default().into()),
            malformed_meta: !params.meta_problems().is_empty(),
            retried: None,
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

/// How the server answered the 2026-07-28 requests of a session: whether it
/// serves that revision at all, for a `server/discover` it did not know.
#[derive(Debug, Default)]
pub struct Served {
    /// A `server/discover` answered with -32601 (method not found): the
    /// request's id and the answer.
    pub discover_not_found: Option<(RequestId, Location)>,
    /// Whether the server answered another 2026-07-28 request, and whether
    /// with a result.
    pub other_answered: bool,
    pub other_succeeded: bool,
    /// The versions an `UnsupportedProtocolVersionError` just listed, and
    /// where: the client's next request should name one of them.
    pub supported: Option<(Vec<String>, Location)>,
}

#[derive(Deserialize)]
struct UnsupportedData {
    data: Option<Supported>,
}

#[derive(Deserialize)]
struct Supported {
    supported: Option<Vec<serde_json::Value>>,
}

impl Served {
    pub(crate) fn note(&mut self, id: &RequestId, method: &str, message: &Message, at: Location) {
        let Body::Response { outcome, .. } = &message.body else {
            return;
        };
        if let Outcome::Error {
            code: Some(crate::protocol::errors::UNSUPPORTED_VERSION_CODE),
        } = outcome
        {
            self.note_supported(message, at);
        }
        let not_found = matches!(
            outcome,
            Outcome::Error {
                code: Some(crate::protocol::errors::METHOD_NOT_FOUND)
            }
        );
        match (method, not_found) {
            ("server/discover", true) => {
                self.discover_not_found.get_or_insert((id.clone(), at));
            }
            _ => {
                self.other_answered = true;
                self.other_succeeded |= matches!(outcome, Outcome::Result { .. });
            }
        }
    }

    fn note_supported(&mut self, message: &Message, at: Location) {
        let error = message.members.error.as_ref();
        let listed = error
            .and_then(|e| e.parse::<UnsupportedData>())
            .and_then(|e| e.data?.supported);
        let versions = listed.into_iter().flatten();
        let versions = versions.filter_map(|v| v.as_str().map(str::to_string));
        let versions: Vec<String> = versions.collect();
        self.supported = (!versions.is_empty()).then_some((versions, at));
    }

    /// The client sent its next request: only that one retries.
    pub(crate) fn client_moved_on(&mut self) {
        self.supported = None;
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::{server, trace, v5_request};

    /// Every finding of every rule, as (line, rule).
    fn all_findings(lines: &[String]) -> Vec<(u64, &'static str)> {
        let trace = trace(lines);
        crate::lint_with(&trace, None, crate::rules::engine())
            .iter()
            .map(|d| (d.location.line, d.rule.id))
            .collect()
    }

    const ELICIT: &str = r#"{"method":"elicitation/create","params":{"mode":"form","message":"City?","requestedSchema":{"type":"object","properties":{"city":{"type":"string"}}}}}"#;

    #[test]
    fn a_retry_is_its_own_request_and_takes_its_round_once() {
        let caps = r#"{"elicitation":{}}"#;
        let call =
            crate::rules::testing::v5_request_declaring("1", "tools/call", r#""name":"f","#, caps);
        let input = server(&format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{{"city":{ELICIT}}},"requestState":"s"}}}}"#
        ));
        let members = r#""name":"f","inputResponses":{"city":{"action":"accept","content":{"city":"Oslo"}}},"requestState":"s","#;
        let retry = crate::rules::testing::v5_request_declaring("2", "tools/call", members, caps);
        let done =
            server(r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[]}}"#);
        let discover = crate::rules::testing::DISCOVER.to_string();
        let found = server(
            r#"{"jsonrpc":"2.0","id":0,"result":{"resultType":"complete","cacheScope":"public","ttlMs":0,"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}}"#,
        );
        let lines = [discover, found, call, input, retry.clone(), done.clone()];
        assert_eq!(all_findings(&lines), []);
        // Retried again, the round is gone: the responses answer nothing asked.
        let again = retry.replace(r#""id":2"#, r#""id":3"#);
        let mut twice = lines.to_vec();
        twice.extend([again, done.replace(r#""id":2"#, r#""id":3"#)]);
        assert_eq!(all_findings(&twice), [(7, "v5-mrtr-responses-keys")]);
    }

    #[test]
    fn two_waiting_calls_of_one_tool_are_told_apart_by_their_state() {
        let caps = r#"{"elicitation":{}}"#;
        let declaring = crate::rules::testing::v5_request_declaring;
        let asked = |id: u8, state: &str| {
            server(&format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"input_required","inputRequests":{{"city":{ELICIT}}},"requestState":"{state}"}}}}"#
            ))
        };
        let retry = |id: &str, state: &str| {
            let members = format!(
                r#""name":"f","inputResponses":{{"city":{{"action":"decline"}}}},"requestState":"{state}","#
            );
            declaring(id, "tools/call", &members, caps)
        };
        let done = |id: u8| {
            server(&format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"complete","content":[]}}}}"#
            ))
        };
        let lines = [
            crate::rules::testing::DISCOVER.to_string(),
            server(
                r#"{"jsonrpc":"2.0","id":0,"result":{"resultType":"complete","cacheScope":"public","ttlMs":0,"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}}"#,
            ),
            declaring("1", "tools/call", r#""name":"f","#, caps),
            declaring("2", "tools/call", r#""name":"f","#, caps),
            asked(1, "one"),
            asked(2, "two"),
            retry("3", "two"),
            retry("4", "one"),
            done(3),
            done(4),
        ];
        assert_eq!(all_findings(&lines), []);
    }

    #[test]
    fn a_discover_probe_that_falls_back_to_the_handshake_is_read_in_the_handshake() {
        let lines = [
            v5_request("1", "server/discover", ""),
            server(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#),
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}}}"#.into(),
            server(r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"s","version":"1"}}}"#),
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}"#.into(),
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":"p"}}}}"#.into(),
            server(r#"{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{"mode":"form","message":"?","requestedSchema":{"type":"object","properties":{}}}}"#),
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":"s1","result":{"action":"decline"}}}"#.into(),
            server(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#),
            server(r#"{"jsonrpc":"2.0","id":3,"result":{"content":[]}}"#),
        ];
        assert_eq!(all_findings(&lines), []);
    }
}
