//! A generator of realistic synthetic traces, for benchmarks and for tests
//! that need large inputs (large traces are generated, never committed).
//!
//! Several sessions are interleaved; each does a handshake and then tool
//! calls with progress, cancellations, pings from the server and log
//! notifications. A configurable share of operations carries a violation.

use std::io::{self, Write};

#[derive(Debug, Clone)]
pub struct GeneratorConfig {
    /// Sessions interleaved in the trace.
    pub sessions: usize,
    /// Stop once about this many bytes are written.
    pub target_bytes: u64,
    /// Share of operations (0.0 to 1.0) that carry a protocol violation.
    pub violation_rate: f64,
    pub seed: u64,
}

impl Default for GeneratorConfig {
    fn default() -> Self {
        GeneratorConfig {
            sessions: 8,
            target_bytes: 1 << 20,
            violation_rate: 0.01,
            seed: 0x5eed,
        }
    }
}

/// What was written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GeneratedStats {
    pub bytes: u64,
    pub lines: u64,
    pub violations: u64,
}

/// A small deterministic PRNG (xorshift64*), so traces are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}

const TOOLS: &[&str] = &[
    "search_docs",
    "read_file",
    "run_query",
    "fetch_url",
    "summarize",
];
const WORDS: &[&str] = &[
    "alpha", "budget", "cancel", "deploy", "report", "quarter", "latency", "index", "vector",
    "token",
];

struct SessionState {
    name: String,
    next_id: u64,
    next_server_id: u64,
    started: bool,
}

struct Writer<'a, W: Write> {
    out: &'a mut W,
    stats: GeneratedStats,
    clock_ms: u64,
}

impl<W: Write> Writer<'_, W> {
    fn line(&mut self, from: &str, session: &str, msg: &str) -> io::Result<()> {
        self.clock_ms += 3;
        let (secs, ms) = (self.clock_ms / 1000, self.clock_ms % 1000);
        let line = format!(
            "{{\"ts\":\"2026-11-30T{:02}:{:02}:{:02}.{ms:03}Z\",\"from\":\"{from}\",\"session\":\"{session}\",\"msg\":{msg}}}\n",
            (secs / 3600) % 24,
            (secs / 60) % 60,
            secs % 60
        );
        self.out.write_all(line.as_bytes())?;
        self.stats.bytes += line.len() as u64;
        self.stats.lines += 1;
        Ok(())
    }
}

