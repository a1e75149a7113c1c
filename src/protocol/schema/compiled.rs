//! A JSON schema compiled into a flat table of nodes, with every `$ref`
//! resolved to a node index once, so validating a message never looks a
//! name up. It covers the keywords the official MCP schemas use (type,
//! properties, required, additionalProperties, items, maxItems, anyOf,
//! allOf, $ref, const, enum, minimum, maximum); `format` and
//! `description` are annotations and are not asserted.

use foldhash::HashMap;
use serde_json::Value as Json;

pub type NodeId = u32;

/// JSON types as bits; an empty set admits every type.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Types(pub u8);

impl Types {
    pub const NULL: Types = Types(1);
    pub const BOOLEAN: Types = Types(1 << 1);
    pub const INTEGER: Types = Types(1 << 2);
    /// `number` admits integers too.
    pub const NUMBER: Types = Types(1 << 3 | 1 << 2);
    pub const STRING: Types = Types(1 << 4);
    pub const ARRAY: Types = Types(1 << 5);
    pub const OBJECT: Types = Types(1 << 6);
    const NAMED: [(&'static str, Types); 7] = [
        ("null", Types::NULL),
        ("boolean", Types::BOOLEAN),
        ("integer", Types::INTEGER),
        ("number", Types::NUMBER),
        ("string", Types::STRING),
        ("array", Types::ARRAY),
        ("object", Types::OBJECT),
    ];

    fn named(name: &str) -> Types {
        Types::NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(Types::default(), |(_, t)| *t)
    }

    pub fn is_any(self) -> bool {
        self.0 == 0
    }

    pub fn union(self, other: Types) -> Types {
        match self.is_any() || other.is_any() {
            true => Types::default(),
            false => Types(self.0 | other.0),
        }
    }

    pub fn admits(self, kind: Types) -> bool {
        self.is_any() || self.0 & kind.0 == kind.0
    }

    /// "a string or an integer".
    pub fn describe(self) -> String {
        let names: Vec<&str> = Types::NAMED
            .iter()
            .filter(|(name, t)| {
                // `number` is listed once, not also as `integer`.
                self.0 & t.0 == t.0 && !(*name == "integer" && self.admits(Types::NUMBER))
            })
            .map(|(name, _)| *name)
            .collect();
        match names.split_last() {
            None => "any value".into(),
            Some((last, [])) => (*last).into(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        }
    }
}

/// What an object may hold beyond its named properties.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Additional {
    #[default]
    Any,
    Never,
    Schema(NodeId),
}

#[derive(Debug, Default)]
pub struct Node {
    pub types: Types,
    pub properties: Vec<(Box<str>, NodeId)>,
    pub required: Vec<Box<str>>,
    pub additional: Additional,
    pub items: Option<NodeId>,
    pub max_items: Option<u64>,
    pub any_of: Vec<NodeId>,
    pub all_of: Vec<NodeId>,
    pub reference: Option<NodeId>,
    pub constant: Option<Json>,
    pub allowed: Vec<Json>,
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
    /// The schema `false`: nothing validates.
    pub never: bool,
    /// The named definition the node is part of (an index of `definitions`).
    pub definition: Option<u32>,
}

/// A named definition of the schema, for findings.
#[derive(Debug)]
pub struct Definition {
    pub name: Box<str>,
    pub description: Option<Box<str>>,
}

#[derive(Debug, Default)]
pub struct Compiled {
    pub nodes: Vec<Node>,
    pub definitions: Vec<Definition>,
    by_name: HashMap<Box<str>, NodeId>,
    /// `$ref`s that name no definition (none in the official schemas).
    pub unresolved: Vec<Box<str>>,
    /// The definition being compiled.
    current: Option<u32>,
}

impl Compiled {
    /// Compiles a schema document whose named definitions sit under
    /// `definitions` (draft-07) or `$defs` (2020-12).
    pub fn new(document: &Json) -> Compiled {
        let mut compiled = Compiled::default();
        let defs = document
            .get("$defs")
            .or_else(|| document.get("definitions"))
            .and_then(Json::as_object);
        let Some(defs) = defs else {
            return compiled;
        };
        // Every definition gets its node first, so references resolve in any order.
        for (index, (name, body)) in defs.iter().enumerate() {
            compiled
                .by_name
                .insert(name.as_str().into(), index as NodeId);
            compiled.definitions.push(Definition {
                name: name.as_str().into(),
                description: body
                    .get("description")
                    .and_then(Json::as_str)
                    .map(Into::into),
            });
            compiled.nodes.push(Node::default());
        }
        for (index, body) in defs.values().enumerate() {
            compiled.current = Some(index as u32);
            compiled.nodes[index] = compiled.node(body);
        }
        compiled
    }

