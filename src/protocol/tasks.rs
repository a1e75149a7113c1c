//! Tasks (2025-11-25, experimental; basic/utilities/tasks): the statuses
//! and the moves between them, the task operations, the requests a receiver
//! may run as a task and the capability that says so, a tool's
//! `execution.taskSupport`, and the related-task `_meta` key.

use super::version::{Version, Versions};

/// The revisions whose core protocol has tasks (2026-07-28 moved them into
/// the `io.modelcontextprotocol/tasks` extension).
pub const VERSIONS: Versions = Versions::only(Version::V2025_11_25);

/// The revisions in which a message may run as or belong to a task: the
/// core revision, and 2026-07-28 with the tasks extension. In no other is
/// there a task to follow.
pub const FOLLOWED: Versions = VERSIONS.union(Versions::from(Version::V2026_07_28));

/// The `_meta` key that ties a message to a task.
pub const RELATED_TASK_KEY: &str = "io.modelcontextprotocol/related-task";

/// The notification a receiver may send when a task's status changes.
pub const STATUS_NOTIFICATION: &str = "notifications/tasks/status";

/// The status a task must begin in.
pub const INITIAL: Status = Status::Working;

/// A task's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    const ALL: [Status; 5] = [
        Status::Working,
        Status::InputRequired,
        Status::Completed,
        Status::Failed,
        Status::Cancelled,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::InputRequired => "input_required",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// "Tasks with a `completed`, `failed`, or `cancelled` status are in a
    /// terminal state".
    pub fn is_terminal(self) -> bool {
        matches!(self, Status::Completed | Status::Failed | Status::Cancelled)
    }

    /// Whether a task may move from this status to `next` (staying is no move).
    pub fn may_become(self, next: Status) -> bool {
        self == next || !self.is_terminal()
    }
}

/// What a `tasks/*` request does to a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// `tasks/get`: the task's state.
    Get,
    /// `tasks/result`: what the underlying request returns, once terminal.
    Result,
    /// `tasks/list`: the tasks of the receiver.
    List,
    /// `tasks/cancel`: cancels the task.
    Cancel,
}

static OPERATIONS: &[(&str, Operation)] = &[
    ("tasks/get", Operation::Get),
    ("tasks/result", Operation::Result),
    ("tasks/list", Operation::List),
    ("tasks/cancel", Operation::Cancel),
];

/// The task operation a method is, if it is one.
pub fn operation(method: &str) -> Option<Operation> {
    OPERATIONS
        .iter()
        .find(|(name, _)| *name == method)
        .map(|(_, op)| *op)
}

impl Operation {
    /// Whether the request names one task by `params.taskId`.
    pub fn names_task(self) -> bool {
        self != Operation::List
    }

    /// Whether the result is that task's `Task` (`tasks/get`, `tasks/cancel`).
    pub fn answers_task(self) -> bool {
        matches!(self, Operation::Get | Operation::Cancel)
    }
}

/// A request type a receiver may run as a task.
#[derive(Debug, Clone, Copy)]
pub struct Augmentable {
    pub method: &'static str,
    /// The receiver's capability that declares it ("The set of capabilities
    /// in `capabilities.tasks.requests` is exhaustive").
    pub capability: &'static str,
    /// The members the underlying result requires (schema), which
    /// `tasks/result` must return as the request would have.
    pub result_members: &'static [&'static str],
}

static AUGMENTABLE: &[Augmentable] = &[
    Augmentable {
        method: "tools/call",
        capability: "tasks.requests.tools.call",
        result_members: &["content"],
    },
    Augmentable {
        method: "sampling/createMessage",
        capability: "tasks.requests.sampling.createMessage",
        result_members: &["role", "content", "model"],
    },
    Augmentable {
        method: "elicitation/create",
        capability: "tasks.requests.elicitation.create",
        result_members: &["action"],
    },
];

/// The request type `method`, if a receiver may run it as a task.
pub fn augmentable(method: &str) -> Option<&'static Augmentable> {
    AUGMENTABLE.iter().find(|a| a.method == method)
}

/// The capability a receiver declares when it supports tasks at all.
pub const CAPABILITY: &str = "tasks";

/// The method whose requests name a tool, whose `execution.taskSupport`
/// says whether it may run as a task.
pub const TOOL_CALL: &str = "tools/call";

/// The method whose result lists the tools, with their `execution`.
pub const TOOL_LIST: &str = "tools/list";

/// A tool's `execution.taskSupport`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskSupport {
    /// "Tool does not support task-augmented execution (default when absent)".
    Forbidden,
    Optional,
    Required,
}

impl TaskSupport {
    /// The value as written; absent (or unknown) is the default, forbidden.
    pub fn parse(text: Option<&str>) -> TaskSupport {
        match text {
            Some("optional") => TaskSupport::Optional,
            Some("required") => TaskSupport::Required,
            _ => TaskSupport::Forbidden,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }

    /// Whether a call with (`as_task`) or without a task is allowed.
    pub fn allows(self, as_task: bool) -> bool {
        match self {
            TaskSupport::Forbidden => !as_task,
            TaskSupport::Optional => true,
            TaskSupport::Required => as_task,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_statuses_never_move() {
        assert!(Status::Working.may_become(Status::InputRequired));
        assert!(Status::InputRequired.may_become(Status::Working));
        assert!(Status::Working.may_become(Status::Cancelled));
        assert!(Status::Completed.may_become(Status::Completed));
        assert!(!Status::Completed.may_become(Status::Working));
        assert!(!Status::Cancelled.may_become(Status::Completed));
        assert_eq!(Status::parse("input_required"), Some(Status::InputRequired));
        assert_eq!(Status::parse("done"), None);
    }

    #[test]
    fn task_support_defaults_to_forbidden() {
        assert_eq!(TaskSupport::parse(None), TaskSupport::Forbidden);
        assert!(!TaskSupport::Forbidden.allows(true));
        assert!(!TaskSupport::Required.allows(false));
        assert!(TaskSupport::Optional.allows(true) && TaskSupport::Optional.allows(false));
    }

    #[test]
    fn augmentable_requests_name_capabilities_that_exist() {
        use super::super::{capabilities, methods, Side};
        for a in AUGMENTABLE {
            let row = methods::method(a.method, Version::V2025_11_25).expect(a.method);
            let receiver = match row.senders {
                super::super::Senders::Client => Side::Server,
                _ => Side::Client,
            };
            assert!(
                capabilities::exists(receiver, a.capability, Version::V2025_11_25),
                "{}",
                a.capability
            );
        }
        for (name, _) in OPERATIONS {
            assert!(
                methods::method(name, Version::V2025_11_25).is_some(),
                "{name}"
            );
        }
    }
}