/// `min` to `min + spread - 1` random words.
fn text(rng: &mut Rng, min: usize, spread: u64) -> String {
    let words = min + rng.below(spread) as usize;
    (0..words)
        .map(|_| WORDS[rng.below(WORDS.len() as u64) as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes a trace as configured.
pub fn generate<W: Write>(config: &GeneratorConfig, out: &mut W) -> io::Result<GeneratedStats> {
    let mut rng = Rng(config.seed | 1);
    let mut sessions: Vec<SessionState> = (0..config.sessions.max(1))
        .map(|i| SessionState {
            name: format!("session-{i}"),
            next_id: 1,
            next_server_id: 1,
            started: false,
        })
        .collect();
    let mut w = Writer {
        out,
        stats: GeneratedStats::default(),
        clock_ms: 0,
    };
    while w.stats.bytes < config.target_bytes {
        let index = rng.below(sessions.len() as u64) as usize;
        let s = &mut sessions[index];
        let name = s.name.clone();
        if !s.started {
            s.started = true;
            w.line("client", &name, r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"sampling":{},"roots":{"listChanged":true}},"clientInfo":{"name":"bench-client","version":"1.4.2"}}}"#)?;
            w.line("server", &name, r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":{"name":"bench-server","version":"0.9.0"}}}"#)?;
            w.line(
                "client",
                &name,
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            )?;
            continue;
        }
        let id = s.next_id;
        s.next_id += 1;
        let violate = rng.chance(config.violation_rate);
        if violate {
            w.stats.violations += 1;
        }
        match rng.below(10) {
            0 => {
                w.line(
                    "client",
                    &name,
                    &format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#),
                )?;
                w.line("server", &name, &format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[{{"name":"search_docs","description":"Search the documentation index","inputSchema":{{"type":"object","properties":{{"query":{{"type":"string"}}}}}}}},{{"name":"run_query","description":"Run a read-only query","inputSchema":{{"type":"object"}}}}]}}}}"#))?;
                if violate {
                    // A second answer to the same request.
                    w.line(
                        "server",
                        &name,
                        &format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[]}}}}"#),
                    )?;
                }
            }
            1 => {
                let sid = s.next_server_id;
                s.next_server_id += 1;
                w.line(
                    "server",
                    &name,
                    &format!(r#"{{"jsonrpc":"2.0","id":"srv-{sid}","method":"ping"}}"#),
                )?;
                w.line(
                    "client",
                    &name,
                    &format!(r#"{{"jsonrpc":"2.0","id":"srv-{sid}","result":{{}}}}"#),
                )?;
                s.next_id -= 1;
            }
            2 => {
                let level = ["info", "debug", "warning"][rng.below(3) as usize];
                w.line("server", &name, &format!(r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"{level}","logger":"bench","data":"{}"}}}}"#, text(&mut rng, 8, 1)))?;
                s.next_id -= 1;
            }
            _ => {
                let tool = TOOLS[rng.below(TOOLS.len() as u64) as usize];
                let token = format!("tok-{id}");
                let query = text(&mut rng, 6, 20);
                w.line("client", &name, &format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{"query":"{query}","limit":{}}},"_meta":{{"progressToken":"{token}"}}}}}}"#, rng.below(50) + 1))?;
                let updates = rng.below(4);
                for step in 1..=updates {
                    let progress = if violate && step == updates {
                        step - 1
                    } else {
                        step
                    };
                    w.line("server", &name, &format!(r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"{token}","progress":{progress},"total":{updates},"message":"step {step}"}}}}"#))?;
                }
                if rng.below(8) == 0 {
                    let target = if violate { id + 1000 } else { id };
                    w.line("client", &name, &format!(r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{target},"reason":"user pressed stop"}}}}"#))?;
                    if violate {
                        w.line("server", &name, &format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"cancelled"}}]}}}}"#))?;
                    }
                } else {
                    w.line("server", &name, &format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"{}"}}],"isError":false}}}}"#, text(&mut rng, 12, 30)))?;
                }
            }
        }
    }
    w.out.flush()?;
    Ok(w.stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_traces_are_reproducible_and_sized() {
        let config = GeneratorConfig {
            target_bytes: 64 * 1024,
            ..GeneratorConfig::default()
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let stats = generate(&config, &mut a).unwrap();
        generate(&config, &mut b).unwrap();
        assert_eq!(a, b);
        assert!(stats.bytes >= config.target_bytes);
        assert_eq!(stats.bytes, a.len() as u64);
    }

    #[test]
    fn a_clean_generated_trace_has_no_errors() {
        let config = GeneratorConfig {
            target_bytes: 256 * 1024,
            violation_rate: 0.0,
            ..GeneratorConfig::default()
        };
        let mut trace = Vec::new();
        generate(&config, &mut trace).unwrap();
        let diagnostics = crate::lint_str(std::str::from_utf8(&trace).unwrap());
        let errors: Vec<_> = diagnostics
            .iter()
            .filter(|d| d.severity != crate::diagnostic::Severity::Info)
            .map(|d| d.message.clone())
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
    }
}

/// An RFC 3339 time `ms` milliseconds into the generated day.
fn timestamp(ms: u64) -> String {
    format!(
        "2026-11-30T{:02}:{:02}:{:02}.{:03}Z",
        (ms / 3_600_000) % 24,
        (ms / 60_000) % 60,
        (ms / 1000) % 60,
        ms % 1000
    )
}

/// Writes a HAR 1.2 capture of Streamable HTTP traffic of the same shape:
/// interleaved sessions, each an initialize exchange, then tool calls whose
/// SSE responses carry progress and the result. A share of the calls
/// (`violation_rate`) repeats a progress value.
pub fn generate_har<W: Write>(config: &GeneratorConfig, out: &mut W) -> io::Result<GeneratedStats> {
    use serde_json::json;
    let mut rng = Rng(config.seed | 1);
    let mut stats = GeneratedStats::default();
    let mut next_id = vec![0u64; config.sessions.max(1)];
    let mut clock_ms = 0u64;
    let mut first = true;
    let head = b"{\"log\":{\"version\":\"1.2\",\"creator\":{\"name\":\"mcp-lint generate\",\"version\":\"1\"},\"entries\":[\n";
    out.write_all(head)?;
    stats.bytes += head.len() as u64;
    while stats.bytes < config.target_bytes {
        let session = rng.below(next_id.len() as u64) as usize;
        let sid = format!("session-{session:04}-{:08x}", config.seed);
        let id = next_id[session];
        next_id[session] += 1;
        clock_ms += 7;
        let started = timestamp(clock_ms);
        let headers = |with_session: bool| {
            let mut h = vec![
                json!({"name":"Content-Type","value":"application/json"}),
                json!({"name":"Accept","value":"application/json, text/event-stream"}),
            ];
            if with_session {
                h.push(json!({"name":"Mcp-Session-Id","value":sid}));
                h.push(json!({"name":"MCP-Protocol-Version","value":"2025-06-18"}));
            }
            h
        };
        let entry = if id == 0 {
            let request = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench-client","version":"1.4.2"}}});
            let response = json!({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"bench-server","version":"0.9.0"}}});
            json!({"startedDateTime":started,"time":4,
                "request":{"method":"POST","url":"http://127.0.0.1:8000/mcp","headers":headers(false),"postData":{"mimeType":"application/json","text":request.to_string()}},
                "response":{"status":200,"headers":[{"name":"Content-Type","value":"application/json"},{"name":"Mcp-Session-Id","value":sid}],"content":{"mimeType":"application/json","text":response.to_string()}}})
        } else if id == 1 {
            let note = json!({"jsonrpc":"2.0","method":"notifications/initialized"});
            json!({"startedDateTime":started,"time":1,
                "request":{"method":"POST","url":"http://127.0.0.1:8000/mcp","headers":headers(true),"postData":{"mimeType":"application/json","text":note.to_string()}},
                "response":{"status":202,"headers":[],"content":{"mimeType":"","size":0}}})
        } else {
            let token = format!("tok-{id}");
            let request = json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":TOOLS[rng.below(TOOLS.len() as u64) as usize],"arguments":{"query":text(&mut rng, 6, 20)},"_meta":{"progressToken":token}}});
            let violate = rng.chance(config.violation_rate);
            stats.violations += u64::from(violate);
            let updates = 1 + rng.below(4);
            let mut body = String::new();
            for step in 1..=updates {
                let progress = if violate && step == updates {
                    step - 1
                } else {
                    step
                };
                let note = json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":token,"progress":progress,"total":updates}});
                body.push_str(&format!("event: message\r\ndata: {note}\r\n\r\n"));
            }
            let result = json!({"jsonrpc":"2.0","id":id,"result":{"content":[{"type":"text","text":text(&mut rng, 12, 60)}],"isError":false}});
            body.push_str(&format!("event: message\r\ndata: {result}\r\n\r\n"));
            json!({"startedDateTime":started,"time":25,"timings":{"send":1,"wait":4,"receive":20},
                "request":{"method":"POST","url":"http://127.0.0.1:8000/mcp","headers":headers(true),"postData":{"mimeType":"application/json","text":request.to_string()}},
                "response":{"status":200,"headers":[{"name":"Content-Type","value":"text/event-stream"}],"content":{"mimeType":"text/event-stream","text":body}}})
        };
        let text = format!("{}{}", if first { "" } else { ",\n" }, entry);
        first = false;
        out.write_all(text.as_bytes())?;
        stats.bytes += text.len() as u64;
        stats.lines += 1;
    }
    let tail = b"\n]}}\n";
    out.write_all(tail)?;
    stats.bytes += tail.len() as u64;
    out.flush()?;
    Ok(stats)
}

