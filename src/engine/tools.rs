//! The server's tools, as its `tools/list` results show them: what rules
//! about calling a tool need to know of it (for now its
//! `execution.taskSupport`).

use foldhash::HashMap;
use serde::Deserialize;

use crate::event::{Body, KeyField, Location, Message, Outcome, RequestId, Side};
use crate::protocol::tasks::{self, TaskSupport};

/// A tool the server listed.
#[derive(Debug, Clone, Copy)]
pub struct Tool {
    pub task_support: TaskSupport,
    /// The `tools/list` result that listed it last.
    pub listed: Location,
}

#[derive(Deserialize)]
struct ListResult {
    tools: Vec<ListedTool>,
}

#[derive(Deserialize)]
struct ListedTool {
    name: String,
    execution: Option<Execution>,
}

#[derive(Deserialize)]
struct Execution {
    #[serde(rename = "taskSupport")]
    task_support: Option<String>,
}

#[derive(Deserialize)]
struct CallParams {
    name: String,
}

/// The tools of one session, by name, as last listed.
#[derive(Debug, Default)]
pub struct Tools {
    listed: HashMap<Box<str>, Tool>,
    /// The client's `tools/call` requests not answered yet: the tool each names.
    calls: HashMap<RequestId, Box<str>>,
}

impl Tools {
    /// Whether the trace has listed no tool yet.
    pub fn is_empty(&self) -> bool {
        self.listed.is_empty()
    }

    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.listed.get(name)
    }

    /// The tool an unanswered `tools/call` of the client names.
    pub fn called(&self, id: &RequestId) -> Option<&str> {
        self.calls.get(id).map(|name| &**name)
    }

    /// Applies a message; `answered` is the request a response answers, with its method.
    pub(crate) fn apply(
        &mut self,
        from: Side,
        message: &Message,
        location: Location,
        answered: Option<(&RequestId, &str)>,
    ) {
        match (&message.body, from) {
            (
                Body::Request {
                    id: KeyField::Valid(id),
                    method,
                    ..
                },
                Side::Client,
                // Calls are only worth keeping once the trace has listed tools.
            ) if method == tasks::TOOL_CALL && !self.is_empty() => {
                let call = message.members.params.as_ref();
                if let Some(call) = call.and_then(|p| p.parse::<CallParams>()) {
                    self.calls.insert(id.clone(), call.name.into());
                }
            }
            (Body::Response { outcome, .. }, Side::Server) => {
                if let Some((id, method)) = answered {
                    self.calls.remove(id);
                    if method == tasks::TOOL_LIST && matches!(outcome, Outcome::Result { .. }) {
                        self.note_list(message, location);
                    }
                }
            }
            _ => {}
        }
    }

    fn note_list(&mut self, message: &Message, location: Location) {
        let Some(result) = message
            .members
            .result
            .as_ref()
            .and_then(|r| r.parse::<ListResult>())
        else {
            return;
        };
        for tool in result.tools {
            let task_support = TaskSupport::parse(
                tool.execution
                    .as_ref()
                    .and_then(|e| e.task_support.as_deref()),
            );
            self.listed.insert(
                tool.name.into(),
                Tool {
                    task_support,
                    listed: location,
                },
            );
        }
    }
}
