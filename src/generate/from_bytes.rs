//! A canonical JSON-lines trace built from arbitrary bytes, for the fuzz
//! targets (`fuzz/`) and the property tests (`tests/properties.rs`): every
//! byte string gives a trace, and nearby byte strings give nearby traces,
//! so a fuzzer (or a shrinker) can steer the engine through its states.
//!
//! Each line is drawn from a small vocabulary (the protocol's methods, ids
//! and tokens that collide across types and directions, a few sessions,
//! handshakes of every revision, cancellations, progress, tool listings
//! with hostile schemas, tasks) so that most lines reach a tracker rather
//! than stopping at a decoding error; some lines are broken on purpose.

use serde_json::{json, Map, Value};

use crate::protocol::methods::{rows, Kind, Senders, METHODS};
use crate::protocol::Side;
use crate::protocol::Version;

/// The trace `bytes` describe: one line per step, each step reading a few
/// bytes (missing bytes read as 0). Pure: the same bytes give the same trace.
pub fn trace_from_bytes(bytes: &[u8]) -> String {
    let mut reader = Reader { bytes, at: 0 };
    let mut trace = String::new();
    while reader.at < bytes.len() {
        trace.push_str(&line(&mut reader));
        trace.push('\n');
    }
    trace
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        let byte = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        byte
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[usize::from(self.byte()) % items.len()].clone()
    }
}

/// Methods beyond the table: an unknown one, an extension's, an empty name.
const OTHER_METHODS: &[&str] = &["x/unknown", "io.example/ext", ""];

/// Member names the params and results are built from.
const MEMBERS: &[&str] = &[
    "requestId",
    "progressToken",
    "progress",
    "total",
    "reason",
    "protocolVersion",
    "capabilities",
    "clientInfo",
    "serverInfo",
    "_meta",
    "task",
    "taskId",
    "status",
    "name",
    "arguments",
    "cursor",
    "nextCursor",
    "tools",
    "content",
    "structuredContent",
    "isError",
    "uri",
    "resultType",
    "inputRequests",
    "ttl",
    "level",
];

/// An id or token: mostly small integers, so that they collide; now and
/// then a string that reads the same, or a value of a forbidden type.
fn id(reader: &mut Reader) -> Value {
    match reader.byte() % 16 {
        0..=10 => json!(reader.byte() % 4),
        11 | 12 => json!((reader.byte() % 4).to_string()),
        13 => Value::Null,
        14 => json!(1.5),
        _ => reader.pick(&[json!(-1), json!({"id": 1})]),
    }
}

fn version(reader: &mut Reader) -> Value {
    match reader.byte() % 16 {
        14 => json!("1999-01-01"),
        15 => json!(7),
        n => json!(Version::ALL[usize::from(n) % Version::ALL.len()].as_str()),
    }
}

/// A tool, its schemas from a set that includes hostile ones.
fn tool(reader: &mut Reader) -> Value {
    let schemas = [
        json!({"type": "object"}),
        json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "^(a+)+$"}}, "required": ["a"]}),
        json!({"$ref": "#"}),
        json!({"$ref": "https://example.com/remote.json"}),
        json!({"$defs": {"a": {"anyOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}),
        json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 3}}}),
        json!({"$schema": "http://example.com/unknown", "type": "object"}),
        json!(true),
        json!("not a schema"),
        json!({"type": "object", "pattern": "("}),
    ];
    let mut tool =
        json!({"name": reader.pick(&["add", "echo", ""]), "inputSchema": reader.pick(&schemas)});
    if reader.byte() % 2 == 0 {
        tool["outputSchema"] = reader.pick(&schemas);
    }
    tool
}

