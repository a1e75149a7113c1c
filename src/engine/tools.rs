//! The server's tools, as the session's `tools/list` results show them:
//! each tool's schemas compiled once per session (by schema text), whether
//! the list is complete (a listing whose last page has no `nextCursor`),
//! and whether the server said it changed since. Also the tool each open
//! `tools/call` names, so its result can be read against that tool.

use std::borrow::Cow;
use std::sync::Arc;

use foldhash::{HashMap, HashSet};

use super::cold::ColdMap;
use super::lazy::Lazy;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::tool_schema::{self, ToolSchema};
use crate::event::{Body, Json, KeyField, Location, Message, RequestId, Side};
use crate::json_text::{
    checked_array, checked_members, checked_members_read_by, checked_value_end, members,
    string_value,
};
use crate::protocol::headers::{mirrored_params, MirroredParam, PARAM_ANNOTATION};
use crate::protocol::tasks::TaskSupport;
use crate::protocol::Version;

/// How far the listed tools can be trusted to be all the server's tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ListState {
    /// No `tools/list` result yet.
    #[default]
    Unseen,
    /// Only pages with a `nextCursor`: more tools may exist.
    Partial,
    /// A whole listing, and no change announced since.
    Complete,
    /// A whole listing, then `notifications/tools/list_changed`.
    Stale,
}

/// One listed tool.
#[derive(Debug, Clone)]
pub struct Tool {
    pub name: Box<str>,
    /// The `tools/list` result that listed it last.
    pub listed: Location,
    /// Its `execution.taskSupport` (2025-11-25 tasks).
    pub task_support: TaskSupport,
    pub input: Option<Arc<ToolSchema>>,
    pub output: Option<Arc<ToolSchema>>,
    /// The parameters it mirrors into `Mcp-Param-{Name}` headers (2026-07-28).
    pub mirrored: Vec<MirroredParam>,
    /// Its listing names another tool the same: a call of that name may
    /// mean either, so its schemas are not checked (a redacted trace
    /// names every tool alike).
    pub ambiguous: bool,
}

/// The tools one `tools/list` result lists, with their schemas compiled.
#[derive(Debug, Default)]
pub struct Listing {
    pub tools: Vec<Tool>,
    /// The result names a next page.
    pub more: bool,
    /// The schemas compiled for it, by their text (those the session had not compiled).
    compiled: Vec<(Box<str>, Arc<ToolSchema>)>,
}

/// A page of a `tools/list` result.
struct Page<'a> {
    tools: Vec<Listed<'a>>,
    next_cursor: Option<&'a str>,
}

/// A tool of a page, its members' text as written.
struct Listed<'a> {
    name: Option<Cow<'a, str>>,
    input_schema: Option<&'a str>,
    output_schema: Option<&'a str>,
    /// Its `execution.taskSupport`.
    task_support: Option<Cow<'a, str>>,
}

impl<'a> Page<'a> {
    /// The page a result's valid text holds, read without building its
    /// values (a listing's schemas can be long); `None` where a member is
    /// not of its type, or written twice (as serde_json refuses either).
    fn read(result: &'a str) -> Option<Page<'a>> {
        const TOOLS: Option<usize> = Some(0);
        let mut tools = Vec::new();
        let names = ["tools", "nextCursor"];
        let ([_, next_cursor], _) = checked_members_read_by(result, 0, names, |index, start| {
            if index != TOOLS {
                return checked_value_end(result.as_bytes(), start);
            }
            checked_array(result, start, |at| {
                let (tool, end) = Listed::read(result, at)?;
                tools.push(tool);
                Some(end)
            })
        })?;
        Some(Page {
            tools,
            next_cursor: unless_null(next_cursor),
        })
    }
}

impl<'a> Listed<'a> {
    /// The tool whose object opens at `at`, and where it ends.
    fn read(text: &'a str, at: usize) -> Option<(Listed<'a>, usize)> {
        const NAMES: [&str; 4] = ["name", "inputSchema", "outputSchema", "execution"];
        let ([name, input, output, execution], end) = checked_members(text, at, NAMES)?;
        let task_support = match unless_null(execution) {
            None => None,
            Some(execution) => checked_members(execution, 0, ["taskSupport"])?.0[0],
        };
        let tool = Listed {
            name: string_or_null(name)?,
            input_schema: unless_null(input),
            output_schema: unless_null(output),
            task_support: string_or_null(task_support)?,
        };
        Some((tool, end))
    }
}

/// A member's text, unless it is absent or `null` (an `Option` member).
fn unless_null(member: Option<&str>) -> Option<&str> {
    member.filter(|text| *text != "null")
}

/// A member that is a string or `null`: `None` for another type.
fn string_or_null(member: Option<&str>) -> Option<Option<Cow<'_, str>>> {
    match unless_null(member) {
        None => Some(None),
        Some(text) => string_value(text).map(Some),
    }
}

