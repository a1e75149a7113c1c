//! The server's tools, as its `tools/list` results show them: what rules
//! about calling a tool need to know of it (for now its
//! `execution.taskSupport`).

use foldhash::HashMap;
use serde::Deserialize;

use crate::event::{Body, Location, Message, Outcome, Side};
use crate::protocol::tasks::TaskSupport;

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

/// The tools of one session, by name, as last listed.
#[derive(Debug, Default)]
pub struct Tools {
    listed: HashMap<Box<str>, Tool>,
}

impl Tools {
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.listed.get(name)
    }

    /// Applies a message; `answered` is the method of the request a response answers.
    pub(crate) fn apply(
        &mut self,
        from: Side,
        message: &Message,
        location: Location,
        answered: Option<&str>,
    ) {
        let (
            Side::Server,
            Body::Response {
                outcome: Outcome::Result { .. },
                ..
            },
            Some("tools/list"),
        ) = (from, &message.body, answered)
        else {
            return;
        };
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