/// Writes an MCP Inspector protocol-history export (one JSON array, an entry
/// per line) of tool calls from the client, each answered in its own entry.
/// A share of the answers (`violation_rate`) carries an id no request has.
pub fn generate_inspector<W: Write>(
    config: &GeneratorConfig,
    out: &mut W,
) -> io::Result<GeneratedStats> {
    use serde_json::json;
    let mut rng = Rng(config.seed | 1);
    let mut stats = GeneratedStats::default();
    out.write_all(b"[\n")?;
    stats.bytes += 2;
    let mut id = 0u64;
    while stats.bytes < config.target_bytes {
        let timestamp = timestamp(id * 7);
        let violate = rng.chance(config.violation_rate);
        stats.violations += u64::from(violate);
        let answered = if violate { id + 1_000_000_000 } else { id };
        let entry = json!({"id": id.to_string(), "timestamp": timestamp, "direction": "request", "origin": "client",
            "message": {"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":TOOLS[rng.below(TOOLS.len() as u64) as usize],"arguments":{"query":text(&mut rng, 6, 20)}}},
            "response": {"jsonrpc":"2.0","id":answered,"result":{"content":[{"type":"text","text":text(&mut rng, 12, 60)}],"isError":false}},
            "duration": 5});
        let text = format!("{}{entry}", if id == 0 { "" } else { ",\n" });
        out.write_all(text.as_bytes())?;
        stats.bytes += text.len() as u64;
        stats.lines += 1;
        id += 1;
    }
    out.write_all(b"\n]\n")?;
    stats.bytes += 3;
    out.flush()?;
    Ok(stats)
}