/// A `tools/call` as the engine reads it for the rules, its params walked once.
pub struct Call<'m> {
    /// The tool it names (a string `params.name`).
    pub name: Box<str>,
    /// The text of `params.arguments`: `Some(None)` where it is absent,
    /// `None` where it is written twice (serde_json refuses such an object).
    pub arguments: Option<Option<&'m str>>,
}

/// The text of the `name` and `arguments` members of a `tools/call`'s
/// params, found in one pass: each `Some(None)` where absent, `None` where
/// written twice; `None` for params that are not an object, or that name a
/// member unreadably (as serde_json refuses either). Other members are
/// skipped without being built: a call's arguments can be long.
fn call_members(message: &Message) -> Option<[Option<Option<&str>>; 2]> {
    let params = message.members.params.as_ref()?.text();
    if !params.starts_with('{') {
        return None;
    }
    let mut found = [Some(None); 2];
    for (name, value) in members(params) {
        let slot = match &*name.value()? {
            "name" => &mut found[0],
            "arguments" => &mut found[1],
            _ => continue,
        };
        *slot = match slot {
            Some(None) => Some(Some(value)),
            _ => None,
        };
    }
    Some(found)
}

/// A `tools/call` request whose params are an object with a string name.
fn call(message: &Message) -> Option<Call<'_>> {
    if message.method() != Some("tools/call") {
        return None;
    }
    let [name, arguments] = call_members(message)?;
    Some(Call {
        name: string_value(name??)?.into(),
        arguments,
    })
}

/// What a message tells of tools, read once (its params or result parsed
/// once) for the rules and then the session's tools tracker.
#[derive(Debug, Default)]
pub struct ToolsRead {
    /// The tools a server's `tools/list` result lists.
    pub listing: Option<Listing>,
    /// The tool a client's `tools/call` names.
    pub called: Option<Box<str>>,
}

/// The arguments of a `tools/call` request (the text of its `arguments`
/// member, `None` where absent), built only for a tool whose schema checks
/// them: absent arguments are an empty object to the tool.
pub fn call_arguments(arguments: Option<&str>) -> Option<serde_json::Value> {
    match arguments {
        None | Some("null") => Some(serde_json::json!({})),
        Some(arguments) => serde_json::from_str(arguments).ok(),
    }
}

/// The parameters an `inputSchema` mirrors into headers (parsed only when
/// it names the annotation).
fn mirrored(input_schema: Option<&str>) -> Vec<MirroredParam> {
    let text = input_schema.unwrap_or("");
    if !text.contains(PARAM_ANNOTATION) {
        return Vec::new();
    }
    serde_json::from_str(text)
        .map(|schema| mirrored_params(&schema))
        .unwrap_or_default()
}

#[derive(Deserialize)]
struct ListParams<'a> {
    #[serde(borrow)]
    cursor: Option<&'a RawValue>,
}

