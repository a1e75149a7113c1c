//! A JSON value that borrows its strings from the trace: a message is
//! validated without copying its text, base64 blobs and long strings
//! included (only strings with escapes are unescaped into a copy).

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    /// A number written without fraction or exponent that fits 64 bits.
    Integer(f64),
    Number(f64),
    String(Cow<'a, str>),
    Array(Vec<Value<'a>>),
    /// Members in the order written.
    Object(Vec<(Cow<'a, str>, Value<'a>)>),
}

impl<'a> Value<'a> {
    /// Parses `text`, or `None` when it is not JSON (the decoder has already
    /// said so) or nests deeper than serde_json allows.
    pub fn parse(text: &'a str) -> Option<Value<'a>> {
        serde_json::from_str(text).ok()
    }

    pub fn get(&self, name: &str) -> Option<&Value<'a>> {
        match self {
            Value::Object(members) => members.iter().find(|(n, _)| n == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Whether it equals a value of the schema (`const`, `enum`).
    pub fn equals(&self, other: &serde_json::Value) -> bool {
        use serde_json::Value as J;
        match (self, other) {
            (Value::Null, J::Null) => true,
            (Value::Bool(a), J::Bool(b)) => a == b,
            (Value::Integer(a) | Value::Number(a), J::Number(b)) => b.as_f64() == Some(*a),
            (Value::String(a), J::String(b)) => a == b,
            (Value::Array(a), J::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a.equals(b))
            }
            (Value::Object(a), J::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(name, v)| b.get(name.as_ref()).is_some_and(|b| v.equals(b)))
            }
            _ => false,
        }
    }
}

impl fmt::Display for Value<'_> {
    /// A short rendering for a finding: scalars as JSON (long strings cut),
    /// containers by kind.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Integer(n) | Value::Number(n) => write!(f, "{n}"),
            Value::String(s) => {
                const SHOWN: usize = 40;
                match s.char_indices().nth(SHOWN) {
                    Some((at, _)) => write!(f, "{:?}...", &s[..at]),
                    None => write!(f, "{s:?}"),
                }
            }
            Value::Array(items) => write!(f, "an array of {}", items.len()),
            Value::Object(_) => f.write_str("an object"),
        }
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Value<'de>, E> {
        Ok(Value::Null)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value<'de>, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value<'de>, E> {
        Ok(Value::Integer(v as f64))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value<'de>, E> {
        Ok(Value::Integer(v as f64))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value<'de>, E> {
        Ok(Value::Number(v))
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Borrowed(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E>(self, v: String) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Owned(v)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value<'de>, A::Error> {
        let mut members = Vec::new();
        while let Some(name) = map.next_key::<Name<'de>>()? {
            members.push((name.0, map.next_value()?));
        }
        Ok(Value::Object(members))
    }
}

impl<'de> Deserialize<'de> for Value<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

/// A member name, borrowed unless it has escapes.
struct Name<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Name<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match deserializer.deserialize_str(ValueVisitor)? {
            Value::String(s) => Ok(Name(s)),
            _ => Err(serde::de::Error::custom("a member name")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Value;
    use std::borrow::Cow;

    #[test]
    fn strings_are_borrowed_unless_escaped() {
        let value = Value::parse(r#"{"blob":"QUJD","text":"a\nb"}"#).unwrap();
        assert!(matches!(
            value.get("blob"),
            Some(Value::String(Cow::Borrowed("QUJD")))
        ));
        assert!(matches!(
            value.get("text"),
            Some(Value::String(Cow::Owned(_)))
        ));
    }

    #[test]
    fn integers_and_fractions_differ() {
        let value = Value::parse(r#"[1, 1.5, -3]"#).unwrap();
        assert_eq!(
            value,
            Value::Array(vec![
                Value::Integer(1.0),
                Value::Number(1.5),
                Value::Integer(-3.0)
            ])
        );
    }
}