    pub fn named(&self, name: &str) -> Option<NodeId> {
        self.by_name.get(name).copied()
    }

    pub fn node_of(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    fn add(&mut self, schema: &Json) -> NodeId {
        let node = self.node(schema);
        self.nodes.push(node);
        (self.nodes.len() - 1) as NodeId
    }

    fn list(&mut self, schemas: Option<&Json>) -> Vec<NodeId> {
        let schemas = schemas
            .and_then(Json::as_array)
            .map_or(&[][..], Vec::as_slice);
        schemas.iter().map(|s| self.add(s)).collect()
    }

    fn node(&mut self, schema: &Json) -> Node {
        let Some(keywords) = schema.as_object() else {
            return Node {
                never: schema == &Json::Bool(false),
                definition: self.current,
                ..Node::default()
            };
        };
        let number = |name: &str| keywords.get(name).and_then(Json::as_f64);
        let properties = keywords.get("properties").and_then(Json::as_object);
        Node {
            types: match keywords.get("type") {
                Some(Json::String(name)) => Types::named(name),
                Some(Json::Array(names)) => names
                    .iter()
                    .filter_map(Json::as_str)
                    .fold(Types(0), |all, name| Types(all.0 | Types::named(name).0)),
                _ => Types::default(),
            },
            properties: properties
                .into_iter()
                .flatten()
                .map(|(name, schema)| (name.as_str().into(), self.add(schema)))
                .collect(),
            required: keywords
                .get("required")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
                .filter_map(Json::as_str)
                .map(Into::into)
                .collect(),
            additional: match keywords.get("additionalProperties") {
                Some(Json::Bool(false)) => Additional::Never,
                Some(schema @ Json::Object(o)) if !o.is_empty() => {
                    Additional::Schema(self.add(schema))
                }
                _ => Additional::Any,
            },
            items: keywords.get("items").map(|items| self.add(items)),
            max_items: keywords.get("maxItems").and_then(Json::as_u64),
            any_of: self.list(keywords.get("anyOf").or_else(|| keywords.get("oneOf"))),
            all_of: self.list(keywords.get("allOf")),
            reference: keywords
                .get("$ref")
                .and_then(Json::as_str)
                .and_then(|r| self.resolve(r)),
            constant: keywords.get("const").cloned(),
            allowed: keywords
                .get("enum")
                .and_then(Json::as_array)
                .cloned()
                .unwrap_or_default(),
            minimum: number("minimum"),
            maximum: number("maximum"),
            never: false,
            definition: self.current,
        }
    }

    fn resolve(&mut self, reference: &str) -> Option<NodeId> {
        let name = reference
            .strip_prefix("#/$defs/")
            .or_else(|| reference.strip_prefix("#/definitions/"));
        let resolved = name.and_then(|name| self.named(name));
        if resolved.is_none() {
            self.unresolved.push(reference.into());
        }
        resolved
    }

    /// The types a node admits, through references and `anyOf`.
    pub fn types_of(&self, id: NodeId) -> Types {
        let node = self.node_of(id);
        if !node.types.is_any() {
            return node.types;
        }
        if let Some(target) = node.reference {
            return self.types_of(target);
        }
        match node.any_of.split_first() {
            Some((first, rest)) => rest
                .iter()
                .fold(self.types_of(*first), |all, b| all.union(self.types_of(*b))),
            None => Types::default(),
        }
    }

    /// The node a reference-only node stands for.
    pub fn target(&self, mut id: NodeId) -> NodeId {
        for _ in 0..8 {
            let node = self.node_of(id);
            match node.reference {
                Some(target) if node.properties.is_empty() && node.any_of.is_empty() => id = target,
                _ => break,
            }
        }
        id
    }

    /// The `const` of a property of an object node (through references).
    pub fn property_const(&self, id: NodeId, name: &str) -> Option<&Json> {
        let node = self.node_of(self.target(id));
        let (_, property) = node.properties.iter().find(|(n, _)| &**n == name)?;
        self.node_of(self.target(*property)).constant.as_ref()
    }

    /// The names of properties of an object node that hold a `const`.
    pub fn const_properties(&self, id: NodeId) -> impl Iterator<Item = &str> {
        let node = self.node_of(self.target(id));
        node.properties
            .iter()
            .filter(|(_, p)| self.node_of(self.target(*p)).constant.is_some())
            .map(|(n, _)| &**n)
    }
}
