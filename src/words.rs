//! A finding's words as data: a fixed template with `{}` holes and the typed
//! values that fill them. Rules build them; reports render them, and only
//! the values that came from the trace (`Arg::Text`, `Arg::Quoted`) go
//! through the report's escaping, once.

use std::borrow::Cow;
use std::fmt;

use crate::event::{ProgressToken, RequestId};
use crate::protocol::{Side, Version};

/// Builds [`Words`]: `words!("{} cancels request {}", from, request.id)`.
/// Like `format!`, it borrows its values; each converts with [`ToArg`]
/// (a `&str` or `String` is trace text).
#[macro_export]
macro_rules! words {
    ($template:literal $(,)?) => {
        $crate::words::Words::fixed($template)
    };
    ($template:literal, $($arg:expr),+ $(,)?) => {
        $crate::words::Words::new($template, vec![$($crate::words::ToArg::to_arg(&$arg)),+])
    };
}

/// A template and its values. `{}` is a hole; `{{` and `}}` are braces.
#[derive(Debug, Clone, PartialEq)]
pub struct Words {
    template: &'static str,
    args: Vec<Arg>,
}

/// One value of a finding's words.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// Text taken from the trace (a method name, a header, a URL): untrusted.
    Text(Box<str>),
    /// Trace text shown in double quotes, as JSON would quote it.
    Quoted(Box<str>),
    Side(Side),
    Id(RequestId),
    Token(ProgressToken),
    Version(Version),
    Int(i64),
    Number(f64),
    /// Words nested in words ("client request 3 (tools/call)").
    Words(Box<Words>),
    /// Several words with a separator between them, and `last` before the last.
    Joined {
        parts: Vec<Words>,
        separator: &'static str,
        last: &'static str,
    },
}

impl Words {
    pub fn new(template: &'static str, args: Vec<Arg>) -> Words {
        debug_assert_eq!(
            holes(template),
            args.len(),
            "the holes of {template:?} and its values differ in number"
        );
        Words { template, args }
    }

    /// Words with no values.
    pub const fn fixed(template: &'static str) -> Words {
        Words {
            template,
            args: Vec::new(),
        }
    }

    /// `parts` one after the other, `separator` between them.
    pub fn joined(parts: Vec<Words>, separator: &'static str) -> Words {
        Words::new(
            "{}",
            vec![Arg::Joined {
                parts,
                separator,
                last: separator,
            }],
        )
    }

    /// Parts as a reader lists them: `a`, `a and b`, `a, b and c`.
    pub fn listed(parts: Vec<Words>) -> Words {
        Words::new(
            "{}",
            vec![Arg::Joined {
                parts,
                separator: ", ",
                last: " and ",
            }],
        )
    }

    pub fn is_empty(&self) -> bool {
        self.template.is_empty()
    }

    pub fn template(&self) -> &'static str {
        self.template
    }

    pub fn args(&self) -> &[Arg] {
        &self.args
    }

    /// The words with every piece of trace text passed through `escape`.
    pub fn render(&self, escape: &dyn Fn(&str) -> Cow<str>) -> String {
        let mut out = String::with_capacity(self.template.len() + 16 * self.args.len());
        self.write(&mut out, escape)
            .expect("writing to a String cannot fail");
        out
    }

    fn write(&self, out: &mut impl fmt::Write, escape: &dyn Fn(&str) -> Cow<str>) -> fmt::Result {
        let mut args = self.args.iter();
        let mut rest = self.template;
        while let Some(at) = rest.find(['{', '}']) {
            out.write_str(&rest[..at])?;
            let tail = &rest[at..];
            if tail.starts_with("{}") {
                if let Some(arg) = args.next() {
                    arg.write(out, escape)?;
                }
            } else {
                // `{{` or `}}`: one brace.
                out.write_str(&tail[..1])?;
            }
            rest = &tail[2.min(tail.len())..];
        }
        out.write_str(rest)
    }
}

/// A JSON number as people write it: `3`, `0.5`, `1e-300`.
pub fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value:?}")
    }
}

/// The number of `{}` holes in a template.
fn holes(template: &str) -> usize {
    let unescaped = template.replace("{{", "").replace("}}", "");
    unescaped.matches("{}").count()
}

impl Arg {
    /// Trace text to show in double quotes.
    pub fn quoted(text: &str) -> Arg {
        Arg::Quoted(text.into())
    }

