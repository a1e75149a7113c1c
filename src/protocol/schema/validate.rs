//! Validation of a value against a compiled schema, one violation per
//! offending value: an `anyOf` that no branch satisfies reports the
//! branch the value was meant to be (by its `const` members, else by its
//! type, else the closest), not every branch's failure.

use std::fmt;

use crate::json_text::same_bytes;

use super::compiled::{Additional, Compiled, NodeId, Types};
use super::instance::{Doc, Str, Value};

/// One offending value: where it is, what the schema expects there, and
/// what the message has.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// The JSON pointer of the value in the message (`/params/name`).
    pub pointer: String,
    pub expected: Expected,
    /// The value found, shortly ("nothing" for a missing member).
    pub found: String,
    /// The definition the value belongs to (an index of the schema's definitions).
    pub definition: Option<u32>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expected {
    Types(Types),
    /// A required member.
    Member,
    /// One value (`const`).
    Value(String),
    /// One of these values (`enum`, or the `const`s of `anyOf` branches).
    OneOf(Vec<String>),
    /// Nothing may be here (`additionalProperties: false`).
    Nothing,
    AtLeast(f64),
    AtMost(f64),
    AtMostItems(u64),
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Types(types) => write!(f, "{}", types.describe()),
            Expected::Member => f.write_str("a required member"),
            Expected::Value(value) => write!(f, "the value {value}"),
            Expected::OneOf(values) => write!(f, "one of {}", values.join(", ")),
            Expected::Nothing => f.write_str("no member of this name"),
            Expected::AtLeast(n) => write!(f, "a number of at least {n}"),
            Expected::AtMost(n) => write!(f, "a number of at most {n}"),
            Expected::AtMostItems(n) => write!(f, "at most {n} items"),
        }
    }
}

fn type_of(value: Value) -> Types {
    match value {
        Value::Null => Types::NULL,
        Value::Bool(_) => Types::BOOLEAN,
        Value::Integer(_) => Types::INTEGER,
        Value::Number(n) if n.fract() == 0.0 => Types::INTEGER,
        Value::Number(_) => Types(Types::NUMBER.0 & !Types::INTEGER.0),
        Value::String(_) => Types::STRING,
        Value::Array(_) => Types::ARRAY,
        Value::Object(_) => Types::OBJECT,
    }
}

/// Validates `value` at `pointer` against node `root` of `schema`.
pub fn validate(
    schema: &Compiled,
    root: NodeId,
    doc: Doc,
    value: Value,
    pointer: &str,
) -> Vec<Violation> {
    let mut validator = Validator {
        schema,
        doc,
        root: pointer,
        path: Vec::new(),
        definition: None,
        out: Vec::new(),
    };
    validator.check(root, value);
    validator.out
}

/// One step of the path from the root to a value.
enum Step {
    /// A member, by its name.
    Member(Str),
    Index(usize),
}

struct Validator<'s, 'v> {
    schema: &'s Compiled,
    /// The value's text and parts.
    doc: Doc<'v>,
    root: &'s str,
    /// Kept as steps and written as a pointer only for a violation.
    path: Vec<Step>,
    definition: Option<u32>,
    out: Vec<Violation>,
}