/// The same JSON document minified onto one line, as browsers and the
/// Inspector export it. Only for the documents generated here: their line
/// feeds all stand between tokens (strings escape theirs).
pub fn one_line(document: &mut Vec<u8>) {
    document.retain(|b| *b != b'\n');
}

/// One canonical line: a batch of `count` pings from the client that nothing
/// answers, so every ping is a finding on the same line.
pub fn unanswered_batch(count: usize) -> String {
    let pings: Vec<String> = (0..count)
        .map(|id| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#))
        .collect();
    format!(r#"{{"from":"client","msg":[{}]}}"#, pings.join(",")) + "\n"
}

#[cfg(test)]
mod har_tests {
    use super::*;

    #[test]
    fn a_generated_har_is_read_and_has_the_injected_violations() {
        let config = GeneratorConfig {
            target_bytes: 256 * 1024,
            violation_rate: 0.05,
            ..GeneratorConfig::default()
        };
        let mut har = Vec::new();
        let stats = generate_har(&config, &mut har).unwrap();
        let diagnostics = crate::lint_str(std::str::from_utf8(&har).unwrap());
        let repeats = diagnostics
            .iter()
            .filter(|d| d.rule.id == "progress-not-increasing")
            .count();
        assert!(stats.violations > 0);
        // A violation in a call with a single update repeats nothing.
        assert!(
            repeats as u64 <= stats.violations && repeats > 0,
            "{repeats} of {}",
            stats.violations
        );
        let others: Vec<_> = diagnostics
            .iter()
            .filter(|d| d.rule.id != "progress-not-increasing")
            .map(|d| d.message.clone())
            .collect();
        assert!(others.is_empty(), "{others:?}");
    }
}