/// A value for a member, nested at most `depth` more levels.
fn value(reader: &mut Reader, depth: u8) -> Value {
    match reader.byte() % 12 {
        0 => id(reader),
        1 => version(reader),
        2 => json!(f64::from(reader.byte()) / 4.0),
        3 => json!(reader.pick(&[
            "working",
            "completed",
            "failed",
            "cancelled",
            "input_required",
            "x"
        ])),
        4 => {
            json!({"tools": {"listChanged": true}, "logging": {}, "tasks": {"list": {}, "cancel": {}}})
        }
        5 => json!([tool(reader), tool(reader)]),
        6 => {
            json!({"taskId": reader.pick(&["t1", "t2"]), "status": "working", "createdAt": "2025-01-01T00:00:00Z", "ttl": 1000})
        }
        7 => json!([{"type": "text", "text": "hi"}]),
        8 if depth > 0 => object(reader, depth - 1),
        9 => {
            json!({"a": reader.pick(&["x", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"]), "n": 1})
        }
        10 => json!({"progressToken": id(reader)}),
        _ => Value::Bool(reader.byte() % 2 == 0),
    }
}

fn object(reader: &mut Reader, depth: u8) -> Value {
    let mut members = Map::new();
    for _ in 0..reader.byte() % 4 {
        let name = reader.pick(MEMBERS);
        members.insert(name.into(), value(reader, depth));
    }
    Value::Object(members)
}

/// The methods that move the engine's state, drawn half the time.
const HOT_METHODS: &[&str] = &[
    "initialize",
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "tools/list",
    "tools/call",
    "tasks/get",
    "ping",
];

fn method(reader: &mut Reader) -> &'static str {
    let index = usize::from(reader.byte());
    if index % 2 == 0 {
        return HOT_METHODS[index / 2 % HOT_METHODS.len()];
    }
    METHODS
        .get(index / 2 % (METHODS.len() + OTHER_METHODS.len()))
        .map_or_else(
            || OTHER_METHODS[index % OTHER_METHODS.len()],
            |row| row.name,
        )
}

/// The params of a request or notification: for the methods that move the
/// engine's state, the shape they must have most of the time.
fn params(reader: &mut Reader, method: &str) -> Value {
    let mut params = match method {
        "initialize" => {
            json!({"protocolVersion": version(reader), "capabilities": value(reader, 1), "clientInfo": {"name": "c", "version": "1"}})
        }
        "notifications/cancelled" => json!({"requestId": id(reader)}),
        "notifications/progress" => {
            json!({"progressToken": id(reader), "progress": reader.byte() % 4})
        }
        "tools/call" => {
            json!({"name": reader.pick(&["add", "echo", "missing"]), "arguments": value(reader, 1)})
        }
        "tasks/get" | "tasks/result" | "tasks/cancel" => {
            json!({"taskId": reader.pick(&["t1", "t2"])})
        }
        _ => object(reader, 1),
    };
    if reader.byte() % 4 == 0 {
        params["_meta"] = json!({"progressToken": id(reader)});
    }
    params
}

/// A result: a handshake's, a tool listing, or members drawn from the vocabulary.
fn result(reader: &mut Reader) -> Value {
    match reader.byte() % 4 {
        0 => {
            json!({"protocolVersion": version(reader), "capabilities": value(reader, 1), "serverInfo": {"name": "s", "version": "1"}})
        }
        1 => json!({"tools": [tool(reader), tool(reader)]}),
        _ => object(reader, 2),
    }
}

/// A message and who sends it: mostly a method sent as its kind by a side
/// that may send it, or an answer; now and then the wrong kind or side.
fn message(reader: &mut Reader) -> (Value, Side) {
    let mut message = json!({"jsonrpc": "2.0"});
    let shape = reader.byte();
    let mut from = if reader.byte() % 2 == 0 {
        Side::Client
    } else {
        Side::Server
    };
    match shape % 8 {
        0..=4 => {
            let method = method(reader);
            let row = rows(method).next();
            let request = row.map_or(shape % 2 == 0, |row| row.kind == Kind::Request);
            if request != (shape % 32 == 31) {
                message["id"] = id(reader);
            }
            message["method"] = json!(method);
            message["params"] = params(reader, method);
            from = match row.map(|row| row.senders) {
                Some(Senders::Client) if shape % 16 != 15 => Side::Client,
                Some(Senders::Server) if shape % 16 != 15 => Side::Server,
                _ => from,
            };
        }
        5 | 6 => {
            message["id"] = id(reader);
            message["result"] = result(reader);
        }
        _ => {
            message["id"] = id(reader);
            message["error"] = json!({"code": reader.pick(&[-32600, -32601, -32602, -32700, -32042, 0]), "message": "e"});
        }
    }
    if reader.byte() % 16 == 0 {
        message["jsonrpc"] = reader.pick(&[json!("1.0"), Value::Null]);
    }
    (message, from)
}

/// One line: an envelope holding a message, a batch or a transport event,
/// or (rarely) a line that cannot be read.
fn line(reader: &mut Reader) -> String {
    let mut envelope = json!({});
    match reader.byte() % 8 {
        0..=3 => {}
        4 | 5 => envelope["session"] = json!("s1"),
        6 => envelope["session"] = json!("s2"),
        _ => envelope["session"] = json!(7),
    }
    if reader.byte() % 2 == 0 {
        envelope["ts"] = json!(u32::from(reader.byte()) * 100);
    }
    let from = match reader.byte() % 32 {
        0 => {
            envelope["event"] = json!("closed");
            reader.pick(&[Side::Client, Side::Server])
        }
        1 => {
            envelope["event"] = json!("stderr");
            envelope["text"] = json!("oops");
            Side::Server
        }
        2 => {
            let ((first, from), (second, _)) = (message(reader), message(reader));
            envelope["msg"] = json!([first, second]);
            from
        }
        3 => {
            return reader
                .pick(&["{\"from\":\"client\",\"msg\":{", "not json", "[]", "{}"])
                .into()
        }
        _ => {
            let (message, from) = message(reader);
            envelope["msg"] = message;
            from
        }
    };
    envelope["from"] = json!(from.as_str());
    envelope.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_string_gives_a_trace_of_json_lines_mostly() {
        let bytes: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
        let trace = trace_from_bytes(&bytes);
        let lines: Vec<&str> = trace.lines().collect();
        assert!(lines.len() > 50, "{} lines", lines.len());
        let readable = lines
            .iter()
            .filter(|line| serde_json::from_str::<Value>(line).is_ok())
            .count();
        assert!(
            readable * 10 > lines.len() * 8,
            "{readable} of {}",
            lines.len()
        );
        assert_eq!(trace, trace_from_bytes(&bytes));
        assert_eq!(trace_from_bytes(&[]), "");
    }

    #[test]
    fn the_traces_reach_many_rules() {
        let mut rules = std::collections::BTreeSet::new();
        for seed in 0..8u8 {
            let bytes: Vec<u8> = (0..2000u32)
                .map(|i| (i as u8).wrapping_mul(seed | 1) ^ seed)
                .collect();
            let trace = trace_from_bytes(&bytes);
            rules.extend(crate::lint_str(&trace).iter().map(|d| d.rule.id));
        }
        assert!(rules.len() >= 15, "{} rules: {rules:?}", rules.len());
    }
}