impl<'v> Validator<'_, 'v> {
    fn report(&mut self, expected: Expected, found: String) {
        let mut pointer = self.root.to_owned();
        for step in &self.path {
            match step {
                Step::Member(name) => push_step(&mut pointer, self.doc.str(*name)),
                Step::Index(index) => push_step(&mut pointer, &index.to_string()),
            }
        }
        self.out.push(Violation {
            pointer,
            expected,
            found,
            definition: self.definition,
        });
    }

    /// Checks `value` one level down, at `step`.
    fn descend(&mut self, id: NodeId, step: Step, value: Value) {
        self.path.push(step);
        self.check(id, value);
        self.path.pop();
    }

    /// Reports at member `name` of the current value (a name of the
    /// schema or of the value).
    fn report_below(&mut self, name: &str, expected: Expected, found: String) {
        self.report(expected, found);
        if let Some(last) = self.out.last_mut() {
            push_step(&mut last.pointer, name);
        }
    }

    fn check(&mut self, id: NodeId, value: Value) {
        let schema = self.schema;
        let node = schema.node_of(id);
        let outer = self.definition;
        self.definition = node.definition.or(outer);
        if node.never {
            self.report(Expected::Nothing, self.doc.show(value).to_string());
        } else if let Some(target) = node.reference {
            self.check(target, value);
        }
        if !node.never && self.check_value(id, value) {
            self.check_members(id, value);
            for part in &node.all_of {
                self.check(*part, value);
            }
            if !node.any_of.is_empty() {
                self.any_of(&node.any_of, value);
            }
        }
        self.definition = outer;
    }

    /// Type, const, enum and bounds; false when the value is not of the
    /// node's type (nothing below it is then checked: one finding).
    fn check_value(&mut self, id: NodeId, value: Value) -> bool {
        let node = self.schema.node_of(id);
        if !node.types.admits(type_of(value)) {
            self.report(Expected::Types(node.types), describe_kind(value));
            return false;
        }
        if let Some(constant) = node
            .constant
            .as_ref()
            .filter(|c| !self.doc.equals(value, c))
        {
            self.report(
                Expected::Value(constant.to_string()),
                self.doc.show(value).to_string(),
            );
            return false;
        }
        if !node.allowed.is_empty() && !node.allowed.iter().any(|a| self.doc.equals(value, a)) {
            let allowed = node.allowed.iter().map(ToString::to_string).collect();
            self.report(Expected::OneOf(allowed), self.doc.show(value).to_string());
            return false;
        }
        if let Value::Integer(n) | Value::Number(n) = value {
            if let Some(minimum) = node.minimum.filter(|m| n < *m) {
                self.report(Expected::AtLeast(minimum), self.doc.show(value).to_string());
            }
            if let Some(maximum) = node.maximum.filter(|m| n > *m) {
                self.report(Expected::AtMost(maximum), self.doc.show(value).to_string());
            }
        }
        true
    }

    fn check_members(&mut self, id: NodeId, value: Value) {
        let node = self.schema.node_of(id);
        match value {
            Value::Object(span) => {
                // Names are compared as bytes: a slice of bytes is taken
                // without checking where characters start.
                let members = self.doc.member_slice(span);
                let doc = self.doc;
                for name in &node.required {
                    if !members
                        .iter()
                        .any(|m| same_bytes(doc.bytes(m.name), name.as_bytes()))
                    {
                        self.report_below(name, Expected::Member, "nothing".into());
                    }
                }
                for member in members {
                    let name = doc.bytes(member.name);
                    let property =
                        (node.properties.iter()).find(|(n, _)| same_bytes(n.as_bytes(), name));
                    match (property.map(|(_, p)| *p), node.additional) {
                        (Some(schema), _) | (None, Additional::Schema(schema)) => {
                            self.descend(schema, Step::Member(member.name), member.value)
                        }
                        (None, Additional::Never) => {
                            self.report_below(
                                doc.str(member.name),
                                Expected::Nothing,
                                doc.show(member.value).to_string(),
                            );
                        }
                        (None, Additional::Any) => {}
                    }
                }
            }
            Value::Array(span) => {
                let items = self.doc.items(span);
                if let Some(max) = node.max_items.filter(|m| items.len() as u64 > *m) {
                    self.report(Expected::AtMostItems(max), self.doc.show(value).to_string());
                }
                if let Some(schema) = node.items {
                    for (index, item) in items.iter().enumerate() {
                        self.descend(schema, Step::Index(index), *item);
                    }
                }
            }
            _ => {}
        }
    }

    /// No branch validates: report the one the value was meant to be.
    fn any_of(&mut self, branches: &[NodeId], value: Value) {
        let start = self.out.len();
        let mut failures = Vec::new();
        for branch in branches {
            self.check(*branch, value);
            let failed = self.out.split_off(start);
            if failed.is_empty() {
                return;
            }
            failures.push(failed);
        }
        let schema = self.schema;
        let kind = type_of(value);
        let union = branches
            .iter()
            .fold(Types(0), |all, b| Types(all.0 | schema.types_of(*b).0));
        if !branches.iter().any(|b| schema.types_of(*b).admits(kind)) {
            let expected = match branches.iter().any(|b| schema.types_of(*b).is_any()) {
                true => Types::default(),
                false => union,
            };
            return self.report(Expected::Types(expected), describe_kind(value));
        }
        if let Some(chosen) = self.discriminated(branches, value) {
            return match chosen {
                Ok(index) => self.out.append(&mut failures[index]),
                Err((name, allowed)) => {
                    let member = self.doc.get(value, &name);
                    let found = member.map_or("nothing".into(), |v| self.doc.show(v).to_string());
                    self.report_below(&name, Expected::OneOf(allowed), found);
                }
            };
        }
        // The closest branch: of the value's type, with the fewest violations.
        let closest = (0..branches.len())
            .min_by_key(|i| {
                let admits = schema.types_of(branches[*i]).admits(kind);
                (!admits, failures[*i].len())
            })
            .unwrap_or(0);
        self.out.append(&mut failures[closest]);
    }

    /// When every branch fixes the same member to a constant (`type` of
    /// content blocks): the branch the value names (`Ok`), or, when it
    /// names none, that member and the values it may have (`Err`).
    #[allow(clippy::type_complexity)]
    fn discriminated(
        &self,
        branches: &[NodeId],
        value: Value,
    ) -> Option<Result<usize, (String, Vec<String>)>> {
        let schema = self.schema;
        let first = branches.first()?;
        let name = schema.const_properties(*first).find(|name| {
            branches
                .iter()
                .all(|b| schema.property_const(*b, name).is_some())
        })?;
        let constants: Vec<&serde_json::Value> = branches
            .iter()
            .filter_map(|b| schema.property_const(*b, name))
            .collect();
        let member = self.doc.get(value, name);
        match constants
            .iter()
            .position(|c| member.is_some_and(|m| self.doc.equals(m, c)))
        {
            Some(index) => Some(Ok(index)),
            None => {
                let allowed = constants.iter().map(ToString::to_string).collect();
                Some(Err((name.to_owned(), allowed)))
            }
        }
    }
}

/// Appends one step to a JSON pointer, escaped as RFC 6901 says.
fn push_step(pointer: &mut String, step: &str) {
    pointer.push('/');
    pointer.push_str(&step.replace('~', "~0").replace('/', "~1"));
}

fn describe_kind(value: Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(_) => "a boolean".into(),
        Value::Integer(_) => "an integer".into(),
        Value::Number(_) => "a number".into(),
        Value::String(_) => "a string".into(),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}