#[derive(Debug, Default)]
pub struct Tools {
    pub state: ListState,
    /// The tools of the last complete listing.
    listed: HashMap<Box<str>, Tool>,
    /// The pages of a listing not complete yet.
    pending: HashMap<Box<str>, Tool>,
    /// The client's `tools/list` requests that ask for a next page.
    continuations: HashSet<RequestId>,
    /// The tool each open `tools/call` names (a call cancelled and never
    /// answered stays open: the older ones wait in the spill file).
    calls: Lazy<ColdMap<Box<str>>>,
    /// Compiled schemas by their text: a schema is compiled once per session.
    compiled: HashMap<Box<str>, Arc<ToolSchema>>,
    /// No rule the engine runs reads the tools: they are not followed.
    pub(crate) unread: bool,
}

impl Tools {
    /// The tool called `name`, in the listing under way or the last complete one.
    pub fn find(&self, name: &str) -> Option<&Tool> {
        self.pending.get(name).or_else(|| self.listed.get(name))
    }

    /// The tool called `name` (see [`Tools::find`]).
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.find(name)
    }

    /// Whether the trace has listed no tool yet.
    pub fn is_empty(&self) -> bool {
        self.listed.is_empty() && self.pending.is_empty()
    }

    /// The name an open `tools/call` gives.
    pub fn called(&self, id: &RequestId) -> Option<&str> {
        self.calls.existing()?.get(id).map(|name| &**name)
    }

    /// The tool an open `tools/call` names.
    pub fn called_tool(&self, id: &RequestId) -> Option<&Tool> {
        self.find(self.called(id)?)
    }

    /// A client's `tools/call`, read only when the session follows its
    /// tools (a rule that runs needs them).
    pub fn called_by<'m>(&self, from: Side, message: &'m Message) -> Option<Call<'m>> {
        if self.unread || from != Side::Client {
            return None;
        }
        call(message)
    }

    /// Reads a `tools/list` result, compiling each schema this session has
    /// not compiled yet. `None` when it is not an object of tools.
    pub fn read(
        &self,
        result: &Json,
        version: Option<Version>,
        location: Location,
    ) -> Option<Listing> {
        if self.unread {
            return None;
        }
        let page = Page::read(result.text())?;
        let mut compiled: Vec<(Box<str>, Arc<ToolSchema>)> = Vec::new();
        let mut schema = |text: Option<&str>| {
            let text = text?;
            let known = self.compiled.get(text).cloned().or_else(|| {
                let earlier = compiled.iter().find(|(t, _)| &**t == text);
                earlier.map(|(_, schema)| schema.clone())
            });
            Some(known.unwrap_or_else(|| {
                let schema = Arc::new(tool_schema::compile(text, version));
                compiled.push((text.into(), schema.clone()));
                schema
            }))
        };
        let mut tools = Vec::with_capacity(page.tools.len());
        for listed in page.tools {
            let (input, output) = (schema(listed.input_schema), schema(listed.output_schema));
            let mirrored = mirrored(listed.input_schema);
            if let Some(name) = listed.name {
                tools.push(Tool {
                    name: name.into(),
                    listed: location,
                    task_support: TaskSupport::parse(listed.task_support.as_deref()),
                    input,
                    output,
                    mirrored,
                    ambiguous: false,
                });
            }
        }
        let names: Vec<Box<str>> = tools.iter().map(|t| t.name.clone()).collect();
        for tool in &mut tools {
            tool.ambiguous = names.iter().filter(|n| **n == tool.name).count() > 1;
        }
        Some(Listing {
            tools,
            more: page.next_cursor.is_some(),
            compiled,
        })
    }

    /// Applies a message after the rules have seen it; `read` is what the
    /// engine read of it for them, `answered` the request a response answers.
    pub(crate) fn apply(
        &mut self,
        from: Side,
        message: &Message,
        answered: Option<(&RequestId, &str)>,
        read: ToolsRead,
    ) {
        if self.unread {
            return;
        }
        match (&message.body, from) {
            (
                Body::Request {
                    id: KeyField::Valid(id),
                    method,
                    ..
                },
                Side::Client,
            ) => {
                let params = message.members.params.as_ref();
                match &**method {
                    "tools/call" => {
                        if let Some(name) = read.called {
                            self.calls.make().insert(id.clone(), name);
                        }
                    }
                    "tools/list" => {
                        let cursor = params
                            .and_then(|p| p.parse::<ListParams>())
                            .and_then(|p| p.cursor);
                        if cursor.is_some() {
                            self.continuations.insert(id.clone());
                        }
                    }
                    _ => {}
                }
            }
            (Body::Notification { method, .. }, Side::Server)
                if method == "notifications/tools/list_changed"
                    && self.state == ListState::Complete =>
            {
                self.state = ListState::Stale;
            }
            (Body::Response { .. }, Side::Server) => {
                if let Some((id, method)) = answered {
                    if let Some(calls) = self.calls.existing_mut() {
                        calls.remove(id);
                    }
                    let continued = self.continuations.remove(id);
                    if let (Some(listing), "tools/list") = (read.listing, method) {
                        self.note_listing(listing, continued);
                    }
                }
            }
            _ => {}
        }
    }

    fn note_listing(&mut self, listing: Listing, continued: bool) {
        if !continued {
            self.pending.clear();
        }
        self.compiled.extend(listing.compiled);
        for tool in listing.tools {
            self.pending.insert(tool.name.clone(), tool);
        }
        if listing.more {
            if self.state == ListState::Unseen {
                self.state = ListState::Partial;
            }
            return;
        }
        self.listed = std::mem::take(&mut self.pending);
        self.state = ListState::Complete;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tools of a page as (name, input schema, output schema, task
    /// support), and whether it names a next page.
    fn read(result: &str) -> Option<(Vec<[Option<String>; 4]>, bool)> {
        let page = Page::read(result)?;
        let tools = page.tools.iter().map(|tool| {
            [
                tool.name.as_deref(),
                tool.input_schema,
                tool.output_schema,
                tool.task_support.as_deref(),
            ]
            .map(|member| member.map(str::to_string))
        });
        Some((tools.collect(), page.next_cursor.is_some()))
    }

    #[test]
    fn a_page_is_read_from_its_text() {
        let result = r#"{"tools": [
            {"name": "se\u0061rch", "description": "d", "inputSchema": {"type": "object"},
             "execution": {"taskSupport": "optional"}},
            {"name": null, "inputSchema": null, "outputSchema": {"type": "object", "a": [1]},
             "execution": null},
            {"description": "no name"}
        ], "nextCursor": "2"}"#;
        let some = |text: &str| Some(text.to_string());
        let (tools, more) = read(result).unwrap();
        assert_eq!(
            tools,
            [
                [
                    some("search"),
                    some(r#"{"type": "object"}"#),
                    None,
                    some("optional")
                ],
                [None, None, some(r#"{"type": "object", "a": [1]}"#), None],
                [None, None, None, None],
            ]
        );
        assert!(more);
        assert_eq!(
            read(r#"{"tools": [], "nextCursor": null}"#),
            Some((vec![], false))
        );
        assert_eq!(read("{}"), Some((vec![], false)));
    }

    #[test]
    fn a_page_whose_members_have_other_types_is_not_read() {
        for result in [
            r#"["tools"]"#,
            r#"{"tools": {"name": "a"}}"#,
            r#"{"tools": null}"#,
            r#"{"tools": ["a"]}"#,
            r#"{"tools": [["a", {}]]}"#,
            r#"{"tools": [{"name": 1}]}"#,
            r#"{"tools": [{"name": "a", "name": "b"}]}"#,
            r#"{"tools": [{"name": "a", "execution": "optional"}]}"#,
            r#"{"tools": [{"name": "a", "execution": {"taskSupport": 1}}]}"#,
            r#"{"tools": [], "tools": []}"#,
        ] {
            assert!(read(result).is_none(), "{result}");
        }
    }
}