    fn write(&self, out: &mut impl fmt::Write, escape: &dyn Fn(&str) -> Cow<str>) -> fmt::Result {
        match self {
            Arg::Text(text) => out.write_str(&escape(text)),
            Arg::Quoted(text) => {
                let mut quoted = String::with_capacity(text.len() + 2);
                quoted.push('"');
                for c in text.chars() {
                    if matches!(c, '"' | '\\') {
                        quoted.push('\\');
                    }
                    quoted.push(c);
                }
                quoted.push('"');
                out.write_str(&escape(&quoted))
            }
            Arg::Side(side) => write!(out, "{side}"),
            // Ids and tokens may be strings from the trace.
            Arg::Id(id) => out.write_str(&escape(&id.to_string())),
            Arg::Token(token) => out.write_str(&escape(&token.to_string())),
            Arg::Version(version) => out.write_str(&escape(&version.to_string())),
            Arg::Int(n) => write!(out, "{n}"),
            Arg::Number(n) => out.write_str(&number(*n)),
            Arg::Words(words) => words.write(out, escape),
            Arg::Joined {
                parts,
                separator,
                last,
            } => {
                for (i, part) in parts.iter().enumerate() {
                    match i {
                        0 => {}
                        _ if i + 1 == parts.len() => out.write_str(last)?,
                        _ => out.write_str(separator)?,
                    }
                    part.write(out, escape)?;
                }
                Ok(())
            }
        }
    }
}

/// The words as written, trace text unescaped: for tests and for formats
/// that escape the whole text themselves.
impl fmt::Display for Words {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, &|text| Cow::Borrowed(text))
    }
}

impl From<&'static str> for Words {
    fn from(template: &'static str) -> Words {
        debug_assert_eq!(holes(template), 0, "{template:?} has holes but no values");
        Words::fixed(template)
    }
}

/// A value that can fill a hole of [`Words`].
pub trait ToArg {
    fn to_arg(&self) -> Arg;
}

impl<T: ToArg + ?Sized> ToArg for &T {
    fn to_arg(&self) -> Arg {
        (**self).to_arg()
    }
}

/// Text from the trace.
macro_rules! text_args {
    ($($t:ty),*) => {$(
        impl ToArg for $t {
            fn to_arg(&self) -> Arg {
                Arg::Text(AsRef::<str>::as_ref(self).into())
            }
        }
    )*};
}

text_args!(
    str,
    String,
    Box<str>,
    Cow<'_, str>,
    compact_str::CompactString
);

macro_rules! int_args {
    ($($t:ty),*) => {$(
        impl ToArg for $t {
            fn to_arg(&self) -> Arg {
                Arg::Int(i64::try_from(*self).unwrap_or(i64::MAX))
            }
        }
    )*};
}

int_args!(i64, i32, u8, u16, u32, u64, usize);

impl ToArg for f64 {
    fn to_arg(&self) -> Arg {
        Arg::Number(*self)
    }
}

impl ToArg for Words {
    fn to_arg(&self) -> Arg {
        Arg::Words(Box::new(self.clone()))
    }
}

impl ToArg for Arg {
    fn to_arg(&self) -> Arg {
        self.clone()
    }
}

impl ToArg for Side {
    fn to_arg(&self) -> Arg {
        Arg::Side(*self)
    }
}

impl ToArg for RequestId {
    fn to_arg(&self) -> Arg {
        Arg::Id(self.clone())
    }
}

impl ToArg for ProgressToken {
    fn to_arg(&self) -> Arg {
        Arg::Token(self.clone())
    }
}

impl ToArg for Version {
    fn to_arg(&self) -> Arg {
        Arg::Version(*self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Key;

    #[test]
    fn renders_holes_in_order_and_braces() {
        let words = words!("{} sent {} {{x}}", Side::Client, 3u32);
        assert_eq!(words.to_string(), "client sent 3 {x}");
    }

    #[test]
    fn only_trace_text_is_escaped() {
        let id = RequestId(Key::Str("a\u{1b}".into()));
        let words = words!(
            "{} request {} ({}) for {}",
            Side::Server,
            &id,
            "x\u{7}",
            Arg::quoted("q\"\u{1b}")
        );
        let shown = words.render(&|t| Cow::Owned(t.replace(['\u{1b}', '\u{7}'], "?")));
        assert_eq!(shown, r#"server request "a?" (x?) for "q\"?""#);
    }

    #[test]
    fn nests() {
        let inner = words!("{} request {}", Side::Client, 1i64);
        assert_eq!(
            words!("{} was sent here", inner).to_string(),
            "client request 1 was sent here"
        );
    }
}
